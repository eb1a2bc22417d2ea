#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "host/common/error.hpp"
#include "host/nim/grundy.hpp"

using piles::nim::grundy_by_definition;
using piles::nim::grundy_three;
using piles::nim::grundy_values;

// Seed 004's theorem: with k = 2 a pile of i is worth (i + 1) mod 2.
TEST(NimGrundy, TwoFollowsParityRuleOfTheDefinition) {
  const std::vector<std::uint32_t> mex = grundy_by_definition(2, 200);
  const std::vector<std::uint32_t> rule = grundy_values(2, 200);
  ASSERT_EQ(rule.size(), 200u);
  for (int i = 1; i <= 200; ++i) {
    EXPECT_EQ(rule[i - 1], static_cast<std::uint32_t>((i + 1) % 2)) << i;
    EXPECT_EQ(mex[i - 1], rule[i - 1]) << i;
  }
}

// Seed 004's theorem: with k >= 4 a pile of i is worth i - 1, for every such k.
TEST(NimGrundy, FourAndMoreGiveIMinusOneByTheDefinition) {
  for (std::int64_t k : {4, 5, 6, 9, 30}) {
    const std::vector<std::uint32_t> mex = grundy_by_definition(k, 30);
    const std::vector<std::uint32_t> rule = grundy_values(k, 30);
    for (int i = 1; i <= 30; ++i) {
      EXPECT_EQ(mex[i - 1], static_cast<std::uint32_t>(i - 1)) << "k " << k << " i " << i;
      EXPECT_EQ(rule[i - 1], mex[i - 1]) << "k " << k << " i " << i;
    }
  }
  EXPECT_EQ(grundy_values(1'000'000'000'000'000'000, 5),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
}

// DESIGN.md section 8: the sequence G_3(1..18).
TEST(NimGrundy, ThreeStartsAsPublished) {
  EXPECT_EQ(grundy_values(3, 18),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 1, 4, 3, 2, 4, 5, 6, 7, 8, 9, 7, 6, 9, 8}));
}

// The batched search against the plain mex over every 2- and 3-way split, across many
// batches of 64 pile sizes (and the width of the value table doubling several times).
TEST(NimGrundy, ThreeMatchesTheDefinition) {
  EXPECT_EQ(grundy_three(2000), grundy_by_definition(3, 2000));
}

TEST(NimGrundy, ThreeIndependentOfThreadCount) {
  EXPECT_EQ(grundy_three(3000, 1), grundy_three(3000, 2));
}

TEST(NimGrundy, ThreeIsPrefixStable) {
  const std::vector<std::uint32_t> long_run = grundy_three(1000);
  for (int upto : {1, 2, 63, 64, 65, 127, 128, 129, 500}) {
    const std::vector<std::uint32_t> short_run = grundy_three(upto);
    EXPECT_TRUE(std::equal(short_run.begin(), short_run.end(), long_run.begin())) << upto;
  }
}

TEST(NimGrundy, RejectsBadArguments) {
  EXPECT_THROW(grundy_values(1, 10), piles::UsageError);
  EXPECT_THROW(grundy_values(3, 0), piles::UsageError);
  EXPECT_THROW(grundy_values(3, piles::nim::max_upto_k3 + 1), piles::UsageError);
  EXPECT_THROW(grundy_values(2, piles::nim::max_upto_closed_form + 1), piles::UsageError);
}
