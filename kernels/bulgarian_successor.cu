#include "core/bulgarian.hpp"
#include "core/partition.hpp"
#include "kernels/bulgarian_successor.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"

namespace piles::gpu {
namespace {

using partition::part_t;

__global__ void successor_kernel(partition::CountView table, std::uint64_t first,
                                 std::uint64_t count, std::uint64_t* out) {
  part_t parts[partition::max_n + 1];
  part_t next[partition::max_n + 1];
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride) {
    const int len = partition::unrank(table, first + i, parts);
    const int next_len = bulgarian::move(parts, len, next);
    out[i] = partition::rank(table, next, next_len);
  }
}

}  // namespace

std::vector<std::uint64_t> bulgarian_successors(partition::CountView table, std::uint64_t first,
                                                std::uint64_t count) {
  DeviceBuffer<std::uint64_t> d_table(partition::CountView::row_start(table.n + 1));
  d_table.copy_from(table.data, d_table.size());
  DeviceBuffer<std::uint64_t> d_out(count);
  if (count > 0) {
    constexpr int block = 256;
    const int grid = grid_stride_blocks(count, block);
    successor_kernel<<<grid, block>>>({d_table.data(), table.n}, first, count, d_out.data());
    PILES_CUDA_CHECK_LAUNCH();
    PILES_CUDA_CHECK(cudaDeviceSynchronize());
  }
  return d_out.to_host();
}

}  // namespace piles::gpu
