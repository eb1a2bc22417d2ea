#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/babylon/conjecture.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"

namespace {

using piles::babylon::Conjecture;
using piles::babylon::Solved;

// Every start with `colours` colours up to `max_chips`, its winner found by the solver.
std::vector<Solved> solve_all(int colours, int max_chips) {
  piles::babylon::Solver solver(1);
  std::vector<Solved> out;
  for (const std::vector<int>& counts : piles::babylon::table_starts(colours, max_chips))
    out.push_back({counts, !solver.mover_wins(piles::babylon::start_position(counts))});
  return out;
}

const Conjecture& named(const std::string& name) {
  for (const Conjecture& c : piles::babylon::conjectures())
    if (c.name == name) return c;
  throw std::runtime_error("no conjecture " + name);
}

// The rule holds at every covered start, and covers at least one.
void expect_no_exceptions(const std::string& name, const std::vector<Solved>& starts) {
  const piles::babylon::Verdict v = piles::babylon::judge(named(name), starts);
  EXPECT_GT(v.covered, 0) << name;
  EXPECT_EQ(v.agree, v.covered) << name;
  for (const std::vector<int>& counts : v.exceptions)
    ADD_FAILURE() << name << " fails at " << ::testing::PrintToString(counts);
}

TEST(BabylonConjecture, TwoColoursIsTheorem41) {
  for (int p = 1; p <= 30; ++p)
    for (int q = 1; q <= 30; ++q)
      EXPECT_EQ(piles::babylon::predicted_second_wins({p, q}),
                std::optional<bool>(piles::babylon::theorem_second_wins(p, q)))
          << p << "," << q;
}

TEST(BabylonConjecture, TwoColoursAgreesWithTheSolver) {
  expect_no_exceptions("two colours", solve_all(2, 24));
}

TEST(BabylonConjecture, ThreeColoursAgreeWithTheSolver) {
  const std::vector<Solved> starts = solve_all(3, 24);
  expect_no_exceptions("three colours, odd total, a small colour", starts);
  expect_no_exceptions("three colours, every colour at least 6", starts);
}

// The four-colour rule fails at small even totals (3,3,3,3 among them), so only its odd half
// is expected to hold here.
TEST(BabylonConjecture, FourColoursOddTotalsAgreeWithTheSolver) {
  std::vector<Solved> odd;
  for (const Solved& s : solve_all(4, 21))
    if ((s.counts[0] + s.counts[1] + s.counts[2] + s.counts[3]) % 2 == 1) odd.push_back(s);
  expect_no_exceptions("four colours, every colour at least 3", odd);
}

// judge() must list exactly the covered starts whose solved winner differs from the
// prediction.
TEST(BabylonConjecture, JudgeListsEveryException) {
  const std::vector<Solved> starts = solve_all(4, 21);
  const Conjecture& c = named("four colours, every colour at least 3");
  std::vector<std::vector<int>> wrong;
  int covered = 0;
  for (const Solved& s : starts)
    if (const std::optional<bool> second = c.second_wins(s.counts)) {
      ++covered;
      if (*second != s.second_wins) wrong.push_back(s.counts);
    }
  const piles::babylon::Verdict v = piles::babylon::judge(c, starts);
  EXPECT_EQ(v.covered, covered);
  EXPECT_EQ(v.agree, covered - static_cast<int>(wrong.size()));
  EXPECT_EQ(v.exceptions, wrong);
  EXPECT_FALSE(wrong.empty());  // 3,3,3,3, the commercial start, is one
}

TEST(BabylonConjecture, PredictionIgnoresTheOrderOfColours) {
  EXPECT_EQ(piles::babylon::predicted_second_wins({7, 6, 9}),
            piles::babylon::predicted_second_wins({6, 7, 9}));
  EXPECT_EQ(piles::babylon::predicted_second_wins({5, 3, 4, 3}),
            piles::babylon::predicted_second_wins({3, 3, 4, 5}));
}

}  // namespace
