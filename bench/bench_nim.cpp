// Scatterstone Nim benchmark: fixed workloads, median wall time of several runs, and the
// answers themselves so a run can be checked at a glance. Nim is solved on the host only
// (DESIGN.md section 8); there is no GPU engine to compare with.
//
//   bench_nim [--runs R] [--threads T] [--upto N]

#include <fmt/format.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "host/nim/count.hpp"
#include "host/nim/direct.hpp"
#include "host/nim/grundy.hpp"

namespace {

// Median seconds of `runs` calls of `work`; `answer` is what the last call returned.
double median_seconds(int runs, const std::function<std::string()>& work, std::string& answer) {
  std::vector<double> seconds;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    answer = work();
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

void report(const std::string& name, int runs, const std::function<std::string()>& work) {
  std::string answer;
  const double s = median_seconds(runs, work, answer);
  fmt::print("{:<40} {:>10.4f} s   {}\n", name, s, answer);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scatterstone Nim benchmark (CPU; nim has no GPU engine)"};
  int runs = 5, threads = omp_get_num_procs(), upto = 10'000;
  app.add_option("--runs", runs, "Runs per workload (median reported)")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "CPU threads")->check(CLI::PositiveNumber);
  app.add_option("--upto", upto, "Largest pile for G_3")->check(CLI::Range(1, 50'000));
  CLI11_PARSE(app, argc, argv);

  fmt::print("bench_nim: backend cpu, {} threads available, median of {} runs\n",
             omp_get_num_procs(), runs);
  fmt::print("{:<40} {:>12}   {}\n", "workload", "median", "answer");
  for (int t : {1, threads}) {
    report(fmt::format("G_3(1..{}), {} thread(s)", upto, t), runs, [&] {
      const auto g = piles::nim::grundy_three(upto, t);
      return fmt::format("G_3({}) = {}", upto, g.back());
    });
    if (t == threads) break;
  }
  report("g(200) mod 1e9+7 (Project Euler 629)", runs, [&] {
    return mpz_class(piles::nim::winning_counts_all_k(200, threads)[200] % 1'000'000'007).get_str();
  });
  report("g(1000) exact", runs, [&] {
    const std::string g = piles::nim::winning_counts_all_k(1000, threads)[1000].get_str();
    return fmt::format("{} digits, {}...", g.size(), g.substr(0, 12));
  });
  report("f(30, 3) by direct search", runs,
         [] { return std::to_string(piles::nim::solve_directly(30, 3).winning()); });
  return 0;
}
