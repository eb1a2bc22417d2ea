#pragma once

#include <cstdint>
#include <vector>

namespace piles {
class Progress;
}

namespace piles::nim {

// Scatterstone Nim: a move splits one pile into p non-empty piles, 2 <= p <= k. The value of
// a position is the xor of the values G_k(i) of its piles (Sprague-Grundy), so one pile is
// all that must be solved.

// The largest pile sizes `grundy_values` accepts: the closed forms are free, while k = 3 takes
// time growing as upto^3 and memory as upto^2 (about 300 MB at the limit).
inline constexpr int max_upto_closed_form = 1'000'000;
inline constexpr int max_upto_k3 = 100'000;
int max_upto(std::int64_t k);

// Throws UsageError unless k >= 2.
void check_k(std::int64_t k);

// G_k(1..upto): element 0 is G_k(1). k = 2 and k >= 4 by their closed forms, k = 3 by mex
// over two- and three-way splits. Needs k >= 2 and 1 <= upto <= max_upto(k).
std::vector<std::uint32_t> grundy_values(std::int64_t k, int upto, int threads = 1,
                                         Progress* progress = nullptr);

// The closed forms (seed 004): k = 2 gives (i + 1) mod 2, since an odd pile splits into
// piles of different parity and an even one into two of the same; k >= 4 gives i - 1.
std::uint32_t grundy_closed_form(std::int64_t k, std::int64_t i);

// G_3(1..upto) by mex over every two- and three-way split, 64 pile sizes at a time.
std::vector<std::uint32_t> grundy_three(int upto, int threads = 1, Progress* progress = nullptr);

// G_k(1..upto) straight from the definition: mex over every split of i into 2..k parts.
// Lists every split (cubic in upto for k = 3, exponential as k grows); it is the check the fast
// rules are measured against.
std::vector<std::uint32_t> grundy_by_definition(std::int64_t k, int upto);

}  // namespace piles::nim
