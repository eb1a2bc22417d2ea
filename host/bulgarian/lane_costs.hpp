#pragma once

#include <array>

#include "core/bulgarian_lane.hpp"

namespace piles::bulgarian {

// Warp instructions of each unit of the backward walk in lanes (descend, ascend), of a refill
// (ballot, counter, shuffle, taking a walk from the queue and visiting a fresh root) and of a
// pass's own loop (votes, the park test), in the sm_90 SASS of bench/walk_lane_costs_probe.cu:
// one probe kernel per unit, its loads and stores of the lane left out, counted by
// `scripts/lane-costs --walk`. Every instruction of a unit counts once, as written: both sides
// of a branch (a warp whose lanes part there issues both), and the ring shifts and the search
// for a part's group as ptxas unrolled them, though they run 0 to a few times. So these are
// upper bounds, and the per-partition figure the host twin (lane_walk.hpp) weighs its passes
// into is one too.
struct WalkUnitCosts {
  std::array<int, lanes::unit_kinds> unit;
  int refill;
  int pass;
};

inline constexpr WalkUnitCosts walk_lane_costs{{130, 171}, 176, 22};

}  // namespace piles::bulgarian
