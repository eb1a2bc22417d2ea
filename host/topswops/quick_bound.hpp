#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "host/topswops/plan.hpp"

namespace piles::topswops {

// A long game found by find_long_game: its start deck and its steps (play(deck) replays it), and
// when it was found, in seconds from the start of the search.
struct LongGame {
  std::vector<int> deck;
  int steps = 0;
  double seconds = 0;
};

struct QuickBoundOptions {
  int n = 0;
  Final final = Final::any;
  double seconds = 60;  // wall-clock limit
  int threads = 1;
  std::uint64_t seed = 1;
  std::optional<int> stop_at;  // stop once a game this long is found (an upper limit on f(n))
  int max_rounds = 0;          // rounds of beams (see find_long_game); 0: until `seconds` ends
};

// Searches quickly for a long game on n cards, for the exact search's starting lower bound: any
// real game's length is one. Backward beam search: a deck D has a predecessor by a flip of k
// exactly when card k sits at position k, so every game hangs below its final deck; a beam keeps
// the decks with the most such moves open, level by level, until none is left. Without a sorted
// final the final deck's cards under card 1 start unknown and are fixed as moves need them.
// Round r runs `threads` beams of width 2^(r + 10), each with its own random tie-breaks; the
// result depends only on the seed, the thread count and the rounds finished (a beam cut short by
// the time limit still gives the deepest deck it reached). Throws UsageError for n outside
// 1..max_n, threads < 1, a negative time or a negative max_rounds.
LongGame find_long_game(const QuickBoundOptions& options);

}  // namespace piles::topswops
