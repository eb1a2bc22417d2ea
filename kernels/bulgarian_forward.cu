#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/gather.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>
#include <thrust/tabulate.h>

#include <bit>
#include <cub/block/block_reduce.cuh>

#include "core/bulgarian.hpp"
#include "kernels/bulgarian_forward.hpp"
#include "kernels/device_buffer.cuh"

namespace piles::gpu {
namespace {

constexpr int block_size = 256;

struct SuccessorOf {
  partition::CountView table;
  __device__ std::uint32_t operator()(std::uint64_t r) const {
    return bulgarian::successor_rank(table, r);
  }
};

struct IsZero {
  __device__ bool operator()(std::uint16_t depth) const { return depth == 0; }
};

// One level of the depth BFS: partitions whose successor sits on level - 1 join `level`; the
// block's count goes to `joined` with one atomic.
__global__ void level_kernel(const std::uint32_t* succ, std::uint16_t* depth,
                             unsigned long long count, int level, unsigned long long* joined) {
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

template <class T>
void release(thrust::device_vector<T>& v) {
  v.clear();
  v.shrink_to_fit();
}

}  // namespace

std::uint64_t free_device_memory() {
  std::size_t free = 0, total = 0;
  PILES_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

ForwardResult bulgarian_forward(partition::CountView host_table) {
  const std::uint64_t count = host_table.count();
  DeviceBuffer<std::uint64_t> d_table(partition::CountView::row_start(host_table.n + 1));
  d_table.copy_from(host_table.data, d_table.size());
  const partition::CountView table{d_table.data(), host_table.n};
  ForwardResult out;

  thrust::device_vector<std::uint32_t> succ(count);
  thrust::tabulate(succ.begin(), succ.end(), SuccessorOf{table});

  // Pointer doubling: after the rounds every jump has made more moves than any transient.
  thrust::device_vector<std::uint32_t> jump = succ, scratch(count);
  const int rounds = std::bit_width(static_cast<unsigned>(2 * host_table.n + 2));
  for (int round = 1; round <= rounds; ++round) {
    thrust::gather(jump.begin(), jump.end(), jump.begin(), scratch.begin());
    jump.swap(scratch);
  }
  release(scratch);

  // The image of the last jump is exactly the set of cycle partitions.
  thrust::device_vector<std::uint16_t> depth(count, bulgarian::unknown_depth);
  thrust::scatter(thrust::constant_iterator<std::uint16_t>(0),
                  thrust::constant_iterator<std::uint16_t>(0) + count, jump.begin(), depth.begin());
  release(jump);

  {
    thrust::device_vector<std::uint8_t> has_predecessor(count, 0);
    thrust::scatter(thrust::constant_iterator<std::uint8_t>(1),
                    thrust::constant_iterator<std::uint8_t>(1) + count, succ.begin(),
                    has_predecessor.begin());
    out.garden_of_eden = thrust::count(has_predecessor.begin(), has_predecessor.end(), 0);
  }

  const auto on_cycle = thrust::count_if(depth.begin(), depth.end(), IsZero{});
  thrust::device_vector<std::uint64_t> cycle_ranks(on_cycle);
  thrust::copy_if(thrust::counting_iterator<std::uint64_t>(0),
                  thrust::counting_iterator<std::uint64_t>(count), depth.begin(),
                  cycle_ranks.begin(), IsZero{});
  out.cycle_ranks.resize(on_cycle);
  thrust::copy(cycle_ranks.begin(), cycle_ranks.end(), out.cycle_ranks.begin());
  out.histogram.push_back(on_cycle);

  DeviceBuffer<unsigned long long> joined(1);
  const int grid =
      static_cast<int>(std::min<std::uint64_t>((count + block_size - 1) / block_size, 65535));
  for (int level = 1; level < bulgarian::unknown_depth; ++level) {
    joined.fill_zero();
    level_kernel<<<grid, block_size>>>(thrust::raw_pointer_cast(succ.data()),
                                       thrust::raw_pointer_cast(depth.data()), count, level,
                                       joined.data());
    PILES_CUDA_CHECK_LAUNCH();
    unsigned long long joined_host = 0;
    joined.copy_to(&joined_host, 1);
    if (joined_host == 0) break;
    out.histogram.push_back(joined_host);
  }
  return out;
}

}  // namespace piles::gpu
