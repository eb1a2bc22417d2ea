#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/topswops_lane.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/lane_costs.hpp"

namespace piles::topswops {

// The GPU's lockstep search (core/topswops_lane.hpp) run on the host: warps of 32 lanes taking
// one unit each per pass, a lane out of work refilled by its warp (the wanting lanes in lane
// order take consecutive items), launches of a pass budget that park their open lanes for the
// next launch. The same chunks as run_chunks_cpu with the same results, for every budget; CI
// tests the GPU's algorithm through it, and it measures what a warp would issue.

// How lanes share their warp's passes. `by_unit`, the kernel's: each pass runs the unit most
// lanes want (lockstep::pass_unit), for those lanes. `mixed`: every lane with work takes its
// own next unit each pass, so a pass issues every unit some lane takes. `per_thread`: the dfs
// kernel's order replayed (each lane its own search_below): while any lane is playing out a
// choice (flip, block) the warp runs that loop and the other lanes wait, as a loop runs until
// its slowest lane is done.
enum class Schedule { by_unit, mixed, per_thread };

// The kernel's instructions by what they serve (lane_costs.hpp), for the model of the kernel
// whose passes the engine runs (LockstepKernel, core/topswops_lane.hpp).
constexpr const UnitCosts& kernel_costs(LockstepKernel k) {
  return k == LockstepKernel::staged_shared ? staged_shared_kernel_costs
         : k == LockstepKernel::staged      ? staged_kernel_costs
         : k == LockstepKernel::lean        ? lean_kernel_costs
                                            : lockstep_kernel_costs;
}

// What a warp's instructions serve, as the model splits them (UnitCosts' parts, units first).
inline constexpr std::array<const char*, 12> model_parts = {
    "choose", "flip",     "block",      "land", "ret",  "refill",
    "vote",   "dispatch", "flip_again", "pass", "warp", "stack"};

// What the warps issued: each pass its own instructions and its vote, the unit (or, in the
// mixed and per-thread schedules, every kind of unit that any of its lanes takes) once, a jump
// to a unit other than the flip (once a pass, however many units it runs), a refill when a lane
// takes work, the flips after a pass's first where a lane takes them and what a pass (staged: a
// round) of landings and returns issues once for both; in the staged kernel, each stage some lane
// runs, once, and no vote or jump; each warp its start and end once a launch. The
// lanes needed their own units and refills, and all 32 run the pass's own instructions and vote,
// as the profiler counts them. Counted as events, weighed at report time by a table of costs in
// device instructions (lane_costs.hpp: by default the kernel's own SASS, for the kernel the engine
// ran).
struct LaneUse {
  LockstepKernel kernel = LockstepKernel::lockstep;
  std::uint64_t launches = 0, warp_runs = 0, passes = 0, nodes = 0;
  std::array<std::uint64_t, lockstep::unit_kinds> units{};  // units taken by lanes, per kind
  // Passes issuing each kind (staged: landings and returns, rounds issuing them).
  std::array<std::uint64_t, lockstep::unit_kinds> unit_passes{};
  std::uint64_t voted_passes = 0;       // passes that ran the vote (the by_unit schedule)
  std::uint64_t dispatched_passes = 0;  // passes that ran a unit other than the flip
  std::uint64_t stack_passes = 0;       // passes (staged: rounds) that ran a landing or a return
  std::uint64_t refill_passes = 0;      // passes in which some lane wanted work
  std::uint64_t lanes_wanting = 0;      // lanes that wanted work, counted at each refill
  std::uint64_t refills = 0;            // work items taken by lanes
  // Rounds of flips after a pass's first in which some lane flipped (lean: at most one a pass;
  // staged: up to flip_rounds - 1).
  std::uint64_t flip_again_rounds = 0;

  const UnitCosts& costs() const { return kernel_costs(kernel); }
  std::uint64_t warp_instructions(const UnitCosts& c) const;
  std::uint64_t lane_instructions(const UnitCosts& c) const;
  std::uint64_t warp_instructions() const { return warp_instructions(costs()); }
  std::uint64_t lane_instructions() const { return lane_instructions(costs()); }
  double instructions_per_node(const UnitCosts& c) const {
    return nodes ? static_cast<double>(warp_instructions(c)) / nodes : 0;
  }
  double instructions_per_node() const { return instructions_per_node(costs()); }
  double lane_use(const UnitCosts& c) const {
    const std::uint64_t warp = warp_instructions(c);
    return warp ? static_cast<double>(lane_instructions(c)) / (32.0 * warp) : 0;
  }
  double lane_use() const { return lane_use(costs()); }
  // Warp instructions by what they serve (model_parts), in all and per node.
  std::array<std::uint64_t, model_parts.size()> by_part(const UnitCosts& c) const;
  std::array<double, model_parts.size()> per_node_by_part() const;
  void add(const LaneUse& other);
};

struct LockstepOptions {
  std::uint64_t pass_budget = 0;  // passes per launch; 0: each launch runs until the work is done
  int warps = 1;  // warps of a launch (no more than its items fill), run on `threads` threads
  int threads = 1;
  Schedule schedule = Schedule::by_unit;  // of the lockstep and lean kernels' passes
  LockstepKernel kernel = LockstepKernel::lockstep;
  // Passes a warp runs before the next takes its turn, round after round, as a GPU's resident
  // warps advance side by side and share out the items (so that, as there, lanes run dry
  // unevenly at a launch's end); 0: each warp runs its whole budget in one turn.
  std::uint64_t turn = 0;
};

// Each chunk goes to `done` as soon as none of its work is left (between launches). `cancel` is
// asked between launches and between the warps' turns, as the GPU engine's host asks between
// launches; once it says so the call hands over the chunks finished by then and throws
// Cancelled, leaving the others to the run that resumes.
void run_chunks_lockstep(const Plan& plan, const std::vector<int>& chunks, int target,
                         const LockstepOptions& options, const ChunkDone& done,
                         LaneUse* use = nullptr, const Cancel& cancel = {});

}  // namespace piles::topswops
