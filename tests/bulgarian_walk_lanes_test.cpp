// The host model of the GPU's backward walk (host/bulgarian/walk_lanes.hpp): the lockstep
// arithmetic on lanes made by hand, each walk's turns against a walk counted directly, and the
// partitions of a first round against the forest's own count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/walk_lanes.hpp"

namespace b = piles::bulgarian;

TEST(BulgarianWalkLanes, AWarpTakesItsLongestLaneAndBothBranches) {
  b::WalkLaneUse use;
  // 32 equal lanes: every turn used by every lane, one branch per turn.
  b::add_warp(std::vector<std::vector<bool>>(32, {true, false, false}), use);
  EXPECT_EQ(use.lane_steps, 96u);
  EXPECT_EQ(use.warp_steps, 3u);
  EXPECT_EQ(use.warp_passes, 3u);
  EXPECT_DOUBLE_EQ(use.lane_use(), 1.0);

  // One lane of four turns and one of one: the warp takes four turns; at the first, one lane
  // descends and the other ascends, so that turn is two passes.
  b::WalkLaneUse two;
  EXPECT_EQ(b::add_warp({{true, true, false, false}, {false}}, two), 4u);
  EXPECT_EQ(two.lane_steps, 5u);
  EXPECT_EQ(two.warp_steps, 4u);
  EXPECT_EQ(two.warp_passes, 5u);
  EXPECT_DOUBLE_EQ(two.lane_use(), 5.0 / 128);
  EXPECT_DOUBLE_EQ(two.branch_lane_use(), 5.0 / 160);
}

TEST(BulgarianWalkLanes, TurnsAreTheWalksDescentsAndAscents) {
  // Every fresh walk of n = 30's forest: as many descents as partitions below its root, as
  // many ascents (each descent is climbed back), and the last look; with a budget of 3
  // descents, at most 3 and the walk stops where the next would be.
  const b::ForestTop top = b::expand_forest(30, 64);
  ASSERT_FALSE(top.subtrees.empty());
  for (const b::ForestWalker& w : top.subtrees) {
    std::uint64_t below = 0;
    b::ForestWalker copy = w;
    b::walk_forest(copy, ~std::uint64_t{0}, [&](int, bool) { ++below; });
    b::ForestWalker whole = w, cut_walk = w;
    bool done = false;
    const std::vector<bool> turns = b::walk_turns(~std::uint64_t{0}, whole, done);
    EXPECT_TRUE(done);
    const auto descents = static_cast<std::uint64_t>(std::count(turns.begin(), turns.end(), true));
    EXPECT_EQ(descents, below - 1);
    EXPECT_EQ(turns.size(), 2 * descents + 1);
    const std::vector<bool> cut = b::walk_turns(3, cut_walk, done);
    EXPECT_EQ(static_cast<std::uint64_t>(std::count(cut.begin(), cut.end(), true)),
              std::min<std::uint64_t>(3, below - 1));
    EXPECT_EQ(done, below - 1 <= 3);
  }
}

TEST(BulgarianWalkLanes, TheRoundsVisitWhatTheHostLeftOfTheForest) {
  // n = 40 in rounds of 500 walks of at most 20 descents: the rounds visit every partition the
  // host did not, and the two add up to p(40) = 37338 (OEIS A000041).
  const int n = 40;
  const b::WalkLaneUse use = b::model_walk_lanes(n, 500, 20);
  const b::ForestTop top = b::expand_forest(n, 500);
  EXPECT_GE(use.walks, top.subtrees.size());
  EXPECT_GT(use.rounds, 1u);
  EXPECT_EQ(use.partitions + top.counts.nodes(), 37338u);
  EXPECT_GT(use.lane_use(), 0.0);
  EXPECT_LE(use.lane_use(), 1.0);
  EXPECT_LE(use.branch_lane_use(), use.lane_use());
  EXPECT_LE(use.serial_steps, use.warp_steps);
  EXPECT_GE(use.serial_steps * use.walks, use.lane_steps);
}
