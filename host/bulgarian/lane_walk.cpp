#include "host/bulgarian/lane_walk.hpp"

#include <algorithm>
#include <deque>

namespace piles::bulgarian {
namespace {

constexpr int warp_lanes = 32;

// The visit of a partition: its depth in the histogram and the leaves.
struct LaneTally {
  ForestCounts& counts;
  bool& too_deep;

  void operator()(int depth, bool leaf) {
    counts.leaves += leaf;
    if (depth < static_cast<int>(counts.histogram.size()))
      ++counts.histogram[depth];
    else
      too_deep = true;
  }
};

// The deepest partition a lane visited (load's root, step's descent), as the kernel keeps each
// lane's.
struct Deepest {
  int depth = -1;
  ForestWalker walk;

  void see(const lanes::Lane& a, int visited) {
    if (visited <= depth) return;
    depth = visited;
    walk = a.w;
  }
};

using Warp = std::array<lanes::Lane, warp_lanes>;

// The launch as the kernel runs it: the pool in the order its ring hands walks out, and the
// walks not yet done (in the pool or on a lane): once none is left every warp ends.
struct Launch {
  std::deque<ForestWalker> pool;
  std::uint64_t open = 0;
  std::uint64_t low_water = 0;
  bool leaves_in_place = false;
  LaneTally visit;
  Deepest deepest;
  LaneWalkStats& stats;

  // A lane's walk ended if it is idle now.
  void ended(const lanes::Lane& a) { open -= a.unit == lanes::idle; }

  // The warp's idle lanes take the rest of its busy lanes' walks, one each, in lane order;
  // those still idle take walks from the pool with one atomic, again while some took a walk
  // that was over at once (a Garden-of-Eden root).
  void refill(Warp& w) {
    for (;;) {
      std::array<int, warp_lanes> idle, givers;
      std::size_t idle_count = 0, giver_count = 0;
      for (int l = 0; l < warp_lanes; ++l) {
        if (w[l].unit == lanes::idle) idle[idle_count++] = l;
        if (lanes::can_split(w[l])) givers[giver_count++] = l;
      }
      if (idle_count == 0) return;
      if (giver_count != 0) {
        ++stats.give_rounds;
        const std::size_t pairs = std::min(idle_count, giver_count);
        for (std::size_t k = 0; k < pairs; ++k) {
          lanes::take_rest(w[idle[k]], w[givers[k]].w);
          lanes::keep_below(w[givers[k]]);
        }
        stats.gives += pairs;
        open += pairs;
        continue;
      }
      if (pool.empty()) return;
      ++stats.takes;
      const std::size_t got = std::min(idle_count, pool.size());
      for (std::size_t k = 0; k < got; ++k) {
        lanes::Lane& a = w[idle[k]];
        lanes::load(a, pool.front(), visit);
        pool.pop_front();
        deepest.see(a, a.w.node.depth);
        ended(a);
      }
      stats.walks_taken += got;
    }
  }

  // A warp whose lanes are all busy splits walks into the pool, one a lane that can, while
  // the pool holds fewer than low_water.
  void feed(Warp& w) {
    if (pool.size() >= low_water) return;
    std::uint64_t room = low_water - pool.size(), pushed = 0;
    for (lanes::Lane& a : w) {
      if (pushed == room) break;
      if (!lanes::can_split(a)) continue;
      pool.push_back(lanes::rest_of(a.w));
      lanes::keep_below(a);
      ++pushed;
    }
    stats.pushes += pushed;
    stats.push_rounds += pushed > 0;
    open += pushed;
  }

