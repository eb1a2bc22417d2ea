#include "host/bulgarian/walk_lanes.hpp"

#include <algorithm>

#include "core/bulgarian.hpp"
#include "host/bulgarian/backward.hpp"

namespace piles::bulgarian {

double WalkLaneUse::lane_use() const {
  return warp_steps ? static_cast<double>(lane_steps) / (32.0 * static_cast<double>(warp_steps))
                    : 0;
}

double WalkLaneUse::branch_lane_use() const {
  return warp_passes ? static_cast<double>(lane_steps) / (32.0 * static_cast<double>(warp_passes))
                     : 0;
}

double WalkLaneUse::parallelism() const {
  return serial_steps ? static_cast<double>(partitions) / static_cast<double>(serial_steps) : 0;
}

double WalkLaneUse::passes_per_partition() const {
  return partitions ? static_cast<double>(warp_passes) / static_cast<double>(partitions) : 0;
}

std::uint64_t add_warp(const std::vector<std::vector<bool>>& lanes, WalkLaneUse& use) {
  std::size_t longest = 0;
  for (const auto& turns : lanes) {
    use.lane_steps += turns.size();
    longest = std::max(longest, turns.size());
  }
  use.warp_steps += longest;
  for (std::size_t t = 0; t < longest; ++t) {
    bool descent = false, other = false;
    for (const auto& turns : lanes) {
      if (t >= turns.size()) continue;
      (turns[t] ? descent : other) = true;
    }
    use.warp_passes += descent + other;
  }
  return longest;
}

std::vector<bool> walk_turns(std::uint64_t budget, ForestWalker& walk, bool& done) {
  // walk_forest visits after each descent: the ascents between two visits are the climb from
  // the earlier depth to one above the later.
  std::vector<bool> turns;
  int depth = walk.node.depth;
  bool fresh = walk.fresh != 0;
  done = walk_forest(walk, budget, [&](int d, bool) {
    if (fresh) {
      fresh = false;
      return;
    }
    turns.insert(turns.end(), depth - d + 1, false);
    turns.push_back(true);
    depth = d;
  });
  // The climb after the last visit: back to the base, or to where the budget ran out.
  turns.insert(turns.end(), depth - walk.node.depth, false);
  turns.push_back(false);  // the last look
  return turns;
}

WalkLaneUse model_walk_lanes(int n, std::size_t walks_per_round, std::uint64_t budget) {
  std::vector<ForestWalker> work = expand_forest(n, walks_per_round).subtrees;
  WalkLaneUse use;
  while (!work.empty()) {
    fill_round(work, walks_per_round);
    ++use.rounds;
    use.walks += work.size();
    const std::size_t warps = (work.size() + 31) / 32;
    std::vector<std::uint8_t> done(work.size());
    std::uint64_t longest = 0;  // the round's longest warp
#pragma omp parallel
    {
      WalkLaneUse mine;
      std::vector<std::vector<bool>> lanes;
      std::uint64_t my_longest = 0;
#pragma omp for schedule(dynamic, 16)
      for (std::size_t warp = 0; warp < warps; ++warp) {
        lanes.clear();
        for (std::size_t i = 32 * warp; i < std::min(work.size(), 32 * warp + 32); ++i) {
          const bool fresh = work[i].fresh != 0;
          bool finished = false;
          lanes.push_back(walk_turns(budget, work[i], finished));
          // A fresh walk visits its root, then one partition per descent.
          mine.partitions += fresh + static_cast<std::uint64_t>(std::count(
                                         lanes.back().begin(), lanes.back().end(), true));
          done[i] = finished;
        }
        my_longest = std::max(my_longest, add_warp(lanes, mine));
      }
#pragma omp critical(piles_walk_lanes_merge)
      {
        use.partitions += mine.partitions;
        use.lane_steps += mine.lane_steps;
        use.warp_steps += mine.warp_steps;
        use.warp_passes += mine.warp_passes;
        longest = std::max(longest, my_longest);
      }
    }
    use.serial_steps += longest;
    std::vector<ForestWalker> unfinished;
    for (std::size_t i = 0; i < work.size(); ++i)
      if (!done[i]) unfinished.push_back(work[i]);
    work.swap(unfinished);
  }
  return use;
}

}  // namespace piles::bulgarian
