#pragma once

#include <cstdint>
#include <vector>

#include "host/common/partition_table.hpp"

namespace piles::bulgarian {

// What the forward engine measures on the whole graph of B.
struct ForwardCounts {
  std::vector<std::uint64_t> histogram;    // partitions per distance to their cycle
  std::uint64_t garden_of_eden = 0;        // ranks no partition moves to
  std::vector<std::uint64_t> cycle_ranks;  // sorted
};

// Bytes per partition the forward engine holds at its peak (successors and two jump arrays of
// 32-bit ranks, then the depths).
inline constexpr int forward_bytes_per_partition = 14;

// Throws UsageError when n is beyond 32-bit ranks or the arrays would not fit in `memory`.
void check_forward_size(int n, std::uint64_t memory, const char* where);

// CPU twin of the GPU forward engine, the same steps: successor of every rank; pointer doubling
// until every jump lands on a cycle; in-degrees; depths by level-synchronous passes.
ForwardCounts forward_cpu(const PartitionTable& table, int threads);

}  // namespace piles::bulgarian
