#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "core/partition.hpp"
#include "host/common/error.hpp"
#include "host/common/partition_table.hpp"

using piles::PartitionTable;
using piles::partition::part_t;

namespace {

// Every partition of n, non-increasing parts, in lexicographic order (smaller first part
// first), by plain recursion: independent of the rank tables.
std::vector<std::vector<part_t>> brute_force_partitions(int n) {
  std::vector<std::vector<part_t>> all;
  std::vector<part_t> cur;
  std::function<void(int, int)> rec = [&](int rest, int cap) {
    if (rest == 0) {
      all.push_back(cur);
      return;
    }
    for (int v = 1; v <= std::min(rest, cap); ++v) {
      cur.push_back(static_cast<part_t>(v));
      rec(rest - v, v);
      cur.pop_back();
    }
  };
  rec(n, n);
  return all;
}

// p(n) by Euler's pentagonal number recurrence, a route independent of P[x][m].
std::vector<unsigned __int128> pentagonal_counts(int n) {
  std::vector<__int128> p(n + 1, 0);
  p[0] = 1;
  for (int m = 1; m <= n; ++m)
    for (int j = 1;; ++j) {
      const int g1 = j * (3 * j - 1) / 2, g2 = j * (3 * j + 1) / 2;
      if (g1 > m) break;
      const int sign = (j % 2) ? 1 : -1;
      p[m] += sign * p[m - g1];
      if (g2 <= m) p[m] += sign * p[m - g2];
    }
  return {p.begin(), p.end()};
}

}  // namespace

TEST(Partition, KnownCounts) {
  const std::vector<std::uint64_t> small = {1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42};
  for (int n = 0; n <= 10; ++n) EXPECT_EQ(piles::partition_count(n), small[n]) << n;
  EXPECT_EQ(piles::partition_count(100), 190'569'292u);
  EXPECT_EQ(piles::partition_count(200), 3'972'999'029'388u);
}

TEST(Partition, CountsMatchPentagonalRecurrenceUpToMax) {
  const auto expected = pentagonal_counts(piles::partition::max_n);
  const PartitionTable table(piles::partition::max_n);
  for (int n = 0; n <= piles::partition::max_n; ++n)
    ASSERT_EQ(table.view().at(n, n), static_cast<std::uint64_t>(expected[n])) << n;
  // One more would overflow 64 bits, which is why max_n is where it is.
  EXPECT_GT(pentagonal_counts(piles::partition::max_n + 1).back(),
            static_cast<unsigned __int128>(UINT64_MAX));
}

TEST(Partition, RankIsBijectionAgainstBruteForce) {
  for (int n = 1; n <= 30; ++n) {
    const PartitionTable table(n);
    const auto all = brute_force_partitions(n);
    ASSERT_EQ(all.size(), table.count()) << n;
    std::vector<part_t> parts(n);
    for (std::uint64_t r = 0; r < all.size(); ++r) {
      ASSERT_EQ(piles::partition::rank(table.view(), all[r].data(), all[r].size()), r);
      const int len = piles::partition::unrank(table.view(), r, parts.data());
      ASSERT_EQ(std::vector<part_t>(parts.begin(), parts.begin() + len), all[r]);
    }
  }
}

TEST(Partition, RoundTripAtLargestSize) {
  const PartitionTable table(piles::partition::max_n);
  std::vector<part_t> parts(piles::partition::max_n);
  const std::uint64_t count = table.count();
  for (std::uint64_t r :
       {std::uint64_t{0}, std::uint64_t{1}, count / 3, count / 2, count - 2, count - 1}) {
    const int len = piles::partition::unrank(table.view(), r, parts.data());
    int sum = 0;
    for (int i = 0; i < len; ++i) {
      sum += parts[i];
      if (i) ASSERT_LE(parts[i], parts[i - 1]);
    }
    EXPECT_EQ(sum, piles::partition::max_n);
    EXPECT_EQ(piles::partition::rank(table.view(), parts.data(), len), r);
  }
}

TEST(Partition, TableRefusesSizesPast64Bits) {
  EXPECT_THROW(PartitionTable(piles::partition::max_n + 1), piles::UsageError);
  EXPECT_THROW(PartitionTable(-1), piles::UsageError);
}
