#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/topswops.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_buffer.cuh"
#include "kernels/launch.cuh"
#include "kernels/topswops_search.hpp"

namespace piles::gpu {
namespace {

using topswops::Deck;
using topswops::Frame;
using topswops::max_n;

constexpr int block_threads = 128;
constexpr unsigned long long found_capacity = 1ull << 20;
// A chunk's best length (plus one, so that 0 means none) and its number of games, in one
// word for atomicCAS.
constexpr int count_bits = 40;

template <int W>
struct Found {
  std::uint32_t chunk;
  std::int32_t steps;
  Deck<W> start, final_deck;
};

struct Totals {
  unsigned long long* best_count;   // per chunk
  unsigned long long* nodes;        // per chunk, max_n levels
  unsigned long long* found_count;  // 64 bits: a count that wraps would hide an overflow
};

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
  Totals totals;
  Found<W>* found;
};

// Keeps the chunk's longest game and its count by compare-and-swap, and the game itself in
// the buffer while there is room.
template <int W>
struct DeviceSink {
  std::uint32_t chunk;
  int record_min;
  unsigned long long* best_count;
  unsigned long long* found_count;
  Found<W>* found;

  __device__ void leaf(int steps, const Deck<W>& start, const Deck<W>& final_deck) {
    if (steps < record_min) return;
    unsigned long long* slot = &best_count[chunk];
    const unsigned long long mine = static_cast<unsigned long long>(steps + 1) << count_bits;
    unsigned long long seen = *slot, assumed;
    do {
      assumed = seen;
      const unsigned long long best = assumed >> count_bits << count_bits;
      if (mine < best) return;
      seen = atomicCAS(slot, assumed, mine == best ? assumed + 1 : mine | 1);
    } while (seen != assumed);
    const unsigned long long index = atomicAdd(found_count, 1ull);
    if (index < found_capacity) found[index] = {chunk, steps, start, final_deck};
  }
};

__device__ std::uint32_t chunk_of(const std::uint64_t* ends, int chunks, std::uint64_t prefix) {
  int lo = 0, hi = chunks - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (ends[mid] > prefix)
      hi = mid;
    else
      lo = mid + 1;
  }
  return static_cast<std::uint32_t>(lo);
}

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
    const std::uint32_t chunk = chunk_of(a.chunk_ends, a.chunks, i);
    DeviceSink<W> sink{chunk, a.record_min[chunk], a.totals.best_count, a.totals.found_count,
                       a.found};
    Deck<W> start;
    const Frame<W> f = topswops::replay<W>(problem, a.choices + i * a.depth, a.depth, start);
    std::uint64_t nodes[max_n] = {};
    topswops::search_below(problem, f, a.depth, start, a.target, nodes, sink);
    for (int l = a.depth + 1; l < a.n; ++l)
      if (nodes[l])
        atomicAdd(&a.totals.nodes[chunk * max_n + l], static_cast<unsigned long long>(nodes[l]));
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
  DeviceBuffer<unsigned long long> next(1), best_count(chunks), nodes(chunks * max_n);
  DeviceBuffer<unsigned long long> found_count(1);
  DeviceBuffer<Found<W>> found(found_capacity);
  next.fill_zero();
  best_count.fill_zero();
  nodes.fill_zero();
  found_count.fill_zero();

  Launch<W> a{work.n,
              work.depth,
              work.target,
              work.sorted,
              bound.data(),
              choices.data(),
              ends.data(),
              chunks,
              mins.data(),
              next.data(),
              {best_count.data(), nodes.data(), found_count.data()},
              found.data()};
  const int grid = persistent_blocks(search_kernel<W>, prefixes, block_threads);
  search_kernel<W><<<grid, block_threads>>>(a, prefixes);
  PILES_CUDA_CHECK_LAUNCH();
  PILES_CUDA_CHECK(cudaDeviceSynchronize());

  const auto best_counts = best_count.to_host();
  const auto node_counts = nodes.to_host();
  unsigned long long stored = 0;
  found_count.copy_to(&stored, 1);
  std::vector<Found<W>> games(std::min(stored, found_capacity));
  found.copy_to(games.data(), games.size());

  std::vector<TopswopsChunkResult> results(chunks);
  for (int c = 0; c < chunks; ++c) {
    results[c].best = static_cast<int>(best_counts[c] >> count_bits) - 1;
    results[c].count = best_counts[c] & ((1ull << count_bits) - 1);
    results[c].nodes.assign(node_counts.begin() + c * max_n,
                            node_counts.begin() + c * max_n + work.n);
  }
  for (const Found<W>& g : games) {
    TopswopsChunkResult& r = results[g.chunk];
    if (g.steps != r.best) continue;
    r.starts.push_back(topswops::to_cards(g.start, work.n));
    r.finals.push_back(topswops::to_cards(g.final_deck, work.n));
  }
  overflowed.assign(chunks, false);
  for (int c = 0; c < chunks; ++c) overflowed[c] = results[c].starts.size() < results[c].count;
  return results;
}

template <int W>
std::vector<TopswopsChunkResult> search(const TopswopsWork& work) {
  const int chunks = static_cast<int>(work.chunk_ends.size());
  std::vector<bool> overflowed;
  auto results = launch_once<W>(work, std::vector<int>(chunks, work.target), overflowed);
  // Again, for the chunks whose games did not fit, recording only games of their best length:
  // the search itself, and so its counts, are the same.
  for (int c = 0; c < chunks; ++c) {
    if (!overflowed[c]) continue;
    const std::uint64_t first = c ? work.chunk_ends[c - 1] : 0, last = work.chunk_ends[c];
    TopswopsWork one = work;
    one.choices.assign(work.choices.begin() + first * work.depth,
                       work.choices.begin() + last * work.depth);
    one.chunk_ends = {last - first};
    std::vector<bool> again;
    auto rerun = launch_once<W>(one, {results[c].best}, again);
    if (again[0])
      throw std::runtime_error("Topswops chunk with more than " + std::to_string(found_capacity) +
                               " longest games: they do not fit the GPU's game buffer");
    results[c].starts = std::move(rerun[0].starts);
    results[c].finals = std::move(rerun[0].finals);
  }
  return results;
}

}  // namespace

std::vector<TopswopsChunkResult> topswops_search(const TopswopsWork& work) {
  if (work.chunk_ends.empty() || work.chunk_ends.back() == 0) {
    std::vector<TopswopsChunkResult> empty(work.chunk_ends.size());
    for (auto& r : empty) r.nodes.assign(work.n, 0);
    return empty;
  }
  return topswops::words_for(work.n) == 2 ? search<2>(work) : search<3>(work);
}

std::uint64_t topswops_threads_in_flight(int n) {
  const std::uint64_t blocks = topswops::words_for(n) == 2
                                   ? resident_blocks(search_kernel<2>, block_threads)
                                   : resident_blocks(search_kernel<3>, block_threads);
  return blocks * block_threads;
}

}  // namespace piles::gpu
