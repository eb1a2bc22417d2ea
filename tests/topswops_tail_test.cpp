#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/support/journal_line.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/targets.hpp"
#include "tests/support/temp_dir.hpp"

namespace ts = piles::topswops;
namespace published = piles::topswops::published;
using piles::testing::run_piles;
using piles::testing::TempDir;

namespace {

ts::TailResult tail(int n, std::optional<int> from, const std::string& checkpoint = "") {
  ts::TailOptions o;
  o.n = n;
  o.from = from;
  o.run.checkpoint = checkpoint;
  o.run.quiet = true;
  return ts::run_tail(o, piles::testing::cpu(2));
}

ts::Solution solve(int n, ts::Final final, const ts::Tail& t, int threads = 2) {
  ts::SolveOptions o;
  o.n = n;
  o.final = final;
  o.tail = t;
  o.run.quiet = true;
  return ts::solve(o, piles::testing::cpu(threads));
}

// Every n-card deck played to its end: whenever card n sits at the bottom, the n-1 cards above
// it are a deck whose game has the steps still to come; the longest whole game seen with each
// such remainder (of at least `from` steps), over all games and over those ending sorted.
void brute_force_tail(int n, int from, std::vector<int>& any, std::vector<int>& sorted) {
  const int size = published::longest[n - 1] - from + 1;
  any.assign(size, -1);
  sorted.assign(size, -1);
  std::vector<int> deck(n);
  std::iota(deck.begin(), deck.end(), 1);
  do {
    const ts::Game g = ts::play(deck);
    for (int t = 0; t <= g.steps; ++t) {
      const int left = g.steps - t;
      if (g.trace[t][n - 1] != n || left < from) continue;
      any[left - from] = std::max(any[left - from], g.steps);
      if (g.ends_sorted) sorted[left - from] = std::max(sorted[left - from], g.steps);
    }
  } while (std::next_permutation(deck.begin(), deck.end()));
}

}  // namespace

TEST(TopswopsTail, MatchesEveryDeckPlayedOut) {
  for (const auto& [n, from] : std::vector<std::pair<int, int>>{{6, 1}, {8, 5}, {9, 12}}) {
    std::vector<int> any, sorted;
    brute_force_tail(n, from, any, sorted);
    const ts::TailResult r = tail(n, from);
    EXPECT_EQ(r.any, any) << "n = " << n;
    EXPECT_EQ(r.sorted, sorted) << "n = " << n;
  }
}

TEST(TopswopsTail, StartsWhereTheFirstChunksGameLeavesOff) {
  const ts::TailStart s = ts::choose_tail_start(11, 2);
  ASSERT_FALSE(s.deck.empty());
  const ts::Game g = ts::play(s.deck);
  EXPECT_EQ(g.steps, s.steps);
  EXPECT_EQ(g.trace[s.landed][10], 11);
  EXPECT_NE(g.trace[s.landed - 1][10], 11);
  EXPECT_EQ(s.from, std::max(s.steps - s.landed, (3 * published::longest[10] + 3) / 4));
}

TEST(TopswopsTail, SolvesTheSameWithFewerNodes) {
  for (int n : {9, 10, 11, 12}) {
    const ts::TailResult r = tail(n, std::nullopt);
    for (ts::Final final : {ts::Final::any, ts::Final::sorted}) {
      const ts::Solution plain = solve(n, final, {});
      const ts::Solution cut = solve(n, final, r.tail(final));
      EXPECT_EQ(cut.result.best, plain.result.best) << "n = " << n;
      EXPECT_EQ(cut.result.decks, plain.result.decks) << "n = " << n;
      EXPECT_LE(cut.result.total_nodes(), plain.result.total_nodes()) << "n = " << n;
      EXPECT_EQ(solve(n, final, r.tail(final), 1).result, cut.result) << "n = " << n;
    }
  }
  // At 12 cards the cut is large: card 12 lands with at most 38 steps to go instead of 51.
  const ts::Solution cut = solve(12, ts::Final::any, tail(12, std::nullopt).tail(ts::Final::any));
  EXPECT_LT(cut.result.total_nodes(), 7'000'000u);
}

