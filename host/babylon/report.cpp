// Text and JSON of Babylon results; the keys are those of DESIGN.md section 9.
#include "host/babylon/report.hpp"

#include <fmt/format.h>

#include "host/babylon/resources.hpp"
#include "host/babylon/start.hpp"
#include "host/common/output.hpp"
#include "host/common/provenance.hpp"

namespace piles::babylon {
namespace {

const char* winner(bool first_wins) {
  return first_wins ? "first" : "second";
}

nlohmann::json move_json(const Move& m) {
  return {{"top_colour", colour_name(m.top_colour)},
          {"top_height", m.top_height},
          {"bottom_colour", colour_name(m.bottom_colour)},
          {"bottom_height", m.bottom_height},
          {"text", describe(m)}};
}

std::string start_text(const std::vector<int>& counts) {
  std::string s;
  int chips = 0;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    s += fmt::format("{}{} {}", c ? ", " : "", counts[c], colour_name(static_cast<int>(c)));
    chips += counts[c];
  }
  return fmt::format("{} ({} chips)", s, chips);
}

double rate(const Analysis& a) {
  return a.seconds > 0 ? a.searched / a.seconds : 0;
}

// Theorem 4.1 speaks of two colours only.
bool theorem_agrees(const TableRow& row) {
  return theorem_second_wins(row.counts[0], row.counts[1]) == !row.first_wins;
}

}  // namespace

nlohmann::json to_json(const Analysis& a, const Solver& solver) {
  // First player wins: the winning first moves. Second: every first move and its refutation.
  nlohmann::json winning = nlohmann::json::array();
  for (const FirstMove& f : a.moves) {
    if (a.first_wins && f.wins) winning.push_back(move_json(f.move));
    if (!a.first_wins)
      winning.push_back({{"first_move", move_json(f.move)}, {"reply", move_json(*f.reply)}});
  }
  return {{"counts", a.counts},
          {"winner", winner(a.first_wins)},
          {"winning_moves", winning},
          {"states", a.searched},
          {"seconds", a.seconds},
          {"states_per_second", rate(a)},
          {"memo_states", solver.memo_states()},
          {"memo_bytes", solver.memo_bytes()},
          {"peak_rss_bytes", peak_rss_bytes()},
          {"wide_states", solver.wide_states()},
          {"backend", "cpu"},
          {"threads", solver.threads()}};
}

std::string answer_text(const std::vector<int>& counts, bool first_wins) {
  return fmt::format("start    {}\nwinner   {} player\n", start_text(counts), winner(first_wins));
}

std::string to_text(const Analysis& a, const Solver& solver, bool quiet) {
  std::string out = answer_text(a.counts, a.first_wins);
  if (!quiet) {
    if (a.first_wins) {
      out += "winning first moves:\n";
      for (const FirstMove& f : a.moves)
        if (f.wins) out += fmt::format("  {}\n", describe(f.move));
    } else {
      out += "every first move, and a winning reply:\n";
      for (const FirstMove& f : a.moves)
        out += fmt::format("  {}\n    -> {}\n", describe(f.move), describe(*f.reply));
    }
  }
  if (quiet) return out;
  const int threads = solver.threads();
  out += fmt::format(
      "states   {} searched in {:.3f} s ({} states/s, {})\n", group_digits(a.searched), a.seconds,
      group_digits(static_cast<std::uint64_t>(rate(a) + 0.5)), plural(threads, "thread"));
  out += fmt::format("memory   memo {} ({} under 256-bit keys), {:.1f} MiB; peak RSS {:.1f} MiB\n",
                     plural(solver.memo_states(), "position"), group_digits(solver.wide_states()),
                     mib(solver.memo_bytes()), mib(peak_rss_bytes()));
  return out;
}

std::vector<nlohmann::json> to_json_lines(const Table& t) {
  std::vector<nlohmann::json> lines;
  for (const TableRow& row : t.rows) {
    nlohmann::json j = {{"counts", row.counts},
                        {"chips", row.chips},
                        {"winner", winner(row.first_wins)},
                        {"states", row.searched},
                        {"seconds", row.seconds}};
    if (t.colours == 2) j["theorem_agrees"] = theorem_agrees(row);
    lines.push_back(std::move(j));
  }
  return lines;
}

std::string to_text(const Table& t, bool quiet) {
  const bool two = t.colours == 2;
  std::string out;
  std::size_t disagreements = 0;
  for (const TableRow& row : t.rows) {
    const bool agrees = two && theorem_agrees(row);
    if (two && !agrees) ++disagreements;
    if (&row == &t.rows.front())
      out += fmt::format("{:<14} {:>5}  {:<7} {:>12} {:>9}{}\n", "counts", "chips", "winner",
                         "states", "seconds", two ? "  theorem 4.1" : "");
    out += fmt::format("{:<14} {:>5}  {:<7} {:>12} {:>9.3f}{}\n", comma_list(row.counts), row.chips,
                       winner(row.first_wins), group_digits(row.searched), row.seconds,
                       two ? (agrees ? "  agrees" : "  DISAGREES") : "");
  }
  if (two)
    out += fmt::format("Georgakopoulos-Winkler Theorem 4.1: {} of {} agree{}\n",
                       group_digits(t.rows.size() - disagreements), plural(t.rows.size(), "start"),
                       t.rows.size() - disagreements == 1 ? "s" : "");
  // Quiet keeps the table and drops how it was computed, save that it is partial.
  const std::string scope =
      t.run.complete() ? ""
      : t.run.shard
          ? fmt::format(" (shard {}: a partial table, merge the journals)", t.run.shard->name())
          : " (stopped: a partial table)";
  if (quiet)
    return scope.empty() || t.run.merged ? out : out + scope.substr(2, scope.size() - 3) + "\n";
  if (t.run.merged)
    return out + fmt::format(
                     "{}, {} colours, up to {} chips: merged from {}, {:.2f} s of computing in "
                     "all\n",
                     plural(t.rows.size(), "start"), t.colours, t.max_chips,
                     plural(t.run.chunks, "chunk"), t.seconds);
  out += fmt::format(
      "{}{}, {} colours, up to {} chips: {:.2f} s on {}; memo {} ({} "
      "under 256-bit keys), {:.1f} MiB; peak RSS {:.1f} MiB\n",
      plural(t.rows.size(), "start"), scope, t.colours, t.max_chips, t.seconds,
      threads_and_ranks(t.threads, t.ranks), plural(t.memo_states, "position"),
      group_digits(t.wide_states), mib(t.memo_bytes), mib(peak_rss_bytes()));
  if (t.run.chunks_resumed > 0)
    out += fmt::format("resumed {} of {} from the checkpoint\n", t.run.chunks_resumed,
                       plural(t.run.chunks, "chunk"));
  return out;
}

}  // namespace piles::babylon
