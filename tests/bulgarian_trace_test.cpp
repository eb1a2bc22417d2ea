#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bulgarian.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/common/output.hpp"
#include "host/common/partition_table.hpp"
#include "tests/support/run_piles.hpp"

using piles::partition::part_t;
using piles::testing::run_piles;
using Parts = std::vector<std::vector<int>>;

TEST(BulgarianMove, MatchesSeedTable) {
  // Consecutive rows of seed 001, Table 1.
  const std::vector<std::pair<std::vector<part_t>, std::vector<part_t>>> steps = {
      {{4, 1, 1}, {3, 3}},       {{3, 3}, {2, 2, 2}},
      {{2, 2, 2}, {3, 1, 1, 1}}, {{3, 1, 1, 1}, {4, 2}},
      {{4, 2}, {3, 2, 1}},       {{3, 2, 1}, {3, 2, 1}},
      {{8, 4, 3}, {7, 3, 3, 2}}, {{5, 2, 2}, {4, 3, 1, 1}},
      {{7, 5, 2}, {6, 4, 3, 1}}, {{5, 4, 3, 2}, {4, 4, 3, 2, 1}}};
  for (const auto& [from, to] : steps) {
    std::vector<part_t> out(from.size() + 1);
    out.resize(piles::bulgarian::move(from.data(), from.size(), out.data()));
    EXPECT_EQ(out, to);
  }
}

// Seed 001, Table 1: the four worked starts, column by column.
TEST(BulgarianTrace, SeedTableTriangular6) {
  const auto t = piles::bulgarian::trace({4, 1, 1});
  EXPECT_EQ(t.partitions, (Parts{{4, 1, 1}, {3, 3}, {2, 2, 2}, {3, 1, 1, 1}, {4, 2}, {3, 2, 1}}));
  EXPECT_EQ(t.transient, 5);
  EXPECT_EQ(t.cycle_length, 1);
}

TEST(BulgarianTrace, SeedTableTriangular15) {
  const auto t = piles::bulgarian::trace({8, 4, 3});
  const Parts expected = {{8, 4, 3},       {7, 3, 3, 2},       {6, 4, 2, 2, 1}, {5, 5, 3, 1, 1},
                          {5, 4, 4, 2},    {4, 4, 3, 3, 1},    {5, 3, 3, 2, 2}, {5, 4, 2, 2, 1, 1},
                          {6, 4, 3, 1, 1}, {5, 5, 3, 2},       {4, 4, 4, 2, 1}, {5, 3, 3, 3, 1},
                          {5, 4, 2, 2, 2}, {5, 4, 3, 1, 1, 1}, {6, 4, 3, 2},    {5, 4, 3, 2, 1}};
  EXPECT_EQ(t.partitions, expected);
  EXPECT_EQ(t.transient, 15);
  EXPECT_EQ(t.cycle_length, 1);
}

TEST(BulgarianTrace, SeedTableNonTriangular9) {
  const auto t = piles::bulgarian::trace({5, 2, 2});
  EXPECT_EQ(t.partitions,
            (Parts{{5, 2, 2}, {4, 3, 1, 1}, {4, 3, 2}, {3, 3, 2, 1}, {4, 2, 2, 1}, {4, 3, 1, 1}}));
  EXPECT_EQ(t.transient, 1);
  EXPECT_EQ(t.cycle_length, 4);
}

TEST(BulgarianTrace, SeedTableNonTriangular14) {
  const auto t = piles::bulgarian::trace({7, 5, 2});
  const Parts expected = {{7, 5, 2},       {6, 4, 3, 1},    {5, 4, 3, 2},    {4, 4, 3, 2, 1},
                          {5, 3, 3, 2, 1}, {5, 4, 2, 2, 1}, {5, 4, 3, 1, 1}, {5, 4, 3, 2}};
  EXPECT_EQ(t.partitions, expected);
  EXPECT_EQ(t.transient, 2);
  EXPECT_EQ(t.cycle_length, 5);
}

TEST(BulgarianTrace, PartsInAnyOrderAreSorted) {
  EXPECT_EQ(piles::bulgarian::parse_partition("2,5,2"), (std::vector<int>{5, 2, 2}));
}

