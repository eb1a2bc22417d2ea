#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "host/bulgarian/range_job.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/plan.hpp"
#include "tests/support/journal_line.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/targets.hpp"

using piles::testing::run_piles;

namespace {

// Every line of --json output, without the fields that say how and how fast it ran.
std::vector<nlohmann::json> answers(const std::string& out) {
  std::vector<nlohmann::json> all;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    auto j = piles::testing::without_provenance(nlohmann::json::parse(line));
    for (const char* key : {"seconds", "threads", "nodes_per_second", "device", "backend",
                            "chunks_resumed", "engine"})
      j.erase(key);
    all.push_back(j);
  }
  return all;
}

std::size_t line_count(const std::filesystem::path& file) {
  std::ifstream in(file);
  return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + std::to_string(getpid()))).string();
}

// Starts `command` in a process group of its own, so that the whole job can be killed.
pid_t spawn(const std::string& command) {
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Kills the job started by spawn once its journal holds `lines` lines; false if it ended first.
bool kill_when_journal_has(pid_t pid, const std::string& journal, std::size_t lines) {
  for (int i = 0; i < 6000; ++i) {
    if (std::filesystem::exists(journal) && line_count(journal) >= lines) {
      kill(-pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      return true;
    }
    if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(-pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return false;
}

class Mpi : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef PILES_HAVE_MPI
    GTEST_SKIP() << "this build has no MPI";
#endif
    if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun";
    // CI runs as root, which Open MPI refuses unless told.
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
  static std::string mpirun(int ranks, const std::string& args) {
    return "mpirun --oversubscribe -np " + std::to_string(ranks) + " " + PILES_BINARY + " " + args;
  }
  static piles::testing::CliResult run_mpi(int ranks, const std::string& args) {
    const std::string out = temp_path("piles_mpi_out"), err = temp_path("piles_mpi_err");
    piles::testing::CliResult r;
    const int raw = std::system((mpirun(ranks, args) + " >" + out + " 2>" + err).c_str());
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = piles::testing::slurp(out);
    r.err = piles::testing::slurp(err);
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
  }
};

}  // namespace

TEST_F(Mpi, BulgarianRangeOnThreeRanksEqualsOneProcess) {
  const auto one = run_piles("bulgarian analyze 20..45 --json --quiet");
  ASSERT_EQ(one.status, 0) << one.err;
  const auto three = run_mpi(3, "bulgarian analyze 20..45 --mpi --json --quiet --threads 1");
  ASSERT_EQ(three.status, 0) << three.err;
  EXPECT_EQ(answers(three.out), answers(one.out));
}

TEST_F(Mpi, BulgarianJobKilledAndRestartedResumesAndAgrees) {
  const std::string journal = temp_path("piles_mpi_bulgarian_journal");
  std::filesystem::remove(journal);
  const std::string args =
      "bulgarian analyze 60..75 --mpi --json --quiet --threads 1 --chunks 16 --checkpoint " +
      journal;
  const pid_t job = spawn(mpirun(3, args) + " >/dev/null 2>&1");
  ASSERT_TRUE(kill_when_journal_has(job, journal, 40)) << "the job ended before it was killed";
  const auto resumed = run_mpi(3, args);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto one = run_piles("bulgarian analyze 60..75 --json --quiet");
  EXPECT_EQ(answers(resumed.out), answers(one.out));
  std::filesystem::remove(journal);
}

// A journal begun with the forest cut level by level (as every journal before the sampled cut
// was) goes on across ranks with that cut: rank 0 reads it and tells the others, which would
// otherwise walk the sampled cut's subtrees under the same chunk numbers.
TEST_F(Mpi, RanksGoOnWithABulgarianJournalInTheCutItWasBegunWith) {
  const std::string journal = temp_path("piles_mpi_levels_journal");
  std::filesystem::remove(journal);
  piles::bulgarian::RangeRun begun;
  begun.range = {60, 64};
  begun.chunks_per_n = 8;
  begun.split = piles::bulgarian::ForestSplit::levels;
  begun.run.checkpoint = journal;
  begun.run.quiet = true;
  begun.run.shard = piles::job::parse_shard("0/2", 2);
  piles::bulgarian::analyze_range(begun, piles::testing::cpu(),
                                  [](const piles::bulgarian::Analysis&) {});
  const auto resumed = run_mpi(
      3, "bulgarian analyze 60..64 --mpi --json --quiet --threads 1 --chunks 8 --checkpoint " +
             journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto one = run_piles("bulgarian analyze 60..64 --json --quiet");
  EXPECT_EQ(answers(resumed.out), answers(one.out));
  std::filesystem::remove(journal);
}

TEST_F(Mpi, BabylonTableOnThreeRanksEqualsOneProcess) {
  const std::string args = "babylon table --colors 2 --max-chips 24 --json";
  const auto one = run_piles(args);
  ASSERT_EQ(one.status, 0) << one.err;
  const auto three = run_mpi(3, args + " --mpi --threads 1");
  ASSERT_EQ(three.status, 0) << three.err;
  auto winners = [](const std::vector<nlohmann::json>& rows) {
    std::vector<nlohmann::json> w;
    for (nlohmann::json r : rows) {
      r.erase("states");  // positions searched depend on what each rank's memo held
      w.push_back(r);
    }
    return w;
  };
  EXPECT_EQ(winners(answers(three.out)), winners(answers(one.out)));
}

// Rank 0 refusing a journal another run holds ends the job with its one line, instead of
// leaving the other ranks waiting for it.
TEST_F(Mpi, AJournalInUseEndsTheJobInsteadOfHangingIt) {
  const std::string journal = temp_path("piles_mpi_held_journal");
  std::filesystem::remove(journal);
  const pid_t holder =
      spawn(std::string(PILES_BINARY) + " topswops solve 14 --threads 1 --quiet --checkpoint " +
            journal + " >/dev/null 2>&1");
  while (line_count(journal) < 3 && waitpid(holder, nullptr, WNOHANG) == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto r = run_mpi(2, "topswops solve 14 --mpi --threads 1 --checkpoint " + journal);
  kill(-holder, SIGKILL);
  waitpid(holder, nullptr, 0);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("the journal is in use by another piles run"), std::string::npos) << r.err;
  std::filesystem::remove(journal);
}

TEST_F(Mpi, TheTextAnswerNamesTheRanks) {
  const auto three = run_mpi(3, "topswops solve 9 --mpi --threads 1");
  ASSERT_EQ(three.status, 0) << three.err;
  EXPECT_NE(three.out.find("cpu, 3 MPI ranks of 1 thread"), std::string::npos) << three.out;
  const auto table = run_mpi(3, "babylon table --colors 2 --max-chips 8 --mpi --threads 1");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find(" s on 3 MPI ranks of 1 thread; "), std::string::npos) << table.out;
}

// Every rank chooses the tail's start; only rank 0 shows that search in the log, as it alone
// shows the job's progress.
TEST_F(Mpi, OnlyRankZeroShowsTheTailsStart) {
  // The start's search lasts about 25 ms: a line every millisecond, so that rank 0 writes some
  // however loaded the machine (at 20 ms a loaded run once wrote none, and so no last line).
  const std::string journal = temp_path("piles_mpi_tail_journal");
  std::filesystem::remove(journal);
  const auto r =
      run_mpi(3, "topswops tail 14 --mpi --threads 1 --status-every 0.001 --checkpoint " + journal);
  std::filesystem::remove(journal);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string done = "its start, chunk 0 of the 14-card search: done: ";
  std::size_t lines = 0;
  for (std::size_t at = r.err.find(done); at != std::string::npos; at = r.err.find(done, at + 1))
    ++lines;
  EXPECT_EQ(lines, 1u) << r.err;
}

TEST_F(Mpi, TopswopsOnThreeRanksEqualsOneProcess) {
  for (const std::string args :
       {"topswops solve 10 --json", "topswops solve 11 --final sorted --json"}) {
    const auto one = run_piles(args);
    ASSERT_EQ(one.status, 0) << one.err;
    const auto three = run_mpi(3, args + " --mpi --threads 1");
    ASSERT_EQ(three.status, 0) << three.err;
    EXPECT_EQ(answers(three.out), answers(one.out)) << args;
  }
}

TEST_F(Mpi, TopswopsJobKilledAndRestartedResumesAndAgrees) {
  const std::string journal = temp_path("piles_mpi_topswops_journal");
  std::filesystem::remove(journal);
  const std::string args = "topswops solve 13 --mpi --json --threads 1 --checkpoint " + journal;
  const pid_t job = spawn(mpirun(3, args) + " >/dev/null 2>&1");
  ASSERT_TRUE(kill_when_journal_has(job, journal, 300)) << "the job ended before it was killed";
  const auto resumed = run_mpi(3, args);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto j = nlohmann::json::parse(resumed.out);
  EXPECT_GT(j["chunks_resumed"], 0);
  // f(13) = 80 with one maximal deck (OEIS A000375, A123398).
  EXPECT_EQ(j["max_steps"], 80);
  EXPECT_EQ(j["count"], 1);
  const auto one = run_piles("topswops solve 13 --json");
  EXPECT_EQ(answers(resumed.out), answers(one.out));
  std::filesystem::remove(journal);
}

// A job that takes up a journal weighs only the chunks it has left, as one process does: rank 0
// reads the journal and tells the other ranks which they are. (Its chunks weighed in nodes, the
// ranks' engines count them as they go: before the driver gave them a counter to count into,
// every estimated job under MPI, 14 cards and more, ended in std::terminate.)
TEST_F(Mpi, AResumedTopswopsJobEstimatesOnlyItsChunksLeft) {
  const std::string journal = temp_path("piles_mpi_estimate_journal"), copy = journal + ".one";
  std::filesystem::remove(journal);
  const std::string solve =
      "topswops solve 14 --final sorted --json --quiet --threads 1 --checkpoint ";
  const auto first = run_piles(solve + journal);
  ASSERT_EQ(first.status, 0) << first.err;
  // The journal cut back to its first two rounds' chunks.
  const piles::topswops::Plan plan =
      piles::topswops::make_backward_plan(14, std::nullopt, piles::topswops::backward::Prune::play);
  std::vector<bool> kept(plan.chunk_count, false);
  for (int r : {0, 1})
    for (int c : plan.chunks_of_round(r)) kept[c] = true;
  piles::testing::keep_journal_chunks(journal, [&](int c) { return kept[c]; });
  std::filesystem::copy_file(journal, copy, std::filesystem::copy_options::overwrite_existing);
  const auto one = run_piles(solve + copy);
  const auto two = run_mpi(2, solve + journal + " --mpi");
  std::filesystem::remove(journal);
  std::filesystem::remove(copy);
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(two.status, 0) << two.err;
  const auto job = nlohmann::json::parse(two.out);
  EXPECT_EQ(job.at("nodes"), first.json().at("nodes"));
  nlohmann::json e = job.at("estimate"), alone = one.json().at("estimate");
  EXPECT_EQ(e.at("part"), "left");
  EXPECT_EQ(e.at("chunks"), plan.chunk_count - std::count(kept.begin(), kept.end(), true));
  for (nlohmann::json* j : {&e, &alone}) j->erase("seconds");
  EXPECT_EQ(e, alone);
}

TEST(Checkpoint, BulgarianSingleProcessKilledAndResumedAgrees) {
  const std::string journal = temp_path("piles_bulgarian_journal");
  std::filesystem::remove(journal);
  const std::string args =
      "bulgarian analyze 60..75 --json --quiet --threads 1 --chunks 16 --checkpoint " + journal;
  const pid_t job = spawn(std::string(PILES_BINARY) + " " + args + " >/dev/null 2>&1");
  ASSERT_TRUE(kill_when_journal_has(job, journal, 40)) << "the run ended before it was killed";
  const auto resumed = run_piles(args);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto one = run_piles("bulgarian analyze 60..75 --json --quiet");
  EXPECT_EQ(answers(resumed.out), answers(one.out));
  std::filesystem::remove(journal);
}

TEST(Checkpoint, BulgarianForwardEngineCannotBeJournaled) {
  const auto r = run_piles("bulgarian analyze 10 --engine forward --checkpoint /dev/null");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("backward"), std::string::npos) << r.err;
}

#ifndef PILES_HAVE_MPI
TEST(MpiMissing, MpiFlagSaysThisBuildHasNoMpi) {
  const auto r = run_piles("bulgarian analyze 10 --mpi");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no MPI support"), std::string::npos) << r.err;
}
#endif
