#pragma once

#include <cstdint>
#include <vector>

#include "host/common/partition_table.hpp"

namespace piles::nim {

// Largest n the direct search accepts (p(40) = 37,338 positions).
inline constexpr int max_direct_n = 40;

// The whole game with n stones searched without the Sprague-Grundy shortcut: every position
// (a partition of n, indexed by its lexicographic rank), every move, and the value of each
// position as the mex of the values of the positions it moves to.
struct DirectSolution {
  PartitionTable table;               // rank <-> partition
  std::vector<std::uint32_t> values;  // values[rank]; 0 means the player to move loses

  std::uint64_t winning() const;  // f(n, k): positions the player to move wins
};

// Needs 1 <= n <= max_direct_n and k >= 2.
DirectSolution solve_directly(int n, std::int64_t k);

}  // namespace piles::nim
