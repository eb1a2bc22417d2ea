// A solve told no bound that starts from a quick search's game (solve.hpp, quick_bound.hpp):
// the answer, every deck of it, stays that of the search from f(n-1); where the start came from
// is in the answer and the journal, and a resumed journal starts from the same game.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "host/common/output.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/report.hpp"
#include "host/topswops/solve.hpp"
#include "tests/support/temp_dir.hpp"

namespace ts = piles::topswops;

namespace {

ts::SolveOptions options(int n, ts::Final final, double quick, const std::string& journal) {
  ts::SolveOptions o;
  o.n = n;
  o.final = final;
  o.quick_seconds = quick;
  o.quick_from = 10;  // where the quick search is quick
  o.run.checkpoint = journal;
  o.run.quiet = true;
  return o;
}

ts::Solution solve(const ts::SolveOptions& o) {
  piles::RunTarget cpu;
  cpu.threads = 2;
  return ts::solve(o, cpu);
}

ts::Solution solve(int n, ts::Final final, double quick, const std::string& journal = "",
                   ts::CpuEngine engine = ts::CpuEngine::dfs) {
  ts::SolveOptions o = options(n, final, quick, journal);
  o.engine = engine;
  return solve(o);
}

}  // namespace

TEST(TopswopsQuickStart, TheAnswerIsTheSearchFromFnMinusOnes) {
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted})
    for (int n : {10, 11, 12}) {
      const ts::Solution plain = solve(n, final, 0);
      const ts::Solution quick = solve(n, final, 2);
      EXPECT_TRUE(plain.start_deck.empty());
      ASSERT_FALSE(quick.start_deck.empty()) << n;
      // The start is a real game: it plays the steps the search started from.
      EXPECT_EQ(ts::play(quick.start_deck).steps, quick.start_target);
      EXPECT_GT(quick.start_target, plain.start_target);
      EXPECT_EQ(quick.result.best, plain.result.best) << n;
      EXPECT_EQ(quick.result.count, plain.result.count) << n;
      EXPECT_EQ(quick.result.decks, plain.result.decks) << n;
      const nlohmann::json j = ts::to_json(quick);
      EXPECT_EQ(j.at("start_from"), "quick search");
      EXPECT_EQ(j.at("start_deck"), quick.start_deck);
      EXPECT_EQ(ts::to_json(plain).at("start_from"),
                final == ts::Final::sorted ? "a(n-1)" : "f(n-1)");
    }
}

TEST(TopswopsQuickStart, AJournalKeepsItsStartAndResumesFromIt) {
  piles::testing::TempDir dir;
  const std::string journal = dir.file("quick.journal");
  const ts::Solution first = solve(12, ts::Final::any, 2, journal);
  std::ifstream in(journal);
  std::string problem;
  std::getline(in, problem);
  EXPECT_NE(problem.find("\"start_deck\""), std::string::npos) << problem;
  // Run again on the finished journal: no quick search, the same start, every chunk resumed.
  const ts::Solution again = solve(12, ts::Final::any, 2, journal);
  EXPECT_EQ(again.start_deck, first.start_deck);
  // Told --quick 0, a run on a journal begun from a quick search still starts from its game.
  EXPECT_EQ(solve(12, ts::Final::any, 0, journal).start_deck, first.start_deck);
  EXPECT_EQ(again.run.chunks_resumed, static_cast<int>(again.run.chunks));
  EXPECT_EQ(again.result, first.result);
  const ts::Solution merged = ts::merge({journal});
  EXPECT_EQ(merged.start_deck, first.start_deck);
  EXPECT_EQ(merged.result.best, ts::published::longest[12]);
}

