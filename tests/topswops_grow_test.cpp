// Growing a game on n - 1 cards to n cards (host/topswops/grow.hpp, `topswops grow`), checked
// against brute force over every deck of 7 and 8 cards, and against the published longest games
// it is used on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "host/topswops/grow.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "tests/support/run_piles.hpp"

namespace ts = piles::topswops;

namespace {

constexpr std::uint64_t unlimited = ~std::uint64_t{0};

ts::GrownGame grow(const std::vector<int>& trunk, std::uint64_t budget = unlimited) {
  return ts::grow_game(trunk, budget, [] { return false; });
}

}  // namespace

TEST(TopswopsGrow, ThePublishedDecksReachTheLongestGames) {
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

// With no budget growing looks at every deck of n - 1 cards whose game ends where the trunk's
// does; each such deck E, under card n flipped in, ends in that deck with n beneath. So its
// answer is the longest game on n cards ending there, counted over all n! decks.
TEST(TopswopsGrow, GrowsTheLongestGameEndingWhereTheTrunkEnds) {
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
      const ts::GrownGame grown = grow(trunk);
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
TEST(TopswopsGrow, GrowsFnMinusOnesDecksToFnAtSixteenAndEighteenCards) {
  for (const auto& trunk : ts::published_longest_decks(15)) {
    const ts::GrownGame grown = grow(trunk, std::uint64_t{1} << 24);
    EXPECT_EQ(grown.steps, ts::published::longest[16]);
    EXPECT_EQ(ts::play(grown.deck).steps, grown.steps);
  }
  const ts::GrownGame grown = grow(ts::published_longest_decks(17).front(), std::uint64_t{1} << 24);
  EXPECT_EQ(grown.steps, ts::published::longest[18]);
  EXPECT_EQ(grown.deck, ts::published_longest_decks(18).front());
}

TEST(TopswopsGrow, ABudgetOrAStopEndsItWithARealGame) {
  const std::vector<int> trunk = ts::published_longest_decks(17).front();
  for (const std::uint64_t budget : {0, 1000, 100000}) {
    const ts::GrownGame grown = grow(trunk, budget);
    EXPECT_GT(grown.steps, ts::published::longest[17]) << budget;
    EXPECT_EQ(ts::play(grown.deck).steps, grown.steps) << budget;
  }
  int asked = 0;
  const ts::GrownGame stopped = ts::grow_game(trunk, unlimited, [&] { return ++asked == 2; });
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(ts::play(stopped.deck).steps, stopped.steps);
}

// `topswops grow`: 3,1,4,5,2 ends sorted, so every 6-card game ending sorted is looked at, and
// the longest is a(6) = 10 (OEIS A000376); f(17)'s first deck gives f(18)'s deck within the
// default budget, which the answer says it used up.
TEST(TopswopsGrow, TheCommandSaysWhetherItLookedAtEveryDeck) {
  const auto all = piles::testing::run_piles("topswops grow 3,1,4,5,2 --json");
  ASSERT_EQ(all.status, 0) << all.err;
  const nlohmann::json j = all.json();
  EXPECT_EQ(j.at("steps"), ts::published::longest_sorted[6]);
  EXPECT_EQ(j.at("final"), nlohmann::json({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(j.at("grown_from"), nlohmann::json({3, 1, 4, 5, 2}));
  EXPECT_EQ(j.at("grown_from_steps"), 7);
  EXPECT_TRUE(j.at("complete"));
  EXPECT_EQ(ts::play(j.at("deck").get<std::vector<int>>()).steps, j.at("steps"));

  const auto f18 =
      piles::testing::run_piles("topswops grow 2,10,15,11,7,14,5,16,6,4,17,13,1,3,8,9,12 --quiet");
  ASSERT_EQ(f18.status, 0) << f18.err;
  EXPECT_NE(f18.out.find("deck   6,14,9,2,15,8,1,3,4,12,18,5,10,13,16,17,11,7\nsteps  191\n"),
            std::string::npos)
      << f18.out;
  EXPECT_NE(f18.out.find("16,777,216 decks looked at (the --budget): a longer game may end in"),
            std::string::npos)
      << f18.out;
}

TEST(TopswopsGrow, BadInputExitsTwoNamingIt) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"topswops grow 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24",
       "deck: 24 cards"},
      {"topswops grow 1,1", "appears twice"},
      {"topswops grow 2,1 --budget 0", "--budget: '0'"},
      {"topswops grow 2,1 --budget lots", "'lots'"},
      {"topswops grow", "DECK"},
      {"--backend gpu topswops grow 2,1", "no GPU engine"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(piles::testing::run_piles(args), message)) << args;
}
