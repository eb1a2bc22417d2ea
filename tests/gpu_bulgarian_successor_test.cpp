#include <gtest/gtest.h>

#include "host/bulgarian/successor.hpp"
#include "kernels/bulgarian_successor.hpp"
#include "tests/support/gpu.hpp"

// The successor kernel and its CPU twin must agree on every partition.
TEST(GpuBulgarianSuccessor, MatchesCpuTwin) {
  PILES_NEED_GPU();
  for (int n : {1, 2, 10, 30, 60}) {
    const piles::PartitionTable table(n);
    EXPECT_EQ(piles::gpu::bulgarian_successors(table.view(), 0, table.count()),
              piles::bulgarian::successors_cpu(table, 0, table.count(), 2))
        << n;
  }
}

TEST(GpuBulgarianSuccessor, MatchesCpuTwinOnSlicesOfALargeSize) {
  PILES_NEED_GPU();
  const piles::PartitionTable table(300);
  const std::uint64_t count = 1 << 20;
  for (std::uint64_t first : {std::uint64_t{0}, table.count() / 2, table.count() - count})
    EXPECT_EQ(piles::gpu::bulgarian_successors(table.view(), first, count),
              piles::bulgarian::successors_cpu(table, first, count, 2))
        << first;
}
