#include <gtest/gtest.h>

#include <filesystem>

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
  if (reason.empty())
    EXPECT_EQ(r.out.find("GPU: none"), std::string::npos) << r.out;
  else
    EXPECT_NE(r.out.find("GPU: none (" + reason + ")\n"), std::string::npos) << r.out;
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

TEST(Cli, HelpExitsZero) {
  const auto r = run_piles("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("topswops"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "subcommand"},
      {"juggle", "juggle"},
      {"topswops", "subcommand"},
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
      {"topswops solve 5 --checkpoint /proc/self/mem", "/proc/self/mem: cannot read the journal"},
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
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
