#pragma once

#include <array>

#include "core/topswops_lane.hpp"

namespace piles::topswops {

// Device instructions a warp of the lockstep search issues, by what it issues them for: each
// unit (choose, flip, block, land, ret) in a pass that runs it; every pass's own (the loop, the
// ballot for idle lanes, the counter; in the lockstep kernel the check that all are done, in
// the staged kernel the test that opens each stage); the vote of a pass run by unit; the jump
// to a unit other than the flip; a refill (ballot, counter, shuffle, taking a seed or a parked
// lane); each round of flips after a pass's first (lean: one, staged: up to three); once per warp
// and launch, its start and end (counts cleared, flushed, lanes parked); and in the lean and staged
// kernels, a pass of landings and returns: what it issues once for both (stack_unit). Both
// sides of a branch count, as a warp whose lanes part there issues both. The host lockstep
// engine's warp model (LaneUse) weighs the events it counts by them.
struct UnitCosts {
  std::array<int, lockstep::unit_kinds> unit;
  int refill;
  int vote;
  int pass = 0;
  int dispatch = 0;
  int flip_again = 0;
  int warp = 0;
  int stack = 0;
};

// The kernels as the build compiles them (lockstep_kernel<2, false, K> in sm_90 SASS, any
// final, two-word decks), each instruction given to what it serves by the source line it came
// from: `scripts/lane-costs --kernel` prints these figures.
inline constexpr UnitCosts lockstep_kernel_costs{{11, 40, 88, 59, 24}, 366, 14, 16, 17, 0, 1011};
inline constexpr UnitCosts lean_kernel_costs{{11, 18, 89, 48, 13}, 363, 14, 10, 11, 21, 1165, 12};
inline constexpr UnitCosts staged_kernel_costs{{5, 27, 89, 47, 12}, 359, 0, 23, 0, 21, 1169, 14};
// A landing counts its node in shared memory: 7 instructions fewer than staged's local count.
inline constexpr UnitCosts staged_shared_kernel_costs{
    {5, 27, 89, 40, 12}, 299, 0, 24, 0, 21, 1158, 14};

// The units alone, as probes (bench/lane_costs_probe.cu) compile them, with no pass around them:
// the model's costs before it counted the kernel, kept for comparison. In sm_90 SASS
// (`scripts/lane-costs --sass`) and in PTX (plain `scripts/lane-costs`), where ptxas turns the
// flip and the fixed-block check into fewer instructions.
inline constexpr UnitCosts probe_costs{{8, 38, 93, 47, 23}, 69, 11};
inline constexpr UnitCosts probe_costs_ptx{{7, 48, 141, 52, 28}, 54, 11};

}  // namespace piles::topswops
