#include "host/benchmark/suite.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <numeric>

#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/bulgarian/analysis.hpp"
#include "host/bulgarian/stochastic.hpp"
#include "host/nim/grundy.hpp"
#include "host/topswops/solve.hpp"

namespace piles::benchmark {
namespace {

namespace ts = topswops;
namespace bg = bulgarian;

// Sizes that take seconds on two CPU cores.
constexpr int topswops_n = 13;
constexpr int backward_first = 61, backward_last = 82;
constexpr int forward_first = 61, forward_last = 65;
constexpr int grundy_upto = 5000;
const std::vector<int> babylon_start = {5, 5, 5, 5, 5};

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string engine_name(const RunTarget& target, const std::string& engine) {
  return fmt::format("{}-{}", backend_name(target.backend), engine);
}

// On a GPU target `kernel` runs; on the CPU the depth-first engine.
Measure topswops_solve(const RunTarget& target, ts::GpuKernel kernel) {
  const std::string engine = target.backend == Backend::gpu ? ts::gpu_kernel_name(kernel) : "dfs";
  ts::SolveOptions o;
  o.n = topswops_n;
  o.gpu_kernel = kernel;
  o.small_slices_on_host = false;  // the kernel's own rate, every slice on the device
  o.run.quiet = true;
  ts::Solution s;
  Measure m{.instance = fmt::format("topswops solve {}", topswops_n),
            .engine = engine_name(target, engine),
            .backend = target.backend,
            .unit = "nodes"};
  m.seconds = seconds_of([&] { s = ts::solve(o, target); });
  m.work = s.result.total_nodes();
  m.answer = fmt::format("f = {} x{}", s.result.best, s.result.count);
  return m;
}

Measure bulgarian_analyze(const RunTarget& target, bg::Engine engine, int first, int last) {
  Measure m{.instance = fmt::format("bulgarian analyze {}..{}", first, last),
            .engine = engine_name(target, bg::engine_name(engine)),
            .backend = target.backend,
            .unit = "partitions"};
  bg::Analysis a;
  m.seconds = seconds_of([&] {
    for (int n = first; n <= last; ++n) {
      a = bg::analyze(n, engine, target);
      m.work += a.partitions;
    }
  });
  m.answer = fmt::format("D({}) = {} x{}", last, a.max_transient(), a.max_transient_count());
  return m;
}

Measure bulgarian_random(const RunTarget& target) {
  const bg::RandomSpec spec{.start = {40}, .p = 0.35, .runs = 20000, .steps = 300, .seed = 2024};
  Measure m{.instance = "bulgarian random 40 --p 0.35 --runs 20000 --steps 300",
            .engine = engine_name(target, "random"),
            .backend = target.backend,
            .unit = "chain steps"};
  bg::RandomResult r;
  m.seconds = seconds_of([&] { r = bg::run_random(spec, target); });
  m.work = spec.runs * spec.steps;
  m.answer = fmt::format("piles {}", r.pile_sum);
  return m;
}

Measure nim_grundy(const RunTarget& target) {
  Measure m{.instance = fmt::format("nim grundy --k 3 --upto {}", grundy_upto),
            .engine = "cpu-grundy",
            .backend = Backend::cpu,
            .unit = "pile sizes"};
  std::vector<std::uint32_t> values;
  m.seconds = seconds_of([&] { values = nim::grundy_values(3, grundy_upto, target.threads); });
  m.work = grundy_upto;
  m.answer = fmt::format("sum {}", std::accumulate(values.begin(), values.end(), std::uint64_t{0}));
  return m;
}

Measure babylon_solve() {
  // One thread: which positions a search visits depends on the order threads finish in.
  Measure m{.instance = fmt::format("babylon solve {}", fmt::join(babylon_start, " ")),
            .engine = "cpu-negamax",
            .backend = Backend::cpu,
            .unit = "positions"};
  babylon::Solver solver(1);
  bool first_wins = false;
  m.seconds = seconds_of(
      [&] { first_wins = solver.mover_wins(babylon::start_position(babylon_start), m.work); });
  m.answer = first_wins ? "first wins" : "second wins";
  return m;
}

}  // namespace

std::string Measure::signature() const {
  return fmt::format("{} {}, {}", work, unit, answer);
}

std::vector<Measure> run_suite(const RunTarget& target,
                               const std::function<void(const Measure&)>& done) {
  std::vector<std::function<Measure()>> runs;
  runs.push_back([&] { return topswops_solve(target, ts::default_gpu_kernel); });
  if (target.backend == Backend::gpu)
    runs.push_back([&] { return topswops_solve(target, ts::GpuKernel::dfs); });
  runs.push_back([&] {
    return bulgarian_analyze(target, bg::Engine::backward, backward_first, backward_last);
  });
  runs.push_back(
      [&] { return bulgarian_analyze(target, bg::Engine::forward, forward_first, forward_last); });
  runs.push_back([&] { return bulgarian_random(target); });
  if (target.backend == Backend::cpu) {
    runs.push_back([&] { return nim_grundy(target); });
    runs.push_back([] { return babylon_solve(); });
  }
  std::vector<Measure> measures;
  for (const auto& run : runs) {
    measures.push_back(run());
    done(measures.back());
  }
  return measures;
}

}  // namespace piles::benchmark