  // One pass of a warp; false once it ends (no walk left anywhere).
  bool pass(Warp& w) {
    refill(w);
    int busy = 0, descents = 0;
    for (const lanes::Lane& a : w) {
      busy += a.unit != lanes::idle;
      descents += a.unit == lanes::descend;
    }
    if (busy == 0) {
      if (open == 0) return false;
      ++stats.waits;
      return true;
    }
    if (busy == warp_lanes) feed(w);
    ++stats.passes;
    const int unit = lanes::voted_unit(descents, busy - descents);
    ++stats.unit_passes[unit];
    for (lanes::Lane& a : w) {
      if (a.unit != unit) continue;
      const int visited = leaves_in_place ? lanes::step<true>(a, visit) : lanes::step(a, visit);
      ++stats.units[unit];
      deepest.see(a, visited);
      ended(a);
    }
    return true;
  }
};

}  // namespace

double LaneWalkStats::lane_use() const {
  std::uint64_t run = 0;
  for (const std::uint64_t u : units) run += u;
  return passes ? static_cast<double>(run) / (warp_lanes * static_cast<double>(passes)) : 0;
}

double LaneWalkStats::device_lane_use() const {
  std::uint64_t run = 0;
  for (const std::uint64_t u : units) run += u;
  const double slots = warp_lanes * static_cast<double>(warps) * static_cast<double>(serial_passes);
  return slots > 0 ? static_cast<double>(run) / slots : 0;
}

double LaneWalkStats::passes_per_partition() const {
  return partitions ? static_cast<double>(passes) / static_cast<double>(partitions) : 0;
}

double LaneWalkStats::warp_instructions_per_partition(const WalkUnitCosts& c) const {
  if (!partitions) return 0;
  double total = static_cast<double>(passes) * c.pass + static_cast<double>(takes) * c.take +
                 static_cast<double>(give_rounds) * c.give +
                 static_cast<double>(push_rounds) * c.push + static_cast<double>(waits) * c.wait;
  for (int u = 0; u < lanes::unit_kinds; ++u)
    total += static_cast<double>(unit_passes[u]) * c.unit[u];
  return total / static_cast<double>(partitions);
}

LaneLaunch lane_launch_host(const std::vector<ForestWalker>& queue, int depth_limit,
                            const LaneDevice& device, LaneWalkStats& stats) {
  LaneLaunch out;
  out.counts.histogram.assign(depth_limit, 0);
  out.taken = queue.size();
  Launch launch{{queue.begin(), queue.end()},
                queue.size(),
                lanes::pool_low_water(device.lanes),
                device.leaves_in_place,
                {out.counts, out.too_deep},
                {},
                stats};
  // The kernel's grid: every lane the device holds, since walks split to fill them.
  std::vector<Warp> warps(std::max<std::size_t>(1, device.lanes / warp_lanes));
  std::vector<std::uint8_t> running(warps.size(), 1);
  ++stats.launches;
  stats.warps = std::max<std::uint64_t>(stats.warps, warps.size());
  std::uint64_t pass = 0;
  for (; pass < device.pass_budget; ++pass) {
    bool any = false;
    for (std::size_t i = 0; i < warps.size(); ++i) {
      if (!running[i]) continue;
      running[i] = launch.pass(warps[i]);
      any = any || running[i];
    }
    if (!any) break;
  }
  stats.serial_passes += pass;
  for (const Warp& w : warps)
    for (const lanes::Lane& a : w)
      if (a.unit != lanes::idle) out.parked.push_back(a.w);
  out.parked.insert(out.parked.end(), launch.pool.begin(), launch.pool.end());
  stats.parked += out.parked.size();
  if (launch.deepest.depth >= 0) {
    out.deepest = launch.deepest.depth;
    out.deepest_walk = ForestWalker::at(lanes::node_at_depth(launch.deepest.walk, out.deepest));
  }
  stats.partitions += out.counts.nodes();
  return out;
}

LaneWalk lane_walk_host(std::vector<ForestWalker> work, int n, const LaneDevice& device,
                        std::size_t wanted, LaneWalkStats& stats, const Cancel& cancel) {
  const int depth_limit = depth_bound(n);
  return drive_lane_walk(
      std::move(work), wanted,
      [&](const std::vector<ForestWalker>& queue) {
        return lane_launch_host(queue, depth_limit, device, stats);
      },
      cancel);
}

}  // namespace piles::bulgarian
