#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/babylon/analysis.hpp"
#include "host/babylon/play.hpp"
#include "host/babylon/resources.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/babylon/table.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/job_options.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"

namespace piles::cli {
namespace {

using babylon::Move;

struct TableOptions {
  std::string colours = "2", max_chips;
  JobArgs job;
};

struct PlayOptions {
  std::vector<std::string> counts;
  std::string side;
};

// Babylon is solved on the host; a request for the GPU is refused rather than ignored.
int cpu_threads(const CommonOptions& common) {
  if (common.backend == "gpu")
    throw UsageError("--backend gpu: babylon has no GPU engine (it is solved on the CPU)");
  return resolve_threads(common.threads);
}

double mib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / (1 << 20);
}

int total(const std::vector<int>& counts) {
  int n = 0;
  for (const int c : counts) n += c;
  return n;
}

nlohmann::json move_json(const Move& m) {
  return {{"top_colour", babylon::colour_name(m.top_colour)},
          {"top_height", m.top_height},
          {"bottom_colour", babylon::colour_name(m.bottom_colour)},
          {"bottom_height", m.bottom_height},
          {"text", babylon::describe(m)}};
}

std::string start_text(const std::vector<int>& counts) {
  std::string s;
  for (std::size_t c = 0; c < counts.size(); ++c)
    s +=
        fmt::format("{}{} {}", c ? ", " : "", counts[c], babylon::colour_name(static_cast<int>(c)));
  return fmt::format("{} ({} chips)", s, total(counts));
}

void run_solve(const std::vector<std::string>& args, const CommonOptions& common) {
  const int threads = cpu_threads(common);
  const std::vector<int> counts = babylon::parse_counts(args);
  babylon::Solver solver(threads);
  const babylon::Analysis a = babylon::analyse(counts, solver);
  const double rate = a.seconds > 0 ? a.searched / a.seconds : 0;

  nlohmann::json winning = nlohmann::json::array();
  for (const babylon::FirstMove& f : a.moves) {
    if (a.first_wins && f.wins) winning.push_back(move_json(f.move));
    if (!a.first_wins)
      winning.push_back({{"first_move", move_json(f.move)}, {"reply", move_json(*f.reply)}});
  }
  if (common.json) {
    emit_json({{"counts", counts},
               {"winner", a.first_wins ? "first" : "second"},
               {"winning_moves", winning},
               {"states", a.searched},
               {"seconds", a.seconds},
               {"states_per_second", rate},
               {"memo_states", solver.memo_states()},
               {"memo_bytes", solver.memo_bytes()},
               {"peak_rss_bytes", babylon::peak_rss_bytes()},
               {"wide_states", solver.wide_states()},
               {"backend", "cpu"},
               {"threads", threads}});
    return;
  }
  fmt::print("start    {}\nwinner   {} player\n", start_text(counts),
             a.first_wins ? "first" : "second");
  if (!common.quiet) {
    if (a.first_wins) {
      fmt::print("winning first moves:\n");
      for (const babylon::FirstMove& f : a.moves)
        if (f.wins) fmt::print("  {}\n", babylon::describe(f.move));
    } else {
      fmt::print("every first move, and a winning reply:\n");
      for (const babylon::FirstMove& f : a.moves)
        fmt::print("  {}\n    -> {}\n", babylon::describe(f.move), babylon::describe(*f.reply));
    }
  }
  fmt::print("states   {} searched in {:.3f} s ({:.0f} states/s, {} thread{})\n", a.searched,
             a.seconds, rate, threads, threads == 1 ? "" : "s");
  fmt::print(
      "memory   memo {} positions ({} under 256-bit keys), {:.1f} MiB; peak RSS {:.1f} MiB\n",
      solver.memo_states(), solver.wide_states(), mib(solver.memo_bytes()),
      mib(babylon::peak_rss_bytes()));
}

void print_table(const babylon::Table& t, const CommonOptions& common) {
  const bool two = t.colours == 2;
  int disagreements = 0;
  for (const babylon::TableRow& row : t.rows) {
    const bool agrees =
        two && babylon::theorem_second_wins(row.counts[0], row.counts[1]) == !row.first_wins;
    if (two && !agrees) ++disagreements;
    if (common.json) {
      nlohmann::json j = {{"counts", row.counts},
                          {"chips", row.chips},
                          {"winner", row.first_wins ? "first" : "second"},
                          {"states", row.searched},
                          {"seconds", row.seconds}};
      if (two) j["theorem_agrees"] = agrees;
      emit_json(j);
      continue;
    }
    if (common.quiet) continue;
    if (&row == &t.rows.front())
      fmt::print("{:<14} {:>5}  {:<7} {:>12} {:>9}{}\n", "counts", "chips", "winner", "states",
                 "seconds", two ? "  theorem 4.1" : "");
    fmt::print("{:<14} {:>5}  {:<7} {:>12} {:>9.3f}{}\n", comma_list(row.counts), row.chips,
               row.first_wins ? "first" : "second", row.searched, row.seconds,
               two ? (agrees ? "  agrees" : "  DISAGREES") : "");
  }
  if (common.json) return;
  if (two)
    fmt::print("Georgakopoulos-Winkler Theorem 4.1: {} of {} starts agree\n",
               t.rows.size() - disagreements, t.rows.size());
  const std::string scope = t.run.complete() ? ""
                            : t.run.shard
                                ? fmt::format(" (shard {}/{}: a partial table, merge the journals)",
                                              t.run.shard->index, t.run.shard->count)
                                : " (stopped: a partial table)";
  if (t.run.merged) {
    fmt::print(
        "{} starts, {} colours, up to {} chips: merged from {} chunks, {:.2f} s of "
        "computing in all\n",
        t.rows.size(), t.colours, t.max_chips, t.run.chunks, t.seconds);
    return;
  }
  fmt::print(
      "{} starts{}, {} colours, up to {} chips: {:.2f} s on {} thread{}; memo {} positions ({} "
      "under 256-bit keys), {:.1f} MiB; peak RSS {:.1f} MiB\n",
      t.rows.size(), scope, t.colours, t.max_chips, t.seconds, t.threads, t.threads == 1 ? "" : "s",
      t.memo_states, t.wide_states, mib(t.memo_bytes), mib(babylon::peak_rss_bytes()));
  if (t.run.chunks_resumed > 0)
    fmt::print("resumed {} of {} chip totals from the checkpoint\n", t.run.chunks_resumed,
               t.run.chunks);
}

void run_table(const TableOptions& options, const CommonOptions& common) {
  cpu_threads(common);
  babylon::TableRun run;
  run.colours = static_cast<int>(parse_int(options.colours, "--colors", 2, babylon::max_colours));
  run.max_chips = static_cast<int>(parse_int(options.max_chips, "--max-chips", run.colours,
                                             babylon::max_start_chips(run.colours)));
  JobSetup setup = setup_job(options.job, common, run.max_chips - run.colours + 1, true);
  run.run = setup.options;
  const babylon::Table t = babylon::solve_table(run, setup.target);
  if (!setup.root()) return;
  print_table(t, common);
  report_stop(t.run);
}

void run_play(const PlayOptions& options, const CommonOptions& common) {
  const int threads = cpu_threads(common);
  const std::vector<int> counts = babylon::parse_counts(options.counts);
  std::optional<bool> human_first;
  if (options.side == "first") human_first = true;
  if (options.side == "second") human_first = false;
  babylon::Solver solver(threads);
  babylon::play(counts, human_first, solver, std::cin, std::cout, !isatty(STDIN_FILENO));
}

}  // namespace

