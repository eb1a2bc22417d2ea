#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/run_piles.hpp"

using piles::testing::run_piles;

namespace {

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

void expect_usage_error(const std::string& args, const std::string& names) {
  const auto r = run_piles(args);
  EXPECT_EQ(r.status, 2) << args;
  EXPECT_EQ(r.err.rfind("piles: error: ", 0), 0u) << args << ": " << r.err;
  EXPECT_EQ(count(r.err, "\n"), 1) << args << ": " << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << args << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << args;
}

}  // namespace

TEST(BabylonCli, SolveCommercialStartAsJson) {
  const auto r = run_piles("babylon solve 3 3 3 3 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["counts"], nlohmann::json({3, 3, 3, 3}));
  EXPECT_EQ(j["winner"], "second");
  EXPECT_GT(j["states"].get<long>(), 0);
  EXPECT_GE(j["seconds"].get<double>(), 0.0);
  // A reply for every distinct first move: 4 same-colour, 12 cross-colour.
  ASSERT_EQ(j["winning_moves"].size(), 16u);
  for (const auto& w : j["winning_moves"]) {
    EXPECT_TRUE(w["first_move"].contains("text"));
    EXPECT_EQ(w["reply"]["top_height"].get<int>() == w["reply"]["bottom_height"].get<int>() ||
                  w["reply"]["top_colour"] == w["reply"]["bottom_colour"],
              true);
  }
}

TEST(BabylonCli, SolveFirstPlayerWinListsWinningMoves) {
  // Two red chips, four blue (seed 003, section 2): the first player stacks the two reds...
  const auto r = run_piles("babylon solve 2 4 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["winner"], "first");
  bool stacks_the_reds = false;
  for (const auto& m : j["winning_moves"])
    stacks_the_reds = stacks_the_reds || (m["top_colour"] == "A" && m["bottom_colour"] == "A");
  EXPECT_TRUE(stacks_the_reds) << j["winning_moves"].dump();
}

TEST(BabylonCli, SolveHumanOutput) {
  const auto r = run_piles("babylon solve 3,5 --threads 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("winner   second player"), std::string::npos) << r.out;
  EXPECT_EQ(count(r.out, "    -> put a height-"), 4) << r.out;
  EXPECT_NE(r.out.find("states/s"), std::string::npos);
}

TEST(BabylonCli, TwoColourTableAgreesWithTheTheorem) {
  const auto r = run_piles("babylon table --colors 2 --max-chips 16 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = json_lines(r.out);
  ASSERT_EQ(rows.size(), 64u);
  for (const auto& row : rows) EXPECT_TRUE(row["theorem_agrees"].get<bool>()) << row.dump();
  EXPECT_EQ(rows.front()["counts"], nlohmann::json({1, 1}));
  EXPECT_EQ(rows.back()["counts"], nlohmann::json({8, 8}));
  EXPECT_EQ(rows.back()["winner"], "second");
}

TEST(BabylonCli, MultiColourTable) {
  const auto r = run_piles("babylon table --colors 4 --max-chips 12");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("3,3,3,3"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("theorem"), std::string::npos);  // the theorem is about two colours
  // Partitions of 4..12 into four parts: 1+1+2+3+5+6+9+11+15.
  EXPECT_NE(r.out.find("53 starts, 4 colours, up to 12 chips"), std::string::npos) << r.out;
}

TEST(BabylonCli, PlayThroughAPipe) {
  // The human goes first with 2 A and 3 B (a first-player win) and always picks move 1;
  // a bad line in between is refused and the prompt comes back.
  const auto r = run_piles("babylon play 2 3", "1\nx\n7\n1\n1\n1\n1\n1\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Play first or second?"), std::string::npos);
  EXPECT_NE(r.out.find("'x' is not a legal move"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'7' is not a legal move"), std::string::npos) << r.out;
  EXPECT_GE(count(r.out, "you: put"), 1);
  EXPECT_GE(count(r.out, "engine: put"), 1);
  EXPECT_NE(r.out.find("No moves left"), std::string::npos) << r.out;
}

TEST(BabylonCli, EngineWinsAsSecondPlayerOnATheoremStart) {
  // 3 and 5 chips: the second player (the engine) wins whatever the human does.
  std::string input;
  for (int i = 0; i < 10; ++i) input += "1\n";
  const auto game = run_piles("babylon play 3 5 --side first", input);
  ASSERT_EQ(game.status, 0) << game.err;
  EXPECT_NE(game.out.find("the engine made the last move and wins"), std::string::npos) << game.out;
  EXPECT_GE(count(game.out, "(a winning move)"), 1);
}

TEST(BabylonCli, PlayEndsCleanlyWhenInputEnds) {
  const auto r = run_piles("babylon play 3 3 3 3", "");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("input ended"), std::string::npos) << r.out;
}

TEST(BabylonCli, BadCountsExitTwo) {
  expect_usage_error("babylon solve 0 3", "'0'");
  expect_usage_error("babylon solve 3 -2", "-2");
  expect_usage_error("babylon solve 5", "at least two colours");
  expect_usage_error("babylon solve 3 x", "'x'");
  expect_usage_error("babylon solve 100 100", "200 chips");
  expect_usage_error("babylon solve 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "17 colours");
  expect_usage_error("babylon play 0 3", "'0'");
  expect_usage_error("babylon table --colors 1 --max-chips 5", "--colors");
  expect_usage_error("babylon table --colors 3 --max-chips 2", "--max-chips");
  expect_usage_error("babylon table --colors 2 --max-chips 500", "--max-chips");
  expect_usage_error("babylon solve 3 3 --backend gpu", "--backend gpu");
}
