// Babylon benchmark: fixed workloads solved from an empty memo, with 1 thread and with T;
// median wall time of several runs, positions searched, positions per second of wall time and
// per CPU-second (the fair figure on a machine that others share), memo memory. The answers
// of every run must agree. Babylon is solved on the host (DESIGN.md section 7): there is no
// GPU engine to compare with. The record goes to results/bench/babylon.md.
//
//   bench_babylon [--runs R] [--threads T] [--max-chips N] [--out FILE]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "build_info.hpp"
#include "host/babylon/analysis.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/table.hpp"

using piles::bench::cpu_seconds;
using piles::bench::load_average;

namespace {

using piles::babylon::Solver;

// A table (every start of `colours` colours up to `max_chips`), or one start.
struct Workload {
  std::string name;
  int colours, max_chips;
  std::vector<int> start;
};

struct Run {
  double wall = 0, cpu = 0;
  std::uint64_t searched = 0, memo_bytes = 0;
  std::string answers;  // one digit per start: 1 first player wins, 2 second
};

// Runs the workload the way `piles babylon table` or `piles babylon solve` does.
Run run_once(const Workload& w, int threads) {
  Run r;
  const double cpu0 = cpu_seconds();
  const auto wall0 = std::chrono::steady_clock::now();
  if (w.start.empty()) {
    const auto t = piles::babylon::solve_table(w.colours, w.max_chips, threads);
    for (const auto& row : t.rows) {
      r.answers += row.first_wins ? '1' : '2';
      r.searched += row.searched;
    }
    r.memo_bytes = t.memo_bytes;
  } else {
    Solver solver(threads);
    const auto a = piles::babylon::analyse(w.start, solver);
    r.answers = a.first_wins ? "1" : "2";
    r.searched = a.searched;
    r.memo_bytes = solver.memo_bytes();
  }
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  r.cpu = cpu_seconds() - cpu0;
  return r;
}

// The run with the median wall time; throws when two runs disagree.
Run median_run(const Workload& w, int threads, int runs, std::string& answers) {
  std::vector<Run> all;
  for (int i = 0; i < runs; ++i) {
    all.push_back(run_once(w, threads));
    if (answers.empty()) answers = all.back().answers;
    if (all.back().answers != answers)
      throw std::runtime_error(
          fmt::format("{}: runs disagree ({} vs {})", w.name, all.back().answers, answers));
  }
  std::sort(all.begin(), all.end(), [](const Run& a, const Run& b) { return a.wall < b.wall; });
  return all[all.size() / 2];
}

std::string summary(const std::string& answers) {
  if (answers.size() == 1) return answers == "1" ? "first player wins" : "second player wins";
  const auto second = std::count(answers.begin(), answers.end(), '2');
  return fmt::format("{} starts, {} second-player wins", answers.size(), second);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Babylon benchmark (CPU; babylon has no GPU engine)"};
  int runs = 3, threads = omp_get_num_procs(), max_chips = 50;
  std::string out = "results/bench/babylon.md";
  app.add_option("--runs", runs, "Runs per workload (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--max-chips", max_chips, "Largest two-colour table")->check(CLI::Range(4, 70));
  app.add_option("--out", out, "Markdown record to write");
  CLI11_PARSE(app, argc, argv);

  const std::vector<Workload> workloads = {
      {fmt::format("table: two colours, up to {} chips", max_chips), 2, max_chips, {}},
      {"table: three colours, up to 24 chips", 3, 24, {}},
      {"solve 4 121 (256-bit keys near the top)", 0, 0, {4, 121}},
      {"solve 6 6 6 6", 0, 0, {6, 6, 6, 6}},
      {"solve 5 5 5 5 5", 0, 0, {5, 5, 5, 5, 5}},
      {"solve 10 10 10", 0, 0, {10, 10, 10}},
  };

  const std::string load_before = load_average();
  fmt::print("bench_babylon: {} CPU threads available, load {}, median of {} runs\n",
             omp_get_num_procs(), load_before, runs);
  fmt::print("gpu: none (babylon is solved on the host; no GPU engine to compare)\n");
  std::string table =
      "| workload | threads | median wall s | CPU cores used | positions | positions/s (wall) "
      "| positions per CPU-second | memo MiB | answer |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const Workload& w : workloads) {
    std::string answers;
    for (const int t : {1, threads}) {
      const Run r = median_run(w, t, runs, answers);
      const std::string line = fmt::format(
          "| {} | {} | {:.3f} | {:.2f} | {} | {:.3g} | {:.3g} | {:.1f} | {} |\n", w.name, t, r.wall,
          r.cpu / r.wall, r.searched, r.searched / r.wall, r.searched / r.cpu,
          static_cast<double>(r.memo_bytes) / (1 << 20), summary(answers));
      fmt::print("{}", line);
      table += line;
      if (threads == 1) break;
    }
  }

  const std::string record = fmt::format(
      "# Babylon benchmark\n\n_made by `bench_babylon --runs {} --threads {} --max-chips {}`; "
      "piles {}; {} CPU threads available; GPU none (babylon has no GPU engine); load average "
      "before {}, after {}_\n\n{}\nEvery workload starts from an empty memo. CPU cores used is "
      "CPU time over wall time: where it stays below the thread count, other programs held the "
      "cores, and positions per CPU-second is the figure to compare.\n",
      runs, threads, max_chips, piles::version, omp_get_num_procs(), load_before, load_average(),
      table);
  if (const auto dir = std::filesystem::path(out).parent_path(); !dir.empty())
    std::filesystem::create_directories(dir);
  std::ofstream(out) << record;
  fmt::print("record written to {}\n", out);
  return 0;
}