void add_babylon_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* babylon =
      app.add_subcommand("babylon", "Babylon: who wins, the winning moves, tables, a game");
  babylon->require_subcommand(1);

  auto solve_counts = std::make_shared<std::vector<std::string>>();
  CLI::App* solve = babylon->add_subcommand(
      "solve", "Solve one start: the winner and the winning moves (or replies)");
  solve->add_option("COUNTS", *solve_counts, "Chips per colour, e.g. 3 3 3 3")->required();
  solve->callback([solve_counts, &common] { run_solve(*solve_counts, common); });

  auto table_options = std::make_shared<TableOptions>();
  CLI::App* table = babylon->add_subcommand("table", "Solve every start up to a number of chips");
  table->add_option("--colors", table_options->colours, "Number of colours (default 2)");
  table->add_option("--max-chips", table_options->max_chips, "Largest total number of chips")
      ->required();
  add_job_options(*table, table_options->job);
  table->callback([table_options, &common] { run_table(*table_options, common); });

  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* merge =
      babylon->add_subcommand("merge", "Combine the journals of table's shards into the table");
  merge->add_option("FILE", *files, "Journals written by table --shard ... --checkpoint FILE")
      ->required();
  merge->callback([files, &common] { print_table(babylon::merge_tables(*files), common); });

  auto play_options = std::make_shared<PlayOptions>();
  CLI::App* play =
      babylon->add_subcommand("play", "Play against the perfect engine (reads moves from stdin)");
  play->add_option("COUNTS", play_options->counts, "Chips per colour, e.g. 3 3 3 3")->required();
  play->add_option("--side", play_options->side, "first | second (asked when not given)")
      ->check(CLI::IsMember({"first", "second"}));
  play->callback([play_options, &common] { run_play(*play_options, common); });
}

}  // namespace piles::cli
