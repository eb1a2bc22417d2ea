// Babylon benchmark: fixed workloads solved from an empty memo, median wall time of several
// runs, positions searched, positions per second and memo memory, with 1 thread and with T;
// the answers of every run must agree. Babylon is solved on the host (DESIGN.md section 7):
// there is no GPU engine to compare with.
//
//   bench_babylon [--runs R] [--threads T] [--max-chips N]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

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
  double seconds;
  std::uint64_t searched, memo_bytes;
  std::string answers;  // one digit per start: 1 first player wins, 2 second
};

// A table spreads its starts over the threads; a single start is analysed the way
// `piles babylon solve` does it, every first move on its own thread.
Run run_once(const Workload& w, int threads) {
  Solver solver(threads);
  Run r{0, 0, 0, std::string(w.starts.size(), '?')};
  const int n = static_cast<int>(w.starts.size());
  const auto start = std::chrono::steady_clock::now();
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
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.searched = searched;
  r.memo_bytes = solver.memo_bytes();
  return r;
}

// Median of `runs` runs; exits when two runs disagree.
Run median_run(const Workload& w, int threads, int runs, std::string& answers) {
  std::vector<Run> all;
  for (int i = 0; i < runs; ++i) {
    all.push_back(run_once(w, threads));
    if (answers.empty()) answers = all.back().answers;
    if (all.back().answers != answers) {
      fmt::print("MISMATCH in {}: {} vs {}\n", w.name, all.back().answers, answers);
      std::exit(1);
    }
  }
  std::sort(all.begin(), all.end(),
            [](const Run& a, const Run& b) { return a.seconds < b.seconds; });
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
  app.add_option("--runs", runs, "Runs per workload (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--max-chips", max_chips, "Largest two-colour table")->check(CLI::Range(4, 62));
  CLI11_PARSE(app, argc, argv);

  const auto two_colour = piles::babylon::table_starts(2, max_chips);
  const std::vector<Workload> workloads = {
      {fmt::format("two-colour table to {} chips", max_chips), two_colour},
      {"4,121 (256-bit keys near the top)", {{4, 121}}},
      {"6,6,6,6", {{6, 6, 6, 6}}},
      {"5,5,5,5,5", {{5, 5, 5, 5, 5}}},
      {"10,10,10", {{10, 10, 10}}},
  };

  fmt::print("bench_babylon: backend cpu, {} threads available, median of {} runs\n",
             omp_get_num_procs(), runs);
  fmt::print("gpu: none (babylon is solved on the host; no GPU engine to compare)\n");
  fmt::print("{:<34} {:>7} {:>10} {:>12} {:>12} {:>9} {:>8}   {}\n", "workload", "threads",
             "median s", "positions", "positions/s", "memo MiB", "speed-up", "answer");
  for (const Workload& w : workloads) {
    std::string answers;
    double one_thread = 0;
    for (const int t : {1, threads}) {
      const Run r = median_run(w, t, runs, answers);
      if (t == 1) one_thread = r.seconds;
      fmt::print("{:<34} {:>7} {:>10.3f} {:>12} {:>12.0f} {:>9.1f} {:>7.2f}x   {}\n", w.name, t,
                 r.seconds, r.searched, r.searched / r.seconds,
                 static_cast<double>(r.memo_bytes) / (1 << 20), one_thread / r.seconds,
                 summary(answers));
      if (threads == 1) break;
    }
  }
  return 0;
}
