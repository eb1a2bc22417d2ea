#include <cuda_runtime.h>

#include "core/topswops.hpp"
#include "core/topswops_found.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"
#include "kernels/topswops_chunks.hpp"
#include "kernels/topswops_search.hpp"
#include "kernels/topswops_sink.cuh"

namespace piles::gpu {
namespace {

using topswops::Deck;
using topswops::Frame;
using topswops::max_n;
using topswops_sink::ChunkTotals;
using topswops_sink::DeviceSink;
using topswops_sink::Totals;

constexpr int block_threads = 128;

template <int W>
struct Launch {
  int n, depth, target;
  bool sorted;
  const std::int32_t* bound;
  const std::uint8_t* choices;
  const std::uint64_t* chunk_ends;
  int chunks;
  const int* record_min;  // per chunk: games shorter than this are not recorded
  unsigned long long* next_prefix;
  Totals<W> totals;
};

template <int W>
__global__ void __launch_bounds__(block_threads)
    search_kernel(Launch<W> a, std::uint64_t prefixes) {
  __shared__ std::int32_t bound[max_n + 1];
  for (int i = threadIdx.x; i <= a.n; i += blockDim.x) bound[i] = a.bound[i];
  __syncthreads();
  const topswops::Problem problem{a.n, a.sorted, bound};
  for (;;) {
    const unsigned long long i = atomicAdd(a.next_prefix, 1ull);
    if (i >= prefixes) return;
    const std::uint32_t chunk = topswops::found::chunk_of(a.chunk_ends, a.chunks, i);
    DeviceSink<W> sink{chunk, a.record_min[chunk], a.totals};
    Deck<W> start;
    const Frame<W> f = topswops::replay<W>(problem, a.choices + i * a.depth, a.depth, start);
    std::uint64_t nodes[max_n] = {};
    topswops::search_below(problem, f, a.depth, start, a.target, nodes, sink);
    topswops_sink::add_nodes(a.totals.nodes + chunk * max_n, nodes, a.depth, a.n);
  }
}

// One launch over `work`; record_min[c] is the shortest game worth recording in chunk c.
// Returns the results and, per chunk, whether its games overflowed the buffer.
template <int W>
std::vector<TopswopsChunkResult> launch_once(const TopswopsWork& work,
                                             const std::vector<int>& record_min,
                                             std::vector<bool>& overflowed) {
  const int chunks = static_cast<int>(work.chunk_ends.size());
  const std::uint64_t prefixes = work.chunk_ends.back();
  DeviceBuffer<std::int32_t> bound(work.bound);
  DeviceBuffer<std::uint8_t> choices(work.choices);
  DeviceBuffer<std::uint64_t> ends(work.chunk_ends);
  DeviceBuffer<int> mins(record_min);
  DeviceBuffer<unsigned long long> next(1);
  next.fill_zero();
  ChunkTotals<W> totals(chunks, work.found_capacity);

  const Launch<W> a{work.n,      work.depth, work.target, work.sorted, bound.data(), choices.data(),
                    ends.data(), chunks,     mins.data(), next.data(), totals.view()};
  const int grid = persistent_blocks(search_kernel<W>, prefixes, block_threads);
  search_kernel<W><<<grid, block_threads>>>(a, prefixes);
  PILES_CUDA_CHECK_LAUNCH();
  PILES_CUDA_CHECK(cudaDeviceSynchronize());
  return totals.collect(work.n, overflowed);
}

}  // namespace

std::vector<TopswopsChunkResult> topswops_search(const TopswopsWork& work,
                                                 const TopswopsStop& stop) {
  return topswops::words_for(work.n) == 2
             ? topswops_chunks::search_chunks(work, launch_once<2>, stop)
             : topswops_chunks::search_chunks(work, launch_once<3>, stop);
}

std::uint64_t topswops_threads_in_flight(int n) {
  const std::uint64_t blocks = topswops::words_for(n) == 2
                                   ? resident_blocks(search_kernel<2>, block_threads)
                                   : resident_blocks(search_kernel<3>, block_threads);
  return blocks * block_threads;
}

}  // namespace piles::gpu
