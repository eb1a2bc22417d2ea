#include "host/common/partition_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "host/common/error.hpp"

namespace piles {

PartitionTable::PartitionTable(int n) : n_(n) {
  if (n < 0 || n > partition::max_n)
    throw UsageError(fmt::format("n = {} is out of range (0..{})", n, partition::max_n));
  data_.resize(partition::CountView::row_start(n + 1));
  auto at = [&](int x, int m) -> std::uint64_t& {
    return data_[partition::CountView::row_start(x) + m];
  };
  // P[x][m] = P[x][m-1] + P[x-m][min(m, x-m)]: either no part equals m, or remove one m.
  at(0, 0) = 1;
  for (int x = 1; x <= n; ++x) {
    at(x, 0) = 0;
    for (int m = 1; m <= x; ++m) at(x, m) = at(x, m - 1) + at(x - m, std::min(m, x - m));
  }
}

std::uint64_t partition_count(int n) {
  return PartitionTable(n).count();
}

}  // namespace piles
