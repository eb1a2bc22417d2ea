#pragma once

#include <iosfwd>
#include <optional>
#include <vector>

#include "host/babylon/solver.hpp"

namespace piles::babylon {

// A game against the perfect engine, line by line on `in` (a terminal or a pipe). The human
// plays first when human_first is true, second when false, and is asked when it is empty.
// Input ending (EOF) or "q" ends the game early. `echo` repeats each input line on `out` (for
// input that is not typed at a terminal).
void play(const std::vector<int>& counts, std::optional<bool> human_first, Solver& solver,
          std::istream& in, std::ostream& out, bool echo);

}  // namespace piles::babylon
