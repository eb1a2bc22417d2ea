#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"
#include "host/job/driver.hpp"

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
  int ranks = 1;               // MPI processes that ran the table
  std::vector<TableRow> rows;  // in table_starts order; only the starts done, unless complete
  std::uint64_t memo_states = 0, wide_states = 0, memo_bytes = 0;  // of this process's memo
  double seconds = 0;
  job::Status run;
};

// The table as a job for the job driver: one chunk per start, largest chip totals first, so
// that a time limit stops it once its first start is in (a total of 30 chips in four colours
// is a minute of one thread), a start's search cut short where it stands. Starts with different
// totals share almost no positions (only a dropped dead stack makes a position smaller), while
// starts with the same total share most of theirs, and two threads on one total would search the
// same positions at the same time; so each thread takes a slice's starts of one total and solves
// them in order, through one solver whose memo serves every total. A journal begun when a chunk was
// a whole chip total goes on in those chunks.
struct TableRun {
  int colours = 2, max_chips = 0;
  job::Options run;
};

// Throws UsageError when the largest start does not fit the key. The target must be the CPU.
Table solve_table(const TableRun& run, const RunTarget& target);
// The whole table in this process, no journal, no progress bar.
Table solve_table(int colours, int max_chips, int threads);

// "babylon table --colors C --max-chips M": the command that makes this table.
std::string table_command(const Table& t);

// The table from the journals of its shards.
Table merge_tables(const std::vector<std::string>& journals);
// The table one journal holds once every chip total is in; nullopt while its run is under way
// or stopped. Its rows' seconds are the run's; the memo fields are zero.
std::optional<Table> finished_table(const std::string& journal);
// How far a table's journal has come (job::survey).
job::Survey survey_table(const std::string& journal);

}  // namespace piles::babylon
