// Every game that runs through the job driver gives the answer of a plain run after a kill -9
// and a resume, after a full disk and a resume, and after shards and a merge; a journal that
// cannot be written, or whose records are malformed, is refused with one line.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "host/common/checkpoint.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using piles::testing::CliResult;
using piles::testing::is_usage_error;
using piles::testing::run_piles;
using piles::testing::slurp;
using piles::testing::TempDir;

namespace {

struct Case {
  std::string name;
  std::vector<std::string> args;  // the run, without --checkpoint and --shard
  std::string merge;              // the game's merge command
  std::vector<std::string> how;   // keys that say how, not what (time, threads, resumption)
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

std::vector<Case> cases() {
  return {{"topswops",
           {"topswops", "solve", "13"},
           "topswops merge",
           {"seconds", "nodes_per_second", "chunks_resumed", "threads", "backend", "device"}},
          {"bulgarian",
           {"bulgarian", "analyze", "60..75"},
           "bulgarian merge",
           {"seconds", "threads", "backend", "device"}},
          {"babylon",
           {"babylon", "table", "--colors", "2", "--max-chips", "40"},
           "babylon merge",
           {"seconds", "states"}}};
}

std::string words(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += " " + a;
  return s;
}

// The answers printed (one JSON object per line), without how they were computed.
std::vector<nlohmann::json> answers(const std::string& out, const Case& c) {
  std::vector<nlohmann::json> all;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = piles::testing::without_provenance(nlohmann::json::parse(line));
    for (const std::string& key : c.how) j.erase(key);
    all.push_back(j);
  }
  return all;
}

std::vector<nlohmann::json> plain(const Case& c) {
  const auto r = run_piles(words(c.args) + " --threads 2 --json");
  EXPECT_EQ(r.status, 0) << r.err;
  return answers(r.out, c);
}

int count_lines(const std::string& path) {
  std::ifstream in(path);
  return static_cast<int>(
      std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

// Runs the case on one thread writing `journal` and sends it `signal` (SIGKILL, or SIGINT as
// Ctrl-C does) once the journal holds `chunks` chunks (after its problem and run lines). A run
// too quick to catch is cut to them afterwards instead, which is what the signal leaves (every
// line is flushed as it is written).
void kill_at(const Case& c, const std::string& journal, int chunks, int signal) {
  const int lines = chunks + 2;
  std::vector<std::string> args = c.args;
  for (const char* a : {"--threads", "1", "--quiet", "--slice", "0.01", "--checkpoint"})
    args.push_back(a);
  args.push_back(journal);
  std::vector<char*> argv{const_cast<char*>("piles")};
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execv(PILES_BINARY, argv.data());
    _exit(127);
  }
  int status = 0;
  while (count_lines(journal) < lines && waitpid(pid, &status, WNOHANG) != pid)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (kill(pid, signal) == 0) waitpid(pid, &status, 0);
  std::ifstream in(journal);
  std::string kept, line;
  for (int i = 0; i < lines && std::getline(in, line); ++i) kept += line + "\n";
  in.close();
  // A kill in the middle of a write leaves half a line: it must be dropped, not refused.
  std::ofstream(journal, std::ios::trunc) << kept << "7 {\"histo";
}

// Runs the case on two threads writing `journal`, with every file it writes limited to 2 KiB
// (RLIMIT_FSIZE, SIGXFSZ ignored): a write past the limit fails with EFBIG, as one fails with
// ENOSPC on a full disk, and no root is needed.
CliResult run_on_full_disk(const Case& c, const std::string& journal, const fs::path& dir) {
  std::vector<std::string> args = c.args;
  for (const char* a : {"--threads", "2", "--quiet", "--slice", "0.01", "--checkpoint"})
    args.push_back(a);
  args.push_back(journal);
  std::vector<char*> argv{const_cast<char*>("piles")};
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string binary = piles::testing::piles_binary();
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen(out.c_str(), "w", stdout);
    std::freopen(err.c_str(), "w", stderr);
    const rlimit limit{2048, 2048};
    setrlimit(RLIMIT_FSIZE, &limit);
    signal(SIGXFSZ, SIG_IGN);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CliResult r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Failed as bad input or while running, with one line naming the journal.
::testing::AssertionResult is_one_line_error(const CliResult& r, const std::string& journal) {
  if (r.status != 1 && r.status != 2)
    return ::testing::AssertionFailure() << "status " << r.status << ": " << r.err;
  if (r.err.rfind("piles: error: ", 0) != 0 || std::count(r.err.begin(), r.err.end(), '\n') != 1)
    return ::testing::AssertionFailure() << "not one error line: " << r.err;
  if (r.err.find(journal) == std::string::npos)
    return ::testing::AssertionFailure() << "does not name " << journal << ": " << r.err;
  return ::testing::AssertionSuccess();
}

class JobDriver : public ::testing::TestWithParam<Case> {
 protected:
  std::string file(const std::string& name) const { return dir_.file(name); }

  TempDir dir_;
};

}  // namespace

TEST_P(JobDriver, KilledRunResumesToThePlainAnswer) {
  for (const int signal : {SIGKILL, SIGINT}) {
    SCOPED_TRACE(signal == SIGKILL ? "SIGKILL" : "SIGINT");
    const Case& c = GetParam();
    const std::string journal = file(signal == SIGKILL ? "killed" : "interrupted");
    kill_at(c, journal, 5, signal);
    const std::size_t kept = piles::read_journal(journal).chunks.size();
    EXPECT_EQ(kept, 5u);
    const auto resumed = run_piles(words(c.args) + " --threads 2 --json --checkpoint " + journal);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(answers(resumed.out, c), plain(c));
    EXPECT_GT(piles::read_journal(journal).chunks.size(), kept);
  }
}

TEST_P(JobDriver, ShardsMergeToThePlainAnswer) {
  const Case& c = GetParam();
  std::string files;
  for (int i = 0; i < 3; ++i) {
    const std::string journal = file("shard" + std::to_string(i));
    const auto r = run_piles(words(c.args) + " --threads 1 --quiet --shard " + std::to_string(i) +
                             "/3 --checkpoint " + journal);
    ASSERT_EQ(r.status, 0) << r.err;
    files += " " + journal;
  }
  const auto merged = run_piles(c.merge + files + " --json");
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(answers(merged.out, c), plain(c));

  const auto missing = run_piles(c.merge + " " + file("shard0") + " " + file("shard2"));
  EXPECT_TRUE(piles::testing::is_usage_error(missing, "missing"));
}

TEST_P(JobDriver, TimeLimitStopsWithStatusThreeAndResumes) {
  const Case& c = GetParam();
  const std::string journal = file("journal");
  const auto stopped = run_piles(
      words(c.args) + " --quiet --slice 0.001 --time-limit 0.001 --checkpoint " + journal);
  EXPECT_EQ(stopped.status, 3) << stopped.err;
  EXPECT_NE(stopped.err.find("piles: stopped: "), std::string::npos) << stopped.err;
  const auto resumed = run_piles(words(c.args) + " --threads 2 --json --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(answers(resumed.out, c), plain(c));
}

TEST_P(JobDriver, AFullDiskEndsTheRunWithOneLineAndKeepsTheJournal) {
  const Case& c = GetParam();
  const std::string journal = file("journal");
  EXPECT_TRUE(is_one_line_error(run_on_full_disk(c, journal, dir_.path()), journal));
  const std::string kept = slurp(journal);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept.back(), '\n') << "the failed line is cut off";
  EXPECT_GT(piles::read_journal(journal).chunks.size(), 0u);
  const auto resumed = run_piles(words(c.args) + " --threads 2 --json --checkpoint " + journal);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(answers(resumed.out, c), plain(c));
}

TEST_P(JobDriver, AJournalInAReadOnlyFolderIsRefusedWithOneLine) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes where permissions say no";
  const Case& c = GetParam();
  const fs::path folder = dir_.path() / "read-only";
  fs::create_directory(folder);
  const std::string fresh = (folder / "fresh").string(), cut = (folder / "cut").string();
  kill_at(c, cut, 2, SIGKILL);  // ends in a half line, which a resume would cut off
  const std::string before = slurp(cut);
  fs::permissions(cut, fs::perms::owner_read);
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
  for (const std::string& journal : {fresh, cut})
    EXPECT_TRUE(is_one_line_error(
        run_piles(words(c.args) + " --threads 2 --quiet --checkpoint " + journal), journal));
  EXPECT_FALSE(fs::exists(fresh));
  EXPECT_EQ(slurp(cut), before);
  fs::permissions(folder, fs::perms::owner_all);
}

TEST_P(JobDriver, AJournalOfAnotherGameIsRefused) {
  const Case& c = GetParam();
  const std::string journal = file("other");
  const auto other = run_piles("topswops solve 5 --quiet --checkpoint " + journal);
  ASSERT_EQ(other.status, 0) << other.err;
  if (c.name == "topswops") GTEST_SKIP() << "the journal is this game's";
  EXPECT_TRUE(piles::testing::is_usage_error(run_piles(words(c.args) + " --checkpoint " + journal),
                                             journal));
  EXPECT_TRUE(piles::testing::is_usage_error(run_piles(c.merge + " " + journal), journal));
}

INSTANTIATE_TEST_SUITE_P(EveryGame, JobDriver, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// Journals with their checksums right but a record edited past what the game can read (found
// by fuzzing the merge commands): every merge refuses them with one line and status 2, where
// they failed with status 1, ran out of memory, or converted a float with undefined behaviour.
// A problem this piles would not build from the journal is refused as another version's.
TEST(JobJournals, MalformedRecordsAreRefusedByEveryMerge) {
  using piles::JournalContents;
  struct Edit {
    std::string game, what;
    std::function<void(JournalContents&)> edit;
    std::string names;
  };
  const std::map<std::string, std::string> runs = {
      {"topswops", "topswops solve 9"},
      {"bulgarian", "bulgarian analyze 3..5 --chunks 2"},
      {"babylon", "babylon table --colors 2 --max-chips 5"}};
  std::vector<Edit> edits = {
      {"topswops", "a float as the longest game",
       [](JournalContents& j) { j.chunks.at(0)["best"] = 1e300; }, "malformed chunk result"},
      {"topswops", "a float as the target",
       [](JournalContents& j) { j.chunks.at(0)["target"] = -1e19; }, "malformed chunk record"},
      {"topswops", "a float in the problem",
       [](JournalContents& j) { j.problem["start_target"] = 1e300; }, "not a Topswops journal"},
      {"bulgarian", "a record that is no object", [](JournalContents& j) { j.chunks.at(0) = {1}; },
       "malformed chunk record"},
      {"bulgarian", "two billion chunks per n",
       [](JournalContents& j) { j.problem["chunks_per_n"] = 2'000'000'000; },
       "not a Bulgarian journal"},
      {"bulgarian", "counts that do not add up to p(n)",
       [](JournalContents& j) { j.chunks.at(5)["histogram"][5] = 1; },
       "the journal's chunks count 8 partitions, not 7"},
      {"bulgarian", "a float as a count",
       [](JournalContents& j) { j.chunks.at(0)["leaves"] = 1e300; },
       "not a Bulgarian chunk record"},
      {"babylon", "a record that is no object", [](JournalContents& j) { j.chunks.at(0) = "x"; },
       "malformed chunk record"},
      {"babylon", "a float as a count",
       [](JournalContents& j) { j.chunks.at(0)["rows"][0]["searched"] = 1e300; },
       "chunk 0: not the start "},
  };
  for (const std::string game : {"topswops", "bulgarian", "babylon"})
    edits.push_back({game, "a problem this piles does not build (another version's)",
                     [](JournalContents& j) { j.problem["added_by_a_later_version"] = 1; },
                     "another version?"});
  const TempDir dir;
  for (const Edit& e : edits) {
    SCOPED_TRACE(e.game + ": " + e.what);
    const std::string whole = dir.file(e.game), edited = dir.file("edited");
    if (!fs::exists(whole))
      ASSERT_EQ(run_piles(runs.at(e.game) + " --quiet --checkpoint " + whole).status, 0);
    JournalContents j = piles::read_journal(whole);
    e.edit(j);
    fs::remove(edited);
    {
      piles::ChunkJournal out(edited, j.problem);
      for (const auto& [chunk, payload] : j.chunks) out.append(chunk, payload);
    }
    EXPECT_TRUE(is_usage_error(run_piles(e.game + " merge " + edited), e.names));
  }
}
