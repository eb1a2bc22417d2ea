#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "host/common/backend.hpp"
#include "tests/support/run_piles.hpp"

using piles::testing::run_piles;

TEST(Cli, VersionSaysBuildAndDevice) {
  const auto r = run_piles("--version");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("piles ") + piles::version), std::string::npos);
  EXPECT_NE(r.out.find(std::string("commit: ") + piles::commit + "\n"), std::string::npos);
  EXPECT_NE(r.out.find(std::string("build: ") + piles::build_type + ", "), std::string::npos);
#ifdef PILES_HAVE_CUDA
  EXPECT_NE(r.out.find("CUDA build: yes (architectures "), std::string::npos);
#else
  EXPECT_NE(r.out.find("CUDA build: no"), std::string::npos);
#endif
  const std::string reason = piles::gpu_unavailable_reason();
  if (reason.empty()) {
    EXPECT_EQ(r.out.find("GPU: none"), std::string::npos) << r.out;
    // Every device, each with its index and description, and the driver.
    const std::vector<std::string> all = piles::gpu_descriptions();
    EXPECT_NE(r.out.find(fmt::format("GPU devices: {}\n", all.size())), std::string::npos) << r.out;
    for (std::size_t i = 0; i < all.size(); ++i)
      EXPECT_NE(r.out.find(fmt::format("  {}: {}\n", i, all[i])), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GPU driver: NVIDIA " + piles::nvidia_driver_release() + " (CUDA "),
              std::string::npos)
        << r.out;
  } else {
    EXPECT_NE(r.out.find("GPU: none (" + reason + ")\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("GPU devices"), std::string::npos) << r.out;
  }
}

// PILES_CPU_PATH chooses how the Topswops CPU engine plays its moves: --version names the path,
// both give the same answer, nodes per level included, and a bad value fails every command
// with one line.
TEST(Cli, CpuPathIsNamedForcedAndChecked) {
  const auto version = run_piles("--version");
  ASSERT_EQ(version.status, 0) << version.err;
  EXPECT_NE(version.out.find("Topswops CPU path: "), std::string::npos) << version.out;
  const auto portable = run_piles("--version", "", "PILES_CPU_PATH=portable");
  ASSERT_EQ(portable.status, 0) << portable.err;
  EXPECT_NE(portable.out.find("Topswops CPU path: portable ("), std::string::npos) << portable.out;

  const std::string solve = "--backend cpu --threads 2 --json topswops solve 11";
  const auto a = run_piles(solve);
  const auto b = run_piles(solve, "", "PILES_CPU_PATH=portable");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  for (const char* key : {"max_steps", "count", "decks", "nodes", "nodes_per_level"})
    EXPECT_EQ(a.json().at(key), b.json().at(key)) << key;
  EXPECT_EQ(a.json().at("max_steps"), 51);

  for (const char* command : {"topswops solve 5", "--version", "bulgarian trace 3,1"})
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(command, "", "PILES_CPU_PATH=avx9"),
                                               "PILES_CPU_PATH: 'avx9' is not a path"))
        << command;
}

// The driver's release as /proc/driver/nvidia/version gives it, for the proprietary and the
// open kernel module; nothing where the text has none.
TEST(Cli, NvidiaDriverReleaseIsReadFromTheProcText) {
  EXPECT_EQ(piles::nvidia_driver_release_in(
                "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 "
                "UTC 2023\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n"),
            "535.104.05");
  EXPECT_EQ(
      piles::nvidia_driver_release_in(
          "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build  "
          "(dvs-builder@U16-I3-B03-4-3)  Sun Jul 27 06:54:38 UTC 2025\n"),
      "580.65.06");
  EXPECT_EQ(piles::nvidia_driver_release_in(""), "");
  EXPECT_EQ(piles::nvidia_driver_release_in("no version here\n1.2.3 on the second line"), "");
}

