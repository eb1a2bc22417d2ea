// How well slices hold --slice S on the CPU: `topswops solve` at n = 14 (whole) and n = 15 (its
// first seconds, stopped by a time limit as `--time-limit` stops a run), each with S = 2 and
// S = 5, and per run the slices the job driver timed: how many, their median and longest, and
// how far the longest went past S. The record goes to results/bench/slice_overshoot.md.
//
//   bench_slices [--threads T] [--n15-seconds L] [--out FILE]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/common/backend.hpp"
#include "host/topswops/solve.hpp"

using piles::cpu_model;
using piles::bench::cpu_seconds;
using piles::bench::load_average;
using piles::bench::today;

namespace {

namespace ts = piles::topswops;

struct Run {
  int n = 0;
  double slice = 0;
  std::optional<double> limit;
  ts::Solution solution;
  double cpu = 0;
};

Run measure(int n, double slice, std::optional<double> limit, int threads) {
  ts::SolveOptions options;
  options.n = n;
  options.run.quiet = true;
  options.run.slice_seconds = slice;
  const std::filesystem::path journal =
      std::filesystem::temp_directory_path() / fmt::format("bench_slices_n{}.journal", n);
  if (limit) {
    std::filesystem::remove(journal);
    options.run.checkpoint = journal.string();
    options.run.time_limit = limit;
  }
  piles::RunTarget cpu;
  cpu.device = "cpu";
  cpu.threads = threads;
  Run r{n, slice, limit, {}, 0};
  const double cpu0 = cpu_seconds();
  r.solution = ts::solve(options, cpu);
  r.cpu = cpu_seconds() - cpu0;
  if (limit) std::filesystem::remove(journal);
  return r;
}

std::string row(const Run& r) {
  std::vector<double> seconds;
  for (const auto& s : r.solution.slices) seconds.push_back(s.seconds);
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2], longest = seconds.back();
  const double over = longest - r.slice;
  const double tolerance = std::max(2.0, r.slice / 10);
  const auto beyond = std::count_if(seconds.begin(), seconds.end(),
                                    [&](double s) { return s > r.slice + tolerance; });
  const std::string what =
      r.limit ? fmt::format("first {:.0f} s (time limit)", *r.limit) : std::string("whole");
  return fmt::format(
      "| {} | {} | {} | {} | {:.2f} | {:.2f} | {:+.2f} | {:+.0f}% | {} | {:.1f} | {:.2f} |\n", r.n,
      what, r.slice, seconds.size(), median, longest, over, 100 * over / r.slice, beyond,
      r.solution.seconds, r.cpu / r.solution.seconds);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Slice lengths of topswops solve on the CPU against --slice"};
  int threads = omp_get_num_procs();
  double n15_seconds = 40;
  std::string out = "results/bench/slice_overshoot.md";
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--n15-seconds", n15_seconds, "Time limit of the n = 15 runs")
      ->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Record file");
  CLI11_PARSE(app, argc, argv);

  const std::string load_before = load_average();
  std::string table =
      "| n | run | S | slices | median s | longest s | longest - S | over S | slices beyond S + "
      "max(2 s, 10%) | wall s | CPU cores used |\n"
      "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  bool right = true;
  for (const int n : {14, 15})
    for (const double slice : {2.0, 5.0}) {
      const Run r = measure(n, slice, n == 15 ? std::optional(n15_seconds) : std::nullopt, threads);
      if (n == 14) right = right && r.solution.result.best == 101;  // f(14), OEIS A000375
      const std::string line = row(r);
      fmt::print("{}", line);
      std::fflush(stdout);
      table += line;
    }

  const std::string body = fmt::format(
      "_made by `bench_slices --threads {} --n15-seconds {}`; piles {}; {}; {} CPU threads "
      "available; load average before {}, after {}; {}_\n\n{}\n"
      "Each run is `piles --backend cpu --threads {} topswops solve N --slice S` (the dfs "
      "engine); n = 15 stops at the first slice boundary after its time limit, as "
      "`--time-limit` does, so its slices are those of its first rounds. A slice is one engine "
      "call as the job driver timed it; the first of a run holds the floor (16 prefixes a "
      "thread) and each later one at most four times the one before, so the first few, and the "
      "last of each round, are short. CPU cores used is CPU time over wall time: below the "
      "thread count, other programs held the cores, and slices stretch with them.\n",
      threads, n15_seconds, piles::version, cpu_model(), omp_get_num_procs(), load_before,
      load_average(), today(), table, threads);
  piles::bench::write_record(out, "# Slices against --slice S, Topswops on the CPU\n\n" + body);
  return right ? 0 : 1;
}
