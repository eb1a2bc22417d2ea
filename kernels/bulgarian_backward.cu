#include <cub/block/block_reduce.cuh>

#include <algorithm>

#include "core/bulgarian.hpp"
#include "core/bulgarian_lane.hpp"
#include "kernels/bulgarian_backward.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"

namespace piles::gpu {
namespace {

using bulgarian::ForestWalker;

constexpr int block_size = 128;

// The deepest visit as one number for atomicMax: depth + 1 above the walk's index (0: none).
constexpr int deepest_walk_bits = 40;

// A shared-memory bin hands this much to the global histogram as it reaches it, so 32 bits
// never wrap (a 64-bit shared atomicAdd is a compare-and-swap loop on sm_90).
constexpr unsigned bin_flush = 1u << 31;

constexpr unsigned full_warp = ~0u;

// Counts a visit at `depth` in the block's histogram, handing a full bin to the global one.
__device__ __forceinline__ void count_depth(unsigned* block_hist, unsigned long long* histogram,
                                            int depth) {
  if (atomicAdd(&block_hist[depth], 1u) == bin_flush - 1) {
    // Exactly one thread sees the bin reach bin_flush; it moves that much to global memory.
    atomicSub(&block_hist[depth], bin_flush);
    atomicAdd(&histogram[depth], static_cast<unsigned long long>(bin_flush));
  }
}

// Persistent threads: each takes the next walk from `next_walk` until none is left. Depths are
// counted in a block-wide histogram of 32-bit bins in shared memory and added to the global
// 64-bit one at the end; so is the deepest visit, for the host to replay.
__global__ void walk_round_kernel(ForestWalker* walks, unsigned long long count, std::uint8_t* done,
                                  unsigned long long* next_walk, unsigned long long* histogram,
                                  unsigned long long* leaves, unsigned long long* deepest,
                                  int depth_limit, int* too_deep, unsigned long long budget) {
  extern __shared__ unsigned block_hist[];
  __shared__ unsigned long long block_deepest;
  for (int d = threadIdx.x; d < depth_limit; d += blockDim.x) block_hist[d] = 0;
  if (threadIdx.x == 0) block_deepest = 0;
  __syncthreads();

  unsigned long long my_leaves = 0, my_deepest = 0;
  bool deep = false;
  for (;;) {
    const unsigned long long i = atomicAdd(next_walk, 1ULL);
    if (i >= count) break;
    ForestWalker w = walks[i];
    done[i] = bulgarian::walk_forest(w, budget, [&](int depth, bool leaf) {
      my_leaves += leaf;
      my_deepest =
          max(my_deepest, (static_cast<unsigned long long>(depth) + 1) << deepest_walk_bits | i);
      if (depth >= depth_limit)
        deep = true;
      else
        count_depth(block_hist, histogram, depth);
    });
    walks[i] = w;
  }
  if (deep) *too_deep = 1;
  atomicMax(&block_deepest, my_deepest);

  using Reduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long block_leaves = Reduce(temp).Sum(my_leaves);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(leaves, block_leaves);
    atomicMax(deepest, block_deepest);
  }
  for (int d = threadIdx.x; d < depth_limit; d += blockDim.x)
    if (block_hist[d]) atomicAdd(&histogram[d], static_cast<unsigned long long>(block_hist[d]));
}

// One launch of the walk in lanes: the queue, its counter, where open walks park, the totals.
struct LanesLaunch {
  const ForestWalker* queue;
  unsigned long long count;
  unsigned long long* next_item;
  ForestWalker* parked;
  unsigned long long* parked_count;
  unsigned long long* histogram;
  unsigned long long* leaves;
  unsigned long long* deepest;
  int* too_deep;
  int depth_limit;
  unsigned long long pass_budget;
};

// Each lane walks its own subtree one unit a pass (core/bulgarian_lane.hpp); the warp's idle
// lanes take the next walks of the queue with one atomic, and the warp runs the unit most of
// its busy lanes want. Depths go to a block-wide histogram as in walk_round_kernel.
__global__ void __launch_bounds__(block_size) walk_lanes_kernel(LanesLaunch a) {
  namespace lanes = bulgarian::lanes;
  extern __shared__ unsigned block_hist[];
  __shared__ unsigned long long block_deepest;
  for (int d = threadIdx.x; d < a.depth_limit; d += blockDim.x) block_hist[d] = 0;
  if (threadIdx.x == 0) block_deepest = 0;
  __syncthreads();

  const unsigned lane_id = threadIdx.x % 32, lanes_below = (1u << lane_id) - 1;
  unsigned long long my_leaves = 0, my_deepest = 0, item = 0;
  bool deep = false, drained = false;
  auto visit = [&](int depth, bool leaf) {
    my_leaves += leaf;
    my_deepest =
        max(my_deepest, (static_cast<unsigned long long>(depth) + 1) << deepest_walk_bits | item);
    if (depth >= a.depth_limit)
      deep = true;
    else
      count_depth(block_hist, a.histogram, depth);
  };
  lanes::Lane lane;
  for (unsigned long long pass = 0; pass < a.pass_budget; ++pass) {
    // The warp's idle lanes take the next walks with one atomic, in lane order; again while
    // some took a walk that was over at once (a Garden-of-Eden root) or the queue is empty.
    for (unsigned wanting; (wanting = __ballot_sync(full_warp, lane.unit == lanes::idle)) != 0;) {
      const bool wants = lane.unit == lanes::idle;
      const int first = __ffs(static_cast<int>(wanting)) - 1;
      unsigned long long base = 0;
      if (static_cast<int>(lane_id) == first)
        base = atomicAdd(a.next_item, static_cast<unsigned long long>(__popc(wanting)));
      base = __shfl_sync(full_warp, base, first);
      drained = drained || base + __popc(wanting) > a.count;
      if (wants) {
        const unsigned long long i = base + __popc(wanting & lanes_below);
        if (i < a.count) {
          item = i;
          lanes::load(lane, a.queue[i], visit);
        } else {
          lane.unit = lanes::done;
        }
      }
    }
    if (__all_sync(full_warp, lane.unit == lanes::done)) break;
    const unsigned busy = __ballot_sync(full_warp, lane.unit < lanes::idle);
    if (drained && __popc(busy) < lanes::park_below_busy && pass >= lanes::min_passes_before_park)
      break;
    const unsigned descents = __ballot_sync(full_warp, lane.unit == lanes::descend);
    const int unit = lanes::voted_unit(__popc(descents), __popc(busy & ~descents));
    if (lane.unit == unit) lanes::step(lane, visit);
  }
  if (lane.unit < lanes::idle) a.parked[atomicAdd(a.parked_count, 1ULL)] = lane.w;
  if (deep) *a.too_deep = 1;
  atomicMax(&block_deepest, my_deepest);

  using Reduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long block_leaves = Reduce(temp).Sum(my_leaves);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(a.leaves, block_leaves);
    atomicMax(a.deepest, block_deepest);
  }
  for (int d = threadIdx.x; d < a.depth_limit; d += blockDim.x)
    if (block_hist[d]) atomicAdd(&a.histogram[d], static_cast<unsigned long long>(block_hist[d]));
}

}  // namespace

