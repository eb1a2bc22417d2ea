// Slicing of long runs (host/common/slices): sizes follow the measured rate, every item runs
// once and in order, a stop lands between slices; a Topswops run in tiny slices, or stopped at
// its time limit and resumed, gives the answer of a plain run.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "host/common/slices.hpp"
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
  sizer.record(400, 60);  // 500 units in about 60 s: 250 per 30 s
  EXPECT_NEAR(static_cast<double>(sizer.next()), 250.0, 1.0);
}

TEST(RunInSlices, RunsEveryItemOnceInOrderInBatchesOfTheSizersWeight) {
  std::vector<std::uint64_t> items(10);
  for (int i = 0; i < 10; ++i) items[i] = i;
  SliceSizer sizer(1e9, 25, 25);  // the rate never matters: growth alone sets the sizes
  std::vector<std::vector<std::uint64_t>> batches;
  EXPECT_TRUE(piles::run_in_slices(
      items, [](int) { return std::uint64_t{10}; }, sizer,
      [&](const std::vector<std::uint64_t>& b) { batches.push_back(b); }));
  ASSERT_GE(batches.size(), 2u);
  EXPECT_EQ(batches[0], (std::vector<std::uint64_t>{0, 1}));  // 30 > 25: two items
  EXPECT_EQ(batches[1].size(), 8u);                           // then four times 20 units
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

nlohmann::json answer(nlohmann::json j) {
  for (const char* key : {"seconds", "nodes_per_second", "chunks_resumed", "threads"}) j.erase(key);
  return j;
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