// The backward search of games ending sorted starts from a quick search's game too (at 18
// cards 170 steps in seconds, where a(17) = 159), and its journal keeps it.
TEST(TopswopsQuickStart, TheBackwardSearchStartsFromItToo) {
  const auto backward = [](int n, double quick, const std::string& journal = "") {
    return solve(n, ts::Final::sorted, quick, journal, ts::CpuEngine::backward);
  };
  for (int n : {11, 12}) {
    const ts::Solution plain = backward(n, 0);
    const ts::Solution quick = backward(n, 2);
    EXPECT_TRUE(plain.start_deck.empty());
    ASSERT_FALSE(quick.start_deck.empty()) << n;
    const ts::Game start = ts::play(quick.start_deck);
    EXPECT_EQ(start.steps, quick.start_target);
    EXPECT_TRUE(start.ends_sorted);
    EXPECT_GT(quick.start_target, plain.start_target);
    EXPECT_TRUE(quick.backward);
    EXPECT_EQ(quick.result.best, ts::published::longest_sorted[n]) << n;
    EXPECT_EQ(quick.result.count, plain.result.count) << n;
    EXPECT_EQ(quick.result.decks, plain.result.decks) << n;
  }
  piles::testing::TempDir dir;
  const std::string journal = dir.file("backward.journal");
  const ts::Solution first = backward(12, 2, journal);
  std::ifstream in(journal);
  std::string problem;
  std::getline(in, problem);
  EXPECT_NE(problem.find("\"start_deck\""), std::string::npos) << problem;
  EXPECT_NE(problem.find("backward-sorted/2"), std::string::npos) << problem;
  const ts::Solution again = backward(12, 0, journal);
  EXPECT_EQ(again.start_deck, first.start_deck);
  EXPECT_EQ(again.run.chunks_resumed, static_cast<int>(again.run.chunks));
  EXPECT_EQ(again.result, first.result);
  const ts::Solution merged = ts::merge({journal});
  EXPECT_EQ(merged.start_deck, first.start_deck);
  EXPECT_TRUE(merged.backward);
  EXPECT_EQ(merged.result.best, ts::published::longest_sorted[12]);
}

// Under --time-limit the quick search takes at most half the time left before it, and the
// answer says that the limit cut it short; the search from its game still gives f(12).
TEST(TopswopsQuickStart, ATimeLimitCutsTheQuickSearchAndTheAnswerSaysSo) {
  piles::testing::TempDir dir;
  ts::SolveOptions o = options(12, ts::Final::any, 600, dir.file("limited.journal"));
  o.run.time_limit = 2;
  ts::Solution s = solve(o);
  ASSERT_FALSE(s.start_deck.empty());
  EXPECT_EQ(s.quick_cut_by, "--time-limit");
  EXPECT_EQ(ts::play(s.start_deck).steps, s.start_target);
  EXPECT_EQ(ts::to_json(s).at("quick_search_cut_by"), "--time-limit");
  EXPECT_NE(ts::to_text(s, false).find("found by a quick search cut short by --time-limit"),
            std::string::npos)
      << ts::to_text(s, false);
  // Stopped or not, the journal resumes to f(12) from the same game, and its answer still says
  // what cut the search short.
  o.run.time_limit.reset();
  const ts::Solution resumed = solve(o);
  EXPECT_EQ(resumed.start_deck, s.start_deck);
  EXPECT_EQ(resumed.quick_cut_by, "--time-limit");
  EXPECT_EQ(ts::to_json(resumed).at("quick_search_cut_by"), "--time-limit");
  EXPECT_NE(ts::to_text(resumed, false).find("found by a quick search cut short by --time-limit"),
            std::string::npos)
      << ts::to_text(resumed, false);
  EXPECT_EQ(resumed.result.best, ts::published::longest[12]);
  EXPECT_EQ(ts::merge({o.run.checkpoint}).quick_cut_by, "--time-limit");
}

