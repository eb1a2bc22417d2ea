#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "host/topswops/solve.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

using piles::testing::run_piles;
using piles::testing::TempDir;

namespace {

int count_lines(const std::string& path) {
  std::ifstream in(path);
  return static_cast<int>(
      std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

// Starts `piles topswops solve 13` on one thread writing `journal`, and kills it (SIGKILL)
// once the journal holds `lines` lines. Returns false if the run ended first.
bool start_and_kill(const std::string& journal, int lines) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execl(PILES_BINARY, "piles", "topswops", "solve", "13", "--threads", "1", "--quiet",
          "--checkpoint", journal.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (count_lines(journal) < lines) {
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

nlohmann::json answer(nlohmann::json j) {
  j = piles::testing::without_provenance(j);
  for (const char* key : {"seconds", "nodes_per_second", "chunks_resumed"}) j.erase(key);
  return j;
}

}  // namespace

TEST(TopswopsCheckpoint, KilledRunResumesToTheSameAnswer) {
  const TempDir dir;
  const std::string journal = dir.file("n13.journal");

  // Past the warm-up rounds (255 chunks), well before the 4096th chunk.
  ASSERT_TRUE(start_and_kill(journal, 400)) << "the run ended before it could be killed";
  const int kept = count_lines(journal) - 2;  // its problem and run lines, then chunks
  ASSERT_LT(kept, 4096);
  // A kill in the middle of a write leaves half a line: it must be dropped, not refused.
  std::ofstream(journal, std::ios::app) << "812 {\"target\":80,\"be";

  const auto resumed = run_piles("topswops solve 13 --threads 2 --json --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_GE(resumed.json()["chunks_resumed"].get<int>(), kept);
  EXPECT_LT(resumed.json()["chunks_resumed"].get<int>(), 4096);

  const auto whole = run_piles("topswops solve 13 --threads 2 --json");
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(answer(resumed.json()), answer(whole.json()));
  EXPECT_EQ(whole.json()["max_steps"], 80);
  EXPECT_EQ(piles::read_journal(journal).chunks.size(), 4096u);

  // Started again on a finished journal, nothing is left to do.
  const auto again = run_piles("topswops solve 13 --json --checkpoint " + journal);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.json()["chunks_resumed"], 4096);
  EXPECT_EQ(answer(again.json()), answer(whole.json()));
}

namespace {

piles::topswops::Solution solve_journaled(int n, const std::string& journal) {
  piles::topswops::SolveOptions options;
  options.n = n;
  options.final = piles::topswops::Final::sorted;
  options.run.quiet = true;
  options.run.checkpoint = journal;
  piles::RunTarget target;
  target.threads = 2;
  return piles::topswops::solve(options, target);
}

}  // namespace

// What the results writer reads back from runs/: the answer once the journal is whole, nothing
// before, and a refusal for a journal of another game.
TEST(TopswopsCheckpoint, AFinishedJournalReadsBackToItsAnswer) {
  TempDir dir;
  const std::string journal = dir.file("j");
  const auto run = solve_journaled(11, journal);
  const auto read = piles::topswops::read_finished(journal);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->result.best, 51);  // the longest game on 11 cards ending sorted, OEIS A000376
  EXPECT_EQ(read->result.best, run.result.best);
  EXPECT_EQ(read->result.count, run.result.count);
  EXPECT_EQ(read->result.nodes, run.result.nodes);
  EXPECT_EQ(read->final, piles::topswops::Final::sorted);
  const int lines = count_lines(journal);
  std::ifstream in(journal);
  std::string kept, line;
  for (int i = 0; i < lines - 1 && std::getline(in, line); ++i) kept += line + "\n";
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  EXPECT_FALSE(piles::topswops::read_finished(journal).has_value());
  std::ofstream(dir.file("other")) << "problem {\"game\":\"bulgarian\"}\n";
  EXPECT_THROW(piles::topswops::read_finished(dir.file("other")), piles::UsageError);
}

namespace {
int journal_rounds(const std::string& journal) {
  std::ifstream in(journal);
  std::string word;
  nlohmann::json problem;
  in >> word >> problem;
  return problem.at("warmup_rounds").get<int>();
}
}  // namespace

// A run told no bound has rounds doubling to the end (n = 12: 2511 chunks, ten rounds of 1 to
// 512, then 1488); a shard keeps the eight short ones, and so does a journal begun with them,
// taken up by a run in one job: it finishes with the answer of the run from nothing.
TEST(TopswopsCheckpoint, AJobDoublesItsRoundsAndAJournalKeepsItsOwn) {
  const TempDir dir;
  const auto whole = run_piles("topswops solve 12 --json --checkpoint " + dir.file("whole"));
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(journal_rounds(dir.file("whole")), 10);
  const std::string journal = dir.file("shard");
  const auto shard = run_piles("topswops solve 12 --shard 0/2 --quiet --checkpoint " + journal);
  ASSERT_EQ(shard.status, 0) << shard.err;
  EXPECT_EQ(journal_rounds(journal), piles::topswops::warmup_rounds);
  const auto resumed = run_piles("topswops solve 12 --json --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(journal_rounds(journal), piles::topswops::warmup_rounds);
  for (const char* key : {"max_steps", "count", "decks"})
    EXPECT_EQ(resumed.json().at(key), whole.json().at(key)) << key;
}

// FRONTIER.md's row for a run taken from machine to machine: what its journal holds so far,
// the rounds whose chunks are all in and what the next round has finished.
TEST(TopswopsCheckpoint, AJournalUnderWayReadsBackToWhatItHolds) {
  TempDir dir;
  const std::string journal = dir.file("j");
  solve_journaled(11, journal);
  // Keep the problem and run lines and chunks 0, 1 and 2 (rounds 0 and 1) and 4 (of round 2).
  std::ifstream in(journal);
  std::string kept, line;
  int best = -1;
  while (std::getline(in, line)) {
    const std::string id = line.substr(0, line.find(' '));
    const bool chunk = !id.empty() && std::isdigit(static_cast<unsigned char>(id[0]));
    if (chunk && id != "0" && id != "1" && id != "2" && id != "4") continue;
    if (chunk) {
      const std::string payload = line.substr(id.size() + 1, line.rfind(' ') - id.size() - 1);
      best = std::max(best, nlohmann::json::parse(payload).at("best").get<int>());
    }
    kept += line + "\n";
  }
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  const piles::topswops::Solution s = piles::topswops::read_so_far(journal);
  EXPECT_EQ(s.run.chunks_done, 4);
  EXPECT_GT(s.run.chunks, 4u);
  EXPECT_EQ(s.result.best, best);
  EXPECT_GT(s.result.total_nodes(), 0u);
  EXPECT_FALSE(piles::topswops::read_finished(journal).has_value());
}
