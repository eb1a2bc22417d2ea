// The Multiplayer variant's count of tuples of partitions, capped, against the same count made
// with GMP's unbounded integers from a partition table of its own: at n = 127 with up to 16
// players the 64-bit products would wrap long before the cap.
#include <gtest/gtest.h>

#include <gmpxx.h>
#include <algorithm>
#include <vector>

#include "host/bulgarian/variant_analysis.hpp"

namespace piles::bulgarian {
namespace {

// p(0..n) by adding one part size at a time.
std::vector<mpz_class> partition_numbers(int n) {
  std::vector<mpz_class> p(n + 1, 0);
  p[0] = 1;
  for (int part = 1; part <= n; ++part)
    for (int m = part; m <= n; ++m) p[m] += p[m - part];
  return p;
}

TEST(BulgarianTuples, CappedCountsEqualExactCountsAtN127) {
  constexpr int n = 127, players = 16;
  const std::vector<mpz_class> p = partition_numbers(n);
  const std::vector<std::uint64_t> table = tuple_table(n, players);
  const mpz_class cap(static_cast<unsigned long>(tuple_count_cap));
  std::vector<mpz_class> exact(n + 1, 0);  // j-tuples with m cards, for the current j
  exact[0] = 1;
  for (int j = 1; j <= players; ++j) {
    std::vector<mpz_class> next(n + 1, 0);
    for (int m = 0; m <= n; ++m)
      for (int k = 0; k <= m; ++k) next[m] += p[k] * exact[m - k];
    exact = std::move(next);
    for (int m = 0; m <= n; ++m) {
      const mpz_class expected = exact[m] < cap ? exact[m] : cap;
      ASSERT_EQ(mpz_class(static_cast<unsigned long>(table[j * (n + 1) + m])), expected)
          << j << " players, " << m << " cards";
    }
  }
}

}  // namespace
}  // namespace piles::bulgarian
