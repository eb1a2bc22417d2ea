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
// plus a refill when a lane takes work; the lanes needed only their own units. Counted as
// events, weighed at report time by a table of unit costs in device instructions
// (lane_costs.hpp: SASS by default, PTX to compare).
struct LaneUse {
  std::uint64_t launches = 0, passes = 0, nodes = 0;
  std::array<std::uint64_t, lockstep::unit_kinds> units{};        // units taken by lanes, per kind
  std::array<std::uint64_t, lockstep::unit_kinds> unit_passes{};  // passes issuing each kind
  std::uint64_t voted_passes = 0;   // passes that ran the vote (the by_unit schedule)
  std::uint64_t refill_passes = 0;  // passes in which some lane wanted work
  std::uint64_t lanes_wanting = 0;  // lanes that wanted work, counted at each refill
  std::uint64_t refills = 0;        // work items taken by lanes

  std::uint64_t warp_instructions(const UnitCosts& c = lane_costs) const;
  std::uint64_t lane_instructions(const UnitCosts& c = lane_costs) const;
  double instructions_per_node(const UnitCosts& c = lane_costs) const {
    return nodes ? static_cast<double>(warp_instructions(c)) / nodes : 0;
  }
  double lane_use(const UnitCosts& c = lane_costs) const {
    const std::uint64_t warp = warp_instructions(c);
    return warp ? static_cast<double>(lane_instructions(c)) / (32.0 * warp) : 0;
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
