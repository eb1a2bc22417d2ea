// Bulgarian solitaire benchmark: the backward walk on 1 and T CPU threads, the forward engine
// on the CPU, and both GPU engines when a device answers, on fixed sizes. Every engine's counts
// are checked equal to the 1-thread backward walk; rates are partitions per second of wall
// time (median of several runs) and, for the CPU, per second of CPU time, which stays honest
// on a machine that others share. The record goes to results/bench/bulgarian.md.
//
//   bench_bulgarian [--n N] [--forward-n M] [--runs R] [--threads T] [--out FILE]

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
#include "host/bulgarian/analysis.hpp"
#include "host/common/backend.hpp"

using piles::bench::cpu_seconds;
using piles::bench::load_average;

namespace {

using piles::Backend;
using piles::RunTarget;
using piles::bulgarian::Analysis;
using piles::bulgarian::Engine;

struct Row {
  std::string name;
  int n = 0;
  std::uint64_t partitions = 0;
  double wall = 0, cpu = 0;  // medians
  bool same = true;          // counts equal to the reference run
  int threads = 0;
  double rate() const { return partitions / wall; }
  double cpu_rate() const { return partitions / cpu; }
};

Row measure(const std::string& name, int n, Engine engine, const RunTarget& target, int runs,
            const std::optional<Analysis>& reference, Analysis* out = nullptr,
            const piles::bulgarian::BackwardOptions& backward = {}) {
  std::vector<double> wall, cpu;
  Analysis last;
  for (int r = 0; r < runs; ++r) {
    const double c0 = cpu_seconds();
    const auto w0 = std::chrono::steady_clock::now();
    last = piles::bulgarian::analyze(n, engine, target, nullptr, backward);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
    cpu.push_back(cpu_seconds() - c0);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  Row row{name, n, last.partitions, wall[runs / 2], cpu[runs / 2], true, target.threads};
  if (reference) row.same = reference->same_structure(last);
  if (out) *out = last;
  fmt::print(
      "{:<26} n={:<4} {:>7.3f} s  {:.2f} cores  {:>6.1f} M/s wall  {:>6.1f} M/s per CPU-s  {}\n",
      name, n, row.wall, row.cpu / row.wall, row.rate() / 1e6, row.cpu_rate() / 1e6,
      row.same ? "equal" : "DIFFER");
  std::fflush(stdout);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Bulgarian solitaire benchmark: backward and forward engines, CPU and GPU"};
  std::string backend = "auto";
  int n = 105, forward_n = 80, runs = 3, threads = omp_get_num_procs();
  std::string out = "results/bench/bulgarian.md";
  app.add_option("--n", n, "Size for the backward walks")->check(CLI::Range(1, 255));
  app.add_option("--forward-n", forward_n, "Size for the forward engines")
      ->check(CLI::Range(1, 127));
  app.add_option("--runs", runs, "Runs per engine (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "CPU threads for the parallel runs")
      ->check(CLI::PositiveNumber);
  app.add_option("--out", out, "Record file (Markdown)");
  app.add_option("--backend", backend, "cpu | both (the GPU too; exit 2 without one) | auto")
      ->check(CLI::IsMember({"cpu", "both", "auto"}));
  CLI11_PARSE(app, argc, argv);

  const std::string device = piles::bench::bench_device(backend, "bench_bulgarian");
  const std::string load_before = load_average();
  fmt::print("bench_bulgarian: {} CPU threads available, GPU: {}, load {}, median of {} runs\n",
             omp_get_num_procs(), device.empty() ? "none" : device, load_before, runs);

  RunTarget one, many, gpu;
  one.threads = 1;
  many.threads = threads;
  gpu.backend = Backend::gpu;
  gpu.device = device;
  gpu.threads = threads;

  std::vector<Row> rows;
  Analysis reference, forward_reference;
  rows.push_back(
      measure("backward cpu, 1 thread", n, Engine::backward, one, runs, std::nullopt, &reference));
  rows.push_back(measure(fmt::format("backward cpu, {} threads", threads), n, Engine::backward,
                         many, runs, reference));
  if (!device.empty()) {
    piles::bulgarian::BackwardOptions lanes, leaves, rounds;
    lanes.walk_kernel = piles::bulgarian::WalkKernel::lanes;
    leaves.walk_kernel = piles::bulgarian::WalkKernel::lanes_leaves;
    rounds.walk_kernel = piles::bulgarian::WalkKernel::rounds;
    rows.push_back(measure("backward gpu, lanes kernel", n, Engine::backward, gpu, runs, reference,
                           nullptr, lanes));
    rows.push_back(measure("backward gpu, lanes-leaves kernel", n, Engine::backward, gpu, runs,
                           reference, nullptr, leaves));
    rows.push_back(measure("backward gpu, rounds kernel", n, Engine::backward, gpu, runs, reference,
                           nullptr, rounds));
    // The rounds kernel with the budget its host model chose (bulgarian_walk_lanes.md).
    piles::bulgarian::BackwardOptions short_rounds = rounds;
    short_rounds.gpu_walk_budget = std::uint64_t{1} << 12;
    rows.push_back(measure("backward gpu, 2^12 a round", n, Engine::backward, gpu, runs, reference,
                           nullptr, short_rounds));
  }
  rows.push_back(measure("backward cpu, 1 thread", forward_n, Engine::backward, one, runs,
                         std::nullopt, &forward_reference));
  rows.push_back(measure(fmt::format("forward cpu, {} threads", threads), forward_n,
                         Engine::forward, many, runs, forward_reference));
  if (!device.empty())
    rows.push_back(
        measure("forward gpu", forward_n, Engine::forward, gpu, runs, forward_reference));

  const double scaling = rows[0].wall / rows[1].wall;
  fmt::print("backward speed-up, {} threads over 1: {:.2f}x wall\n", threads, scaling);
  if (!device.empty())
    fmt::print("backward speed-up, gpu (lanes kernel) over {} threads: {:.1f}x wall\n", threads,
               rows[1].wall / rows[2].wall);
  bool all_same = true;
  for (const Row& r : rows) all_same = all_same && r.same;

  std::string body = fmt::format(
      "_made by `bench_bulgarian --n {} --forward-n {} --runs {} --threads {}`; piles {}; "
      "{} CPU threads available; GPU {}; load average before {}, after {}_\n\n"
      "| engine | n | partitions | median wall s | CPU cores used | partitions/s (wall) | "
      "partitions/s per CPU-second | counts |\n|---|---:|---:|---:|---:|---:|---:|---|\n",
      n, forward_n, runs, threads, piles::version, omp_get_num_procs(),
      device.empty() ? "none" : device, load_before, load_average());
  for (const Row& r : rows)
    body += fmt::format("| {} | {} | {} | {:.3f} | {:.2f} | {:.3g} | {:.3g} | {} |\n", r.name, r.n,
                        r.partitions, r.wall, r.cpu / r.wall, r.rate(), r.cpu_rate(),
                        r.same ? "equal" : "DIFFER");
  body += fmt::format(
      "\nBackward walk, {} threads over 1 thread: {:.2f}x (wall). CPU cores used is CPU time "
      "over wall time: where it stays below the thread count, other programs held the cores, "
      "and the rate per CPU-second is the figure to compare.\n",
      threads, scaling);
  if (!device.empty())
    body += fmt::format("Backward walk, GPU over {} CPU threads: {:.1f}x (wall).\n", threads,
                        rows[1].wall / rows[2].wall);
  piles::bench::write_record(out, "# Bulgarian solitaire benchmark\n\n" + body);
  return all_same ? 0 : 1;
}
