#include <algorithm>

#include "core/bulgarian.hpp"
#include "kernels/bulgarian_random.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"

namespace piles::gpu {
namespace {

using partition::part_t;

constexpr int block_size = 128;
// Chain moves per launch at most, so that no launch holds unbounded work (DESIGN.md section
// 11): on an H100 about a second or two.
constexpr std::uint64_t launch_moves = std::uint64_t{1} << 34;

// Chains [first, last) of the run, one per thread.
__global__ void random_kernel(const part_t* start, int start_len, int n, std::uint64_t first,
                              std::uint64_t last, std::uint64_t steps, std::uint64_t threshold,
                              std::uint64_t seed, unsigned long long* shape,
                              unsigned long long* piles) {
  part_t parts[partition::max_n + 1];
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t chain =
           first + blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       chain < last; chain += stride) {
    int len = start_len;
    for (int i = 0; i < len; ++i) parts[i] = start[i];
    const std::uint64_t key = bulgarian::chain_key(seed, chain);
    for (std::uint64_t step = 0; step < steps; ++step)
      len = bulgarian::stochastic_move(parts, len, threshold, key, step);
    for (int i = 0; i < len && i < n; ++i) atomicAdd(&shape[i], parts[i]);
    atomicAdd(piles, static_cast<unsigned long long>(len));
  }
}

}  // namespace

RandomSums bulgarian_random(const std::vector<part_t>& start, std::uint64_t runs,
                            std::uint64_t steps, std::uint64_t threshold, std::uint64_t seed) {
  int n = 0;
  for (const part_t v : start) n += v;
  DeviceBuffer<part_t> d_start(start);
  DeviceBuffer<unsigned long long> d_shape(n), d_piles(1);
  d_shape.fill_zero();
  d_piles.fill_zero();
  // Chains go in batches of at most launch_moves moves; the sums are exact integers, so the
  // batching does not change them.
  const std::uint64_t per_launch =
      std::max<std::uint64_t>(1, launch_moves / std::max<std::uint64_t>(steps, 1));
  for (std::uint64_t first = 0; first < runs; first += per_launch) {
    const std::uint64_t last = first + std::min(per_launch, runs - first);
    const int grid = grid_stride_blocks(last - first, block_size);
    random_kernel<<<grid, block_size>>>(d_start.data(), static_cast<int>(start.size()), n, first,
                                        last, steps, threshold, seed, d_shape.data(),
                                        d_piles.data());
    PILES_CUDA_CHECK_LAUNCH();
    PILES_CUDA_CHECK(cudaDeviceSynchronize());
  }
  RandomSums sums;
  std::vector<unsigned long long> shape(n);
  d_shape.copy_to(shape.data(), n);
  sums.shape.assign(shape.begin(), shape.end());
  unsigned long long piles = 0;
  d_piles.copy_to(&piles, 1);
  sums.piles = piles;
  return sums;
}

}  // namespace piles::gpu
