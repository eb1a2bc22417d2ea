#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace piles {

// Parses a list of integers in [lo, hi] written "3,1,4", "3, 1, 4" or "3 1 4" (commas, white
// space or both between items; no empty item between two commas or at either end); throws
// UsageError naming `what` and the bad text.
std::vector<std::int64_t> parse_int_list(std::string_view text, std::string_view what,
                                         std::int64_t lo, std::int64_t hi);

// Parses one integer in [lo, hi]; throws UsageError naming `what`.
std::int64_t parse_int(std::string_view text, std::string_view what, std::int64_t lo,
                       std::int64_t hi);

// Parses a positive number of seconds (fractions allowed); throws UsageError naming `what`.
double parse_seconds(std::string_view text, std::string_view what);

// Parses "N" or "N..M" (N <= M), each in [lo, hi].
struct IntRange {
  std::int64_t first, last;
};
IntRange parse_int_range(std::string_view text, std::string_view what, std::int64_t lo,
                         std::int64_t hi);

// The name among `names` nearest to `word` by edit distance, when near enough to be a typo of
// it; else empty.
std::string nearest(std::string_view word, const std::vector<std::string>& names);

// Why `value` is refused where only `names` are taken, with the nearest as a guess:
// "'sortd' is not one of any, sorted; did you mean sorted?".
std::string not_one_of(std::string_view value, const std::vector<std::string>& names);

// `value` when it is one of `names`; else throws UsageError "<what>: <not_one_of>".
std::string parse_choice(std::string_view value, std::string_view what,
                         const std::vector<std::string>& names);

}  // namespace piles
