#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/partition.hpp"
#include "host/common/progress.hpp"

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
  std::vector<int> cycle_start;  // the first state on the cycle
};

// A trace lists its partitions unless it is longer than this (or asked to).
inline constexpr std::int64_t listed_moves = 1000;

// The plain game in constant time a move, whatever the number of cards: a pile is known by the
// move at which it runs out (a pile of s cards at move t runs out at move t + s), since every
// move takes a card from each pile. A move then adds the new pile, which runs out as many moves
// later as there were piles, and drops those that run out now. The partition is kept as a hash
// too (the sum of x^part modulo 2^61 - 1, which a move updates at once), and two walks hold the
// same partition when their hashes match and a comparison of the parts confirms it.
class Walk {
 public:
  explicit Walk(const std::vector<int>& start);  // any order
  void move();
  std::int64_t moves() const { return moves_; }
  std::int64_t piles() const { return piles_; }
  std::uint64_t hash() const { return hash_; }
  std::vector<int> partition() const;  // non-increasing
  bool same(const Walk& other) const;

 private:
  void grow();
  std::int64_t moves_ = 0, piles_ = 0;
  // The start's piles by run-out move, rising, those before next_first_ gone.
  std::vector<std::int64_t> first_;
  std::size_t next_first_ = 0;
  // Piles made since, counted by run-out move modulo the ring's size, which stays above the
  // number of piles so that every pile alive has a slot of its own move.
  std::vector<std::uint32_t> ring_;
  std::uint64_t mask_ = 0;
  std::vector<std::uint64_t> power_;  // x^s for s below the ring's size
  std::uint64_t hash_ = 0;
};

// Parses "5,2,2" (parts in any order) into non-increasing parts of at most max_cards cards in
// all; throws UsageError.
std::vector<int> parse_partition(std::string_view text, std::int64_t max_cards = partition::max_n);

// Plays until a partition repeats, on Walks: Brent's cycle finding gives the cycle's length
// and a partition on it; the hashes of the cycle's partitions then tell the first partition of
// the trace that is on the cycle, searched from the last of Brent's tortoises off the cycle (a
// hash that matches is confirmed: a partition is on the cycle when it comes back after a
// cycle's length). `list` then plays the trace again to keep every
// partition: a fixed point (the triangle) is listed once, a longer cycle shows its first
// partition again, as seed 001's Table 1 does. `progress` counts the moves.
Trace trace(const std::vector<int>& start, bool list = true, Progress* progress = nullptr);

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
// `progress` counts the moves.
template <class Advance>
Trace play_until_repeat(const std::vector<int>& start, Advance advance, bool list,
                        Progress* progress = nullptr) {
  Trace t;
  t.start = start;
  std::vector<int> spare;
  std::uint64_t played = 0;
  const auto move = [&](std::vector<int>& state) {
    advance(state, spare);
    if (progress && ++played % 4096 == 0) progress->add(4096);
  };
  // Brent: the hare runs ahead, the tortoise jumps to it at every power of two; they meet
  // once the power passes the cycle length and the tortoise is on the cycle.
  std::vector<int> tortoise = start, hare = start;
  move(hare);
  std::int64_t power = 1, lambda = 1;
  while (tortoise != hare) {
    if (power == lambda) {
      tortoise = hare;
      power *= 2;
      lambda = 0;
    }
    move(hare);
    ++lambda;
  }
  // Two walkers lambda moves apart meet first on the cycle's first state.
  tortoise = hare = start;
  for (std::int64_t i = 0; i < lambda; ++i) move(hare);
  std::int64_t mu = 0;
  for (; tortoise != hare; ++mu) {
    move(tortoise);
    move(hare);
  }
  t.transient = mu;
  t.cycle_length = lambda;
  t.cycle_start = tortoise;
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
