#include <gtest/gtest.h>

#include <fmt/format.h>
#include <unistd.h>

#include <boost/crc.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "host/common/checkpoint.hpp"
#include "host/common/error.hpp"
#include "host/common/journal_problem.hpp"
#include "tests/support/temp_dir.hpp"

using nlohmann::json;
using piles::check_journal_path;
using piles::ChunkJournal;
using piles::read_journal;
using piles::UsageError;
using piles::testing::TempDir;

namespace {

class JournalTest : public ::testing::Test {
 protected:
  std::string text() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  void write(const std::string& s) const { std::ofstream(path_, std::ios::binary) << s; }

  // The message of the UsageError that opening the journal throws, or "" if none.
  std::string open_error(const json& problem) const {
    try {
      ChunkJournal journal(path_, problem);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  }

  TempDir dir_;
  const std::string path_ = dir_.file("run.journal");
  const json problem_ = {{"game", "test"}, {"n", 7}};
};

}  // namespace

TEST_F(JournalTest, RecordsChunksAndResumesThem) {
  {
    ChunkJournal journal(path_, problem_);
    EXPECT_TRUE(journal.done().empty());
    journal.append(3, {{"best", 12}});
    journal.append(0, {{"best", 10}, {"decks", {{1, 2}, {2, 1}}}});
  }
  ChunkJournal again(path_, problem_);
  ASSERT_EQ(again.done().size(), 2u);
  EXPECT_EQ(again.done().at(3), (json{{"best", 12}}));
  EXPECT_EQ(again.done().at(0)["decks"][1], (json{2, 1}));
  again.append(5, json::array());
  const auto contents = read_journal(path_);
  EXPECT_EQ(contents.problem, problem_);
  EXPECT_EQ(contents.chunks.size(), 3u);
}

TEST_F(JournalTest, EveryLineCarriesItsChecksum) {
  ChunkJournal(path_, problem_).append(1, {{"x", 1}});
  const std::string t = text();
  EXPECT_EQ(t.rfind("problem {", 0), 0u);
  const std::string second = t.substr(t.find('\n') + 1);
  EXPECT_EQ(second.rfind("run {", 0), 0u) << second;
  const std::string third = second.substr(second.find('\n') + 1);
  EXPECT_EQ(third.rfind("1 {\"x\":1} ", 0), 0u) << third;
  EXPECT_EQ(third.size(), std::string("1 {\"x\":1} 01234567\n").size());
}

TEST_F(JournalTest, LineCutShortByAKillIsDropped) {
  {
    ChunkJournal journal(path_, problem_);
    journal.append(1, {{"x", 1}});
    journal.append(2, {{"x", 2}});
  }
  const std::string whole = text();
  write(whole.substr(0, whole.size() - 5));  // the last line lost its end
  const std::string whole_lines = whole.substr(0, whole.rfind('\n', whole.size() - 2) + 1);
  {
    ChunkJournal journal(path_, problem_);
    EXPECT_EQ(journal.done().size(), 1u);
    journal.append(2, {{"x", 2}});
  }
  // The half line is gone; this run's line and the chunk follow the whole lines.
  EXPECT_EQ(text().rfind(whole_lines, 0), 0u);
  EXPECT_EQ(read_journal(path_).chunks,
            (std::map<std::uint64_t, json>{{1, {{"x", 1}}}, {2, {{"x", 2}}}}));
  EXPECT_EQ(read_journal(path_).runs.size(), 2u);
}

TEST_F(JournalTest, DamagedLineIsRefused) {
  {
    ChunkJournal journal(path_, problem_);
    journal.append(1, {{"x", 1}});
    journal.append(2, {{"x", 2}});
  }
  std::string t = text();
  t[t.find("\"x\":1") + 4] = '7';
  write(t);
  const std::string error = open_error(problem_);
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  EXPECT_THROW(read_journal(path_), UsageError);
}

TEST_F(JournalTest, JournalOfAnotherProblemIsRefused) {
  ChunkJournal(path_, problem_).append(1, {{"x", 1}});
  const std::string error = open_error({{"game", "test"}, {"n", 8}});
  EXPECT_NE(error.find("the journal is for test n 7, not n 8"), std::string::npos) << error;
}

TEST(JournalProblem, NamedInTheCommandsWords) {
  const json solve = {{"game", "topswops"},
                      {"search", "knuth-forward/2"},
                      {"n", 14},
                      {"final", "any"},
                      {"depth", 6},
                      {"chunks", 512}};
  EXPECT_EQ(piles::problem_words(solve), "topswops solve 14 --final any");
  json other = solve;
  other["n"] = 13;
  EXPECT_EQ(piles::problem_mismatch(solve, other),
            "the journal is for topswops solve 14 --final any, not solve 13 --final any");
  other = solve;
  other["depth"] = 7;
  EXPECT_EQ(piles::problem_mismatch(solve, other),
            "the journal is for topswops solve 14 --final any with depth 6, not depth 7 (another "
            "version of piles, or other options, wrote it)");
  EXPECT_EQ(piles::problem_words({{"game", "babylon"}, {"colours", 3}, {"max_chips", 20}}),
            "babylon table --colours 3 --max-chips 20");
  EXPECT_EQ(piles::problem_words(
                {{"game", "bulgarian"}, {"engine", "backward"}, {"first", 5}, {"last", 5}}),
            "bulgarian analyze 5");
}

// A journal's problem is outside input: fields of any type are named, never thrown over.
TEST_F(JournalTest, ProblemOfOddFieldTypesIsStillNamed) {
  const json odd = {{"bes", 1}, {"search", 2.5e-05}, {"target", 4}};
  EXPECT_EQ(piles::problem_words(odd), "a problem bes 1 search 2.5e-05 target 4");
  EXPECT_EQ(piles::problem_words({{"game", 7}, {"n", 5}}), "a problem n 5");
  EXPECT_EQ(piles::problem_words({{"game", "topswops"}, {"search", "tail/1"}, {"start", 3}}),
            "topswops tail none --from none");
  EXPECT_EQ(piles::problem_mismatch(json("a problem"), {{"game", "x"}}),
            "the journal is for a problem, not x");
  EXPECT_EQ(piles::problem_mismatch(json("a problem"), json::array({"a problem"})),
            "the journal is for a problem, written differently");
}

TEST_F(JournalTest, RepairKeepsTheLinesBeforeTheDamageAndSetsTheRestAside) {
  {
    ChunkJournal journal(path_, problem_);
    for (int chunk = 1; chunk <= 3; ++chunk) journal.append(chunk, {{"x", chunk}});
  }
  // problem, run, chunks 1, 2, 3: chunk 2's line (the fourth) is damaged.
  std::string t = text();
  const std::size_t fourth = t.find("\n2 ") + 1;
  t[t.find("\"x\":2", fourth) + 4] = '9';
  write(t);
  const std::string error = open_error(problem_);
  EXPECT_NE(error.find("`piles journal repair " + path_ + "` keeps the 3 lines before it"),
            std::string::npos)
      << error;

  const piles::JournalRepair r = piles::repair_journal(path_);
  EXPECT_EQ(r.lines_kept, 3);
  EXPECT_EQ(r.lines_moved, 2);
  EXPECT_EQ(r.aside.string(), path_ + ".damaged");
  EXPECT_EQ(text(), t.substr(0, fourth));
  EXPECT_EQ(piles::testing::slurp(path_ + ".damaged"), t.substr(fourth));
  {
    ChunkJournal journal(path_, problem_);
    EXPECT_EQ(journal.done(), (std::map<std::uint64_t, json>{{1, {{"x", 1}}}}));
  }
  const piles::JournalRepair again = piles::repair_journal(path_);
  EXPECT_EQ(again.lines_moved, 0);
  EXPECT_TRUE(again.aside.empty());
}

TEST_F(JournalTest, RepairRefusesWhatHoldsNothingToKeep) {
  write("hello world\n1 {} 00000000\n");
  EXPECT_THROW(piles::repair_journal(path_), UsageError);
  EXPECT_THROW(piles::repair_journal(dir_.file("absent")), UsageError);
  EXPECT_FALSE(std::filesystem::exists(path_ + ".damaged"));
}

TEST_F(JournalTest, OtherFilesAreRefused) {
  write("hello world\n");
  EXPECT_NE(open_error(problem_).find("line 1"), std::string::npos);
  write("");
  EXPECT_EQ(open_error(problem_), "") << "an empty file starts a new journal";
  EXPECT_THROW(read_journal(dir_.file("absent")), UsageError);
}

TEST_F(JournalTest, ChunkTwiceWithDifferentResultsIsRefused) {
  {
    ChunkJournal journal(path_, problem_);
    journal.append(4, {{"x", 1}});
    journal.append(4, {{"x", 1}});
  }
  EXPECT_EQ(read_journal(path_).chunks.size(), 1u) << "an identical repeat is harmless";
  ChunkJournal(path_, problem_).append(4, {{"x", 2}});
  const std::string error = open_error(problem_);
  EXPECT_NE(error.find("chunk 4"), std::string::npos) << error;
}

TEST_F(JournalTest, AChunkTwiceWithOnlyItsTimeDifferentIsReadOnce) {
  {
    ChunkJournal journal(path_, problem_);
    journal.append(4, {{"x", 1}, {"seconds", 0.5}});
    journal.append(4, {{"x", 1}, {"seconds", 0.7}});
  }
  EXPECT_EQ(read_journal(path_).chunks.size(), 1u);
  EXPECT_EQ(open_error(problem_), "");
}

TEST_F(JournalTest, ASecondWriterIsRefusedNamingTheFirst) {
  ChunkJournal first(path_, problem_);
  first.append(1, {{"x", 1}});
  const std::string error = open_error(problem_);
  EXPECT_NE(error.find(path_ + ": the journal is in use by another piles run"), std::string::npos)
      << error;
  EXPECT_NE(error.find(fmt::format("pid {} on ", getpid())), std::string::npos) << error;
  first.append(2, {{"x", 2}});
  EXPECT_EQ(read_journal(path_).chunks.size(), 2u) << "the refused writer wrote nothing";
}

// The check a run makes before its own work: the same refusal for a journal in use, nothing
// written to it, and a path it can use left so (a file that was absent now exists, empty).
TEST_F(JournalTest, TheEarlyCheckRefusesAJournalInUseAndWritesNothing) {
  {
    ChunkJournal first(path_, problem_);
    first.append(1, {{"x", 1}});
    const std::string before = text();
    try {
      check_journal_path(path_);
      ADD_FAILURE() << "a journal in use passed the check";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("in use by another piles run"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(text(), before);
  }
  const std::string written = text();
  EXPECT_NO_THROW(check_journal_path(path_));
  EXPECT_EQ(text(), written);
  EXPECT_EQ(open_error(problem_), "") << "the check holds nothing once it returns";
  const std::string absent = dir_.file("absent.journal");
  EXPECT_NO_THROW(check_journal_path(absent));
  EXPECT_TRUE(std::filesystem::is_regular_file(absent));
  EXPECT_EQ(std::filesystem::file_size(absent), 0u);
}

TEST_F(JournalTest, TheWriterIsFreedWhenItsRunEnds) {
  { ChunkJournal(path_, problem_).append(1, {{"x", 1}}); }
  EXPECT_EQ(open_error(problem_), "");
}

TEST_F(JournalTest, EveryRunThatWritesLeavesItsProvenance) {
  { ChunkJournal(path_, problem_).append(1, {{"x", 1}}); }
  { ChunkJournal(path_, problem_).append(2, {{"x", 2}}); }
  const std::string written = text();
  { ChunkJournal again(path_, problem_); }
  EXPECT_EQ(text(), written) << "a run that finds nothing to do leaves the journal as it was";
  const auto runs = read_journal(path_).runs;
  ASSERT_EQ(runs.size(), 2u);
  for (const json& run : runs) {
    for (const char* key :
         {"version", "commit", "host", "backend", "threads", "ranks", "devices", "started"})
      EXPECT_TRUE(run.contains(key)) << key << " in " << run;
    EXPECT_EQ(run.at("pid"), getpid());
  }
}

TEST_F(JournalTest, DeeplyNestedLineIsRefused) {
  // Two identical lines nested 300,000 deep: comparing or copying them recursed once per level
  // and overflowed the stack (found by fuzzing); nesting is now refused as the line is read.
  const std::string deep = std::string(300000, '[') + std::string(300000, ']');
  auto line = [](const std::string& body) {
    boost::crc_32_type crc;
    crc.process_bytes(body.data(), body.size());
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x", static_cast<unsigned>(crc.checksum()));
    return body + " " + digits + "\n";
  };
  write(line("problem " + problem_.dump()) + line("1 " + deep) + line("1 " + deep));
  const std::string error = open_error(problem_);
  EXPECT_NE(error.find("line 2: payload nested more than"), std::string::npos) << error;
  EXPECT_THROW(read_journal(path_), UsageError);
}

// A checkout that puts an older copy of the journal in its place while the run writes: the
// run's later lines go to the file the path names, after the ones that copy lacks, and only
// once each.
TEST_F(JournalTest, AJournalReplacedUnderItsWriterGetsTheWritersLinesBack) {
  ChunkJournal journal(path_, problem_);
  journal.append(1, {{"x", 1}});
  const std::string older = text();
  journal.append(2, {{"x", 2}});
  const std::string copy = dir_.file("older.journal");
  std::ofstream(copy, std::ios::binary) << older;
  std::filesystem::rename(copy, path_);
  journal.append(3, {{"x", 3}});
  const auto contents = read_journal(path_);
  EXPECT_EQ(contents.chunks.size(), 3u);
  EXPECT_EQ(contents.runs.size(), 1u);
  const std::string now = text();
  EXPECT_EQ(now.rfind("\n1 {"), now.find("\n1 {")) << now;
  EXPECT_NE(open_error(problem_).find("in use by another piles run"), std::string::npos)
      << "the writer holds the file the path names";
}

TEST_F(JournalTest, AJournalRemovedUnderItsWriterIsWrittenAgainWhole) {
  ChunkJournal journal(path_, problem_);
  journal.append(1, {{"x", 1}});
  journal.append(2, {{"x", 2}});
  const std::string written = text();
  std::filesystem::remove(path_);
  journal.append(3, {{"x", 3}});
  EXPECT_EQ(text().substr(0, written.size()), written);
  EXPECT_EQ(read_journal(path_).chunks.size(), 3u);
}

// Another problem's journal in its place is left as it is, and the run's lines, the one it was
// writing included, are kept beside it.
TEST_F(JournalTest, AJournalReplacedByAnotherProblemsKeepsTheRunsLinesAside) {
  ChunkJournal journal(path_, problem_);
  journal.append(1, {{"x", 1}});
  const std::string other = dir_.file("other.journal");
  { ChunkJournal(other, json{{"game", "test"}, {"n", 8}}).append(7, {{"x", 7}}); }
  std::ofstream(path_ + ".orphaned") << "an earlier one";
  std::filesystem::rename(other, path_);
  const std::string theirs = text();
  try {
    journal.append(2, {{"x", 2}});
    ADD_FAILURE() << "the append went on";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path_ + ".orphaned.2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(text(), theirs);
  const auto kept = read_journal(path_ + ".orphaned.2");
  EXPECT_EQ(kept.problem, problem_);
  EXPECT_EQ(kept.chunks.size(), 2u);
  EXPECT_THROW(journal.append(3, {{"x", 3}}), std::runtime_error);
}

TEST_F(JournalTest, AJournalWhosePathNowNamesAFolderKeepsTheRunsLinesAside) {
  ChunkJournal journal(path_, problem_);
  journal.append(1, {{"x", 1}});
  std::filesystem::remove(path_);
  std::filesystem::create_directory(path_);
  EXPECT_THROW(journal.append(2, {{"x", 2}}), std::runtime_error);
  EXPECT_EQ(read_journal(path_ + ".orphaned").chunks.size(), 2u);
}
