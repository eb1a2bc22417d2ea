#pragma once

// Text and JSON of every Babylon result the command line prints: one solved start and a table
// of starts.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/babylon/analysis.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/table.hpp"

namespace piles::babylon {

// `babylon solve`, with the memo of the solver that found it and the process's peak memory:
// quiet leaves out the moves and what the search cost (states, time, memory).
nlohmann::json to_json(const Analysis& a, const Solver& solver);
std::string to_text(const Analysis& a, const Solver& solver, bool quiet);
// Its first two lines, the start and who wins: all that quiet leaves.
std::string answer_text(const std::vector<int>& counts, bool first_wins);

// `babylon table` and `merge`: one JSON line per start; the text is a row per start (left out
// when quiet) and a summary.
std::vector<nlohmann::json> to_json_lines(const Table& t);
std::string to_text(const Table& t, bool quiet);

}  // namespace piles::babylon
