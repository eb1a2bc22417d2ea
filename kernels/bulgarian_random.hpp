#pragma once

#include <cstdint>
#include <vector>

#include "core/partition.hpp"

namespace piles::gpu {

struct RandomSums {
  std::vector<std::uint64_t> shape;  // [i]: sum over chains of the i-th largest pile at the end
  std::uint64_t piles = 0;           // sum over chains of the number of piles at the end
};

// The stochastic game on the GPU, one chain per thread, in launches of a bounded number of
// moves: chain c starts from `start` and makes `steps` moves with bulgarian::stochastic_move.
// Sums are exact integers, so the result does not depend on the order chains finish in.
RandomSums bulgarian_random(const std::vector<partition::part_t>& start, std::uint64_t runs,
                            std::uint64_t steps, std::uint64_t threshold, std::uint64_t seed);

}  // namespace piles::gpu
