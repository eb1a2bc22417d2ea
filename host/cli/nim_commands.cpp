#include <fmt/format.h>

#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "host/cli/commands.hpp"
#include "host/cli/suggest.hpp"
#include "host/common/clock.hpp"
#include "host/common/output.hpp"
#include "host/common/output_file.hpp"
#include "host/common/parse.hpp"
#include "host/common/progress.hpp"
#include "host/nim/bfile.hpp"
#include "host/nim/count.hpp"
#include "host/nim/direct.hpp"
#include "host/nim/grundy.hpp"
#include "host/nim/report.hpp"

namespace piles::cli {
namespace {

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

struct GrundyOptions {
  std::string k, upto, bfile;
};

struct CountOptions {
  std::string n, k, mod;
  std::string engine = "shortcut";
};

// The values as an OEIS b-file, with the command that made them as a comment.
std::string bfile_text(const nim::GrundyResult& g) {
  return fmt::format(
             "# G_{0}(n): Scatterstone Nim, one pile split into 2..{0} piles\n# piles "
             "nim grundy --k {0} --upto {1}\n",
             g.k, g.values.size()) +
         nim::bfile_lines(g.values);
}

void run_grundy(const GrundyOptions& options, const CommonOptions& common) {
  nim::GrundyResult g;
  g.threads = host_only_threads(common, "nim");
  g.k = parse_int(options.k, "--k", 2, int64_max);
  const int upto = static_cast<int>(parse_int(options.upto, "--upto", 1, nim::max_upto(g.k)));
  const OutputFile bfile(options.bfile, "--bfile");
  const auto start = std::chrono::steady_clock::now();
  {
    Progress progress(fmt::format("G_{}", g.k), upto, "piles", 0,
                      {.quiet = common.quiet || g.k != 3, .status_every = common.status_every});
    g.values = nim::grundy_values(g.k, upto, g.threads, &progress);
  }
  g.seconds = seconds_since(start);
  if (bfile.wanted()) bfile.write(bfile_text(g));
  if (common.json)
    emit_json(nim::to_json(g));
  else
    fmt::print("{}", nim::to_text(g, common.quiet));
}

void run_count(const CountOptions& options, const CommonOptions& common) {
  nim::CountResult c;
  c.threads = host_only_threads(common, "nim");
  c.engine = options.engine;
  c.n = static_cast<int>(parse_int(
      options.n, "N", 1, options.engine == "direct" ? nim::max_direct_n : nim::max_count_n));
  if (!options.k.empty()) c.k = parse_int(options.k, "--k", 2, int64_max);
  if (!options.mod.empty()) c.mod = parse_int(options.mod, "--mod", 1, int64_max);
  const auto start = std::chrono::steady_clock::now();
  c.count = nim::count_winning(c.n, c.k, options.engine, c.threads,
                               {.quiet = common.quiet, .status_every = common.status_every});
  c.seconds = seconds_since(start);
  if (common.json)
    emit_json(nim::to_json(c));
  else
    fmt::print("{}", nim::to_text(c, common.quiet));
}

}  // namespace

void add_nim_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* nim = app.add_subcommand(
      "nim", "Scatterstone Nim: single-pile Grundy values, counts of winning positions");
  nim->require_subcommand(1);
  nim->footer("Example:\n  piles nim count 30 --k 3");

  auto grundy_options = std::make_shared<GrundyOptions>();
  CLI::App* grundy = nim->add_subcommand("grundy", "G_K(1..N): the value of one pile");
  grundy->add_option("--k", grundy_options->k, "Most piles one split makes (>= 2)")->required();
  grundy->add_option("--upto", grundy_options->upto, "Largest pile")->required();
  grundy
      ->add_option("--bfile", grundy_options->bfile,
                   "Also write the values to FILE as an OEIS b-file (n G_K(n) lines)")
      ->check(file_name);
  grundy->footer("Example:\n  piles nim grundy --k 3 --upto 100");
  grundy->callback([grundy_options, &common] { run_grundy(*grundy_options, common); });

  auto count_options = std::make_shared<CountOptions>();
  CLI::App* count = nim->add_subcommand(
      "count", "f(N, K): winning positions with N stones; without --k, g(N) = sum over K = 2..N");
  count->add_option("N", count_options->n, "Stones in all")->required();
  count->add_option("--k", count_options->k, "Most piles one split makes (>= 2)");
  count->add_option("--mod", count_options->mod, "Also give the count modulo M");
  count
      ->add_option("--engine", count_options->engine,
                   "shortcut: Sprague-Grundy values and a count by xor (default); direct: "
                   "search every position (N <= 40)")
      ->check(one_of({"shortcut", "direct"}));
  count->footer("Example:\n  piles nim count 30 --k 3");
  count->callback([count_options, &common] { run_count(*count_options, common); });
}

}  // namespace piles::cli
