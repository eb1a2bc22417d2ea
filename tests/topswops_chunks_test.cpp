// The host side of the Topswops kernels, run on the CPU: the packed word their sink keeps per
// chunk, the chunk of a prefix, the assembly of chunk results from what a launch leaves, and the
// run again of chunks whose games overflow a small game buffer, with a launch emulated on the host
// through the same pieces (search_below, with_game, a bounded buffer), and a search told to stop
// handing over exactly the chunks it finished.
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

// A chunk's result against the CPU engine's partial of it, games in any order.
void expect_same(const TopswopsChunkResult& got, const ts::Partial& want, int chunk) {
  EXPECT_EQ(got.best, want.best) << chunk;
  EXPECT_EQ(got.count, want.count) << chunk;
  EXPECT_EQ(got.nodes, want.nodes) << chunk;
  std::vector<ts::FoundGame> games;
  for (std::size_t g = 0; g < got.starts.size(); ++g)
    games.push_back({got.starts[g], got.finals[g]});
  std::sort(games.begin(), games.end());
  EXPECT_EQ(games, want.decks) << chunk;
}

struct StopRequest {};

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
        expect_same(results[i], want, ids[i]);
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

// A stop request before a run again ends the search there: no more launches, and the chunks
// finished by then (those that did not overflow, and those already run again) are handed over
// with the CPU engine's results, before the request's exception goes on.
TEST(TopswopsChunks, AStopBeforeARunAgainEndsTheSearchKeepingTheChunksFinished) {
  const ts::Plan plan = ts::make_plan(10, ts::Final::any, {});
  std::vector<int> ids(plan.chunk_count);
  for (int c = 0; c < plan.chunk_count; ++c) ids[c] = c;
  const auto cpu = piles::testing::cpu_chunks(plan, ids, 0);
  // A buffer of 300 games from target 0: the first chunks fill it, the later ones overflow it.
  const TopswopsWork work = ts::gpu_work(plan, ids, 0, 300);
  for (const int reruns_before_stop : {0, 1}) {
    HostLaunch host;
    std::vector<bool> first_overflowed;
    const auto launch = [&](const TopswopsWork& w, const std::vector<int>& record_min,
                            std::vector<bool>& overflowed) {
      auto results = host(w, record_min, overflowed);
      if (host.launches == 1) first_overflowed = overflowed;
      return results;
    };
    int checks = 0, kept = 0;
    std::vector<bool> finished;
    const piles::gpu::TopswopsStop stop{
        [&] {
          if (++checks == 2 + reruns_before_stop) throw StopRequest{};
        },
        [&](const std::vector<TopswopsChunkResult>& results, const std::vector<bool>& f) {
          ++kept;
          finished = f;
          ASSERT_EQ(results.size(), ids.size());
          for (std::size_t i = 0; i < ids.size(); ++i)
            if (f[i]) expect_same(results[i], cpu.at(ids[i]), ids[i]);
        }};
    EXPECT_THROW(chunks::search_chunks(work, launch, stop), StopRequest);
    EXPECT_EQ(host.launches, 1 + reruns_before_stop);
    EXPECT_EQ(kept, 1);
    ASSERT_EQ(first_overflowed.size(), ids.size());
    std::vector<bool> want(ids.size());
    int rerun = 0, overflowing = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      overflowing += first_overflowed[i];
      want[i] = !first_overflowed[i] || (rerun++ < reruns_before_stop);
    }
    ASSERT_GT(overflowing, reruns_before_stop + 1);
    ASSERT_LT(overflowing, static_cast<int>(ids.size()));
    EXPECT_EQ(finished, want) << reruns_before_stop;
  }
}

// A launch stopped between two of its own launches (the lockstep kernel's) throws what it had
// finished; the search hands exactly that over, and the request goes on.
TEST(TopswopsChunks, ALaunchStoppedInsideHandsOverWhatItFinished) {
  const ts::Plan plan = ts::make_plan(9, ts::Final::any, {});
  const std::vector<int> ids = plan.chunks_of_round(plan.round_count() - 1);
  const TopswopsWork work = ts::gpu_work(plan, ids, 0, 1000000);
  HostLaunch host;
  std::vector<TopswopsChunkResult> whole;
  const auto launch = [&](const TopswopsWork& w, const std::vector<int>& record_min,
                          std::vector<bool>& overflowed) -> std::vector<TopswopsChunkResult> {
    whole = host(w, record_min, overflowed);
    chunks::Stopped stopped{whole, std::vector<bool>(ids.size(), false),
                            std::make_exception_ptr(StopRequest{})};
    stopped.finished[1] = true;
    throw stopped;
  };
  std::vector<bool> finished;
  const piles::gpu::TopswopsStop stop{
      {}, [&](const std::vector<TopswopsChunkResult>& results, const std::vector<bool>& f) {
        finished = f;
        ASSERT_EQ(results.size(), ids.size());
        EXPECT_EQ(results[1].nodes, whole[1].nodes);
      }};
  EXPECT_THROW(chunks::search_chunks(work, launch, stop), StopRequest);
  std::vector<bool> want(ids.size(), false);
  want[1] = true;
  EXPECT_EQ(finished, want);
}

// Between launches a chunk is finished when every prefix of it was taken, none of its lanes is
// parked and its games did not overflow.
TEST(TopswopsChunks, FinishedChunksAreTakenWhollyWithNoLaneParkedAndNoOverflow) {
  const std::vector<std::uint64_t> ends = {3, 5, 9, 9, 12, 12};  // chunk 3 and 5 are empty
  const std::vector<bool> overflowed = {false, false, false, true, false, false};
  // Nine prefixes taken, a lane of chunk 1 parked, chunk 3 overflowed, chunks 4 and 5 not
  // taken (chunk 5 empty but after a chunk not taken).
  EXPECT_EQ(chunks::finished_chunks(ends, 9, {1}, overflowed),
            (std::vector<bool>{true, false, true, false, false, false}));
  EXPECT_EQ(chunks::finished_chunks(ends, 12, {}, std::vector<bool>(6, false)),
            std::vector<bool>(6, true));
  EXPECT_EQ(chunks::finished_chunks(ends, 12, {4, 4, 0}, std::vector<bool>(6, false)),
            (std::vector<bool>{false, true, true, true, false, true}));
}
