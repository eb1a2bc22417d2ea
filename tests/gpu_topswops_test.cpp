#include <gtest/gtest.h>

#include <map>

#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/support/gpu.hpp"

namespace ts = piles::topswops;

namespace {

std::map<int, ts::Partial> run(const ts::Plan& plan, const std::vector<int>& chunks, int target,
                               bool gpu) {
  std::map<int, ts::Partial> out;
  auto done = [&](int chunk, const ts::Partial& p, double) { out.emplace(chunk, p); };
  if (gpu)
    ts::run_chunks_gpu(plan, chunks, target, done);
  else
    ts::run_chunks_cpu(plan, chunks, target, 2, done);
  return out;
}

// Every chunk of every round, each round from the target the CPU's earlier rounds give.
void expect_same_chunks(const ts::Plan& plan) {
  int target = plan.start_target;
  for (int r = 0; r < plan.round_count(); ++r) {
    const auto chunks = plan.chunks_of_round(r);
    const auto cpu = run(plan, chunks, target, false);
    const auto gpu = run(plan, chunks, target, true);
    ASSERT_EQ(cpu.size(), chunks.size());
    ASSERT_EQ(gpu.size(), chunks.size());
    for (int c : chunks) EXPECT_EQ(gpu.at(c), cpu.at(c)) << "n " << plan.n << " chunk " << c;
    for (const auto& [c, p] : cpu) target = std::max(target, p.best);
  }
}

class GpuTopswops : public ::testing::Test {
 protected:
  void SetUp() override { PILES_NEED_GPU(); }
};

}  // namespace

TEST_F(GpuTopswops, EveryChunkMatchesTheCpuEngine) {
  for (int n : {6, 9, 12, 13}) expect_same_chunks(ts::make_plan(n, ts::Final::any, {}));
  for (int n : {9, 12}) expect_same_chunks(ts::make_plan(n, ts::Final::sorted, {}));
}

TEST_F(GpuTopswops, ThreeWordDecksMatchTheCpuEngine) {
  // 17 cards need the three-word deck; one chunk from f(17) keeps it short.
  const ts::Plan plan = ts::make_plan(17, ts::Final::any, ts::published::longest[17]);
  const std::vector<int> chunks = {plan.chunk_count / 2};
  const auto cpu = run(plan, chunks, plan.start_target, false);
  const auto gpu = run(plan, chunks, plan.start_target, true);
  EXPECT_EQ(gpu.at(chunks[0]), cpu.at(chunks[0]));
  EXPECT_GT(cpu.at(chunks[0]).total_nodes(), 0u);
}

TEST_F(GpuTopswops, TailedSearchesMatchTheCpuEngine) {
  ts::TailOptions o;
  o.n = 12;
  o.run.quiet = true;
  piles::RunTarget cpu;
  cpu.threads = 2;
  const ts::TailResult tail = ts::run_tail(o, cpu);
  for (ts::Final final : {ts::Final::any, ts::Final::sorted})
    expect_same_chunks(ts::make_plan(12, final, {}, tail.tail(final)));
}