// At 16 cards the quick search grows f(15)'s decks to f(16) (grow.hpp): the run says which deck
// it grew, in its answer and its journal, and a resumed run says it again. Both stop at their
// --time-limit: the whole search from 139 takes half an hour of these threads.
TEST(TopswopsQuickStart, AGameGrownFromAPublishedDeckSaysWhichDeck) {
  piles::testing::TempDir dir;
  ts::SolveOptions o = options(16, ts::Final::any, 2, dir.file("grown.journal"));
  o.run.time_limit = 6;
  const ts::Solution s = solve(o);
  EXPECT_EQ(s.start_target, ts::published::longest[16]);
  ASSERT_FALSE(s.grown_from.empty());
  EXPECT_EQ(ts::play(s.grown_from).steps, ts::published::longest[15]);
  EXPECT_EQ(ts::play(s.start_deck).steps, s.start_target);
  EXPECT_EQ(ts::to_json(s).at("start_grown_from"), s.grown_from);
  EXPECT_NE(ts::to_text(s, false).find("(grown from f(15)'s deck " +
                                       piles::comma_list(s.grown_from) + ")"),
            std::string::npos)
      << ts::to_text(s, false);
  std::ifstream in(o.run.checkpoint);
  std::string problem;
  std::getline(in, problem);  // "problem <json> <crc32>"
  const std::size_t json = problem.find('{');
  EXPECT_EQ(
      nlohmann::json::parse(problem.substr(json, problem.rfind(' ') - json)).at("start_grown_from"),
      s.grown_from)
      << problem;
  o.run.time_limit = 2;
  const ts::Solution resumed = solve(o);
  EXPECT_EQ(resumed.start_deck, s.start_deck);
  EXPECT_EQ(resumed.grown_from, s.grown_from);
}

// Copies of a run's journal go on as its shards: each keeps the run's start and doubling rounds
// (a shard starting its own journal would have neither), and their merge is the run's answer.
TEST(TopswopsQuickStart, CopiesOfAJournalGoOnAsItsShards) {
  piles::testing::TempDir dir;
  const std::string journal = dir.file("whole.journal");
  const ts::Solution whole = solve(12, ts::Final::any, 2, journal);
  ASSERT_FALSE(whole.start_deck.empty());
  // Keep the problem and run lines and the first 100 chunks: rounds 0..5 and part of round 6.
  std::ifstream in(journal);
  std::string begun, line;
  for (int i = 0; i < 102 && std::getline(in, line); ++i) begun += line + "\n";
  std::vector<std::string> shards;
  for (int index = 0; index < 2; ++index) {
    shards.push_back(dir.file("shard" + std::to_string(index) + ".journal"));
    std::ofstream(shards.back()) << begun;
    ts::SolveOptions o = options(12, ts::Final::any, 2, shards.back());
    o.run.shard = piles::job::Shard{.index = index, .count = 2};
    const ts::Solution part = solve(o);
    EXPECT_EQ(part.start_deck, whole.start_deck);
    EXPECT_EQ(part.run.chunks_resumed, 100);
  }
  const ts::Solution merged = ts::merge(shards);
  EXPECT_EQ(merged.start_deck, whole.start_deck);
  EXPECT_EQ(merged.result, whole.result);
}

// Who starts from a quick search: a run from quick_from_n cards on, on CPU threads or a GPU;
// never a shard starting its journal or a run told its bound; and a journal already begun keeps
// its start whoever resumes it, --quick 0 or a shard included.
TEST(TopswopsQuickStart, ABegunJournalKeepsItsStartWhoeverResumesIt) {
  ts::SolveOptions o;
  o.n = 18;
  EXPECT_TRUE(ts::starts_from_quick_search(o, false));
  o.n = 16;
  EXPECT_FALSE(ts::starts_from_quick_search(o, false));
  EXPECT_TRUE(ts::starts_from_quick_search(o, true));
  o.n = 18;
  o.quick_seconds = 0;
  EXPECT_FALSE(ts::starts_from_quick_search(o, false));
  EXPECT_TRUE(ts::starts_from_quick_search(o, true));
  o.quick_seconds = 60;
  o.run.shard = piles::job::Shard{.index = 1, .count = 2};
  EXPECT_FALSE(ts::starts_from_quick_search(o, false));
  EXPECT_TRUE(ts::starts_from_quick_search(o, true));
  o.run.shard.reset();
  o.bound = 191;
  EXPECT_FALSE(ts::starts_from_quick_search(o, false));
  EXPECT_FALSE(ts::starts_from_quick_search(o, true));
}
