#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "host/common/progress.hpp"
#include "host/nim/grundy.hpp"

// G_3(n) = mex of G(a) ^ G(b) ^ G(c) over a + b + c = n and of G(b) ^ G(c) over b + c = n.
// Every three-way split has a smallest part a <= n/3, and the rest n - a is then an arbitrary
// two-way split, so the options of n are the two-way values of n and, for a <= n/3, G(a) xor
// the two-way values of n - a. Those sets are kept in a table with the pile size m along the
// bits of a word: one word answers "is u a two-way value of m" for 64 consecutive m, so a
// batch of 64 consecutive n is settled together, all splits whose rest n - a was known before
// the batch at once, and the few others (rest inside the batch, so a < 64) one n at a time.

namespace piles::nim {
namespace {

constexpr int block = 64;

// two_way[m / 64][u] has bit m % 64 set when some split m = b + c has G(b) ^ G(c) = u.
// A column is allocated when its first m is added; columns below the lowest rest still needed
// are released as the search moves on, so about a third of the table is alive at a time.
class TwoWayTable {
 public:
  explicit TwoWayTable(int upto) : columns_(upto / block + 2) {}

  std::uint32_t width() const { return width_; }

  // Every value so far is below width(), a power of two, so every xor of values is too.
  void fit(std::uint32_t value) {
    if (value < width_) return;
    while (width_ <= value) width_ *= 2;
    for (std::size_t c = first_live_; c < columns_.size() && !columns_[c].empty(); ++c)
      columns_[c].resize(width_);
  }

  void release_below(int m) {
    for (; first_live_ < static_cast<std::size_t>(m / block); ++first_live_)
      std::vector<std::uint64_t>().swap(columns_[first_live_]);
  }

  void add(int m, const std::vector<std::uint32_t>& g) {
    std::vector<std::uint64_t>& column = columns_[m / block];
    if (column.size() < width_) column.resize(width_);
    const std::uint64_t bit = std::uint64_t{1} << (m % block);
    for (int b = 1; 2 * b <= m; ++b) column[g[b] ^ g[m - b]] |= bit;
  }

  bool has(int m, std::uint32_t u) const {
    return u < width_ && (columns_[m / block][u] >> (m % block) & 1);
  }

  const std::uint64_t* column(int c) const { return columns_[c].data(); }

 private:
  std::vector<std::vector<std::uint64_t>> columns_;
  std::uint32_t width_ = 1;
  std::size_t first_live_ = 0;
};

// word(v) bit j: value v is an option of s + j through a split whose rest is at most s. Only
// values below the table's width at the batch's start arise that way. Values up to a little
// above the largest so far are computed at the start, in parallel; the rare larger ones, one
// word at a time when asked for (a mex near n/2 would leave most of a wide table unread).
class KnownReach {
 public:
  KnownReach(const TwoWayTable& table, const std::vector<std::uint32_t>& g, int s,
             std::uint32_t largest, int threads)
      : table_(table), g_(g), s_(s), last_a_(s < block ? 0 : (s + block - 1) / 3) {
    const int width = static_cast<int>(table.width());
    reach_.assign(width, 0);
    computed_ = std::min<std::int64_t>(width, std::int64_t{largest} + 2 * block);
    // Each thread takes one contiguous range of values: equal shares, and the table slices it
    // reads stay contiguous too. Small batches are not worth waking threads for.
    const bool parallel = computed_ * last_a_ >= (std::int64_t{1} << 18);
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
    for (int lo = 0; lo < computed_; lo += block) fill(lo, std::min<int>(computed_, lo + block));
  }

  bool has(std::uint32_t v, int j) {
    if (v >= reach_.size()) return false;
    while (v >= computed_) {
      const int hi = std::min<int>(reach_.size(), computed_ + block);
      fill(computed_, hi);
      computed_ = hi;
    }
    return reach_[v] >> j & 1;
  }

 private:
  void fill(int lo, int hi) {
    for (int a = 1; a <= last_a_; ++a) {
      // Bits s - a .. s - a + 63 of a row: the rests n - a of the batch's n = s .. s + 63.
      const int c = (s_ - a) / block, shift = (s_ - a) % block;
      const std::uint64_t* low = table_.column(c);
      const std::uint64_t* high = table_.column(c + 1);
      const std::uint32_t ga = g_[a];
      if (shift == 0) {
        for (int v = lo; v < hi; ++v) reach_[v] |= low[v ^ ga];
      } else {
        for (int v = lo; v < hi; ++v)
          reach_[v] |= low[v ^ ga] >> shift | high[v ^ ga] << (block - shift);
      }
    }
  }

  const TwoWayTable& table_;
  const std::vector<std::uint32_t>& g_;
  int s_, last_a_;
  std::int64_t computed_;
  std::vector<std::uint64_t> reach_;
};

// Smallest value that no split of n reaches; n = s + j.
std::uint32_t mex_of(int n, int s, const TwoWayTable& table, const std::vector<std::uint32_t>& g,
                     KnownReach& known) {
  const int j = n - s;
  const int last_a = std::min(j - 1, n / 3);  // splits whose rest lies inside the batch
  for (std::uint32_t v = 0;; ++v) {
    if (known.has(v, j) || table.has(n, v)) continue;
    bool found = false;
    for (int a = 1; a <= last_a && !found; ++a) found = table.has(n - a, v ^ g[a]);
    if (!found) return v;
  }
}

}  // namespace

std::vector<std::uint32_t> grundy_three(int upto, int threads, Progress* progress) {
  std::vector<std::uint32_t> g(upto + 1, 0);  // g[i] = G_3(i); G(1) = 0, g[0] is unused
  TwoWayTable table(upto);
  std::uint32_t largest = 0;
  for (int s = 0; s <= upto; s += block) {
    if (s >= 2) table.add(s, g);
    table.release_below(s - (s + block - 1) / 3);
    KnownReach known(table, g, s, largest, threads);
    const int end = std::min(s + block - 1, upto);
    for (int n = std::max(s, 2); n <= end; ++n) {
      if (n > s) table.add(n, g);
      g[n] = mex_of(n, s, table, g, known);
      table.fit(g[n]);
      largest = std::max(largest, g[n]);
    }
    if (progress) progress->add(end - std::max(s, 1) + 1);
  }
  return {g.begin() + 1, g.end()};
}

}  // namespace piles::nim
