// The backward walk in lanes (core/bulgarian_lane.hpp) on its host twin (host/bulgarian/
// lane_walk.hpp), the code the GPU's lanes kernel runs: its counts against the CPU walk's and
// published ones, chunk by chunk as a journaled run cuts the forest, and the lane use its warps
// would have.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/lane_walk.hpp"
#include "host/common/partition_table.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

// A small device: two warps and launches of 100 passes, so that walks park, are split on the
// host and go on in later launches many times over; the same with the lanes-leaves kernel.
constexpr LaneDevice small_device{64, 100};
constexpr LaneDevice small_leaves_device{64, 100, true};

TEST(BulgarianLaneWalk, AUnitIsOneTurnOfWalkForest) {
  // One lane stepping unit by unit through every fresh subtree of n = 30 visits the depths
  // walk_forest visits, in its order, with one descent per partition below the root and as
  // many ascents.
  const ForestTop top = expand_forest(30, 64);
  for (const ForestWalker& w : top.subtrees) {
    std::vector<int> walked, stepped;
    ForestWalker copy = w;
    walk_forest(copy, ~std::uint64_t{0}, [&](int d, bool) { walked.push_back(d); });
    auto visit = [&](int d, bool) { stepped.push_back(d); };
    lanes::Lane a;
    lanes::load(a, w, visit);
    std::uint64_t units[lanes::unit_kinds] = {};
    while (a.unit < lanes::idle) {
      ++units[a.unit];
      lanes::step(a, visit);
    }
    EXPECT_EQ(a.unit, lanes::idle);
    EXPECT_EQ(stepped, walked);
    EXPECT_EQ(units[lanes::descend], walked.size() - 1);
    EXPECT_EQ(units[lanes::ascend], walked.size() - 1);
  }
}

TEST(BulgarianLaneWalk, ALeavesUnitIsOneTurnOfTheCpuWalk) {
  // The lanes-leaves kernel's units (step<true>) visit the depths walk_forest<true>, the CPU
  // walk, visits, in its order: one descent unit per partition below the root but a twig's leaf
  // (visited with it), and an ascent only for each that the lane stepped down to, not for a leaf
  // or a twig visited in place (about half).
  const ForestTop top = expand_forest(50, 64);
  std::uint64_t in_place = 0, all = 0, all_twigs = 0;
  for (const ForestWalker& w : top.subtrees) {
    std::vector<int> walked, stepped;
    ForestWalker copy = w;
    walk_forest<true>(copy, ~std::uint64_t{0}, [&](int d, bool) { walked.push_back(d); });
    auto visit = [&](int d, bool) { stepped.push_back(d); };
    lanes::Lane a;
    lanes::load(a, w, visit);
    std::uint64_t units[lanes::unit_kinds] = {}, stepped_down = 0, twigs = 0;
    while (a.unit < lanes::idle) {
      ++units[a.unit];
      const int kind = a.unit;
      const int visited = lanes::step<true>(a, visit);
      if (kind == lanes::descend) {
        EXPECT_GE(visited, a.w.node.depth);
        EXPECT_LE(visited, a.w.node.depth + 2);
        stepped_down += visited == a.w.node.depth;
        twigs += visited == a.w.node.depth + 2;
        // The partition the host makes for a deepest visit is as deep, and a leaf unless the
        // lane stands on it.
        const ForestNode made = lanes::node_at_depth(a.w, visited);
        EXPECT_EQ(made.depth, visited);
        if (visited > a.w.node.depth) EXPECT_TRUE(made.is_leaf());
      } else {
        EXPECT_EQ(visited, -1);
      }
    }
    EXPECT_EQ(stepped, walked);
    EXPECT_EQ(units[lanes::descend], walked.size() - 1 - twigs);
    EXPECT_EQ(units[lanes::ascend], stepped_down);
    in_place += walked.size() - 1 - stepped_down;
    all += walked.size() - 1;
    all_twigs += twigs;
  }
  EXPECT_GT(in_place, all / 2);
  EXPECT_GT(all_twigs, all / 10);
}

