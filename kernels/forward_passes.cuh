#pragma once

// What the forward engines (bulgarian_forward.cu, bulgarian_generic.cu) share on the device:
// Thrust on memory that a DeviceBuffer owns, and the level passes of the depth BFS.

#include <thrust/device_ptr.h>

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <vector>

#include "core/bulgarian.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"

namespace piles::gpu::forward {

constexpr int block_size = 256;

// One level of the depth BFS: states whose successor sits on level - 1 join `level`; the
// block's count goes to `joined` with one atomic. Static: each engine's file has its own copy.
template <class Rank>
static __global__ void level_kernel(const Rank* succ, std::uint16_t* depth,
                                    unsigned long long count, int level,
                                    unsigned long long* joined) {
  unsigned long long mine = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < count; i += stride) {
    const std::uint16_t next = depth[succ[i]];
    if (bulgarian::joins_level(depth[i], next, level)) {
      depth[i] = static_cast<std::uint16_t>(level);
      ++mine;
    }
  }
  using Reduce = cub::BlockReduce<unsigned long long, block_size>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long total = Reduce(temp).Sum(mine);
  if (threadIdx.x == 0 && total) atomicAdd(joined, total);
}

// The depth BFS to its end, one level pass a launch: appends each level's count, from level 1
// on, to `histogram`. depth holds 0 on the cycles and unknown_depth elsewhere.
template <class Rank>
static void level_passes(const DeviceBuffer<Rank>& succ,
                         DeviceBuffer<std::uint16_t>& depth, unsigned long long count,
                         std::vector<std::uint64_t>& histogram) {
  DeviceBuffer<unsigned long long> joined(1);
  const int grid = grid_stride_blocks(count, block_size);
  for (int level = 1; level < bulgarian::unknown_depth; ++level) {
    joined.fill_zero();
    level_kernel<<<grid, block_size>>>(succ.data(), depth.data(), count, level, joined.data());
    PILES_CUDA_CHECK_LAUNCH();
    unsigned long long joined_host = 0;
    joined.copy_to(&joined_host, 1);
    if (joined_host == 0) return;
    histogram.push_back(joined_host);
  }
}

// Thrust's scratch memory, freed without throwing: after a sticky device error cudaFree fails
// too, and a throw while unwinding would end the program instead of reporting the error.
struct ScratchAllocator {
  using value_type = char;
  char* allocate(std::ptrdiff_t bytes) {
    char* p = nullptr;
    PILES_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  void deallocate(char* p, std::size_t) { cudaFree(p); }
};

// Thrust's algorithms on a DeviceBuffer's memory (the buffer owns it: a device_vector's
// destructor would end the program after a sticky device error instead of reporting it).
template <class T>
thrust::device_ptr<T> begin(DeviceBuffer<T>& b) {
  return thrust::device_pointer_cast(b.data());
}
template <class T>
thrust::device_ptr<T> end(DeviceBuffer<T>& b) {
  return begin(b) + b.size();
}

}  // namespace piles::gpu::forward
