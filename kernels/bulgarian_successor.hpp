#pragma once

#include <cstdint>
#include <vector>

#include "core/partition.hpp"

namespace piles::gpu {

// Rank of B(λ) for every partition λ of n with rank in [first, first + count), on the GPU:
// one thread per partition unranks, moves and ranks. `table` is the host copy of the counts.
std::vector<std::uint64_t> bulgarian_successors(partition::CountView table, std::uint64_t first,
                                                std::uint64_t count);

}  // namespace piles::gpu
