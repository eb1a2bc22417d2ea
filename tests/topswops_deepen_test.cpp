// A slice for a device cut below the plan's prefixes (host/topswops/deepen.hpp): on a device of
// 150,000 lanes (an H100 holds about that many) the smallest slices of n = 15..18 hold at least
// eight prefixes a lane, and a cut slice searched on a stand-in device (the CPU search of the
// same work) gives every chunk exactly the CPU engine's result, nodes per level included, also
// where a game longer than the target sends prefixes back to the device in passes; told to stop,
// the slice hands over exactly its chunks all of whose groups the device finished.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/deepen.hpp"
#include "host/topswops/plan.hpp"
#include "host/topswops/published.hpp"

namespace ts = piles::topswops;

namespace {

std::vector<ts::Partial> on_cpu(const ts::Plan& plan, const std::vector<int>& chunks, int target) {
  std::vector<ts::Partial> out(chunks.size());
  ts::run_chunks_cpu(plan, chunks, target, 2, [&](int chunk, const ts::Partial& p, double) {
    for (std::size_t i = 0; i < chunks.size(); ++i)
      if (chunks[i] == chunk) out[i] = p;
  });
  return out;
}

// The chunks searched cut for a device of `lanes` lanes, on the stand-in device; `again` counts
// the prefixes whose groups beat the target, `calls` the works the stand-in was handed.
std::vector<ts::Partial> cut(const ts::Plan& plan, const std::vector<int>& chunks, int target,
                             std::uint64_t lanes, std::size_t& again, int& extra,
                             std::size_t& calls) {
  // Down to three levels above the leaves: the plan's own prefixes at these n already sit as
  // deep as a device's slice is cut by default.
  const ts::DeepWork deep = ts::deepen(plan, chunks, target, ts::prefixes_for_lanes(lanes), 2,
                                       piles::gpu::default_found_capacity, plan.n - 3);
  extra = deep.extra;
  calls = 0;
  const ts::DeviceSearch stand_in = [&](const piles::gpu::TopswopsWork& work,
                                        const ts::KeepGroups&) {
    ++calls;
    EXPECT_EQ(work.bound, deep.work.bound);  // the slice's table, whatever the pass's target
    return ts::search_work_cpu(work);
  };
  return ts::finish_groups(plan, deep, target, stand_in(deep.work, {}), 2, stand_in, &again);
}

// The slices a device is handed: each warm-up round whole (the job driver runs a round in
// slices of at least the device's lanes in prefixes, and these rounds hold fewer), and in the
// last round slices of that floor, here its first and its last.
std::vector<std::vector<int>> smallest_slices(const ts::Plan& plan, std::uint64_t lanes) {
  std::vector<std::vector<int>> slices;
  for (int r = 0; r < plan.warmup; ++r) slices.push_back(plan.chunks_of_round(r));
  const std::vector<int> last = plan.chunks_of_round(plan.warmup);
  std::vector<int> head, tail;
  for (std::uint64_t i = 0, held = 0; i < last.size() && held < lanes; ++i) {
    head.push_back(last[i]);
    held += plan.chunk_prefixes(last[i]);
  }
  for (std::uint64_t i = last.size(), held = 0; i > 0 && held < lanes; --i) {
    tail.insert(tail.begin(), last[i - 1]);
    held += plan.chunk_prefixes(last[i - 1]);
  }
  slices.push_back(head);
  slices.push_back(tail);
  return slices;
}

}  // namespace

TEST(Deepen, TheSmallestSlicesFillADeviceOf150000Lanes) {
  constexpr std::uint64_t lanes = 150'000;
  for (int n = 15; n <= 18; ++n) {
    const ts::Plan plan = ts::make_plan(n, ts::Final::any, std::nullopt);
    for (const std::vector<int>& slice : smallest_slices(plan, lanes)) {
      const ts::DeepWork deep =
          ts::deepen(plan, slice, plan.start_target, ts::prefixes_for_lanes(lanes), 2);
      EXPECT_GE(deep.work.chunk_ends.back(), 1'200'000u)
          << "n = " << n << ", chunks " << slice.front() << ".." << slice.back();
      EXPECT_LE(deep.work.depth, n - 1 - ts::device_levels_below);
    }
  }
}

