// `piles journal show`: how far a journal of each game has come, read without running anything,
// against what the journal's own lines hold.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

using piles::testing::run_piles;
using piles::testing::TempDir;

namespace {

// Keeps a journal's problem and run lines and its first `chunks` chunk lines; returns the
// longest game those chunks found (their payloads' "best", where they have one).
int keep_first_chunks(const std::string& journal, int chunks) {
  std::ifstream in(journal);
  std::string kept, line;
  int best = 0;
  for (int i = 0; i < chunks + 2 && std::getline(in, line); ++i) {
    kept += line + "\n";
    if (i >= 2) {
      const std::size_t json = line.find(' ') + 1;
      best = std::max(
          best, nlohmann::json::parse(line.substr(json, line.rfind(' ') - json)).value("best", 0));
    }
  }
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  return best;
}

// The JSON answers of a run, one a line, less what differs between a run and its resume.
std::vector<nlohmann::json> answers(const std::string& out) {
  std::vector<nlohmann::json> all;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    for (const char* key : {"seconds", "nodes_per_second", "chunks_resumed"}) j.erase(key);
    all.push_back(j);
  }
  return all;
}

}  // namespace

TEST(JournalShow, SaysHowFarATopswopsJournalHasCome) {
  const TempDir dir;
  const std::string journal = dir.file("f12.jnl");
  ASSERT_EQ(run_piles("topswops solve 12 --quiet --checkpoint " + journal).status, 0);
  const auto whole = run_piles("journal show " + journal);
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_NE(whole.out.find(journal + ": topswops solve 12 --final any\n"), std::string::npos)
      << whole.out;
  EXPECT_NE(whole.out.find("chunks     2,511 of 2,511 (100.0%), complete"), std::string::npos)
      << whole.out;
  EXPECT_NE(whole.out.find("best       65\n"), std::string::npos) << whole.out;  // f(12)
  EXPECT_NE(whole.out.find("runs       1, started "), std::string::npos) << whole.out;

  // Chunks 0, 1 and 2 are rounds 0 and 1 (1 and 2 chunks) of 11; round 2 has 4.
  const int best = keep_first_chunks(journal, 3);
  const auto part = run_piles("journal show " + journal);
  ASSERT_EQ(part.status, 0) << part.err;
  EXPECT_NE(part.out.find("chunks     3 of 2,511 (0.1%)\n"), std::string::npos) << part.out;
  EXPECT_NE(part.out.find("rounds     2 of 11 complete, round 2 has 0 of 4 chunks\n"),
            std::string::npos)
      << part.out;
  EXPECT_NE(part.out.find(fmt::format("best       {} so far", best)), std::string::npos)
      << part.out;
  const auto json = run_piles("--json journal show " + journal);
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(json.json().at("chunks_done"), 3);
  EXPECT_EQ(json.json().at("chunks"), 2511);
  EXPECT_EQ(json.json().at("complete"), false);
  EXPECT_EQ(json.json().at("best"), best);
  EXPECT_EQ(json.json().at("go_on"), "piles topswops solve 12 --final any --checkpoint " + journal);
}

