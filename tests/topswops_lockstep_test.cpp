#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "host/topswops/lockstep_engine.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/targets.hpp"
#include "tests/support/topswops.hpp"

namespace ts = piles::topswops;
namespace ls = piles::topswops::lockstep;
using piles::testing::run_piles;

namespace {

using Chunks = piles::testing::TopswopsChunks;
using piles::testing::cpu_chunks;

Chunks run_lockstep(const ts::Plan& plan, const std::vector<int>& chunks, int target,
                    const ts::LockstepOptions& options, ts::LaneUse* use = nullptr) {
  Chunks out;
  ts::run_chunks_lockstep(
      plan, chunks, target, options,
      [&](int chunk, const ts::Partial& p, double) { out.emplace(chunk, p); }, use);
  return out;
}

// Every chunk of every round, each round from the target the CPU's earlier rounds give: the
// lockstep engine's partials (best, count, decks, nodes per level) equal the CPU engine's.
void expect_same_chunks(const ts::Plan& plan, const ts::LockstepOptions& options) {
  int target = plan.start_target;
  ts::LaneUse use;
  std::uint64_t nodes = 0;
  for (int r = 0; r < plan.round_count(); ++r) {
    const auto chunks = plan.chunks_of_round(r);
    const Chunks cpu = cpu_chunks(plan, chunks, target);
    const Chunks lockstep = run_lockstep(plan, chunks, target, options, &use);
    ASSERT_EQ(lockstep.size(), chunks.size());
    for (int c : chunks)
      ASSERT_EQ(lockstep.at(c), cpu.at(c))
          << "n " << plan.n << " " << ts::final_name(plan.final) << " chunk " << c << " budget "
          << options.pass_budget << " warps " << options.warps;
    for (const auto& [c, p] : cpu) {
      target = std::max(target, p.best);
      nodes += p.total_nodes();
    }
  }
  // Each landing makes one node; the lanes need no more than the warps issue.
  EXPECT_EQ(use.nodes, nodes);
  EXPECT_EQ(use.units[ts::lockstep::land], nodes);
  EXPECT_LE(use.lane_instructions(), 32 * use.warp_instructions());
  EXPECT_LE(use.lane_instructions(ts::probe_costs_ptx),
            32 * use.warp_instructions(ts::probe_costs_ptx));
  if (options.pass_budget) EXPECT_GE(use.launches, 1u);
}

ts::LockstepOptions budget(std::uint64_t passes, int warps = 1, int threads = 1,
                           ts::LockstepKernel kernel = ts::LockstepKernel::lockstep,
                           std::uint64_t turn = 0) {
  ts::LockstepOptions o;
  o.pass_budget = passes;
  o.warps = warps;
  o.threads = threads;
  o.kernel = kernel;
  o.turn = turn;
  return o;
}

constexpr ts::LockstepKernel lean = ts::LockstepKernel::lean;
constexpr ts::LockstepKernel staged = ts::LockstepKernel::staged;
constexpr ts::LockstepKernel all_kernels[] = {ts::LockstepKernel::lockstep, lean, staged};

// A lockstep sink over LongestGames, held by reference: a report copies its sink.
template <int W>
struct LaneGames {
  piles::testing::LongestGames<W>& games;
  std::uint64_t* nodes;
  void node(std::uint32_t, int level) { ++nodes[level]; }
  void game(std::uint32_t, int steps, const ts::Deck<W>& start, const ts::Deck<W>& final_deck) {
    games.leaf(steps, start, final_deck);
  }
};

// One lane stepped from the root to the end, on decks of W words (three words for any n, so
// that the GPU's three-word lane code runs here at small sizes): the nodes per level and the
// games of search_below, from f(n-1).
template <int W>
void expect_lane_like_search_below(int n, bool sorted) {
  const int* values = sorted ? ts::published::longest_sorted.data() : ts::published::longest.data();
  std::vector<std::int32_t> bound(values, values + n);
  bound.push_back(ts::no_bound);
  const ts::Problem p{n, sorted, bound.data()};
  const int target = values[n - 1];
  ts::Deck<W> start;
  const ts::Frame<W> root = ts::replay<W>(p, nullptr, 0, start);
  std::uint64_t expected[ts::max_n] = {}, nodes[ts::max_n] = {};
  piles::testing::LongestGames<W> reference{n};
  ts::search_below(p, root, 0, start, target, expected, reference);

  piles::testing::LongestGames<W> games{n};
  LaneGames<W> sink{games, nodes};
  ts::lockstep::Lane<W> lane;
  ts::SavedFrame<W> stack[ts::max_n];
  ts::lockstep::load(lane, ts::lockstep::Seed<W>{root, start, 0}, 0, target, p);
  const ts::Deck<W> sorted_deck = ts::sorted_deck<W>(n);
  while (lane.next < ts::lockstep::idle) {
    if (sorted)
      ts::lockstep::step<true>(lane, stack, p, sorted_deck, sink);
    else
      ts::lockstep::step<false>(lane, stack, p, sorted_deck, sink);
  }
  EXPECT_EQ(std::vector<std::uint64_t>(nodes, nodes + n),
            std::vector<std::uint64_t>(expected, expected + n))
      << "n " << n << " W " << W << (sorted ? " sorted" : "");
  EXPECT_EQ(games.best, reference.best) << "n " << n << " W " << W;
  EXPECT_EQ(games.decks, reference.decks) << "n " << n << " W " << W;
  EXPECT_EQ(reference.best, values[n]);
}

}  // namespace

