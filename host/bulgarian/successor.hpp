#pragma once

#include <cstdint>
#include <vector>

#include "host/common/partition_table.hpp"

namespace piles::bulgarian {

// CPU twin of the GPU successor kernel: rank of B(λ) for ranks [first, first + count).
std::vector<std::uint64_t> successors_cpu(const PartitionTable& table, std::uint64_t first,
                                          std::uint64_t count, int threads);

}  // namespace piles::bulgarian