std::size_t walk_lanes_resident() {
  return resident_blocks(walk_lanes_kernel, block_size) * block_size;
}

LaneRound bulgarian_walk_lanes(const std::vector<ForestWalker>& queue, int depth_limit,
                               std::uint64_t pass_budget) {
  LaneRound round;
  round.histogram.assign(depth_limit, 0);
  if (queue.empty()) return round;

  const std::size_t shared = sizeof(unsigned) * depth_limit;
  const int grid = persistent_blocks(walk_lanes_kernel, queue.size(), block_size, shared);
  DeviceBuffer<ForestWalker> d_queue(queue);
  DeviceBuffer<ForestWalker> d_parked(static_cast<std::size_t>(grid) * block_size);
  DeviceBuffer<unsigned long long> d_counters(4);  // next walk, parked, leaves, deepest
  DeviceBuffer<unsigned long long> d_hist(depth_limit);
  DeviceBuffer<int> d_too_deep(1);
  d_counters.fill_zero();
  d_hist.fill_zero();
  d_too_deep.fill_zero();

  const LanesLaunch a{d_queue.data(),
                      queue.size(),
                      d_counters.data(),
                      d_parked.data(),
                      d_counters.data() + 1,
                      d_hist.data(),
                      d_counters.data() + 2,
                      d_counters.data() + 3,
                      d_too_deep.data(),
                      depth_limit,
                      pass_budget};
  walk_lanes_kernel<<<grid, block_size, shared>>>(a);
  PILES_CUDA_CHECK_LAUNCH();
  PILES_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned long long> counters(4);
  d_counters.copy_to(counters.data(), 4);
  std::vector<unsigned long long> hist(depth_limit);
  d_hist.copy_to(hist.data(), hist.size());
  round.histogram.assign(hist.begin(), hist.end());
  round.taken = std::min<std::uint64_t>(counters[0], queue.size());
  round.parked.resize(counters[1]);
  d_parked.copy_to(round.parked.data(), round.parked.size());
  round.leaves = counters[2];
  if (counters[3] != 0) {
    round.deepest = static_cast<int>((counters[3] >> deepest_walk_bits) - 1);
    round.deepest_walk = queue.at(counters[3] & ((1ULL << deepest_walk_bits) - 1));
  }
  int too_deep = 0;
  d_too_deep.copy_to(&too_deep, 1);
  round.too_deep = too_deep != 0;
  return round;
}