TEST(TopswopsLockstep, EveryChunkMatchesTheCpuEngine) {
  for (ts::Final final : {ts::Final::any, ts::Final::sorted})
    for (int n = 2; n <= 12; ++n) expect_same_chunks(ts::make_plan(n, final, {}), budget(0, 2, 2));
}

TEST(TopswopsLockstep, TheLeanAndStagedKernelsPassesGiveTheSameChunks) {
  for (ts::LockstepKernel kernel : {lean, staged})
    for (ts::Final final : {ts::Final::any, ts::Final::sorted})
      for (int n = 2; n <= 12; ++n)
        expect_same_chunks(ts::make_plan(n, final, {}), budget(0, 2, 2, kernel));
}

TEST(TopswopsLockstep, EveryPassBudgetGivesTheSameChunks) {
  // A budget of one pass parks every lane after each unit; seven parks them mid-play; larger
  // ones end launches at other points of long games (n = 12 would take six times as long).
  for (ts::LockstepKernel kernel : all_kernels)
    for (ts::Final final : {ts::Final::any, ts::Final::sorted}) {
      for (int n : {7, 8}) expect_same_chunks(ts::make_plan(n, final, {}), budget(1, 1, 1, kernel));
      for (int n : {9, 10})
        expect_same_chunks(ts::make_plan(n, final, {}), budget(7, 3, 2, kernel));
      for (std::uint64_t passes : {333, 1000})
        expect_same_chunks(ts::make_plan(11, final, {}), budget(passes, 2, 2, kernel));
    }
}

TEST(TopswopsLockstep, WarpsTakingTurnsGiveTheSameChunks) {
  // Many warps taking turns of a few passes, within launches of a small budget and a large one
  // (the turns do not depend on the final: the large launch at n = 11 runs for one of them).
  for (ts::LockstepKernel kernel : all_kernels)
    for (ts::Final final : {ts::Final::any, ts::Final::sorted}) {
      expect_same_chunks(ts::make_plan(10, final, {}), budget(50, 40, 2, kernel, 3));
      expect_same_chunks(ts::make_plan(final == ts::Final::any ? 11 : 10, final, {}),
                         budget(1 << 20, 64, 2, kernel, 64));
    }
}

