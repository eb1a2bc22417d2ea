// How a journaled Bulgarian run cuts each n's predecessor forest into chunks.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/bulgarian.hpp"
#include "core/partition.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forest_chunks.hpp"
#include "host/bulgarian/range_job.hpp"
#include "host/common/error.hpp"
#include "host/common/partition_table.hpp"
#include "tests/support/targets.hpp"

namespace {

using namespace piles::bulgarian;
using piles::PartitionTable;
using piles::partition::part_t;
using piles::testing::cpu;

// The partitions each chunk holds, walked.
std::vector<std::uint64_t> chunk_sizes(const ForestChunks& cut, int n, std::size_t chunks) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t c = 0; c < chunks; ++c) {
    const auto subtrees = cut.chunk(c);
    sizes.push_back(
        walk_subtrees_cpu({subtrees.begin(), subtrees.end()}, depth_bound(n), 2, {}).nodes());
  }
  return sizes;
}

// Brandt: the partitions on a cycle are exactly those of on_cycle. By brute force: a partition
// is on a cycle when its own orbit comes back to it.
TEST(ForestChunks, OnCycleIsBeingOnACycle) {
  for (int n = 1; n <= 30; ++n) {
    const PartitionTable table(n);
    const int k = brandt_k(n);
    for (std::uint64_t r = 0; r < table.count(); ++r) {
      part_t start[32], cur[32], next[32];
      const int len = piles::partition::unrank(table.view(), r, start);
      std::vector<std::uint64_t> seen{r};
      std::memcpy(cur, start, sizeof start);
      int l = len;
      for (;;) {
        l = move(cur, l, next);
        std::memcpy(cur, next, sizeof next);
        const std::uint64_t rank = piles::partition::rank(table.view(), cur, l);
        if (std::find(seen.begin(), seen.end(), rank) != seen.end()) break;
        seen.push_back(rank);
      }
      const bool back = piles::partition::rank(table.view(), cur, l) == r;
      ASSERT_EQ(on_cycle(start, len, k), back) << "n = " << n << ", rank " << r;
    }
  }
}

// Both splits: the top and the chunks hold every partition once, and together give the forward
// engine's depths and Garden-of-Eden count.
TEST(ForestChunks, EverySplitCoversTheForestOnce) {
  for (const ForestSplit split : {ForestSplit::levels, ForestSplit::sampled})
    for (const int n : {1, 2, 3, 10, 36, 45, 60})
      for (const int chunks : {1, 3, 32, 64}) {
        SCOPED_TRACE(::testing::Message() << "n = " << n << ", " << chunks << " chunks, split "
                                          << split_name(split).value_or("levels"));
        const ForestChunks cut = cut_forest(n, chunks, split);
        ASSERT_EQ(cut.begin.size(), static_cast<std::size_t>(chunks) + 1);
        EXPECT_EQ(cut.begin.front(), 0u);
        EXPECT_EQ(cut.begin.back(), cut.top.subtrees.size());
        EXPECT_TRUE(std::is_sorted(cut.begin.begin(), cut.begin.end()));
        ForestCounts counts = cut.top.counts;
        for (std::size_t c = 0; c < static_cast<std::size_t>(chunks); ++c) {
          const auto subtrees = cut.chunk(c);
          counts.merge(
              walk_subtrees_cpu({subtrees.begin(), subtrees.end()}, depth_bound(n), 2, {}));
        }
        const Analysis whole = analyze(n, Engine::forward, cpu(2));
        counts.histogram.resize(whole.transient_histogram.size());
        EXPECT_EQ(counts.histogram, whole.transient_histogram);
        EXPECT_EQ(counts.leaves, whole.garden_of_eden);
        EXPECT_EQ(counts.nodes(), piles::partition_count(n));
      }
}

// The sampled chunks of n = 90 (p(90) = 56,634,173, OEIS A000041) hold within a quarter of an
// even share each; the levels split puts most of the forest in chunk 0, which is why the
// sampled split replaced it.
TEST(ForestChunks, SampledChunksAreEven) {
  const int n = 90, chunks = 32;
  const double even = 56634173.0 / chunks;
  for (const std::uint64_t size :
       chunk_sizes(cut_forest(n, chunks, ForestSplit::sampled), n, chunks)) {
    EXPECT_GT(size, 0.75 * even);
    EXPECT_LT(size, 1.25 * even);
  }
  EXPECT_GT(chunk_sizes(cut_forest(n, chunks, ForestSplit::levels), n, chunks)[0], 16 * even);
}

// Every process must name the same subtrees by a chunk's number, on any number of threads.
TEST(ForestChunks, TheSampledCutIsTheSameOnAnyThreadCount) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const ForestChunks one = cut_forest(77, 16, ForestSplit::sampled);
  omp_set_num_threads(3);
  const ForestChunks three = cut_forest(77, 16, ForestSplit::sampled);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.begin, three.begin);
  ASSERT_EQ(one.top.subtrees.size(), three.top.subtrees.size());
  for (std::size_t i = 0; i < one.top.subtrees.size(); ++i) {
    part_t a[80], b[80];
    const int la = one.top.subtrees[i].node.to_parts(a),
              lb = three.top.subtrees[i].node.to_parts(b);
    ASSERT_TRUE(std::equal(a, a + la, b, b + lb)) << i;
  }
}

// A journal begun with the levels split goes on with it: a run of the sampled default that
// takes it up would otherwise refuse it as another problem, or walk other subtrees.
TEST(ForestChunks, AJournalKeepsItsSplit) {
  const std::string journal =
      (std::filesystem::temp_directory_path() / "piles_forest_levels.journal").string();
  std::filesystem::remove(journal);
  RangeRun run;
  run.range = {40, 42};
  run.chunks_per_n = 8;
  run.run.checkpoint = journal;
  run.run.quiet = true;
  run.split = ForestSplit::levels;
  run.run.shard = piles::job::parse_shard("0/2", 2);
  analyze_range(run, cpu(), [](const Analysis&) {});
  run.split = ForestSplit::sampled;
  run.run.shard.reset();
  std::vector<Analysis> got;
  analyze_range(run, cpu(), [&](const Analysis& a) { got.push_back(a); });
  ASSERT_EQ(got.size(), 3u);
  for (const Analysis& a : got)
    EXPECT_TRUE(a.same_structure(analyze(a.n, Engine::forward, cpu()))) << a.n;
  std::filesystem::remove(journal);
}

TEST(ForestChunks, AnUnknownSplitIsRefused) {
  EXPECT_EQ(split_of({{"game", "bulgarian"}}), ForestSplit::levels);
  EXPECT_EQ(split_of({{"split", *split_name(ForestSplit::sampled)}}), ForestSplit::sampled);
  EXPECT_THROW(split_of({{"split", "halves/9"}}), piles::UsageError);
  EXPECT_THROW(split_of({{"split", 9}}), piles::UsageError);
}

}  // namespace
