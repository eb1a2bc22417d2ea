#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/topswops.hpp"
#include "core/topswops_lane.hpp"

namespace piles::topswops {

// The first n cards of a deck, as the results on either backend carry decks.
template <int W>
std::vector<int> to_cards(const Deck<W>& deck, int n) {
  std::vector<int> cards(n);
  for (int i = 0; i < n; ++i) cards[i] = deck.at(i);
  return cards;
}

}  // namespace piles::topswops

namespace piles::gpu {

inline constexpr std::uint64_t default_found_capacity = std::uint64_t{1} << 20;

// One launch of the Topswops search (core/topswops.hpp): prefixes grouped in chunks, every
// prefix searched from the same target.
struct TopswopsWork {
  int n = 0;
  bool sorted = false;
  std::vector<std::int32_t> bound;        // n + 1 entries, as in topswops::Problem
  int depth = 0;                          // levels chosen in a prefix
  std::vector<std::uint8_t> choices;      // every prefix, back to back, depth bytes each
  std::vector<std::uint64_t> chunk_ends;  // chunk i: prefixes [chunk_ends[i-1], chunk_ends[i])
  int target = 0;
  // Games the device keeps for the host per launch; a chunk with more games of its best length
  // than were kept is run again (topswops_chunks.hpp). At least 1.
  std::uint64_t found_capacity = default_found_capacity;
};

struct TopswopsChunkResult {
  int best = -1;  // longest game reaching the target, -1 for none
  std::uint64_t count = 0;
  std::vector<std::vector<int>> starts, finals;  // the games of `best` steps found
  std::vector<std::uint64_t> nodes;              // per level, n entries
};

// A search's stop check and what it keeps when the check throws (a run's time limit or SIGTERM).
struct TopswopsStop {
  // Asked on the host before every launch, the runs again of overflowing chunks included; may
  // throw to end the search there, its work then unfinished.
  std::function<void()> check;
  // Given, before the check's exception goes on, every chunk's result so far and whether it is
  // whole (all its prefixes searched, all its longest games kept): the chunks finished before
  // the stop, for the caller to keep.
  std::function<void(const std::vector<TopswopsChunkResult>& results,
                     const std::vector<bool>& finished)>
      keep;
};

// Persistent threads take prefixes from an atomic counter; each chunk's best and game count
// are kept by atomic max, its games go into a bounded buffer (a chunk whose games overflow
// it is run again recording only games of its best length). Gives every chunk the same
// result as the CPU engine.
std::vector<TopswopsChunkResult> topswops_search(const TopswopsWork& work,
                                                 const TopswopsStop& stop = {});

// The same search and the same results as topswops_search, by warps whose lanes each take one
// unit of work per pass (core/topswops_lane.hpp) and a new prefix as soon as theirs is done.
// A launch stops after `pass_budget` passes (0 or UINT64_MAX: none) and parks the lanes still
// searching; the next launch takes them first, packed into fewer warps, then the prefixes left.
// `kind`: which pass the warps run (topswops::LockstepKernel), same results; the lean and staged
// kernels cap the pass budget at 2^32 - 1 a launch. The stop check is asked between launches too;
// a chunk is then finished where all its prefixes were taken and none of its lanes is parked.
std::vector<TopswopsChunkResult> topswops_search_lockstep(
    const TopswopsWork& work, std::uint64_t pass_budget,
    topswops::LockstepKernel kind = topswops::LockstepKernel::lockstep,
    const TopswopsStop& stop = {});

// Threads of the search for n cards resident on the current device at once (decks of more
// than 16 cards take a third word, and more registers).
std::uint64_t topswops_threads_in_flight(int n);

// Lanes of the lockstep search for n cards resident on the current device at once: as many
// prefixes as a launch searches side by side.
std::uint64_t topswops_lockstep_lanes_in_flight(
    int n, topswops::LockstepKernel kind = topswops::LockstepKernel::lockstep);

}  // namespace piles::gpu
