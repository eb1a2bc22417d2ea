// The whole program on the GPU against the whole program on the CPU, through the command line a
// user types: identical answers, node and partition counts included. Skips where no CUDA device
// answers (fails under PILES_REQUIRE_GPU=1).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/gpu.hpp"
#include "tests/support/run_piles.hpp"

namespace {

using piles::testing::run_piles;

// Every JSON line of a run, without what depends on the machine rather than the answer.
std::vector<nlohmann::json> answers(const std::string& args, const std::string& backend) {
  const auto r = run_piles("--backend " + backend + " " + args + " --json");
  EXPECT_EQ(r.status, 0) << args << ": " << r.err;
  std::vector<nlohmann::json> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("backend"), backend) << args;
    j = piles::testing::without_provenance(j);
    for (const char* key : {"device", "seconds", "nodes_per_second"}) j.erase(key);
    out.push_back(std::move(j));
  }
  return out;
}

// `gpu_only`: options that only a GPU run takes (the CPU refuses them).
void expect_same_answers(const std::string& args, const std::string& gpu_only = "") {
  const auto cpu = answers(args, "cpu");
  EXPECT_FALSE(cpu.empty()) << args;
  EXPECT_EQ(answers(args + " " + gpu_only, "gpu"), cpu) << args;
}

class GpuCli : public ::testing::Test {
 protected:
  void SetUp() override { PILES_NEED_GPU(); }
};

TEST_F(GpuCli, TopswopsSolveMatchesTheCpu) {
  // Every slice on the GPU: at n = 12 all are too small for it and would run on the host.
  expect_same_answers("topswops solve 12", "--small-slices gpu");
  // The CPU engine named: games ending sorted go backward on CPU threads by default, with other
  // nodes.
  expect_same_answers("topswops solve 12 --final sorted --engine dfs", "--small-slices gpu");
}

TEST_F(GpuCli, BulgarianAnalyzeMatchesTheCpu) {
  expect_same_answers("bulgarian analyze 30..50 --engine backward");
  expect_same_answers("bulgarian analyze 30..50 --engine forward");
}

TEST_F(GpuCli, AutoLeavesTheBackwardWalkToTheCpuAndTheForwardEngineToTheGpu) {
  // The walk runs faster on the CPU threads (results/bench/gpu_h200.md); the forward engine on
  // the GPU.
  for (const auto& [engine, backend] : {std::pair{"backward", "cpu"}, {"forward", "gpu"}}) {
    const auto r = run_piles(std::string("bulgarian analyze 40 --json --engine ") + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("backend"), backend) << engine;
  }
}

TEST_F(GpuCli, StochasticGameMatchesTheCpu) {
  expect_same_answers("bulgarian random 30 --p 0.4 --runs 5000 --steps 200 --seed 7");
}

TEST_F(GpuCli, SelfTestPassesOnTheGpu) {
  const auto r = run_piles("--backend gpu selftest");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok    topswops/gpu-lockstep"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

}  // namespace