std::size_t walks_per_round() {
  return resident_blocks(walk_round_kernel, block_size) * block_size * 4;
}

ForestRound bulgarian_walk_round(std::vector<ForestWalker>& walks, int depth_limit,
                                 std::uint64_t budget) {
  ForestRound round;
  round.histogram.assign(depth_limit, 0);
  round.done.assign(walks.size(), 1);
  if (walks.empty()) return round;

  DeviceBuffer<ForestWalker> d_walks(walks);
  DeviceBuffer<std::uint8_t> d_done(walks.size());
  DeviceBuffer<unsigned long long> d_counters(3);  // next walk, leaves, deepest
  DeviceBuffer<unsigned long long> d_hist(depth_limit);
  DeviceBuffer<int> d_too_deep(1);
  d_counters.fill_zero();
  d_hist.fill_zero();
  d_too_deep.fill_zero();

  const std::size_t shared = sizeof(unsigned) * depth_limit;
  const int grid = persistent_blocks(walk_round_kernel, walks.size(), block_size, shared);
  walk_round_kernel<<<grid, block_size, shared>>>(
      d_walks.data(), walks.size(), d_done.data(), d_counters.data(), d_hist.data(),
      d_counters.data() + 1, d_counters.data() + 2, depth_limit, d_too_deep.data(), budget);
  PILES_CUDA_CHECK_LAUNCH();
  PILES_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned long long> hist(depth_limit), counters(3);
  d_hist.copy_to(hist.data(), hist.size());
  d_counters.copy_to(counters.data(), 3);
  if (counters[2] != 0) {
    round.deepest = static_cast<int>((counters[2] >> deepest_walk_bits) - 1);
    round.deepest_walk = walks.at(counters[2] & ((1ULL << deepest_walk_bits) - 1));
  }
  d_walks.copy_to(walks.data(), walks.size());
  d_done.copy_to(round.done.data(), walks.size());
  int too_deep = 0;
  d_too_deep.copy_to(&too_deep, 1);
  round.histogram.assign(hist.begin(), hist.end());
  round.leaves = counters[1];
  round.too_deep = too_deep != 0;
  return round;
}

}  // namespace piles::gpu
