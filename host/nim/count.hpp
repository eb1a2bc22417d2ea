#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/common/progress.hpp"

namespace piles::nim {

// Largest n the counts accept: the work grows as n^3 (n = 1000 takes about a second).
inline constexpr int max_count_n = 2000;

// f(s, k) for s = 0..n: how many positions with s stones in all (partitions of s) the player
// to move wins, i.e. whose piles' values xor to something other than 0. Exact.
// Needs 1 <= n <= max_count_n and k >= 2.
// `style`: how the sums' progress shows (in the DP's cells).
std::vector<mpz_class> winning_counts(int n, std::int64_t k, int threads = 1,
                                      const ProgressStyle& style = {.quiet = true});

// g(s) = f(s, 2) + f(s, 3) + ... + f(s, s) for s = 0..n (Project Euler 629). Exact.
std::vector<mpz_class> winning_counts_all_k(int n, int threads = 1,
                                            const ProgressStyle& style = {.quiet = true});

// f(n, k), or g(n) without k, by `engine`: "shortcut" (the counts above) or "direct" (a search
// of every position, nim::solve_directly, for each k when none is given: it assumes nothing
// about k >= 4).
mpz_class count_winning(int n, std::optional<std::int64_t> k, const std::string& engine,
                        int threads, const ProgressStyle& style = {.quiet = true});

// p(s) for s = 0..n, exact.
std::vector<mpz_class> partition_numbers(int n);

}  // namespace piles::nim
