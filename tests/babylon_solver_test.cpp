#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "host/babylon/analysis.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/babylon/table.hpp"
#include "host/common/checkpoint.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using piles::babylon::Move;
using piles::babylon::Position;
using piles::babylon::Solver;

// The plain solver the engine is checked against: every stack explicit as (height, top
// colour), every ordered pair of stacks tried, no memo, no symmetry, no shortcuts.
using Stacks = std::vector<std::pair<int, int>>;

bool plain_mover_wins(const Stacks& s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = 0; j < s.size(); ++j) {
      if (i == j || (s[i].first != s[j].first && s[i].second != s[j].second)) continue;
      Stacks next;
      for (std::size_t k = 0; k < s.size(); ++k)
        if (k != i && k != j) next.push_back(s[k]);
      next.push_back({s[i].first + s[j].first, s[i].second});  // i goes on top of j
      if (!plain_mover_wins(next)) return true;
    }
  return false;
}

Stacks plain_stacks(const Position& p) {
  Stacks s;
  for (int c = 0; c < p.colours; ++c)
    for (int h = 1; h <= piles::babylon::max_chips; ++h)
      for (int i = 0; i < p.colour[c].count_of(h); ++i) s.push_back({h, c});
  return s;
}

Stacks plain_start(const std::vector<int>& counts) {
  return plain_stacks(piles::babylon::start_position(counts));
}

Position after(Position p, const Move& m) {
  piles::babylon::apply(p, m);
  return p;
}

}  // namespace

TEST(BabylonSolver, TheoremForEveryTwoColourStartUpTo16Chips) {
  // Georgakopoulos and Winkler, Theorem 4.1: with p <= q, the second player wins iff p + q is
  // even and p >= 3.
  const piles::babylon::Table t = piles::babylon::solve_table(2, 16, 1);
  ASSERT_EQ(t.rows.size(), 64u);  // sum over n = 2..16 of floor(n / 2)
  for (const auto& row : t.rows) {
    const int p = row.counts[0], q = row.counts[1];
    ASSERT_LE(p, q);
    EXPECT_EQ(!row.first_wins, (p + q) % 2 == 0 && p >= 3) << p << "," << q;
  }
}

TEST(BabylonSolver, CommercialStartIsASecondPlayerWin) {
  // Four colours, three chips each: a second-player win (seed 003, introduction).
  Solver solver(1);
  EXPECT_FALSE(solver.mover_wins(piles::babylon::start_position({3, 3, 3, 3})));
}

TEST(BabylonSolver, AgreesWithThePlainSolverOnSmallStarts) {
  // Up to 9 chips for two and three colours, 8 for four, 7 for five.
  Solver solver(1);
  int checked = 0;
  for (int colours = 2; colours <= 5; ++colours)
    for (const auto& counts :
         piles::babylon::table_starts(colours, colours <= 3 ? 9 : 12 - colours)) {
      EXPECT_EQ(solver.mover_wins(piles::babylon::start_position(counts)),
                plain_mover_wins(plain_start(counts)))
          << ::testing::PrintToString(counts);
      ++checked;
    }
  EXPECT_EQ(checked, 59);  // 20 + 23 + 12 + 4 starts
}

TEST(BabylonSolver, AgreesWithThePlainSolverOnRandomPositions) {
  // Mid-game positions with tall stacks and lone colours exercise the dead-stack rule.
  std::mt19937 rng(2024);
  Solver solver(1);
  for (int trial = 0; trial < 2000; ++trial) {
    Position p;
    p.colours = 2 + static_cast<int>(rng() % 3);
    const int stacks = 2 + static_cast<int>(rng() % 7);
    for (int i = 0; i < stacks; ++i)
      p.colour[rng() % p.colours].add(1 + static_cast<int>(rng() % 6));
    EXPECT_EQ(solver.mover_wins(p), plain_mover_wins(plain_stacks(p))) << "trial " << trial;
  }
}

TEST(BabylonSolver, TheoremBeyondTheNarrowKey) {
  // Starts of 64 to 126 chips need 256-bit keys at the top of the search (2 * chips + 2 > 127
  // bits); their deeper positions drop to 128-bit keys. Theorem 4.1 still decides them.
  Solver solver(1);
  for (const auto& [p, q] : std::vector<std::pair<int, int>>{
           {1, 63}, {2, 62}, {3, 61}, {4, 60}, {3, 123}, {2, 124}, {5, 121}, {6, 100}}) {
    EXPECT_EQ(!solver.mover_wins(piles::babylon::start_position({p, q})),
              piles::babylon::theorem_second_wins(p, q))
        << p << "," << q;
  }
  EXPECT_GT(solver.wide_states(), 0u);
  EXPECT_LT(solver.wide_states(), solver.memo_states());
}

