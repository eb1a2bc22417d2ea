#pragma once

// The generic forward engine: the whole structure of any deterministic game on a finite set of
// ranked states (core/bulgarian_games.hpp) on the CPU. Its GPU twin is
// kernels/bulgarian_generic.hpp; both take the same steps.

#include "core/bulgarian_games.hpp"
#include "host/bulgarian/analysis.hpp"
#include "kernels/bulgarian_forward.hpp"

namespace piles::bulgarian {

// Bytes per state at the engine's peak: successors, two arrays of jumps, one mark per state.
inline constexpr int generic_bytes_per_state = 13;

// Every state's successor by unrank, move and rank; pointer doubling until the image of the
// jumps stops shrinking, which leaves it the set of states on cycles; the states outside the
// successors' image (Garden of Eden); depths by level passes.
ForwardCounts generic_cpu(const PlainGame& game, int threads);
ForwardCounts generic_cpu(const CarolinaGame& game, int threads);
ForwardCounts generic_cpu(const MultiplayerGame& game, int threads);
ForwardCounts generic_cpu(const AustrianGame& game, int threads);

// Cycle count and lengths, following each cycle of the states in a.cycle_ranks once.
void count_cycles(const PlainGame& game, Analysis& a);
void count_cycles(const CarolinaGame& game, Analysis& a);
void count_cycles(const MultiplayerGame& game, Analysis& a);
void count_cycles(const AustrianGame& game, Analysis& a);

}  // namespace piles::bulgarian