// Cancelled between launches or between the warps' turns (a time limit, SIGTERM), the engine
// hands back every chunk it finished, each once and equal to the CPU engine's, and the call
// throws Cancelled: a slice cut short keeps them for the journal.
TEST(TopswopsLockstep, ACancelledCallHandsBackTheChunksItFinished) {
  const ts::Plan plan = ts::make_plan(11, ts::Final::any, {});
  const auto all = plan.chunks_of_round(plan.round_count() - 1);
  ASSERT_GT(all.size(), 2u);
  const int target = plan.start_target;
  const Chunks cpu = cpu_chunks(plan, all, target);
  bool some_but_not_all = false;
  for (ts::LockstepKernel kernel : all_kernels)
    for (const int polls : {1, 20, 200, 2000, 20000}) {
      SCOPED_TRACE(polls);
      Chunks handed;
      int asked = 0;
      bool thrown = false;
      try {
        ts::run_chunks_lockstep(
            plan, all, target, budget(400, 8, 1, kernel, 5),
            [&](int chunk, const ts::Partial& p, double) {
              EXPECT_TRUE(handed.emplace(chunk, p).second) << "chunk " << chunk << " twice";
            },
            nullptr, [&] { return ++asked > polls; });
      } catch (const piles::Cancelled&) {
        thrown = true;
      }
      if (!thrown) EXPECT_EQ(handed.size(), all.size());
      for (const auto& [c, p] : handed) EXPECT_EQ(p, cpu.at(c)) << "chunk " << c;
      some_but_not_all = some_but_not_all || (!handed.empty() && handed.size() < all.size());
    }
  EXPECT_TRUE(some_but_not_all);
}

// The lean kernel's flip passes flip twice where they can: it takes fewer passes for the same
// units, and each flip it takes is counted.
TEST(TopswopsLockstep, TheLeanKernelTakesFewerPassesForTheSameUnits) {
  const ts::Plan plan = ts::make_plan(11, ts::Final::any, {});
  const auto all = plan.chunks_of_round(plan.round_count() - 1);
  ts::LaneUse lockstep_use, lean_use;
  run_lockstep(plan, all, ts::published::longest[11], budget(0, 4, 2), &lockstep_use);
  run_lockstep(plan, all, ts::published::longest[11], budget(0, 4, 2, lean), &lean_use);
  EXPECT_EQ(lean_use.nodes, lockstep_use.nodes);
  EXPECT_EQ(lean_use.units, lockstep_use.units);
  EXPECT_LT(lean_use.passes, lockstep_use.passes);
  EXPECT_GT(lean_use.flip_again_rounds, 0u);
  EXPECT_EQ(lockstep_use.flip_again_rounds, 0u);
  EXPECT_EQ(lean_use.kernel, lean);
  // Lockstep runs one unit a pass; lean runs returns and landings in the same passes.
  const auto dispatched = [](const ts::LaneUse& u) {
    return u.unit_passes[ls::block] + u.unit_passes[ls::land] + u.unit_passes[ls::ret];
  };
  EXPECT_EQ(lockstep_use.dispatched_passes, dispatched(lockstep_use));
  EXPECT_LT(lean_use.dispatched_passes, dispatched(lean_use));
}

// The staged kernel runs the same units with no vote and no jump to them, in fewer passes than
// the lean kernel: each pass lands, returns, chooses, flips up to three times and checks the
// block for every lane that wants it, a lane going on from stage to stage.
TEST(TopswopsLockstep, TheStagedKernelTakesFewerPassesForTheSameUnits) {
  const ts::Plan plan = ts::make_plan(11, ts::Final::any, {});
  const auto all = plan.chunks_of_round(plan.round_count() - 1);
  ts::LaneUse lean_use, staged_use;
  run_lockstep(plan, all, ts::published::longest[11], budget(0, 4, 2, lean), &lean_use);
  run_lockstep(plan, all, ts::published::longest[11], budget(0, 4, 2, staged), &staged_use);
  EXPECT_EQ(staged_use.kernel, staged);
  EXPECT_EQ(staged_use.nodes, lean_use.nodes);
  EXPECT_EQ(staged_use.units, lean_use.units);
  EXPECT_LT(staged_use.passes, lean_use.passes);
  EXPECT_EQ(staged_use.voted_passes, 0u);
  EXPECT_EQ(staged_use.dispatched_passes, 0u);
  // Up to three rounds of flips after the first in a pass, against the lean kernel's one.
  EXPECT_GT(staged_use.flip_again_rounds, staged_use.passes);
  EXPECT_LE(staged_use.flip_again_rounds, (ls::flip_rounds - 1) * staged_use.passes);
  EXPECT_LE(lean_use.flip_again_rounds, lean_use.passes);
  // A pass may run every kind of unit, landings and returns in up to two rounds, so the kinds'
  // passes add up to more than the passes.
  std::uint64_t unit_passes = 0;
  for (int u = 0; u < ts::lockstep::unit_kinds; ++u) {
    const int rounds = u == ls::land || u == ls::ret ? ls::stack_rounds : 1;
    EXPECT_LE(staged_use.unit_passes[u], rounds * staged_use.passes) << u;
    unit_passes += staged_use.unit_passes[u];
  }
  EXPECT_GT(unit_passes, staged_use.passes);
  EXPECT_GT(staged_use.unit_passes[ls::ret], staged_use.passes);
  EXPECT_LT(staged_use.instructions_per_node(), lean_use.instructions_per_node());
}

