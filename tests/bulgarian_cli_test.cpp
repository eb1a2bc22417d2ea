// analyze, graph and random through the real binary: JSON keys and values, and bad input
// answered with one line and exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "host/common/checkpoint.hpp"
#include "support/run_piles.hpp"
#include "support/temp_dir.hpp"

namespace {

using piles::testing::CliResult;
using piles::testing::run_piles;
using piles::testing::slurp;
using piles::testing::TempDir;

TEST(BulgarianCli, AnalyzeJsonHasTheContractKeys) {
  const auto r = run_piles("bulgarian analyze 10 --json --threads 2");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  for (const char* key : {"n", "partitions", "cycles", "cycle_lengths", "max_transient",
                          "max_transient_count", "garden_of_eden", "transient_histogram",
                          "conjecture_holds", "engine", "backend", "seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  // n = 10 is triangular: one fixed point, D(T_4) = 4^2 - 4 = 12, reached by 3 partitions
  // (seed 000's picture), and p(7) - p(1) = 14 partitions with no predecessor.
  EXPECT_EQ(j["partitions"], 42);
  EXPECT_EQ(j["cycles"], 1);
  EXPECT_EQ(j["cycle_lengths"]["1"], 1);
  EXPECT_EQ(j["max_transient"], 12);
  EXPECT_EQ(j["max_transient_count"], 3);
  EXPECT_EQ(j["garden_of_eden"], 14);
  EXPECT_EQ(j["conjecture_holds"], true);
  EXPECT_EQ(j["backend"], "cpu");
}

TEST(BulgarianCli, AnalyzeRangePrintsOneObjectPerN) {
  const auto r = run_piles("bulgarian analyze 6..8 --json --engine forward");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<int> ns;
  while (std::getline(lines, line)) ns.push_back(nlohmann::json::parse(line)["n"]);
  EXPECT_EQ(ns, (std::vector<int>{6, 7, 8}));
}

TEST(BulgarianCli, AnalyzeHumanOutput) {
  const auto r = run_piles("bulgarian analyze 8");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("cycles             2  (length 2: 1, length 4: 1)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("moves to cycle"), std::string::npos);
}

TEST(BulgarianCli, GraphDotAndSvg) {
  const auto dot = run_piles("bulgarian graph 6");
  ASSERT_EQ(dot.status, 0) << dot.err;
  EXPECT_NE(dot.out.find("\"(6)\" -> \"(5, 1)\""), std::string::npos);
  EXPECT_NE(dot.out.find("\"(3, 2, 1)\" [style=filled"), std::string::npos);

  const TempDir dir;
  const std::string file = dir.file("g.svg");
  const auto svg = run_piles("bulgarian graph 7 --format svg -o " + file);
  ASSERT_EQ(svg.status, 0) << svg.err;
  EXPECT_NE(slurp(file).find("<svg"), std::string::npos);
}

TEST(BulgarianCli, RandomIsReproducibleAcrossThreadCounts) {
  const std::string args = "bulgarian random 15 --p 0.3 --runs 500 --steps 80 --seed 9 --json";
  const auto a = run_piles(args + " --threads 1");
  const auto b = run_piles(args + " --threads 2");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.json()["shape_sums"], b.json()["shape_sums"]);
  EXPECT_EQ(a.json()["mean_shape"], b.json()["mean_shape"]);
  EXPECT_EQ(a.json()["triangle"], (nlohmann::json{5, 4, 3, 2, 1}));
}

TEST(BulgarianCli, RandomPastRankedSizesPlaysOnTheCpu) {
  // p = 1 is the plain game, and n = 2016 = T_63 reaches the triangle (63, ..., 1) within
  // 63^2 - 63 = 3906 moves (Igusa; Etienne): every chain ends on it.
  const auto r = run_piles("bulgarian random 2016 --p 1 --runs 3 --steps 4000 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["mean_shape"].size(), 63u);
  EXPECT_EQ(j["mean_shape"].front(), 63.0);
  EXPECT_EQ(j["distance_to_triangle"], 0.0);
}

// Every n's analysis printed, without the keys that say how long it took.
std::vector<nlohmann::json> analyses(const CliResult& r) {
  std::vector<nlohmann::json> all;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    j.erase("seconds");
    all.push_back(j);
  }
  return all;
}

// A time limit no run can meet stops every run after its first slice, so the test does not
// depend on the machine's speed: each run journals that slice, exits 3 with the line that it
// goes on past the limit to finish one and the line that it stopped, and the same command, run
// again, goes on until the range is done with the plain answer.
TEST(BulgarianCli, ATimeLimitStopsAfterASliceAndTheSameCommandResumes) {
  const std::string range = "bulgarian analyze 30..37 --chunks 2 --threads 2 --json";
  const int chunks = 8 * 2;
  const auto plain = run_piles(range);
  ASSERT_EQ(plain.status, 0) << plain.err;
  const TempDir dir;
  const std::string journal = dir.file("journal"),
                    limited = range + " --slice 1e-9 --time-limit 1e-9 --checkpoint " + journal;

  const auto stopped = run_piles(limited);
  ASSERT_EQ(stopped.status, 3) << stopped.err;
  EXPECT_EQ(stopped.err.rfind("piles: bulgarian n=30..37: past --time-limit: it stops once this "
                              "run has finished a chunk of its own\npiles: stopped: ",
                              0),
            0u)
      << stopped.err;
  EXPECT_EQ(std::count(stopped.err.begin(), stopped.err.end(), '\n'), 2) << stopped.err;
  const std::size_t first = piles::read_journal(journal).chunks.size();
  EXPECT_GT(first, 0u);
  EXPECT_LT(first, static_cast<std::size_t>(chunks));

  const auto resumed = run_piles(range + " --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(analyses(resumed), analyses(plain));

  const std::string again = dir.file("again");
  CliResult last;
  std::size_t done = 0;
  for (int run = 0; run < chunks && last.status != 0; ++run) {
    last = run_piles(range + " --slice 1e-9 --time-limit 1e-9 --checkpoint " + again);
    ASSERT_TRUE(last.status == 0 || last.status == 3) << last.err;
    const std::size_t now = piles::read_journal(again).chunks.size();
    EXPECT_GT(now, done) << "run " << run << " did not get on";
    done = now;
  }
  ASSERT_EQ(last.status, 0) << last.err;
  EXPECT_EQ(done, static_cast<std::size_t>(chunks));
  EXPECT_EQ(analyses(last), analyses(plain));
}

// A journal goes on with the chunks it was begun with where --chunks is not given; given, they
// must match.
TEST(BulgarianCli, AJournalGoesOnWithItsOwnChunks) {
  const std::string range = "bulgarian analyze 30..34 --threads 2 --json";
  const auto plain = run_piles(range);
  ASSERT_EQ(plain.status, 0) << plain.err;
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const auto stopped =
      run_piles(range + " --chunks 3 --slice 1e-9 --time-limit 1e-9 --checkpoint " + journal);
  ASSERT_EQ(stopped.status, 3) << stopped.err;

  const auto other = run_piles(range + " --chunks 64 --checkpoint " + journal);
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("chunks_per_n 3, not chunks_per_n 64"), std::string::npos) << other.err;

  const auto resumed = run_piles(range + " --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(analyses(resumed), analyses(plain));
  EXPECT_EQ(piles::read_journal(journal).chunks.size(), 5u * 3);
}

struct BadInput {
  const char* args;
  const char* named;  // the bad value the message must name
};

TEST(BulgarianCli, BadInputExitsTwoWithOneLine) {
  const BadInput cases[] = {
      {"bulgarian analyze 0", "'0'"},
      {"bulgarian analyze 256", "'256'"},
      {"bulgarian analyze ten", "'ten'"},
      {"bulgarian analyze 9..3", "'9..3'"},
      {"bulgarian analyze 10 --engine sideways", "'sideways'"},
      {"bulgarian analyze 128 --engine forward", "n = 128"},
      {"bulgarian graph 30", "n = 30"},
      {"bulgarian graph 0", "'0'"},
      {"bulgarian graph 6 --format jpg", "'jpg'"},
      {"bulgarian graph 6 --format svg -o /nonexistent/dir/g.svg", "/nonexistent/dir/g.svg"},
      {"bulgarian random 10 --p 0", "'0'"},
      {"bulgarian random 10 --p 1.5", "'1.5'"},
      {"bulgarian random 10 --p half", "'half'"},
      {"bulgarian random 10 --p 0.5 --runs 0", "'0'"},
      {"bulgarian random 10 --p 0.5 --steps -1", "'-1'"},
      {"bulgarian random 10 --p 0.5 --start 5,4", "'5,4'"},
      {"bulgarian random 0 --p 0.5", "'0'"},
      {"bulgarian random 1000 --p 0.5 --backend gpu", "416 cards"},
  };
  for (const auto& c : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(c.args), c.named)) << c.args;
}

}  // namespace
