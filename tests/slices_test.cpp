// Slicing of long runs (host/common/slices): sizes follow the measured rate (on a clock the
// tests move), every item runs once and in order, a stop lands between slices; a Topswops run
// in tiny slices, or stopped at its time limit and resumed, gives the answer of a plain run.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>

#include "host/common/slices.hpp"
#include "host/job/driver.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "tests/support/run_piles.hpp"

namespace {

using piles::SliceSizer;
using piles::testing::run_piles;

TEST(SliceSizer, StartsAtTheFirstSliceAndNeverGoesBelowTheFloor) {
  EXPECT_EQ(SliceSizer(30, 100, 10).next(), 100u);
  EXPECT_EQ(SliceSizer(30, 5, 10).next(), 10u);
  SliceSizer slow(30, 100, 10);
  slow.record(100, 1000);  // 0.1 units/s: 3 units per 30 s, but never below the floor
  EXPECT_EQ(slow.next(), 10u);
}

TEST(SliceSizer, FollowsTheRateButGrowsAtMostFourfold) {
  SliceSizer sizer(30, 100, 1);
  sizer.record(100, 0.001);  // very fast: the rate says millions, growth allows 400
  EXPECT_EQ(sizer.next(), 400u);
  sizer.record(400, 60);  // slower now: the last slice's rate, 400 in 60 s, 200 per 30 s
  EXPECT_EQ(sizer.next(), 200u);
  EXPECT_EQ(sizer.history().size(), 2u);
  EXPECT_EQ(sizer.history()[1].planned, 400u);
  EXPECT_EQ(sizer.history()[1].units, 400u);
  EXPECT_EQ(sizer.history()[1].seconds, 60.0);
}

// An engine on a clock the test moves: each item takes cost(item) seconds. Runs `count` items
// of weight 1 through run_in_slices and returns the slices as the sizer saw them.
std::vector<piles::SliceTime> run_fake(double slice_seconds, std::uint64_t floor,
                                       std::uint64_t count,
                                       const std::function<double(std::uint64_t)>& cost) {
  double now = 0;
  SliceSizer sizer(slice_seconds, floor, floor, [&] { return now; });
  std::vector<std::uint64_t> items(count);
  for (std::uint64_t i = 0; i < count; ++i) items[i] = i;
  std::uint64_t ran = 0;
  EXPECT_TRUE(piles::run_in_slices(
      items, [](std::uint64_t) { return std::uint64_t{1}; }, sizer,
      [&](const std::vector<std::uint64_t>& batch) {
        EXPECT_FALSE(batch.empty());
        EXPECT_EQ(batch.front(), ran);
        ran += batch.size();
        for (std::uint64_t i : batch) now += cost(i);
      }));
  EXPECT_EQ(ran, count);
  return sizer.history();
}

bool holds(const piles::SliceTime& s, double target) {
  return std::abs(s.seconds - target) <= std::max(2.0, target / 10);
}

TEST(SliceSizer, SlicesHoldTheirSecondsAfterAnExpensiveFirstItemAndAChangeOfCost) {
  // The first item takes 100 s (a start-up cost); then 1 ms per item, from item 300000 on 4 ms.
  constexpr std::uint64_t change = 300000;
  const auto slices = run_fake(30, 1, 600000, [](std::uint64_t i) {
    return i == 0 ? 100.0 : i < change ? 1e-3 : 4e-3;
  });
  ASSERT_GT(slices.size(), 20u);
  EXPECT_EQ(slices[0].units, 1u);
  std::size_t spans_change = 0;
  for (std::uint64_t done = 0; done + slices[spans_change].units <= change; ++spans_change)
    done += slices[spans_change].units;
  ASSERT_LT(spans_change + 3, slices.size() - 1);
  for (std::size_t i = 1; i < slices.size(); ++i) {
    const auto& s = slices[i];
    EXPECT_LE(s.units, 4 * slices[i - 1].units) << "slice " << i;
    // The slice that spans the change and the one after it are sized from a rate that has not
    // seen it yet; every other slice holds, once the four-fold growth has reached 30 s, or is
    // shorter (the start, the last slice).
    if (i == spans_change || i == spans_change + 1) continue;
    const bool steady = i >= 12 && i + 1 < slices.size();
    EXPECT_TRUE(steady ? holds(s, 30) : s.seconds <= 32)
        << "slice " << i << ": " << s.units << " items in " << s.seconds << " s";
  }
  EXPECT_LT(slices[spans_change + 1].seconds, 4 * 30 + 2);  // no worse than the change itself
}

TEST(SliceSizer, ASpeedUpIsFollowedWithinAFewSlices) {
  constexpr std::uint64_t change = 100000;
  const auto slices =
      run_fake(5, 1, 400000, [](std::uint64_t i) { return i < change ? 4e-4 : 1e-4; });
  std::size_t i = 0;
  for (std::uint64_t done = 0; done <= change; ++i) done += slices[i].units;
  ASSERT_LT(i + 6, slices.size() - 1);
  for (std::size_t j = i; j + 1 < slices.size(); ++j) EXPECT_LE(slices[j].seconds, 5 + 2);
  for (std::size_t j = i + 4; j + 1 < slices.size(); ++j)
    EXPECT_TRUE(holds(slices[j], 5)) << "slice " << j << ": " << slices[j].seconds << " s";
}

TEST(SliceSizer, TheFloorHoldsWhereTheRateWantsLess) {
  // 1 s an item: a 2 s slice would hold two, but the engine needs 50 to be busy.
  const auto slices = run_fake(2, 50, 1000, [](std::uint64_t) { return 1.0; });
  for (std::size_t i = 0; i < slices.size(); ++i) {
    EXPECT_EQ(slices[i].units, 50u) << "slice " << i;
    EXPECT_EQ(slices[i].planned, 50u);
  }
}

// A floor lowered once the work left is weighed again lets a slice end by the deadline.
TEST(SliceSizer, ANewFloorHoldsFromTheNextSlice) {
  double now = 0;
  SliceSizer sizer(30, 1000, 1000, [&now] { return now; });
  sizer.record(1000, 1.0);  // 1000 units a second
  sizer.set_deadline(0.05);
  EXPECT_EQ(sizer.wanted(), 1000u);  // 50 fit, but the floor is 1000
  sizer.set_floor(10);
  EXPECT_EQ(sizer.floor(), 10u);
  EXPECT_EQ(sizer.wanted(), 50u);
  sizer.set_floor(5000);  // a higher floor raises the next slice at once
  EXPECT_EQ(sizer.next(), 5000u);
  EXPECT_EQ(sizer.wanted(), 5000u);
}

TEST(SliceSizer, ASliceHoldsAtLeastOneItemHoweverLongItTakes) {
  // Every item takes ten slices' time: each slice holds one, and asks for no less.
  const auto slices = run_fake(1, 1, 20, [](std::uint64_t) { return 10.0; });
  ASSERT_EQ(slices.size(), 20u);
  for (const auto& s : slices) {
    EXPECT_EQ(s.units, 1u);
    EXPECT_GE(s.planned, 1u);
  }
}

TEST(RunInSlices, RunsEveryItemOnceInOrderInBatchesOfTheSizersWeight) {
  std::vector<std::uint64_t> items(10);
  for (int i = 0; i < 10; ++i) items[i] = i;
  SliceSizer sizer(1e9, 25, 25);  // the rate never matters: growth alone sets the sizes
  std::vector<std::vector<std::uint64_t>> batches;
  EXPECT_TRUE(piles::run_in_slices(
      items, [](int) { return std::uint64_t{10}; }, sizer,
      [&](const std::vector<std::uint64_t>& b) { batches.push_back(b); }));
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(batches[0], (std::vector<std::uint64_t>{0, 1, 2}));  // the floor, 25, needs three
  EXPECT_EQ(batches[1].size(), 7u);                              // then up to four times 30
  std::vector<std::uint64_t> seen;
  for (const auto& b : batches) seen.insert(seen.end(), b.begin(), b.end());
  EXPECT_EQ(seen, items);
}

TEST(RunInSlices, AnItemHeavierThanASliceStillRunsAlone) {
  SliceSizer sizer(1, 5, 5);
  std::vector<std::vector<std::uint64_t>> batches;
  piles::run_in_slices(
      {7, 8}, [](int) { return std::uint64_t{100}; }, sizer,
      [&](const std::vector<std::uint64_t>& b) { batches.push_back(b); });
  EXPECT_EQ(batches, (std::vector<std::vector<std::uint64_t>>{{7}, {8}}));
}

TEST(RunInSlices, AStopEndsTheRunBetweenSlices) {
  SliceSizer sizer(1e9, 1, 1);
  int runs = 0;
  EXPECT_FALSE(piles::run_in_slices(
      {1, 2, 3, 4, 5, 6, 7, 8}, [](int) { return std::uint64_t{1}; }, sizer,
      [&](const std::vector<std::uint64_t>&) { ++runs; }, [&] { return runs == 2; }));
  EXPECT_EQ(runs, 2);
}

TEST(JobSlices, TheOutcomeListsEverySliceAsTheDriverRanIt) {
  piles::job::Job job;
  job.identity = {{"game", "slices test"}};
  job.chunk_count = 100;
  job.rounds = {{}, {}};
  for (piles::job::Chunk c = 0; c < 100; ++c) job.rounds[c < 30 ? 0 : 1].push_back(c);
  job.weight = [](piles::job::Chunk) { return std::uint64_t{1}; };
  job.slice_floor = [](const piles::RunTarget&) { return std::uint64_t{10}; };
  job.check = [](piles::job::Chunk, const nlohmann::json&, const std::string&) {};
  job.run = [](const std::vector<piles::job::Chunk>& chunks, int, const piles::RunTarget&,
               const piles::job::ChunkDone& done, const piles::UnitsDone&, const piles::Cancel&) {
    for (piles::job::Chunk c : chunks) done(c, nlohmann::json::object(), 0);
  };
  piles::job::Options options;
  options.quiet = true;
  options.slice_seconds = 1e9;  // growth alone sets the sizes: 10, then 4 times the last
  const auto out = piles::job::run(job, options, piles::RunTarget{});
  std::vector<std::uint64_t> planned, units;
  for (const auto& s : out.slices) {
    planned.push_back(s.planned);
    units.push_back(s.units);
    EXPECT_GE(s.seconds, 0);
  }
  // Round 0 ends the second slice short; the sizer goes on across rounds.
  EXPECT_EQ(planned, (std::vector<std::uint64_t>{10, 40, 80}));
  EXPECT_EQ(units, (std::vector<std::uint64_t>{10, 20, 70}));
}

nlohmann::json answer(nlohmann::json j) {
  j = piles::testing::without_provenance(j);
  for (const char* key : {"seconds", "nodes_per_second", "chunks_resumed"}) j.erase(key);
  return j;
}

TEST(TopswopsSlices, ASliceTheHostThreadsOutrunRunsOnTheHost) {
  using piles::topswops::host_prefixes_per_thread;
  using piles::topswops::slice_on_host;
  const std::uint64_t lanes = 270'336;  // 132 SMs of 2048 threads
  EXPECT_TRUE(slice_on_host(16 * host_prefixes_per_thread - 1, 16, lanes));
  EXPECT_FALSE(slice_on_host(16 * host_prefixes_per_thread, 16, lanes));
  EXPECT_TRUE(slice_on_host(1, 1, lanes));  // the tail of a round
  EXPECT_FALSE(slice_on_host(1'000'000, 16, lanes));
  EXPECT_FALSE(slice_on_host(1, 16, 0));  // no device: the GPU engine says so
}

TEST(TopswopsSlices, TinySlicesGiveThePlainAnswer) {
  const auto plain = run_piles("--backend cpu topswops solve 12 --json");
  const auto sliced = run_piles("--backend cpu topswops solve 12 --json --slice 0.0001");
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(sliced.status, 0) << sliced.err;
  EXPECT_EQ(answer(sliced.json()), answer(plain.json()));
}

TEST(TopswopsSlices, ATimeLimitStopsWithExitThreeAndTheSameCommandResumes) {
  const std::string journal = ::testing::TempDir() + "piles_time_limit.journal";
  std::filesystem::remove(journal);
  const std::string args =
      "--backend cpu --threads 1 topswops solve 13 --json --slice 0.05 "
      "--checkpoint " +
      journal;
  const auto stopped = run_piles(args + " --time-limit 0.3");
  ASSERT_EQ(stopped.status, 3) << stopped.err;
  EXPECT_EQ(stopped.err.rfind("piles: stopped: ", 0), 0u) << stopped.err;
  const nlohmann::json partial = stopped.json();
  EXPECT_FALSE(partial.at("complete").get<bool>());
  EXPECT_TRUE(partial.at("stopped").get<bool>());
  EXPECT_GT(partial.at("chunks_done").get<int>(), 0);
  EXPECT_LT(partial.at("chunks_done").get<int>(), partial.at("chunks").get<int>());

  const auto resumed = run_piles(args);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const nlohmann::json whole = resumed.json();
  EXPECT_EQ(whole.at("chunks_resumed"), partial.at("chunks_done"));
  EXPECT_TRUE(whole.at("complete").get<bool>());
  EXPECT_EQ(whole.at("max_steps"), 80);  // f(13), OEIS A000375
  EXPECT_EQ(answer(whole), answer(run_piles("--backend cpu topswops solve 13 --json").json()));
  std::filesystem::remove(journal);
}

TEST(TopswopsSlices, BadSliceAndTimeLimitAreUsageErrors) {
  using piles::testing::is_usage_error;
  EXPECT_TRUE(is_usage_error(run_piles("topswops solve 8 --slice 0"), "--slice"));
  EXPECT_TRUE(is_usage_error(run_piles("topswops solve 8 --slice abc"), "abc"));
  EXPECT_TRUE(is_usage_error(run_piles("topswops solve 8 --time-limit 5"), "--checkpoint"));
  EXPECT_TRUE(is_usage_error(run_piles("topswops solve 8 --time-limit -1 --checkpoint x"), "-1"));
}

}  // namespace
