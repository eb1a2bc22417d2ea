// Growing a game on n - 1 cards to n cards (host/topswops/lift.hpp), checked against brute force
// over every deck of 7 and 8 cards, and against the published longest games it is used on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "host/topswops/lift.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"

namespace ts = piles::topswops;

namespace {

constexpr std::uint64_t unlimited = ~std::uint64_t{0};

ts::LiftedGame lift(const std::vector<int>& trunk, std::uint64_t budget = unlimited) {
  return ts::lift_game(trunk, budget, [] { return false; });
}

}  // namespace

TEST(TopswopsLift, ThePublishedDecksReachTheLongestGames) {
  for (int n = ts::published::longest_decks_from;
       n <
       ts::published::longest_decks_from + static_cast<int>(ts::published::longest_decks.size());
       ++n) {
    const std::vector<std::vector<int>> decks = ts::published_longest_decks(n);
    EXPECT_EQ(static_cast<int>(decks.size()), ts::published::longest_count[n]) << n;
    EXPECT_EQ(std::set(decks.begin(), decks.end()).size(), decks.size()) << n;
    for (const auto& deck : decks) {
      ASSERT_EQ(static_cast<int>(deck.size()), n);
      EXPECT_EQ(ts::play(deck).steps, ts::published::longest[n]) << n;
    }
  }
}

// With no budget the lift looks at every deck of n - 1 cards whose game ends where the trunk's
// does; each such deck E, under card n flipped in, ends in that deck with n beneath. So its
// answer is the longest game on n cards ending there, counted over all n! decks.
TEST(TopswopsLift, GrowsTheLongestGameEndingWhereTheTrunkEnds) {
  for (const int n : {7, 8}) {
    std::vector<int> deck(n);
    std::iota(deck.begin(), deck.end(), 1);
    std::map<std::vector<int>, int> longest_to;  // final deck -> longest game reaching it
    do {
      const ts::Game game = ts::play(deck);
      int& best = longest_to[game.trace.back()];
      best = std::max(best, game.steps);
    } while (std::next_permutation(deck.begin(), deck.end()));

    std::mt19937 random(n);
    std::vector<int> trunk(n - 1);
    std::iota(trunk.begin(), trunk.end(), 1);
    for (int i = 0; i < 40; ++i) {
      std::shuffle(trunk.begin(), trunk.end(), random);
      const ts::LiftedGame grown = lift(trunk);
      std::vector<int> end = ts::play(trunk).trace.back();
      end.push_back(n);
      ASSERT_EQ(static_cast<int>(grown.deck.size()), n);
      const ts::Game replay = ts::play(grown.deck);
      EXPECT_EQ(replay.steps, grown.steps);
      EXPECT_EQ(replay.trace.back(), end);
      EXPECT_EQ(grown.steps, longest_to.at(end)) << ::testing::PrintToString(trunk);
    }
  }
}

// Where it pays: f(16) from each of f(15)'s six decks, and f(18)'s single deck from the first of
// f(17)'s two, within the quick search's budget. (At 14, 15 and 17 cards it gives less than
// f(n): results/bench/quick_bound.md.)
TEST(TopswopsLift, GrowsFnMinusOnesDecksToFnAtSixteenAndEighteenCards) {
  for (const auto& trunk : ts::published_longest_decks(15)) {
    const ts::LiftedGame grown = lift(trunk, std::uint64_t{1} << 24);
    EXPECT_EQ(grown.steps, ts::published::longest[16]);
    EXPECT_EQ(ts::play(grown.deck).steps, grown.steps);
  }
  const ts::LiftedGame grown =
      lift(ts::published_longest_decks(17).front(), std::uint64_t{1} << 24);
  EXPECT_EQ(grown.steps, ts::published::longest[18]);
  EXPECT_EQ(grown.deck, ts::published_longest_decks(18).front());
}

TEST(TopswopsLift, ABudgetOrAStopEndsItWithARealGame) {
  const std::vector<int> trunk = ts::published_longest_decks(17).front();
  for (const std::uint64_t budget : {0, 1000, 100000}) {
    const ts::LiftedGame grown = lift(trunk, budget);
    EXPECT_GT(grown.steps, ts::published::longest[17]) << budget;
    EXPECT_EQ(ts::play(grown.deck).steps, grown.steps) << budget;
  }
  int asked = 0;
  const ts::LiftedGame stopped = ts::lift_game(trunk, unlimited, [&] { return ++asked == 2; });
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(ts::play(stopped.deck).steps, stopped.steps);
}
