// piles selftest: every CPU check passes, a wrong or throwing check is a failure that names
// itself, and a GPU self-test without a device is refused with CUDA's reason.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>

#include "host/common/backend.hpp"
#include "host/selftest/selftest.hpp"
#include "tests/support/run_piles.hpp"

namespace {

using piles::testing::run_piles;
namespace st = piles::selftest;

TEST(SelfTest, EveryCpuCheckPassesOnEveryGame) {
  const auto r = run_piles("--backend cpu selftest --json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  std::istringstream lines(r.out);
  std::set<std::string> games;
  int checks = 0;
  for (std::string line; std::getline(lines, line); ++checks) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_TRUE(j.at("ok").get<bool>()) << line;
    EXPECT_EQ(j.at("expected"), j.at("got")) << line;
    const std::string check = j.at("check");
    games.insert(check.substr(0, check.find('/')));
  }
  EXPECT_GE(checks, 15);
  EXPECT_EQ(games, (std::set<std::string>{"topswops", "bulgarian", "nim", "babylon"}));
}

TEST(SelfTest, AWrongAnswerOrAThrowFailsNamingTheCheck) {
  const std::vector<st::Check> checks = {
      {"game/right", "one",
       [] {
         return st::Compared{"7", "7"};
       }},
      {"game/wrong", "two",
       [] {
         return st::Compared{"7", "8"};
       }},
      {"game/throws", "three", []() -> st::Compared { throw std::runtime_error("device lost"); }}};
  std::vector<std::string> seen;
  const auto results = st::run(checks, [&](const st::CheckResult& r) { seen.push_back(r.engine); });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(seen, (std::vector<std::string>{"game/right", "game/wrong", "game/throws"}));
  EXPECT_TRUE(results[0].ok());
  EXPECT_FALSE(results[1].ok());
  EXPECT_FALSE(results[2].ok());
  EXPECT_EQ(results[2].got, "error: device lost");
}

TEST(SelfTest, CompareEachNamesTheFirstItemThatDiffers) {
  const st::Compared same = st::compare_each({{"1", "1"}, {"4", "4"}}, 3);
  EXPECT_EQ(same.expected, same.got);
  EXPECT_EQ(same.got, "2 alike, last 4");
  const st::Compared differ = st::compare_each({{"1", "1"}, {"4", "5"}, {"9", "0"}}, 3);
  EXPECT_EQ(differ.expected, "[4] 4");
  EXPECT_EQ(differ.got, "[4] 5");
}

TEST(SelfTest, GpuSelfTestWithoutADeviceIsRefusedNamingWhy) {
  const std::string reason = piles::gpu_unavailable_reason();
  if (reason.empty()) GTEST_SKIP() << "a GPU answers: the GPU tests run its self-test";
  const auto r = run_piles("--backend gpu selftest");
  EXPECT_TRUE(piles::testing::is_usage_error(r, reason)) << r.err;
}

}  // namespace
