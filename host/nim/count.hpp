#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <vector>

namespace piles::nim {

// Largest n the counts accept: the work grows as n^3 (n = 1000 takes about a second).
inline constexpr int max_count_n = 2000;

// f(s, k) for s = 0..n: how many positions with s stones in all (partitions of s) the player
// to move wins, i.e. whose piles' values xor to something other than 0. Exact.
// Needs 1 <= n <= max_count_n and k >= 2.
std::vector<mpz_class> winning_counts(int n, std::int64_t k, int threads = 1);

// g(s) = f(s, 2) + f(s, 3) + ... + f(s, s) for s = 0..n (Project Euler 629). Exact.
std::vector<mpz_class> winning_counts_all_k(int n, int threads = 1);

// p(s) for s = 0..n, exact.
std::vector<mpz_class> partition_numbers(int n);

}  // namespace piles::nim
