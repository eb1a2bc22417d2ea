#pragma once
// Device steps of the lanes walk that walk_lanes_kernel and the probe that counts its SASS
// (bench/walk_lane_costs_probe.cu) share: the pool's ordered loads and stores, and a walk handed
// from lane to lane.
#include <cuda/atomic>

#include "core/bulgarian_lane.hpp"

namespace piles::gpu::walk_lanes {

using bulgarian::ForestWalker;

constexpr unsigned full_warp = ~0u;

__device__ __forceinline__ unsigned long long load_acquire(unsigned long long* p) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*p).load(
      cuda::memory_order_acquire);
}

__device__ __forceinline__ void store_release(unsigned long long* p, unsigned long long v) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*p).store(
      v, cuda::memory_order_release);
}

__device__ __forceinline__ long long load_relaxed(long long* p) {
  return cuda::atomic_ref<long long, cuda::thread_scope_device>(*p).load(
      cuda::memory_order_relaxed);
}

// A lane's walk from lane `from` of its warp, word by word, through local memory (the walk's
// ring is there anyway), so that no register holds more than a word of it.
__device__ inline void shuffle_walk(const ForestWalker& w, int from, ForestWalker& got) {
  constexpr int words = sizeof(ForestWalker) / sizeof(unsigned);
  static_assert(sizeof(ForestWalker) % sizeof(unsigned) == 0);
  const auto* in = reinterpret_cast<const unsigned*>(&w);
  auto* out = reinterpret_cast<unsigned*>(&got);
#pragma unroll
  for (int i = 0; i < words; ++i) out[i] = __shfl_sync(full_warp, in[i], from);
}

}  // namespace piles::gpu::walk_lanes
