// The progress bar's line and the status lines of the commands that can run long.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "host/common/checkpoint.hpp"
#include "host/common/progress.hpp"
#include "host/job/driver.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

using piles::bar_line;
using piles::human_percent;
using piles::pace;
using piles::Pace;
using piles::testing::run_piles;
using piles::testing::TempDir;

TEST(ProgressBar, NeverReachesTheLastColumn) {
  const std::string status =
      "12/4096 chunks, 42.2%, 184.4k nodes/s, 0m01s elapsed, ETA 0m01s, best 80, device 0 "
      "1.2e+09 nodes/s, device 1 1.1e+09 nodes/s";
  for (const std::string label : {"topswops n=13", "a label far longer than any command's"})
    for (int columns = 1; columns <= 200; ++columns)
      for (const double fraction : {-1.0, 0.0, 0.5, 1.0}) {
        const std::string line = bar_line(label, fraction, status, columns);
        EXPECT_LE(static_cast<int>(line.size()), std::max(1, columns - 1))
            << columns << ": " << line;
        EXPECT_EQ(line.find('\n'), std::string::npos);
      }
}

TEST(ProgressBar, ShowsTheShareDoneAndFitsEighty) {
  // 80 columns: the bar narrows to keep the status whole.
  const std::string status = "1727/4096 chunks, 42.2%, 184.4k nodes/s, ETA 0m01s";
  const std::string line = bar_line("topswops n=13", 0.5, status, 80);
  EXPECT_EQ(line.size(), 79u);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(line, m, std::regex(R"(\[(#*)(\.*)\] )"))) << line;
  EXPECT_GE(m[1].length() + m[2].length(), 10) << line;
  EXPECT_LT(m[1].length() + m[2].length(), 30) << line;
  EXPECT_EQ(m[1].length(), (m[1].length() + m[2].length()) / 2) << line;
  EXPECT_EQ(line.substr(line.size() - status.size()), status);
  // A wide terminal: the bar at its widest, 30 columns, with nothing cut.
  const std::string wide = bar_line("topswops n=13", 1.0, status, 200);
  EXPECT_NE(wide.find("[" + std::string(30, '#') + "] " + status), std::string::npos) << wide;
  // No room for a bar of 10 columns: the status alone, whole while it fits.
  const std::string longer = status + ", device 0 1.2e+09 nodes/s";
  EXPECT_EQ(bar_line("topswops n=13", 0.5, longer, 100), "topswops n=13: " + longer);
  // Work of unknown size: no bar at all.
  EXPECT_EQ(bar_line("bulgarian trace", -1, "3.4G moves", 80), "bulgarian trace: 3.4G moves");
}

// A share below one percent keeps two significant digits: at 18 cards on two CPU threads the
// first percent of the search is hours away.
TEST(StatusLines, ASmallShareShowsItsDigits) {
  EXPECT_EQ(human_percent(0.422), "42.2%");
  EXPECT_EQ(human_percent(1.0), "100.0%");
  EXPECT_EQ(human_percent(0.0), "0.0%");
  EXPECT_EQ(human_percent(0.0095), "0.95%");
  EXPECT_EQ(human_percent(0.00997), "1.0%");
  EXPECT_EQ(human_percent(0.000237), "0.024%");
  EXPECT_EQ(human_percent(0.0000087), "0.0009%");
  EXPECT_EQ(human_percent(1e-9), "0.0000%");
}

TEST(StatusLines, DurationsReadAtAGlance) {
  EXPECT_EQ(piles::human_seconds(0), "0m00s");
  EXPECT_EQ(piles::human_seconds(307), "5m07s");
  EXPECT_EQ(piles::human_seconds(31 * 3600 + 2 * 60 + 59), "31h02m");
  EXPECT_EQ(piles::human_seconds(2 * 86400 - 1), "47h59m");
  EXPECT_EQ(piles::human_seconds(306 * 3600 + 47 * 60), "12d18h");
  EXPECT_EQ(piles::human_seconds(-1), "?");
}

