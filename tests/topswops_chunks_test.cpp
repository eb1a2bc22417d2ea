// The host side of the Topswops kernels, run on the CPU: the packed word their sink keeps per
// chunk, the chunk of a prefix, the assembly of chunk results from what a launch leaves, and the
// run again of chunks whose games overflow a small game buffer, with a launch emulated on the host
// through the same pieces (search_below, with_game, a bounded buffer).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/topswops.hpp"
#include "core/topswops_found.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/plan.hpp"
#include "kernels/topswops_chunks.hpp"
#include "tests/support/topswops.hpp"

namespace ts = piles::topswops;
namespace found = piles::topswops::found;
namespace chunks = piles::gpu::topswops_chunks;
using piles::gpu::TopswopsChunkResult;
using piles::gpu::TopswopsWork;

namespace {

// A device launch on the host: every prefix searched in turn, games kept as the device keeps
// them (the chunk's word by with_game, the game in the buffer while it has room).
struct HostLaunch {
  int launches = 0;

  struct Sink {
    std::uint32_t chunk;
    int record_min;
    std::vector<unsigned long long>& words;
    std::vector<found::Game<2>>& games;
    std::uint64_t& stored;
    std::uint64_t capacity;

    void leaf(int steps, const ts::Deck<2>& start, const ts::Deck<2>& final_deck) {
      if (steps < record_min) return;
      const unsigned long long next = found::with_game(words[chunk], steps);
      if (next == words[chunk]) return;
      words[chunk] = next;
      if (stored++ < capacity) games.push_back({chunk, steps, start, final_deck});
    }
  };

  std::vector<TopswopsChunkResult> operator()(const TopswopsWork& work,
                                              const std::vector<int>& record_min,
                                              std::vector<bool>& overflowed) {
    ++launches;
    const ts::Problem problem{work.n, work.sorted, work.bound.data()};
    std::vector<unsigned long long> words(work.chunk_ends.size()),
        nodes(work.chunk_ends.size() * ts::max_n);
    std::vector<found::Game<2>> games;
    std::uint64_t stored = 0;
    const int chunk_count = static_cast<int>(work.chunk_ends.size());
    for (std::uint64_t i = 0; i < work.chunk_ends.back(); ++i) {
      const std::uint32_t chunk = found::chunk_of(work.chunk_ends.data(), chunk_count, i);
      ts::Deck<2> start;
      const ts::Frame<2> f =
          ts::replay<2>(problem, work.choices.data() + i * work.depth, work.depth, start);
      std::uint64_t level_nodes[ts::max_n] = {};
      Sink sink{chunk, record_min[chunk], words, games, stored, work.found_capacity};
      ts::search_below(problem, f, work.depth, start, work.target, level_nodes, sink);
      for (int l = work.depth + 1; l < work.n; ++l) nodes[chunk * ts::max_n + l] += level_nodes[l];
    }
    return chunks::assemble(words, nodes, games, work.n, overflowed);
  }
};

}  // namespace

TEST(TopswopsChunks, TheWordKeepsTheLongestGameAndItsCount) {
  unsigned long long word = 0;
  EXPECT_EQ(found::best_of(word), -1);
  int best = -1;
  std::uint64_t count = 0;
  for (int steps : {3, 5, 5, 2, 7, 7, 7, 6, 0, 7}) {
    word = found::with_game(word, steps);
    if (steps > best) best = steps, count = 0;
    if (steps == best) ++count;
    EXPECT_EQ(found::best_of(word), best);
    EXPECT_EQ(found::count_of(word), count);
  }
  EXPECT_EQ(found::with_game(word, 6), word);
}

TEST(TopswopsChunks, EveryPrefixFindsItsChunk) {
  const std::vector<std::uint64_t> ends = {3, 3, 4, 9};  // chunk 1 is empty
  const std::vector<std::uint32_t> want = {0, 0, 0, 2, 3, 3, 3, 3, 3};
  for (std::uint64_t i = 0; i < 9; ++i) EXPECT_EQ(found::chunk_of(ends.data(), 4, i), want[i]) << i;
}

TEST(TopswopsChunks, OverflowingChunksAreRunAgainToTheSameResults) {
  // From target 0 every chunk records many games: a buffer of 3 overflows and every chunk is
  // run again, recording only its longest games; the results are the CPU engine's.
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    const ts::Plan plan = ts::make_plan(9, final, {});
    const std::vector<int> ids = plan.chunks_of_round(plan.round_count() - 1);
    const auto cpu = piles::testing::cpu_chunks(plan, ids, 0);
    for (const std::uint64_t capacity : {3ull, 1000000ull}) {
      HostLaunch launch;
      const auto results = chunks::search_chunks(ts::gpu_work(plan, ids, 0, capacity), launch);
      ASSERT_EQ(results.size(), ids.size());
      int overflowing = 0;
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const ts::Partial& want = cpu.at(ids[i]);
        EXPECT_EQ(results[i].best, want.best) << ids[i];
        EXPECT_EQ(results[i].count, want.count) << ids[i];
        EXPECT_EQ(results[i].nodes, want.nodes) << ids[i];
        std::vector<ts::FoundGame> games;
        for (std::size_t g = 0; g < results[i].starts.size(); ++g)
          games.push_back({results[i].starts[g], results[i].finals[g]});
        std::sort(games.begin(), games.end());
        EXPECT_EQ(games, want.decks) << ids[i];
        overflowing += want.count > 0;
      }
      // One launch, and one more per chunk that overflowed.
      if (capacity == 3)
        EXPECT_GT(launch.launches, 1 + overflowing / 2);
      else
        EXPECT_EQ(launch.launches, 1);
    }
  }
}

TEST(TopswopsChunks, MoreLongestGamesThanTheBufferHoldsRunAgainInABufferOfTheirCount) {
  // n = 6 has five longest decks; a buffer of two holds them when the chunk runs again.
  const ts::Plan plan = ts::make_plan(6, ts::Final::any, {});
  std::vector<int> all(plan.chunk_count);
  for (int c = 0; c < plan.chunk_count; ++c) all[c] = c;
  TopswopsWork work = ts::gpu_work(plan, all, 0, 2);
  work.chunk_ends = {work.chunk_ends.back()};  // one chunk holding every prefix
  HostLaunch launch;
  const auto results = chunks::search_chunks(work, launch);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].best, 10);
  EXPECT_EQ(results[0].count, 5u);
  EXPECT_EQ(results[0].starts.size(), 5u);
  EXPECT_EQ(launch.launches, 2);
}
