#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "core/topswops_backward.hpp"
#include "host/results/games.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/backward_passes.hpp"
#include "host/topswops/play.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/solve.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/targets.hpp"
#include "tests/support/temp_dir.hpp"

namespace ts = piles::topswops;
namespace bw = piles::topswops::backward;
namespace published = piles::topswops::published;
using piles::testing::run_piles;
using piles::testing::TempDir;

namespace {

ts::Solution solve(int n, ts::CpuEngine engine, std::optional<int> bound = {},
                   bw::Prune prune = bw::Prune::play) {
  ts::SolveOptions o;
  o.n = n;
  o.final = ts::Final::sorted;
  o.engine = engine;
  o.bound = bound;
  o.prune = prune;
  o.run.quiet = true;
  return ts::solve(o, piles::testing::cpu(2));
}

ts::Solution backward(int n, std::optional<int> bound = {}, bw::Prune prune = bw::Prune::play) {
  return solve(n, ts::CpuEngine::backward, bound, prune);
}

// The decks whose game ends in the sorted deck, by playing every permutation.
std::uint64_t decks_ending_sorted(int n) {
  std::vector<int> deck(n);
  std::iota(deck.begin(), deck.end(), 1);
  std::uint64_t count = 0;
  do count += ts::play(deck).ends_sorted;
  while (std::next_permutation(deck.begin(), deck.end()));
  return count;
}

template <int W>
void expect_homes_as_played(int n, std::mt19937& random) {
  std::vector<int> cards(n);
  std::iota(cards.begin(), cards.end(), 1);
  for (int trial = 0; trial < 200; ++trial) {
    std::shuffle(cards.begin(), cards.end(), random);
    if (trial % 3 == 0) std::sort(cards.begin(), cards.begin() + trial % n);  // more homes
    ts::Deck<W> d{};
    std::uint32_t expected = 0;
    for (int i = 0; i < n; ++i) {
      d.set(i, cards[i]);
      if (i > 0 && cards[i] == i + 1) expected |= 1u << i;
    }
    const ts::Deck<W> sorted = ts::sorted_deck<W>(n);
    EXPECT_EQ(bw::homes(d, sorted, n), expected) << "n = " << n;
    // As the search holds the deck: in vector registers where the machine has them, and words.
    EXPECT_EQ(bw::homes(ts::Playing<W>(d), ts::Playing<W>(sorted), n), expected) << "n = " << n;
    EXPECT_EQ(bw::homes(ts::Playing<W, false>(d), ts::Playing<W, false>(sorted), n), expected)
        << "n = " << n;
  }
}

}  // namespace

TEST(TopswopsBackward, HomesAreThePositionsHoldingTheirOwnCard) {
  std::mt19937 random(7);
  for (int n : {2, 5, 8, 9, 16}) expect_homes_as_played<2>(n, random);
  for (int n : {17, 20, 24}) expect_homes_as_played<3>(n, random);
}

