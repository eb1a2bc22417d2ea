#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"
#include "host/common/progress.hpp"
#include "host/job/driver.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/tail.hpp"

namespace piles::topswops {

// The (n-1)-card enumeration behind a Tail (tail.hpp), as a job of the driver: every
// (n-1)-card deck whose game has at least `from` steps, found as the derangements of at least
// that many (a search whose target stays put) and the decks along their games (any deck with
// a card k >= 2 at position k is one step along the game of the deck made by flipping its top
// k cards). Chunks are those of the (n-1)-card plan, all in one round. On the CPU.

// Where the enumeration starts: the longest game that the first chunk of the n-card search
// finds, played until card n lands at the bottom; the steps still to come then (deeper gains
// nothing against a game that long: its own deck keeps the cap there). But never below 3/4 of
// f(n-1): that chunk's game can be short and land early (n = 16: 121 steps, 65 to go, where a
// longest game has 104 to go), and each step deeper costs more than the last; 3/4 is at or
// below the best start for n = 12..15.
struct TailStart {
  int from = 0;
  std::vector<int> deck;      // empty when that chunk found no game
  int steps = 0, landed = 0;  // landed = 0: card n never landed in that game
};
// Shows its progress in `style`: minutes from n = 17 on, before the job's own progress starts.
TailStart choose_tail_start(int n, int threads, const ProgressStyle& style = {.quiet = true});

struct TailOptions {
  int n = 0;
  std::optional<int> from;  // --from K, else the start in the --checkpoint journal, else
                            // choose_tail_start
  job::Options run;
};

struct TailResult {
  int n = 0;
  TailStart start;
  std::vector<int> any, sorted;      // Tail::longest for each variant
  std::uint64_t games = 0;           // derangements of n-1 cards with at least `from` steps
  std::uint64_t decks = 0;           // decks looked at: those and the decks along their games
  std::vector<std::uint64_t> nodes;  // of the (n-1)-card search, per level
  job::Status run;
  double seconds = 0;
  RunTarget target;

  Tail tail(Final final) const { return {n, start.from, final == Final::sorted ? sorted : any}; }
};

// Throws UsageError for n outside 2..max_n or a start outside 1..bound_for(n-1).
TailResult run_tail(const TailOptions& options, const RunTarget& target);

// The finished tail in the journals of one run (or of its shards); UsageError when they are of
// another job or miss a chunk.
TailResult read_tail(const std::vector<std::string>& journals);

// How far a tail's journal has come (job::survey).
job::Survey survey_tail(const std::string& journal);

// The longest chain of backward moves from a deck (cards 1..n, top first): a backward move
// flips the top k cards where card k sits at position k, k >= 2.
int longest_backward(std::vector<int>& cards);

}  // namespace piles::topswops
