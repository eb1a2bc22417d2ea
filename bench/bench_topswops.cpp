// Topswops benchmark: `piles topswops solve N` on the CPU engine with 1 and T threads and on the
// GPU engine, both kernels, when a device answers. Every run must give the same answer, node counts
// per level included; rates are nodes per second of wall time (median of several runs) and, for the
// CPU, per second of CPU time, which stays honest on a machine that others share. Knuth's
// topswops-fwd, the baseline, visits 1,035,443,218 nodes for n = 14 from the target f(14)
// (--bound 101 here gives the same tree) in about 42 s on one thread (DESIGN.md section 5).
// The record goes to results/bench/topswops_n<N>.md.
//
//   bench_topswops [--n N] [--threads T] [--runs R] [--final any|sorted] [--bound L] [--out FILE]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/common/backend.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/topswops/cpu_path.hpp"
#include "host/topswops/solve.hpp"

using piles::cpu_model;
using piles::bench::cpu_seconds;
using piles::bench::load_average;
using piles::bench::today;

namespace {

using piles::Backend;
using piles::RunTarget;
namespace ts = piles::topswops;

struct Row {
  std::string name;
  int threads = 0;
  double wall = 0, cpu = 0;  // medians
  std::uint64_t nodes = 0;
  bool same = true;
  double rate() const { return nodes / wall; }
  double cpu_rate() const { return nodes / cpu; }
};

Row measure(const std::string& name, const ts::SolveOptions& options, const RunTarget& target,
            int runs, const std::optional<ts::Solution>& reference, ts::Solution* out = nullptr) {
  std::vector<double> wall, cpu;
  ts::Solution last;
  for (int r = 0; r < runs; ++r) {
    const double c0 = cpu_seconds();
    const auto w0 = std::chrono::steady_clock::now();
    last = ts::solve(options, target);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
    cpu.push_back(cpu_seconds() - c0);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  Row row{name, target.threads, wall[runs / 2], cpu[runs / 2], last.result.total_nodes(), true};
  if (reference) row.same = reference->result == last.result;
  if (out) *out = last;
  fmt::print("{:<22} {:>8.2f} s  {:.2f} cores  {:>7.1f} M nodes/s wall  {:>7.1f} M per CPU-s  {}\n",
             name, row.wall, row.cpu / row.wall, row.rate() / 1e6, row.cpu_rate() / 1e6,
             row.same ? "equal" : "DIFFER");
  std::fflush(stdout);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Topswops benchmark: the CPU engine on 1 and T threads, and the GPU engine"};
  std::string backend = "auto";
  int n = 14, runs = 3, threads = omp_get_num_procs();
  std::string final_name = "any", out;
  std::optional<int> bound;
  app.add_option("--n", n, "Number of cards")->check(CLI::Range(1, ts::max_n));
  app.add_option("--threads", threads, "CPU threads for the parallel run")
      ->check(CLI::PositiveNumber);
  app.add_option("--runs", runs, "Runs per engine (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--final", final_name, "any | sorted")->check(CLI::IsMember({"any", "sorted"}));
  app.add_option("--bound", bound, "Start target L (default f(n-1))")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--out", out, "Record file (default results/bench/topswops_n<N>.md)");
  app.add_option("--backend", backend, "cpu | both (the GPU too; exit 2 without one) | auto")
      ->check(CLI::IsMember({"cpu", "both", "auto"}));
  CLI11_PARSE(app, argc, argv);
  std::string cpu_path;
  try {
    cpu_path = ts::cpu_path_text();
  } catch (const piles::UsageError& e) {
    fmt::print(stderr, "bench_topswops: error: {}\n", e.what());
    return 2;
  }
  const bool sorted = final_name == "sorted";
  if (out.empty())
    out = fmt::format("results/bench/topswops_n{}{}{}.md", n, sorted ? "_sorted" : "",
                      bound ? fmt::format("_bound{}", *bound) : "");

  ts::SolveOptions options;
  options.n = n;
  options.final = sorted ? ts::Final::sorted : ts::Final::any;
  options.bound = bound;
  options.run.quiet = true;
  options.small_slices_on_host = false;  // the GPU rows measure the kernels alone
  const std::string device = piles::bench::bench_device(backend, "bench_topswops");
  const std::string load_before = load_average();
  fmt::print(
      "bench_topswops n = {}{}: {} CPU threads available, CPU path {}, GPU: {}, load {}, median of "
      "{}\n",
      n, sorted ? " (sorted)" : "", omp_get_num_procs(), cpu_path, device.empty() ? "none" : device,
      load_before, runs);

  RunTarget one, many, gpu;
  one.threads = 1;
  one.device = many.device = "cpu";
  many.threads = threads;
  gpu.backend = Backend::gpu;
  gpu.device = device;
  gpu.threads = threads;

  std::vector<Row> rows;
  ts::Solution reference;
  rows.push_back(measure("cpu, 1 thread", options, one, runs, std::nullopt, &reference));
  rows.push_back(measure(fmt::format("cpu, {} threads", threads), options, many, runs, reference));
  if (!device.empty()) {
    // The default lanes kernel and the dfs kernel.
    rows.push_back(measure(fmt::format("gpu, {} kernel", ts::gpu_kernel_name(options.gpu_kernel)),
                           options, gpu, runs, reference));
    ts::SolveOptions dfs = options;
    dfs.gpu_kernel = ts::GpuKernel::dfs;
    rows.push_back(measure("gpu, dfs kernel", dfs, gpu, runs, reference));
  }
  bool all_same = true;
  for (const Row& r : rows) all_same = all_same && r.same;

  const ts::Partial& result = reference.result;
  std::string summary =
      fmt::format("Answer: {} steps, {} deck{} ({}); {} nodes.\n", result.best, result.count,
                  result.count == 1 ? "" : "s",
                  result.decks.empty() ? "" : piles::comma_list(result.decks.front().deck),
                  result.total_nodes());
  summary += fmt::format("Nodes per level: {}.\n", piles::comma_list(result.nodes));
  summary += fmt::format(
      "Speed-up, {} threads over 1 thread: {:.2f}x (wall), using {:.2f} cores; nodes per "
      "CPU-second with {} threads / with 1 thread: {:.2f}.\n",
      threads, rows[0].wall / rows[1].wall, rows[1].cpu / rows[1].wall, threads,
      rows[1].cpu_rate() / rows[0].cpu_rate());
  if (!device.empty())
    summary += fmt::format(
        "Speed-up, GPU ({0} kernel) over 1 CPU thread: {1:.0f}x; over {2} threads: {3:.1f}x "
        "(wall); {0} kernel over dfs kernel: {4:.2f}x.\n",
        ts::gpu_kernel_name(options.gpu_kernel), rows[0].wall / rows[2].wall, threads,
        rows[1].wall / rows[2].wall, rows[3].wall / rows[2].wall);
  fmt::print("{}", summary);

  std::string body = fmt::format(
      "_made by `bench_topswops --n {} --final {}{} --runs {} --threads {}`; piles {}; {}; "
      "{} CPU threads available; CPU path {}; GPU {}; load average before {}, after {}; {}_\n\n"
      "| engine | threads | median wall s | CPU cores used | nodes | nodes/s (wall) | "
      "nodes/s per CPU-second | result |\n|---|---:|---:|---:|---:|---:|---:|---|\n",
      n, final_name, bound ? fmt::format(" --bound {}", *bound) : "", runs, threads, piles::version,
      cpu_model(), omp_get_num_procs(), cpu_path, device.empty() ? "none" : device, load_before,
      load_average(), today());
  for (const Row& r : rows)
    body += fmt::format("| {} | {} | {:.2f} | {:.2f} | {} | {:.3g} | {:.3g} | {} |\n", r.name,
                        r.threads, r.wall, r.cpu / r.wall, r.nodes, r.rate(), r.cpu_rate(),
                        r.same ? "equal" : "DIFFER");
  body += "\n" + summary +
          "CPU cores used is CPU time over wall time: where it stays below the thread count, "
          "other programs held the cores, and the rate per CPU-second is the figure to compare. "
          "Baseline: Knuth's topswops-fwd, n = 14 from the target f(14), 1,035,443,218 nodes in "
          "about 42 s on one thread of this machine kind (DESIGN.md section 5).\n";
  piles::bench::write_record(out, fmt::format("# Topswops benchmark, n = {}{}\n\n", n,
                                              sorted ? ", games ending sorted" : "") +
                                      body);
  return all_same ? 0 : 1;
}
