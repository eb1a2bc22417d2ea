// The size of a Topswops search estimated before it runs (host/topswops/estimate.hpp, Knuth's
// random probes; the backward search of games ending sorted by stratified sampling): close to
// the exact node count of the same tree at a fixed target, counted by the CPU engine, and within
// a factor 1.5 of what whole searches counted (results/: f(14) and f(15) with its tail; f(16)
// on an NVIDIA H100, results/bench/gpu_h100.md; the backward search from a(14) and a(15),
// results/bench/topswops_backward.md).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "host/common/checkpoint.hpp"
#include "host/common/output.hpp"
#include "host/topswops/backward.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/estimate.hpp"
#include "host/topswops/partial.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/tail_job.hpp"
#include "tests/support/journal_line.hpp"
#include "tests/support/run_piles.hpp"
#include "tests/support/temp_dir.hpp"

namespace ts = piles::topswops;

namespace {

// Every node of the plan's search with every chunk at `target`.
double exact_nodes(const ts::Plan& plan, int target) {
  std::vector<int> all(plan.chunk_count);
  std::iota(all.begin(), all.end(), 0);
  double nodes = static_cast<double>(plan.top.total_nodes());
  ts::run_chunks_cpu(plan, all, target, 2,
                     [&](int, const ts::Partial& p, double) { nodes += p.total_nodes(); });
  return nodes;
}

}  // namespace

TEST(Estimate, CloseToTheExactCountOfTheSameTree) {
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted})
    for (int n = 10; n <= 12; ++n) {
      const ts::Plan plan = ts::make_plan(n, final, std::nullopt);
      for (const int target : {plan.start_target, plan.start_target + 5}) {
        const ts::Estimate e = ts::estimate_search(plan, target, 32, 2);
        const double exact = exact_nodes(plan, target);
        const std::string where = "n = " + std::to_string(n) + ", target " +
                                  std::to_string(target) + ", " + ts::final_name(final);
        EXPECT_NEAR(e.nodes / exact, 1.0, 0.05) << where;
        // The spread it reports is of the right size: the error within five of it, and small.
        EXPECT_LT(std::abs(e.nodes - exact), 5 * e.standard_error + 0.01 * exact) << where;
        EXPECT_LT(e.relative_error(), 0.05) << where;
        EXPECT_EQ(e.probes, 32u * plan.chunk_count);
      }
    }
}

