// The forward and backward engines against a plain brute force (successor map + walk) for
// n <= 40, against each other, and the walker's own invariants.
#include <gtest/gtest.h>
#include <cctype>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forward.hpp"
#include "host/bulgarian/range_job.hpp"
#include "host/common/error.hpp"
#include "host/common/partition_table.hpp"
#include "tests/support/targets.hpp"

namespace piles::bulgarian {
namespace {

using Partition = std::vector<int>;

using piles::testing::cpu;

// Seed 000's enumeration: parts in non-increasing order, by recursion.
void all_partitions(int rest, int cap, Partition& cur, std::vector<Partition>& out) {
  if (rest == 0) {
    out.push_back(cur);
    return;
  }
  for (int v = std::min(rest, cap); v >= 1; --v) {
    cur.push_back(v);
    all_partitions(rest - v, v, cur, out);
    cur.pop_back();
  }
}

Partition step(const Partition& p) {
  Partition next = {static_cast<int>(p.size())};
  for (int v : p)
    if (v > 1) next.push_back(v - 1);
  std::sort(next.begin(), next.end(), std::greater<>());
  return next;
}

struct Brute {
  std::uint64_t partitions = 0, cycles = 0, garden_of_eden = 0;
  std::map<int, std::uint64_t> cycle_lengths;
  std::set<Partition> on_cycle;
  std::vector<std::uint64_t> histogram;
};

// Every start is played until a partition repeats; the repeat opens its cycle.
Brute brute_force(int n) {
  std::vector<Partition> all;
  Partition cur;
  all_partitions(n, n, cur, all);
  std::map<Partition, Partition> succ;
  std::set<Partition> image;
  for (const auto& p : all) image.insert(succ[p] = step(p));
  Brute b;
  b.partitions = all.size();
  std::map<Partition, int> transient;
  for (const auto& start : all) {
    std::map<Partition, int> seen;
    Partition p = start;
    int i = 0;
    while (!seen.count(p)) {
      seen[p] = i++;
      p = succ[p];
    }
    transient[start] = seen[p];
    for (Partition c = p;; c = succ[c]) {
      b.on_cycle.insert(c);
      if (succ[c] == p) break;
    }
  }
  for (const auto& c : b.on_cycle) {
    int length = 1;
    bool smallest = true;
    for (Partition x = succ[c]; x != c; x = succ[x], ++length) smallest = smallest && c < x;
    if (smallest) ++b.cycles, ++b.cycle_lengths[length];
  }
  for (const auto& [p, t] : transient) {
    if (static_cast<int>(b.histogram.size()) <= t) b.histogram.resize(t + 1);
    ++b.histogram[t];
  }
  for (const auto& p : all) b.garden_of_eden += !image.count(p);
  return b;
}

std::set<Partition> unranked(int n, const std::vector<std::uint64_t>& ranks) {
  const PartitionTable table(n);
  std::set<Partition> out;
  std::vector<part_t> parts(n + 1);
  for (const auto r : ranks) {
    const int len = partition::unrank(table.view(), r, parts.data());
    out.insert(Partition(parts.begin(), parts.begin() + len));
  }
  return out;
}

TEST(BulgarianEngines, BothAgreeWithBruteForceUpTo40) {
  for (int n = 1; n <= 40; ++n) {
    SCOPED_TRACE(n);
    const Brute b = brute_force(n);
    for (const Engine engine : {Engine::backward, Engine::forward}) {
      SCOPED_TRACE(engine_name(engine));
      const Analysis a = analyze(n, engine, cpu(2));
      EXPECT_EQ(a.partitions, b.partitions);
      EXPECT_EQ(a.cycles, b.cycles);
      EXPECT_EQ(a.cycle_lengths, b.cycle_lengths);
      EXPECT_EQ(unranked(n, a.cycle_ranks), b.on_cycle);
      EXPECT_EQ(a.transient_histogram, b.histogram);
      EXPECT_EQ(a.garden_of_eden, b.garden_of_eden);
    }
  }
}

TEST(BulgarianEngines, ForwardAndBackwardAgreeUpTo70) {
  for (int n : {45, 55, 66, 70}) {
    SCOPED_TRACE(n);
    const Analysis f = analyze(n, Engine::forward, cpu(2));
    const Analysis b = analyze(n, Engine::backward, cpu(2));
    EXPECT_TRUE(f.same_structure(b));
  }
}

TEST(BulgarianEngines, ThreadCountDoesNotChangeTheAnswer) {
  for (int n : {36, 77, 84}) {
    SCOPED_TRACE(n);
    const Analysis one = analyze(n, Engine::backward, cpu(1));
    EXPECT_TRUE(one.same_structure(analyze(n, Engine::backward, cpu(2))));
    EXPECT_TRUE(one.same_structure(analyze(n, Engine::backward, cpu(5))));
  }
}

// A journal cut short, as a stopped run leaves it: the n whose chunks are all in read back as a
// plain run computes them, and the first unfinished n ends the list.
TEST(BulgarianEngines, AStoppedRunsJournalGivesItsFinishedN) {
  const std::string journal =
      (std::filesystem::temp_directory_path() / "piles_bulgarian_finished.journal").string();
  std::filesystem::remove(journal);
  RangeRun run;
  run.range = {20, 24};
  run.chunks_per_n = 4;
  run.run.checkpoint = journal;
  run.run.quiet = true;
  analyze_range(run, cpu(), [](const Analysis&) {});
  // Keep the problem and run lines and chunks 0..13: n = 20, 21, 22 whole, half of 23.
  std::ifstream in(journal);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (!std::isdigit(line[0]) || std::stoi(line) < 14) kept += line + "\n";
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;

  std::vector<int> finished;
  read_finished_range(journal, [&](const Analysis& a) {
    finished.push_back(a.n);
    EXPECT_TRUE(a.same_structure(analyze(a.n, Engine::backward, cpu()))) << a.n;
  });
  EXPECT_EQ(finished, (std::vector<int>{20, 21, 22}));
  std::filesystem::remove(journal);
}

// Split every walk again and again after a few moves: the pieces still cover each partition
// exactly once, with leaves descended into or visited from their parents.
template <bool LeavesInPlace>
void split_walks_cover_the_forest_once() {
  for (int n : {28, 45, 60}) {
    SCOPED_TRACE(n);
    ForestTop top = expand_forest(n, 1);
    ForestCounts counts = top.counts;
    counts.histogram.resize(depth_bound(n));
    std::vector<ForestWalker> work = top.subtrees;
    std::size_t splits = 0;
    while (!work.empty()) {
      ForestWalker w = work.back();
      work.pop_back();
      const bool done = walk_forest<LeavesInPlace>(w, 7, [&](int depth, bool leaf) {
        ++counts.histogram[depth];
        counts.leaves += leaf;
      });
      if (done) continue;
      splits += split_walk(w, work);
      work.push_back(w);
    }
    EXPECT_GT(splits, 100u);
    const Analysis whole = analyze(n, Engine::forward, cpu(2));
    counts.histogram.resize(whole.transient_histogram.size());
    EXPECT_EQ(counts.histogram, whole.transient_histogram);
    EXPECT_EQ(counts.leaves, whole.garden_of_eden);
  }
}

TEST(BulgarianEngines, SplitWalksCoverTheForestOnce) {
  split_walks_cover_the_forest_once<false>();
}

TEST(BulgarianEngines, SplitWalksWithLeavesInPlaceCoverTheForestOnce) {
  split_walks_cover_the_forest_once<true>();
}

// Calls f(n, node, g, child) for every candidate g of every partition `node` of n = 1..max_n
// that has one, child being the predecessor made from g.
template <class F>
void for_every_candidate(int max_n, F&& f) {
  for (int n = 1; n <= max_n; ++n) {
    ForestTop top = expand_forest(n, 1);
    for (ForestWalker& w : top.subtrees)
      walk_forest(w, ~std::uint64_t{0}, [&](int, bool) {
        const ForestNode& node = w.node;
        for (int g = node.head; node.is_candidate(g); ++g) {
          ForestNode child = node;
          child.descend(g);
          f(n, node, g, child);
        }
      });
  }
}

// child_is_leaf says what the child made from the candidate says of itself (n <= 30).
TEST(BulgarianEngines, ChildIsLeafAsTheChildSays) {
  int leaves = 0;
  for_every_candidate(30, [&](int n, const ForestNode& node, int g, const ForestNode& child) {
    EXPECT_EQ(node.child_is_leaf(g), child.is_leaf()) << n << " " << g;
    leaves += child.is_leaf();
  });
  EXPECT_GT(leaves, 10000);
}

// child_is_twig says what the child made from the candidate and that child's own candidates say:
// exactly one, whose child is a leaf (n <= 50).
TEST(BulgarianEngines, ChildIsTwigAsTheChildSays) {
  int twigs = 0, others = 0;
  for_every_candidate(50, [&](int n, const ForestNode& node, int g, const ForestNode& child) {
    int candidates = 0;
    bool leaf = false;
    for (int c = child.head; child.is_candidate(c); ++c) {
      ForestNode grandchild = child;
      grandchild.descend(c);
      ++candidates;
      leaf = grandchild.is_leaf();
    }
    const bool twig = candidates == 1 && leaf;
    EXPECT_EQ(node.child_is_twig(g), twig) << n << " " << g;
    (twig ? twigs : others) += 1;
  });
  EXPECT_GT(twigs, 100000);
  EXPECT_GT(others, 100000);
}

TEST(BulgarianEngines, DescendThenAscendRestoresTheNode) {
  const std::vector<part_t> parts = {5, 5, 3, 2, 2, 1};
  ForestNode node;
  node.assign(parts.data(), static_cast<int>(parts.size()), 4);
  for (int g = node.head; node.is_candidate(g); ++g) {
    ForestNode child = node;
    const int v = child.value(g);
    child.descend(g);
    EXPECT_EQ(child.parts, v);
    // One forward move from the predecessor gives the node back.
    std::vector<part_t> pred(32), back(33);
    const int len = child.to_parts(pred.data());
    back.resize(bulgarian::move(pred.data(), len, back.data()));
    EXPECT_EQ(back, parts);
    EXPECT_EQ(child.ascend(), g);
    std::vector<part_t> again(32);
    again.resize(child.to_parts(again.data()));
    EXPECT_EQ(again, parts);
    EXPECT_EQ(child.depth, 4);
  }
}

// Past n = 127 the forward engine takes 64-bit ranks; here both widths run the same graphs.
TEST(BulgarianEngines, WideRanksCountWhatNarrowRanksCount) {
  for (int n : {1, 2, 10, 36, 60}) {
    SCOPED_TRACE(n);
    const PartitionTable table(n);
    const ForwardCounts narrow = forward_cpu_ranks<std::uint32_t>(table, 2);
    const ForwardCounts wide = forward_cpu_ranks<std::uint64_t>(table, 2);
    EXPECT_EQ(wide.histogram, narrow.histogram);
    EXPECT_EQ(wide.garden_of_eden, narrow.garden_of_eden);
    EXPECT_EQ(wide.cycle_ranks, narrow.cycle_ranks);
  }
}

// The forward engine reaches past 127 as far as memory goes, and refuses with what it would
// need: p(128) = 4,351,078,600 partitions at 26 bytes are 105.4 GiB.
TEST(BulgarianEngines, ForwardRefusesWhatItCannotHold) {
  EXPECT_NO_THROW(check_forward_size(128, std::uint64_t{139} << 30, "an H200's memory"));
  try {
    check_forward_size(128, std::uint64_t{79} << 30, "an H100's memory");
    ADD_FAILURE() << "n = 128 fits 79 GiB";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 105.4 GiB, more than the 79.0 GiB"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(check_forward_size(forward_wide_max_n + 1, ~std::uint64_t{0}, "all memory"),
               UsageError);
  EXPECT_THROW(analyze(128, Engine::forward, cpu(1)), UsageError);
  EXPECT_THROW(analyze(0, Engine::backward, cpu(1)), UsageError);
  EXPECT_THROW(analyze(analyze_max_n + 1, Engine::backward, cpu(1)), UsageError);
}

// The walk is slower on a GPU than on the CPU threads beside it (results/bench/gpu_h200.md):
// only a GPU named with --backend gpu walks; one that --backend auto picked does not, until a
// GPU walk is measured faster (gpu_walk_beats_cpu).
TEST(BulgarianEngines, OnlyANamedGpuWalks) {
  if (gpu_walk_beats_cpu) GTEST_SKIP() << "the GPU walk was measured faster: auto walks there";
  RunTarget picked;
  picked.backend = Backend::gpu;
  picked.device = "a GPU";
  picked.devices = {0};
  picked.threads = 16;
  picked.ranks = 3;
  picked.auto_picked = true;
  const RunTarget walk = walk_target(picked);
  EXPECT_EQ(walk.backend, Backend::cpu);
  EXPECT_EQ(walk.device, "cpu");
  EXPECT_TRUE(walk.devices.empty());
  EXPECT_EQ(walk.threads, 16);
  EXPECT_EQ(walk.ranks, 3);
  RunTarget named = picked;
  named.auto_picked = false;
  EXPECT_EQ(walk_target(named).backend, Backend::gpu);
  RunTarget beside = picked;  // --devices 0,cpu: the device and the CPU worker both walk
  beside.cpu_worker = true;
  EXPECT_EQ(walk_target(beside).backend, Backend::gpu);
  EXPECT_TRUE(walk_target(beside).cpu_worker);
  RunTarget cpu;
  cpu.threads = 2;
  EXPECT_EQ(walk_target(cpu).threads, 2);
}

// --engine auto on a GPU: the forward engine on the GPU for n = 113..127 where it fits the
// device's memory, the backward walk elsewhere (on the CPU threads when --backend auto chose
// the GPU, as long as the GPU walk is not measured faster); on the CPU always the walk.
TEST(BulgarianAutoEngine, ForwardOnTheGpuFrom113To127WhereItFits) {
  RunTarget gpu = piles::testing::target(Backend::gpu);
  gpu.auto_picked = true;
  const std::uint64_t h100 = std::uint64_t{79} << 30;
  for (int n = 100; n <= 140; ++n) {
    SCOPED_TRACE(n);
    const EngineChoice on_gpu = auto_engine(n, gpu, h100);
    const bool forward = n >= 113 && n <= 127;
    EXPECT_EQ(on_gpu.engine, forward ? Engine::forward : Engine::backward);
    EXPECT_EQ(on_gpu.target.backend, forward || gpu_walk_beats_cpu ? Backend::gpu : Backend::cpu);
    EXPECT_EQ(auto_engine(n, cpu(), h100).engine, Engine::backward);
  }
  // p(127) = 3,913,864,295 partitions at 14 bytes need 51 GiB: not on a 40 GiB device.
  EXPECT_EQ(auto_engine(127, gpu, std::uint64_t{40} << 30).engine, Engine::backward);
  EXPECT_EQ(auto_engine(113, gpu, std::uint64_t{40} << 30).engine, Engine::forward);
}

}  // namespace
}  // namespace piles::bulgarian
