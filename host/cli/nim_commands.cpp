#include <fmt/format.h>

#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "host/cli/commands.hpp"
#include "host/common/clock.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/common/progress.hpp"
#include "host/nim/count.hpp"
#include "host/nim/direct.hpp"
#include "host/nim/grundy.hpp"

namespace piles::cli {
namespace {

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

struct GrundyOptions {
  std::string k, upto;
};

struct CountOptions {
  std::string n, k, mod;
  std::string engine = "shortcut";
};

// Nim is solved on the host; a request for the GPU is refused rather than silently ignored.
int cpu_threads(const CommonOptions& common) {
  if (common.backend == "gpu")
    throw UsageError("--backend gpu: nim has no GPU engine (it is solved on the CPU)");
  return resolve_threads(common.threads);
}

const char* rule_of(std::int64_t k) {
  if (k == 2) return "(i + 1) mod 2";
  if (k == 3) return "mex over 2- and 3-way splits";
  return "i - 1";
}

void run_grundy(const GrundyOptions& options, const CommonOptions& common) {
  const int threads = cpu_threads(common);
  const std::int64_t k = parse_int(options.k, "--k", 2, int64_max);
  const int upto = static_cast<int>(parse_int(options.upto, "--upto", 1, nim::max_upto(k)));
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::uint32_t> values;
  {
    Progress progress(fmt::format("G_{}", k), upto, "piles", common.quiet || k != 3);
    values = nim::grundy_values(k, upto, threads, &progress);
  }
  const double seconds = seconds_since(start);
  if (common.json) {
    emit_json({{"k", k},
               {"values", values},
               {"rule", rule_of(k)},
               {"seconds", seconds},
               {"backend", "cpu"},
               {"threads", threads}});
    return;
  }
  if (!common.quiet)
    fmt::print("G_{}(1..{})  rule: {}  ({:.3f} s)\n", k, upto, rule_of(k), seconds);
  constexpr int per_line = 10;
  for (int first = 0; first < upto; first += per_line) {
    fmt::print("{:>7}:", first + 1);
    for (int i = first; i < std::min(upto, first + per_line); ++i) fmt::print(" {:>5}", values[i]);
    fmt::print("\n");
  }
}

// A JSON number where the count fits 64 bits, else its decimal string (DESIGN.md section 9).
nlohmann::json json_count(const mpz_class& count) {
  if (count.fits_ulong_p()) return count.get_ui();
  return count.get_str();
}

mpz_class count_by_engine(int n, std::optional<std::int64_t> k, const std::string& engine,
                          int threads) {
  if (engine == "shortcut")
    return k ? nim::winning_counts(n, *k, threads)[n] : nim::winning_counts_all_k(n, threads)[n];
  if (k) return nim::solve_directly(n, *k).winning();
  mpz_class sum = 0;  // every k separately: the direct search assumes nothing about k >= 4
  for (int each = 2; each <= n; ++each) sum += nim::solve_directly(n, each).winning();
  return sum;
}

void run_count(const CountOptions& options, const CommonOptions& common) {
  const int threads = cpu_threads(common);
  const int n = static_cast<int>(parse_int(
      options.n, "N", 1, options.engine == "direct" ? nim::max_direct_n : nim::max_count_n));
  std::optional<std::int64_t> k;
  if (!options.k.empty()) k = parse_int(options.k, "--k", 2, int64_max);
  std::optional<std::int64_t> mod;
  if (!options.mod.empty()) mod = parse_int(options.mod, "--mod", 1, int64_max);

  const auto start = std::chrono::steady_clock::now();
  const mpz_class count = count_by_engine(n, k, options.engine, threads);
  const double seconds = seconds_since(start);
  const mpz_class count_mod = mod ? mpz_class(count % static_cast<long>(*mod)) : mpz_class(0);

  if (common.json) {
    nlohmann::json out = {{"n", n}};
    if (k) out["k"] = *k;
    out["count"] = json_count(count);
    if (mod) {
      out["mod"] = *mod;
      out["count_mod"] = json_count(count_mod);
    }
    out.update({{"engine", options.engine},
                {"seconds", seconds},
                {"backend", "cpu"},
                {"threads", threads}});
    emit_json(out);
    return;
  }
  if (common.quiet) {
    fmt::print("{}\n", (mod ? count_mod : count).get_str());
    return;
  }
  if (k)
    fmt::print("f({}, {}): winning positions with {} stones, splits into 2..{} piles\n", n, *k, n,
               *k);
  else
    fmt::print("g({}) = f({}, 2) + ... + f({}, {})\n", n, n, n, n);
  fmt::print("count      {}\n", count.get_str());
  if (mod) fmt::print("mod        {}\ncount_mod  {}\n", *mod, count_mod.get_str());
  fmt::print("engine     {}\nseconds    {:.3f}\n", options.engine, seconds);
}

}  // namespace

void add_nim_commands(CLI::App& app, const CommonOptions& common) {
  CLI::App* nim = app.add_subcommand(
      "nim", "Scatterstone Nim: single-pile Grundy values, counts of winning positions");
  nim->require_subcommand(1);

  auto grundy_options = std::make_shared<GrundyOptions>();
  CLI::App* grundy = nim->add_subcommand("grundy", "G_K(1..N): the value of one pile");
  grundy->add_option("--k", grundy_options->k, "Most piles one split makes (>= 2)")->required();
  grundy->add_option("--upto", grundy_options->upto, "Largest pile")->required();
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
      ->check(CLI::IsMember({"shortcut", "direct"}));
  count->callback([count_options, &common] { run_count(*count_options, common); });
}

}  // namespace piles::cli
