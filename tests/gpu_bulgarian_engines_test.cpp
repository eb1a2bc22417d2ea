// GPU engines against the CPU engines on the same sizes: identical counts, identical random
// chains. Skips where no CUDA device answers.
#include <gtest/gtest.h>

#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

using piles::testing::target;

class GpuBulgarian : public ::testing::Test {
 protected:
  void SetUp() override { PILES_NEED_GPU(); }
};

TEST_F(GpuBulgarian, BackwardWalkMatchesCpu) {
  for (int n : {1, 2, 10, 36, 45, 66, 80, 91}) {
    SCOPED_TRACE(n);
    const Analysis cpu = analyze(n, Engine::backward, target(Backend::cpu));
    const Analysis gpu = analyze(n, Engine::backward, target(Backend::gpu));
    EXPECT_TRUE(cpu.same_structure(gpu));
  }
}

// By default the host opens up to 2^19 subtrees, the whole forest for every n <= 75: with a
// few the kernel walks almost all of it, and must have visited partitions.
TEST_F(GpuBulgarian, BackwardWalkOnTheDeviceMatchesCpu) {
  BackwardOptions few;
  few.gpu_host_subtrees = 64;
  for (int n : {30, 36, 41, 45, 50}) {
    SCOPED_TRACE(n);
    const Analysis cpu = analyze(n, Engine::backward, target(Backend::cpu));
    const Analysis gpu = analyze(n, Engine::backward, target(Backend::gpu), nullptr, few);
    EXPECT_TRUE(cpu.same_structure(gpu));
    EXPECT_GT(gpu.device_partitions, 0u);
    EXPECT_LT(gpu.device_partitions, gpu.partitions);
  }
}

// Rounds of at most 64 descents a walk: many rounds, each split to fill the next (down to the
// children of the node a walk stands on), and still every partition once.
TEST_F(GpuBulgarian, BackwardWalkInShortRoundsMatchesCpu) {
  BackwardOptions short_rounds;
  short_rounds.gpu_host_subtrees = 64;
  short_rounds.gpu_walk_budget = 64;
  for (int n : {36, 45, 50}) {
    SCOPED_TRACE(n);
    const Analysis cpu = analyze(n, Engine::backward, target(Backend::cpu));
    const Analysis gpu = analyze(n, Engine::backward, target(Backend::gpu), nullptr, short_rounds);
    EXPECT_TRUE(cpu.same_structure(gpu));
    EXPECT_GT(gpu.device_partitions, 0u);
  }
}

TEST_F(GpuBulgarian, ForwardEngineMatchesCpu) {
  for (int n : {1, 2, 10, 36, 60, 75}) {
    SCOPED_TRACE(n);
    const Analysis cpu = analyze(n, Engine::forward, target(Backend::cpu));
    const Analysis gpu = analyze(n, Engine::forward, target(Backend::gpu));
    EXPECT_TRUE(cpu.same_structure(gpu));
    EXPECT_TRUE(gpu.same_structure(analyze(n, Engine::backward, target(Backend::gpu))));
  }
}

TEST_F(GpuBulgarian, RandomChainsMatchCpu) {
  RandomSpec spec;
  spec.start = {40};
  spec.p = 0.35;
  spec.runs = 20000;
  spec.steps = 300;
  spec.seed = 2024;
  const RandomResult cpu = run_random(spec, target(Backend::cpu));
  const RandomResult gpu = run_random(spec, target(Backend::gpu));
  EXPECT_EQ(cpu.shape_sums, gpu.shape_sums);
  EXPECT_EQ(cpu.pile_sum, gpu.pile_sum);
}

}  // namespace
}  // namespace piles::bulgarian
