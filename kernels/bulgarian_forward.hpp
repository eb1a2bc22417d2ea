#pragma once

#include <cstdint>
#include <vector>

#include "core/partition.hpp"

namespace piles::bulgarian {

// What the forward engine measures on the whole graph of B, on either backend.
struct ForwardCounts {
  std::vector<std::uint64_t> histogram;    // partitions per distance to their cycle
  std::uint64_t garden_of_eden = 0;        // ranks no partition moves to
  std::vector<std::uint64_t> cycle_ranks;  // sorted
  std::uint64_t deepest_rank = 0;  // GPU engine: a partition at the greatest depth, to replay
};

}  // namespace piles::bulgarian

namespace piles::gpu {

// The forward engine on the GPU (n <= bulgarian::forward_wide_max_n): successor of every rank,
// pointer doubling onto the cycles, in-degrees and level-synchronous depths, with Thrust and
// CUB doing the reductions. Ranks of 32 bits where they hold p(n), else 64; `wide` forces 64
// (tests compare the two at small n).
bulgarian::ForwardCounts bulgarian_forward(partition::CountView table, bool wide = false);

// Bytes free on the device now.
std::uint64_t free_device_memory();

}  // namespace piles::gpu
