#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/babylon/analysis.hpp"
#include "host/babylon/conjecture_report.hpp"
#include "host/babylon/report.hpp"
#include "host/babylon/resources.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/babylon/table.hpp"
#include "host/common/output.hpp"
#include "host/results/games.hpp"

namespace piles::results {
namespace {

using babylon::Table;
using babylon::TableRow;

// Quick: a minute or two on 2 cores (the four-colour table about 30 s; 6,6,6,6,6 and
// 5,5,5,5,5,5 about 30 s each, kept in both presets since no published figure exists). Full: the
// same tables pushed further; the three- and four-colour tables as far as about 7 minutes each on 2
// busy cores take them (memos of 2 GiB and 1 GiB, far below 16 GiB). One more chip would cost about
// 1.45x (three colours) and 1.7x (four) in time, and double the three-colour memo. The full
// preset's tables are journaled runs under runs/, so a stopped run resumes; every preset takes
// the largest finished table there that reaches its size (runs/README.md).
struct Sizes {
  int two_colour, three_colour, four_colour;
  std::map<int, int> equal;  // colours -> largest chips per colour
};

Sizes sizes(const Writer& writer) {
  if (writer.full()) return {84, 41, 33, {{3, 14}, {4, 8}, {5, 6}, {6, 5}, {7, 4}, {8, 4}}};
  return {62, 24, 29, {{3, 11}, {4, 7}, {5, 6}, {6, 5}, {7, 4}, {8, 3}}};
}

// The largest finished table of `colours` colours with at least `max_chips` in runs/.
std::optional<Table> finished_run(const Writer& writer, int colours, int max_chips) {
  std::optional<Table> best;
  for (const std::string& journal : writer.journals("babylon")) {
    std::optional<Table> t = babylon::finished_table(journal);
    if (t && t->colours == colours && t->max_chips >= max_chips &&
        (!best || t->max_chips > best->max_chips))
      best = std::move(t);
  }
  return best;
}

Table table(const Writer& writer, int colours, int max_chips) {
  if (std::optional<Table> t = finished_run(writer, colours, max_chips)) return *t;
  if (!writer.full()) return babylon::solve_table(colours, max_chips, writer.target().threads);
  std::filesystem::create_directories(writer.runs("babylon"));
  babylon::TableRun run;
  run.colours = colours;
  run.max_chips = max_chips;
  run.run.checkpoint =
      (writer.runs("babylon") / fmt::format("table_{}_{}.journal", colours, max_chips)).string();
  run.run.quiet = writer.quiet();
  run.run.status_every = writer.status_every();
  return babylon::solve_table(run, writer.target());
}

std::string memo_text(const Table& t) {
  return fmt::format("{} in the memo ({} under 256-bit keys), {:.1f} MiB",
                     plural(t.memo_states, "position"), group_digits(t.wide_states),
                     babylon::mib(t.memo_bytes));
}

// Rows p, columns q (p <= q): 1 = first player wins, 2 = second; '!' would mark a start where
// the computed winner and Theorem 4.1 differ.
std::string grid(const Table& t) {
  std::map<std::pair<int, int>, const TableRow*> at;
  for (const TableRow& row : t.rows) at[{row.counts[0], row.counts[1]}] = &row;
  const int last_q = t.max_chips - 1;
  std::string tens = "      ", units = "  p\\q ";
  for (int q = 1; q <= last_q; ++q) {
    tens += q % 10 == 0 ? std::to_string(q / 10 % 10) : " ";
    units += std::to_string(q % 10);
  }
  std::string out = tens + "\n" + units + "\n";
  for (int p = 1; 2 * p <= t.max_chips; ++p) {
    std::string line = fmt::format("{:>5} ", p);
    for (int q = 1; q <= last_q; ++q) {
      const auto it = at.find({p, q});
      if (it == at.end()) {
        line += ' ';
        continue;
      }
      const bool second = !it->second->first_wins;
      line += second != babylon::theorem_second_wins(p, q) ? '!' : second ? '2' : '1';
    }
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  return out;
}

// What one memo's table cost, for RUNS.md: its work depends on which thread reached a shared
// position first, so it stays out of the tables.
struct Work {
  int starts = 0;
  std::uint64_t searched = 0;
  double seconds = 0;
};

std::string table_runs(const Table& t) {
  std::map<int, Work> by_chips;
  for (const TableRow& row : t.rows) {
    Work& w = by_chips[row.chips];
    ++w.starts;
    w.searched += row.searched;
    w.seconds += row.seconds;
  }
  std::string md =
      t.run.merged ? fmt::format("Read from the finished journal in runs/: {}.",
                                 Writer::journal_time(t.seconds))
                   : fmt::format("{:.2f} s on {}; {}; peak RSS of the process so far {:.1f} MiB.",
                                 t.seconds, plural(t.threads, "thread"), memo_text(t),
                                 babylon::mib(babylon::peak_rss_bytes()));
  md +=
      " Each start counts the positions it added to the shared memo.\n\n| chips | starts | "
      "positions searched | seconds (summed over starts) |\n|---:|---:|---:|---:|\n";
  for (const auto& [chips, w] : by_chips)
    md += fmt::format("| {} | {} | {} | {:.3f} |\n", chips, w.starts, w.searched, w.seconds);
  return md;
}

void write_two_colour(Writer& writer, const Table& t) {
  const int max_chips = t.max_chips;
  struct PerChips {
    int starts = 0, second = 0;
  };
  std::map<int, PerChips> by_chips;
  std::string csv = "p,q,chips,winner,theorem_winner,agrees\n";
  int disagreements = 0;
  for (const TableRow& row : t.rows) {
    const int p = row.counts[0], q = row.counts[1];
    const bool theorem_second = babylon::theorem_second_wins(p, q);
    const bool agrees = theorem_second == !row.first_wins;
    if (!agrees) ++disagreements;
    csv += fmt::format("{},{},{},{},{},{}\n", p, q, row.chips, row.first_wins ? "first" : "second",
                       theorem_second ? "second" : "first", agrees ? 1 : 0);
    PerChips& n = by_chips[row.chips];
    ++n.starts;
    n.second += row.first_wins ? 0 : 1;
  }
  if (disagreements > 0)
    throw std::runtime_error(
        fmt::format("babylon: {} two-colour starts disagree with Theorem 4.1", disagreements));

  std::string md = fmt::format(
      "Every start with p <= q chips of two colours and p + q <= {} ({} starts), solved by "
      "negamax over canonical positions. Georgakopoulos and Winkler (Two-Color Babylon, "
      "Theorem 4.1): the second player wins iff p + q is even and p >= 3. **All {} starts "
      "agree.**\n\nOne memo served the whole table (each chip total on one thread, its starts "
      "in order).\n\n"
      "## Winner by (p, q)\n\n1: the first player wins, 2: the second player "
      "wins.\n\n```\n{}```\n\n"
      "## Starts per number of chips\n\n| chips | starts | second-player wins |\n"
      "|---:|---:|---:|\n",
      max_chips, t.rows.size(), t.rows.size(), grid(t));
  for (const auto& [chips, n] : by_chips)
    md += fmt::format("| {} | {} | {} |\n", chips, n.starts, n.second);
  const std::string what = fmt::format("babylon table --colors 2 --max-chips {}", max_chips);
  writer.markdown("babylon/two_colour.md", "Babylon: every two-colour start", what, md);
  writer.commented("babylon/two_colour.csv", "Babylon: every two-colour start", what, csv);
  writer.run_record("babylon", "two_colour.md, two_colour.csv", t.seconds, table_runs(t));
}

struct MultiRow {
  std::vector<int> counts;
  bool first_wins;
  std::string first_moves;  // which kinds of first move win
  std::uint64_t searched;
  double seconds;
};

// With equal counts every colour looks alike, so a first move is either two chips of one
// colour or one chip on another colour.
std::string winning_kinds(const babylon::Analysis& a) {
  bool same = false, cross = false;
  for (const auto& f : a.moves) {
    if (f.wins && f.move.top_colour == f.move.bottom_colour) same = true;
    if (f.wins && f.move.top_colour != f.move.bottom_colour) cross = true;
  }
  if (same && cross) return "either";
  if (same) return "one colour";
  if (cross) return "two colours";
  return "none";
}

int chips_of(const std::vector<int>& counts) {
  int chips = 0;
  for (const int c : counts) chips += c;
  return chips;
}

std::string winner(bool first_wins) {
  return first_wins ? "first" : "second";
}

std::string equal_row_md(const MultiRow& r) {
  return fmt::format("| {} | {} | {} | {} | {} |\n", comma_list(r.counts), r.counts.size(),
                     chips_of(r.counts), winner(r.first_wins), r.first_moves);
}

std::string csv_row(const std::vector<int>& counts, bool first_wins, const std::string& table,
                    const std::string& first_moves) {
  return fmt::format("{},\"{}\",{},{},{},{}\n", table, comma_list(counts), counts.size(),
                     chips_of(counts), winner(first_wins), first_moves);
}

// k colours of c chips each, every start from an empty memo with its first moves spread over
// the threads.
std::vector<MultiRow> solve_equal(const Sizes& s, int threads) {
  std::vector<MultiRow> rows;
  for (const auto& [colours, largest] : s.equal)
    for (int c = 1; c <= largest; ++c) {
      babylon::Solver solver(threads);
      const babylon::Analysis a = babylon::analyse(std::vector<int>(colours, c), solver);
      rows.push_back({a.counts, a.first_wins, winning_kinds(a), a.searched, a.seconds});
    }
  return rows;
}

// A table too long to list start by start in markdown (the CSV lists them): per chip total,
// how many starts the second player wins.
std::string table_summary(const Table& t) {
  std::map<int, std::pair<int, int>> by_chips;  // chips -> starts, second-player wins
  for (const TableRow& row : t.rows) {
    ++by_chips[row.chips].first;
    by_chips[row.chips].second += row.first_wins ? 0 : 1;
  }
  std::string md = fmt::format(
      "Every start with {} colours and at most {} chips ({} starts), one memo for the whole "
      "table (each chip total on one thread, its starts in order). Every start's winner is in "
      "multi_colour.csv; the rules they suggest are in conjectures.md.\n\n| chips | starts | "
      "second-player wins |\n|---:|---:|---:|\n",
      t.colours, t.max_chips, t.rows.size());
  for (const auto& [chips, n] : by_chips)
    md += fmt::format("| {} | {} | {} |\n", chips, n.first, n.second);
  return md;
}

void write_multi_colour(Writer& writer, const std::vector<MultiRow>& equal, const Table& three,
                        const Table& four) {
  const int threads = writer.target().threads;
  std::string csv = "table,counts,colours,chips,winner,winning_first_moves\n";
  std::string md =
      "## Equal counts\n\nk colours of c chips each, every start solved from an empty memo "
      "with its first moves spread over the threads. The commercial game is 3,3,3,3: a "
      "second-player win, as published (Georgakopoulos and Winkler, Two-Color Babylon, 2012, "
      "introduction).\n\n| counts | colours | chips "
      "| winner | winning first move |\n|---|---:|---:|---|---|\n";
  std::string equal_runs = fmt::format(
      "Each start from an empty memo, its first moves spread over {}.\n\n| counts | "
      "positions searched | seconds |\n|---|---:|---:|\n",
      plural(threads, "thread"));
  double equal_seconds = 0;
  for (const MultiRow& r : equal) {
    md += equal_row_md(r);
    csv += csv_row(r.counts, r.first_wins, "equal", r.first_moves);
    equal_runs +=
        fmt::format("| {} | {} | {:.3f} |\n", comma_list(r.counts), r.searched, r.seconds);
    equal_seconds += r.seconds;
  }
  for (const auto& [t, name] : {std::pair{&three, "three"}, std::pair{&four, "four"}}) {
    md += fmt::format("\n## {} colours, every start up to {} chips\n\n{}", t->colours, t->max_chips,
                      table_summary(*t));
    for (const TableRow& row : t->rows)
      csv += csv_row(row.counts, row.first_wins, fmt::format("{}_colour", name), "");
  }
  const std::string what = fmt::format("babylon solve c,...,c; {}; {}",
                                       babylon::table_command(three), babylon::table_command(four));
  writer.markdown("babylon/multi_colour.md", "Babylon: starts with three or more colours", what,
                  md);
  writer.commented("babylon/multi_colour.csv", "Babylon: starts with three or more colours", what,
                   csv);
  writer.run_record("babylon", "multi_colour.md, multi_colour.csv: equal counts", equal_seconds,
                    equal_runs);
  for (const Table* t : {&three, &four})
    writer.run_record("babylon",
                      fmt::format("multi_colour.md, multi_colour.csv: {} colours", t->colours),
                      t->seconds, table_runs(*t));
}

std::string took(double seconds) {
  return fmt::format("{:.0f} s", seconds);
}

std::string took(const Table& t) {
  if (!t.run.merged) return took(t.seconds);
  return Writer::journal_time(t.seconds);
}

int second_wins(const Table& t) {
  int n = 0;
  for (const TableRow& row : t.rows) n += row.first_wins ? 0 : 1;
  return n;
}

const char* const no_analysis =
    "no published analysis beyond the commercial start 3,3,3,3, a second-player win "
    "(Georgakopoulos and Winkler, Two-Color Babylon, 2012, introduction)";

// `babylon merge` of the finished journal that holds exactly this table, as a command and what
// it prints; none when the table was solved in this run.
std::vector<FrontierCheck> journal_check(const Writer& writer, const Table& t) {
  for (const std::string& journal : writer.journals("babylon")) {
    const std::optional<Table> f = babylon::finished_table(journal);
    if (f && f->colours == t.colours && f->max_chips == t.max_chips) {
      // The tally and the summary, not the table's rows: the theorem's line where it speaks.
      const int lines = t.colours == 2 ? 2 : 1;
      const std::string text = babylon::to_text(babylon::merge_tables({journal}), false);
      std::size_t from = text.size() - 1;
      for (int i = 0; i < lines; ++i) from = text.rfind('\n', from - 1);
      return {{fmt::format("babylon merge {} | tail -n {}",
                           Writer::command_path("babylon", journal), lines),
               text.substr(from + 1)}};
    }
  }
  return {};
}

void add_table_frontier(Writer& writer, const Table& t, const std::vector<Judged>& judged) {
  writer.frontier(
      {fmt::format("Babylon with {} colours: the winner of every start", t.colours), no_analysis,
       fmt::format("every start up to {} chips solved ({} starts, {} second-player "
                   "wins); {}",
                   t.max_chips, t.rows.size(), second_wins(t), verdicts_text(judged, t)),
       "piles " + babylon::table_command(t), "babylon/conjectures.md", took(t),
       journal_check(writer, t)});
}

void add_equal_frontier(Writer& writer, const std::vector<MultiRow>& equal) {
  std::vector<std::string> winners, commands;
  std::vector<FrontierCheck> checks;
  double seconds = 0;
  for (const int colours : {5, 6}) {
    int largest = 0;
    const MultiRow* last = nullptr;
    for (const MultiRow& r : equal)
      if (static_cast<int>(r.counts.size()) == colours) {
        winners.push_back(fmt::format("{} {}", comma_list(r.counts), winner(r.first_wins)));
        seconds += r.seconds;
        largest = r.counts[0];
        last = &r;
      }
    // The largest start again: about half a minute on 2 cores.
    if (last)
      checks.push_back({fmt::format("babylon solve {} --quiet", fmt::join(last->counts, " ")),
                        babylon::answer_text(last->counts, last->first_wins), true});
    commands.push_back(fmt::format("piles babylon solve {} for c = 1..{}",
                                   comma_list(std::vector<std::string>(colours, "c")), largest));
  }
  writer.frontier({"Babylon with 5 and 6 colours of c chips each", no_analysis,
                   fmt::format("the player who wins: {}", fmt::join(winners, ", ")),
                   fmt::format("{}", fmt::join(commands, "; ")), "babylon/multi_colour.md",
                   took(seconds), checks});
}

void add_frontier(Writer& writer, const Table& two, const Table& three, const Table& four,
                  const std::vector<MultiRow>& equal, const std::vector<Judged>& judged) {
  writer.frontier({"Two-colour Babylon: the winner of every start",
                   "Georgakopoulos and Winkler, \"Two-Color Babylon\", Theorem 4.1: the second "
                   "player wins iff p + q is even and p >= 3 (p <= q), proven for all p, q",
                   fmt::format("a computer check: all {} starts with p + q <= {} solved, every "
                               "one agrees",
                               two.rows.size(), two.max_chips),
                   "piles " + babylon::table_command(two), "babylon/two_colour.md", took(two),
                   journal_check(writer, two)});
  add_table_frontier(writer, three, judged);
  add_table_frontier(writer, four, judged);
  add_equal_frontier(writer, equal);
}

}  // namespace

void write_babylon(Writer& writer) {
  const Sizes s = sizes(writer);
  const int threads = writer.target().threads;
  const Table two = table(writer, 2, s.two_colour);
  write_two_colour(writer, two);
  const std::vector<MultiRow> equal = solve_equal(s, threads);
  const Table three = table(writer, 3, s.three_colour);
  const Table four = table(writer, 4, s.four_colour);
  write_multi_colour(writer, equal, three, four);
  const std::vector<const Table*> tables = {&two, &three, &four};
  const std::vector<Judged> judged = judge_all(tables);
  write_conjectures(writer, judged, tables);
  add_frontier(writer, two, three, four, equal, judged);
}

}  // namespace piles::results
