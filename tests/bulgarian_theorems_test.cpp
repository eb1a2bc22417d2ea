// Values from outside the code: Brandt's theorem on the cycles, the transient of the triangle
// (Igusa, Etienne), the Garden-of-Eden count (Hopkins and Sellers) and the Griggs-Ho formula
// where Griggs and Ho checked it by computer (n <= 36).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/common/partition_table.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

using piles::testing::cpu;

std::uint64_t binomial(int n, int k) {
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

// Binary necklaces of length m with r ones: (1/m) Σ_{d | gcd(m, r)} φ(d) C(m/d, r/d).
std::uint64_t necklaces(int m, int r) {
  const auto phi = [](int d) {
    int count = 0;
    for (int i = 1; i <= d; ++i) count += std::gcd(i, d) == 1;
    return count;
  };
  std::uint64_t sum = 0;
  for (int d = 1; d <= m; ++d)
    if (m % d == 0 && r % d == 0) sum += phi(d) * binomial(m / d, r / d);
  return sum / m;
}

// Brandt: with n = T_k + r, the cycle partitions are (k+e_0, ..., 1+e_{k-1}, e_k) over the
// 0/1 vectors e with r ones, and the cycle of e has e's primitive rotation period as length.
struct BrandtCycles {
  std::set<std::vector<int>> partitions;
  std::map<int, std::uint64_t> lengths;
};

BrandtCycles brandt(int n) {
  int k = 0;
  while ((k + 1) * (k + 2) / 2 <= n) ++k;
  const int r = n - k * (k + 1) / 2;
  BrandtCycles b;
  std::map<int, std::uint64_t> vectors_by_period;
  for (unsigned e = 0; e < (1u << (k + 1)); ++e) {
    if (std::popcount(e) != r) continue;
    std::vector<int> parts;
    for (int i = 0; i <= k; ++i)
      if (k - i + static_cast<int>(e >> i & 1) > 0) parts.push_back(k - i + (e >> i & 1));
    b.partitions.insert(parts);
    const auto rotate = [&](unsigned x, int s) {
      return ((x >> s) | (x << (k + 1 - s))) & ((1u << (k + 1)) - 1);
    };
    int period = 1;
    while (rotate(e, period) != e) ++period;
    ++vectors_by_period[period];
  }
  for (const auto& [period, count] : vectors_by_period) b.lengths[period] = count / period;
  return b;
}

std::set<std::vector<int>> unranked(int n, const std::vector<std::uint64_t>& ranks) {
  const PartitionTable table(n);
  std::set<std::vector<int>> out;
  std::vector<part_t> parts(n + 1);
  for (const auto r : ranks) {
    const int len = partition::unrank(table.view(), r, parts.data());
    out.insert(std::vector<int>(parts.begin(), parts.begin() + len));
  }
  return out;
}

TEST(BulgarianTheorems, BrandtCyclesAndNecklaceCountUpTo60) {
  for (int n = 1; n <= 60; ++n) {
    SCOPED_TRACE(n);
    const Analysis a = analyze(n, Engine::forward, cpu());
    const BrandtCycles b = brandt(n);
    EXPECT_EQ(unranked(n, a.cycle_ranks), b.partitions);
    EXPECT_EQ(a.cycle_lengths, b.lengths);
    int k = 0;
    while ((k + 1) * (k + 2) / 2 <= n) ++k;
    EXPECT_EQ(a.cycles, necklaces(k + 1, n - k * (k + 1) / 2));
  }
}

TEST(BulgarianTheorems, NecklaceCountsMatchOeisA037306) {
  // Row m = 6 of A037306 (necklaces of 6 beads, r black): 1, 1, 3, 4, 3, 1, 1.
  const std::vector<std::uint64_t> row6 = {1, 1, 3, 4, 3, 1, 1};
  for (int r = 0; r <= 6; ++r) EXPECT_EQ(necklaces(6, r), row6[r]);
}

TEST(BulgarianTheorems, TriangleTransientIsKSquaredMinusK) {
  for (int k = 1; k <= 13; ++k) {
    const int n = k * (k + 1) / 2;
    SCOPED_TRACE(n);
    const Analysis a = analyze(n, Engine::backward, cpu());
    EXPECT_EQ(a.max_transient(), k * k - k);
    EXPECT_EQ(a.cycles, 1u);
  }
}

TEST(BulgarianTheorems, GardenOfEdenIsHopkinsSellers) {
  for (int n = 1; n <= 80; ++n) {
    SCOPED_TRACE(n);
    std::int64_t expected = 0;
    for (int j = 1; 3 * j * (j + 1) / 2 <= n; ++j)
      expected +=
          (j % 2 ? 1 : -1) * static_cast<std::int64_t>(partition_count(n - 3 * j * (j + 1) / 2));
    const Analysis a = analyze(n, Engine::backward, cpu());
    EXPECT_EQ(a.garden_of_eden, static_cast<std::uint64_t>(expected));
    EXPECT_EQ(hopkins_sellers(n), a.garden_of_eden);
    if (n <= 50) EXPECT_EQ(analyze(n, Engine::forward, cpu()).garden_of_eden, a.garden_of_eden);
  }
}

TEST(BulgarianTheorems, GriggsHoHoldsWhereTheyCheckedIt) {
  for (int n = 3; n <= 36; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(analyze(n, Engine::backward, cpu()).max_transient(), griggs_ho(n));
  }
}

TEST(BulgarianTheorems, GriggsHoFormulaOnSmallValues) {
  // D(T_k) = k^2 - k is the formula's last branch; n = 4, 5, 7, 8 by hand from seed 000.
  EXPECT_EQ(griggs_ho(6), 6);
  EXPECT_EQ(griggs_ho(10), 12);
  EXPECT_EQ(griggs_ho(15), 20);
  EXPECT_EQ(griggs_ho(4), 2);
  EXPECT_EQ(griggs_ho(7), 4);
}

}  // namespace
}  // namespace piles::bulgarian
