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

// A GPU engine's longest transient, replayed on the host before it is printed or journaled
// (DESIGN.md section 10): `deepest`, the partition the engine reports farthest from its cycle,
// must be a partition of n whose trace takes exactly as many moves as the last nonzero index of
// the engine's `histogram`. Throws std::runtime_error naming n and the engine otherwise; an
// empty histogram (nothing visited on the device) has nothing to check.
void check_longest_transient(int n, const std::vector<std::uint64_t>& histogram,
                             const std::vector<int>& deepest, std::string_view engine);

// The same for any deterministic game whose states are written as vectors of ints:
// advance(state, spare) makes one move of `state`, using `spare` as it likes. Leaves
// Trace::cards to the caller, who knows what a state's ints mean.
template <class Advance>
Trace play_until_repeat(const std::vector<int>& start, Advance advance, bool list) {
  Trace t;
  t.start = start;
  std::vector<int> spare;
  // Brent: the hare runs ahead, the tortoise jumps to it at every power of two; they meet
  // once the power passes the cycle length and the tortoise is on the cycle.
  std::vector<int> tortoise = start, hare = start;
  advance(hare, spare);
  std::int64_t power = 1, lambda = 1;
  while (tortoise != hare) {
    if (power == lambda) {
      tortoise = hare;
      power *= 2;
      lambda = 0;
    }
    advance(hare, spare);
    ++lambda;
  }
  // Two walkers lambda moves apart meet first on the cycle's first state.
  tortoise = hare = start;
  for (std::int64_t i = 0; i < lambda; ++i) advance(hare, spare);
  std::int64_t mu = 0;
  for (; tortoise != hare; ++mu) {
    advance(tortoise, spare);
    advance(hare, spare);
  }
  t.transient = mu;
  t.cycle_length = lambda;
  if (!list) return t;
  std::vector<int> p = start;
  for (std::int64_t i = 0; i < mu + lambda; ++i) {
    t.partitions.push_back(p);
    advance(p, spare);
  }
  if (lambda > 1) t.partitions.push_back(p);
  return t;
}

}  // namespace piles::bulgarian
