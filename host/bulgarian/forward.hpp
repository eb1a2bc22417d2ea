#pragma once

#include <cstdint>
#include <vector>

#include "host/common/partition_table.hpp"
#include "kernels/bulgarian_forward.hpp"

namespace piles::bulgarian {

// Bytes per partition the forward engine holds at its peak (successors and two jump arrays of
// 32-bit ranks, then the depths).
inline constexpr int forward_bytes_per_partition = 14;

// Throws UsageError when n is beyond 32-bit ranks or the arrays would not fit in `memory`.
void check_forward_size(int n, std::uint64_t memory, const char* where);

// Depths by level-synchronous passes: on entry depth is 0 on the cycles and unknown_depth
// elsewhere; whoever moves onto level d-1 is at level d. Appends each level's count, from level
// 1 on, to `histogram`.
void level_passes(const std::vector<std::uint32_t>& succ, std::vector<std::uint16_t>& depth,
                  int threads, std::vector<std::uint64_t>& histogram);

// CPU twin of the GPU forward engine, the same steps: successor of every rank; pointer doubling
// until every jump lands on a cycle; in-degrees; depths by level-synchronous passes.
ForwardCounts forward_cpu(const PartitionTable& table, int threads);

}  // namespace piles::bulgarian
