#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/babylon.hpp"

namespace piles::babylon {

// Chips per colour, as given on the command line ("3 3 3 3" or "3,3,3,3"). Throws UsageError
// naming the bad value: a count below 1, fewer than two colours, more colours than the key
// holds, or more chips than the key holds.
std::vector<int> parse_counts(const std::vector<std::string>& args);
void check_start(const std::vector<int>& counts);

// Every chip its own stack; colour c (named colour_name(c)) has counts[c] chips.
Position start_position(const std::vector<int>& counts);

// "A", "B", ...: the colours in the order the counts were given.
std::string colour_name(int colour);

// Every start with `colours` colours, each at least one chip, at most `max_chips` in all, up
// to relabelling: counts non-decreasing, ordered by total chips, then lexicographically.
std::vector<std::vector<int>> table_starts(int colours, int max_chips);

// Georgakopoulos and Winkler, "Two-Color Babylon", Theorem 4.1: with p <= q chips of the two
// colours, the second player wins iff p + q is even and p >= 3.
bool theorem_second_wins(int p, int q);

// Largest total a start with `colours` colours may have (the 256-bit key's room).
int max_start_chips(int colours);

}  // namespace piles::babylon
