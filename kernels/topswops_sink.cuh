#pragma once

// What the two Topswops kernels (topswops_search.cu, topswops_lockstep.cu) share: the per-chunk
// totals on the device, the sink that keeps each chunk's longest games, and reading the totals
// back as chunk results (assembled, and overflowing chunks run again, in topswops_chunks.hpp).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/topswops.hpp"
#include "core/topswops_found.hpp"
#include "kernels/device_buffer.cuh"
#include "kernels/topswops_chunks.hpp"
#include "kernels/topswops_search.hpp"

namespace piles::gpu::topswops_sink {

using topswops::Deck;
using topswops::max_n;

template <int W>
using Found = topswops::found::Game<W>;

template <int W>
struct Totals {
  unsigned long long* best_count;   // per chunk
  unsigned long long* nodes;        // per chunk, max_n levels
  unsigned long long* found_count;  // 64 bits: a count that wraps would hide an overflow
  Found<W>* found;
  unsigned long long capacity;  // of `found`
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
    unsigned long long seen = *slot, assumed;
    do {
      assumed = seen;
      const unsigned long long next = topswops::found::with_game(assumed, steps);
      if (next == assumed) return;  // shorter than the chunk's best
      seen = atomicCAS(slot, assumed, next);
    } while (seen != assumed);
    const unsigned long long index = atomicAdd(totals.found_count, 1ull);
    if (index < totals.capacity) totals.found[index] = {chunk, steps, start, final_deck};
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
  ChunkTotals(int chunks, unsigned long long capacity)
      : best_count_(chunks), nodes_(chunks * max_n), found_count_(1), found_(capacity) {
    best_count_.fill_zero();
    nodes_.fill_zero();
    found_count_.fill_zero();
  }

  Totals<W> view() {
    return {best_count_.data(), nodes_.data(), found_count_.data(), found_.data(), found_.size()};
  }

  // The chunks' results, each with the games of its best length, and per chunk whether its
  // games overflowed the buffer.
  std::vector<TopswopsChunkResult> collect(int n, std::vector<bool>& overflowed) const {
    unsigned long long stored = 0;
    found_count_.copy_to(&stored, 1);
    std::vector<Found<W>> games(std::min<unsigned long long>(stored, found_.size()));
    found_.copy_to(games.data(), games.size());
    return topswops_chunks::assemble(best_count_.to_host(), nodes_.to_host(), games, n, overflowed);
  }

 private:
  DeviceBuffer<unsigned long long> best_count_, nodes_, found_count_;
  DeviceBuffer<Found<W>> found_;
};

}  // namespace piles::gpu::topswops_sink
