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

// What the warps issued: each pass issues every kind of unit that any of its lanes takes once,
// at that unit's cost in device instructions (lane_costs.hpp), plus a refill when a lane takes
// work; the lanes needed only their own units.
struct LaneUse {
  std::uint64_t launches = 0, passes = 0, nodes = 0;
  std::uint64_t warp_instructions = 0, lane_instructions = 0;
  std::array<std::uint64_t, lockstep::unit_kinds> units{};  // units taken by lanes, per kind
  std::uint64_t refills = 0;                                // work items taken by lanes

  double instructions_per_node() const {
    return nodes ? static_cast<double>(warp_instructions) / nodes : 0;
  }
  double lane_use() const {
    return warp_instructions ? static_cast<double>(lane_instructions) / (32.0 * warp_instructions)
                             : 0;
  }
  void add(const LaneUse& other);
};

struct LockstepOptions {
  std::uint64_t pass_budget = 0;  // passes per launch; 0: each launch runs until the work is done
  int warps = 1;                  // warps of a launch, run side by side on `threads` threads
  int threads = 1;
  Schedule schedule = Schedule::by_unit;
};

void run_chunks_lockstep(const Plan& plan, const std::vector<int>& chunks, int target,
                         const LockstepOptions& options, const ChunkDone& done,
                         LaneUse* use = nullptr);

}  // namespace piles::topswops
