// OutputFile: a path that cannot be written is refused when the command starts, and the try
// leaves a file already there as it was, and no file where there was none.
#include "host/common/output_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/common/error.hpp"
#include "tests/support/temp_dir.hpp"

using piles::testing::slurp;

TEST(OutputFile, TryingAPathKeepsTheTextAlreadyThere) {
  piles::testing::TempDir dir;
  const std::string path = dir.file("record.json");
  std::ofstream(path) << "the last record\n";
  const piles::OutputFile file(path, "--json");
  EXPECT_EQ(slurp(path), "the last record\n");
  file.write("the new one\n");
  EXPECT_EQ(slurp(path), "the new one\n");
}

TEST(OutputFile, TryingANewPathLeavesNoFileUntilWritten) {
  piles::testing::TempDir dir;
  const std::string path = dir.file("g.b");
  const piles::OutputFile file(path, "--bfile");
  EXPECT_TRUE(file.wanted());
  EXPECT_FALSE(std::filesystem::exists(path));
  file.write("1 0\n");
  EXPECT_EQ(slurp(path), "1 0\n");
}

TEST(OutputFile, APathThatCannotBeWrittenIsAUsageErrorNamingTheOption) {
  piles::testing::TempDir dir;
  // With the system's reason: a missing folder, a folder where the file should be.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.file("no/such/folder/x"), "No such file or directory"},
      {dir.path().string(), "Is a directory"}};
  for (const auto& [path, reason] : cases) {
    try {
      piles::OutputFile(path, "-o");
      ADD_FAILURE() << path << " was accepted";
    } catch (const piles::UsageError& e) {
      EXPECT_EQ(std::string(e.what()), "-o " + path + ": cannot be written (" + reason + ")");
    }
  }
}

TEST(OutputFile, AnEmptyPathAsksForNoFile) {
  EXPECT_FALSE(piles::OutputFile("", "--json").wanted());
}

TEST(OutputFile, AFailedWriteNamesThePath) {
  piles::testing::TempDir dir;
  const std::string path = dir.file("no/such/folder/table.md");
  try {
    piles::write_text_file(path, "| n |\n");
    ADD_FAILURE() << path << " was written";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot be written (No such file or directory)");
  }
}
