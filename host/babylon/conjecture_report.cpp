#include "host/babylon/conjecture_report.hpp"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "host/common/output.hpp"

namespace piles::results {
namespace {

using babylon::Table;
using babylon::TableRow;

std::vector<babylon::Solved> solved(const Table& t) {
  std::vector<babylon::Solved> out;
  for (const TableRow& row : t.rows) out.push_back({row.counts, !row.first_wins});
  return out;
}

std::string exceptions_text(const babylon::Verdict& v, int max_chips) {
  if (v.exceptions.empty()) return fmt::format("no exceptions up to {} chips", max_chips);
  std::vector<std::string> starts;
  for (const std::vector<int>& counts : v.exceptions) starts.push_back(comma_list(counts));
  return fmt::format("{}: {}", plural(v.exceptions.size(), "exception"), fmt::join(starts, "; "));
}

// The evidence behind the rules: second-player wins by the smallest colour and the parity of
// the total.
std::string by_smallest(const Table& t) {
  struct Count {
    int starts = 0, second = 0;
  };
  std::map<int, std::pair<Count, Count>> at;  // smallest -> odd totals, even totals
  for (const TableRow& row : t.rows) {
    auto& [odd, even] = at[row.counts.front()];
    Count& n = row.chips % 2 == 1 ? odd : even;
    ++n.starts;
    n.second += row.first_wins ? 0 : 1;
  }
  std::string md = fmt::format(
      "\n## {} colours: second-player wins by smallest colour and parity\n\nEvery start up to "
      "{} chips.\n\n| smallest colour | odd totals | second wins | even totals | second wins "
      "|\n|---:|---:|---:|---:|---:|\n",
      t.colours, t.max_chips);
  for (const auto& [smallest, n] : at)
    md += fmt::format("| {} | {} | {} | {} | {} |\n", smallest, n.first.starts, n.first.second,
                      n.second.starts, n.second.second);
  return md;
}

}  // namespace

std::vector<Judged> judge_all(const std::vector<const Table*>& tables) {
  std::vector<Judged> out;
  for (const babylon::Conjecture& c : babylon::conjectures())
    for (const Table* t : tables)
      if (t->colours == c.colours) out.push_back({&c, t, babylon::judge(c, solved(*t))});
  return out;
}

void write_conjectures(Writer& writer, const std::vector<Judged>& judged,
                       const std::vector<const Table*>& tables) {
  std::string md =
      "Rules read off the solved tables, in the manner of Georgakopoulos and Winkler's Theorem "
      "4.1 for two colours (the first row, a proven theorem, checked here as the others are). "
      "Counts are chips per colour in non-decreasing order. Each rule covers only the starts "
      "its statement names; \"agree\" counts the covered starts whose solved winner is the "
      "predicted one, and every covered start where the rule fails is listed. The rules are "
      "computed by `babylon::conjectures()` (host/babylon/conjecture.cpp), which knows no "
      "table.\n\n| conjecture | table | covered | agree | exceptions |\n|---|---|---:|---:|---:|\n";
  std::string details;
  for (const Judged& j : judged) {
    md += fmt::format("| {} | `{}` | {} | {} | {} |\n", j.conjecture->name,
                      babylon::table_command(*j.table), j.verdict.covered, j.verdict.agree,
                      j.verdict.exceptions.size());
    details += fmt::format(
        "\n## Conjecture: {}\n\n{}.\n\nTable: every {}-colour start up to {} chips. {} of "
        "{} covered starts agree; {}.\n",
        j.conjecture->name, j.conjecture->statement, j.table->colours, j.table->max_chips,
        j.verdict.agree, j.verdict.covered, exceptions_text(j.verdict, j.table->max_chips));
  }
  std::vector<std::string> commands;
  for (const Table* t : tables) {
    commands.push_back(babylon::table_command(*t));
    if (t->colours >= 3) details += by_smallest(*t);
  }
  const std::string what = fmt::format("{}", fmt::join(commands, "; "));
  writer.markdown("babylon/conjectures.md", "Babylon: conjectures beyond two colours", what,
                  md + details);
}

std::string verdicts_text(const std::vector<Judged>& judged, const Table& t) {
  std::vector<std::string> parts;
  for (const Judged& j : judged)
    if (j.table == &t)
      parts.push_back(fmt::format("conjecture \"{}\": {} of {} covered starts agree ({})",
                                  j.conjecture->statement, j.verdict.agree, j.verdict.covered,
                                  plural(j.verdict.exceptions.size(), "exception")));
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace piles::results
