#pragma once

#include <cstdint>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/common/partition_table.hpp"
#include "kernels/bulgarian_forward.hpp"

namespace piles::bulgarian {

// Bytes per partition the forward engine holds at its peak: successors and two jump arrays of
// ranks during the doubling, with room for the depths' pass (32-bit ranks to n = 127, 64-bit
// beyond).
constexpr int forward_bytes_per_partition(int n) {
  return n <= forward_max_n ? 14 : 26;
}

// Throws UsageError, with the memory it would need, when n is beyond the forward engine or its
// arrays would not fit in `memory`.
void check_forward_size(int n, std::uint64_t memory, const char* where);

// Depths by level-synchronous passes: on entry depth is 0 on the cycles and unknown_depth
// elsewhere; whoever moves onto level d-1 is at level d. Appends each level's count, from level
// 1 on, to `histogram`.
template <class Rank>
void level_passes(const std::vector<Rank>& succ, std::vector<std::uint16_t>& depth, int threads,
                  std::vector<std::uint64_t>& histogram);

// CPU twin of the GPU forward engine, the same steps: successor of every rank; pointer doubling
// until every jump lands on a cycle; in-degrees; depths by level-synchronous passes. Ranks of
// the given width (tests run 64-bit ranks where 32 bits would do).
template <class Rank>
ForwardCounts forward_cpu_ranks(const PartitionTable& table, int threads);

// The same with the narrowest ranks that hold p(n).
ForwardCounts forward_cpu(const PartitionTable& table, int threads);

}  // namespace piles::bulgarian
