#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bulgarian.hpp"

namespace piles::bulgarian {

// What a warp of the GPU's backward walk (kernels/bulgarian_backward.cu) would issue, modelled
// on the host: each thread takes a walk (a subtree of the predecessor forest) and runs
// walk_forest's loop; a warp's 32 lanes take 32 consecutive walks and step together, so a lane
// whose subtree is small waits for the warp's largest. A step is one turn of the loop: a
// descent (and its visit), an ascent, or the last look that ends the walk. Lane use is the
// steps the lanes needed over 32 times those their warps took; counted apart, a turn where
// some lanes descend and others ascend takes two passes (the warp issues both branches).
struct WalkLaneUse {
  std::uint64_t rounds = 0;
  std::uint64_t walks = 0;        // walks of every round
  std::uint64_t partitions = 0;   // partitions they visit
  std::uint64_t lane_steps = 0;   // turns of the loop the lanes need
  std::uint64_t warp_steps = 0;   // turns their warps take (the longest lane of each)
  std::uint64_t warp_passes = 0;  // the same with descents and ascents in passes of their own
  // The turns of each round's longest warp, added up: however many threads a device has, a
  // round lasts at least as long as its longest walk.
  std::uint64_t serial_steps = 0;

  double lane_use() const;
  double branch_lane_use() const;  // lane_steps over 32 warp_passes
  double passes_per_partition() const;
  // Partitions per serial step: the most threads the rounds can keep busy, on average.
  double parallelism() const;
};

// Adds one warp's lane and warp turns and passes, from each lane's turns in order (true: a
// descent); returns the turns the warp takes.
std::uint64_t add_warp(const std::vector<std::vector<bool>>& lanes, WalkLaneUse& use);

// The turns of a walk with a budget of descents, as the kernel runs it (true: a descent);
// the walk goes on meanwhile, as it would on the device, and `done` says whether it ended.
std::vector<bool> walk_turns(std::uint64_t budget, ForestWalker& walk, bool& done);

// The GPU walk for n, round after round as analyze runs it: the forest's top opened on the host
// until at least `walks_per_round` walks wait (a device's gpu::walks_per_round()), each round
// its walks in warps of 32 consecutive ones with `budget` descents each (the kernel's:
// gpu::walk_round_budget), the unfinished ones split for the next (fill_round).
WalkLaneUse model_walk_lanes(int n, std::size_t walks_per_round, std::uint64_t budget);

}  // namespace piles::bulgarian
