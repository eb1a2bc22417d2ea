#pragma once

#include <array>

// Published Topswops values (DESIGN.md section 5), indexed by n (entry 0 is n = 0).
namespace piles::topswops::published {

// f(n), the longest game on n cards: OEIS A000375; n = 18, 19 from Kimura et al. (seed 002),
// n = 20, 21 from B. Chaffin's 2026 search.
inline constexpr std::array<int, 22> longest = {0,  0,  1,  2,   4,   7,   10,  16,  22,  30,  38,
                                                51, 65, 80, 101, 113, 139, 159, 191, 221, 249, 282};
// How many decks reach f(n): OEIS A123398 and Chaffin's lists.
inline constexpr std::array<int, 22> longest_count = {1, 1, 1, 2, 2, 1, 5, 2, 1, 1, 1,
                                                      1, 1, 1, 4, 6, 1, 2, 1, 4, 1, 5};

// The longest game that ends in the sorted deck: OEIS A000376, and its decks: A174498.
inline constexpr std::array<int, 21> longest_sorted = {
    0, 0, 1, 2, 4, 7, 10, 16, 22, 30, 38, 51, 63, 80, 101, 112, 130, 159, 191, 207, 231};
inline constexpr std::array<int, 21> longest_sorted_count = {1, 1, 1, 2, 2, 1, 4, 2, 1, 1, 1,
                                                             1, 4, 1, 4, 2, 2, 1, 1, 2, 3};

}  // namespace piles::topswops::published
