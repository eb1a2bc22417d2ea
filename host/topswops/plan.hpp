#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/topswops.hpp"
#include "core/topswops_backward.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/tail.hpp"

namespace piles::topswops {

enum class Final { any, sorted };
const char* final_name(Final final);

// Everything that fixes a search and its node counts, built the same way by every process
// that works on it (a run, its resumption, every shard, the merge):
// - the pruning table bound[h] (DESIGN.md section 5): for h < n the published f(h) (or, for
//   games ending sorted, the published A000376 value) where known, f(h) where only that is
//   known, else Knuth's bound F(h+1) - 1 (Fibonacci); for h = n always Knuth's bound, so
//   nothing about n itself is assumed;
// - the start target: --bound L, else the published value for n-1 (a lower bound: putting
//   card n under a longest deck of n-1 cards gives a game as long);
// - optionally a tail (tail.hpp): the bound once card n lands, lower for higher targets, so
//   each round's table follows from its target (bounds_at);
// - the prefixes: the nodes at level `depth`, enumerated on the host in search order, and
//   numbered chunks of consecutive prefixes; the nodes above them belong to chunk 0;
// - the rounds: chunks run in rounds (1, 2, 4, ... chunks, then all the rest), every prefix
//   of a round starting from the best game found in the rounds before it (at least the start
//   target). A search told its bound (--bound L) has no such rounds to find one: all its chunks
//   make one round. Each prefix's search depends only on its round's target, never on which thread
//   or device ran its neighbours, so a chunk's result, node counts included, is fixed.
struct Plan {
  int n = 0;
  Final final = Final::any;
  int start_target = 0;
  std::vector<std::int32_t> bound;  // n + 1 entries
  int depth = 0;
  std::size_t prefix_count = 0;
  std::vector<std::uint8_t> choices;  // prefix i: choices[i * depth, (i + 1) * depth)
  int chunk_count = 1;
  Partial top;  // the levels 0..depth, counted once: chunk 0 carries them
  Tail tail;
  int warmup = 0;  // rounds of 1, 2, ..., 2^(warmup-1) chunks before the rest
  // Where the start target came from when a quick search found it (not --bound, not f(n-1)):
  // the deck whose game reaches it, kept in the identity so that a resumed run starts alike.
  std::vector<int> start_deck;
  // What cut that quick search short ("--time-limit", "SIGTERM"; "" for nothing), kept beside
  // the deck so that a resumed run's answer still says it.
  std::string start_cut_by;
  // The published (n-1)-card deck that quick search grew the game from, if it did (grow.hpp).
  std::vector<int> start_grown_from;
  // Set for the backward search of games ending sorted (backward.hpp): its prefixes are moves
  // down from the sorted deck, bound[p] bounds f(p), and its levels are the decks' deepest
  // card at home (level p - 1; level 0 also holds the leaves).
  std::optional<backward::Prune> backward;
  // Its revision in the identity: 1 for journals whose prefixes each raised their own target as
  // they found longer games (read and merged, not resumed), 2 for a fixed target a round.
  int backward_revision = 2;
  // Its split rule's table for `bound` (backward::fill_split_steps), on the host.
  std::vector<backward::SplitStep> split_steps;

  // The pruning table for a search that starts from `target`: `bound` with the tail's cap.
  std::vector<std::int32_t> bounds_at(int target) const;
  // The search on `table` (bound or bounds_at), which must outlive the Problem.
  Problem problem(const std::vector<std::int32_t>& table) const {
    return {n, final == Final::sorted, table.data()};
  }
  std::size_t chunk_begin(int chunk) const { return prefix_count * chunk / chunk_count; }
  std::size_t chunk_prefixes(int chunk) const {
    return chunk_begin(chunk + 1) - chunk_begin(chunk);
  }
  int round_of(int chunk) const;
  int round_count() const { return round_of(chunk_count - 1) + 1; }
  std::vector<int> chunks_of_round(int round) const;
  // What a journal for this plan must match.
  nlohmann::json identity() const;
  // The bound the run was told (--bound): a plan without warm-up rounds starts from it.
  std::optional<int> told_bound() const {
    return warmup == 0 && n > 1 ? std::optional(start_target) : std::nullopt;
  }
  // The options a run of this plan is given besides `topswops solve N --final F`, as a user
  // types them to go on with its journal; the tail's journals, which the plan does not name,
  // are said in angle brackets.
  std::string options() const;
};

inline constexpr int max_chunks = 4096;
// Prefixes sit at least this far above the leaves, so a subtree is worth handing out.
inline constexpr int min_levels_below = 6;
inline constexpr int warmup_rounds = 8;  // rounds of 1, 2, ..., 128 chunks before the rest
// Asks make_plan for rounds that double until the last holds the rest (at 4096 chunks: 1, 2,
// ..., 1024, then 2049; never fewer than warmup_rounds), so that half of the search starts from
// the longest game of the other half. What a run in one job wants; a shard would repeat every
// round before the last one.
inline constexpr int doubling_rounds = -1;

// How many chunks `prefixes` prefixes make: small searches fewer, each worth a journal line.
int chunk_count_for(std::size_t prefixes);

// Throws UsageError for n outside 1..max_n, a negative bound or a tail for another n. The
// warm-up rounds: `warmup` where given (a journal's, or doubling_rounds), else none with a
// bound and warmup_rounds without.
Plan make_plan(int n, Final final, std::optional<int> bound, Tail tail = {},
               std::optional<int> warmup = std::nullopt);

// The pruning table's entry for h < n cards (see Plan).
int bound_for(int h, Final final);
// Knuth's upper bound on the longest game on h cards: F(h+1) - 1.
int fibonacci_bound(int h);

}  // namespace piles::topswops
