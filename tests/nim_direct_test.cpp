#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "host/common/error.hpp"
#include "host/nim/count.hpp"
#include "host/nim/direct.hpp"
#include "host/nim/grundy.hpp"

using piles::nim::solve_directly;

// The Sprague-Grundy shortcut (a position is worth the xor of its piles' values) against a
// search of the whole game, for every n <= 12 and k <= n: position by position, and in the
// counts of winning positions.
TEST(NimDirect, ShortcutEqualsDirectSearch) {
  for (int n = 1; n <= 12; ++n) {
    for (std::int64_t k = 2; k <= std::max(n, 2); ++k) {
      const piles::nim::DirectSolution solved = solve_directly(n, k);
      const std::vector<std::uint32_t> g = piles::nim::grundy_values(k, n);
      std::vector<piles::partition::part_t> parts(n);
      for (std::uint64_t r = 0; r < solved.values.size(); ++r) {
        const int len = piles::partition::unrank(solved.table.view(), r, parts.data());
        std::uint32_t x = 0;
        for (int i = 0; i < len; ++i) x ^= g[parts[i] - 1];
        EXPECT_EQ(solved.values[r], x) << "n " << n << " k " << k << " rank " << r;
      }
      EXPECT_EQ(solved.values.back(), g[n - 1]) << "single pile, n " << n << " k " << k;
      EXPECT_EQ(piles::nim::winning_counts(n, k)[n], solved.winning()) << "n " << n << " k " << k;
    }
  }
}

// Seed 004's g(10) = 291, with every k searched separately.
TEST(NimDirect, SeedValuesBySearch) {
  EXPECT_EQ(solve_directly(5, 2).winning(), 3u);
  EXPECT_EQ(solve_directly(5, 3).winning(), 5u);
  std::uint64_t g10 = 0;
  for (int k = 2; k <= 10; ++k) g10 += solve_directly(10, k).winning();
  EXPECT_EQ(g10, 291u);
}

TEST(NimDirect, RejectsBadArguments) {
  EXPECT_THROW(solve_directly(0, 2), piles::UsageError);
  EXPECT_THROW(solve_directly(piles::nim::max_direct_n + 1, 2), piles::UsageError);
  EXPECT_THROW(solve_directly(5, 1), piles::UsageError);
}