TEST(Deepen, ASliceAlreadyLargeEnoughIsNotCut) {
  const ts::Plan plan = ts::make_plan(12, ts::Final::any, std::nullopt);
  const ts::DeepWork deep = ts::deepen(plan, {0, 1, 2}, plan.start_target, 1);
  EXPECT_EQ(deep.extra, 0);
  EXPECT_EQ(deep.work.depth, plan.depth);
  EXPECT_EQ(deep.work.chunk_ends.size(), 3u);
}

// Also from a target far below the answer, where the target rises in prefix after prefix and
// again and again inside each: the device's passes then follow every rise.
TEST(Deepen, CutSlicesGiveEveryChunkTheCpuEnginesResult) {
  std::size_t searched_again = 0, most_calls = 0;
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    for (int n = 9; n <= 12; ++n) {
      const ts::Plan plan = ts::make_plan(n, final, std::nullopt);
      const int longest =
          final == ts::Final::sorted ? ts::published::longest_sorted[n] : ts::published::longest[n];
      std::vector<int> chunks(plan.chunk_count);  // one slice of every chunk
      for (int c = 0; c < plan.chunk_count; ++c) chunks[c] = c;
      // From the start target games longer than it raise the target inside prefixes; from the
      // answer none does.
      std::vector<int> targets{plan.start_target, longest};
      if (n <= 11) targets.push_back(longest / 2);
      for (const int target : targets) {
        std::size_t again = 0, calls = 0;
        int extra = 0;
        const auto deep = cut(plan, chunks, target, 1'000'000, again, extra, calls);
        const auto cpu = on_cpu(plan, chunks, target);
        const std::string where = "n = " + std::to_string(n) + ", target " +
                                  std::to_string(target) + ", " + ts::final_name(final);
        EXPECT_GT(extra, 0) << where;
        ASSERT_EQ(deep.size(), cpu.size()) << where;
        for (std::size_t i = 0; i < cpu.size(); ++i) EXPECT_EQ(deep[i], cpu[i]) << where;
        if (target == longest) EXPECT_EQ(again + calls, 1u) << where;  // one pass, none again
        if (again > 0) EXPECT_GT(calls, 1u) << where;
        searched_again += again;
        most_calls = std::max(most_calls, calls);
      }
    }
  }
  EXPECT_GT(searched_again, 0u);  // the passes for groups that beat the target were taken
  EXPECT_GT(most_calls, 3u);      // and more than once after a rise
}

