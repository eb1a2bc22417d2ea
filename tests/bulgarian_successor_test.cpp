#include <gtest/gtest.h>

#include <map>

#include "host/bulgarian/successor.hpp"
#include "host/bulgarian/trace.hpp"

// The CPU twin of the successor kernel against the plain move on explicit partitions.
TEST(BulgarianSuccessor, CpuTwinAgreesWithTrace) {
  for (int n : {1, 5, 9, 15, 20}) {
    const piles::PartitionTable table(n);
    const auto succ = piles::bulgarian::successors_cpu(table, 0, table.count(), 2);
    std::vector<piles::partition::part_t> parts(n);
    for (std::uint64_t r = 0; r < table.count(); ++r) {
      const int len = piles::partition::unrank(table.view(), r, parts.data());
      const auto t = piles::bulgarian::trace(std::vector<int>(parts.begin(), parts.begin() + len));
      const auto& next = t.partitions.size() > 1 ? t.partitions[1] : t.partitions[0];
      std::vector<piles::partition::part_t> next_parts(next.begin(), next.end());
      EXPECT_EQ(succ[r],
                piles::partition::rank(table.view(), next_parts.data(), next_parts.size()));
    }
  }
}
