// What a long run on a shared cluster needs, through the real binary: one writer per journal,
// status lines in a log, a refusal when an MPI launcher started piles without --mpi,
// provenance in every JSON answer and journal, and output paths that never cost an answer.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/journal_line.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using piles::testing::is_usage_error;
using piles::testing::run_piles;
using piles::testing::slurp;
using piles::testing::TempDir;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Starts piles with `args` in the background, its output thrown away.
pid_t start_piles(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    std::vector<char*> argv{const_cast<char*>("piles")};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(piles::testing::piles_binary().c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

TEST(LongRun, ASecondProcessOnTheSameJournalIsRefusedNamingTheFirst) {
  const TempDir dir;
  const std::string journal = dir.file("same.jnl");
  // n = 14 on one thread runs for many seconds: still running when the second one gives up.
  const pid_t first = start_piles(
      {"topswops", "solve", "14", "--threads", "1", "--quiet", "--checkpoint", journal});
  while (lines_of(slurp(journal)).size() < 3 && waitpid(first, nullptr, WNOHANG) == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto second = run_piles("topswops solve 14 --quiet --checkpoint " + journal);
  kill(first, SIGKILL);
  waitpid(first, nullptr, 0);
  EXPECT_TRUE(is_usage_error(second, journal + ": the journal is in use by another piles run"));
  EXPECT_NE(second.err.find("pid " + std::to_string(first) + " on "), std::string::npos)
      << second.err;
  // What the first run wrote reads whole: merge finds chunks missing, nothing damaged.
  const auto merged = run_piles("topswops merge " + journal);
  EXPECT_TRUE(is_usage_error(merged, "chunks are missing"));
}

TEST(LongRun, ALogGetsStatusLinesAndATerminalNothingElse) {
  const TempDir dir;
  const auto r =
      run_piles("topswops solve 12 --threads 1 --status-every 0.02 --checkpoint " + dir.file("j"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 2u) << r.err;
  for (const std::string& line : lines) {
    EXPECT_EQ(line.rfind("piles: topswops n=12: ", 0), 0u) << line;
    // The rate in the nodes the answer counts, though the chunks are weighed in prefixes.
    for (const char* word : {" chunks, ", " nodes/s"})
      EXPECT_NE(line.find(word), std::string::npos) << word << " in " << line;
    // An ETA while the run goes on; the line that says how it ended has none.
    EXPECT_EQ(line.find("ETA") != std::string::npos, &line != &lines.back()) << line;
  }
  // The best game so far once a chunk has one (a line written before, on a loaded machine,
  // has none yet).
  EXPECT_NE(lines.back().find(": done: 2511/2511 chunks, 100.0%"), std::string::npos)
      << lines.back();
  EXPECT_NE(lines.back().find(", best 65"), std::string::npos) << lines.back();
  // A resumed run counts from the chunks its journal holds: keep 1000 lines (998 chunks).
  std::string kept;
  const auto journal = lines_of(slurp(dir.file("j")));
  for (std::size_t i = 0; i < 1000; ++i) kept += journal[i] + "\n";
  std::ofstream(dir.file("j")) << kept;
  const auto resumed =
      run_piles("topswops solve 12 --threads 1 --status-every 0.02 --checkpoint " + dir.file("j"));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const std::string first = lines_of(resumed.err).at(0);
  const std::size_t done = std::stoul(first.substr(first.find(": ", 7) + 2));
  EXPECT_GE(done, 998u) << first;
  EXPECT_NE(first.find("/2511 chunks"), std::string::npos) << first;
  // And so does its percentage: 998 chunks of nearly equal prefixes are 39.7% of them.
  const std::size_t comma = first.find("chunks, ") + 8;
  EXPECT_GE(std::stod(first.substr(comma, first.find('%') - comma)), 39.0) << first;
  EXPECT_NE(r.out.find("longest game   65 steps"), std::string::npos) << r.out;
  for (const char* quiet : {"--quiet", "--status-every 0"}) {
    const auto q =
        run_piles(std::string("topswops solve 12 --threads 1 --status-every 0.02 ") + quiet);
    EXPECT_EQ(q.status, 0) << q.err;
    EXPECT_EQ(q.err, "") << quiet;
  }
  EXPECT_TRUE(is_usage_error(run_piles("topswops solve 8 --status-every -1"), "--status-every"));
  EXPECT_TRUE(is_usage_error(run_piles("topswops solve 8 --status-every soon"), "'soon'"));
}

// What a scheduler sends at a job's time limit, or to preempt it: the run stops at its next
// slice boundary as at --time-limit, prints what it has, exits 3, and its journal resumes.
TEST(LongRun, SigtermStopsAJournaledRunCleanly) {
  const TempDir dir;
  const std::string journal = dir.file("j");
  const std::string out = dir.file("out"), err = dir.file("err");
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen(out.c_str(), "w", stdout);
    std::freopen(err.c_str(), "w", stderr);
    execl(piles::testing::piles_binary().c_str(), "piles", "topswops", "solve", "14", "--threads",
          "1", "--slice", "0.2", "--checkpoint", journal.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  while (lines_of(slurp(journal)).size() < 300 && waitpid(pid, nullptr, WNOHANG) == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_NE(slurp(err).find("piles: stopped: SIGTERM received with "), std::string::npos)
      << slurp(err);
  EXPECT_NE(slurp(out).find("stopped        by SIGTERM with "), std::string::npos) << slurp(out);
  const auto merged = run_piles("topswops merge " + journal);
  EXPECT_TRUE(is_usage_error(merged, "chunks are missing")) << "a whole journal, resumable";
}

TEST(LongRun, AnMpiLauncherWithoutMpiIsRefusedBeforeAnyWork) {
  const TempDir dir;
  for (const char* env : {"OMPI_COMM_WORLD_SIZE=2", "PMI_SIZE=4", "SLURM_STEP_NUM_TASKS=3"}) {
    const auto r = run_piles("topswops solve 9 --checkpoint " + dir.file("j"), "", env);
    EXPECT_TRUE(is_usage_error(r, std::string("(") + env + ") but without --mpi")) << env;
    EXPECT_FALSE(std::filesystem::exists(dir.file("j"))) << "no journal before the refusal";
  }
  EXPECT_EQ(run_piles("topswops solve 9 --quiet", "", "OMPI_COMM_WORLD_SIZE=1").status, 0);
}

TEST(LongRun, EveryJsonAnswerSaysWhereAndWhatMadeIt) {
  for (const char* args :
       {"topswops solve 8 --json", "topswops play 3,1,4,5,2 --json", "bulgarian analyze 10 --json",
        "babylon solve 2 2 --json", "nim count 10 --json"}) {
    const auto r = run_piles(args);
    ASSERT_EQ(r.status, 0) << args << ": " << r.err;
    const auto j = r.json();
    for (const char* key : {"version", "commit", "host", "backend", "threads", "ranks", "devices"})
      EXPECT_TRUE(j.contains(key)) << key << " in " << args;
    EXPECT_EQ(j.at("ranks"), 1) << args;
  }
  // The commit is the checkout's, where this is one.
  FILE* git = popen("git -C " PILES_SOURCE_DIR " rev-parse --short=12 HEAD 2>/dev/null", "r");
  char head[64] = {};
  const bool read = git && std::fgets(head, sizeof head, git);
  if (git) pclose(git);
  if (read && head[0] != '\0') {
    const std::string commit = run_piles("topswops solve 5 --json").json().at("commit");
    EXPECT_EQ(commit.substr(0, 12), std::string(head, 12));
  }
}

TEST(LongRun, AJournalOfAnotherVersionResumesWhenItsProblemMatches) {
  const TempDir dir;
  const std::string journal = dir.file("j");
  ASSERT_EQ(run_piles("topswops solve 10 --quiet --checkpoint " + journal).status, 0);
  const std::string text = slurp(journal);
  const std::string version = text.substr(text.find("\"version\":"));
  std::ofstream(journal) << piles::testing::edit_journal(
      text, version.substr(0, version.find_first_of(",}")), "\"version\":\"0.0.1\"");
  ASSERT_NE(slurp(journal).find("\"version\":\"0.0.1\""), std::string::npos);
  const auto r = run_piles("topswops solve 10 --json --checkpoint " + journal);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json().at("chunks_resumed"), r.json().at("chunks"));
  EXPECT_EQ(r.json().at("max_steps"), 38);  // f(10), OEIS A000375
}

TEST(LongRun, APictureThatCannotBeDrawnCostsOnlyItself) {
  const TempDir dir;
  const std::string args = "bulgarian random 30 --p 0.5 --runs 10 --steps 10 --threads 1 --plot ";
  // A path that cannot be written is refused before the run.
  EXPECT_TRUE(is_usage_error(run_piles(args + "/nonexistent/x.svg"), "/nonexistent/x.svg"));
  // gnuplot failing after the run: the answer is out, then one line names the path.
  std::ofstream(dir.file("gnuplot")) << "#!/bin/sh\necho 'broken gnuplot' >&2\nexit 1\n";
  std::filesystem::permissions(dir.file("gnuplot"), std::filesystem::perms::owner_all);
  const auto broken =
      run_piles(args + dir.file("x.svg"), "", "PATH=" + dir.path().string() + ":$PATH");
  EXPECT_EQ(broken.status, 2);
  EXPECT_NE(broken.out.find("mean piles"), std::string::npos) << broken.out;
  EXPECT_EQ(broken.out.find("<svg"), std::string::npos);
  EXPECT_EQ(broken.err,
            "piles: error: --plot " + dir.file("x.svg") + ": gnuplot failed: broken gnuplot\n");
  // And where gnuplot works, the picture is drawn to the file, not to stdout.
  const auto drawn = run_piles(args + dir.file("y.svg"));
  ASSERT_EQ(drawn.status, 0) << drawn.err;
  EXPECT_EQ(drawn.out.find("<svg"), std::string::npos);
  EXPECT_NE(slurp(dir.file("y.svg")).find("<svg"), std::string::npos);
}

}  // namespace
