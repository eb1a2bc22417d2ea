#pragma once

#include <array>
#include <string_view>

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

// Every deck that reaches f(n) for n = 13..19, separated by spaces: the games the quick search
// grows to n + 1 cards (grow.hpp). For n <= 17 as piles found them (results/topswops/longest.csv,
// their counts A123398's); 18 and 19 from Kimura et al. (seed 002).
inline constexpr int longest_decks_from = 13;
inline constexpr std::array<std::string_view, 7> longest_decks = {
    "2,9,4,5,11,12,10,1,8,13,3,6,7",
    "2,4,9,3,11,1,8,13,6,5,10,14,12,7 3,9,4,2,11,1,8,13,6,5,10,14,12,7 "
    "3,13,4,9,2,1,8,11,6,5,10,14,12,7 9,4,11,3,1,8,13,6,2,5,10,14,12,7",
    "2,9,4,11,7,1,13,5,3,14,12,15,8,10,6 3,1,7,11,4,9,2,5,13,14,12,15,8,10,6 "
    "3,1,7,11,15,12,9,4,10,2,13,8,14,5,6 3,11,8,15,12,10,5,9,2,13,1,4,14,7,6 "
    "5,15,12,11,8,10,3,9,2,13,1,4,14,7,6 7,12,15,10,13,4,2,11,1,8,9,5,14,3,6",
    "9,12,6,7,2,14,8,1,11,13,5,4,15,16,10,3",
    "2,10,15,11,7,14,5,16,6,4,17,13,1,3,8,9,12 8,15,17,13,9,4,6,3,2,12,16,14,11,5,10,1,7",
    "6,14,9,2,15,8,1,3,4,12,18,5,10,13,16,17,11,7",
    "9,4,19,17,10,1,11,15,12,8,5,2,18,13,16,7,3,14,6 "
    "12,15,11,1,10,17,19,2,5,8,9,4,18,13,16,7,3,14,6 "
    "12,1,18,11,3,14,2,6,8,16,5,4,15,10,13,17,19,7,9 "
    "12,1,18,11,2,3,14,6,8,16,5,4,15,10,13,17,19,7,9",
};

}  // namespace piles::topswops::published
