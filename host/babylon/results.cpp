#include <fmt/format.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/babylon/analysis.hpp"
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

// Quick: about a minute on 2 cores. Full: the same tables pushed further (GPU machines have many
// cores).
struct Sizes {
  int two_colour, three_colour;
  std::map<int, int> equal;  // colours -> largest chips per colour
};

Sizes sizes(const Writer& writer) {
  if (writer.full()) return {84, 30, {{3, 14}, {4, 8}, {5, 6}, {6, 5}, {7, 4}, {8, 4}}};
  return {62, 24, {{3, 11}, {4, 7}, {5, 5}, {6, 4}, {7, 4}, {8, 3}}};
}

std::string memo_text(const Table& t) {
  return fmt::format("{} positions in the memo ({} under 256-bit keys), {:.1f} MiB", t.memo_states,
                     t.wide_states, babylon::mib(t.memo_bytes));
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
  std::string md = fmt::format(
      "{:.2f} s on {} thread{}; {}; peak RSS of the process so far {:.1f} MiB. Each start counts "
      "the positions it added to the shared memo.\n\n| chips | starts | positions searched | "
      "seconds (summed over starts) |\n|---:|---:|---:|---:|\n",
      t.seconds, t.threads, t.threads == 1 ? "" : "s", memo_text(t),
      babylon::mib(babylon::peak_rss_bytes()));
  for (const auto& [chips, w] : by_chips)
    md += fmt::format("| {} | {} | {} | {:.3f} |\n", chips, w.starts, w.searched, w.seconds);
  return md;
}

void write_two_colour(Writer& writer, int max_chips) {
  const Table t = babylon::solve_table(2, max_chips, writer.target().threads);
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
  std::string first_moves;  // for equal counts: which kinds of first move win
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

std::string multi_row_md(const MultiRow& r, bool kinds) {
  int chips = 0;
  for (const int c : r.counts) chips += c;
  return fmt::format("| {} | {} | {} | {}{} |\n", comma_list(r.counts), r.counts.size(), chips,
                     r.first_wins ? "first" : "second", kinds ? " | " + r.first_moves : "");
}

std::string multi_row_csv(const MultiRow& r, const std::string& table) {
  int chips = 0;
  for (const int c : r.counts) chips += c;
  return fmt::format("{},\"{}\",{},{},{},{}\n", table, comma_list(r.counts), r.counts.size(), chips,
                     r.first_wins ? "first" : "second", r.first_moves);
}

void write_multi_colour(Writer& writer, const Sizes& s) {
  const int threads = writer.target().threads;
  std::string csv = "table,counts,colours,chips,winner,winning_first_moves\n";
  std::string md =
      "## Equal counts\n\nk colours of c chips each, every start solved from an empty memo "
      "with its first moves spread over the threads. The commercial game is 3,3,3,3: a "
      "second-player win, as published (seed 003, introduction).\n\n| counts | colours | chips "
      "| winner | winning first move |\n|---|---:|---:|---|---|\n";
  std::string equal_runs = fmt::format(
      "Each start from an empty memo, its first moves spread over {} thread{}.\n\n| counts | "
      "positions searched | seconds |\n|---|---:|---:|\n",
      threads, threads == 1 ? "" : "s");
  double equal_seconds = 0;
  for (const auto& [colours, largest] : s.equal)
    for (int c = 1; c <= largest; ++c) {
      babylon::Solver solver(threads);
      const babylon::Analysis a = babylon::analyse(std::vector<int>(colours, c), solver);
      const MultiRow r{a.counts, a.first_wins, winning_kinds(a)};
      md += multi_row_md(r, true);
      csv += multi_row_csv(r, "equal");
      equal_runs +=
          fmt::format("| {} | {} | {:.3f} |\n", comma_list(a.counts), a.searched, a.seconds);
      equal_seconds += a.seconds;
    }

  const Table t = babylon::solve_table(3, s.three_colour, threads);
  md += fmt::format(
      "\n## Three colours, every split up to {} chips\n\nOne memo for the whole table (each chip "
      "total on one thread, its starts in order).\n\n| counts | colours | chips | winner |\n"
      "|---|---:|---:|---|\n",
      s.three_colour);
  for (const TableRow& row : t.rows) {
    const MultiRow r{row.counts, row.first_wins, ""};
    md += multi_row_md(r, false);
    csv += multi_row_csv(r, "three_colour");
  }
  const std::string what =
      fmt::format("babylon solve c,...,c; babylon table --colors 3 --max-chips {}", s.three_colour);
  writer.markdown("babylon/multi_colour.md", "Babylon: starts with three or more colours", what,
                  md);
  writer.commented("babylon/multi_colour.csv", "Babylon: starts with three or more colours", what,
                   csv);
  writer.run_record("babylon", "multi_colour.md, multi_colour.csv: equal counts", equal_seconds,
                    equal_runs);
  writer.run_record("babylon", "multi_colour.md, multi_colour.csv: three colours", t.seconds,
                    table_runs(t));
}

}  // namespace

void write_babylon(Writer& writer) {
  const Sizes s = sizes(writer);
  write_two_colour(writer, s.two_colour);
  write_multi_colour(writer, s);
}

}  // namespace piles::results
