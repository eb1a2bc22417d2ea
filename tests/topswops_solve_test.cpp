#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "host/common/checkpoint.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/solve.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/targets.hpp"
#include "tests/support/temp_dir.hpp"

namespace ts = piles::topswops;
namespace published = piles::topswops::published;
using piles::testing::run_piles;
using piles::testing::TempDir;

namespace {

ts::Solution solve(int n, ts::Final final, int threads = 2, std::optional<int> bound = {},
                   const std::string& checkpoint = "") {
  ts::SolveOptions o;
  o.n = n;
  o.final = final;
  o.bound = bound;
  o.run.checkpoint = checkpoint;
  o.run.quiet = true;
  return ts::solve(o, piles::testing::cpu(threads));
}

// The answer without how it was computed (time, backend, resumption, shard).
nlohmann::json answer(nlohmann::json j) {
  for (const char* key : {"seconds", "nodes_per_second", "backend", "device", "threads",
                          "chunks_resumed", "complete", "shard", "bound"})
    j.erase(key);
  return j;
}

}  // namespace

TEST(TopswopsSolve, ChunkedRunsMatchPublishedValues) {
  for (ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    const bool sorted = final == ts::Final::sorted;
    for (int n = 1; n <= 12; ++n) {
      const ts::Solution s = solve(n, final);
      const int expected = sorted ? published::longest_sorted[n] : published::longest[n];
      const int count = sorted ? published::longest_sorted_count[n] : published::longest_count[n];
      EXPECT_EQ(s.result.best, expected) << "n = " << n << " " << ts::final_name(final);
      EXPECT_EQ(s.result.count, static_cast<std::uint64_t>(count)) << "n = " << n;
      ASSERT_EQ(s.result.decks.size(), s.result.count);
      for (const auto& g : s.result.decks) {
        const auto game = ts::play(g.deck);
        EXPECT_EQ(game.steps, s.result.best);
        EXPECT_EQ(game.trace.back(), g.final_deck);
        if (sorted) EXPECT_TRUE(game.ends_sorted);
      }
    }
  }
}

TEST(TopswopsSolve, ChunkResultsDoNotDependOnThreads) {
  TempDir dir;
  const ts::Solution one = solve(11, ts::Final::any, 1, {}, dir.file("one"));
  const ts::Solution two = solve(11, ts::Final::any, 2, {}, dir.file("two"));
  EXPECT_EQ(one.result, two.result);
  const auto a = piles::read_journal(dir.file("one")), b = piles::read_journal(dir.file("two"));
  ASSERT_EQ(a.chunks.size(), b.chunks.size());
  for (const auto& [chunk, payload] : a.chunks) {
    nlohmann::json x = payload, y = b.chunks.at(chunk);
    x.erase("seconds");
    y.erase("seconds");
    EXPECT_EQ(x, y) << "chunk " << chunk;
  }
}

TEST(TopswopsSolve, BoundAboveTheAnswerFindsNothing) {
  const ts::Solution none = solve(10, ts::Final::any, 2, published::longest[10] + 1);
  EXPECT_EQ(none.result.best, -1);
  EXPECT_EQ(none.result.count, 0u);
  EXPECT_TRUE(none.result.decks.empty());
  const ts::Solution exact = solve(10, ts::Final::any, 2, published::longest[10]);
  EXPECT_EQ(exact.result.decks, solve(10, ts::Final::any).result.decks);
}

TEST(TopswopsSolve, BoundAtTheAnswerVisitsAtMostKnuthsNodes) {
  // From the first node on, the target is f(12), as in Knuth's program run with f(12) in its
  // table (9,993,979 nodes): the same tree whatever the threads, and never more nodes, since
  // every node Knuth's bound prunes the block bound prunes too.
  const ts::Solution one = solve(12, ts::Final::any, 1, 65);
  const ts::Solution two = solve(12, ts::Final::any, 2, 65);
  EXPECT_EQ(one.result.nodes, two.result.nodes);
  EXPECT_LE(two.result.total_nodes(), 9'993'979u);
  EXPECT_EQ(two.result.best, 65);
}

