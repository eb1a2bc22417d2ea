#pragma once

#include <string_view>
#include <vector>

namespace piles::bulgarian {

struct Trace {
  std::vector<int> start;                    // sorted, non-increasing
  std::vector<std::vector<int>> partitions;  // start first; ends at the fixed point or the repeat
  int transient = 0;                         // moves until the first partition on the cycle
  int cycle_length = 0;
};

// Parses "5,2,2" (parts in any order) into non-increasing parts; throws UsageError.
std::vector<int> parse_partition(std::string_view text);

// Plays until a partition repeats; a fixed point (the triangle) is listed once, a longer
// cycle shows its first partition again, as seed 001's Table 1 does.
Trace trace(const std::vector<int>& start);

}  // namespace piles::bulgarian
