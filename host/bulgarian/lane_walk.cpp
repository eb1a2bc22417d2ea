#include "host/bulgarian/lane_walk.hpp"

#include <algorithm>

#include "host/bulgarian/lane_costs.hpp"

namespace piles::bulgarian {
namespace {

constexpr int warp_lanes = 32;
constexpr int deepest_item_bits = 40;

// The visit of a partition: its depth in the histogram, leaves, and the deepest visit with the
// queue index of the walk that made it.
struct LaneTally {
  ForestCounts& counts;
  bool& too_deep;
  std::uint64_t& deepest;  // (depth + 1) << deepest_item_bits | item; 0: none
  std::uint64_t item = 0;

  void operator()(int depth, bool leaf) {
    counts.leaves += leaf;
    if (depth < static_cast<int>(counts.histogram.size()))
      ++counts.histogram[depth];
    else
      too_deep = true;
    deepest =
        std::max(deepest, (static_cast<std::uint64_t>(depth) + 1) << deepest_item_bits | item);
  }
};

struct Warp {
  std::array<lanes::Lane, warp_lanes> lane;
  std::array<std::uint64_t, warp_lanes> item{};
  bool drained = false;  // a lane of it found the queue empty
  bool stopped = false;
};

int idle_lanes(const Warp& w) {
  int idle = 0;
  for (const lanes::Lane& a : w.lane) idle += a.unit == lanes::idle;
  return idle;
}

}  // namespace

double LaneWalkStats::lane_use() const {
  std::uint64_t run = 0;
  for (const std::uint64_t u : units) run += u;
  return passes ? static_cast<double>(run) / (warp_lanes * static_cast<double>(passes)) : 0;
}

double LaneWalkStats::passes_per_partition() const {
  return partitions ? static_cast<double>(passes) / static_cast<double>(partitions) : 0;
}

double LaneWalkStats::warp_instructions_per_partition() const {
  if (!partitions) return 0;
  double total = static_cast<double>(passes) * walk_lane_costs.pass +
                 static_cast<double>(refills) * walk_lane_costs.refill;
  for (int u = 0; u < lanes::unit_kinds; ++u)
    total += static_cast<double>(unit_passes[u]) * walk_lane_costs.unit[u];
  return total / static_cast<double>(partitions);
}

LaneLaunch lane_launch_host(const std::vector<ForestWalker>& queue, int depth_limit,
                            const LaneDevice& device, LaneWalkStats& stats) {
  LaneLaunch out;
  out.counts.histogram.assign(depth_limit, 0);
  std::uint64_t deepest = 0;
  LaneTally visit{out.counts, out.too_deep, deepest};
  // The kernel's grid: no more warps than the device holds, nor than the queue fills.
  const std::size_t warp_count = std::max<std::size_t>(
      1, std::min(device.lanes / warp_lanes, (queue.size() + warp_lanes - 1) / warp_lanes));
  std::vector<Warp> warps(warp_count);
  std::uint64_t next_item = 0;
  ++stats.launches;
  std::uint64_t pass = 0;
  for (; pass < device.pass_budget; ++pass) {
    bool running = false;
    for (Warp& w : warps) {
      if (w.stopped) continue;
      // The idle lanes take the next walks, in lane order, with one atomic; again while some
      // took a walk that was over at once (a Garden-of-Eden root) or the queue is empty.
      for (int wanting; (wanting = idle_lanes(w)) != 0;) {
        ++stats.refills;
        std::uint64_t i = next_item;
        next_item += wanting;
        for (int l = 0; l < warp_lanes; ++l) {
          lanes::Lane& a = w.lane[l];
          if (a.unit != lanes::idle) continue;
          if (i < queue.size()) {
            visit.item = w.item[l] = i;
            lanes::load(a, queue[i], visit);
            ++stats.walks_taken;
          } else {
            a.unit = lanes::done;
            w.drained = true;
          }
          ++i;
        }
      }
      int busy = 0, descents = 0;
      for (const lanes::Lane& a : w.lane) {
        busy += a.unit < lanes::idle;
        descents += a.unit == lanes::descend;
      }
      if (std::all_of(w.lane.begin(), w.lane.end(),
                      [](const lanes::Lane& a) { return a.unit == lanes::done; })) {
        w.stopped = true;
        continue;
      }
      if (w.drained && busy < lanes::park_below_busy && pass >= lanes::min_passes_before_park) {
        w.stopped = true;
        continue;
      }
      running = true;
      ++stats.passes;
      if (busy == 0) continue;
      const int unit = lanes::voted_unit(descents, busy - descents);
      ++stats.unit_passes[unit];
      for (int l = 0; l < warp_lanes; ++l) {
        lanes::Lane& a = w.lane[l];
        if (a.unit != unit) continue;
        visit.item = w.item[l];
        lanes::step(a, visit);
        ++stats.units[unit];
      }
    }
    if (!running) break;
  }
  stats.serial_passes += pass;
  for (const Warp& w : warps)
    for (const lanes::Lane& a : w.lane)
      if (a.unit < lanes::idle) out.parked.push_back(a.w);
  stats.parked += out.parked.size();
  out.taken = std::min<std::uint64_t>(next_item, queue.size());
  if (deepest) {
    out.deepest = static_cast<int>((deepest >> deepest_item_bits) - 1);
    out.deepest_walk = queue[deepest & ((std::uint64_t{1} << deepest_item_bits) - 1)];
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
