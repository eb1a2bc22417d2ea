#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace piles::partition {

// Partitions are stored as non-increasing parts; parts fit 16 bits since n <= max_n.
using part_t = std::uint16_t;

// p(n) < 2^64 holds up to n = 416, so 64-bit ranks cover every size we accept.
inline constexpr int max_n = 416;

// Non-owning view of the table P[x][m] = number of partitions of x with parts <= m, for
// 0 <= m <= x <= n, stored row by row (row x has x+1 entries). Owned on the host by
// PartitionTable (host/common/partition_table.hpp) and copied as-is to the device.
struct CountView {
  const std::uint64_t* data;
  int n;

  PILES_HD static constexpr std::uint64_t row_start(int x) {
    return static_cast<std::uint64_t>(x) * (x + 1) / 2;
  }
  // P[x][m]; parts larger than x cannot occur, so m is clamped to x.
  PILES_HD std::uint64_t at(int x, int m) const {
    if (m > x) m = x;
    if (m < 0) return 0;
    return data[row_start(x) + m];
  }
  PILES_HD std::uint64_t count() const { return at(n, n); }
};

// Lexicographic rank (0 = all ones, count-1 = the single pile n): the rank of λ counts the
// partitions that agree with λ on a prefix and then take a smaller part, which is
// Σ_i P[n_i][λ_i - 1] with n_i the sum of the parts from i on.
PILES_HD inline std::uint64_t rank(CountView table, const part_t* parts, int len) {
  int rest = 0;
  std::uint64_t r = 0;
  for (int i = len - 1; i >= 0; --i) {
    rest += parts[i];
    r += table.at(rest, parts[i] - 1);
  }
  return r;
}

// Inverse of rank among the partitions of `total` <= table.n cards into parts of at most
// `max_part` (whose ranks are 0..P[total][max_part]-1, the lexicographically smallest): take
// the largest next part v whose smaller choices, P[x][v-1], fit in r. P[x][v-1] grows with v,
// so a binary search over v finds it. Returns the number of parts.
PILES_HD inline int unrank(CountView table, std::uint64_t r, part_t* parts, int total,
                           int max_part) {
  int rest = total;
  int cap = max_part;
  int len = 0;
  while (rest > 0) {
    int lo = 1, hi = cap < rest ? cap : rest;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (table.at(rest, mid - 1) <= r)
        lo = mid;
      else
        hi = mid - 1;
    }
    r -= table.at(rest, lo - 1);
    parts[len++] = static_cast<part_t>(lo);
    rest -= lo;
    cap = lo;
  }
  return len;
}

// Inverse of rank over every partition of table.n.
PILES_HD inline int unrank(CountView table, std::uint64_t r, part_t* parts) {
  return unrank(table, r, parts, table.n, table.n);
}

}  // namespace piles::partition