// Where no NVIDIA driver is loaded, --version says so instead of CUDA's talk of an insufficient
// driver version.
TEST(Cli, VersionWithoutADriverSaysSo) {
  if (std::filesystem::exists("/proc/driver/nvidia/version"))
    GTEST_SKIP() << "this machine has an NVIDIA driver";
  const auto r = run_piles("--version");
  ASSERT_EQ(r.status, 0) << r.err;
#ifdef PILES_HAVE_CUDA
  EXPECT_NE(r.out.find("GPU: none (no NVIDIA driver loaded)\n"), std::string::npos) << r.out;
#else
  EXPECT_NE(r.out.find("GPU: none (built without CUDA)\n"), std::string::npos) << r.out;
#endif
}

// A machine meant to run the GPU engines must not quietly run the CPU ones instead.
TEST(Cli, RequiredGpuThatDoesNotAnswerIsAnError) {
  const auto r = run_piles("topswops solve 6 --json", "", "PILES_REQUIRE_GPU=1");
  if (piles::gpu_unavailable_reason().empty()) {
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.json().at("backend"), "gpu");
    return;
  }
  EXPECT_TRUE(piles::testing::is_usage_error(r, "PILES_REQUIRE_GPU=1")) << r.err;
  EXPECT_EQ(run_piles("--backend cpu topswops solve 6 --json", "", "PILES_REQUIRE_GPU=1").status,
            0);
}

// OMP_NUM_THREADS (a batch system's cap, or the documentation check's) sets the default thread
// count; --threads still wins over it.
TEST(Cli, OmpNumThreadsSetsTheDefaultThreads) {
  const auto capped = run_piles("--backend cpu topswops solve 6 --json", "", "OMP_NUM_THREADS=3");
  ASSERT_EQ(capped.status, 0) << capped.err;
  EXPECT_EQ(capped.json().at("threads"), 3);
  const auto told =
      run_piles("--backend cpu topswops solve 6 --threads 1 --json", "", "OMP_NUM_THREADS=3");
  ASSERT_EQ(told.status, 0) << told.err;
  EXPECT_EQ(told.json().at("threads"), 1);
}

TEST(Cli, HelpExitsZero) {
  const auto r = run_piles("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("topswops"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--threads 2", "piles: a command is required (topswops, bulgarian,"},
      {"juggle", "juggle"},
      {"topswops",
       "piles topswops: a command is required (play, grow, solve, estimate, tail, merge)"},
      {"topswops play 1,2 --frobnicate", "--frobnicate"},
      {"topswops play", "DECK"},
      {"--backend fpga topswops play 1", "fpga"},
      {"--threads -3 topswops play 1", "-3"},
      {"topswops play 1 --threads -1", "'-1' is out of range (0..65536)"},
      {"topswops play 1 --threads 99999999999", "99999999999"},
      {"topswops play 1 --threads ''", "--threads"},
      {"topswops play 1 --threads 1 --threads 2", "--threads"},
      {"topswops solve 5 --bound +-0", "'+-0' is not an integer"},
      {"topswops solve 5 --small-slices cpu", "--small-slices"},
      {"topswops play ''", "empty"},
      {"bulgarian trace ''", "empty"},
      {"babylon solve ''", "empty"},
      {"topswops solve 5 --checkpoint /nonexistent/x.jnl", "/nonexistent/x.jnl"},
      {"topswops solve 5 --checkpoint /dev/zero", "not a regular file"},
      {"topswops merge /dev/zero", "not a regular file"},
      {"topswops solve 5 --checkpoint /tmp", "not a regular file"},
      // From 17 cards on a quick search runs first: the journal is refused before it (one line).
      {"topswops solve 17 --checkpoint /tmp", "not a regular file"},
      {"topswops solve 17 --checkpoint /nonexistent/x.jnl", "/nonexistent/x.jnl"},
      {"topswops solve 5 --checkpoint /proc/self/mem", "/proc/self/mem: cannot read the journal"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
}

// A typo gets the nearest valid spelling, in one line.
TEST(Cli, ATypoGetsTheNearestSpelling) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"topswops solve 10 --thread 1", "unknown option --thread; did you mean --threads?"},
      {"--thread 1 topswops solve 10", "unknown option --thread; did you mean --threads?"},
      {"topswops solve 10 --checkpiont j",
       "unknown option --checkpiont; did you mean --checkpoint?"},
      {"topswop solve 10", "unknown command topswop; did you mean topswops?"},
      {"topswops slove 10", "unknown command slove; did you mean solve?"},
      {"bulgarain analyze 10", "unknown command bulgarain; did you mean bulgarian?"},
      {"topswops solve 10 --frobnicate",
       "unknown option --frobnicate (see piles topswops solve --help)"},
      {"juggle",
       "unknown command juggle (piles takes topswops, bulgarian, nim, babylon, results, "
       "selftest, bench, journal, help)"},
      {"topswops solve 10 11", "piles topswops solve: unexpected argument '11'"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_piles(args);
    EXPECT_TRUE(piles::testing::is_usage_error(r, message)) << args;
  }
}