TEST(TopswopsSolve, ShardsMergeIntoTheWhole) {
  TempDir dir;
  const auto whole = run_piles("topswops solve 12 --json --threads 2");
  ASSERT_EQ(whole.status, 0) << whole.err;
  std::string files;
  for (int i = 0; i < 3; ++i) {
    const std::string file = dir.file("shard" + std::to_string(i));
    const auto r = run_piles("topswops solve 12 --json --threads 1 --shard " + std::to_string(i) +
                             "/3 --checkpoint " + file);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.json()["complete"], false);
    files += " " + file;
  }
  const auto merged = run_piles("topswops merge" + files + " --json");
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(answer(merged.json()), answer(whole.json()));
  EXPECT_EQ(merged.json()["backend"], "merge");

  const auto missing = run_piles("topswops merge " + dir.file("shard0") + " " + dir.file("shard2"));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing"), std::string::npos) << missing.err;

  ASSERT_EQ(run_piles("topswops solve 10 --quiet --checkpoint " + dir.file("ten")).status, 0);
  const auto mixed = run_piles("topswops merge" + files + " " + dir.file("ten"));
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.err.find("the journal is for topswops solve 10 --final any, not solve 12"),
            std::string::npos)
      << mixed.err;
}

TEST(TopswopsSolve, JsonCarriesTheContractKeys) {
  const auto r = run_piles("topswops solve 6 --json --final sorted");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  for (const char* key : {"n", "final", "max_steps", "count", "decks", "nodes", "nodes_per_level",
                          "seconds", "backend", "device", "threads"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["final"], "sorted");
  EXPECT_EQ(j["max_steps"], 10);
  EXPECT_EQ(j["count"], 4);
  EXPECT_EQ(j["decks"][0]["final"], (nlohmann::json{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(j["nodes_per_level"].size(), 6u);
  // Its nodes are the backward tree's (the default for games ending sorted on CPU threads), and
  // it says so; the forward search's differ.
  EXPECT_EQ(j["search"], "backward");
  const auto forward = run_piles("topswops solve 6 --json --final sorted --engine dfs").json();
  EXPECT_EQ(forward["search"], "forward");
  EXPECT_NE(forward["nodes"], j["nodes"]);
  const auto text = run_piles("topswops solve 6 --final sorted");
  EXPECT_NE(
      text.out.find("topswops n = 6, games ending in the sorted deck, searched back from it\n"),
      std::string::npos)
      << text.out;
}

TEST(TopswopsSolve, NothingFoundIsSaidPlainly) {
  const auto r = run_piles("topswops solve 9 --bound 31");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("none of 31 steps or more, so f(9) < 31"), std::string::npos) << r.out;
  const auto j = run_piles("topswops solve 9 --bound 31 --json").json();
  EXPECT_TRUE(j["max_steps"].is_null());
  EXPECT_EQ(j["count"], 0);
  // A part of the search proves nothing of f(n): it says where it looked.
  TempDir dir;
  const auto shard =
      run_piles("topswops solve 9 --bound 31 --shard 0/2 --checkpoint " + dir.file("shard"));
  ASSERT_EQ(shard.status, 0) << shard.err;
  EXPECT_NE(shard.out.find("none of 31 steps or more in the chunks done\n"), std::string::npos)
      << shard.out;
  EXPECT_EQ(shard.out.find("so f(9)"), std::string::npos) << shard.out;
}

TEST(TopswopsSolve, BadInputExitsTwoWithOneLine) {
  TempDir dir;
  const std::string damaged = dir.file("damaged");
  ASSERT_EQ(run_piles("topswops solve 8 --quiet --checkpoint " + damaged).status, 0);
  ASSERT_EQ(run_piles("topswops solve 8 --quiet --checkpoint " + dir.file("eight")).status, 0);
  {
    std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-12, std::ios::end);
    f.put('#');
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"topswops solve 0", "'0' is out of range"},
      {"topswops solve 25", "'25' is out of range"},
      {"topswops solve ten", "'ten' is not an integer"},
      {"topswops solve 10 --bound -4", "--bound"},
      {"topswops solve 10 --bound many", "'many'"},
      {"topswops solve 10 --final reverse", "reverse"},
      {"topswops solve 10 --shard 3/2 --checkpoint " + dir.file("x"), "'3'"},
      {"topswops solve 10 --shard 2 --checkpoint " + dir.file("x"), "I/K"},
      {"topswops solve 10 --shard 0/0 --checkpoint " + dir.file("x"), "'0'"},
      {"topswops solve 10 --shard 1/2", "--checkpoint"},
      {"topswops solve 8 --checkpoint " + damaged, "checksum"},
      {"topswops solve 9 --checkpoint " + dir.file("eight"), "is for topswops solve 8"},
      {"topswops merge " + dir.file("absent"), "absent"},
      {"topswops merge", "FILE"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
}
