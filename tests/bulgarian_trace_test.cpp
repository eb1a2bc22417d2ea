#include <gtest/gtest.h>

#include "core/bulgarian.hpp"
#include "host/bulgarian/trace.hpp"
#include "tests/support/run_piles.hpp"

using piles::partition::part_t;
using piles::testing::run_piles;
using Parts = std::vector<std::vector<int>>;

TEST(BulgarianMove, MatchesSeedTable) {
  // Consecutive rows of seed 001, Table 1.
  const std::vector<std::pair<std::vector<part_t>, std::vector<part_t>>> steps = {
      {{4, 1, 1}, {3, 3}},       {{3, 3}, {2, 2, 2}},
      {{2, 2, 2}, {3, 1, 1, 1}}, {{3, 1, 1, 1}, {4, 2}},
      {{4, 2}, {3, 2, 1}},       {{3, 2, 1}, {3, 2, 1}},
      {{8, 4, 3}, {7, 3, 3, 2}}, {{5, 2, 2}, {4, 3, 1, 1}},
      {{7, 5, 2}, {6, 4, 3, 1}}, {{5, 4, 3, 2}, {4, 4, 3, 2, 1}}};
  for (const auto& [from, to] : steps) {
    std::vector<part_t> out(from.size() + 1);
    out.resize(piles::bulgarian::move(from.data(), from.size(), out.data()));
    EXPECT_EQ(out, to);
  }
}

// Seed 001, Table 1: the four worked starts, column by column.
TEST(BulgarianTrace, SeedTableTriangular6) {
  const auto t = piles::bulgarian::trace({4, 1, 1});
  EXPECT_EQ(t.partitions, (Parts{{4, 1, 1}, {3, 3}, {2, 2, 2}, {3, 1, 1, 1}, {4, 2}, {3, 2, 1}}));
  EXPECT_EQ(t.transient, 5);
  EXPECT_EQ(t.cycle_length, 1);
}

TEST(BulgarianTrace, SeedTableTriangular15) {
  const auto t = piles::bulgarian::trace({8, 4, 3});
  const Parts expected = {{8, 4, 3},       {7, 3, 3, 2},       {6, 4, 2, 2, 1}, {5, 5, 3, 1, 1},
                          {5, 4, 4, 2},    {4, 4, 3, 3, 1},    {5, 3, 3, 2, 2}, {5, 4, 2, 2, 1, 1},
                          {6, 4, 3, 1, 1}, {5, 5, 3, 2},       {4, 4, 4, 2, 1}, {5, 3, 3, 3, 1},
                          {5, 4, 2, 2, 2}, {5, 4, 3, 1, 1, 1}, {6, 4, 3, 2},    {5, 4, 3, 2, 1}};
  EXPECT_EQ(t.partitions, expected);
  EXPECT_EQ(t.transient, 15);
  EXPECT_EQ(t.cycle_length, 1);
}

TEST(BulgarianTrace, SeedTableNonTriangular9) {
  const auto t = piles::bulgarian::trace({5, 2, 2});
  EXPECT_EQ(t.partitions,
            (Parts{{5, 2, 2}, {4, 3, 1, 1}, {4, 3, 2}, {3, 3, 2, 1}, {4, 2, 2, 1}, {4, 3, 1, 1}}));
  EXPECT_EQ(t.transient, 1);
  EXPECT_EQ(t.cycle_length, 4);
}

TEST(BulgarianTrace, SeedTableNonTriangular14) {
  const auto t = piles::bulgarian::trace({7, 5, 2});
  const Parts expected = {{7, 5, 2},       {6, 4, 3, 1},    {5, 4, 3, 2},    {4, 4, 3, 2, 1},
                          {5, 3, 3, 2, 1}, {5, 4, 2, 2, 1}, {5, 4, 3, 1, 1}, {5, 4, 3, 2}};
  EXPECT_EQ(t.partitions, expected);
  EXPECT_EQ(t.transient, 2);
  EXPECT_EQ(t.cycle_length, 5);
}

TEST(BulgarianTrace, PartsInAnyOrderAreSorted) {
  EXPECT_EQ(piles::bulgarian::parse_partition("2,5,2"), (std::vector<int>{5, 2, 2}));
}

TEST(BulgarianTrace, JsonThroughBinary) {
  const auto r = run_piles("bulgarian trace 5,2,2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["start"], nlohmann::json({5, 2, 2}));
  EXPECT_EQ(j["transient"], 1);
  EXPECT_EQ(j["cycle_length"], 4);
  EXPECT_EQ(j["trace"].size(), 6u);
}

TEST(BulgarianTrace, BadPartitionsExitTwoNamingTheValue) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0,2", "'0'"},
      {"3,-1", "-1"},
      {"3,,1", "empty entry"},
      {"''", "empty list"},
      {"a", "'a'"},
      {"400,20", "420 cards"},
      {"1,2,99999999999999999999", "99999999999999999999"},
  };
  for (const auto& [partition, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles("bulgarian trace " + partition), message))
        << partition;
}
