#include <gtest/gtest.h>

#include "host/common/error.hpp"
#include "host/topswops/play.hpp"
#include "tests/support/run_piles.hpp"

using piles::testing::run_piles;

TEST(TopswopsPlay, SeedExampleTakesSevenSteps) {
  // Seed 002 / DESIGN.md section 5: 3,1,4,5,2 is one of the maximal decks for n = 5.
  const auto game = piles::topswops::play({3, 1, 4, 5, 2});
  EXPECT_EQ(game.steps, 7);
  const std::vector<std::vector<int>> expected = {{3, 1, 4, 5, 2}, {4, 1, 3, 5, 2}, {5, 3, 1, 4, 2},
                                                  {2, 4, 1, 3, 5}, {4, 2, 1, 3, 5}, {3, 1, 2, 4, 5},
                                                  {2, 1, 3, 4, 5}, {1, 2, 3, 4, 5}};
  EXPECT_EQ(game.trace, expected);
  EXPECT_TRUE(game.ends_sorted);
}

TEST(TopswopsPlay, GameCanEndUnsorted) {
  const auto game = piles::topswops::play({2, 1, 4, 3});
  EXPECT_EQ(game.steps, 1);
  EXPECT_EQ(game.trace.back(), (std::vector<int>{1, 2, 4, 3}));
  EXPECT_FALSE(game.ends_sorted);
}

TEST(TopswopsPlay, JsonThroughBinary) {
  const auto r = run_piles("topswops play 3,1,4,5,2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["steps"], 7);
  EXPECT_EQ(j["deck"], nlohmann::json({3, 1, 4, 5, 2}));
  EXPECT_EQ(j["final"], nlohmann::json({1, 2, 3, 4, 5}));
  EXPECT_EQ(j["trace"].size(), 8u);
}

TEST(TopswopsPlay, HumanOutputShowsEveryDeck) {
  const auto r = run_piles("topswops play 3,1,4,5,2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("steps  7"), std::string::npos);
  EXPECT_NE(r.out.find("2,4,1,3,5"), std::string::npos);
}

TEST(TopswopsPlay, BadDecksExitTwoNamingTheValue) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"3,1,1", "appears twice"},
      {"1,2,4", "card 4"},
      {"0,1", "'0'"},
      {"1,-2", "-2"},
      {"1,2,99999999999999999999", "99999999999999999999"},
      {"1,x", "'x'"},
      {"1,,2", "empty entry"},
      {"''", "empty list"},
  };
  for (const auto& [deck, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles("topswops play " + deck), message))
        << deck;
}
