#pragma once

#include <cstdint>
#include <vector>

#include "core/partition.hpp"

namespace piles {

// Owns the table P[x][m] (partitions of x with parts <= m) for x, m <= n; hands out the
// non-owning view the core functions (and kernels) read.
class PartitionTable {
 public:
  explicit PartitionTable(int n);

  int n() const { return n_; }
  std::uint64_t count() const { return view().count(); }
  partition::CountView view() const { return {data_.data(), n_}; }

 private:
  int n_;
  std::vector<std::uint64_t> data_;
};

// p(n), exact for n <= partition::max_n.
std::uint64_t partition_count(int n);

}  // namespace piles