// The lean kernel's vote: a choice with the flips, a return with the landings, the fixed block
// on its own.
TEST(TopswopsLockstep, TheLeanVotePutsReturnsWithLandings) {
  EXPECT_EQ(ls::lean_vote_kind(ls::choose), ls::flip);
  EXPECT_EQ(ls::lean_vote_kind(ls::flip), ls::flip);
  EXPECT_EQ(ls::lean_vote_kind(ls::block), ls::block);
  EXPECT_EQ(ls::lean_vote_kind(ls::land), ls::land);
  EXPECT_EQ(ls::lean_vote_kind(ls::ret), ls::land);
}

TEST(TopswopsLockstep, OneLaneSearchesLikeSearchBelowOnTwoAndThreeWordDecks) {
  for (bool sorted : {false, true})
    for (int n = 4; n <= 11; ++n) {
      expect_lane_like_search_below<2>(n, sorted);
      expect_lane_like_search_below<3>(n, sorted);
    }
}

// The lane takes no quick look at a choice k = h (lockstep::step); where the table's entry for
// n-1 cards is below the block's, as a tail's cap can make it, its block check must prune as
// the look does. n = 8: card 8 chosen over 6 and 7, so its flip settles it alone (the look
// bounds by the entry for 7 cards, capped here to 2) and puts 7, 6 above it (a block of h = 5).
TEST(TopswopsLockstep, TheBlockCheckPrunesAsTheQuickLookWhereCardNSettlesAlone) {
  const int n = 8;
  const std::vector<std::int32_t> table = {0, 0, 1, 2, 4, 7, 10, 2, ts::no_bound};
  const ts::Problem p{n, false, table.data()};
  ts::Frame<2> f{};
  for (int i = 0; i < n; ++i) f.deck.set(i, static_cast<int>(ts::blank_bit) | (i + 1));
  f.deck.set(1, 6);
  f.deck.set(2, 7);
  f.unused = 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 8;
  f.h = n;
  const ts::Deck<2> sorted = ts::sorted_deck<2>(n);
  // Target 5: the look prunes (0 + 1 + 2 < 5), the block's own entry would not (0 + 1 + 7).
  // Target 3: neither prunes, and the child lands.
  for (const int target : {5, 3}) {
    ts::Frame<2> child;
    const bool cpu_plays = ts::play_choice(f, n, p, target, sorted, child);
    std::uint64_t nodes[ts::max_n] = {};
    piles::testing::LongestGames<2> games{n};
    LaneGames<2> sink{games, nodes};
    ts::lockstep::Lane<2> lane;
    ts::SavedFrame<2> stack[ts::max_n];
    ts::lockstep::load(lane, ts::lockstep::Seed<2>{f, {}, 0}, 0, target, p);
    lane.f.todo = 1u << n;
    for (int unit = 0; unit < 4 && lane.next != ts::lockstep::land; ++unit)
      ts::lockstep::step<false>(lane, stack, p, sorted, sink);
    EXPECT_EQ(cpu_plays, target == 3);
    EXPECT_EQ(lane.next == ts::lockstep::land, cpu_plays) << "target " << target;
  }
}

TEST(TopswopsLockstep, TailedSearchesMatchTheCpuEngine) {
  ts::TailOptions o;
  o.n = 11;
  o.run.quiet = true;
  const ts::TailResult tail = ts::run_tail(o, piles::testing::cpu(2));
  for (ts::Final final : {ts::Final::any, ts::Final::sorted})
    expect_same_chunks(ts::make_plan(11, final, {}, tail.tail(final)), budget(100, 2, 2));
}

