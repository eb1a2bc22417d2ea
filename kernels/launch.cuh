#pragma once

// Launch configuration, kept apart from the kernels as in CUB's dispatch layer: how many blocks
// a launch over some number of items takes, for the two shapes the kernels here have.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/cuda_check.cuh"

namespace piles::gpu {

// Grid-stride kernels stop growing the grid here; their threads then take several items each.
inline constexpr std::uint64_t max_grid_stride_blocks = 65535;

// Blocks of `block_threads` threads that give each of `items` a thread of its own.
constexpr std::uint64_t blocks_for(std::uint64_t items, int block_threads) {
  return (items + block_threads - 1) / block_threads;
}

// Grid of a grid-stride kernel over `items`.
inline int grid_stride_blocks(std::uint64_t items, int block_threads) {
  return static_cast<int>(std::min(blocks_for(items, block_threads), max_grid_stride_blocks));
}

// Blocks of `kernel` the current device holds at once, counting at least one per
// multiprocessor.
template <class Kernel>
std::uint64_t resident_blocks(Kernel kernel, int block_threads, std::size_t shared_bytes = 0) {
  int device = 0, multiprocessors = 0, blocks_per_sm = 0;
  PILES_CUDA_CHECK(cudaGetDevice(&device));
  PILES_CUDA_CHECK(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  PILES_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel,
                                                                 block_threads, shared_bytes));
  return static_cast<std::uint64_t>(multiprocessors) * std::max(blocks_per_sm, 1);
}

// Grid of a persistent kernel, whose threads take items from a counter until none is left: a
// thread per item, but no more blocks than the device holds at once.
template <class Kernel>
int persistent_blocks(Kernel kernel, std::uint64_t items, int block_threads,
                      std::size_t shared_bytes = 0) {
  return static_cast<int>(std::min(blocks_for(items, block_threads),
                                   resident_blocks(kernel, block_threads, shared_bytes)));
}

}  // namespace piles::gpu