// A start is cut short inside its search when the run is asked to stop (a table's start can
// take seconds): the call throws Cancelled, and the memo it leaves, which holds only positions
// solved whole, gives the same answers as a fresh one, on one thread and on two.
TEST(BabylonSolver, ACancelledSearchLeavesTheMemoSound) {
  for (const int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    Solver solver(threads);
    const Position start = piles::babylon::start_position({5, 5, 5, 5});
    std::uint64_t searched = 0;
    int asked = 0;
    EXPECT_THROW(solver.mover_wins(start, searched, [&] { return ++asked >= 2; }),
                 piles::Cancelled);
    EXPECT_EQ(asked, 2);
    EXPECT_GT(solver.memo_states(), 0u);
    Solver fresh(1);
    for (const std::vector<int>& counts :
         std::vector<std::vector<int>>{{5, 5, 5, 5}, {4, 5, 5, 5}, {3, 4, 5, 6}, {2, 2, 3}})
      EXPECT_EQ(solver.mover_wins(piles::babylon::start_position(counts)),
                fresh.mover_wins(piles::babylon::start_position(counts)))
          << ::testing::PrintToString(counts);
  }
}

TEST(BabylonSolver, ThreadsDoNotChangeTheTable) {
  const auto one = piles::babylon::solve_table(3, 15, 1);
  const auto two = piles::babylon::solve_table(3, 15, 2);
  ASSERT_EQ(one.rows.size(), two.rows.size());
  for (std::size_t i = 0; i < one.rows.size(); ++i)
    EXPECT_EQ(one.rows[i].first_wins, two.rows[i].first_wins);
}

// The results read the largest finished table in a folder of journals: a finished journal gives
// the table a plain run gives, a journal missing one chip total gives nothing.
TEST(BabylonSolver, OnlyAFinishedJournalGivesItsTable) {
  const std::string journal =
      (std::filesystem::temp_directory_path() / "piles_babylon_finished.journal").string();
  std::filesystem::remove(journal);
  piles::babylon::TableRun run;
  run.colours = 3;
  run.max_chips = 14;
  run.run.checkpoint = journal;
  run.run.quiet = true;
  piles::RunTarget cpu;
  piles::babylon::solve_table(run, cpu);
  const auto plain = piles::babylon::solve_table(3, 14, 1);
  const auto read = piles::babylon::finished_table(journal);
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(read->run.merged);
  ASSERT_EQ(read->rows.size(), plain.rows.size());
  for (std::size_t i = 0; i < plain.rows.size(); ++i) {
    EXPECT_EQ(read->rows[i].counts, plain.rows[i].counts);
    EXPECT_EQ(read->rows[i].first_wins, plain.rows[i].first_wins);
  }

  std::ifstream in(journal);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (!std::isdigit(line[0]) || std::stoi(line) != 3) kept += line + "\n";
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  EXPECT_FALSE(piles::babylon::finished_table(journal).has_value());
  std::filesystem::remove(journal);
}

// A table is a chunk per start, so that a time limit stops it within one start; a journal
// begun when a chunk was every start of one chip total goes on in those chunks: resumed, it
// keeps its own problem line, adds the totals it lacked and gives the table a plain run gives.
TEST(BabylonSolver, AJournalOfChipTotalsResumesInItsOwnChunks) {
  const piles::testing::TempDir dir;
  const std::string journal = dir.file("totals.journal");
  const auto plain = piles::babylon::solve_table(3, 14, 1);
  const nlohmann::json old_problem = {{"game", "babylon"}, {"colours", 3}, {"max_chips", 14}};
  {
    // The two largest totals, as the earlier chunks held them: chunk c is the total 14 - c.
    piles::ChunkJournal old(journal, old_problem);
    for (int c = 0; c < 2; ++c) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& row : plain.rows)
        if (row.chips == 14 - c)
          rows.push_back({{"counts", row.counts},
                          {"first_wins", row.first_wins},
                          {"searched", row.searched},
                          {"seconds", row.seconds}});
      old.append(c, {{"rows", rows}, {"seconds", 0.5}});
    }
  }
  piles::babylon::TableRun run;
  run.colours = 3;
  run.max_chips = 14;
  run.run.checkpoint = journal;
  run.run.quiet = true;
  piles::RunTarget cpu;
  const auto resumed = piles::babylon::solve_table(run, cpu);
  EXPECT_EQ(resumed.run.chunks, 12u);  // the totals 3..14
  EXPECT_EQ(resumed.run.chunks_resumed, 2);
  EXPECT_EQ(piles::read_journal(journal).problem, old_problem);
  const auto read = piles::babylon::finished_table(journal);
  for (const auto* table : {&resumed, &*read}) {
    ASSERT_EQ(table->rows.size(), plain.rows.size());
    for (std::size_t i = 0; i < plain.rows.size(); ++i) {
      EXPECT_EQ(table->rows[i].counts, plain.rows[i].counts);
      EXPECT_EQ(table->rows[i].first_wins, plain.rows[i].first_wins);
    }
  }
  // A fresh journal is a chunk per start.
  run.run.checkpoint = dir.file("starts.journal");
  const auto fresh = piles::babylon::solve_table(run, cpu);
  EXPECT_EQ(fresh.run.chunks, plain.rows.size());
  EXPECT_EQ(piles::read_journal(run.run.checkpoint).problem.at("chunk"), "start");
}

