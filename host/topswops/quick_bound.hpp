#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "host/common/slices.hpp"
#include "host/topswops/plan.hpp"

namespace piles::topswops {

// A long game found by find_long_game: its start deck and its steps (play(deck) replays it), and
// when it was found, in seconds from the start of the search.
struct LongGame {
  std::vector<int> deck;
  int steps = 0;
  double seconds = 0;
  bool cancelled = false;  // `cancel` ended the search before its time
  // The published (n-1)-card deck whose game this one was grown from (grow_game), if it was.
  std::vector<int> grown_from;
};

struct QuickBoundOptions {
  int n = 0;
  Final final = Final::any;
  double seconds = 60;  // wall-clock limit
  int threads = 1;
  std::uint64_t seed = 1;
  std::optional<int> stop_at{};  // stop once a game this long is found (an upper limit on f(n))
  int max_rounds = 0;            // rounds of beams (see find_long_game); 0: until `seconds` ends
  // Where given, the search also ends after a whole round of beams (twice as wide as the round
  // before, and about as long as all before it) finds no longer game, once stall_floor seconds
  // have passed. Rounds that find nothing come early too (at 17 cards the third to the fifth,
  // before 3 s on 2 cores): the floor lets those go by.
  std::optional<double> stall_floor{};
  // Whether the search first grows the published longest games of n - 1 cards (grow_game).
  bool grow = true;
  // Asked before every level of a beam, as the time is: once it says so (a run's --time-limit or
  // SIGTERM) the search ends with the best game it reached.
  Cancel cancel;
};

// Searches quickly for a long game on n cards, for the exact search's starting lower bound: any
// real game's length is one. Where the decks that reach f(n - 1) are published (n = 14..20) and
// `grow` is set, each is grown to n cards first (grow.hpp), on the threads, within a budget
// (about a second): at 16, 18 and 20 cards that alone finds f(n) (results/bench/quick_bound.md).
// Under a sorted final only those whose games end sorted are grown. Then two beam searches take
// turns, since each wins at some n:
// - backward: a deck D has a predecessor by a flip of k exactly when card k sits at position k,
//   so every game hangs below its final deck; the beam keeps, level by level, the decks with the
//   most such moves and unknown cards. Without a sorted final the cards under card 1 start
//   unknown and are fixed as moves need them;
// - forward, over Knuth's tree (core/topswops.hpp) pruned as the exact search prunes against one
//   more than the best game so far: each level keeps the nodes that played the most steps.
// Round r runs `threads` beams of width 2^(r + 10) (capped), each with its own random
// tie-breaks; the result depends only on the seed, the thread count and the rounds finished (a
// beam or a growing cut short by the time limit still gives the best game it reached). Throws
// UsageError for n outside 1..max_n, threads < 1, a negative time or a negative max_rounds.
LongGame find_long_game(const QuickBoundOptions& options);

}  // namespace piles::topswops
