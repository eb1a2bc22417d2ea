#pragma once

// What the two Topswops kernels (topswops_search.cu, topswops_lockstep.cu) share: the per-chunk
// totals on the device, the sink that keeps each chunk's longest games, reading the totals back
// as chunk results, and the run again of chunks whose games overflowed the buffer.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/topswops.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/topswops_search.hpp"

namespace piles::gpu::topswops_sink {

using topswops::Deck;
using topswops::max_n;

inline constexpr unsigned long long found_capacity = 1ull << 20;
// A chunk's best length (plus one, so that 0 means none) and its number of games, in one
// word for atomicCAS.
inline constexpr int count_bits = 40;

template <int W>
struct Found {
  std::uint32_t chunk;
  std::int32_t steps;
  Deck<W> start, final_deck;
};

template <int W>
struct Totals {
  unsigned long long* best_count;   // per chunk
  unsigned long long* nodes;        // per chunk, max_n levels
  unsigned long long* found_count;  // 64 bits: a count that wraps would hide an overflow
  Found<W>* found;
};

// Keeps the chunk's longest game and its count by compare-and-swap, and the game itself in
// the buffer while there is room. Inlined: a call would take the decks by address, out of
// registers.
template <int W>
struct DeviceSink {
  std::uint32_t chunk;
  int record_min;
  Totals<W> totals;

  __device__ __forceinline__ void leaf(int steps, const Deck<W>& start, const Deck<W>& final_deck) {
    if (steps < record_min) return;
    unsigned long long* slot = &totals.best_count[chunk];
    const unsigned long long mine = static_cast<unsigned long long>(steps + 1) << count_bits;
    unsigned long long seen = *slot, assumed;
    do {
      assumed = seen;
      const unsigned long long best = assumed >> count_bits << count_bits;
      if (mine < best) return;
      seen = atomicCAS(slot, assumed, mine == best ? assumed + 1 : mine | 1);
    } while (seen != assumed);
    const unsigned long long index = atomicAdd(totals.found_count, 1ull);
    if (index < found_capacity) totals.found[index] = {chunk, steps, start, final_deck};
  }
};

// Adds a search's node counts (levels past the prefixes') to its chunk's.
__device__ __forceinline__ void add_nodes(unsigned long long* chunk_nodes,
                                          const std::uint64_t* nodes, int depth, int n) {
  for (int l = depth + 1; l < n; ++l)
    if (nodes[l]) atomicAdd(&chunk_nodes[l], static_cast<unsigned long long>(nodes[l]));
}

// The totals of one run over `chunks` chunks, zeroed, on the device.
template <int W>
class ChunkTotals {
 public:
  explicit ChunkTotals(int chunks)
      : best_count_(chunks), nodes_(chunks * max_n), found_count_(1), found_(found_capacity) {
    best_count_.fill_zero();
    nodes_.fill_zero();
    found_count_.fill_zero();
  }

  Totals<W> view() {
    return {best_count_.data(), nodes_.data(), found_count_.data(), found_.data()};
  }

  // The chunks' results, each with the games of its best length, and per chunk whether its
  // games overflowed the buffer.
  std::vector<TopswopsChunkResult> collect(int n, std::vector<bool>& overflowed) const {
    const auto best_counts = best_count_.to_host();
    const auto node_counts = nodes_.to_host();
    unsigned long long stored = 0;
    found_count_.copy_to(&stored, 1);
    std::vector<Found<W>> games(std::min(stored, found_capacity));
    found_.copy_to(games.data(), games.size());

    const std::size_t chunks = best_counts.size();
    std::vector<TopswopsChunkResult> results(chunks);
    for (std::size_t c = 0; c < chunks; ++c) {
      results[c].best = static_cast<int>(best_counts[c] >> count_bits) - 1;
      results[c].count = best_counts[c] & ((1ull << count_bits) - 1);
      results[c].nodes.assign(node_counts.begin() + c * max_n, node_counts.begin() + c * max_n + n);
    }
    for (const Found<W>& g : games) {
      TopswopsChunkResult& r = results[g.chunk];
      if (g.steps != r.best) continue;
      r.starts.push_back(topswops::to_cards(g.start, n));
      r.finals.push_back(topswops::to_cards(g.final_deck, n));
    }
    overflowed.assign(chunks, false);
    for (std::size_t c = 0; c < chunks; ++c)
      overflowed[c] = results[c].starts.size() < results[c].count;
    return results;
  }

 private:
  DeviceBuffer<unsigned long long> best_count_, nodes_, found_count_;
  DeviceBuffer<Found<W>> found_;
};

// Every chunk of `work` through launch_once(work, record_min, overflowed), which searches the
// chunks recording only games of at least record_min[c] in chunk c, and tells which chunks'
// games overflowed the buffer. Those chunks are searched again, recording only games of their
// best length: the search itself, and so its counts, are the same.
template <class LaunchOnce>
std::vector<TopswopsChunkResult> search_chunks(const TopswopsWork& work, LaunchOnce&& launch_once) {
  const int chunks = static_cast<int>(work.chunk_ends.size());
  if (chunks == 0 || work.chunk_ends.back() == 0) {
    std::vector<TopswopsChunkResult> empty(chunks);
    for (auto& r : empty) r.nodes.assign(work.n, 0);
    return empty;
  }
  std::vector<bool> overflowed;
  auto results = launch_once(work, std::vector<int>(chunks, work.target), overflowed);
  for (int c = 0; c < chunks; ++c) {
    if (!overflowed[c]) continue;
    const std::uint64_t first = c ? work.chunk_ends[c - 1] : 0, last = work.chunk_ends[c];
    TopswopsWork one = work;
    one.choices.assign(work.choices.begin() + first * work.depth,
                       work.choices.begin() + last * work.depth);
    one.chunk_ends = {last - first};
    std::vector<bool> again;
    auto rerun = launch_once(one, std::vector<int>{results[c].best}, again);
    if (again[0])
      throw std::runtime_error("Topswops chunk with more than " + std::to_string(found_capacity) +
                               " longest games: they do not fit the GPU's game buffer");
    results[c].starts = std::move(rerun[0].starts);
    results[c].finals = std::move(rerun[0].finals);
  }
  return results;
}

}  // namespace piles::gpu::topswops_sink