TEST(BulgarianLaneWalk, ASplitLosesAndRepeatsNothing) {
  // A walk of n = 40 split at its k-th chance (can_split): the part kept below and the rest,
  // each stepped to its end, visit the depths walk_forest visits (as a histogram) and take as
  // many units; the rest split again at its own chances likewise.
  const ForestTop top = expand_forest(40, 16);
  for (const ForestWalker& root : top.subtrees) {
    std::vector<std::uint64_t> walked(depth_bound(40)), stepped(depth_bound(40));
    ForestWalker copy = root;
    std::uint64_t units_walked = 0;
    walk_forest(copy, ~std::uint64_t{0}, [&](int d, bool) { ++walked[d]; });
    for (const std::uint64_t c : walked) units_walked += c;
    units_walked = 2 * (units_walked - 1);
    for (int k = 0; k < 6; ++k) {
      SCOPED_TRACE(k);
      std::fill(stepped.begin(), stepped.end(), 0);
      auto visit = [&](int d, bool) { ++stepped[d]; };
      std::uint64_t units = 0;
      std::vector<lanes::Lane> lanes_left(1);
      lanes::load(lanes_left[0], root, visit);
      // Each lane splits at its k-th chance, into a lane of its own that walks on.
      for (std::size_t i = 0; i < lanes_left.size(); ++i) {
        int chances = 0;
        while (lanes_left[i].unit != lanes::idle) {
          if (lanes::can_split(lanes_left[i]) && chances++ == k) {
            lanes::Lane rest;
            lanes::take_rest(rest, lanes_left[i].w);
            lanes::keep_below(lanes_left[i]);
            lanes_left.push_back(rest);
          }
          ++units;
          lanes::step(lanes_left[i], visit);
        }
      }
      EXPECT_EQ(stepped, walked);
      EXPECT_EQ(units, units_walked);
    }
  }
}

TEST(BulgarianLaneWalk, TwinCountsEqualTheCpuWalk) {
  // Every count of the twin of either lanes kernel, with the host's top, equals the CPU walk's;
  // the partitions add up to p(n) (OEIS A000041) and the Garden of Eden to Hopkins and Sellers'
  // count; the deepest walk stands at a partition of the longest transient.
  for (const int n : {1, 2, 3, 10, 36, 45, 60, 66})
    for (const LaneDevice& device : {small_device, small_leaves_device}) {
      SCOPED_TRACE(fmt::format("n = {}, leaves in place {}", n, device.leaves_in_place));
      const Analysis cpu = analyze(n, Engine::backward, piles::testing::cpu());
      ForestTop top = expand_forest(n, 16);
      LaneWalkStats stats;
      const LaneWalk twin = lane_walk_host(std::move(top.subtrees), n, device, 256, stats);
      EXPECT_FALSE(twin.too_deep);
      ForestCounts all = top.counts;
      all.merge(twin.counts);
      std::vector<std::uint64_t> histogram = all.histogram;
      while (histogram.size() > 1 && histogram.back() == 0) histogram.pop_back();
      EXPECT_EQ(histogram, cpu.transient_histogram);
      EXPECT_EQ(all.leaves, cpu.garden_of_eden);
      EXPECT_EQ(all.nodes(), partition_count(n));
      EXPECT_EQ(all.leaves, hopkins_sellers(n));
      EXPECT_EQ(stats.partitions, twin.counts.nodes());
      EXPECT_EQ(stats.parked > 0, stats.launches > 1);
      if (twin.counts.nodes() > 0) {
        EXPECT_EQ(twin.deepest, static_cast<int>(histogram.size()) - 1);
        EXPECT_EQ(twin.deepest_walk.node.depth, twin.deepest);
        EXPECT_EQ(static_cast<int>(histogram.size()) - 1, griggs_ho(n));
      }
      if (n >= 36) EXPECT_GT(stats.launches, 1u);
      if (n >= 36) EXPECT_GT(stats.gives, 0u);
    }
}

TEST(BulgarianLaneWalk, OneLaunchWalksAWholeForest) {
  // With passes enough, one launch walks all of n = 66 from the host's 16 subtrees as they
  // are (no split on the host): 64 warps fed by hand-overs and by walks split into the pool.
  const int n = 66;
  ForestTop top = expand_forest(n, 16);
  const std::size_t subtrees = top.subtrees.size();
  LaneWalkStats stats;
  const LaneWalk twin =
      lane_walk_host(std::move(top.subtrees), n, {64 * 32, std::uint64_t{1} << 30}, 0, stats);
  ForestCounts all = top.counts;
  all.merge(twin.counts);
  EXPECT_EQ(all.nodes(), partition_count(n));
  EXPECT_EQ(all.leaves, hopkins_sellers(n));
  EXPECT_EQ(stats.launches, 1u);
  EXPECT_EQ(stats.parked, 0u);
  EXPECT_EQ(stats.walks_taken, subtrees + stats.pushes);
  EXPECT_GT(stats.pushes, 0u);
  EXPECT_GT(stats.gives, 0u);
}