TEST(BulgarianTrace, JsonThroughBinary) {
  const auto r = run_piles("bulgarian trace 5,2,2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["start"], nlohmann::json({5, 2, 2}));
  EXPECT_EQ(j["transient"], 1);
  EXPECT_EQ(j["cycle_length"], 4);
  EXPECT_EQ(j["trace"].size(), 6u);
}

TEST(BulgarianTrace, BadPartitionsExitTwoNamingTheValue) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0,2", "'0'"},
      {"3,-1", "-1"},
      {"3,,1", "empty entry"},
      {"''", "empty list"},
      {"a", "'a'"},
      {"600000000,600000000", "1200000000 cards"},
      {"1,2,99999999999999999999", "99999999999999999999"},
  };
  for (const auto& [partition, message] : cases)
    EXPECT_TRUE(piles::testing::is_usage_error(run_piles("bulgarian trace " + partition), message))
        << partition;
}

// The trace the plain way: every partition kept in a map until one repeats.
piles::bulgarian::Trace trace_by_map(const std::vector<int>& start) {
  piles::bulgarian::Trace t;
  std::map<std::vector<int>, int> seen;
  std::vector<int> cur = start, next;
  while (!seen.count(cur)) {
    seen.emplace(cur, static_cast<int>(t.partitions.size()));
    t.partitions.push_back(cur);
    next.resize(cur.size() + 1);
    next.resize(piles::bulgarian::move(cur.data(), static_cast<int>(cur.size()), next.data()));
    cur.swap(next);
  }
  t.transient = seen[cur];
  t.cycle_length = static_cast<std::int64_t>(t.partitions.size()) - t.transient;
  if (t.cycle_length > 1) t.partitions.push_back(cur);
  return t;
}

TEST(BulgarianTrace, CycleFindingAgreesWithKeepingEveryPartition) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    // A random composition of n into up to 6 parts.
    const int n = 1 + static_cast<int>(rng() % 600);
    std::vector<int> parts;
    for (int left = n; left > 0;) {
      const int v = parts.size() == 5 ? left : 1 + static_cast<int>(rng() % left);
      parts.push_back(v);
      left -= v;
    }
    std::sort(parts.begin(), parts.end(), std::greater<>());
    const auto expected = trace_by_map(parts);
    const auto listed = piles::bulgarian::trace(parts);
    const auto summary = piles::bulgarian::trace(parts, false);
    EXPECT_EQ(listed.partitions, expected.partitions) << n;
    EXPECT_EQ(listed.transient, expected.transient) << n;
    EXPECT_EQ(listed.cycle_length, expected.cycle_length) << n;
    EXPECT_EQ(summary.transient, expected.transient) << n;
    EXPECT_EQ(summary.cycle_length, expected.cycle_length) << n;
    EXPECT_TRUE(summary.partitions.empty());
  }
}

TEST(BulgarianTrace, LargeStartsReachBrandtsCycles) {
  // Brandt: for n = T_k + r (0 < r <= k) every cycle has length (k + 1) / gcd(k + 1, r); for
  // n = T_k the triangle is a fixed point.
  for (const int n : {100'000, 1'000'000, 500'500}) {
    const auto t = piles::bulgarian::trace({n}, false);
    const int k = piles::bulgarian::brandt_k(n), r = n - piles::bulgarian::triangular(k);
    EXPECT_EQ(t.cycle_length, r == 0 ? 1 : (k + 1) / std::gcd(k + 1, r)) << n;
    EXPECT_EQ(t.cards, n);
  }
}

TEST(BulgarianTrace, SeedTableFourStartsOfAnySize) {
  // Seed 001, Table 4: starts of 163, 265, 459 and 605 cards, past the ranked sizes.
  for (const char* start : {"125,21,9,8", "125,121,19", "235,115,109", "335,115,100,55"}) {
    const auto r = run_piles(std::string("bulgarian trace ") + start + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["trace"].size(), j["transient"].get<std::size_t>() +
                                     j["cycle_length"].get<std::size_t>() +
                                     (j["cycle_length"] == 1 ? 0 : 1))
        << start;
    const auto quiet = run_piles(std::string("bulgarian trace ") + start + " --json --quiet");
    ASSERT_EQ(quiet.status, 0) << quiet.err;
    EXPECT_FALSE(quiet.json().contains("trace"));
    EXPECT_EQ(quiet.json()["transient"], j["transient"]);
  }
}