TEST(TopswopsLockstep, PerThreadScheduleSearchesTheSameAndUsesFewerLanes) {
  const ts::Plan plan = ts::make_plan(10, ts::Final::any, {});
  ts::LockstepOptions per_thread = budget(0);
  per_thread.schedule = ts::Schedule::per_thread;
  expect_same_chunks(plan, per_thread);
  ts::LaneUse lockstep_use, per_thread_use;
  const auto all = plan.chunks_of_round(plan.round_count() - 1);
  run_lockstep(plan, all, ts::published::longest[10], budget(0), &lockstep_use);
  run_lockstep(plan, all, ts::published::longest[10], per_thread, &per_thread_use);
  EXPECT_EQ(lockstep_use.nodes, per_thread_use.nodes);
  // Waiting for the slowest lane's flips can only cost passes.
  EXPECT_GT(per_thread_use.passes, lockstep_use.passes);
}

TEST(TopswopsLockstep, SolveWithTheLockstepEngineGivesThePublishedAnswer) {
  for (ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    ts::SolveOptions o;
    o.n = 11;
    o.final = final;
    o.run.quiet = true;
    const ts::Solution dfs = ts::solve(o, piles::testing::cpu(2));
    o.engine = ts::CpuEngine::lockstep;
    const ts::Solution lockstep = ts::solve(o, piles::testing::cpu(2));
    EXPECT_EQ(lockstep.result, dfs.result);
    EXPECT_EQ(lockstep.result.best, final == ts::Final::sorted ? ts::published::longest_sorted[11]
                                                               : ts::published::longest[11]);
    ASSERT_TRUE(lockstep.lane_use);
    EXPECT_FALSE(dfs.lane_use);
    EXPECT_EQ(lockstep.lane_use->nodes + ts::make_plan(11, final, {}).top.total_nodes(),
              lockstep.result.total_nodes());
  }
}

TEST(TopswopsLockstep, CommandLineReportsLaneUse) {
  const auto r = run_piles("topswops solve 10 --engine lockstep --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j.at("max_steps"), ts::published::longest[10]);
  EXPECT_GT(j.at("lane_use").at("lane_use").get<double>(), 0.0);
  EXPECT_TRUE(piles::testing::is_usage_error(run_piles("topswops solve 10 --engine simd"), "simd"));
  EXPECT_TRUE(
      piles::testing::is_usage_error(run_piles("topswops solve 10 --gpu-kernel warp"), "warp"));
}

// The warp model of each kernel at n = 13 as solve runs it (an H100's warps taking turns, the
// kernel's own SASS costs): the committed figures, as `piles --backend cpu topswops solve 13
// --engine lockstep --gpu-kernel K --json` gave them. A change to the kernels' costs
// (lane_costs.hpp, from `scripts/lane-costs --kernel`) or to the model that moves a figure by
// more than 2% fails here until the record moves with it. Staged-shared makes staged's passes
// (its launches are capped at 2^30 passes, solve's budget is 2^20), so one run gives both.
TEST(TopswopsLockstep, TheWarpModelsFiguresAtThirteenCardsAreTheRecordedOnes) {
  struct Recorded {
    ts::GpuKernel kernel;
    double per_node;
    double shared_per_node = 0;  // staged's run weighed with staged-shared's costs
  };
  for (const Recorded r :
       {Recorded{ts::GpuKernel::lockstep, 55.81}, Recorded{ts::GpuKernel::lean, 36.28},
        Recorded{ts::GpuKernel::staged, 27.54, 26.85}}) {
    ts::SolveOptions o;
    o.n = 13;
    o.run.quiet = true;
    o.engine = ts::CpuEngine::lockstep;
    o.gpu_kernel = r.kernel;
    const ts::Solution s = ts::solve(o, piles::testing::cpu(2));
    ASSERT_TRUE(s.lane_use);
    EXPECT_EQ(s.result.best, ts::published::longest[13]);
    EXPECT_NEAR(s.lane_use->instructions_per_node(), r.per_node, 0.02 * r.per_node)
        << ts::gpu_kernel_name(r.kernel);
    if (r.shared_per_node > 0)
      EXPECT_NEAR(s.lane_use->instructions_per_node(ts::staged_shared_kernel_costs),
                  r.shared_per_node, 0.02 * r.shared_per_node);
  }
}