TEST(ProgressBar, WidthFromColumnsWhereStderrIsNoTerminal) {
  if (isatty(STDERR_FILENO)) GTEST_SKIP() << "stderr is a terminal: its own width wins";
  const char* before = std::getenv("COLUMNS");
  const std::string saved = before ? before : "";
  setenv("COLUMNS", "132", 1);
  EXPECT_EQ(piles::terminal_columns(), 132);
  setenv("COLUMNS", "wide", 1);
  EXPECT_EQ(piles::terminal_columns(), 80);
  unsetenv("COLUMNS");
  EXPECT_EQ(piles::terminal_columns(), 80);
  if (before) setenv("COLUMNS", saved.c_str(), 1);
}

// A status line of `label` with a rate in `unit` per second, e.g.
// "piles: nim count 700: 41.3%, 1.2G cells/s, 0m01s elapsed, ETA 0m01s".
bool has_status_line(const std::string& err, const std::string& label, const std::string& unit) {
  return std::regex_search(err, std::regex("(^|\n)piles: " + label + ": [^\n]* " + unit +
                                           "/s, [0-9]+m[0-9]{2}s elapsed"));
}

TEST(StatusLines, TraceCountsMoves) {
  // Some 7 * 10^7 moves: long enough for a line every tenth of a second.
  const auto r = run_piles("bulgarian trace 30000000 --status-every 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has_status_line(r.err, "bulgarian trace", "moves")) << r.err;
  EXPECT_NE(r.err.find("piles: bulgarian trace: done: "), std::string::npos) << r.err;
  // Work of unknown size: neither a share nor an ETA.
  EXPECT_EQ(r.err.find('%'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ETA"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("n = 30,000,000"), std::string::npos) << r.out;
  const auto quiet = run_piles("bulgarian trace 30000000 --status-every 0.1 --quiet");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

TEST(StatusLines, BabylonSolveCountsStates) {
  const auto r = run_piles("babylon solve 9 9 9 --threads 1 --status-every 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has_status_line(r.err, "babylon solve 9 9 9", "states")) << r.err;
  // The last line counts every state the answer does.
  const auto json = run_piles("babylon solve 9 9 9 --threads 1 --status-every 0.1 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  double states = json.json()["states"].get<double>();
  const char* suffix[] = {"", "k", "M", "G"};
  int i = 0;
  for (; states >= 1000 && i < 3; ++i) states /= 1000;
  const std::string done =
      fmt::format("babylon solve 9 9 9: done: {:.1f}{} states, ", states, suffix[i]);
  EXPECT_NE(json.err.find(done), std::string::npos) << done << "\n" << json.err;
}

TEST(StatusLines, NimCountHasAnEta) {
  const auto r = run_piles("nim count 700 --threads 1 --status-every 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has_status_line(r.err, "nim count 700", "cells")) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"([0-9.]+%, [^\n]*, ETA [0-9]+m[0-9]{2}s)")))
      << r.err;
  EXPECT_NE(r.err.find("piles: nim count 700: done: 100.0%"), std::string::npos) << r.err;
}

// A chunk of a Bulgarian n can hold minutes of its forest (here half of it, in one of two): the
// status lines count the partitions walked inside a chunk, and a resumed run starts from the
// partitions its journal's chunks hold, not from their number.
TEST(StatusLines, BulgarianRangeCountsPartitionsInsideAChunk) {
  const TempDir dir;
  const std::string run = "bulgarian analyze 95 --engine backward --chunks 2 --threads 1 " +
                          std::string("--checkpoint ") + dir.file("j");
  const auto first = run_piles(run + " --status-every 0.05 --time-limit 0.01");
  ASSERT_EQ(first.status, 3) << first.err;
  EXPECT_TRUE(std::regex_search(first.err, std::regex(R"(: 0/2 chunks, [1-9][0-9]?\.[0-9]%, )")))
      << first.err;
  // What the journal's chunks hold, of p(95) = 104,651,419 (OEIS A000041).
  std::uint64_t walked = 0;
  for (const auto& [c, chunk] : piles::read_journal(dir.file("j")).chunks)
    for (const auto& count : chunk.at("histogram")) walked += count.get<std::uint64_t>();
  const double share = 100.0 * static_cast<double>(walked) / 104651419;
  EXPECT_GT(share, 30);
  const auto resumed = run_piles(run + " --status-every 0.01");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(resumed.err, m,
                                std::regex(R"(bulgarian n=95: [0-9]+/2 chunks, ([0-9.]+)%)")))
      << resumed.err;
  EXPECT_GE(std::stod(m[1]), share - 0.1) << resumed.err;
  EXPECT_NE(resumed.err.find("done: 2/2 chunks, 100.0%"), std::string::npos) << resumed.err;
}

// A Topswops round can be one chunk of minutes (the first of n = 18 on CPU threads): the status
// lines count the nodes searched inside it, against the estimate, rather than standing at 0
// until it ends; a run past its time limit says why it goes on; and the whole run ends at 100%.
TEST(StatusLines, TopswopsCountsNodesInsideAChunk) {
  const TempDir dir;
  const std::string run =
      "--threads 1 --status-every 0.02 topswops solve 15 --checkpoint " + dir.file("j");
  const auto first = run_piles(run + " --time-limit 0.01");
  ASSERT_EQ(first.status, 3) << first.err;
  EXPECT_TRUE(std::regex_search(
      first.err, std::regex(R"(n=15: 0/4096 chunks, [0-9.]+%, [1-9][0-9.]*[kMG]? nodes/s, )")))
      << first.err;
  EXPECT_NE(first.err.find("past --time-limit: it stops once this run has finished a chunk"),
            std::string::npos)
      << first.err;
  const auto rest =
      run_piles("--threads 2 --status-every 0.5 topswops solve 14 --checkpoint " + dir.file("k"));
  ASSERT_EQ(rest.status, 0) << rest.err;
  EXPECT_NE(rest.err.find("done: 4096/4096 chunks, 100.0%"), std::string::npos) << rest.err;
}

// A job whose weights estimate its chunks at its start target, which a higher target makes
// lighter: each round whose target rose weighs the chunks left again before it runs (the
// driver asks the game), and the share and the ETA follow the new weights, to 100% at the end.
TEST(StatusLines, TheChunksLeftAreWeighedAgainWhenTheTargetRises) {
  using piles::job::Chunk;
  const TempDir dir;
  piles::job::Job job;
  job.identity = {{"game", "retarget test"}};
  job.chunk_count = 8;
  job.rounds = {{0}, {1, 2}, {3, 4, 5, 6, 7}};
  job.start_target = 10;
  job.raise = [](int target, const nlohmann::json& payload) {
    return std::max(target, payload.at("best").get<int>());
  };
  // Chunk 0 finds 12, chunk 2 finds 15: rounds from 10, 12 and 15.
  const std::map<Chunk, int> best = {{0, 12}, {2, 15}};
  std::map<Chunk, std::uint64_t> weight;
  for (Chunk c = 0; c < 8; ++c) weight[c] = 1000;
  job.weight = [&](Chunk c) { return weight.at(c); };
  int floors_asked = 0;
  job.slice_floor = [&](const piles::RunTarget&) {
    ++floors_asked;
    return std::uint64_t{1};
  };
  job.label = "retarget";
  job.unit = "nodes";
  job.check = [](Chunk, const nlohmann::json&, const std::string&) {};
  std::vector<std::pair<int, std::vector<Chunk>>> asked;
  job.retarget = [&](int target, const std::vector<Chunk>& left,
                     const piles::RunTarget&) -> std::optional<std::string> {
    asked.emplace_back(target, left);
    if (target == 10) return std::nullopt;
    for (Chunk c : left) weight[c] = 100;
    return fmt::format("target {}: weighed again", target);
  };
  job.run = [&](const std::vector<Chunk>& chunks, int, const piles::RunTarget&,
                const piles::job::ChunkDone& done, const piles::UnitsDone&, const piles::Cancel&) {
    for (Chunk c : chunks) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      done(c, {{"best", best.contains(c) ? best.at(c) : 0}}, 0.03);
    }
  };
  piles::job::Options options;
  options.checkpoint = dir.file("journal");
  options.status_every = 0.01;
  ::testing::internal::CaptureStderr();
  piles::job::run(job, options, piles::RunTarget{});
  const std::string err = ::testing::internal::GetCapturedStderr();
  using Asked = std::vector<std::pair<int, std::vector<Chunk>>>;
  EXPECT_EQ(
      asked,
      (Asked{{10, {0, 1, 2, 3, 4, 5, 6, 7}}, {12, {1, 2, 3, 4, 5, 6, 7}}, {15, {3, 4, 5, 6, 7}}}));
  EXPECT_NE(err.find("piles: retarget: target 12: weighed again\n"), std::string::npos) << err;
  EXPECT_NE(err.find("piles: retarget: target 15: weighed again\n"), std::string::npos) << err;
  EXPECT_EQ(floors_asked, 3);  // at the start, and after each of the two lines (in new units)
  EXPECT_NE(err.find("done: 8/8 chunks, 100.0%"), std::string::npos) << err;
  // After round 0 the run's units are chunk 0's 1000 and 100 for each chunk left, so the last
  // round shows 1200 to 1600 of 1700 (70.6% to 94.1%) where the weights it began with showed 3
  // to 7 of 8 chunks (37.5% to 87.5%).
  for (const char* old_share : {"37.5%", "50.0%", "62.5%", "75.0%", "87.5%"})
    EXPECT_EQ(err.find(old_share), std::string::npos) << old_share << "\n" << err;
  EXPECT_TRUE(std::regex_search(err, std::regex(R"(, (70\.6|76\.5|82\.4|88\.2|94\.1)%, )"))) << err;
}

// A shard of the same run cannot know beforehand how much of each n its chunks hold (shard 0 has
// the heavy first chunk): its share counts chunk weights, never 100% before it is done.
TEST(StatusLines, ABulgarianShardNeverClaimsToBeDoneEarly) {
  const TempDir dir;
  const auto r = run_piles(
      "bulgarian analyze 95 --engine backward --chunks 32 --threads 1 --shard 0/2 "
      "--status-every 0.05 --checkpoint " +
      dir.file("j"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex line(R"(piles: bulgarian n=95: ([0-9]+)/16 chunks, ([0-9.]+)%)");
  int lines = 0;
  for (std::sregex_iterator it(r.err.begin(), r.err.end(), line), end; it != end; ++it) {
    ++lines;
    if ((*it)[1] != "16") EXPECT_LT(std::stod((*it)[2]), 100) << it->str();
  }
  EXPECT_GT(lines, 1) << r.err;
}

// Chunks weighed by estimates can take more than the whole was estimated at: with chunks left,
// the lines say so instead of "100.0%, ETA 0m00s".
TEST(StatusLines, WorkPastItsEstimateSaysSo) {
  piles::Progress progress("test", 100, "nodes", 4, {.status_every = 0.01, .lines_only = true});
  ::testing::internal::CaptureStderr();
  progress.add(80, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  progress.add(40, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  progress.finish();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("1/4 chunks, 80.0%"), std::string::npos) << err;
  EXPECT_NE(err.find("2/4 chunks, 120.0%"), std::string::npos) << err;
  EXPECT_NE(err.find("ETA unknown (past the estimate)"), std::string::npos) << err;
  EXPECT_EQ(err.find("ETA 0m00s", err.find("120.0%")), std::string::npos) << err;
  EXPECT_NE(err.find("done: 2/4 chunks, 120.0%"), std::string::npos) << err;
}

// A GPU slice reports its nodes when it ends: 25% done 10 s in, then nothing for 10 s more.
TEST(Pace, DoesNotSagBetweenLumpsOfWork) {
  const Pace p = pace(1000, 0.25, 20, 10);
  EXPECT_DOUBLE_EQ(p.rate, 100);  // not 1000 / 20
  ASSERT_TRUE(p.seconds_left);
  EXPECT_DOUBLE_EQ(*p.seconds_left, 20);  // 30 s left at 10 s, counted down; not 60
}

TEST(Pace, CountsDownToZeroAndNoFurther) {
  EXPECT_DOUBLE_EQ(*pace(1000, 0.5, 100, 10).seconds_left, 0);
  EXPECT_DOUBLE_EQ(*pace(1000, 0.5, 10, 10).seconds_left, 10);
}

TEST(Pace, NothingToSayBeforeWorkOrOfWorkOfUnknownSize) {
  EXPECT_FALSE(pace(0, 0, 5, 0).seconds_left);
  EXPECT_DOUBLE_EQ(pace(0, 0, 5, 0).rate, 0);
  const Pace unknown = pace(500, -1, 5, 5);
  EXPECT_DOUBLE_EQ(unknown.rate, 100);
  EXPECT_FALSE(unknown.seconds_left);
}