// The split rule's table (the host's) gives the bound its step a home gives (the device's),
// for every set of homes up to 17 cards and random ones up to 24, on the plans' own f tables.
TEST(TopswopsBackward, TheSplitTableGivesTheSplitBoundOfEveryHomes) {
  std::mt19937 random(11);
  for (int n : {2, 9, 13, 17, 18, 24}) {
    const ts::Plan plan = ts::make_backward_plan(n, 0, bw::Prune::split);
    bw::Problem table = ts::backward_problem(plan), steps = table;
    ASSERT_NE(table.split, nullptr);
    steps.split = nullptr;
    const std::uint32_t all = (1u << (n - 1)) - 1;  // positions 2..n
    const auto expect_same = [&](std::uint32_t bits) {
      const std::uint32_t moves = bits << 1;
      ASSERT_EQ(bw::remaining(table, moves), bw::remaining(steps, moves)) << n << " " << moves;
    };
    if (n <= 17)
      for (std::uint32_t bits = 0; bits <= all; ++bits) expect_same(bits);
    else
      for (int i = 0; i < 200'000; ++i) expect_same(random() & all);
  }
}

TEST(TopswopsBackward, UnprunedTreeHoldsEveryDeckEndingSorted) {
  // Every node is a deck whose game ends sorted, each once: the tree's size by brute force, and
  // at 12 cards the count of 3,490,570 found by an independent exhaustive count.
  for (int n = 1; n <= 8; ++n)
    EXPECT_EQ(backward(n, 0, bw::Prune::none).result.total_nodes(), decks_ending_sorted(n))
        << "n = " << n;
  EXPECT_EQ(backward(12, {}, bw::Prune::none).result.total_nodes(), 3'490'570u);
}

TEST(TopswopsBackward, MatchesPublishedValues) {
  for (int n = 1; n <= 12; ++n) {
    const ts::Solution s = backward(n);
    EXPECT_EQ(s.result.best, published::longest_sorted[n]) << "n = " << n;
    EXPECT_EQ(s.result.count, static_cast<std::uint64_t>(published::longest_sorted_count[n]))
        << "n = " << n;
    ASSERT_EQ(s.result.decks.size(), s.result.count);
    for (const auto& g : s.result.decks) {
      const ts::Game game = ts::play(g.deck);
      EXPECT_EQ(game.steps, s.result.best);
      EXPECT_TRUE(game.ends_sorted);
    }
  }
}

TEST(TopswopsBackward, AgreesWithTheForwardSearch) {
  for (int n = 2; n <= 13; ++n) {
    const ts::Solution back = backward(n), forward = solve(n, ts::CpuEngine::dfs);
    EXPECT_EQ(back.result.best, forward.result.best) << "n = " << n;
    EXPECT_EQ(back.result.count, forward.result.count) << "n = " << n;
    EXPECT_EQ(back.result.decks, forward.result.decks) << "n = " << n;
  }
}

TEST(TopswopsBackward, EveryPruningRuleGivesTheUnprunedAnswer) {
  // Each rule is proved in core/topswops_backward.hpp; here each must find exactly what no
  // pruning finds, from the default target and from the answer itself, and prune no less than
  // the rule before it.
  for (int n = 2; n <= 11; ++n) {
    for (std::optional<int> bound :
         {std::optional<int>{}, std::optional<int>{published::longest_sorted[n]}}) {
      const ts::Solution none = backward(n, bound, bw::Prune::none);
      std::uint64_t nodes = none.result.total_nodes();
      for (bw::Prune prune : {bw::Prune::home, bw::Prune::split, bw::Prune::play}) {
        const ts::Solution s = backward(n, bound, prune);
        EXPECT_EQ(s.result.best, none.result.best) << "n = " << n << " " << ts::prune_name(prune);
        EXPECT_EQ(s.result.decks, none.result.decks) << "n = " << n;
        EXPECT_LE(s.result.total_nodes(), nodes) << "n = " << n << " " << ts::prune_name(prune);
        nodes = s.result.total_nodes();
      }
    }
  }
}

// A sink that hands off the search's pending moves every `every` nodes into `handed`, and
// keeps the decks that reach the target.
struct HandingSink {
  static constexpr bool shares = true;
  int every;
  std::vector<bw::Cursor<2>>& handed;
  std::set<std::vector<int>> decks;
  int n;
  long entered = 0;

  void game(int, const ts::Deck<2>& deck) { decks.insert(ts::to_cards(deck, n)); }
  bw::Poll poll() { return ++entered % every == 0 ? bw::Poll::share : bw::Poll::go; }
  void share(const bw::Cursor<2>& at) { handed.push_back(at); }
};

TEST(TopswopsBackward, ASubtreeHandedOffInPiecesCountsAsWhole) {
  for (int n : {9, 11}) {
    const ts::Plan plan = ts::make_backward_plan(n, {}, bw::Prune::play);
    const bw::Problem problem = ts::backward_problem(plan);
    const int target = published::longest_sorted[n] - 3;
    std::vector<bw::Cursor<2>> none;
    HandingSink whole{1 << 30, none, {}, n};
    std::uint64_t expected[ts::max_n] = {};
    bw::Cursor<2> root = bw::cursor_at(bw::root<2>(n));
    ASSERT_TRUE(bw::search(problem, root, target, expected, whole));
    ASSERT_FALSE(whole.decks.empty());
    for (int every : {3, 50, 1000}) {
      std::vector<bw::Cursor<2>> handed = {bw::cursor_at(bw::root<2>(n))};
      HandingSink pieces{every, handed, {}, n};
      std::uint64_t nodes[ts::max_n] = {};
      std::size_t searched = 0;
      while (!handed.empty()) {
        bw::Cursor<2> at = handed.back();
        handed.pop_back();
        ASSERT_TRUE(bw::search(problem, at, target, nodes, pieces));
        ++searched;
      }
      EXPECT_GT(searched, 1u) << "n = " << n << ", every " << every;
      EXPECT_TRUE(std::equal(nodes, nodes + n, expected)) << "n = " << n << ", every " << every;
      EXPECT_EQ(pieces.decks, whole.decks) << "n = " << n << ", every " << every;
    }
  }
}

TEST(TopswopsBackward, ThreadsSharingAChunkCountWhatOneThreadCounts) {
  const ts::Plan plan = ts::make_backward_plan(14, {}, bw::Prune::play);
  // Chunk 2 holds 4.2 million nodes in 18 prefixes of very uneven weight: threads left idle by
  // its last prefixes take parts of the others.
  for (const std::vector<int>& chunks : {std::vector<int>{2}, std::vector<int>{1, 2, 3}}) {
    std::map<int, ts::Partial> shared;
    const std::size_t handed = ts::run_backward_chunks(
        plan, chunks, plan.start_target, 4,
        [&](int chunk, const ts::Partial& partial, double) { shared[chunk] = partial; });
    EXPECT_GT(handed, 0u);
    ASSERT_EQ(shared.size(), chunks.size());
    for (int c : chunks) {
      const std::size_t first = plan.chunk_begin(c);
      EXPECT_EQ(shared[c], ts::search_backward_prefixes(plan, first, first + plan.chunk_prefixes(c),
                                                        plan.start_target))
          << "chunk " << c;
    }
  }
}

// The passes a device runs, on the host's threads: searches stopped after a budget of nodes and
// resumed from their cursors, split between passes, count and find what the CPU engine does.
TEST(TopswopsBackward, PassesOnTheHostCountWhatTheCpuEngineCounts) {
  for (int n : {12, 13}) {
    const ts::Plan plan = ts::make_backward_plan(n, {}, bw::Prune::play);
    const std::vector<int> chunks = {0, 1, 2, 3, 40, 1000};
    std::map<int, ts::Partial> cpu, passes;
    ts::run_backward_chunks(plan, chunks, plan.start_target, 2,
                            [&](int c, const ts::Partial& p, double) { cpu[c] = p; });
    for (const std::uint64_t budget : {50ull, 300ull, 100000ull}) {
      const auto runner = ts::host_backward_passes<2>(ts::backward_problem(plan), plan.start_target,
                                                      chunks.size(), 64, 2);
      passes.clear();
      ts::run_backward_passes<2>(plan, chunks, *runner, budget,
                                 [&](int c, const ts::Partial& p, double) { passes[c] = p; });
      ASSERT_EQ(passes.size(), chunks.size());
      for (int c : chunks)
        EXPECT_EQ(passes[c], cpu[c]) << "n = " << n << ", chunk " << c << ", budget " << budget;
    }
  }
}

TEST(TopswopsBackward, ShardsAndResumeGiveTheWhole) {
  TempDir dir;
  const std::string base = "topswops solve 12 --final sorted --engine backward --json";
  const auto whole = run_piles(base);
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(whole.json()["max_steps"], 63);
  EXPECT_EQ(whole.json()["count"], 4);
  std::string files;
  for (int i = 0; i < 2; ++i) {
    const std::string file = dir.file("shard" + std::to_string(i));
    const auto r = run_piles(base + " --shard " + std::to_string(i) + "/2 --checkpoint " + file);
    ASSERT_EQ(r.status, 0) << r.err;
    files += " " + file;
  }
  const auto merged = run_piles("topswops merge" + files + " --json");
  ASSERT_EQ(merged.status, 0) << merged.err;
  for (const char* key : {"max_steps", "count", "decks", "nodes", "nodes_per_level"})
    EXPECT_EQ(merged.json()[key], whole.json()[key]) << key;
  // A second run on a finished journal reads every chunk back.
  const auto again = run_piles(base + " --checkpoint " + dir.file("whole"));
  const auto resumed = run_piles(base + " --checkpoint " + dir.file("whole"));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(resumed.json()["chunks_resumed"], resumed.json()["chunks"]);
  EXPECT_EQ(resumed.json()["nodes"], again.json()["nodes"]);
}

// Told its bound, the search runs one round from it, and its journal says so: the merge of it
// reports the bound, as the run did. A000376(11) = 51, so from 52 nothing is found.
TEST(TopswopsBackward, AJournalToldItsBoundMergesToTheSameAnswer) {
  TempDir dir;
  for (const int bound : {51, 52}) {
    const std::string journal = dir.file("bound" + std::to_string(bound));
    const auto run =
        run_piles("topswops solve 11 --final sorted --engine backward --json --bound " +
                  std::to_string(bound) + " --checkpoint " + journal);
    ASSERT_EQ(run.status, 0) << run.err;
    const auto merged = run_piles("topswops merge --json " + journal);
    ASSERT_EQ(merged.status, 0) << merged.err;
    for (const char* key : {"bound", "start_from", "max_steps", "count", "nodes"})
      EXPECT_EQ(merged.json()[key], run.json()[key]) << key << " from " << bound;
    EXPECT_EQ(merged.json()["bound"], bound);
  }
}

// The 17-card journal was written while each prefix raised its own target: it still reads back
// to its answer, and a run of this version will not resume it (its chunks count differently).
TEST(TopswopsBackward, AJournalOfTheFirstRevisionReadsBackButIsNotResumed) {
  const std::string journal =
      std::string(PILES_SOURCE_DIR) + "/results/topswops/runs/backward_sorted_17.journal";
  const auto merged = run_piles("topswops merge --json " + journal);
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.json()["max_steps"], published::longest_sorted[17]);
  EXPECT_EQ(merged.json()["count"], published::longest_sorted_count[17]);
  EXPECT_EQ(merged.json()["nodes"], 117'285'597'081u);
  // As the results read it into the sorted table: its nodes marked as the backward tree's.
  const std::optional<piles::topswops::Solution> read = piles::topswops::read_finished(journal);
  ASSERT_TRUE(read);
  EXPECT_TRUE(read->backward);
  EXPECT_EQ(read->result.best, published::longest_sorted[17]);
  const std::optional<piles::topswops::Solution> forward = piles::topswops::read_finished(
      std::string(PILES_SOURCE_DIR) + "/results/topswops/runs/solve_sorted_16.journal");
  ASSERT_TRUE(forward);
  EXPECT_FALSE(forward->backward);
  TempDir dir;
  const std::string copy = dir.file("old.journal");
  std::filesystem::copy_file(journal, copy);
  const auto resumed = run_piles("topswops solve 17 --final sorted --checkpoint " + copy);
  EXPECT_TRUE(piles::testing::is_usage_error(resumed, "backward-sorted/1")) << resumed.err;
}

// FRONTIER.md's list of what waits says how far a backward journal of games ending sorted has
// come, and the command that goes on with it (not solve's, whose search is forward on a GPU).
TEST(TopswopsBackward, TheFrontierSaysHowFarABackwardJournalHasCome) {
  TempDir dir;
  const piles::results::Writer writer(dir.path(), "quick", piles::testing::cpu(2), true);
  std::filesystem::create_directories(writer.runs("topswops"));
  const std::string journal = (writer.runs("topswops") / "backward_sorted_12.journal").string();
  EXPECT_EQ(piles::results::topswops_under_way(writer, ts::Final::sorted, 12), "");
  const auto run = run_piles("topswops solve 12 --final sorted --checkpoint " + journal);
  ASSERT_EQ(run.status, 0) << run.err;
  // Its problem and run lines and its first 100 chunks: a run stopped there.
  std::vector<std::string> lines;
  {
    std::ifstream in(journal);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::ofstream out(journal, std::ios::trunc);
  int chunks = 0;
  for (const std::string& line : lines) {
    const bool chunk = line.rfind("problem ", 0) != 0 && line.rfind("run ", 0) != 0;
    if (!chunk || chunks++ < 100) out << line << "\n";
  }
  out.close();
  const std::string text = piles::results::topswops_under_way(writer, ts::Final::sorted, 12);
  for (const char* part :
       {"searched back from the sorted deck", "backward_sorted_12.journal holds 100 of ",
        "`piles topswops solve 12 --final sorted --checkpoint "
        "results/topswops/runs/backward_sorted_12.journal` goes on from there",
        "By stratified sampling ("})
    EXPECT_NE(text.find(part), std::string::npos) << part << " in " << text;
  EXPECT_EQ(piles::results::topswops_under_way(writer, ts::Final::any, 12), "");
}

TEST(TopswopsBackward, RefusesWhatItCannotSearch) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"topswops solve 8 --engine backward", "--final sorted"},
      {"topswops solve 8 --final any --engine backward", "--final sorted"},
      {"topswops solve 8 --prune home", "--prune"},
      {"topswops solve 8 --final sorted --engine dfs --prune home", "--prune"},
      {"topswops solve 8 --final sorted --engine backward --prune most", "most"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
}