// The journals under results/babylon/runs/ were written a chip total a chunk: they still give
// their tables, each start once, in table order.
TEST(BabylonSolver, TheRecordedJournalsOfChipTotalsStillGiveTheirTables) {
  const auto read = piles::babylon::finished_table(std::string(PILES_SOURCE_DIR) +
                                                   "/results/babylon/runs/table_4_33.journal");
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->rows.size(), piles::babylon::table_starts(4, 33).size());
  EXPECT_EQ(read->run.chunks, 30u);  // the totals 4..33
  // The first rows against a table solved here.
  const auto small = piles::babylon::solve_table(4, 12, 2);
  for (std::size_t i = 0; i < small.rows.size(); ++i) {
    EXPECT_EQ(read->rows[i].counts, small.rows[i].counts);
    EXPECT_EQ(read->rows[i].first_wins, small.rows[i].first_wins);
  }
}

TEST(BabylonAnalysis, ThreadsSharingOneStartAgree) {
  // Two threads search the same positions at once (first moves split between them); every
  // answer must match one thread's.
  for (const std::vector<int>& counts :
       std::vector<std::vector<int>>{{6, 6, 6}, {5, 5, 5, 5}, {4, 4, 4, 4, 4}, {14, 18}}) {
    Solver one(1), two(2);
    const auto a = piles::babylon::analyse(counts, one);
    const auto b = piles::babylon::analyse(counts, two);
    EXPECT_EQ(a.first_wins, b.first_wins);
    ASSERT_EQ(a.moves.size(), b.moves.size());
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
      EXPECT_EQ(a.moves[i].wins, b.moves[i].wins);
      EXPECT_EQ(a.moves[i].reply.has_value(), b.moves[i].reply.has_value());
    }
  }
}

TEST(BabylonAnalysis, ReportedWinningMovesWinAndNoOthersDo) {
  // Every first move replayed against the plain solver, which shares nothing with the engine.
  for (const std::vector<int>& counts : std::vector<std::vector<int>>{
           {2, 4}, {1, 6}, {3, 4}, {2, 2, 3}, {1, 2, 4}, {2, 2, 2}, {1, 1, 2, 3}}) {
    Solver solver(2);
    const auto a = piles::babylon::analyse(counts, solver);
    const Position start = piles::babylon::start_position(counts);
    EXPECT_EQ(a.first_wins, plain_mover_wins(plain_start(counts)));
    for (const auto& f : a.moves)
      EXPECT_EQ(f.wins, !plain_mover_wins(plain_stacks(after(start, f.move))))
          << ::testing::PrintToString(counts) << " " << piles::babylon::describe(f.move);
  }
}

TEST(BabylonAnalysis, EveryReplyWinsForTheSecondPlayer) {
  for (const std::vector<int>& counts :
       std::vector<std::vector<int>>{{3, 3}, {3, 5}, {4, 4}, {3, 3, 3, 3}, {6, 8}, {5, 5, 5}}) {
    Solver solver(2);
    const auto a = piles::babylon::analyse(counts, solver);
    ASSERT_FALSE(a.first_wins) << ::testing::PrintToString(counts);
    const Position start = piles::babylon::start_position(counts);
    Solver check(1);  // a fresh memo
    for (const auto& f : a.moves) {
      EXPECT_FALSE(f.wins);
      ASSERT_TRUE(f.reply.has_value());
      const Position reply = after(after(start, f.move), *f.reply);
      EXPECT_FALSE(check.mover_wins(reply)) << piles::babylon::describe(f.move);
      if (reply.chips() <= 8) EXPECT_FALSE(plain_mover_wins(plain_stacks(reply)));
    }
  }
}

TEST(BabylonAnalysis, SmallRepliesCheckedByThePlainSolver) {
  for (const std::vector<int>& counts : std::vector<std::vector<int>>{{3, 3}, {2, 2, 2, 2}}) {
    Solver solver(1);
    const auto a = piles::babylon::analyse(counts, solver);
    EXPECT_EQ(a.first_wins, plain_mover_wins(plain_start(counts)));
    const Position start = piles::babylon::start_position(counts);
    for (const auto& f : a.moves)
      if (f.reply)
        EXPECT_FALSE(plain_mover_wins(plain_stacks(after(after(start, f.move), *f.reply))));
  }
}
