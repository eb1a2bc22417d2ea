#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bulgarian_lane.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/lane_costs.hpp"
#include "host/common/slices.hpp"

namespace piles::bulgarian {

// The backward walk in lanes (core/bulgarian_lane.hpp), as the GPU's lanes kernel
// (kernels/bulgarian_backward.cu) runs it and as its host twin here emulates it. A launch puts
// the host's queue in the device's pool of walks and runs until no walk is left: each pass a
// warp first hands the rest of a busy lane's walk to each idle lane it can (shuffles, no
// memory), then lets its still idle lanes take walks from the pool (one atomic), and a warp
// whose lanes are all busy splits walks into the pool while it runs low; then the warp runs
// the unit most of its busy lanes want. Only a launch that runs out of passes parks its open
// walks for the next one; the host splits walks only once, before the first launch.

// What one launch hands back.
struct LaneLaunch {
  ForestCounts counts;               // the partitions its lanes visited
  bool too_deep = false;             // some depth reached the histogram's length
  std::uint64_t taken = 0;           // walks of the queue it took on (the pool holds them all)
  std::vector<ForestWalker> parked;  // open walks, to go on in the next launch
  int deepest = -1;                  // the greatest depth visited (-1: none)
  ForestWalker deepest_walk;         // a fresh walk at a partition of that depth
};

// The twin's tally of what the device's warps would issue.
struct LaneWalkStats {
  std::uint64_t launches = 0;
  std::uint64_t partitions = 0;
  std::uint64_t passes = 0;                                    // warp passes that ran a unit
  std::array<std::uint64_t, lanes::unit_kinds> units{};        // lane units run, by kind
  std::array<std::uint64_t, lanes::unit_kinds> unit_passes{};  // passes that ran each kind
  std::uint64_t gives = 0;        // walks handed from lane to lane within a warp
  std::uint64_t give_rounds = 0;  // a warp's rounds of such hand-overs (one set of shuffles)
  std::uint64_t takes = 0;        // a warp's takes from the pool (one atomic each)
  std::uint64_t walks_taken = 0;  // walks taken from the pool
  std::uint64_t pushes = 0;       // walks split into the pool
  std::uint64_t push_rounds = 0;  // a warp's rounds of pushes (one atomic each)
  std::uint64_t waits = 0;        // passes of warps all of whose lanes wait for the pool
  std::uint64_t parked = 0;
  // The passes of each launch, added up: the walk's length in passes however many warps run
  // beside each other.
  std::uint64_t serial_passes = 0;
  std::uint64_t warps = 0;  // the grid's warps (the largest launch's)

  // Units run over 32 times the passes the warps took.
  double lane_use() const;
  // Units run over the grid's lanes times the serial passes: how busy the whole device is.
  double device_lane_use() const;
  double passes_per_partition() const;
  // Warp instructions per partition by per-unit SASS counts (lane_costs.hpp: walk_lane_costs,
  // or walk_lane_leaves_costs for the lanes-leaves kernel).
  double warp_instructions_per_partition(const WalkUnitCosts& costs) const;
};

// The device shape the twin emulates: resident lanes (the kernel's grid is no larger than the
// device holds) and the passes a launch may run; and the kernel: leaves and twigs visited in
// place (lanes::step<true>, the lanes-leaves kernel) or stepped down to (lanes).
struct LaneDevice {
  std::size_t lanes = 0;
  std::uint64_t pass_budget = 0;
  bool leaves_in_place = false;
};

// One launch on the host, warp by warp and pass by pass, with the kernel's rules.
LaneLaunch lane_launch_host(const std::vector<ForestWalker>& queue, int depth_limit,
                            const LaneDevice& device, LaneWalkStats& stats);

struct LaneWalk {
  ForestCounts counts;
  bool too_deep = false;
  int deepest = -1;
  ForestWalker deepest_walk;
};

// Launch after launch until no walk is left: before the first, the walks are split until at
// least `wanted` wait (fill_round); a launch takes them all, and the ones it parks (out of
// passes) make the next queue as they are. Launch: (queue) -> LaneLaunch.
// `cancel` is asked before each launch; once it says so the walk throws Cancelled, unfinished.
template <class Launch>
LaneWalk drive_lane_walk(std::vector<ForestWalker> work, std::size_t wanted, Launch&& launch,
                         const Cancel& cancel = {}) {
  LaneWalk out;
  fill_round(work, wanted);
  while (!work.empty()) {
    if (cancelled(cancel)) throw Cancelled();
    LaneLaunch l = launch(work);
    out.counts.merge(l.counts);
    out.too_deep = out.too_deep || l.too_deep;
    if (l.deepest > out.deepest) {
      out.deepest = l.deepest;
      out.deepest_walk = l.deepest_walk;
    }
    l.parked.insert(l.parked.end(), work.begin() + static_cast<std::ptrdiff_t>(l.taken),
                    work.end());
    work.swap(l.parked);
  }
  return out;
}

// The twin's whole walk of `work` (subtrees of n's forest): the counts, equal to the CPU
// walk's, and the stats.
LaneWalk lane_walk_host(std::vector<ForestWalker> work, int n, const LaneDevice& device,
                        std::size_t wanted, LaneWalkStats& stats, const Cancel& cancel = {});

}  // namespace piles::bulgarian
