// Time limits kept and interrupts explained: a journaled run of every job kind stops soon after
// its --time-limit or a SIGTERM, cutting short the slice in progress rather than finishing it,
// and its journal resumes to the answer of a run never stopped; a run without a journal that
// Ctrl-C or SIGTERM ends says what was lost and how to keep it. The limits and bounds are loose
// (a shared test machine is slow) but a run that finished its slice past the limit, as runs
// did before, breaks them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host/common/checkpoint.hpp"
#include "host/common/slices.hpp"
#include "host/job/driver.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using piles::testing::run_piles;
using piles::testing::slurp;
using piles::testing::TempDir;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> all;
  std::istringstream in(text);
  for (std::string w; in >> w;) all.push_back(w);
  return all;
}

struct Ended {
  int status = -1;  // the exit status, or 128 + the signal that ended it
  bool by_signal = false;
  double seconds = 0;       // from the start
  double after_signal = 0;  // from the signal, where one was sent
  std::string out, err;
};

// Runs piles with `args`; with `signal`, sends it `after` seconds from the start, or from when
// its standard error first holds `heard` where one is given, and `again` seconds later once
// more where that is given.
Ended run_timed(const std::string& args, int signal = 0, double after = 0,
                const std::string& heard = "", std::optional<double> again = std::nullopt) {
  const TempDir dir;
  const std::string out = dir.file("out"), err = dir.file("err");
  std::vector<std::string> argv_words = words(args);
  std::vector<char*> argv{const_cast<char*>("piles")};
  for (std::string& w : argv_words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string binary = piles::testing::piles_binary();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen(out.c_str(), "w", stdout);
    std::freopen(err.c_str(), "w", stderr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  Ended e;
  int status = 0;
  if (signal) {
    bool ended = false;
    auto from = start;
    bool waiting = !heard.empty();
    while ((waiting || seconds_since(from) < after) && !ended) {
      ended = waitpid(pid, &status, WNOHANG) == pid;
      if (waiting && slurp(err).find(heard) != std::string::npos) {
        waiting = false;
        from = std::chrono::steady_clock::now();
      }
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_FALSE(ended) << args << ": over before the signal";
    if (ended) return e;
    kill(pid, signal);
    if (again) {
      std::this_thread::sleep_for(std::chrono::duration<double>(*again));
      kill(pid, signal);
    }
  }
  const double signalled = seconds_since(start);
  waitpid(pid, &status, 0);
  e.seconds = seconds_since(start);
  e.after_signal = e.seconds - signalled;
  e.by_signal = WIFSIGNALED(status);
  e.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  e.out = slurp(out);
  e.err = slurp(err);
  return e;
}

// The answers printed (one JSON object a line), without the fields that say how they were
// computed.
std::vector<nlohmann::json> answers(const std::string& out) {
  std::vector<nlohmann::json> all;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = piles::testing::without_provenance(nlohmann::json::parse(line));
    for (const char* key : {"seconds", "nodes_per_second", "chunks_resumed", "states", "device",
                            "estimate", "lane_use"})
      j.erase(key);
    all.push_back(j);
  }
  return all;
}

// Seconds a stopped run may take past its limit on a shared test machine: the documented
// max(2 s, 10%), and a second more for a loaded machine's start-up and scheduling.
double allowed_past(double limit) {
  return std::max(2.0, 0.1 * limit) + 1;
}

struct Kind {
  std::string name;
  std::string run;  // a run much longer than `limit`, in chunks far shorter than it
  double limit;
};

void PrintTo(const Kind& k, std::ostream* os) {
  *os << k.name;
}

class TimeLimit : public ::testing::TestWithParam<Kind> {};

TEST_P(TimeLimit, StopsSoonAfterItAndTheJournalResumesToThePlainAnswer) {
  const Kind& k = GetParam();
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const Ended stopped = run_timed(k.run + " --json --checkpoint " + journal + " --time-limit " +
                                  std::to_string(k.limit));
  ASSERT_EQ(stopped.status, 3) << stopped.err;
  EXPECT_EQ(stopped.err.rfind("piles: stopped: time limit reached with ", 0), 0u) << stopped.err;
  EXPECT_LE(stopped.seconds, k.limit + allowed_past(k.limit)) << stopped.err;
  const std::size_t kept = piles::read_journal(journal).chunks.size();
  EXPECT_GT(kept, 0u);

  const auto resumed = run_piles(k.run + " --json --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  // Uninterrupted, in a journal of its own (tail keeps its games only there).
  const auto plain = run_piles(k.run + " --json --checkpoint " + dir.file("plain"));
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(answers(resumed.out), answers(plain.out));
}

// Each at least four times its limit on two threads of an idle 2-core machine (13.5 s for the
// lockstep engine, about 12 s for the range), so a faster machine still stops it, in chunks of well
// under a second: a Topswops search, on the CPU engine and on the lockstep engine (whose warps
// share a slice's chunks, each handed over once its last piece is done, so a slice cut short keeps
// them), its tail, a Bulgarian range, a Babylon table (a chunk a start: its largest chip total,
// 26 chips in four colours, is about 10 s of one thread, which a chunk a total waited for).
INSTANTIATE_TEST_SUITE_P(
    EveryJobKind, TimeLimit,
    ::testing::Values(
        Kind{"topswops_solve", "--threads 2 topswops solve 14", 4},
        Kind{"topswops_lockstep", "--threads 2 topswops solve 13 --engine lockstep", 3},
        Kind{"topswops_tail", "--threads 2 topswops tail 14", 4},
        Kind{"bulgarian_range", "--threads 2 bulgarian analyze 84..104", 3},
        Kind{"babylon_table", "--threads 2 babylon table --colours 4 --max-chips 26", 3}),
    [](const auto& info) { return info.param.name; });

TEST(Sigterm, StopsAJournaledRunSoonAndItResumes) {
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const Ended e =
      run_timed("--threads 2 topswops solve 14 --json --checkpoint " + journal, SIGTERM, 3);
  ASSERT_FALSE(e.by_signal) << e.err;
  EXPECT_EQ(e.status, 3) << e.err;
  EXPECT_LE(e.after_signal, allowed_past(0)) << e.err;
  EXPECT_EQ(e.err.rfind("piles: stopped: SIGTERM received with ", 0), 0u) << e.err;
  const nlohmann::json partial = nlohmann::json::parse(e.out);
  EXPECT_TRUE(partial.at("stopped").get<bool>());
  EXPECT_EQ(partial.at("chunks_done").get<std::size_t>(),
            piles::read_journal(journal).chunks.size());
  const auto resumed = run_piles("--threads 2 topswops solve 14 --json --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(resumed.json().at("max_steps"), 101);  // f(14), OEIS A000375
}

// `timeout -s TERM` signals its command and then the command's process group: a SIGTERM
// repeated within a second is the same request, and the run still stops cleanly.
TEST(Sigterm, SentTwiceAtOnceStillStopsCleanly) {
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const Ended e =
      run_timed("--threads 2 topswops solve 14 --checkpoint " + journal, SIGTERM, 2, "", 0.005);
  ASSERT_FALSE(e.by_signal) << e.err;
  EXPECT_EQ(e.status, 3) << e.err;
  EXPECT_NE(e.err.find("piles: stopped: SIGTERM received with "), std::string::npos) << e.err;
}

// A Babylon table's first slice holds its largest chip totals (4 colours, 30 chips: a minute
// of one thread), which SIGTERM cuts within a start. That a stopped table resumes to the plain
// one is job_test's.
TEST(Sigterm, CutsABabylonTablesFirstSlice) {
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const Ended e = run_timed(
      "--threads 2 babylon table --colours 4 --max-chips 30 --json --checkpoint " + journal,
      SIGTERM, 1);
  ASSERT_FALSE(e.by_signal) << e.err;
  EXPECT_EQ(e.status, 3) << e.err;
  EXPECT_LE(e.after_signal, allowed_past(0)) << e.err;
  EXPECT_EQ(e.err.rfind("piles: stopped: SIGTERM received with ", 0), 0u) << e.err;
}

// From 17 cards on, a solve told no bound first spends a minute on a quick search for a long
// game to start from: SIGTERM ends it at once, and the run stops before its first chunk with
// the game found so far in the journal, saying that the search was cut short, which the journal
// keeps too. The signal comes 5 s into the quick search, which beats f(16) in its first 0.1 s
// on an idle machine: a run under the sanitizers, beside other tests, needs more than that.
TEST(Sigterm, CutsTheQuickSearchAndKeepsItsGame) {
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const Ended e = run_timed("--threads 2 topswops solve 17 --json --checkpoint " + journal, SIGTERM,
                            5, "a quick search for a long game to start from");
  ASSERT_FALSE(e.by_signal) << e.err;
  EXPECT_EQ(e.status, 3) << e.err;
  EXPECT_LE(e.after_signal, allowed_past(0)) << e.err;
  EXPECT_NE(e.err.find(", the search cut short by SIGTERM), against 139 for f(16)\n"),
            std::string::npos)
      << e.err;
  const nlohmann::json partial = nlohmann::json::parse(e.out);
  EXPECT_EQ(partial.at("quick_search_cut_by"), "SIGTERM");
  EXPECT_EQ(partial.at("start_from"), "quick search");
  const nlohmann::json problem = piles::read_journal(journal).problem;
  EXPECT_EQ(problem.at("start_deck"), partial.at("start_deck"));
  EXPECT_EQ(problem.at("start_target"), partial.at("start_target"));
  // Kept beside the game, for the runs that resume it (topswops_quick_start_test resumes one).
  EXPECT_EQ(problem.at("quick_search_cut_by"), "SIGTERM");
}

// Ctrl-C and SIGTERM end a run without a journal at once, by the signal (a shell's status 130
// or 143), after one line saying how long it ran, that nothing was kept and how to keep it.
TEST(Interrupt, ARunWithoutAJournalSaysWhatWasLostAndHowToKeepIt) {
  for (const int signal : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(signal == SIGINT ? "SIGINT" : "SIGTERM");
    const Ended e = run_timed("--threads 1 topswops solve 15", signal, 1.5);
    EXPECT_TRUE(e.by_signal);
    EXPECT_EQ(e.status, 128 + signal);
    EXPECT_LE(e.after_signal, 1.0);
    EXPECT_EQ(e.out, "");
    const std::string line = e.err.substr(e.err.rfind("piles: "));
    EXPECT_EQ(line.rfind("piles: interrupted after ", 0), 0u) << e.err;
    EXPECT_NE(line.find(" s; nothing was kept (run with --checkpoint FILE to keep finished work "
                        "and resume)\n"),
              std::string::npos)
        << line;
    const double seconds = std::stod(line.substr(std::string("piles: interrupted after ").size()));
    EXPECT_GE(seconds, 1.0);
    EXPECT_LE(seconds, e.seconds + 0.1);
  }
}

// A journaled run that Ctrl-C ends names the journal that keeps its finished chunks.
TEST(Interrupt, ARunWithAJournalSaysWhereItsChunksAre) {
  const TempDir dir;
  const std::string journal = dir.file("journal");
  const Ended e = run_timed("--threads 1 topswops solve 15 --checkpoint " + journal, SIGINT, 2);
  EXPECT_TRUE(e.by_signal);
  EXPECT_EQ(e.status, 128 + SIGINT);
  EXPECT_NE(e.err.find(" s; the chunks finished are in " + journal +
                       " and the ones in progress were lost (run the same command to resume)\n"),
            std::string::npos)
      << e.err;
}

// The driver with a stand-in engine that asks `cancel` before each chunk: a slice that would
// run past the time limit is cut short, its finished chunks kept, and the run reports the stop.
TEST(JobCancel, ASliceRunningPastTheLimitIsCutShortKeepingItsFinishedChunks) {
  const TempDir dir;
  piles::job::Job job;
  job.identity = {{"game", "cancel test"}};
  job.chunk_count = 400;
  job.rounds = {{}};
  for (piles::job::Chunk c = 0; c < job.chunk_count; ++c) job.rounds[0].push_back(c);
  job.weight = [](piles::job::Chunk) { return std::uint64_t{1}; };
  // One slice holds every chunk: before, it ran to its end whatever the limit.
  job.slice_floor = [](const piles::RunTarget&) { return std::uint64_t{400}; };
  job.check = [](piles::job::Chunk, const nlohmann::json&, const std::string&) {};
  std::atomic<int> ran = 0;
  job.run = [&ran](const std::vector<piles::job::Chunk>& chunks, int, const piles::RunTarget&,
                   const piles::job::ChunkDone& done, const piles::UnitsDone&,
                   const piles::Cancel& cancel) {
    for (piles::job::Chunk c : chunks) {
      if (piles::cancelled(cancel)) throw piles::Cancelled();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      ++ran;
      done(c, {{"chunk", c}}, 0.005);
    }
  };
  piles::job::Options options;
  options.quiet = true;
  options.checkpoint = dir.file("journal");
  options.time_limit = 0.1;
  const auto out = piles::job::run(job, options, piles::RunTarget{});
  EXPECT_TRUE(out.status.stopped);
  EXPECT_EQ(out.status.stopped_by, "--time-limit");
  EXPECT_GT(ran.load(), 0);
  EXPECT_LT(ran.load(), 400);
  EXPECT_EQ(out.records.size(), static_cast<std::size_t>(ran.load()));
  EXPECT_EQ(piles::read_journal(options.checkpoint).chunks.size(),
            static_cast<std::size_t>(ran.load()));
}

// However short the limit, a run stops only once it has finished a chunk of its own, so the
// same command run again always gets on.
TEST(JobCancel, ARunPastItsLimitStillFinishesOneChunk) {
  const TempDir dir;
  piles::job::Job job;
  job.identity = {{"game", "cancel test"}};
  job.chunk_count = 10;
  job.rounds = {{}};
  for (piles::job::Chunk c = 0; c < job.chunk_count; ++c) job.rounds[0].push_back(c);
  job.weight = [](piles::job::Chunk) { return std::uint64_t{1}; };
  job.slice_floor = [](const piles::RunTarget&) { return std::uint64_t{10}; };
  job.check = [](piles::job::Chunk, const nlohmann::json&, const std::string&) {};
  job.run = [](const std::vector<piles::job::Chunk>& chunks, int, const piles::RunTarget&,
               const piles::job::ChunkDone& done, const piles::UnitsDone&,
               const piles::Cancel& cancel) {
    for (piles::job::Chunk c : chunks) {
      if (piles::cancelled(cancel)) throw piles::Cancelled();
      done(c, {{"chunk", c}}, 0);
    }
  };
  piles::job::Options options;
  options.quiet = true;
  options.checkpoint = dir.file("journal");
  options.time_limit = 1e-9;
  options.started -= 10;  // long past it before the first chunk
  const auto out = piles::job::run(job, options, piles::RunTarget{});
  EXPECT_TRUE(out.status.stopped);
  EXPECT_EQ(out.records.size(), 1u);
}

}  // namespace