// The replay of a GPU engine's longest transient, fed what an engine would report for n = 10:
// the histogram of every partition's transient and a partition at the last depth.
TEST(BulgarianReplay, PassesACorrectLongestTransientAndRefusesAWrongOne) {
  const int n = 10;
  const piles::PartitionTable table(n);
  std::vector<std::uint64_t> histogram;
  std::vector<int> deepest;
  for (std::uint64_t r = 0; r < table.count(); ++r) {
    std::vector<part_t> parts(n);
    parts.resize(piles::partition::unrank(table.view(), r, parts.data()));
    const std::vector<int> start(parts.begin(), parts.end());
    const auto moves = static_cast<std::size_t>(piles::bulgarian::trace(start, false).transient);
    if (moves >= histogram.size()) {
      histogram.resize(moves + 1);
      deepest = start;
    }
    ++histogram[moves];
  }
  ASSERT_EQ(histogram.size(), 13u);  // D(T_4) = 4^2 - 4
  using piles::bulgarian::check_longest_transient;
  EXPECT_NO_THROW(check_longest_transient(n, histogram, deepest, "backward"));
  // A device histogram carries zeros past the deepest level.
  std::vector<std::uint64_t> padded = histogram;
  padded.resize(2 * n + 2);
  EXPECT_NO_THROW(check_longest_transient(n, padded, deepest, "backward"));
  EXPECT_NO_THROW(check_longest_transient(n, {}, {}, "backward"));

  const auto refused = [&](const std::vector<std::uint64_t>& h, const std::vector<int>& p) {
    try {
      check_longest_transient(n, h, p, "forward");
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      return what.find("n = 10") != std::string::npos && what.find("forward") != std::string::npos;
    }
    return false;
  };
  std::vector<std::uint64_t> too_deep = histogram, too_shallow = histogram;
  too_deep.push_back(1);
  too_shallow.pop_back();
  EXPECT_TRUE(refused(too_deep, deepest));
  EXPECT_TRUE(refused(too_shallow, deepest));
  EXPECT_TRUE(refused(histogram, {}));
  EXPECT_TRUE(refused(histogram, {4, 3, 2}));     // 9 cards
  EXPECT_TRUE(refused(histogram, {1, 2, 3, 4}));  // not non-increasing
  EXPECT_TRUE(refused(histogram, {4, 3, 2, 1}));  // the triangle, on its cycle
}

// The trace the old way, every move a pass over the parts (Brent's cycle finding on vectors):
// the Walk's constant-time moves must give the same transient, cycle and first partition on it.
piles::bulgarian::Trace trace_by_passes(const std::vector<int>& start) {
  const auto advance = [](std::vector<int>& p, std::vector<int>& spare) {
    spare.resize(p.size() + 1);
    spare.resize(piles::bulgarian::move(p.data(), static_cast<int>(p.size()), spare.data()));
    std::swap(p, spare);
  };
  return piles::bulgarian::play_until_repeat(start, advance, false);
}

void expect_same_trace(const std::vector<int>& start) {
  const auto walked = piles::bulgarian::trace(start, false);
  const auto passed = trace_by_passes(start);
  const std::string where = piles::paren_list(start);
  EXPECT_EQ(walked.transient, passed.transient) << where;
  EXPECT_EQ(walked.cycle_length, passed.cycle_length) << where;
  EXPECT_EQ(walked.cycle_start, passed.cycle_start) << where;
}

