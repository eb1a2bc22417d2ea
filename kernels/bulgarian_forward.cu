#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/gather.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>
#include <thrust/tabulate.h>

#include <bit>

#include "core/bulgarian.hpp"
#include "kernels/bulgarian_forward.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/forward_passes.cuh"

namespace piles::gpu {
namespace {

using forward::begin;
using forward::end;
using forward::level_passes;
using forward::ScratchAllocator;

template <class Rank>
struct SuccessorOf {
  partition::CountView table;
  __device__ Rank operator()(std::uint64_t r) const {
    return bulgarian::successor_rank<Rank>(table, r);
  }
};

struct IsZero {
  __device__ bool operator()(std::uint16_t depth) const { return depth == 0; }
};

template <class Rank>
bulgarian::ForwardCounts forward_ranks(partition::CountView host_table) {
  const std::uint64_t count = host_table.count();
  DeviceBuffer<std::uint64_t> d_table(partition::CountView::row_start(host_table.n + 1));
  d_table.copy_from(host_table.data, d_table.size());
  const partition::CountView table{d_table.data(), host_table.n};
  bulgarian::ForwardCounts out;
  ScratchAllocator scratch_memory;
  const auto on_device = thrust::cuda::par(scratch_memory);

  DeviceBuffer<Rank> succ(count);
  thrust::tabulate(on_device, begin(succ), end(succ), SuccessorOf<Rank>{table});

  // Pointer doubling: after the rounds every jump has made more moves than any transient.
  DeviceBuffer<std::uint16_t> depth;
  {
    DeviceBuffer<Rank> jump(count), scratch(count);
    thrust::copy(on_device, begin(succ), end(succ), begin(jump));
    const int rounds = std::bit_width(static_cast<unsigned>(2 * host_table.n + 2));
    for (int round = 1; round <= rounds; ++round) {
      thrust::gather(on_device, begin(jump), end(jump), begin(jump), begin(scratch));
      std::swap(jump, scratch);
    }
    scratch = DeviceBuffer<Rank>();
    depth = DeviceBuffer<std::uint16_t>(count);

    // The image of the last jump is exactly the set of cycle partitions.
    thrust::fill(on_device, begin(depth), end(depth), bulgarian::unknown_depth);
    thrust::scatter(on_device, thrust::constant_iterator<std::uint16_t>(0),
                    thrust::constant_iterator<std::uint16_t>(0) + count, begin(jump), begin(depth));
  }

  {
    DeviceBuffer<std::uint8_t> has_predecessor(count);
    has_predecessor.fill_zero();
    thrust::scatter(on_device, thrust::constant_iterator<std::uint8_t>(1),
                    thrust::constant_iterator<std::uint8_t>(1) + count, begin(succ),
                    begin(has_predecessor));
    out.garden_of_eden =
        thrust::count(on_device, begin(has_predecessor), end(has_predecessor), std::uint8_t{0});
  }

  const auto on_cycle = thrust::count_if(on_device, begin(depth), end(depth), IsZero{});
  {
    DeviceBuffer<std::uint64_t> cycle_ranks(on_cycle);
    thrust::copy_if(on_device, thrust::counting_iterator<std::uint64_t>(0),
                    thrust::counting_iterator<std::uint64_t>(count), begin(depth),
                    begin(cycle_ranks), IsZero{});
    out.cycle_ranks = cycle_ranks.to_host();
  }
  out.histogram.push_back(on_cycle);

  level_passes(succ, depth, count, out.histogram);
  out.deepest_rank = thrust::max_element(on_device, begin(depth), end(depth)) - begin(depth);
  return out;
}

}  // namespace

bulgarian::ForwardCounts bulgarian_forward(partition::CountView table, bool wide) {
  return wide || table.n > bulgarian::forward_max_n ? forward_ranks<std::uint64_t>(table)
                                                    : forward_ranks<std::uint32_t>(table);
}

std::uint64_t free_device_memory() {
  std::size_t free = 0, total = 0;
  PILES_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

}  // namespace piles::gpu
