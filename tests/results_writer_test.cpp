#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "host/results/writer.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using piles::results::Writer;
using piles::testing::slurp;

namespace {

void write_demo(Writer& writer) {
  writer.markdown("demo/table.md", "Demo table", "demo 1..3", "| n |\n|---:|\n| 1 |\n");
  writer.commented("demo/table.csv", "Demo rows", "demo 1..3", "n\n1\n");
  writer.run_record("demo", "table.md, table.csv", 1.25, "| n | seconds |\n|---:|---:|\n");
  writer.frontier({"Demo: the answer", "nothing published", "n <= 3", "piles demo 1..3",
                   "demo/table.csv", "1 s"});
  writer.waits_for_gpu("Demo n = 4.");
}

// Writes the demo into a fresh folder with the given target.
fs::path make(const std::string& name, int threads) {
  const fs::path dir = fs::temp_directory_path() / ("piles_results_writer_test_" + name);
  fs::remove_all(dir);
  piles::RunTarget target;
  target.device = "cpu";
  target.threads = threads;
  Writer writer(dir, "quick", target, true);
  writer.write_game("demo", write_demo);
  writer.finish();
  return dir;
}

}  // namespace

// FRONTIER.md: a row per result with the file that holds it, and what waits for a GPU; how long
// each took is in the top RUNS.md.
TEST(ResultsWriter, FrontierListsEveryRowAndWhatWaits) {
  const fs::path dir = make("frontier", 3);
  const std::string page = slurp(dir / "FRONTIER.md");
  EXPECT_NE(page.find("| Demo: the answer | nothing published | n <= 3 | `piles demo 1..3` | "
                      "[demo/table.csv](demo/table.csv) |\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("- Demo n = 4."), std::string::npos) << page;
  const std::string times = slurp(dir / "RUNS.md");
  EXPECT_NE(times.find("| Demo: the answer | 1 s |"), std::string::npos) << times;
  EXPECT_NE(times.find("3 threads"), std::string::npos) << times;
  fs::remove_all(dir);
}

// Only the RUNS.md files may depend on the run: the tables, FRONTIER.md and the index must not
// name the date, the threads or the backend, so a rerun on another machine leaves them as they
// were.
TEST(ResultsWriter, OnlyRunsDependsOnTheRun) {
  const fs::path a = make("a", 1), b = make("b", 7);
  for (const char* file : {"demo/table.md", "demo/table.csv", "README.md", "FRONTIER.md"}) {
    EXPECT_EQ(slurp(a / file), slurp(b / file)) << file;
    EXPECT_EQ(slurp(a / file).find("threads"), std::string::npos) << file;
    EXPECT_EQ(slurp(a / file).find("UTC"), std::string::npos) << file;
  }
  EXPECT_NE(slurp(a / "demo/table.md").find("`piles results --preset quick` (demo 1..3)"),
            std::string::npos);

  const std::string runs = slurp(b / "demo/RUNS.md");
  EXPECT_NE(runs.find("| threads | 7 |"), std::string::npos) << runs;
  EXPECT_NE(runs.find("UTC"), std::string::npos) << runs;
  EXPECT_NE(runs.find("| table.md, table.csv | 1.250 |"), std::string::npos) << runs;
  EXPECT_NE(runs.find("## table.md, table.csv"), std::string::npos) << runs;
  EXPECT_NE(slurp(a / "README.md").find("[demo/RUNS.md](demo/RUNS.md)"), std::string::npos);
  EXPECT_NE(slurp(a / "README.md").find("[FRONTIER.md](FRONTIER.md)"), std::string::npos);
  fs::remove_all(a);
  fs::remove_all(b);
}

// The long runs every preset reads back: the journals of one game's runs/ folder, in name order,
// and nothing else there.
TEST(ResultsWriter, JournalsAreTheRunsFoldersJournalFiles) {
  const fs::path dir = fs::temp_directory_path() / "piles_results_writer_test_runs";
  fs::remove_all(dir);
  Writer writer(dir, "quick", piles::RunTarget{}, true);
  EXPECT_TRUE(writer.journals("demo").empty());
  fs::create_directories(writer.runs("demo"));
  for (const char* name : {"b.journal", "a.journal", "README.md", "g.b"})
    std::ofstream(writer.runs("demo") / name) << "x\n";
  EXPECT_EQ(writer.journals("demo"),
            (std::vector<std::string>{(dir / "demo/runs/a.journal").string(),
                                      (dir / "demo/runs/b.journal").string()}));
  fs::remove_all(dir);
}

namespace {

// A game whose tables take a while, as every real one does.
void write_slowly(Writer& writer) {
  writer.markdown("slow/first.md", "First", "slow", "1\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  writer.markdown("slow/second.md", "Second", "slow", "2\n");
}

}  // namespace

// In a log (stderr no terminal), a results run writes status lines of its own between the
// files of a game, every --status-every seconds: the files written and the game at work, and a
// last line when it ends. Quiet, it writes none.
TEST(ResultsWriter, StatusLinesInALog) {
  const fs::path dir = fs::temp_directory_path() / "piles_results_writer_test_status";
  for (const bool quiet : {false, true}) {
    fs::remove_all(dir);
    piles::RunTarget target;
    target.threads = 1;
    ::testing::internal::CaptureStderr();
    {
      Writer writer(dir, "quick", target, quiet, 0.1);
      writer.write_game("slow", write_slowly);
      writer.finish();
    }
    const std::string err = ::testing::internal::GetCapturedStderr();
    if (quiet) {
      EXPECT_EQ(err, "");
      continue;
    }
    EXPECT_NE(err.find("piles: results: 1 file, "), std::string::npos) << err;
    EXPECT_NE(err.find("elapsed, slow tables\n"), std::string::npos) << err;
    EXPECT_NE(err.find("piles: results: done: "), std::string::npos) << err;
  }
  fs::remove_all(dir);
}
