// Topswops checks: f(n) and its decks against the published tables, and every chunk of a plan
// (best, count, decks, nodes per level) against the CPU's depth-first engine in the same run.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "host/selftest/selftest.hpp"
#include "host/topswops/cpu_engine.hpp"
#include "host/topswops/gpu_engine.hpp"
#include "host/topswops/lockstep_engine.hpp"
#include "host/topswops/published.hpp"
#include "host/topswops/solve.hpp"
#include "host/topswops/tail_job.hpp"

namespace piles::selftest {
namespace {

namespace ts = topswops;
using Chunks = std::map<int, ts::Partial>;

// An engine as the checks name and run it.
struct Engine {
  std::string name;
  ts::CpuEngine cpu = ts::CpuEngine::dfs;
  ts::GpuKernel gpu = ts::default_gpu_kernel;
  std::uint64_t pass_budget = ts::lockstep_pass_budget;
  std::uint64_t found_capacity = gpu::default_found_capacity;
};

ts::Solution solve(int n, ts::Final final, const Engine& engine, const RunTarget& target,
                   ts::Tail tail = {}) {
  ts::SolveOptions o;
  o.n = n;
  o.final = final;
  o.tail = std::move(tail);
  o.engine = engine.cpu;
  o.gpu_kernel = engine.gpu;
  o.small_slices_on_host = false;  // every slice of a GPU check on the kernel it names
  o.run.quiet = true;
  return ts::solve(o, target);
}

std::string longest_text(int best, std::uint64_t count) {
  return fmt::format("{}x{}", best, count);
}

// f(n) and how many decks reach it, n = 1..last, from the published tables.
Check published_longest(const Engine& engine, ts::Final final, int last, const RunTarget& target) {
  const bool sorted = final == ts::Final::sorted;
  return {"topswops/" + engine.name,
          fmt::format("f(n){} x decks, n = 1..{}", sorted ? " sorted" : "", last), [=] {
            std::vector<std::string> expected, got;
            for (int n = 1; n <= last; ++n) {
              const int longest =
                  sorted ? ts::published::longest_sorted[n] : ts::published::longest[n];
              const int count =
                  sorted ? ts::published::longest_sorted_count[n] : ts::published::longest_count[n];
              expected.push_back(longest_text(longest, count));
              const ts::Solution s = solve(n, final, engine, target);
              got.push_back(longest_text(s.result.best, s.result.count));
            }
            return Compared{joined(expected), joined(got)};
          }};
}

Chunks run_chunks(const ts::Plan& plan, const std::vector<int>& chunks, int target,
                  const Engine& engine, const RunTarget& run) {
  Chunks out;
  const ts::ChunkDone done = [&](int c, const ts::Partial& p, double) { out.emplace(c, p); };
  if (run.backend == Backend::gpu)
    ts::run_chunks_gpu(plan, chunks, target, done, engine.gpu, engine.pass_budget,
                       engine.found_capacity);
  else if (engine.cpu == ts::CpuEngine::lockstep)
    ts::run_chunks_lockstep(plan, chunks, target, {engine.pass_budget, 4, run.threads}, done);
  else
    ts::run_chunks_cpu(plan, chunks, target, run.threads, done);
  return out;
}

std::string chunks_text(const Chunks& chunks) {
  std::uint64_t nodes = 0;
  int best = -1;
  std::uint64_t count = 0;
  for (const auto& [c, p] : chunks) {
    nodes += p.total_nodes();
    if (p.best > best) best = p.best, count = 0;
    if (p.best == best) count += p.count;
  }
  // A chunk searched from a target holds no game shorter than it, so it may hold none.
  return fmt::format(
      "{} chunks, {} nodes, {}", chunks.size(), nodes,
      best < 0 ? "no game reaching the target" : "longest " + longest_text(best, count));
}

// The chunks of the plan's rounds (`chunk` alone when given), each round from the target the
// CPU engine's earlier rounds give: equal partials, chunk by chunk, to the CPU engine's.
Check chunks_like_cpu(const Engine& engine, const std::string& what, const ts::Plan& plan,
                      int target, const RunTarget& run, std::optional<int> chunk = {}) {
  return {"topswops/" + engine.name, what, [=] {
            Chunks cpu, other;
            const RunTarget host = run.on_host();
            int t = target;
            const int rounds = chunk ? 1 : plan.round_count();
            for (int r = 0; r < rounds; ++r) {
              const std::vector<int> ids =
                  chunk ? std::vector<int>{*chunk} : plan.chunks_of_round(r);
              const Chunks c = run_chunks(plan, ids, t, Engine{"cpu-dfs"}, host);
              const Chunks o = run_chunks(plan, ids, t, engine, run);
              cpu.insert(c.begin(), c.end());
              other.insert(o.begin(), o.end());
              for (const auto& [id, p] : c) t = std::max(t, p.best);
            }
            Compared result{chunks_text(cpu), chunks_text(other)};
            for (const auto& [id, p] : cpu)
              if (!other.contains(id) || other.at(id) != p) {
                result.got += fmt::format(" (chunk {} differs)", id);
                break;
              }
            return result;
          }};
}

// solve N --tail from a finished tail run (Chaffin's cutoff) gives f(N) with fewer nodes.
Check tailed(const Engine& engine, int n, const RunTarget& target) {
  return {
      "topswops/" + engine.name, fmt::format("f({}) through a tail of {} cards", n, n - 1), [=] {
        ts::TailOptions o;
        o.n = n;
        o.run.quiet = true;
        const ts::TailResult tail = ts::run_tail(o, target.on_host());
        const ts::Solution s = solve(n, ts::Final::any, engine, target, tail.tail(ts::Final::any));
        return Compared{longest_text(ts::published::longest[n], ts::published::longest_count[n]),
                        longest_text(s.result.best, s.result.count)};
      }};
}

}  // namespace

std::vector<Check> topswops_checks(const RunTarget& target) {
  std::vector<Check> checks;
  const ts::Plan plan12 = ts::make_plan(12, ts::Final::any, {});
  const ts::Plan sorted11 = ts::make_plan(11, ts::Final::sorted, {});
  if (target.backend == Backend::gpu) {
    // Three-word decks from 17 cards on: one chunk searched from f(17) keeps it short.
    const ts::Plan plan17 = ts::make_plan(17, ts::Final::any, ts::published::longest[17]);
    for (const ts::GpuKernel kernel : ts::gpu_kernels) {
      const Engine e{fmt::format("gpu-{}", ts::gpu_kernel_name(kernel)), ts::CpuEngine::dfs,
                     kernel};
      checks.push_back(published_longest(e, ts::Final::any, 12, target));
      checks.push_back(published_longest(e, ts::Final::sorted, 12, target));
      checks.push_back(
          chunks_like_cpu(e, "every chunk of n = 12", plan12, plan12.start_target, target));
      checks.push_back(chunks_like_cpu(e, "every chunk of n = 11 sorted", sorted11,
                                       sorted11.start_target, target));
      checks.push_back(chunks_like_cpu(e, "a chunk of n = 17 from f(17) (three-word decks)", plan17,
                                       plan17.start_target, target, plan17.chunk_count / 2));
      checks.push_back(tailed(e, 12, target));
    }
    // Launches of a few passes: every lane parked and resumed many times over.
    const ts::Plan plan9 = ts::make_plan(9, ts::Final::any, {});
    for (const ts::GpuKernel kernel : ts::gpu_kernels) {
      if (kernel == ts::GpuKernel::dfs) continue;  // no passes to budget
      const Engine budget{fmt::format("gpu-{}", ts::gpu_kernel_name(kernel)), ts::CpuEngine::dfs,
                          kernel, 7};
      checks.push_back(chunks_like_cpu(budget, "every chunk of n = 9 in launches of 7 passes",
                                       plan9, plan9.start_target, target));
    }
    // A game buffer of three: chunks overflow it and are run again.
    const Engine small{"gpu-lockstep", ts::CpuEngine::dfs, ts::GpuKernel::lockstep,
                       ts::lockstep_pass_budget, 3};
    checks.push_back(chunks_like_cpu(
        small, "every chunk of n = 9 from target 0 through a buffer of 3 games", plan9, 0, target));
    return checks;
  }
  const Engine dfs{"cpu-dfs"}, lockstep{"cpu-lockstep", ts::CpuEngine::lockstep};
  checks.push_back(published_longest(dfs, ts::Final::any, 12, target));
  checks.push_back(published_longest(dfs, ts::Final::sorted, 12, target));
  checks.push_back(tailed(dfs, 12, target));
  checks.push_back(published_longest(lockstep, ts::Final::any, 10, target));
  checks.push_back(chunks_like_cpu(
      Engine{"cpu-lockstep", ts::CpuEngine::lockstep, ts::GpuKernel::lockstep, 1000},
      "every chunk of n = 11 sorted in launches of 1000 passes", sorted11, sorted11.start_target,
      target));
  return checks;
}

}  // namespace piles::selftest
