#include "host/nim/count.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <bit>

#include "host/common/error.hpp"
#include "host/common/progress.hpp"
#include "host/nim/direct.hpp"
#include "host/nim/grundy.hpp"

namespace piles::nim {
namespace {

// The DP's cells for part i, (n - i + 1) * width: the unit of the progress.
std::vector<std::uint64_t> cells_per_part(const std::vector<std::uint32_t>& values, int n) {
  std::vector<std::uint64_t> cells(n + 1, 0);
  std::uint32_t width = 1;
  for (int i = 1; i <= n; ++i) {
    width = std::max(width, std::bit_ceil(values[i - 1] + 1));
    cells[i] = static_cast<std::uint64_t>(n - i + 1) * width;
  }
  return cells;
}

// Number of partitions of s = 0..n whose piles' values xor to 0, modulo the prime p < 2^63
// (so a sum of two residues fits 64 bits). A DP over part sizes: after parts 1..i,
// dp[s][x] counts the partitions of s into parts <= i whose values xor to x. Part i, of value
// g, may be taken any number of times: dp[s][x] += dp[s - i][x ^ g] for s rising, since
// dp[s - i] already holds the partitions that use part i too. Values of parts 1..i are below
// a power of two `width`, and so are their xors: larger x stay 0 and are skipped.
std::vector<std::uint64_t> losing_mod(const std::vector<std::uint32_t>& values, int n,
                                      std::uint64_t p, Progress& progress) {
  const std::uint32_t top = *std::max_element(values.begin(), values.begin() + n);
  const std::size_t stride = std::bit_ceil(top + 1);
  std::vector<std::uint64_t> dp((n + 1) * stride, 0);
  dp[0] = 1;  // the empty partition, xor 0
  std::uint32_t width = 1;
  for (int i = 1; i <= n; ++i) {
    const std::uint32_t g = values[i - 1];
    width = std::max(width, std::bit_ceil(g + 1));
    for (int s = i; s <= n; ++s) {
      std::uint64_t* row = &dp[s * stride];
      const std::uint64_t* from = &dp[(s - i) * stride];
      for (std::uint32_t x = 0; x < width; ++x) {
        const std::uint64_t sum = row[x] + from[x ^ g];
        row[x] = sum >= p ? sum - p : sum;
      }
    }
    progress.add(static_cast<std::uint64_t>(n - i + 1) * width);
  }
  std::vector<std::uint64_t> losing(n + 1);
  for (int s = 0; s <= n; ++s) losing[s] = dp[s * stride];
  return losing;
}

// Primes just above 2^62, as many as the counts need.
std::vector<std::uint64_t> crt_primes(const mpz_class& bound) {
  std::vector<std::uint64_t> primes;
  mpz_class p = mpz_class(1) << 62, product = 1;
  while (product <= bound) {
    mpz_nextprime(p.get_mpz_t(), p.get_mpz_t());
    primes.push_back(p.get_ui());
    product *= p;
  }
  return primes;
}

// Losing counts L(s), s = 0..n, exactly for each list of single-pile values: every L(s) is at
// most p(s) <= p(n), so residues modulo primes whose product exceeds p(n) fix it (Chinese
// remainders). Machine-word residues keep the DP loop fast where GMP numbers would not.
std::vector<std::vector<mpz_class>> losing_counts(
    const std::vector<std::vector<std::uint32_t>>& lists, int n, int threads,
    const ProgressStyle& style) {
  const std::vector<std::uint64_t> primes = crt_primes(partition_numbers(n)[n]);
  const int jobs = static_cast<int>(lists.size() * primes.size());
  std::uint64_t cells = 0;
  for (const auto& values : lists)
    for (const std::uint64_t c : cells_per_part(values, n)) cells += c * primes.size();
  Progress progress(fmt::format("nim count {}", n), cells, "cells", 0, style);
  std::vector<std::vector<std::uint64_t>> residues(jobs);
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (int job = 0; job < jobs; ++job)
    residues[job] =
        losing_mod(lists[job / primes.size()], n, primes[job % primes.size()], progress);
  progress.finish();

  std::vector<std::vector<mpz_class>> counts(lists.size(), std::vector<mpz_class>(n + 1));
  for (std::size_t l = 0; l < lists.size(); ++l) {
    mpz_class modulus = 1;
    for (std::size_t j = 0; j < primes.size(); ++j) {
      const mpz_class p(static_cast<unsigned long>(primes[j]));
      mpz_class inverse;
      mpz_invert(inverse.get_mpz_t(), mpz_class(modulus % p).get_mpz_t(), p.get_mpz_t());
      for (int s = 0; s <= n; ++s) {
        // Lift x (right modulo `modulus`) to x + modulus * t, right modulo p too.
        mpz_class& x = counts[l][s];
        const mpz_class r(static_cast<unsigned long>(residues[l * primes.size() + j][s]));
        mpz_class t = (r - x) * inverse % p;
        if (t < 0) t += p;
        x += modulus * t;
      }
      modulus *= p;
    }
  }
  return counts;
}

void check_n(int n) {
  if (n < 1 || n > max_count_n)
    throw UsageError(fmt::format("N: {} is out of range (1..{})", n, max_count_n));
}

}  // namespace

std::vector<mpz_class> partition_numbers(int n) {
  std::vector<mpz_class> p(n + 1, 0);
  p[0] = 1;
  for (int part = 1; part <= n; ++part)
    for (int s = part; s <= n; ++s) p[s] += p[s - part];
  return p;
}

std::vector<mpz_class> winning_counts(int n, std::int64_t k, int threads,
                                      const ProgressStyle& style) {
  check_n(n);
  const std::vector<mpz_class> losing =
      losing_counts({grundy_values(k, n, threads)}, n, threads, style)[0];
  const std::vector<mpz_class> all = partition_numbers(n);
  std::vector<mpz_class> winning(n + 1);
  for (int s = 0; s <= n; ++s) winning[s] = all[s] - losing[s];
  return winning;
}

std::vector<mpz_class> winning_counts_all_k(int n, int threads, const ProgressStyle& style) {
  check_n(n);
  // Every k >= 4 has G_k(i) = i - 1 (seed 004's theorem), the same values as k = 4, so the
  // same counts: g(s) = f(s, 2) + f(s, 3) + (s - 3) f(s, 4) once s >= 4.
  const std::vector<std::vector<mpz_class>> losing = losing_counts(
      {grundy_values(2, n, threads), grundy_values(3, n, threads), grundy_values(4, n, threads)}, n,
      threads, style);
  const std::vector<mpz_class> all = partition_numbers(n);
  std::vector<mpz_class> g(n + 1, 0);
  for (int s = 2; s <= n; ++s) {
    g[s] = all[s] - losing[0][s];
    if (s >= 3) g[s] += all[s] - losing[1][s];
    if (s >= 4) g[s] += (s - 3) * (all[s] - losing[2][s]);
  }
  return g;
}

mpz_class count_winning(int n, std::optional<std::int64_t> k, const std::string& engine,
                        int threads, const ProgressStyle& style) {
  if (engine == "shortcut")
    return k ? winning_counts(n, *k, threads, style)[n]
             : winning_counts_all_k(n, threads, style)[n];
  if (k) return solve_directly(n, *k).winning();
  mpz_class sum = 0;
  for (int each = 2; each <= n; ++each) sum += solve_directly(n, each).winning();
  return sum;
}

}  // namespace piles::nim
