#include <gtest/gtest.h>

#include <chrono>

#include "host/common/error.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/quick_bound.hpp"

namespace ts = piles::topswops;

namespace {

// Bounded by rounds, not by time, so that the answer does not depend on the machine's speed;
// stopping at the published value keeps the tests short.
ts::QuickBoundOptions options_for(int n, ts::Final final) {
  ts::QuickBoundOptions options;
  options.n = n;
  options.final = final;
  options.seconds = 600;
  options.threads = 2;
  options.max_rounds = 6;
  options.stop_at =
      final == ts::Final::sorted ? ts::published::longest_sorted[n] : ts::published::longest[n];
  return options;
}

}  // namespace

TEST(TopswopsQuickBound, FindsTheLongestGameForSmallDecks) {
  for (int n = 1; n <= 12; ++n) {
    const ts::LongGame game = ts::find_long_game(options_for(n, ts::Final::any));
    EXPECT_EQ(game.steps, ts::published::longest[n]) << "n = " << n;
    ASSERT_EQ(static_cast<int>(game.deck.size()), n);
    EXPECT_EQ(ts::play(game.deck).steps, game.steps) << "n = " << n;
  }
}

TEST(TopswopsQuickBound, FindsTheLongestSortedGameForSmallDecks) {
  for (int n = 1; n <= 12; ++n) {
    const ts::LongGame game = ts::find_long_game(options_for(n, ts::Final::sorted));
    EXPECT_EQ(game.steps, ts::published::longest_sorted[n]) << "n = " << n;
    const ts::Game replay = ts::play(game.deck);
    EXPECT_EQ(replay.steps, game.steps) << "n = " << n;
    EXPECT_TRUE(replay.ends_sorted) << "n = " << n;
  }
}

TEST(TopswopsQuickBound, SameSeedSameGame) {
  ts::QuickBoundOptions options = options_for(14, ts::Final::any);
  options.max_rounds = 2;
  options.stop_at.reset();
  const ts::LongGame a = ts::find_long_game(options), b = ts::find_long_game(options);
  EXPECT_EQ(a.deck, b.deck);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(ts::play(a.deck).steps, a.steps);
}

TEST(TopswopsQuickBound, StopsAtTheGivenLength) {
  ts::QuickBoundOptions options = options_for(13, ts::Final::any);
  options.max_rounds = 0;
  options.stop_at = 60;
  const ts::LongGame game = ts::find_long_game(options);
  EXPECT_GE(game.steps, 60);
  EXPECT_EQ(ts::play(game.deck).steps, game.steps);
}

TEST(TopswopsQuickBound, NoTimeGivesAPlayableDeck) {
  ts::QuickBoundOptions options = options_for(10, ts::Final::any);
  options.seconds = 0;
  const ts::LongGame game = ts::find_long_game(options);
  EXPECT_EQ(static_cast<int>(game.deck.size()), 10);
  EXPECT_EQ(ts::play(game.deck).steps, game.steps);
}

// With a floor of 0 s the search ends after the first round that finds nothing longer: it gives
// what the same rounds counted out give, and ends long before its time.
TEST(TopswopsQuickBound, EndsAfterARoundThatFindsNothingLonger) {
  for (int n : {13, 15}) {
    ts::QuickBoundOptions rounds;
    rounds.n = n;
    rounds.seconds = 300;
    rounds.threads = 2;
    int stalled_after = 0;
    int before = -1;
    for (int r = 1; r <= 10 && stalled_after == 0; ++r) {
      rounds.max_rounds = r;
      const int steps = ts::find_long_game(rounds).steps;
      if (steps == before) stalled_after = r;
      before = steps;
    }
    ASSERT_GT(stalled_after, 0) << n;
    rounds.max_rounds = stalled_after;
    const ts::LongGame counted = ts::find_long_game(rounds);
    ts::QuickBoundOptions stall = rounds;
    stall.max_rounds = 0;
    stall.stall_floor = 0.0;
    const auto began = std::chrono::steady_clock::now();
    const ts::LongGame ended = ts::find_long_game(stall);
    EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(300))
        << n << ": ended by its time, not by the round";
    EXPECT_EQ(ended.steps, counted.steps) << n;
    EXPECT_EQ(ended.deck, counted.deck) << n;
    EXPECT_EQ(ts::play(ended.deck).steps, ended.steps) << n;
  }
}

TEST(TopswopsQuickBound, RejectsInvalidArguments) {
  const auto rejects = [](auto change) {
    ts::QuickBoundOptions options = options_for(10, ts::Final::any);
    change(options);
    EXPECT_THROW(ts::find_long_game(options), piles::UsageError);
  };
  rejects([](ts::QuickBoundOptions& o) { o.n = 0; });
  rejects([](ts::QuickBoundOptions& o) { o.n = ts::max_n + 1; });
  rejects([](ts::QuickBoundOptions& o) { o.threads = 0; });
  rejects([](ts::QuickBoundOptions& o) { o.seconds = -1; });
  rejects([](ts::QuickBoundOptions& o) { o.max_rounds = -1; });
}

// A run's --time-limit or SIGTERM ends the search before its time: it stops at the next level
// of a beam, says so, and hands over the best game it reached. (Uncancelled, these options
// would search for ten minutes.)
TEST(TopswopsQuickBound, ACancelledSearchEndsWithAPlayableGame) {
  for (const int asks : {1, 10, 60}) {
    ts::QuickBoundOptions options = options_for(17, ts::Final::any);
    options.max_rounds = 0;
    options.stop_at.reset();
    int asked = 0;
    options.cancel = [&] { return ++asked > asks; };
    const ts::LongGame game = ts::find_long_game(options);
    EXPECT_TRUE(game.cancelled) << asks;
    ASSERT_EQ(static_cast<int>(game.deck.size()), 17);
    EXPECT_EQ(ts::play(game.deck).steps, game.steps) << asks;
  }
  ts::QuickBoundOptions options = options_for(10, ts::Final::any);
  options.cancel = [] { return false; };
  EXPECT_FALSE(ts::find_long_game(options).cancelled);
}

// From 14 to 20 cards the search first grows the published decks of f(n - 1) (grow.hpp): at 18
// cards that finds f(18), and says which deck it grew; without it the first round's beams are
// far below. Under a sorted final only f(17)'s deck that ends sorted is grown, and gives it too.
TEST(TopswopsQuickBound, GrowsThePublishedGamesOfOneCardFewer) {
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    ts::QuickBoundOptions options = options_for(18, final);
    options.max_rounds = 1;
    const ts::LongGame game = ts::find_long_game(options);
    EXPECT_EQ(game.steps, ts::published::longest[18]);
    const ts::Game replay = ts::play(game.deck);
    EXPECT_EQ(replay.steps, game.steps);
    EXPECT_TRUE(replay.ends_sorted);
    EXPECT_EQ(game.grown_from, ts::parse_deck("2,10,15,11,7,14,5,16,6,4,17,13,1,3,8,9,12"));
    options.grow = false;
    const ts::LongGame beams = ts::find_long_game(options);
    EXPECT_LT(beams.steps, game.steps);
    EXPECT_TRUE(beams.grown_from.empty());
  }
}
