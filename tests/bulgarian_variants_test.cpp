// The variants' moves and traces: seed 001's worked examples (Montreal, Austrian), Multiplayer
// with one player against the plain game, and bad variant names and starts on the command line.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/bulgarian_variants.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/bulgarian/variants.hpp"
#include "tests/support/run_piles.hpp"

namespace piles::bulgarian {
namespace {

using States = std::vector<std::vector<int>>;
using piles::testing::run_piles;

TEST(BulgarianVariants, MontrealSeedExample) {
  // Seed 001, section 1.2: (3,2,2) -> (2,1,1,3) -> (1,0,0,2,4) -> (1,0,1,3,2) -> (1,0,2,1,3)
  // -> (1,1,0,2,3) -> ... and back to (3,2,2) after 18 moves.
  const Variant montreal = parse_variant("montreal");
  const Trace t = trace_variant(montreal, parse_start(montreal, "3,2,2", ""));
  EXPECT_EQ(t.transient, 0);
  EXPECT_EQ(t.cycle_length, 18);
  ASSERT_EQ(t.partitions.size(), 19u);
  EXPECT_EQ(States(t.partitions.begin(), t.partitions.begin() + 6), (States{{3, 2, 2},
                                                                            {2, 1, 1, 3},
                                                                            {1, 0, 0, 2, 4},
                                                                            {1, 0, 1, 3, 2},
                                                                            {1, 0, 2, 1, 3},
                                                                            {1, 1, 0, 2, 3}}));
  EXPECT_EQ(t.partitions.back(), (std::vector<int>{3, 2, 2}));
}

TEST(BulgarianVariants, AustrianSeedExample) {
  // Seed 001: (5,4) with L = 3 -> (4,3,3) -> (3,2,2,3), its bank at -1 after each move. Under
  // the published rule a bank of 1 at the start gives exactly those piles with the bank at 0
  // (the seed's count is one card short); states keep piles largest first, bank first.
  const Variant austrian = parse_variant("austrian:3");
  const Trace t = trace_variant(austrian, parse_start(austrian, "5,4", "1"));
  ASSERT_GE(t.partitions.size(), 3u);
  EXPECT_EQ(States(t.partitions.begin(), t.partitions.begin() + 3),
            (States{{1, 5, 4}, {0, 4, 3, 3}, {0, 3, 3, 2, 2}}));
  // With an empty bank the two cards of the first move buy no pile.
  const Trace empty = trace_variant(austrian, parse_start(austrian, "5,4", ""));
  EXPECT_EQ(States(empty.partitions.begin(), empty.partitions.begin() + 3),
            (States{{0, 5, 4}, {2, 4, 3}, {1, 3, 3, 2}}));
}

TEST(BulgarianVariants, AustrianBankPaysSeveralPiles) {
  int bank = 5;
  const std::vector<int> piles = {2, 1, 1, 1};
  std::vector<int> out(8);
  out.resize(austrian_move(piles.data(), 4, 3, bank, out.data()));
  EXPECT_EQ(out, (std::vector<int>{3, 3, 3, 1}));
  EXPECT_EQ(bank, 0);
}

TEST(BulgarianVariants, CarolinaMove) {
  const std::vector<int> piles = {3, 1, 2};
  std::vector<int> out(4);
  out.resize(carolina_move(piles.data(), 3, out.data()));
  EXPECT_EQ(out, (std::vector<int>{3, 2, 1}));
  const Variant carolina = parse_variant("carolina");
  const Trace t = trace_variant(carolina, parse_start(carolina, "1,1,1", ""));
  EXPECT_EQ(t.partitions, (States{{1, 1, 1}, {3}, {1, 2}, {2, 1}}));
  EXPECT_EQ(t.transient, 3);
  EXPECT_EQ(t.cycle_length, 1);
}

TEST(BulgarianVariants, MultiplayerHandsPilesOn) {
  // (3,1) | (2): player 0 keeps (2) and gets player 1's one-card pile; player 1 keeps (1) and
  // gets player 0's two-card pile.
  const Variant two = parse_variant("multiplayer:2");
  const Trace t = trace_variant(two, parse_start(two, "3,1/2", ""));
  ASSERT_GE(t.partitions.size(), 2u);
  EXPECT_EQ(t.partitions[1], (std::vector<int>{2, 2, 2, 1, 2, 1}));
  EXPECT_EQ(state_text(two, t.partitions[1]), "(2, 1) | (2, 1)");
  // Players left out hold nothing.
  EXPECT_EQ(parse_start(parse_variant("multiplayer:3"), "4", ""), (std::vector<int>{1, 0, 0, 4}));
}

TEST(BulgarianVariants, MultiplayerWithOnePlayerIsThePlainGame) {
  const Variant one = parse_variant("multiplayer:1");
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> parts;
    for (int left = 1 + static_cast<int>(rng() % 60); left > 0;) {
      const int v = 1 + static_cast<int>(rng() % left);
      parts.push_back(v);
      left -= v;
    }
    std::sort(parts.begin(), parts.end(), std::greater<>());
    std::vector<int> start = {static_cast<int>(parts.size())};
    start.insert(start.end(), parts.begin(), parts.end());
    const Trace plain = trace(parts), multi = trace_variant(one, start);
    EXPECT_EQ(multi.transient, plain.transient);
    EXPECT_EQ(multi.cycle_length, plain.cycle_length);
    EXPECT_EQ(multi.cards, plain.cards);
    ASSERT_EQ(multi.partitions.size(), plain.partitions.size());
    for (std::size_t i = 0; i < plain.partitions.size(); ++i)
      EXPECT_EQ(std::vector<int>(multi.partitions[i].begin() + 1, multi.partitions[i].end()),
                plain.partitions[i]);
  }
}

TEST(BulgarianVariantsCli, TraceJson) {
  const auto r = run_piles("bulgarian trace 3,2,2 --variant montreal --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["variant"], "montreal");
  EXPECT_EQ(j["cycle_length"], 18);
  EXPECT_EQ(j["trace"][2], (std::vector<int>{1, 0, 0, 2, 4}));
  const auto a = run_piles("bulgarian trace 5,4 --variant austrian:3 --bank 1 --json --quiet");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.json()["start"]["bank"], 1);
  EXPECT_EQ(a.json()["n"], 10);
}

TEST(BulgarianVariantsCli, BadVariantsAndStarts) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"trace 3,2 --variant bogus", "'bogus' is not one of"},
      {"trace 3,2 --variant multiplayer", "needs a parameter"},
      {"trace 3,2 --variant multiplayer:0", "--variant multiplayer: '0' is out of range"},
      {"trace 3,2 --variant multiplayer:x", "'x' is not an integer"},
      {"trace 3,2 --variant austrian:0", "--variant austrian: '0' is out of range"},
      {"trace 3,2 --variant carolina:2", "'carolina:2' is not one of"},
      {"trace 3,2 --variant carolina --bank 2", "--bank: '2' is for --variant austrian:L only"},
      {"trace 0,1,2 --variant montreal", "must start and end with a position holding cards"},
      {"trace 1/2/3 --variant multiplayer:2", "has more than 2 players"},
      {"trace / --variant multiplayer:2", "has no cards"},
      {"trace 3,0 --variant carolina", "piles: '0' is out of range"},
  };
  for (const auto& [args, named] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles("bulgarian " + args), named)) << args;
}

}  // namespace
}  // namespace piles::bulgarian