TEST(BulgarianWalk, AgreesWithMovesByPassesUpTo100000Cards) {
  for (int n = 1; n <= 1500; ++n) expect_same_trace({n});
  std::mt19937 rng(67);
  for (int trial = 0; trial < 12; ++trial)
    expect_same_trace({1 + static_cast<int>(rng() % 100'000)});
  expect_same_trace({100'000});
  // Starts of many parts, some of them equal, and of many ones (a first move of many piles).
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> parts(1 + rng() % 40);
    for (int& p : parts) p = 1 + static_cast<int>(rng() % (trial % 2 ? 2000 : 4));
    std::sort(parts.begin(), parts.end(), std::greater<>());
    expect_same_trace(parts);
  }
  expect_same_trace(std::vector<int>(5000, 1));
}

TEST(BulgarianWalk, SamePartitionWhateverTheMoveAndOrder) {
  piles::bulgarian::Walk a({5, 2, 2}), b({2, 5, 2});
  EXPECT_TRUE(a.same(b));
  EXPECT_EQ(a.partition(), (std::vector<int>{5, 2, 2}));
  // Seed 001, Table 1: (5, 2, 2) reaches the cycle of (4, 3, 1, 1) in one move, and it comes
  // back after four more.
  a.move();
  EXPECT_EQ(a.partition(), (std::vector<int>{4, 3, 1, 1}));
  EXPECT_FALSE(a.same(b));
  piles::bulgarian::Walk c = a;
  for (int i = 0; i < 4; ++i) c.move();
  EXPECT_TRUE(c.same(a));
  EXPECT_EQ(c.moves(), 5);
  EXPECT_EQ(c.piles(), 4);
}

// Brandt: with n = T_k + r, the partitions on cycles are (k+e_0, k-1+e_1, ..., e_k) with e of
// r ones in k + 1 places, and the cycle's length is e's primitive period. Returns e, or nothing
// where `p` is not of that form.
std::optional<std::vector<int>> brandt_e(const std::vector<int>& p, int n) {
  const int k = piles::bulgarian::brandt_k(n);
  if (static_cast<int>(p.size()) > k + 1) return std::nullopt;
  std::vector<int> e;
  for (int i = 0; i <= k; ++i) {
    const int d = (i < static_cast<int>(p.size()) ? p[i] : 0) - (k - i);
    if (d != 0 && d != 1) return std::nullopt;
    e.push_back(d);
  }
  return e;
}

std::int64_t primitive_period(const std::vector<int>& e) {
  const auto size = static_cast<std::int64_t>(e.size());
  for (std::int64_t d = 1; d < size; ++d) {
    if (size % d) continue;
    bool same = true;
    for (std::int64_t i = 0; i < size && same; ++i) same = e[i] == e[(i + d) % size];
    if (same) return d;
  }
  return size;
}

TEST(BulgarianWalk, EndsOnBrandtsCycles) {
  std::mt19937 rng(5);
  std::vector<int> sizes = {1, 2, 3, 6, 10, 1'000'000, 5'000'050, 20'000'000};
  for (int trial = 0; trial < 40; ++trial) sizes.push_back(1 + static_cast<int>(rng() % 3'000'000));
  for (const int n : sizes) {
    const auto t = piles::bulgarian::trace({n}, false);
    const auto e = brandt_e(t.cycle_start, n);
    ASSERT_TRUE(e.has_value()) << n << ": " << piles::paren_list(t.cycle_start);
    EXPECT_EQ(std::accumulate(e->begin(), e->end(), 0),
              n - piles::bulgarian::triangular(piles::bulgarian::brandt_k(n)))
        << n;
    EXPECT_EQ(t.cycle_length, primitive_period(*e)) << n;
    EXPECT_EQ(t.cards, n);
  }
}

TEST(BulgarianWalk, LongestTransientIsGriggsHo) {
  // Griggs and Ho's D(n) over every partition of n, as their own computer check did up to 36;
  // the formula is for n >= 3.
  for (int n = 3; n <= 36; ++n) {
    const piles::PartitionTable table(n);
    std::int64_t longest = 0;
    for (std::uint64_t r = 0; r < table.count(); ++r) {
      std::vector<part_t> parts(n);
      parts.resize(piles::partition::unrank(table.view(), r, parts.data()));
      longest = std::max(
          longest,
          piles::bulgarian::trace(std::vector<int>(parts.begin(), parts.end()), false).transient);
    }
    EXPECT_EQ(longest, piles::bulgarian::griggs_ho(n)) << n;
  }
}

TEST(BulgarianTrace, ListsSmallTracesAndLongOnesWhereAsked) {
  const auto plain = run_piles("bulgarian trace 2000 --json");
  ASSERT_EQ(plain.status, 0) << plain.err;
  const auto summary = plain.json();
  const auto moves =
      summary["transient"].get<std::int64_t>() + summary["cycle_length"].get<std::int64_t>();
  ASSERT_GT(moves, piles::bulgarian::listed_moves);
  EXPECT_FALSE(summary.contains("trace"));
  const auto listed = run_piles("bulgarian trace 2000 --list --json");
  ASSERT_EQ(listed.status, 0) << listed.err;
  const auto j = listed.json();
  EXPECT_EQ(j["trace"].size(), moves + (j["cycle_length"] == 1 ? 0 : 1));
  EXPECT_EQ(j["trace"][0], nlohmann::json({2000}));
  const auto quiet = run_piles("bulgarian trace 5,2,2 --quiet");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.out.find("<- cycle"), std::string::npos) << quiet.out;
  EXPECT_NE(run_piles("bulgarian trace 5,2,2").out.find("<- cycle"), std::string::npos);
}
