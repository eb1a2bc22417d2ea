// piles bench: the CPU signatures (work counts and answers) are the same on one thread and on
// two and equal the committed ones; the record names the machine; asking for a GPU that does
// not answer is refused with the reason, and a record file already there is kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "host/common/backend.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using piles::testing::run_piles;

// Committed: a change here is a change in what the engines compute.
const std::map<std::string, std::string> cpu_signatures = {
    {"topswops solve 13", "94854575 nodes, f = 80 x1"},
    {"bulgarian analyze 61..82", "155094872 partitions, D(82) = 84 x626476"},
    {"bulgarian analyze 61..65", "7681348 partitions, D(65) = 98 x84654"},
    {"bulgarian random 40 --p 0.35 --runs 20000 --steps 300", "6000000 chain steps, piles 257835"},
    {"nim grundy --k 3 --upto 5000", "5000 pile sizes, sum 6250963"},
    {"babylon solve 5 5 5 5 5", "166135 positions, second wins"},
};

std::map<std::string, std::string> signatures(int threads) {
  const auto r = run_piles("--backend cpu --threads " + std::to_string(threads) + " bench --json");
  EXPECT_EQ(r.status, 0) << r.err;
  std::map<std::string, std::string> out;
  const nlohmann::json record = r.json();
  for (const auto& m : record.at("measures")) {
    EXPECT_EQ(m.at("backend"), "cpu");
    EXPECT_GT(m.at("work").get<std::uint64_t>(), 0u) << m;
    out[m.at("instance").get<std::string>()] = m.at("signature");
  }
  return out;
}

}  // namespace

TEST(BenchCommand, CpuSignaturesAreTheCommittedOnesOnAnyThreadCount) {
  const auto one = signatures(1);
  EXPECT_EQ(one, signatures(2));
  EXPECT_EQ(one, cpu_signatures);
}

TEST(BenchCommand, TheRecordNamesTheMachineAndTheBuild) {
  piles::testing::TempDir dir;
  const std::string file = dir.file("bench.json");
  const auto r = run_piles("--backend cpu --threads 2 bench --json " + file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("topswops solve 13"), std::string::npos) << r.out;
  std::ifstream in(file);
  const auto record = nlohmann::json::parse(in);
  for (const char* key :
       {"piles", "commit", "date", "cpu", "machine", "topswops_cpu_path", "device", "driver"})
    EXPECT_FALSE(record.at(key).get<std::string>().empty()) << key;
  EXPECT_NE(r.out.find("Topswops CPU path: "), std::string::npos) << r.out;
  EXPECT_EQ(record.at("threads"), 2);
  EXPECT_EQ(record.at("measures").size(), cpu_signatures.size());
}

TEST(BenchCommand, AGpuThatDoesNotAnswerIsRefusedAndTheLastRecordKept) {
  const std::string reason = piles::gpu_unavailable_reason();
  if (reason.empty()) GTEST_SKIP() << "a GPU answers";
  piles::testing::TempDir dir;
  const std::string file = dir.file("bench.json");
  std::ofstream(file) << "{}\n";
  for (const char* backend : {"gpu", "both"})
    EXPECT_TRUE(piles::testing::is_usage_error(
        run_piles(std::string("bench --json ") + file + " --backend " + backend), "--backend gpu"))
        << backend;
  std::ifstream in(file);
  EXPECT_EQ(nlohmann::json::parse(in), nlohmann::json::object());
}

TEST(BenchCommand, ARecordFileThatCannotBeWrittenIsRefusedBeforeTheRun) {
  piles::testing::TempDir dir;
  const auto r = run_piles("--backend cpu bench --json " + dir.file("no/such/folder/bench.json"));
  // A usage error prints nothing on stdout: no instance ran.
  EXPECT_TRUE(piles::testing::is_usage_error(
      r, "--json " + dir.file("no/such/folder/bench.json") + ": cannot be written"));
}
