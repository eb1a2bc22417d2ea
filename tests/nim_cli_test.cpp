#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "host/common/error.hpp"
#include "host/nim/bfile.hpp"
#include "tests/support/run_piles.hpp"

using piles::testing::run_piles;

TEST(NimCli, GrundyJson) {
  const auto r = run_piles("nim grundy --k 3 --upto 18 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["k"], 3);
  EXPECT_EQ(j["values"], (std::vector<int>{0, 1, 2, 3, 1, 4, 3, 2, 4, 5, 6, 7, 8, 9, 7, 6, 9, 8}));
}

// The b-file holds the values the search prints, read back by the reader the results use.
TEST(NimCli, GrundyBFileReadsBack) {
  const std::string file =
      (std::filesystem::temp_directory_path() / "piles_nim_grundy_test.b").string();
  const auto r = run_piles("nim grundy --k 3 --upto 300 --json --bfile " + file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["values"], piles::nim::read_bfile(file));
  std::filesystem::remove(file);
}

// A b-file that skips an n, or has a stray field, is refused with the line that is wrong.
TEST(NimCli, MalformedBFilesAreRefused) {
  const std::string file =
      (std::filesystem::temp_directory_path() / "piles_nim_bad_test.b").string();
  for (const char* text : {"# c\n1 0\n3 2\n", "1 0\n2 1 x\n", "1 -1\n", "1\n"}) {
    std::ofstream(file) << text;
    EXPECT_THROW(piles::nim::read_bfile(file), piles::UsageError) << text;
  }
  std::ofstream(file) << "# a comment\n1 0\n\n2 1\n";
  EXPECT_EQ(piles::nim::read_bfile(file), (std::vector<std::uint32_t>{0, 1}));
  std::filesystem::remove(file);
  EXPECT_THROW(piles::nim::read_bfile(file), piles::UsageError);
}

TEST(NimCli, GrundyHumanRows) {
  const auto r = run_piles("nim grundy --k 4 --upto 12 --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "      1:     0     1     2     3     4     5     6     7     8     9\n"
            "     11:    10    11\n");
}

TEST(NimCli, CountWithKJson) {
  const auto r = run_piles("nim count 5 --k 3 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["n"], 5);
  EXPECT_EQ(j["k"], 3);
  EXPECT_EQ(j["count"], 5);
  EXPECT_FALSE(j.contains("mod"));
}

// Project Euler 629: g(200) mod 1,000,000,007.
TEST(NimCli, ProjectEulerQuestion) {
  const auto r = run_piles("nim count 200 --mod 1000000007 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["n"], 200);
  EXPECT_FALSE(j.contains("k"));
  EXPECT_EQ(j["mod"], 1000000007);
  EXPECT_EQ(j["count_mod"], 626616617);
  EXPECT_EQ(run_piles("nim count 200 --mod 1000000007 --quiet").out, "626616617\n");
}

// Counts past 64 bits are decimal strings; g(500) > 500 * 2^64 > 2^64.
TEST(NimCli, BigCountIsAString) {
  const auto r = run_piles("nim count 500 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  ASSERT_TRUE(j["count"].is_string());
  EXPECT_GT(j["count"].get<std::string>().size(), 20u);
}

TEST(NimCli, DirectEngineAgrees) {
  const auto direct = run_piles("nim count 10 --engine direct --json");
  const auto shortcut = run_piles("nim count 10 --json");
  ASSERT_EQ(direct.status, 0) << direct.err;
  EXPECT_EQ(direct.json()["count"], 291);
  EXPECT_EQ(direct.json()["count"], shortcut.json()["count"]);
  EXPECT_EQ(direct.json()["engine"], "direct");
}

TEST(NimCli, BadInputExitsTwoNamingTheValue) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nim count 0", "'0'"},
      {"nim count -4", "'-4'"},
      {"nim count abc", "'abc'"},
      {"nim count 2001", "'2001'"},
      {"nim count 41 --engine direct", "'41'"},
      {"nim count 10 --k 1", "'1'"},
      {"nim count 10 --k x", "'x'"},
      {"nim count 10 --mod 0", "'0'"},
      {"nim count 10 --mod 99999999999999999999", "'99999999999999999999'"},
      {"nim count 10 --engine guess", "guess"},
      {"nim grundy --k 3 --upto 0", "'0'"},
      {"nim grundy --k 3 --upto 100001", "'100001'"},
      {"nim grundy --k 3 --upto 5 --bfile /nonexistent/g.b", "/nonexistent/g.b"},
      {"nim grundy --k 2 --upto 1000001", "'1000001'"},
      {"nim grundy --k 0 --upto 5", "'0'"},
      {"nim grundy --upto 5", "--k"},
      {"nim grundy --k 3", "--upto"},
      {"--backend gpu nim count 5", "--backend gpu"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
}
