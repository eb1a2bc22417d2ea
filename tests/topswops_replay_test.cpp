// The host replay that every GPU answer goes through: the CPU engine's chunks pass it, and a
// chunk with any part of a game wrong is refused, naming the chunk.
#include <gtest/gtest.h>

#include <stdexcept>

#include "host/topswops/plan.hpp"
#include "host/topswops/replay.hpp"
#include "tests/support/topswops.hpp"

namespace ts = piles::topswops;

namespace {

ts::Partial longest_chunk(ts::Final final, int& chunk) {
  const ts::Plan plan = ts::make_plan(9, final, {});
  const auto chunks = piles::testing::cpu_chunks(plan, plan.chunks_of_round(plan.round_count() - 1),
                                                 plan.start_target);
  ts::Partial best;
  for (const auto& [c, p] : chunks)
    if (!p.decks.empty() && p.best > best.best) best = p, chunk = c;
  return best;
}

void expect_refused(const ts::Partial& p, ts::Final final, int chunk, const std::string& names) {
  try {
    ts::replay_games(p, 9, final, chunk, "GPU");
    ADD_FAILURE() << "accepted: " << names;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("GPU chunk " + std::to_string(chunk) + " of n = 9"), std::string::npos)
        << what;
    EXPECT_NE(what.find(names), std::string::npos) << what;
  }
}

}  // namespace

TEST(TopswopsReplay, TheCpuEnginesChunksPass) {
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    const ts::Plan plan = ts::make_plan(10, final, {});
    for (int r = 0; r < plan.round_count(); ++r)
      for (const auto& [c, p] : piles::testing::cpu_chunks(plan, plan.chunks_of_round(r), 0))
        EXPECT_NO_THROW(ts::replay_games(p, 10, final, c, "GPU")) << c;
  }
}

TEST(TopswopsReplay, AWrongGameIsRefusedNamingTheChunk) {
  int chunk = -1;
  const ts::Partial right = longest_chunk(ts::Final::any, chunk);
  ASSERT_GE(chunk, 0);
  ASSERT_EQ(right.best, 30);  // f(9)

  ts::Partial longer = right;
  longer.best += 1;
  expect_refused(longer, ts::Final::any, chunk, "reported as 31 steps");

  ts::Partial wrong_final = right;
  std::swap(wrong_final.decks[0].final_deck[1], wrong_final.decks[0].final_deck[2]);
  expect_refused(wrong_final, ts::Final::any, chunk, "plays 30 steps");

  ts::Partial not_a_deck = right;
  not_a_deck.decks[0].deck[0] = not_a_deck.decks[0].deck[1];
  expect_refused(not_a_deck, ts::Final::any, chunk, "no permutation of 1..9");

  ts::Partial overcounted = right;
  overcounted.count = 0;
  expect_refused(overcounted, ts::Final::any, chunk, "decks listed for a count of 0");

  // Under --final sorted a game must end in the sorted deck.
  if (right.decks[0].final_deck != std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9})
    expect_refused(right, ts::Final::sorted, chunk, "plays 30 steps");
}
