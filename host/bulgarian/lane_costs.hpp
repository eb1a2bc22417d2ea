#pragma once

#include <array>

#include "core/bulgarian_lane.hpp"

namespace piles::bulgarian {

// Warp instructions of each unit of the backward walk in lanes (descend, ascend, each with
// the look at the lane's deepest node), and of a pass's other parts as walk_lanes_kernel
// writes them: a take from the pool (the claim, the wait for the pusher's word, the walk's copy
// and a fresh root's visit), a round of hand-overs within the warp (votes, the walk's 39 words
// shuffled, unrolled), a round of pushes into the pool, a pass's own votes and open count, and the
// pass of a warp that waits for the pool; in the sm_90 SASS of bench/walk_lane_costs_probe.cu (one
// probe kernel each, its loads and stores of the lane left out), counted by `scripts/lane-costs
// --walk`. Every instruction counts once, as written: both sides of a branch (a warp whose
// lanes part there issues both), the ring shifts and the search for a part's group as ptxas
// unrolled them though they run 0 to a few times, the waits for a pool slot's word once. So
// these are upper bounds, save where a wait spins, and so is the per-partition figure the host
// twin (lane_walk.hpp) weighs its passes into.
struct WalkUnitCosts {
  std::array<int, lanes::unit_kinds> unit;
  int take;
  int give;
  int push;
  int pass;
  int wait;
};

inline constexpr WalkUnitCosts walk_lane_costs{{169, 219}, 309, 132, 148, 56, 17};
// The lanes-leaves kernel's: its descent holds every way, a leaf or a twig visited in place and
// the step down (a warp whose lanes part there issues each).
inline constexpr WalkUnitCosts walk_lane_leaves_costs{{295, 219}, 309, 132, 148, 56, 17};

// The costs of the lanes kernel, or of lanes-leaves where leaves are visited in place.
constexpr const WalkUnitCosts& walk_costs(bool leaves_in_place) {
  return leaves_in_place ? walk_lane_leaves_costs : walk_lane_costs;
}

}  // namespace piles::bulgarian
