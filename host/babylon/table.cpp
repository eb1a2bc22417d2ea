#include "host/babylon/table.hpp"

#include <fmt/format.h>

#include <chrono>
#include <utility>
#include <vector>

#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/common/error.hpp"
#include "host/common/progress.hpp"

namespace piles::babylon {

Table solve_table(int colours, int max_chips, int threads, bool quiet) {
  const auto t0 = std::chrono::steady_clock::now();
  if (max_chips < colours)
    throw UsageError(fmt::format("--max-chips {}: a start with {} colours has at least {} chips",
                                 max_chips, colours, colours));
  check_start(std::vector<int>(colours, 1));
  std::vector<int> largest(colours, 1);
  largest.back() = max_chips - (colours - 1);
  check_start(largest);

  Table t;
  t.colours = colours;
  t.max_chips = max_chips;
  t.threads = threads;
  for (const std::vector<int>& counts : table_starts(colours, max_chips)) {
    TableRow row;
    row.counts = counts;
    for (const int c : counts) row.chips += c;
    t.rows.push_back(row);
  }

  // Starts with different totals share almost no positions (only a dropped dead stack makes
  // a position smaller), while starts with the same total share most of theirs, and two
  // threads on one total would search the same positions at the same time. So each thread
  // takes a whole total, largest first, and solves its starts in order.
  std::vector<std::pair<std::size_t, std::size_t>> totals;  // [first, last) rows of one total
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (i == 0 || t.rows[i].chips != t.rows[i - 1].chips) totals.push_back({i, i});
    totals.back().second = i + 1;
  }
  Solver solver(threads);
  Progress progress("babylon table", t.rows.size(), "starts", quiet);
  const int n = static_cast<int>(totals.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int k = n - 1; k >= 0; --k)
    for (std::size_t i = totals[k].first; i < totals[k].second; ++i) {
      TableRow& row = t.rows[i];
      const auto s0 = std::chrono::steady_clock::now();
      row.first_wins = solver.mover_wins(start_position(row.counts), row.searched);
      row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
      progress.add(1);
    }
  progress.finish();

  t.memo_states = solver.memo_states();
  t.wide_states = solver.wide_states();
  t.memo_bytes = solver.memo_bytes();
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

}  // namespace piles::babylon