TEST(TopswopsTail, JournalsResumeAndFeedSolveAndMerge) {
  TempDir dir;
  const ts::TailResult r = tail(11, std::nullopt, dir.file("tail"));
  const ts::TailResult again = tail(11, std::nullopt, dir.file("tail"));
  EXPECT_EQ(again.run.chunks_resumed, static_cast<int>(again.run.chunks));
  EXPECT_EQ(again.any, r.any);
  EXPECT_EQ(ts::read_tail({dir.file("tail")}).any, r.any);

  const auto whole = run_piles("topswops solve 11 --json --tail " + dir.file("tail"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(whole.json()["max_steps"], published::longest[11]);
  EXPECT_EQ(whole.json()["tail"]["from"], r.start.from);
  std::string files;
  for (int i = 0; i < 2; ++i) {
    const std::string file = dir.file("shard" + std::to_string(i));
    ASSERT_EQ(run_piles("topswops solve 11 --quiet --shard " + std::to_string(i) +
                        "/2 --checkpoint " + file + " --tail " + dir.file("tail"))
                  .status,
              0);
    files += " " + file;
  }
  const auto merged = run_piles("topswops merge" + files + " --json");
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.json()["nodes"], whole.json()["nodes"]);
  EXPECT_EQ(merged.json()["decks"], whole.json()["decks"]);
}

// A run resumed without --from takes the start its journal names (here one it would not
// choose, so a start chosen again would make the journal another problem's) and searches no
// chunk again; a journal of another tail is refused before any search.
TEST(TopswopsTail, AResumedRunTakesTheStartItsJournalNames) {
  TempDir dir;
  const ts::TailStart chosen = ts::choose_tail_start(10, 2);
  const int from = chosen.from + 1;
  const ts::TailResult first = tail(10, from, dir.file("tail"));
  const ts::TailResult again = tail(10, std::nullopt, dir.file("tail"));
  EXPECT_EQ(again.start.from, from);
  EXPECT_EQ(again.run.chunks_resumed, static_cast<int>(again.run.chunks));
  EXPECT_EQ(again.any, first.any);
  EXPECT_TRUE(piles::testing::is_usage_error(
      run_piles("topswops tail 11 --checkpoint " + dir.file("tail")),
      dir.file("tail") + ": the journal is of the tail for n = 10, not n = 11"));
}

TEST(TopswopsTail, BadInputExitsTwoWithOneLine) {
  TempDir dir;
  ASSERT_EQ(run_piles("topswops tail 9 --quiet --checkpoint " + dir.file("nine")).status, 0);
  ASSERT_EQ(run_piles("topswops solve 8 --quiet --checkpoint " + dir.file("solve")).status, 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"topswops tail 2", "'2' is out of range"},
      {"topswops tail 9 --from 0", "'0' is out of range"},
      {"topswops tail 9 --from 23 --checkpoint " + dir.file("from"),
       "--from: 23 is out of range (1..22"},
      {"topswops solve 10 --tail " + dir.file("nine"), "serves n = 9, not n = 10"},
      {"topswops solve 8 --tail " + dir.file("solve"), "not the journal of a tail"},
      {"topswops solve 9 --tail " + dir.file("absent"), "absent"},
      // Refused before the search that chooses the start (minutes from n = 17 on): the tail's
      // games are kept only in its journal.
      {"topswops tail 17", "topswops tail: needs --checkpoint FILE"},
      {"topswops tail 17 --time-limit 60", "topswops tail: needs --checkpoint FILE"},
      {"topswops tail 17 --shard 0/2", "topswops tail: needs --checkpoint FILE"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
}

// Numbers beyond their type in a tail journal are refused, not wrapped: n = 2^32 + 9 would read
// as 9, a negative count as a huge one.
TEST(TopswopsTail, NumbersOutOfRangeInItsJournalAreRefused) {
  TempDir dir;
  ASSERT_EQ(run_piles("topswops tail 9 --quiet --checkpoint " + dir.file("nine")).status, 0);
  const std::string journal = piles::testing::slurp(dir.file("nine"));
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"\"n\":9", "\"n\":4294967305"},
      {"\"games\":", "\"games\":-1"},
      {"\"steps\":", "\"steps\":1e300,\"x\":"},
  };
  for (const auto& [from, to] : edits) {
    std::ofstream(dir.file("edited")) << piles::testing::edit_journal(journal, from, to);
    EXPECT_TRUE(piles::testing::is_usage_error(
        run_piles("topswops solve 9 --tail " + dir.file("edited")), dir.file("edited")))
        << to;
  }
}
