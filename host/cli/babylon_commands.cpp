#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/babylon/analysis.hpp"
#include "host/babylon/play.hpp"
#include "host/babylon/report.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/babylon/table.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/job_options.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/common/progress.hpp"

namespace piles::cli {
namespace {

struct TableOptions {
  std::string colours = "2", max_chips;
  JobArgs job;
};

struct PlayOptions {
  std::vector<std::string> counts;
  std::string side;
};

void run_solve(const std::vector<std::string>& args, const CommonOptions& common) {
  const int threads = host_only_threads(common, "babylon");
  const std::vector<int> counts = babylon::parse_counts(args);
  babylon::Solver solver(threads);
  babylon::Analysis a;
  {
    Progress progress(fmt::format("babylon solve {}", fmt::join(counts, " ")), unknown_total,
                      "states", 0, {.quiet = common.quiet, .status_every = common.status_every});
    solver.set_progress(&progress);
    a = babylon::analyse(counts, solver);
    solver.set_progress(nullptr);
  }
  if (common.json)
    emit_json(babylon::to_json(a, solver));
  else
    fmt::print("{}", babylon::to_text(a, solver, common.quiet));
}

void print_table(const babylon::Table& t, const CommonOptions& common) {
  if (common.json)
    for (const nlohmann::json& line : babylon::to_json_lines(t)) emit_json(line);
  else
    fmt::print("{}", babylon::to_text(t, common.quiet));
}

void run_table(const TableOptions& options, const CommonOptions& common) {
  host_only_threads(common, "babylon");
  babylon::TableRun run;
  run.colours = static_cast<int>(parse_int(options.colours, "--colors", 2, babylon::max_colours));
  run.max_chips = static_cast<int>(parse_int(options.max_chips, "--max-chips", run.colours,
                                             babylon::max_start_chips(run.colours)));
  JobSetup setup = setup_job(options.job, common, run.max_chips - run.colours + 1, "babylon");
  run.run = setup.options;
  const babylon::Table t = babylon::solve_table(run, setup.target);
  if (!setup.root()) return;
  print_table(t, common);
  report_stop(t.run);
}

void run_play(const PlayOptions& options, const CommonOptions& common) {
  if (common.json) throw UsageError("--json: babylon play is a game at the terminal, with no JSON");
  const int threads = host_only_threads(common, "babylon");
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
  babylon->footer("Example:\n  piles babylon solve 3 3 3 3");

  auto solve_counts = std::make_shared<std::vector<std::string>>();
  CLI::App* solve = babylon->add_subcommand(
      "solve", "Solve one start: the winner and the winning moves (or replies)");
  solve->add_option("COUNTS", *solve_counts, "Chips per colour, e.g. 3 3 3 3")->required();
  solve->footer("Example:\n  piles babylon solve 3 3 3 3");
  solve->callback([solve_counts, &common] { run_solve(*solve_counts, common); });

  auto table_options = std::make_shared<TableOptions>();
  CLI::App* table = babylon->add_subcommand("table", "Solve every start up to a number of chips");
  table->add_option("--colors,--colours", table_options->colours, "Number of colours (default 2)");
  table->add_option("--max-chips", table_options->max_chips, "Largest total number of chips")
      ->required();
  add_job_options(*table, table_options->job);
  table->footer("Example:\n  piles babylon table --colours 3 --max-chips 9");
  table->callback([table_options, &common] { run_table(*table_options, common); });

  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* merge =
      babylon->add_subcommand("merge", "Combine the journals of table's shards into the table");
  merge->add_option("FILE", *files, "Journals written by table --shard ... --checkpoint FILE")
      ->required()
      ->check(file_name);
  merge->footer("Example:\n  piles babylon merge t.0.jnl t.1.jnl");
  merge->callback([files, &common] {
    host_only_threads(common, "babylon");
    print_table(babylon::merge_tables(*files), common);
  });

  auto play_options = std::make_shared<PlayOptions>();
  CLI::App* play =
      babylon->add_subcommand("play", "Play against the perfect engine (reads moves from stdin)");
  play->add_option("COUNTS", play_options->counts, "Chips per colour, e.g. 3 3 3 3")->required();
  play->add_option("--side", play_options->side, "first | second (asked when not given)")
      ->check(one_of({"first", "second"}));
  play->footer("Example:\n  piles babylon play 2 2 2 --side first");
  play->callback([play_options, &common] { run_play(*play_options, common); });
}

}  // namespace piles::cli
