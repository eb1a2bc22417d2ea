#include <gtest/gtest.h>

#include "build_info.hpp"
#include "tests/support/run_piles.hpp"

using piles::testing::run_piles;

TEST(Cli, VersionSaysBuildAndDevice) {
  const auto r = run_piles("--version");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("piles ") + piles::version), std::string::npos);
#ifdef PILES_HAVE_CUDA
  EXPECT_NE(r.out.find("CUDA build: yes"), std::string::npos);
#else
  EXPECT_NE(r.out.find("CUDA build: no"), std::string::npos);
#endif
  EXPECT_NE(r.out.find("GPU: "), std::string::npos);
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
  };
  for (const auto& [args, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles(args), message)) << args;
}

TEST(Cli, GpuBackendWithoutDeviceIsAUsageError) {
  const auto version = run_piles("--version");
  if (version.out.find("GPU: none found") == std::string::npos)
    GTEST_SKIP() << "a GPU answers here";
  const auto r = run_piles("--backend gpu results --out /tmp/piles_results_unused");
  EXPECT_EQ(r.status, 2);
#ifdef PILES_HAVE_CUDA
  EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
#else
  EXPECT_NE(r.err.find("no GPU support"), std::string::npos) << r.err;
#endif
}