// A device told to stop hands over the groups it finished, the others searched only in part
// (here not at all). The slice hands over exactly the chunks all of whose groups finished, each
// the CPU engine's result for it (groups that beat the target searched again included), and
// nothing else; the stop's exception goes on.
TEST(Deepen, ASliceToldToStopKeepsExactlyTheChunksWhoseGroupsAllFinished) {
  struct StopRequest {};
  for (const ts::Final final : {ts::Final::any, ts::Final::sorted}) {
    const ts::Plan plan = ts::make_plan(11, final, std::nullopt);
    std::vector<int> chunks(plan.chunk_count);
    for (int c = 0; c < plan.chunk_count; ++c) chunks[c] = c;
    const int target = plan.start_target;
    const ts::DeepWork deep = ts::deepen(plan, chunks, target, ts::prefixes_for_lanes(1'000'000), 2,
                                         piles::gpu::default_found_capacity, plan.n - 3);
    ASSERT_GT(deep.extra, 0);
    // The first half of the chunks finished whole; in the rest, every other chunk's last group
    // not finished.
    const auto finishes = [&](std::size_t g) {
      const bool last = g + 1 == deep.slot.size() || deep.slot[g + 1] != deep.slot[g];
      return deep.slot[g] < static_cast<int>(chunks.size() / 2) || deep.slot[g] % 2 == 0 || !last;
    };
    std::vector<bool> want(chunks.size(), true);
    for (std::size_t g = 0; g < deep.slot.size(); ++g)
      if (!finishes(g)) want[deep.slot[g]] = false;
    const auto stopping = [&](const piles::gpu::TopswopsWork& work,
                              const ts::KeepGroups& keep) -> std::vector<ts::Partial> {
      std::vector<ts::Partial> groups = ts::search_work_cpu(work);
      std::vector<bool> finished(groups.size());
      for (std::size_t g = 0; g < groups.size(); ++g) {
        finished[g] = finishes(g);
        if (finished[g]) continue;
        groups[g] = ts::Partial{};
        groups[g].nodes.assign(plan.n, 0);
      }
      keep(std::move(groups), finished);
      throw StopRequest{};
    };
    std::map<std::size_t, ts::Partial> kept;
    EXPECT_THROW(ts::search_on_device(plan, deep, target, 2, stopping,
                                      [&](std::size_t slot, const ts::Partial& p) {
                                        EXPECT_TRUE(kept.emplace(slot, p).second) << slot;
                                      }),
                 StopRequest);
    const auto cpu = on_cpu(plan, chunks, target);
    std::size_t complete = 0;
    for (std::size_t s = 0; s < chunks.size(); ++s) {
      EXPECT_EQ(kept.count(s), want[s] ? 1u : 0u) << s;
      if (kept.count(s)) EXPECT_EQ(kept.at(s), cpu[s]) << s;
      complete += want[s];
    }
    // Some chunks of the second half finish, some do not.
    EXPECT_GT(complete, chunks.size() / 2);
    EXPECT_LT(complete, chunks.size());
  }
}

TEST(Deepen, ABoundMakesOneRoundAndNoBoundTheWarmUps) {
  EXPECT_EQ(ts::make_plan(12, ts::Final::any, 65).round_count(), 1);
  EXPECT_EQ(ts::make_plan(12, ts::Final::any, 65).identity().at("warmup_rounds"), 0);
  EXPECT_EQ(ts::make_plan(12, ts::Final::any, std::nullopt).round_count(), ts::warmup_rounds + 1);
}

// Doubling rounds: 1, 2, 4, ... chunks, every chunk in one round, in order; from 511 chunks on
// the last holds the rest and at least twice the one before it, below that the plan keeps its
// eight short rounds.
TEST(Deepen, DoublingRoundsEndWithTheLargestHalf) {
  for (int n : {1, 5, 9, 11, 12, 14, 17}) {
    const ts::Plan plan = ts::make_plan(n, ts::Final::any, 0, {}, ts::doubling_rounds);
    const ts::Plan short_rounds = ts::make_plan(n, ts::Final::any, 0, {}, ts::warmup_rounds);
    std::vector<int> all;
    for (int r = 0; r < plan.round_count(); ++r) {
      const std::vector<int> round = plan.chunks_of_round(r);
      ASSERT_FALSE(round.empty()) << n << " round " << r;
      if (r + 1 < plan.round_count()) EXPECT_EQ(round.size(), std::size_t{1} << r) << n;
      all.insert(all.end(), round.begin(), round.end());
    }
    ASSERT_EQ(all.size(), static_cast<std::size_t>(plan.chunk_count)) << n;
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<int>(i)) << n;
    if (plan.chunk_count < 511) {
      EXPECT_EQ(plan.identity(), short_rounds.identity()) << n;
    } else {
      const std::size_t last = plan.chunks_of_round(plan.warmup).size();
      EXPECT_GE(last, std::size_t{1} << plan.warmup) << n;
      EXPECT_LT(last, std::size_t{4} << plan.warmup) << n;
    }
  }
  const ts::Plan f17 = ts::make_plan(17, ts::Final::any, 159, {}, ts::doubling_rounds);
  ASSERT_EQ(f17.chunk_count, 4096);
  EXPECT_EQ(f17.warmup, 11);
  EXPECT_EQ(f17.chunks_of_round(11).front(), 2047);
}
