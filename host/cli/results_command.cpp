#include <fmt/format.h>

#include <memory>
#include <string>

#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/error.hpp"
#include "host/results/games.hpp"

namespace piles::cli {
namespace {

struct ResultsOptions {
  std::string preset = "quick";
  std::string out = "results";
};

void run_results(const ResultsOptions& options, const CommonOptions& common) {
  if (common.json)
    throw UsageError("--json: results writes tables and plots to files, with no JSON answer");
  results::Writer writer(options.out, options.preset, resolve_backend(common), common.quiet,
                         common.status_every);
  writer.write_game("topswops", results::write_topswops);
  writer.write_game("bulgarian", results::write_bulgarian);
  writer.write_game("nim", results::write_nim);
  writer.write_game("babylon", results::write_babylon);
  writer.finish();
}

}  // namespace

void add_results_command(CLI::App& app, const CommonOptions& common) {
  auto options = std::make_shared<ResultsOptions>();
  CLI::App* results = app.add_subcommand("results", "Regenerate the result tables and plots");
  results
      ->add_option("--preset", options->preset,
                   "quick: about 3 minutes on 2 CPU cores; full: the long runs too, over an "
                   "hour on 2 cores (journaled under results/*/runs/, so a stopped run resumes)")
      ->check(one_of({"quick", "full"}));
  results->add_option("-o,--out", options->out, "Directory to write (default results)")
      ->check(file_name);
  results->footer("Example:\n  piles results --out my-results");
  results->callback([options, &common] { run_results(*options, common); });
}

}  // namespace piles::cli
