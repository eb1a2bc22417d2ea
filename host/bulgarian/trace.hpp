#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/partition.hpp"

namespace piles::bulgarian {

// A trace needs no rank table, so it takes any number of cards that fits a part.
inline constexpr std::int64_t max_trace_cards = 1'000'000'000;

struct Trace {
  std::vector<int> start;  // sorted, non-increasing
  std::int64_t cards = 0;
  // Start first; ends at the fixed point or the repeat. Empty unless the trace was listed.
  std::vector<std::vector<int>> partitions;
  std::int64_t transient = 0;  // moves until the first partition on the cycle
  std::int64_t cycle_length = 0;
};

// Parses "5,2,2" (parts in any order) into non-increasing parts of at most max_cards cards in
// all; throws UsageError.
std::vector<int> parse_partition(std::string_view text, std::int64_t max_cards = partition::max_n);

// Plays until a partition repeats. The transient and the cycle come from Brent's cycle finding,
// which keeps two partitions at a time; `list` then plays the trace again to keep every
// partition: a fixed point (the triangle) is listed once, a longer cycle shows its first
// partition again, as seed 001's Table 1 does.
Trace trace(const std::vector<int>& start, bool list = true);

}  // namespace piles::bulgarian
