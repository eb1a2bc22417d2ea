#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/nim.hpp"
#include "host/common/error.hpp"
#include "host/nim/count.hpp"
#include "host/nim/grundy.hpp"

using piles::nim::partition_numbers;
using piles::nim::winning_counts;
using piles::nim::winning_counts_all_k;

// Seed 004: f(5, 2) = 3, f(5, 3) = 5, g(7) = 66, g(10) = 291.
TEST(NimCount, SeedValues) {
  EXPECT_EQ(winning_counts(5, 2)[5], 3);
  EXPECT_EQ(winning_counts(5, 3)[5], 5);
  EXPECT_EQ(winning_counts_all_k(7)[7], 66);
  EXPECT_EQ(winning_counts_all_k(10)[10], 291);
}

// Project Euler 629 asks for g(200) mod 1,000,000,007; its accepted answer is 626616617.
TEST(NimCount, ProjectEuler629) {
  const mpz_class g = winning_counts_all_k(200)[200];
  EXPECT_EQ(mpz_class(g % 1'000'000'007), 626616617);
}

// OEIS A000041: p(200) and p(1000).
TEST(NimCount, PartitionNumbers) {
  const std::vector<mpz_class> p = partition_numbers(1000);
  EXPECT_EQ(p[10], 42);
  EXPECT_EQ(p[200], mpz_class("3972999029388"));
  EXPECT_EQ(p[1000], mpz_class("24061467864032622473692149727991"));
}

// Every partition of n listed one by one, its value the xor of the mex-definition values.
TEST(NimCount, MatchesEnumerationOfEveryPartition) {
  constexpr int n_max = 22;
  for (std::int64_t k : {2, 3, 4, 7}) {
    const std::vector<std::uint32_t> g = piles::nim::grundy_by_definition(k, n_max);
    const std::vector<mpz_class> counts = winning_counts(n_max, k);
    for (int n = 1; n <= n_max; ++n) {
      std::uint64_t winning = 0;
      std::vector<int> parts(n);
      piles::nim::each_split(n, n, n, parts.data(), 0, [&](const int* partition, int len) {
        std::uint32_t x = 0;
        for (int j = 0; j < len; ++j) x ^= g[partition[j] - 1];
        winning += x != 0;
      });
      EXPECT_EQ(counts[n], winning) << "n " << n << " k " << k;
    }
  }
}

// Beyond 64 bits (p(416) < 2^64 < p(430)) the counts are rebuilt from several primes; a plain
// big-integer DP over (sum, xor) must agree.
TEST(NimCount, ExactBeyondSixtyFourBits) {
  constexpr int n = 430;
  const std::vector<std::uint32_t> g = piles::nim::grundy_values(3, n);
  const std::size_t width = std::bit_ceil(*std::max_element(g.begin(), g.end()) + 1);
  std::vector<std::vector<mpz_class>> ways(n + 1, std::vector<mpz_class>(width, 0));
  ways[0][0] = 1;
  for (int part = 1; part <= n; ++part)
    for (int s = part; s <= n; ++s)
      for (std::size_t x = 0; x < width; ++x) ways[s][x] += ways[s - part][x ^ g[part - 1]];
  mpz_class winning = 0;
  for (std::size_t x = 1; x < width; ++x) winning += ways[n][x];
  EXPECT_GT(winning, mpz_class("18446744073709551616"));
  EXPECT_EQ(winning_counts(n, 3)[n], winning);
}

TEST(NimCount, AllKIsTheSumOverK) {
  constexpr int n = 40;
  const std::vector<mpz_class> g = winning_counts_all_k(n);
  for (int s = 1; s <= n; ++s) {
    mpz_class sum = 0;
    for (int k = 2; k <= s; ++k) sum += winning_counts(s, k)[s];
    EXPECT_EQ(g[s], sum) << s;
  }
}

TEST(NimCount, ThreadCountDoesNotMatter) {
  EXPECT_EQ(winning_counts_all_k(450, 1), winning_counts_all_k(450, 2));
}

TEST(NimCount, RejectsBadArguments) {
  EXPECT_THROW(winning_counts(0, 3), piles::UsageError);
  EXPECT_THROW(winning_counts(5, 1), piles::UsageError);
  EXPECT_THROW(winning_counts_all_k(piles::nim::max_count_n + 1), piles::UsageError);
}
