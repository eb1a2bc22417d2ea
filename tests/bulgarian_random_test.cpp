// The stochastic game: reproducible by seed whatever the thread count, p = 1 is the plain
// game, and the counter-based draws give a pile's card with frequency p.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "core/bulgarian.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/common/error.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

using piles::testing::cpu;

RandomSpec spec(int n, double p, std::uint64_t runs, std::uint64_t steps, std::uint64_t seed) {
  RandomSpec s;
  s.start = {n};
  s.p = p;
  s.runs = runs;
  s.steps = steps;
  s.seed = seed;
  return s;
}

TEST(BulgarianRandom, SameSeedSameResultOnAnyThreadCount) {
  const RandomSpec s = spec(21, 0.4, 3000, 150, 77);
  const RandomResult one = run_random(s, cpu(1));
  const RandomResult two = run_random(s, cpu(2));
  const RandomResult three = run_random(s, cpu(3));
  EXPECT_EQ(one.shape_sums, two.shape_sums);
  EXPECT_EQ(one.shape_sums, three.shape_sums);
  EXPECT_EQ(one.pile_sum, two.pile_sum);
  EXPECT_NE(one.shape_sums, run_random(spec(21, 0.4, 3000, 150, 78), cpu(2)).shape_sums);
}

TEST(BulgarianRandom, CardsAreConserved) {
  const RandomResult r = run_random(spec(30, 0.3, 500, 90, 5), cpu(2));
  EXPECT_EQ(std::accumulate(r.shape_sums.begin(), r.shape_sums.end(), std::uint64_t{0}),
            30u * 500u);
}

TEST(BulgarianRandom, ProbabilityOneIsThePlainGame) {
  for (const std::vector<int>& start : {std::vector<int>{8, 4, 3}, {7, 5, 2}, {13}}) {
    RandomSpec s = spec(0, 1.0, 4, 9, 3);
    s.start = start;
    const RandomResult r = run_random(s, cpu(2));
    // Every chain makes the same 9 plain moves.
    std::vector<int> cur = start;
    for (int i = 0; i < 9; ++i) {
      std::vector<int> next = {static_cast<int>(cur.size())};
      for (int v : cur)
        if (v > 1) next.push_back(v - 1);
      std::sort(next.begin(), next.end(), std::greater<>());
      cur = next;
    }
    std::vector<double> expected(cur.begin(), cur.end());
    EXPECT_EQ(r.mean_shape(), expected);
  }
}

TEST(BulgarianRandom, DrawsGiveACardWithFrequencyP) {
  for (const double p : {0.1, 0.5, 0.9}) {
    const std::uint64_t threshold = probability_threshold(p);
    std::uint64_t hits = 0;
    constexpr int draws = 400000;
    for (int i = 0; i < draws; ++i)
      hits += (counter_random(chain_key(11, i / 40), i % 40 / 8, i % 8) >> 11) < threshold;
    EXPECT_NEAR(static_cast<double>(hits) / draws, p, 0.005);
  }
}

TEST(BulgarianRandom, BadSpecsAreUsageErrors) {
  EXPECT_THROW(run_random(spec(10, 0.0, 10, 10, 1), cpu(1)), UsageError);
  EXPECT_THROW(run_random(spec(10, 1.5, 10, 10, 1), cpu(1)), UsageError);
  EXPECT_THROW(run_random(spec(10, 0.5, 0, 10, 1), cpu(1)), UsageError);
}

}  // namespace
}  // namespace piles::bulgarian
