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

#include "build_info.hpp"
#include "host/babylon/analysis.hpp"
#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"

namespace {

using piles::babylon::Solver;

struct Workload {
  std::string name;
  std::vector<std::vector<int>> starts;
};

struct Run {
  double wall = 0, cpu = 0;
  std::uint64_t searched = 0, memo_bytes = 0;
  std::string answers;  // one digit per start: 1 first player wins, 2 second
};

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return fmt::format("{} {} {}", one, five, fifteen);
}

// A table spreads its starts over the threads; a single start is analysed the way
// `piles babylon solve` does it, every first move on its own thread.
Run run_once(const Workload& w, int threads) {
  Solver solver(threads);
  Run r;
  r.answers.assign(w.starts.size(), '?');
  const int n = static_cast<int>(w.starts.size());
  const double cpu0 = cpu_seconds();
  const auto wall0 = std::chrono::steady_clock::now();
  std::uint64_t searched = 0;
  if (n == 1) {
    const auto a = piles::babylon::analyse(w.starts[0], solver);
    r.answers[0] = a.first_wins ? '1' : '2';
    searched = a.searched;
  } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : searched)
    for (int i = 0; i < n; ++i)
      r.answers[i] =
          solver.mover_wins(piles::babylon::start_position(w.starts[i]), searched) ? '1' : '2';
  }
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  r.cpu = cpu_seconds() - cpu0;
  r.searched = searched;
  r.memo_bytes = solver.memo_bytes();
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
      {fmt::format("two-colour table to {} chips", max_chips),
       piles::babylon::table_starts(2, max_chips)},
      {"4,121 (256-bit keys near the top)", {{4, 121}}},
      {"6,6,6,6", {{6, 6, 6, 6}}},
      {"5,5,5,5,5", {{5, 5, 5, 5, 5}}},
      {"10,10,10", {{10, 10, 10}}},
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
