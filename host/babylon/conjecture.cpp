#include "host/babylon/conjecture.hpp"

#include <algorithm>
#include <numeric>

#include "host/babylon/start.hpp"

namespace piles::babylon {
namespace {

int smallest(const std::vector<int>& counts) {
  return *std::min_element(counts.begin(), counts.end());
}

int total(const std::vector<int>& counts) {
  return std::accumulate(counts.begin(), counts.end(), 0);
}

std::optional<bool> two_colours(const std::vector<int>& c) {
  return theorem_second_wins(c[0], c[1]);
}

std::optional<bool> three_odd_with_small_colour(const std::vector<int>& c) {
  if (total(c) % 2 == 1 && smallest(c) <= 3) return false;
  return std::nullopt;
}

std::optional<bool> three_balanced(const std::vector<int>& c) {
  if (smallest(c) >= 6) return total(c) % 2 == 1;
  return std::nullopt;
}

std::optional<bool> four_balanced(const std::vector<int>& c) {
  if (smallest(c) >= 3) return total(c) % 2 == 1;
  return std::nullopt;
}

}  // namespace

const std::vector<Conjecture>& conjectures() {
  static const std::vector<Conjecture> all = {
      {"two colours", 2,
       "With p <= q chips: the second player wins iff p + q is even and p >= 3 (Georgakopoulos and "
       "Winkler, Theorem 4.1, proven)",
       two_colours},
      {"three colours, odd total, a small colour", 3,
       "The total is odd and some colour has at most 3 chips: the first player wins",
       three_odd_with_small_colour},
      {"three colours, every colour at least 6", 3,
       "Every colour has at least 6 chips: the second player wins iff the total is odd",
       three_balanced},
      {"four colours, every colour at least 3", 4,
       "Every colour has at least 3 chips: the second player wins iff the total is odd",
       four_balanced},
  };
  return all;
}

std::optional<bool> predicted_second_wins(const std::vector<int>& counts) {
  for (const Conjecture& c : conjectures())
    if (c.colours == static_cast<int>(counts.size()))
      if (const std::optional<bool> second = c.second_wins(counts)) return second;
  return std::nullopt;
}

Verdict judge(const Conjecture& c, const std::vector<Solved>& starts) {
  Verdict v;
  for (const Solved& s : starts) {
    if (static_cast<int>(s.counts.size()) != c.colours) continue;
    const std::optional<bool> second = c.second_wins(s.counts);
    if (!second) continue;
    ++v.covered;
    if (*second == s.second_wins)
      ++v.agree;
    else
      v.exceptions.push_back(s.counts);
  }
  return v;
}

}  // namespace piles::babylon