// The command `show` gives for a journal not complete takes it up again: run as shown, it
// finishes the journal with the answer of a run made whole, here for a run told its bound
// (which the journal's problem needs again) and for one of another game.
TEST(JournalShow, ItsCommandToGoOnFinishesTheJournal) {
  const TempDir dir;
  const std::string f12 = dir.file("f12.jnl"), b = dir.file("b.jnl");
  const auto whole = run_piles("--json topswops solve 12 --bound 65 --checkpoint " + f12);
  ASSERT_EQ(whole.status, 0) << whole.err;
  const auto analyses = run_piles("--json bulgarian analyze 20..21 --chunks 4 --checkpoint " + b);
  ASSERT_EQ(analyses.status, 0) << analyses.err;
  keep_first_chunks(f12, 5);
  keep_first_chunks(b, 3);
  const std::string go_on_f12 =
      "piles topswops solve 12 --final any --bound 65 --checkpoint " + f12;
  const std::string go_on_b = "piles bulgarian analyze 20..21 --chunks 4 --checkpoint " + b;
  const auto shown = run_piles("journal show " + f12 + " " + b);
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_NE(shown.out.find("  go on      " + go_on_f12 + "\n"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("  go on      " + go_on_b + "\n"), std::string::npos) << shown.out;
  for (const auto& [go_on, answer] : {std::pair{go_on_f12, whole}, std::pair{go_on_b, analyses}}) {
    const auto again = run_piles("--json " + go_on.substr(std::string("piles ").size()));
    ASSERT_EQ(again.status, 0) << go_on << "\n" << again.err;
    EXPECT_EQ(answers(again.out), answers(answer.out)) << go_on;
  }
  const auto complete = run_piles("--json journal show " + f12);
  ASSERT_EQ(complete.status, 0) << complete.err;
  EXPECT_FALSE(complete.json().contains("go_on"));
}

TEST(JournalShow, SaysHowFarJournalsOfTheOtherGamesHaveCome) {
  const TempDir dir;
  const std::string bulgarian = dir.file("b.jnl"), babylon = dir.file("t.jnl");
  ASSERT_EQ(
      run_piles("bulgarian analyze 20..22 --chunks 4 --quiet --checkpoint " + bulgarian).status, 0);
  ASSERT_EQ(
      run_piles("babylon table --colors 2 --max-chips 8 --quiet --checkpoint " + babylon).status,
      0);
  const auto r = run_piles("journal show " + bulgarian + " " + babylon);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find(bulgarian + ": bulgarian analyze 20..22\n  chunks     12 of 12 (100.0%), "
                             "complete: merge gives the answer\n  rounds     3 of 3 complete\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(babylon + ": babylon table --colours 2 --max-chips 8\n"), std::string::npos)
      << r.out;
  // Games without targets have no best.
  EXPECT_EQ(r.out.find("best"), std::string::npos) << r.out;
}

// Where a job weighs its chunks in the unit it counts (Bulgarian partitions, Topswops nodes by
// the estimate from 14 cards on), `show` says how much is left and how long that takes at the
// pace of the chunks done; a journal complete, or a Babylon table's, says neither.
TEST(JournalShow, SaysHowMuchWorkIsLeftAndHowLong) {
  const TempDir dir;
  const std::string bulgarian = dir.file("b.jnl"), topswops = dir.file("t.jnl"),
                    babylon = dir.file("y.jnl");
  // One chunk an n: the chunks left weigh p(n) each (A000041: p(32..34) = 8349, 10143, 12310);
  // those done count the partitions they walked, all but the few at the top of each forest.
  ASSERT_EQ(
      run_piles("bulgarian analyze 30..34 --chunks 1 --quiet --checkpoint " + bulgarian).status, 0);
  const auto whole = run_piles("--json journal show " + bulgarian);
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_FALSE(whole.json().contains("units_left"));
  keep_first_chunks(bulgarian, 2);
  const auto b = run_piles("--json journal show " + bulgarian);
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(b.json().at("unit"), "partitions");
  EXPECT_EQ(b.json().at("units_left"), 8349 + 10143 + 12310);
  const double done = b.json().at("units_done"), seconds = b.json().at("seconds");
  EXPECT_LE(done, 5604 + 6842);
  EXPECT_GE(done, 0.99 * (5604 + 6842));
  EXPECT_NEAR(b.json().at("seconds_left").get<double>(), 30802 * seconds / done,
              1e-3 * 30802 * seconds / done + 1e-3);

  // f(14) from its answer, cut back to its first 200 of 4,096 chunks: the nodes done and the
  // estimate of those left add up to the whole search's within the estimator's aim (1.5).
  const auto run = run_piles("--json topswops solve 14 --bound 101 --checkpoint " + topswops);
  ASSERT_EQ(run.status, 0) << run.err;
  const double nodes = run.json().at("nodes");
  keep_first_chunks(topswops, 200);
  const auto t = run_piles("--json journal show " + topswops);
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.json().at("unit"), "nodes");
  const double sum =
      t.json().at("units_done").get<double>() + t.json().at("units_left").get<double>();
  EXPECT_GT(sum, nodes / 1.5);
  EXPECT_LT(sum, nodes * 1.5);
  const auto text = run_piles("journal show " + topswops);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("\n  left       about "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(" nodes (9"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\n  time left  about "), std::string::npos) << text.out;

  ASSERT_EQ(
      run_piles("babylon table --colors 2 --max-chips 8 --quiet --checkpoint " + babylon).status,
      0);
  keep_first_chunks(babylon, 1);
  const auto y = run_piles("journal show " + babylon);
  ASSERT_EQ(y.status, 0) << y.err;
  EXPECT_EQ(y.out.find("left"), std::string::npos) << y.out;
}

// A shard's journal (its run lines name the shard) is counted in the chunks the shard runs: the
// shared rounds' and its own. The four shards of f(12) hold the job's 2,511 chunks, the shared
// ones four times; a shard cut short goes on with its --shard, and the four then merge to the
// one-process answer.
TEST(JournalShow, CountsAShardsJournalInItsOwnChunks) {
  const TempDir dir;
  const auto whole = run_piles("--json topswops solve 12 --quiet");
  ASSERT_EQ(whole.status, 0) << whole.err;
  std::vector<std::string> journals;
  std::map<std::string, int> in_journals;  // chunk id -> journals holding it
  int listed = 0;
  for (int k = 0; k < 4; ++k) {
    const std::string journal = dir.file(fmt::format("s{}.jnl", k));
    journals.push_back(journal);
    ASSERT_EQ(
        run_piles(fmt::format("topswops solve 12 --quiet --shard {}/4 --checkpoint {}", k, journal))
            .status,
        0);
    std::ifstream in(journal);
    int lines = 0;
    for (std::string line; std::getline(in, line);)
      if (!line.starts_with("problem ") && !line.starts_with("run ")) {
        ++lines;
        ++in_journals[line.substr(0, line.find(' '))];
      }
    const auto shown = run_piles("journal show " + journal);
    ASSERT_EQ(shown.status, 0) << shown.err;
    EXPECT_NE(shown.out.find(fmt::format("  shard      {}/4: its {} of the job's 2,511 chunks", k,
                                         fmt::group_digits(lines))),
              std::string::npos)
        << shown.out;
    EXPECT_NE(
        shown.out.find(fmt::format("  chunks     {0} of {0} (100.0%), complete: merge it with "
                                   "the other shards' journals\n",
                                   fmt::group_digits(lines))),
        std::string::npos)
        << shown.out;
    EXPECT_NE(shown.out.find(" so far\n"), std::string::npos) << shown.out;
    listed += lines;
  }
  const int shared = static_cast<int>(std::count_if(in_journals.begin(), in_journals.end(),
                                                    [](const auto& c) { return c.second == 4; }));
  EXPECT_GT(shared, 0);
  EXPECT_EQ(listed - 3 * shared, 2511);
  EXPECT_EQ(in_journals.size(), 2511u);

  keep_first_chunks(journals[2], 100);
  const auto part = run_piles("--json journal show " + journals[2]);
  ASSERT_EQ(part.status, 0) << part.err;
  EXPECT_EQ(part.json().at("shard"), "2/4");
  EXPECT_EQ(part.json().at("job_chunks"), 2511);
  EXPECT_EQ(part.json().at("chunks_done"), 100);
  EXPECT_EQ(part.json().at("complete"), false);
  const std::string go_on = part.json().at("go_on");
  EXPECT_EQ(go_on, "piles topswops solve 12 --final any --shard 2/4 --checkpoint " + journals[2]);
  ASSERT_EQ(run_piles(go_on.substr(std::string("piles ").size()) + " --quiet").status, 0);
  const auto merged = run_piles("--json topswops merge " + journals[0] + " " + journals[1] + " " +
                                journals[2] + " " + journals[3]);
  ASSERT_EQ(merged.status, 0) << merged.err;
  for (const char* key : {"max_steps", "count", "decks", "nodes", "nodes_per_level"})
    EXPECT_EQ(merged.json().at(key), whole.json().at(key)) << key;

  // A run of the whole job on a shard's journal makes it the job's.
  ASSERT_EQ(run_piles("topswops solve 12 --quiet --checkpoint " + journals[0]).status, 0);
  const auto all = run_piles("journal show " + journals[0]);
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(all.out.find("shard"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("chunks     2,511 of 2,511 (100.0%), complete: merge gives the answer"),
            std::string::npos)
      << all.out;
}
