#include <cub/block/block_reduce.cuh>

#include <cuda/atomic>

#include <algorithm>

#include "core/bulgarian.hpp"
#include "core/bulgarian_lane.hpp"
#include "kernels/bulgarian_backward.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"
#include "kernels/walk_lanes_device.cuh"

namespace piles::gpu {
namespace {

using bulgarian::ForestWalker;
using namespace walk_lanes;

constexpr int block_size = 128;

// The deepest visit as one number for atomicMax: depth + 1 above the walk's index (0: none).
constexpr int deepest_walk_bits = 40;

// A shared-memory bin hands this much to the global histogram as it reaches it, so 32 bits
// never wrap (a 64-bit shared atomicAdd is a compare-and-swap loop on sm_90).
constexpr unsigned bin_flush = 1u << 31;

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

// The device's pool of walks: a ring with a sequence word per slot, so that lanes push and
// take walks without locks. Slot p % size holds walk p once its word is p + 1, and is free for
// walk p + size once its word is p + size. `avail` counts the walks pushed and not yet claimed
// (a claim of more than there are dips it below zero until it gives the excess back).
struct WalkPool {
  ForestWalker* slot;
  unsigned long long* seq;
  unsigned long long mask;
  unsigned long long* head;  // walks claimed
  unsigned long long* tail;  // walks reserved by pushers
  long long* avail;
  long long* open;  // walks not yet done, in the pool or on a lane: none left ends the launch
  long long low_water;
};

// One launch of the walk in lanes: the pool (holding the host's queue), where open walks park
// when the passes run out, each lane's walk at its deepest visit, and the totals.
struct LanesLaunch {
  WalkPool pool;
  ForestWalker* parked;
  unsigned long long* parked_count;
  ForestWalker* deepest_walk;  // per lane of the grid
  unsigned long long* histogram;
  unsigned long long* leaves;
  unsigned long long* deepest;  // (depth + 1) << 32 | the grid lane whose node it is
  int* too_deep;
  int depth_limit;
  unsigned long long pass_budget;
};

// Each lane walks its own subtree one unit a pass (core/bulgarian_lane.hpp). Every pass a
// warp's idle lanes first take the rest of its busy lanes' walks (shuffles), then walks of
// the pool (one atomic); a warp whose lanes are all busy splits walks into the pool while it
// runs low; the warp runs the unit most of its busy lanes want. The launch ends when no walk
// is left, or parks the open ones when its passes run out. Depths go to a block-wide histogram
// as in walk_round_kernel. LeavesInPlace: a leaf child, or a twig and its leaf, is visited from
// its parent in one descent unit (lanes::step<true>, the lanes-leaves kernel).
template <bool LeavesInPlace>
__global__ void __launch_bounds__(block_size) walk_lanes_kernel(LanesLaunch a) {
  namespace lanes = bulgarian::lanes;
  extern __shared__ unsigned block_hist[];
  for (int d = threadIdx.x; d < a.depth_limit; d += blockDim.x) block_hist[d] = 0;
  __syncthreads();

  WalkPool& pool = a.pool;
  const unsigned lane_id = threadIdx.x % 32, lanes_below = (1u << lane_id) - 1;
  const unsigned long long grid_lane =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  unsigned long long my_leaves = 0;
  int my_deepest = -1;
  bool deep = false;
  auto visit = [&](int depth, bool leaf) {
    my_leaves += leaf;
    if (depth >= a.depth_limit)
      deep = true;
    else
      count_depth(block_hist, a.histogram, depth);
  };
  lanes::Lane lane;
  // The lane's deepest visit, and its walk then (lanes::node_at_depth), for the host's replay.
  auto see = [&](int visited) {
    if (visited <= my_deepest) return;
    my_deepest = visited;
    a.deepest_walk[grid_lane] = lane.w;
  };
  for (unsigned long long pass = 0; pass < a.pass_budget; ++pass) {
    long long opened = 0;  // walks this pass split off within the warp, less those that ended
    for (;;) {
      const unsigned idle = __ballot_sync(full_warp, lane.unit == lanes::idle);
      if (idle == 0) break;
      const unsigned givers = __ballot_sync(full_warp, lanes::can_split(lane));
      if (givers != 0) {
        // The k-th idle lane takes the rest of the k-th giver's walk.
        const int pairs = min(__popc(idle), __popc(givers));
        const int idle_rank = __popc(idle & lanes_below), giver_rank = __popc(givers & lanes_below);
        const bool takes = lane.unit == lanes::idle && idle_rank < pairs;
        const bool gives = lanes::can_split(lane) && giver_rank < pairs;
        ForestWalker got;
        shuffle_walk(lane.w, takes ? static_cast<int>(__fns(givers, 0, idle_rank + 1)) : lane_id,
                     got);
        if (takes) lanes::take_rest(lane, got);
        if (gives) lanes::keep_below(lane);
        opened += pairs;
        continue;
      }
      if (load_relaxed(pool.avail) <= 0) break;
      const int want = __popc(idle);
      const int first = __ffs(static_cast<int>(idle)) - 1;
      long long got = 0;
      unsigned long long base = 0;
      if (static_cast<int>(lane_id) == first) {
        const long long before = atomicAdd(reinterpret_cast<unsigned long long*>(pool.avail),
                                           static_cast<unsigned long long>(-want));
        got = max(0LL, min(before, static_cast<long long>(want)));
        if (got < want)
          atomicAdd(reinterpret_cast<unsigned long long*>(pool.avail),
                    static_cast<unsigned long long>(want - got));
        if (got > 0) base = atomicAdd(pool.head, static_cast<unsigned long long>(got));
      }
      got = __shfl_sync(full_warp, got, first);
      base = __shfl_sync(full_warp, base, first);
      if (got == 0) break;
      const int rank = __popc(idle & lanes_below);
      const bool took = lane.unit == lanes::idle && rank < got;
      if (took) {
        // The pusher of walk p may still be writing it: its sequence word says when it is in.
        const unsigned long long p = base + rank;
        while (load_acquire(&pool.seq[p & pool.mask]) != p + 1) __nanosleep(32);
        const ForestWalker w = pool.slot[p & pool.mask];
        store_release(&pool.seq[p & pool.mask], p + pool.mask + 1);
        lanes::load(lane, w, visit);
        see(lane.w.node.depth);
      }
      opened -= __popc(__ballot_sync(full_warp, took && lane.unit == lanes::idle));
    }
    const unsigned busy = __ballot_sync(full_warp, lane.unit != lanes::idle);
    if (busy == 0) {
      if (static_cast<int>(lane_id) == 0 && opened != 0)
        atomicAdd(reinterpret_cast<unsigned long long*>(pool.open),
                  static_cast<unsigned long long>(opened));
      if (load_relaxed(pool.open) == 0) break;
      __nanosleep(256);
      continue;
    }
    if (busy == full_warp && load_relaxed(pool.avail) < pool.low_water) {
      // Split walks into the pool, one a lane that can, up to the low-water mark; the open
      // count grows before the walks can be claimed, so it never reads zero while one waits.
      const unsigned givers = __ballot_sync(full_warp, lanes::can_split(lane));
      const long long room = pool.low_water - load_relaxed(pool.avail);
      const int pushes = static_cast<int>(min(static_cast<long long>(__popc(givers)), room));
      if (pushes > 0) {
        unsigned long long base = 0;
        if (lane_id == 0) {
          atomicAdd(reinterpret_cast<unsigned long long*>(pool.open),
                    static_cast<unsigned long long>(pushes));
          base = atomicAdd(pool.tail, static_cast<unsigned long long>(pushes));
        }
        base = __shfl_sync(full_warp, base, 0);
        const int rank = __popc(givers & lanes_below);
        if (lanes::can_split(lane) && rank < pushes) {
          const unsigned long long p = base + rank;
          while (load_acquire(&pool.seq[p & pool.mask]) != p) __nanosleep(32);
          pool.slot[p & pool.mask] = lanes::rest_of(lane.w);
          store_release(&pool.seq[p & pool.mask], p + 1);
          lanes::keep_below(lane);
        }
        __syncwarp();
        if (lane_id == 0)
          atomicAdd(reinterpret_cast<unsigned long long*>(pool.avail),
                    static_cast<unsigned long long>(pushes));
      }
    }
    const unsigned descents = __ballot_sync(full_warp, lane.unit == lanes::descend);
    const int unit = lanes::voted_unit(__popc(descents), __popc(busy & ~descents));
    if (lane.unit == unit) see(lanes::step<LeavesInPlace>(lane, visit));
    opened -= __popc(__ballot_sync(full_warp, lane.unit == lanes::idle && (busy >> lane_id & 1)));
    if (static_cast<int>(lane_id) == 0 && opened != 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(pool.open),
                static_cast<unsigned long long>(opened));
  }
  if (lane.unit != lanes::idle) a.parked[atomicAdd(a.parked_count, 1ULL)] = lane.w;
  if (deep) *a.too_deep = 1;
  if (my_deepest >= 0)
    atomicMax(a.deepest, (static_cast<unsigned long long>(my_deepest) + 1) << 32 | grid_lane);

  using Reduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long block_leaves = Reduce(temp).Sum(my_leaves);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(a.leaves, block_leaves);
  for (int d = threadIdx.x; d < a.depth_limit; d += blockDim.x)
    if (block_hist[d]) atomicAdd(&a.histogram[d], static_cast<unsigned long long>(block_hist[d]));
}

auto walk_lanes_kernel_for(bool leaves_in_place) {
  return leaves_in_place ? walk_lanes_kernel<true> : walk_lanes_kernel<false>;
}

}  // namespace

std::size_t walk_lanes_resident(bool leaves_in_place) {
  return resident_blocks(walk_lanes_kernel_for(leaves_in_place), block_size) * block_size;
}

LaneRound bulgarian_walk_lanes(const std::vector<ForestWalker>& queue, int depth_limit,
                               std::uint64_t pass_budget, bool leaves_in_place) {
  const auto kernel = walk_lanes_kernel_for(leaves_in_place);
  LaneRound round;
  round.histogram.assign(depth_limit, 0);
  round.taken = queue.size();
  if (queue.empty()) return round;

  // Every lane the device holds: the walks split on the device to fill them.
  const std::size_t shared = sizeof(unsigned) * depth_limit;
  const int grid = static_cast<int>(resident_blocks(kernel, block_size, shared));
  const std::size_t lanes = static_cast<std::size_t>(grid) * block_size;
  const long long low_water = static_cast<long long>(bulgarian::lanes::pool_low_water(lanes));
  // The ring never fills: it holds the queue, walks pushed while it was below the low-water
  // mark (one per lane at most past it) and walks claimed but not yet read (one per lane).
  std::size_t size = 1;
  while (size < queue.size() + static_cast<std::size_t>(low_water) + 2 * lanes) size *= 2;
  std::vector<unsigned long long> seq(size);
  for (std::size_t p = 0; p < size; ++p) seq[p] = p < queue.size() ? p + 1 : p;
  DeviceBuffer<ForestWalker> d_slots(size);
  d_slots.copy_from(queue.data(), queue.size());
  DeviceBuffer<unsigned long long> d_seq(seq);
  DeviceBuffer<ForestWalker> d_parked(lanes);
  DeviceBuffer<ForestWalker> d_deepest_walk(lanes);
  // head, tail, avail, open, parked, leaves, deepest
  std::vector<unsigned long long> counters = {0, queue.size(), queue.size(), queue.size(), 0, 0, 0};
  DeviceBuffer<unsigned long long> d_counters(counters);
  DeviceBuffer<unsigned long long> d_hist(depth_limit);
  DeviceBuffer<int> d_too_deep(1);
  d_hist.fill_zero();
  d_too_deep.fill_zero();

  unsigned long long* c = d_counters.data();
  const WalkPool pool{d_slots.data(),
                      d_seq.data(),
                      size - 1,
                      c,
                      c + 1,
                      reinterpret_cast<long long*>(c + 2),
                      reinterpret_cast<long long*>(c + 3),
                      low_water};
  const LanesLaunch a{pool,          d_parked.data(), c + 4, d_deepest_walk.data(),
                      d_hist.data(), c + 5,           c + 6, d_too_deep.data(),
                      depth_limit,   pass_budget};
  kernel<<<grid, block_size, shared>>>(a);
  PILES_CUDA_CHECK_LAUNCH();
  PILES_CUDA_CHECK(cudaDeviceSynchronize());

  d_counters.copy_to(counters.data(), counters.size());
  std::vector<unsigned long long> hist(depth_limit);
  d_hist.copy_to(hist.data(), hist.size());
  round.histogram.assign(hist.begin(), hist.end());
  round.parked.resize(counters[4]);
  d_parked.copy_to(round.parked.data(), round.parked.size());
  // Walks left in the pool when the passes ran out park too, in the ring's order.
  if (counters[0] < counters[1]) {
    std::vector<ForestWalker> slots(size);
    d_slots.copy_to(slots.data(), size);
    for (unsigned long long p = counters[0]; p < counters[1]; ++p)
      round.parked.push_back(slots[p & (size - 1)]);
  }
  round.leaves = counters[5];
  if (counters[6] != 0) {
    round.deepest = static_cast<int>((counters[6] >> 32) - 1);
    ForestWalker walk;
    PILES_CUDA_CHECK(cudaMemcpy(&walk, d_deepest_walk.data() + (counters[6] & 0xFFFFFFFFULL),
                                sizeof walk, cudaMemcpyDeviceToHost));
    round.deepest_walk = ForestWalker::at(bulgarian::lanes::node_at_depth(walk, round.deepest));
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