// Lists are read the same wherever one is read, and the spellings the output uses work.
TEST(Cli, ListsAndSpellingsAreReadAlike) {
  const std::string deck = run_piles("topswops play 3,1,4,5,2 --json").out;
  ASSERT_FALSE(deck.empty());
  EXPECT_EQ(run_piles("topswops play '3, 1, 4, 5, 2' --json").out, deck);
  EXPECT_EQ(run_piles("topswops play 3 1 4 5 2 --json").out, deck);
  const std::string trace = run_piles("bulgarian trace 8,4,3 --json").out;
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(run_piles("bulgarian trace 8 4 3 --json").out, trace);
  EXPECT_EQ(run_piles("bulgarian trace '8, 4, 3' --json").out, trace);
  // Babylon's answers (who wins, with which moves), without the time and memo they took.
  const auto babylon = [](const std::string& args) {
    std::vector<nlohmann::json> answers;
    std::istringstream lines(run_piles(args + " --json").out);
    for (std::string line; std::getline(lines, line);) {
      const auto j = nlohmann::json::parse(line);
      answers.push_back(
          {j.at("counts"), j.at("winner"), j.value("winning_moves", nlohmann::json())});
    }
    return answers;
  };
  EXPECT_EQ(babylon("babylon solve '3, 3'"), babylon("babylon solve 3,3"));
  EXPECT_EQ(babylon("babylon solve 3 3"), babylon("babylon solve 3,3"));
  EXPECT_EQ(babylon("babylon table --colours 2 --max-chips 6"),
            babylon("babylon table --colors 2 --max-chips 6"));
  for (const char* bad : {"1,,2", "'1, ,2'", "',1'", "'1,'"})
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(std::string("topswops play ") + bad),
                                               "empty entry"))
        << bad;
}

// Every command's --help lists the options every command takes.
TEST(Cli, EveryHelpListsTheCommonOptions) {
  for (const char* command :
       {"topswops solve", "bulgarian analyze", "nim count", "babylon table"}) {
    const auto r = run_piles(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    for (const char* option : {"--backend", "--threads", "--json", "--quiet", "--status-every"})
      EXPECT_NE(r.out.find(option), std::string::npos) << option << " in " << command;
  }
}

TEST(Cli, AnOverlongArgumentIsNamedInOneShortLine) {
  std::string parts = "600000000";
  for (int i = 1; i < 10000; ++i) parts += ",600000000";
  const auto r = run_piles("bulgarian trace " + parts);
  EXPECT_TRUE(piles::testing::is_usage_error(
      r, "has 6000000000000 cards, at most 1000000000 are supported"));
  EXPECT_LT(r.err.size(), 400u);
}

TEST(Cli, GpuBackendWithoutDeviceIsAUsageError) {
  if (piles::gpu_unavailable_reason().empty()) GTEST_SKIP() << "a GPU answers here";
  const auto r = run_piles("--backend gpu results --out /tmp/piles_results_unused");
  EXPECT_EQ(r.status, 2);
#ifdef PILES_HAVE_CUDA
  EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
#else
  EXPECT_NE(r.err.find("no GPU support"), std::string::npos) << r.err;
#endif
}
