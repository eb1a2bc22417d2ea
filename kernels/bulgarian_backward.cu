#include <cub/block/block_reduce.cuh>

#include "core/bulgarian.hpp"
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
      if (depth >= depth_limit) {
        deep = true;
      } else if (atomicAdd(&block_hist[depth], 1u) == bin_flush - 1) {
        // Exactly one thread sees the bin reach bin_flush; it moves that much to global memory.
        atomicSub(&block_hist[depth], bin_flush);
        atomicAdd(&histogram[depth], static_cast<unsigned long long>(bin_flush));
      }
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

}  // namespace

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
