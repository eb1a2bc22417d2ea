#pragma once

#include <array>

#include "core/topswops_lane.hpp"

namespace piles::topswops {

// Device instructions of each unit of the lockstep search (choose, flip, block, land, ret) and
// of a refill (ballot, counter, shuffle, taking a seed) and a pass's vote, for a deck of two words
// and any final (the sorted final's units carry its checks besides): the sm_90 SASS of
// bench/lane_costs_probe.cu, what the GPU runs, one probe kernel per unit, without the probe's own
// loads and stores of the lane (registers in the kernel), counted by `scripts/lane-costs --sass`,
// which prints these figures. Both sides of a branch inside a unit count, as a warp whose lanes
// part there issues both. The host lockstep engine's warp model weighs units by them.
struct UnitCosts {
  std::array<int, lockstep::unit_kinds> unit;
  int refill;
  int vote;  // of a pass run by unit (lockstep::pass_unit)
};

inline constexpr UnitCosts lane_costs{{8, 38, 93, 47, 23}, 69, 11};
// The same units in the PTX of the probes (plain `scripts/lane-costs`), the costs the model used
// before it counted SASS, kept for comparison: ptxas turns the flip and the fixed-block check
// into fewer instructions.
inline constexpr UnitCosts lane_costs_ptx{{7, 48, 141, 52, 28}, 54, 11};

}  // namespace piles::topswops