TEST(Estimate, WithinAFactorOneAndAHalfOfWholeSearches) {
  struct Known {
    int n;
    double nodes;
  };
  // From the answer's length the estimate sees the tree a search sees once its target reached it.
  for (const Known k : {Known{14, 805'587'032.0}, Known{16, 156'221'270'324.0}}) {
    const ts::Plan plan = ts::make_plan(k.n, ts::Final::any, std::nullopt);
    const ts::Estimate e = ts::estimate_search(plan, ts::published::longest[k.n], 32, 2);
    EXPECT_GT(e.nodes, k.nodes / 1.5) << k.n;
    EXPECT_LT(e.nodes, k.nodes * 1.5) << k.n;
  }
  const ts::Tail tail =
      ts::read_tail({std::string(PILES_SOURCE_DIR) + "/results/topswops/runs/tail_15.journal"})
          .tail(ts::Final::any);
  const ts::Plan plan = ts::make_plan(15, ts::Final::any, std::nullopt, tail);
  const ts::Estimate e = ts::estimate_search(plan, 113, 32, 2);
  EXPECT_GT(e.nodes, 8'226'762'045.0 / 1.5);
  EXPECT_LT(e.nodes, 8'226'762'045.0 * 1.5);
}

TEST(Estimate, TheBackwardSearchsStratifiedSamplesAreCloseToItsExactCount) {
  for (int n = 12; n <= 13; ++n) {
    const ts::Plan plan = ts::make_backward_plan(n, std::nullopt, ts::backward::Prune::play);
    for (const int target : {plan.start_target, plan.start_target + 5}) {
      const ts::Estimate e = ts::estimate_search(plan, target, 16, 2);
      const double exact = static_cast<double>(
          plan.top.total_nodes() +
          ts::search_backward_prefixes(plan, 0, plan.prefix_count, target).total_nodes());
      const std::string where = "n = " + std::to_string(n) + ", target " + std::to_string(target);
      EXPECT_TRUE(e.stratified);
      EXPECT_NEAR(e.nodes / exact, 1.0, 0.1) << where;
      EXPECT_LT(std::abs(e.nodes - exact), 5 * e.standard_error + 0.01 * exact) << where;
      EXPECT_EQ(e.probes, 16u * plan.chunk_count);
    }
  }
  // Knuth's probes fell to a tenth of the count at 14 cards here, with 32 probes a chunk.
  struct Known {
    int n, answer;
    double nodes;
  };
  for (const Known k : {Known{14, 101, 77'238'901.0}, Known{15, 112, 884'032'738.0}}) {
    const ts::Plan plan = ts::make_backward_plan(k.n, k.answer, ts::backward::Prune::play);
    const ts::Estimate e = ts::estimate_search(plan, k.answer, 16, 2);
    EXPECT_GT(e.nodes, k.nodes / 1.5) << k.n;
    EXPECT_LT(e.nodes, k.nodes * 1.5) << k.n;
  }
}

// From 17 cards on a few strata hold most of the backward tree, and the default passes grow
// with it: the chunks of the 18-card search in results/ (each at the target its round searched
// from, a fixed one a round) held 9.99e11 nodes, of which 16 passes a chunk saw 0.53, eleven
// times the spread they stated.
TEST(Estimate, TheDefaultPassesWeighTheEighteenCardBackwardSearchsChunks) {
  const piles::JournalContents journal = piles::read_journal(
      std::string(PILES_SOURCE_DIR) + "/results/topswops/runs/backward_sorted_18.journal");
  const ts::Plan plan = ts::make_backward_plan(18, journal.problem.at("start_target").get<int>(),
                                               ts::backward::Prune::play);
  ASSERT_EQ(plan.prefix_count, journal.problem.at("prefixes").get<std::size_t>());
  ASSERT_EQ(journal.chunks.size(), static_cast<std::size_t>(plan.chunk_count));
  std::map<int, std::vector<int>> by_target;
  double searched = 0;
  for (const auto& [chunk, payload] : journal.chunks) {
    by_target[payload.at("target").get<int>()].push_back(static_cast<int>(chunk));
    searched += static_cast<double>(ts::partial_from_json(payload, 18, "chunk").total_nodes());
  }
  searched -= static_cast<double>(plan.top.total_nodes());  // chunk 0 carries the top levels
  ts::ChunkEstimate estimated;
  for (const auto& [target, chunks] : by_target)
    for (const ts::ChunkEstimate& c :
         ts::estimate_chunks(plan, chunks, target, ts::default_samples_per_chunk(plan), 2))
      estimated += c;
  EXPECT_GT(estimated.nodes, searched / 1.5);
  EXPECT_LT(estimated.nodes, searched * 1.5);
  EXPECT_LT(std::abs(estimated.nodes - searched), 3 * std::sqrt(estimated.variance));
}

TEST(Estimate, TheSameSeedGivesTheSameEstimateOnAnyThreads) {
  const ts::Plan plan = ts::make_plan(12, ts::Final::any, std::nullopt);
  const ts::Estimate one = ts::estimate_search(plan, 65, 8, 1, 7);
  const ts::Estimate two = ts::estimate_search(plan, 65, 8, 2, 7);
  EXPECT_EQ(one.nodes, two.nodes);
  EXPECT_EQ(one.chunks, two.chunks);
  EXPECT_NE(one.nodes, ts::estimate_search(plan, 65, 8, 1, 8).nodes);
  const ts::Plan backward = ts::make_backward_plan(13, std::nullopt, ts::backward::Prune::play);
  const ts::Estimate three = ts::estimate_search(backward, 63, 4, 1, 7);
  EXPECT_EQ(three.chunks, ts::estimate_search(backward, 63, 4, 2, 7).chunks);
  EXPECT_NE(three.nodes, ts::estimate_search(backward, 63, 4, 1, 8).nodes);
}

// What a run whose target rose weighs its chunks left by, and what a journal's survey weighs its
// chunks not done by: the same samples as the whole estimate's at that target, forward and
// backward.
TEST(Estimate, SomeChunksAloneAreTheWholeEstimatesChunks) {
  const ts::Plan plan = ts::make_plan(12, ts::Final::any, std::nullopt);
  const ts::Plan backward = ts::make_backward_plan(13, std::nullopt, ts::backward::Prune::play);
  for (const ts::Plan* p : {&plan, &backward}) {
    const std::vector<int> some = {0, 5, 17, p->chunk_count / 2, p->chunk_count - 1};
    const ts::Estimate whole = ts::estimate_search(*p, 60, 4, 2, 3);
    const std::vector<ts::ChunkEstimate> alone = ts::estimate_chunks(*p, some, 60, 4, 1, 3);
    ASSERT_EQ(alone.size(), some.size());
    for (std::size_t i = 0; i < some.size(); ++i)
      EXPECT_EQ(alone[i].nodes, whole.chunks[some[i]]) << some[i];
    EXPECT_GT(alone[1].nodes, 0);
    const ts::Estimate part = ts::estimate_part(*p, ts::Estimate::Part::left, some, 60, 4, 2, 3);
    double sum = 0;
    for (int c = 0; c < p->chunk_count; ++c) {
      const bool in = std::find(some.begin(), some.end(), c) != some.end();
      EXPECT_EQ(part.chunks[c], in ? whole.chunks[c] : 0.0) << c;
      sum += part.chunks[c];
    }
    EXPECT_NEAR(part.nodes, sum, 1e-9 * sum);  // the levels above the prefixes left out
    EXPECT_EQ(part.probes, 4 * some.size());
    EXPECT_LT(part.standard_error, whole.standard_error);
  }
}

// A shard weighs only the chunks it runs (the shared rounds' and its own), with the samples of
// the whole estimate's chunks; a whole run weighs them all, the levels above them too.
TEST(Estimate, AShardWeighsOnlyTheChunksItRuns) {
  const piles::testing::TempDir dir;
  const ts::Plan plan = ts::make_backward_plan(14, std::nullopt, ts::backward::Prune::play);
  const int samples = ts::default_samples_per_chunk(plan);
  const ts::Estimate whole = ts::estimate_search(plan, plan.start_target, samples, 2);
  const std::string solve = "--json --threads 2 topswops solve 14 --final sorted --quiet";
  const auto shard =
      piles::testing::run_piles(solve + " --shard 2/8 --checkpoint " + dir.file("s.jnl"));
  ASSERT_EQ(shard.status, 0) << shard.err;
  const nlohmann::json part = shard.json().at("estimate");
  double nodes = 0;
  std::size_t chunks = 0;
  for (int c = 0; c < plan.chunk_count; ++c)
    if (plan.round_of(c) < plan.warmup || c % 8 == 2) {
      nodes += whole.chunks[c];
      ++chunks;
    }
  EXPECT_LT(chunks, static_cast<std::size_t>(plan.chunk_count / 4));
  EXPECT_EQ(part.at("chunks"), chunks);
  EXPECT_EQ(part.at("probes"), chunks * samples);
  EXPECT_NEAR(part.at("nodes").get<double>(), nodes, 1 + 1e-9 * nodes);
  const auto all = piles::testing::run_piles(solve);
  ASSERT_EQ(all.status, 0) << all.err;
  const nlohmann::json e = all.json().at("estimate");
  EXPECT_FALSE(e.contains("chunks"));
  EXPECT_EQ(e.at("probes"), static_cast<std::size_t>(plan.chunk_count) * samples);
  EXPECT_EQ(e.at("nodes"), std::llround(whole.nodes));
}

// A run that takes up a journal weighs only the chunks it has left, from the target the next of
// them runs at (that of the first round not complete): the whole estimate's chunks at that target.
TEST(Estimate, AResumedRunWeighsOnlyItsChunksLeft) {
  const piles::testing::TempDir dir;
  const ts::Plan plan = ts::make_backward_plan(14, std::nullopt, ts::backward::Prune::play);
  const int samples = ts::default_samples_per_chunk(plan);
  const std::string journal = dir.file("r.jnl");
  const std::string solve =
      "--json --threads 2 topswops solve 14 --final sorted --quiet --checkpoint " + journal;
  const auto first = piles::testing::run_piles(solve);
  ASSERT_EQ(first.status, 0) << first.err;
  // The journal cut back to its first two rounds' chunks.
  std::vector<bool> kept(plan.chunk_count, false);
  for (int r : {0, 1})
    for (int c : plan.chunks_of_round(r)) kept[c] = true;
  const piles::JournalContents contents = piles::read_journal(journal);
  int target = contents.problem.at("start_target").get<int>();
  for (const auto& [c, payload] : contents.chunks)
    if (kept[c]) target = std::max(target, payload.at("best").get<int>());
  piles::testing::keep_journal_chunks(journal, [&](int c) { return kept[c]; });
  const int left = plan.chunk_count - static_cast<int>(std::count(kept.begin(), kept.end(), true));

  const auto again = piles::testing::run_piles(solve);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.json().at("nodes"), first.json().at("nodes"));
  const nlohmann::json e = again.json().at("estimate");
  EXPECT_EQ(e.at("part"), "left");
  EXPECT_EQ(e.at("chunks"), left);
  EXPECT_EQ(e.at("target"), target);
  EXPECT_EQ(e.at("probes"), left * samples);
  const ts::Estimate whole = ts::estimate_search(plan, target, samples, 2);
  double nodes = 0;
  for (int c = 0; c < plan.chunk_count; ++c)
    if (!kept[c]) nodes += whole.chunks[c];
  EXPECT_NEAR(e.at("nodes").get<double>(), nodes, 1 + 1e-9 * nodes);
}

// A run's chunk weights: the chunks left weighed again once a round's target rises above their
// last, to what the same probes give there; not again at that target, nor where the chunks left
// weigh less than the floor.
TEST(Estimate, TheChunksLeftAreWeighedAgainWhenTheTargetRises) {
  const ts::Plan plan = ts::make_plan(12, ts::Final::any, std::nullopt);
  const ts::Estimate e = ts::estimate_search(plan, 50, ts::default_probes_per_chunk, 2);
  std::vector<int> left(plan.chunk_count - 1);
  std::iota(left.begin(), left.end(), 1);
  ts::ChunkWeights weights(plan, e, 0);
  EXPECT_DOUBLE_EQ(weights.per_prefix(), e.nodes / static_cast<double>(plan.prefix_count));
  EXPECT_FALSE(weights.retarget(50, left, 2));
  const std::optional<std::string> line = weights.retarget(60, left, 2);
  ASSERT_TRUE(line);
  EXPECT_TRUE(line->starts_with(
      fmt::format("target 60: the {} chunks left estimated at ", piles::group_digits(left.size()))))
      << *line;
  const std::vector<ts::ChunkEstimate> again =
      ts::estimate_chunks(plan, left, 60, ts::default_probes_per_chunk, 1);
  double before = 0, after = 0, prefixes = 0;
  for (std::size_t i = 0; i < left.size(); ++i) {
    EXPECT_EQ(weights[left[i]], again[i].nodes) << left[i];
    before += e.chunks[left[i]];
    after += weights[left[i]];
    prefixes += static_cast<double>(plan.chunk_prefixes(left[i]));
  }
  // Slices are cut in the new units: the chunks left's own nodes per prefix.
  EXPECT_NEAR(weights.per_prefix(), after / prefixes, 1e-9 * after / prefixes);
  EXPECT_LT(after, 0.9 * before);      // a higher target prunes more
  EXPECT_EQ(weights[0], e.chunks[0]);  // done: as it was weighed
  EXPECT_FALSE(weights.retarget(60, left, 2));
  ts::ChunkWeights floored(plan, e);  // 12 cards weigh far less than the default floor
  EXPECT_FALSE(floored.retarget(60, left, 2));
}

TEST(Estimate, LevelsAddUpAndTheTopIsExact) {
  const ts::Plan plan = ts::make_plan(11, ts::Final::any, std::nullopt);
  const ts::Estimate e = ts::estimate_search(plan, 51, 4, 2);
  ASSERT_EQ(e.per_level.size(), 11u);
  for (int l = 0; l <= plan.depth; ++l)
    EXPECT_EQ(e.per_level[l], static_cast<double>(plan.top.nodes[l])) << l;
  EXPECT_NEAR(std::accumulate(e.per_level.begin(), e.per_level.end(), 0.0), e.nodes,
              1e-6 * e.nodes);
  const double chunks = std::accumulate(e.chunks.begin(), e.chunks.end(), 0.0);
  EXPECT_NEAR(chunks + static_cast<double>(plan.top.total_nodes()), e.nodes, 1e-6 * e.nodes);
  // The backward search's levels are its decks' deepest home, as its node counts are.
  const ts::Plan backward = ts::make_backward_plan(12, std::nullopt, ts::backward::Prune::play);
  const ts::Estimate b = ts::estimate_search(backward, 51, 4, 2);
  ASSERT_EQ(b.per_level.size(), 12u);
  EXPECT_NEAR(std::accumulate(b.per_level.begin(), b.per_level.end(), 0.0), b.nodes,
              1e-6 * b.nodes);
  const double backward_chunks = std::accumulate(b.chunks.begin(), b.chunks.end(), 0.0);
  EXPECT_NEAR(backward_chunks + static_cast<double>(backward.top.total_nodes()), b.nodes,
              1e-6 * b.nodes);
}
