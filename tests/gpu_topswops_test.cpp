#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/common/slices.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/backward_passes.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/topswops.hpp"

namespace ts = piles::topswops;

namespace {

struct Gpu {
  ts::GpuKernel kernel;
  std::uint64_t pass_budget = ts::lockstep_pass_budget;
  std::uint64_t found_capacity = piles::gpu::default_found_capacity;
};

using Chunks = piles::testing::TopswopsChunks;
using piles::testing::cpu_chunks;

Chunks run_gpu(const ts::Plan& plan, const std::vector<int>& chunks, int target, const Gpu& gpu) {
  Chunks out;
  ts::run_chunks_gpu(
      plan, chunks, target, [&](int chunk, const ts::Partial& p, double) { out.emplace(chunk, p); },
      gpu.kernel, gpu.pass_budget, gpu.found_capacity);
  return out;
}

// Every chunk of every round, each round from the target the CPU's earlier rounds give.
void expect_same_chunks(const ts::Plan& plan, const Gpu& gpu) {
  int target = plan.start_target;
  for (int r = 0; r < plan.round_count(); ++r) {
    const auto chunks = plan.chunks_of_round(r);
    const Chunks cpu = cpu_chunks(plan, chunks, target);
    const Chunks on_gpu = run_gpu(plan, chunks, target, gpu);
    ASSERT_EQ(cpu.size(), chunks.size());
    ASSERT_EQ(on_gpu.size(), chunks.size());
    for (int c : chunks)
      EXPECT_EQ(on_gpu.at(c), cpu.at(c)) << "n " << plan.n << " " << ts::final_name(plan.final)
                                         << " chunk " << c << " pass budget " << gpu.pass_budget;
    for (const auto& [c, p] : cpu) target = std::max(target, p.best);
  }
}

// Every test for each kernel.
class GpuTopswops : public ::testing::TestWithParam<ts::GpuKernel> {
 protected:
  void SetUp() override { PILES_NEED_GPU(); }
};

// A kernel's name as a test's: letters, digits and underscores.
std::string kernel_test_name(const ::testing::TestParamInfo<ts::GpuKernel>& info) {
  std::string name = ts::gpu_kernel_name(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace

TEST_P(GpuTopswops, EveryChunkMatchesTheCpuEngine) {
  for (int n : {6, 9, 12, 13})
    expect_same_chunks(ts::make_plan(n, ts::Final::any, {}), {GetParam()});
  for (int n : {9, 12}) expect_same_chunks(ts::make_plan(n, ts::Final::sorted, {}), {GetParam()});
}

TEST_P(GpuTopswops, ChunksOverflowingASmallGameBufferRunAgain) {
  // From target 0 every chunk finds many games: three overflow the buffer.
  for (int n : {8, 10})
    expect_same_chunks(ts::make_plan(n, ts::Final::any, 0),
                       {GetParam(), ts::lockstep_pass_budget, 3});
}

// Small enough for compute-sanitizer's memcheck and racecheck (the bundle's `run tests`).
TEST_P(GpuTopswops, SmallPlansMatchTheCpuEngine) {
  for (int n : {5, 7, 8}) expect_same_chunks(ts::make_plan(n, ts::Final::any, {}), {GetParam()});
  expect_same_chunks(ts::make_plan(8, ts::Final::sorted, {}), {GetParam(), 7});
}

TEST_P(GpuTopswops, ThreeWordDecksMatchTheCpuEngine) {
  // 17 cards need the three-word deck; one chunk from f(17) keeps it short.
  const ts::Plan plan = ts::make_plan(17, ts::Final::any, ts::published::longest[17]);
  const std::vector<int> chunks = {plan.chunk_count / 2};
  const Chunks cpu = cpu_chunks(plan, chunks, plan.start_target);
  const Chunks on_gpu = run_gpu(plan, chunks, plan.start_target, {GetParam()});
  EXPECT_EQ(on_gpu.at(chunks[0]), cpu.at(chunks[0]));
  EXPECT_GT(cpu.at(chunks[0]).total_nodes(), 0u);
}

TEST_P(GpuTopswops, SlicesCutForTheDeviceMatchTheCpuEngine) {
  // From f(13) the first rounds of 14 cards find longer games: the prefixes below which the
  // cut slice finds one are finished by more passes of the device (rising.hpp), their targets
  // raised where the whole search raises them; from f(14) none is.
  const ts::Plan plan = ts::make_plan(14, ts::Final::any, std::nullopt);
  for (const int target : {plan.start_target, ts::published::longest[14]})
    for (const std::vector<int>& chunks : {std::vector<int>{0}, std::vector<int>{1, 2}}) {
      const Chunks cpu = cpu_chunks(plan, chunks, target);
      const Chunks on_gpu = run_gpu(plan, chunks, target, {GetParam()});
      for (int c : chunks) EXPECT_EQ(on_gpu.at(c), cpu.at(c)) << "chunk " << c << ", " << target;
    }
}

TEST_P(GpuTopswops, TailedSearchesMatchTheCpuEngine) {
  ts::TailOptions o;
  o.n = 12;
  o.run.quiet = true;
  piles::RunTarget cpu;
  cpu.threads = 2;
  const ts::TailResult tail = ts::run_tail(o, cpu);
  for (ts::Final final : {ts::Final::any, ts::Final::sorted})
    expect_same_chunks(ts::make_plan(12, final, {}, tail.tail(final)), {GetParam()});
}

INSTANTIATE_TEST_SUITE_P(Kernels, GpuTopswops,
                         ::testing::Values(ts::GpuKernel::dfs, ts::GpuKernel::lockstep,
                                           ts::GpuKernel::lean, ts::GpuKernel::staged,
                                           ts::GpuKernel::staged_shared),
                         kernel_test_name);

// The kernels of lanes (lockstep, lean, staged, staged-shared), which share the parking of lanes
// between launches.
class GpuTopswopsLockstep : public ::testing::TestWithParam<ts::GpuKernel> {
 protected:
  void SetUp() override { PILES_NEED_GPU(); }
};

TEST_P(GpuTopswopsLockstep, EveryPassBudgetGivesTheSameChunks) {
  // One pass a launch parks every lane after each unit, seven parks many in the middle of
  // playing a child, a thousand parks them now and then.
  const ts::GpuKernel kernel = GetParam();
  for (ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    for (int n : {7, 8}) expect_same_chunks(ts::make_plan(n, final, {}), {kernel, 1});
    for (int n : {9, 10}) expect_same_chunks(ts::make_plan(n, final, {}), {kernel, 7});
    for (int n : {11, 12}) expect_same_chunks(ts::make_plan(n, final, {}), {kernel, 1000});
  }
}

TEST_P(GpuTopswopsLockstep, ThreeWordDecksParkAndResume) {
  // The longest prefix of this chunk takes some 1.7e7 units: a budget of 2^16 passes parks its
  // three-word lanes a few hundred times, many of them in the middle of playing a child.
  const ts::Plan plan = ts::make_plan(17, ts::Final::any, ts::published::longest[17]);
  const std::vector<int> chunks = {plan.chunk_count / 2};
  const Chunks cpu = cpu_chunks(plan, chunks, plan.start_target);
  EXPECT_EQ(run_gpu(plan, chunks, plan.start_target, {GetParam(), 1u << 16}), cpu);
}

TEST_P(GpuTopswopsLockstep, AStopBetweenLaunchesKeepsTheChunksFinished) {
  // A pass budget of 16 makes many launches of n = 11; told to stop after the k-th,
  // the call hands over the chunks finished by then, each the CPU engine's, and throws. Later
  // stops keep at least as many; some stop keeps some chunks but not all.
  const ts::Plan plan = ts::make_plan(11, ts::Final::any, ts::published::longest[11]);
  std::vector<int> chunks(plan.chunk_count);
  for (int c = 0; c < plan.chunk_count; ++c) chunks[c] = c;
  const Chunks cpu = cpu_chunks(plan, chunks, plan.start_target);
  std::size_t before = 0;
  bool some_but_not_all = false;
  for (int k = 1; k <= 256; k *= 2) {
    Chunks kept;
    int checks = 0;
    const auto done = [&](int chunk, const ts::Partial& p, double) { kept.emplace(chunk, p); };
    // The first check comes before the first launch, the (k + 1)-th after the k-th.
    const piles::Cancel stop_after_k = [&] { return ++checks > k; };
    try {
      ts::run_chunks_gpu(plan, chunks, plan.start_target, done, GetParam(), 16,
                         piles::gpu::default_found_capacity, 1, false, stop_after_k);
      EXPECT_EQ(kept, cpu) << "not stopped after " << k << " launches";
    } catch (const piles::Cancelled&) {
      for (const auto& [c, p] : kept) EXPECT_EQ(p, cpu.at(c)) << "chunk " << c << ", k " << k;
      EXPECT_GE(kept.size(), before) << k;
      some_but_not_all = some_but_not_all || (!kept.empty() && kept.size() < cpu.size());
    }
    before = kept.size();
  }
  EXPECT_TRUE(some_but_not_all);
}

INSTANTIATE_TEST_SUITE_P(Kernels, GpuTopswopsLockstep,
                         ::testing::Values(ts::GpuKernel::lockstep, ts::GpuKernel::lean,
                                           ts::GpuKernel::staged, ts::GpuKernel::staged_shared),
                         kernel_test_name);

// The backward search of games ending sorted in passes on the device: chunk by chunk what the
// CPU engine counts and finds, from any pass budget, and chunks whose games overflow a small
// buffer searched again on the host.
TEST(GpuTopswopsBackward, PassesMatchTheCpuEngineChunkByChunk) {
  PILES_NEED_GPU();
  for (int n : {13, 17}) {
    const ts::Plan plan = ts::make_backward_plan(n, {}, ts::backward::Prune::play);
    const std::vector<int> chunks =
        n == 13 ? plan.chunks_of_round(plan.round_count() - 1) : std::vector<int>{0, 1, 2};
    Chunks cpu;
    ts::run_backward_chunks(plan, chunks, plan.start_target, 4,
                            [&](int c, const ts::Partial& p, double) { cpu.emplace(c, p); });
    for (const auto& [budget, capacity] :
         std::vector<std::pair<std::uint64_t, std::uint64_t>>{{ts::backward_pass_budget, 1u << 20},
                                                              {1000, 1u << 20},
                                                              {ts::backward_pass_budget, 1}}) {
      Chunks gpu;
      ts::run_backward_chunks_gpu(
          plan, chunks, plan.start_target, 4,
          [&](int c, const ts::Partial& p, double) { gpu.emplace(c, p); }, {}, budget, capacity);
      EXPECT_EQ(gpu, cpu) << "n " << n << ", budget " << budget << ", capacity " << capacity;
    }
  }
}

TEST(GpuTopswopsBackward, SolveOnTheGpuGivesTheCpuAnswer) {
  PILES_NEED_GPU();
  const auto cpu = piles::testing::run_piles(
      "--backend cpu --json topswops solve 13 --final sorted --engine backward");
  const auto gpu = piles::testing::run_piles(
      "--backend gpu --json topswops solve 13 --final sorted --engine backward");
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  ASSERT_EQ(gpu.status, 0) << gpu.err;
  for (const char* key : {"max_steps", "count", "decks", "nodes"})
    EXPECT_EQ(gpu.json()[key], cpu.json()[key]) << key;
  EXPECT_EQ(gpu.json()["max_steps"], ts::published::longest_sorted[13]);
}
