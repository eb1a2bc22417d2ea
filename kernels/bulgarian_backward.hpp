#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bulgarian.hpp"

namespace piles::gpu {

// Descents per walk and round: long enough to hide the launch, short enough that the slowest
// walk of a round does not keep the rest of the device waiting for long.
inline constexpr std::uint64_t walk_round_budget = std::uint64_t{1} << 20;

struct ForestRound {
  std::vector<std::uint64_t> histogram;  // [d]: partitions visited at distance d from the cycle
  std::uint64_t leaves = 0;              // Garden-of-Eden partitions among them
  std::vector<std::uint8_t> done;        // per walk: its subtree is finished
  bool too_deep = false;                 // some depth reached the histogram's length
  // The greatest depth visited (-1: none), and a walk that reached it as it was before the
  // round, so that the host can replay the walk to the partition there.
  int deepest = -1;
  bulgarian::ForestWalker deepest_walk;
};

// How many walks a round should hold to keep the device busy (several per resident thread).
std::size_t walks_per_round();

// One round of the backward engine on the GPU: persistent threads take walks from an atomic
// counter and advance each by at most `budget` descents with bulgarian::walk_forest; `walks` is
// updated in place so unfinished ones can be split and resumed.
ForestRound bulgarian_walk_round(std::vector<bulgarian::ForestWalker>& walks, int depth_limit,
                                 std::uint64_t budget = walk_round_budget);

// Passes a launch of the lanes kernel may run: it ends when no walk is left, so this only
// bounds a launch that something holds up; its open walks then park for the next.
inline constexpr std::uint64_t lane_pass_budget = std::uint64_t{1} << 26;

// One launch of the backward walk in lanes (core/bulgarian_lane.hpp) on every lane the device
// holds: `queue` goes into the device's pool of walks; each pass a warp's idle lanes take the
// rest of its busy lanes' walks, else walks of the pool, warps whose lanes are all busy split
// walks into the pool while it runs low, and the warp runs the unit (descend or ascend) most
// of its busy lanes want. Open walks are parked only when the launch runs out of passes.
// leaves_in_place: the lanes-leaves kernel, which visits a leaf child (or a twig and its leaf)
// from its parent in one
// descent unit (lanes::step<true>).
struct LaneRound {
  std::vector<std::uint64_t> histogram;  // [d]: partitions visited at distance d from the cycle
  std::uint64_t leaves = 0;              // Garden-of-Eden partitions among them
  bool too_deep = false;                 // some depth reached the histogram's length
  std::uint64_t taken = 0;               // walks of the queue it took on (all of them)
  std::vector<bulgarian::ForestWalker> parked;
  int deepest = -1;  // as in ForestRound, the walk being a fresh one at such a partition
  bulgarian::ForestWalker deepest_walk;
};
LaneRound bulgarian_walk_lanes(const std::vector<bulgarian::ForestWalker>& queue, int depth_limit,
                               std::uint64_t pass_budget = lane_pass_budget,
                               bool leaves_in_place = false);

// Lanes the lanes (or lanes-leaves) kernel keeps resident on the current device.
std::size_t walk_lanes_resident(bool leaves_in_place = false);

}  // namespace piles::gpu
