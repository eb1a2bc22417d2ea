// GPU engines against the CPU engines on the same sizes: identical counts, identical random
// chains. Skips where no CUDA device answers.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <vector>

#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forest_chunks.hpp"
#include "host/bulgarian/forward.hpp"
#include "host/bulgarian/lane_walk.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/common/partition_table.hpp"
#include "kernels/bulgarian_backward.hpp"
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

// The lanes kernels (core/bulgarian_lane.hpp, leaves stepped down to or visited in place) and
// the rounds kernel, each on its own: with a few host subtrees the device walks nearly all, and
// with launches of 64 passes (n <= 50) a lanes kernel parks its walks, the host splits them,
// and later launches go on with them.
TEST_F(GpuBulgarian, EveryWalkKernelMatchesCpu) {
  for (const WalkKernel kernel :
       {WalkKernel::lanes, WalkKernel::lanes_leaves, WalkKernel::rounds}) {
    SCOPED_TRACE(walk_kernel_name(kernel));
    BackwardOptions options;
    options.walk_kernel = kernel;
    BackwardOptions few = options;
    few.gpu_host_subtrees = 64;
    BackwardOptions short_launches = few;
    short_launches.gpu_walk_budget = 64;
    for (int n : {1, 2, 10, 36, 45, 66, 80, 91}) {
      SCOPED_TRACE(n);
      const Analysis cpu = analyze(n, Engine::backward, target(Backend::cpu));
      for (const BackwardOptions& o : {options, few, short_launches}) {
        // Budgets of 64 take thousands of rounds or launches beyond n = 50.
        if (o.gpu_walk_budget && n > 50) continue;
        const Analysis gpu = analyze(n, Engine::backward, target(Backend::gpu), nullptr, o);
        EXPECT_TRUE(cpu.same_structure(gpu));
        if (n >= 30 && o.gpu_host_subtrees) EXPECT_GT(gpu.device_partitions, 0u);
      }
    }
  }
}

// A journaled run's chunks on either lanes kernel, each equal to the CPU walk of the same chunk.
TEST_F(GpuBulgarian, LanesKernelsEqualCpuChunkByChunk) {
  const int n = 70, chunks = 16;
  const ForestChunks cut = cut_forest(n, chunks, ForestSplit::sampled);
  for (int c = 0; c < chunks; ++c)
    for (const WalkKernel kernel : {WalkKernel::lanes, WalkKernel::lanes_leaves}) {
      SCOPED_TRACE(fmt::format("chunk {}, {}", c, walk_kernel_name(kernel)));
      const std::vector<ForestWalker> part(cut.chunk(c).begin(), cut.chunk(c).end());
      std::atomic<std::uint64_t> cpu_visited = 0;  // what each walk told the progress
      std::uint64_t gpu_visited = 0;
      const ForestCounts cpu =
          walk_subtrees_cpu(part, depth_bound(n), 2, [&](std::uint64_t p) { cpu_visited += p; });
      const GpuWalk gpu = walk_subtrees_gpu(n, part, std::nullopt, std::nullopt, kernel,
                                            [&](std::uint64_t p) { gpu_visited += p; });
      EXPECT_EQ(gpu.counts.histogram, cpu.histogram);
      EXPECT_EQ(gpu.counts.leaves, cpu.leaves);
      EXPECT_EQ(cpu_visited.load(), cpu.nodes());
      EXPECT_EQ(gpu_visited, gpu.counts.nodes());
    }
}

// The lanes kernels split walks on the device: one launch walks n = 80's 16 host subtrees as
// they are, equal to the CPU walk and to its host twin (lane_walk.hpp), its deepest walk at a
// partition of the longest transient; with launches of 64 passes, the walks parked launch
// after launch add up to the same.
TEST_F(GpuBulgarian, LanesKernelsSplitOnTheDevice) {
  const int n = 80;
  const ForestTop top = expand_forest(n, 16);
  const ForestCounts cpu = walk_subtrees_cpu(top.subtrees, depth_bound(n), 2, nullptr);
  for (const bool leaves : {false, true}) {
    SCOPED_TRACE(leaves ? "lanes-leaves" : "lanes");
    const gpu::LaneRound one =
        gpu::bulgarian_walk_lanes(top.subtrees, depth_bound(n), gpu::lane_pass_budget, leaves);
    EXPECT_TRUE(one.parked.empty());
    EXPECT_EQ(one.histogram, cpu.histogram);
    EXPECT_EQ(one.leaves, cpu.leaves);
    int deepest = static_cast<int>(cpu.histogram.size()) - 1;
    while (deepest > 0 && cpu.histogram[deepest] == 0) --deepest;
    EXPECT_EQ(one.deepest, deepest);
    EXPECT_EQ(one.deepest_walk.node.depth, deepest);
    LaneWalkStats stats;
    const LaneWalk twin =
        lane_walk_host(top.subtrees, n, {4096, std::uint64_t{1} << 26, leaves}, 0, stats);
    EXPECT_EQ(twin.counts.histogram, cpu.histogram);

    ForestCounts sum{std::vector<std::uint64_t>(depth_bound(n)), 0};
    std::vector<ForestWalker> work = top.subtrees;
    int launches = 0;
    while (!work.empty()) {
      const gpu::LaneRound r = gpu::bulgarian_walk_lanes(work, depth_bound(n), 64, leaves);
      sum.merge({r.histogram, r.leaves});
      work = r.parked;
      ++launches;
    }
    EXPECT_GT(launches, 1);
    EXPECT_EQ(sum.histogram, cpu.histogram);
    EXPECT_EQ(sum.leaves, cpu.leaves);
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

TEST_F(GpuBulgarian, WideRanksMatchTheCpu) {
  for (int n : {10, 60, 75}) {
    SCOPED_TRACE(n);
    const PartitionTable table(n);
    const ForwardCounts cpu = forward_cpu_ranks<std::uint64_t>(table, 2);
    const ForwardCounts gpu = gpu::bulgarian_forward(table.view(), true);
    EXPECT_EQ(gpu.histogram, cpu.histogram);
    EXPECT_EQ(gpu.garden_of_eden, cpu.garden_of_eden);
    EXPECT_EQ(gpu.cycle_ranks, cpu.cycle_ranks);
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