// The walk asks its stop check before every launch, as the GPU walk's host does: told to stop
// it throws Cancelled there, its launches so far counted; never told, it walks the whole forest.
TEST(BulgarianLaneWalk, TheHostStopsBetweenLaunchesWhenTold) {
  const int n = 60;
  for (const std::uint64_t stop_at : {1u, 3u, 10u}) {
    SCOPED_TRACE(stop_at);
    LaneWalkStats stats;
    std::uint64_t asked = 0;
    EXPECT_THROW(lane_walk_host(expand_forest(n, 16).subtrees, n, small_device, 256, stats,
                                [&] { return ++asked >= stop_at; }),
                 piles::Cancelled);
    EXPECT_EQ(asked, stop_at);
    EXPECT_EQ(stats.launches, stop_at - 1);
  }
  LaneWalkStats stats;
  std::uint64_t asked = 0;
  ForestTop top = expand_forest(n, 16);
  const LaneWalk whole = lane_walk_host(std::move(top.subtrees), n, small_device, 256, stats,
                                        [&] { return ++asked == 0; });
  EXPECT_EQ(asked, stats.launches);
  EXPECT_GT(stats.launches, 10u);
  EXPECT_EQ(top.counts.nodes() + whole.counts.nodes(), partition_count(n));
}

TEST(BulgarianLaneWalk, TwinEqualsTheCpuWalkChunkByChunk) {
  // The chunks of a journaled run of n = 70 (its subtrees cut in 16 slices): each chunk's
  // counts from the twin of either lanes kernel equal the CPU walk's of the same chunk.
  const int n = 70, chunks = 16;
  const ForestTop top = expand_forest(n, 8 * chunks);
  const std::vector<ForestWalker>& all = top.subtrees;
  ForestCounts sum = top.counts;
  for (int c = 0; c < chunks; ++c) {
    SCOPED_TRACE(c);
    const std::vector<ForestWalker> part(all.begin() + all.size() * c / chunks,
                                         all.begin() + all.size() * (c + 1) / chunks);
    std::atomic<std::uint64_t> visited = 0;  // what the walk's threads told the progress
    const ForestCounts cpu =
        walk_subtrees_cpu(part, depth_bound(n), 2, [&](std::uint64_t p) { visited += p; });
    EXPECT_EQ(visited.load(), cpu.nodes());
    for (const LaneDevice& device : {small_device, small_leaves_device}) {
      LaneWalkStats stats;
      const LaneWalk twin = lane_walk_host(part, n, device, 128, stats);
      EXPECT_EQ(twin.counts.histogram, cpu.histogram);
      EXPECT_EQ(twin.counts.leaves, cpu.leaves);
      if (!device.leaves_in_place) sum.merge(twin.counts);
    }
  }
  EXPECT_EQ(sum.nodes(), partition_count(n));
  EXPECT_EQ(sum.leaves, hopkins_sellers(n));
}

// Every `stride`-th subtree of the top analyze opens for a GPU (2^19 subtrees), on a device of
// 64 warps, split on the host to as many walks a lane as the kernel's driver gives it.
LaneWalkStats sampled_lane_use(int n, std::size_t stride, bool leaves_in_place) {
  const ForestTop top = expand_forest(n, std::size_t{1} << 19);
  std::vector<ForestWalker> sample;
  for (std::size_t i = 0; i < top.subtrees.size(); i += stride) sample.push_back(top.subtrees[i]);
  const LaneDevice device{64 * 32, std::uint64_t{1} << 26, leaves_in_place};
  LaneWalkStats stats;
  lane_walk_host(std::move(sample), n, device, lanes_host_walks_per_lane * device.lanes, stats);
  return stats;
}

TEST(BulgarianLaneWalk, LanesAtLeastHalfBusyFromNinetyToOneTwenty) {
  // The aim of the lanes kernel: lane use at least 0.5 at n = 90..120 (the rounds kernel's was
  // 0.084 on an H100 at n = 90), counting the passes of every warp of the grid, those waiting
  // for work too, in one launch; and so the lanes-leaves kernel, whose units are fewer and less
  // alike. A sample of each forest keeps the test short; at n = 100 and 120 it holds the first
  // subtree, a large part of the forest, which only splits on the device spread over the warps.
  for (const auto& [n, stride] : {std::pair{90, 32}, {100, 128}, {110, 512}, {120, 2048}})
    for (const bool leaves : {false, true}) {
      SCOPED_TRACE(fmt::format("n = {}, leaves in place {}", n, leaves));
      const LaneWalkStats stats = sampled_lane_use(n, stride, leaves);
      EXPECT_GT(stats.partitions, 100000u);
      EXPECT_EQ(stats.launches, 1u);
      EXPECT_GE(stats.lane_use(), 0.5);
      EXPECT_GE(stats.device_lane_use(), 0.5);
      const std::string key = fmt::format("{}{}", leaves ? "leaves_" : "", n);
      RecordProperty("lane_use_" + key, std::to_string(stats.lane_use()));
      RecordProperty("device_lane_use_" + key, std::to_string(stats.device_lane_use()));
      RecordProperty("warp_instructions_per_partition_" + key,
                     std::to_string(stats.warp_instructions_per_partition(walk_costs(leaves))));
    }
}

}  // namespace
}  // namespace piles::bulgarian
