#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/common/progress.hpp"
#include "host/common/slices.hpp"

namespace piles::bulgarian {

// Depth histogram and Garden-of-Eden count of some part of the predecessor forest.
struct ForestCounts {
  std::vector<std::uint64_t> histogram;
  std::uint64_t leaves = 0;
  void merge(const ForestCounts& other);
  std::uint64_t nodes() const;
};

// Histogram length for n: every transient is below it (Etienne: at most k^2 - k moves for
// n <= T_k, and k^2 - k < 2n); the walkers check it anyway.
int depth_bound(int n);

// The top of the forest, walked on the host: the roots are Brandt's cycle partitions, each
// without its cycle predecessor; levels are expanded until at least `min_subtrees` nodes wait,
// or none are left.
struct ForestTop {
  ForestCounts counts;                    // the nodes expanded here
  std::vector<std::uint64_t> root_ranks;  // sorted
  std::vector<ForestWalker> subtrees;     // fresh walks, each over everything below its node
};
ForestTop expand_forest(int n, std::size_t min_subtrees);

// Hands the untaken siblings at the shallowest level of the walk's path to `out` as fresh walks
// and narrows the walk to the subtree below that level; where the path has none, the untried
// children of the node the walk stands on (two or more). The path is not stored: it is found by
// climbing with forward moves and coming down again. Returns false when nothing is left to give.
bool split_walk(ForestWalker& walk, std::vector<ForestWalker>& out);

// Splits the walks still running (split_walk, each in turn) until at least `wanted` wait or
// none can give more: what the GPU walk does before each round.
void fill_round(std::vector<ForestWalker>& work, std::size_t wanted);

// Walks every subtree on CPU threads; a thread that runs dry makes a busy one split its walk.
// `visited` (where given) hears of the partitions walked as they go, from any thread; `cancel`
// is asked every few milliseconds, and once it says so the walk throws Cancelled.
ForestCounts walk_subtrees_cpu(std::vector<ForestWalker> work, int depth_limit, int threads,
                               const UnitsDone& visited, const Cancel& cancel = {});

// The GPU walk's kernels: `rounds` gives each thread a walk per round and the warp waits for
// its longest (walk_round_kernel); `lanes` walks a subtree per lane one unit a pass and
// refills a lane as soon as its walk ends, from its warp's busy lanes or the device's pool of
// walks (core/bulgarian_lane.hpp, walk_lanes_kernel); `lanes_leaves` ("lanes-leaves") is lanes
// visiting a leaf child, or a twig and its leaf, from its parent in one descent unit, as the
// CPU walk does, where lanes steps down to it and back (about 45% of the partitions are
// leaves, a quarter twigs).
enum class WalkKernel { rounds, lanes, lanes_leaves };
// Whether a kernel walks in lanes (lanes, lanes-leaves).
constexpr bool walks_in_lanes(WalkKernel k) {
  return k != WalkKernel::rounds;
}
// The top of the forest the host walks before the lanes kernel takes over: split_walk then cuts
// those subtrees into the launch's walks without visiting them, so the host's own share of
// the forest stays small (with the rounds kernel's 2^19 subtrees it walked 25% of n = 90's).
inline constexpr std::size_t lanes_host_subtrees = std::size_t{1} << 10;
// Walks per resident lane the host splits the top into before the lanes kernel's launch: none,
// the device splits the subtrees as its lanes run dry. In the twin at n = 90 on an H100's
// lanes, splitting to one walk a lane first moved the device's lane use from 0.588 to 0.600.
inline constexpr std::size_t lanes_host_walks_per_lane = 0;
// Rounds by default: on an NVIDIA H100 the lanes kernel, before it split walks on the device,
// took 7.2 s at n = 90 where rounds took 2.5 (results/bench/gpu_h100_walk.md), and no GPU has
// run it since.
inline constexpr WalkKernel default_walk_kernel = WalkKernel::rounds;
const char* walk_kernel_name(WalkKernel kernel);
// Parses --walk-kernel: rounds | lanes | lanes-leaves.
WalkKernel parse_walk_kernel(const std::string& name);

struct GpuWalk {
  ForestCounts counts;                  // every partition of the subtrees
  std::uint64_t device_partitions = 0;  // of them, visited by the kernel (the rest by the host)
};

// The same on the GPU for the forest of n (fresh subtrees, as expand_forest gives them). With
// the rounds kernel, in rounds: the host opens the subtrees' tops until `host_subtrees` walks wait
// (by default until the first round fills the device), each walk gets a budget of descents (by
// default the kernel's gpu::walk_round_budget), and walks left unfinished are split on the host
// before the next round, so no single subtree holds up the device. The deepest partition the device
// visited is replayed on the host (check_longest_transient) before the counts are handed back. With
// the lanes kernel, in one launch that splits walks on the device (drive_lane_walk, lane_walk.hpp),
// or more where `budget`, the passes of a launch (by default gpu::lane_pass_budget), runs out; the
// host opens the subtrees' tops only when `host_subtrees` asks it to.
// `visited` (where given) hears of the partitions walked after each round or launch; `cancel` is
// asked before each round or launch, and once it says so the walk throws Cancelled, unfinished.
GpuWalk walk_subtrees_gpu(int n, std::vector<ForestWalker> work,
                          std::optional<std::size_t> host_subtrees = std::nullopt,
                          std::optional<std::uint64_t> budget = std::nullopt,
                          WalkKernel kernel = default_walk_kernel, const UnitsDone& visited = {},
                          const Cancel& cancel = {});

}  // namespace piles::bulgarian
