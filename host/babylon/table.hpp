#pragma once

#include <cstdint>
#include <vector>

namespace piles::babylon {

struct TableRow {
  std::vector<int> counts;  // non-decreasing
  int chips = 0;
  bool first_wins = false;
  std::uint64_t searched = 0;  // positions this start searched beyond what the memo held
  double seconds = 0;
};

struct Table {
  int colours = 0, max_chips = 0, threads = 1;
  std::vector<TableRow> rows;
  std::uint64_t memo_states = 0, wide_states = 0, memo_bytes = 0;
  double seconds = 0;
};

// Every start of table_starts(colours, max_chips) through one solver, so that starts reuse
// what others solved; the starts of one total run in order on one thread, the totals in
// parallel on `threads` threads, largest first. Throws UsageError when the largest start
// does not fit the key.
Table solve_table(int colours, int max_chips, int threads, bool quiet);

}  // namespace piles::babylon
