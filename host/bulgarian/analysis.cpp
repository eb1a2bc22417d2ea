#include "host/bulgarian/analysis.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/bulgarian.hpp"
#include "host/bulgarian/backward.hpp"
#include "host/bulgarian/forward.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/bulgarian/variant_analysis.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"
#include "host/common/partition_table.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/bulgarian_forward.hpp"
#endif

namespace piles::bulgarian {
namespace {

// Walks handed out at the start: a few per CPU thread (threads that run dry split busy walks);
// on a GPU the round driver splits walks until it has enough.
constexpr std::size_t subtrees_per_cpu_thread = 16;
constexpr std::size_t gpu_subtrees = std::size_t{1} << 19;

std::uint64_t host_memory() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

void trim(std::vector<std::uint64_t>& histogram) {
  while (histogram.size() > 1 && histogram.back() == 0) histogram.pop_back();
}

void run_backward(int n, const RunTarget& target, Progress* progress,
                  const BackwardOptions& options, Analysis& a) {
  const bool gpu = target.backend == Backend::gpu;
  const std::size_t gpu_top =
      walks_in_lanes(options.walk_kernel) ? lanes_host_subtrees : gpu_subtrees;
  ForestTop top = expand_forest(n, gpu ? options.gpu_host_subtrees.value_or(gpu_top)
                                       : subtrees_per_cpu_thread * target.threads);
  ForestCounts counts = std::move(top.counts);
  const auto visited = [progress](std::uint64_t partitions) {
    if (progress) progress->add(partitions);
  };
  visited(counts.nodes());
  if (gpu) {
    const GpuWalk walk = walk_subtrees_gpu(n, std::move(top.subtrees), options.gpu_host_subtrees,
                                           options.gpu_walk_budget, options.walk_kernel, visited);
    counts.merge(walk.counts);
    a.device_partitions = walk.device_partitions;
  } else {
    counts.merge(
        walk_subtrees_cpu(std::move(top.subtrees), depth_bound(n), target.threads, visited));
  }
  if (counts.nodes() != a.partitions)
    throw std::runtime_error(fmt::format("n = {}: the backward walk visited {} partitions, not {}",
                                         n, counts.nodes(), a.partitions));
  a.transient_histogram = std::move(counts.histogram);
  a.garden_of_eden = counts.leaves;
  a.cycle_ranks = std::move(top.root_ranks);
}

void run_forward(const PartitionTable& table, const RunTarget& target, Analysis& a) {
  ForwardCounts counts;
  if (target.backend == Backend::gpu) {
#ifdef PILES_HAVE_CUDA
    check_forward_size(table.n(), gpu::free_device_memory(), "free GPU memory");
    counts = gpu::bulgarian_forward(table.view());
#endif
  } else {
    check_forward_size(table.n(), host_memory() / 2, "half the host memory");
    counts = forward_cpu(table, target.threads);
  }
  std::uint64_t placed = 0;
  for (const std::uint64_t c : counts.histogram) placed += c;
  if (placed != a.partitions)
    throw std::runtime_error(fmt::format("n = {}: the forward engine placed {} partitions, not {}",
                                         table.n(), placed, a.partitions));
  if (target.backend == Backend::gpu) {
    std::vector<part_t> parts(table.n() + 1);
    const int len = partition::unrank(table.view(), counts.deepest_rank, parts.data());
    check_longest_transient(table.n(), counts.histogram,
                            std::vector<int>(parts.begin(), parts.begin() + len), "forward");
  }
  a.transient_histogram = std::move(counts.histogram);
  a.garden_of_eden = counts.garden_of_eden;
  a.cycle_ranks = std::move(counts.cycle_ranks);
}

}  // namespace

RunTarget walk_target(const RunTarget& target) {
  return target.backend == Backend::gpu && target.auto_picked && !gpu_walk_beats_cpu &&
                 !target.cpu_worker
             ? target.on_host()
             : target;
}

EngineChoice auto_engine(int n, const RunTarget& target, std::uint64_t free_gpu_memory) {
  const bool forward = target.backend == Backend::gpu && n >= gpu_forward_from_n &&
                       n <= forward_max_n &&
                       partition_count(n) * forward_bytes_per_partition(n) <= free_gpu_memory;
  if (forward) return {Engine::forward, target};
  return {Engine::backward, walk_target(target)};
}

const char* engine_name(Engine engine) {
  switch (engine) {
    case Engine::forward:
      return "forward";
    case Engine::generic:
      return "generic";
    case Engine::backward:
      break;
  }
  return "backward";
}

bool Analysis::conjecture_holds() const {
  return max_transient() == griggs_ho(n);
}

bool Analysis::same_structure(const Analysis& o) const {
  return n == o.n && partitions == o.partitions && cycles == o.cycles &&
         cycle_lengths == o.cycle_lengths && cycle_ranks == o.cycle_ranks &&
         transient_histogram == o.transient_histogram && garden_of_eden == o.garden_of_eden;
}

Engine choose_engine(std::string_view name) {
  const std::string engine =
      parse_choice(name, "--engine", {"auto", "forward", "backward", "generic"});
  if (engine == "forward") return Engine::forward;
  if (engine == "generic") return Engine::generic;
  return Engine::backward;  // auto too
}

void count_cycles(int n, Analysis& a) {
  const PartitionTable table(n);
  const auto& on_cycle = a.cycle_ranks;
  std::vector<part_t> cur(n + 1), next(n + 2);
  a.cycles = 0;
  a.cycle_lengths.clear();
  for (const std::uint64_t start : on_cycle) {
    int len = partition::unrank(table.view(), start, cur.data());
    bool smallest = true;
    int length = 0;
    for (std::uint64_t r = start; length == 0 || r != start;) {
      len = bulgarian::move(cur.data(), len, next.data());
      std::swap(cur, next);
      r = partition::rank(table.view(), cur.data(), len);
      if (!std::binary_search(on_cycle.begin(), on_cycle.end(), r) ||
          ++length > static_cast<int>(on_cycle.size()))
        throw std::runtime_error(fmt::format("n = {}: rank {} is not on a cycle", n, start));
      smallest = smallest && r >= start;
    }
    if (smallest) {
      ++a.cycles;
      ++a.cycle_lengths[length];
    }
  }
}

std::uint64_t hopkins_sellers(int n) {
  // The terms fall in size, so the alternating sum never goes below zero.
  std::uint64_t sum = 0;
  for (int j = 1; 3 * j * (j + 1) / 2 <= n; ++j) {
    const std::uint64_t term = partition_count(n - 3 * j * (j + 1) / 2);
    sum = j % 2 ? sum + term : sum - term;
  }
  return sum;
}

void finish_analysis(Analysis& a) {
  trim(a.transient_histogram);
  count_cycles(a.n, a);
}

Analysis analyze(int n, Engine engine, const RunTarget& target, Progress* progress,
                 const BackwardOptions& backward) {
  if (engine == Engine::generic) return analyze_variant(n, Variant{}, target);
  if (n < 1 || n > analyze_max_n)
    throw UsageError(fmt::format("n = {} is out of range (1..{})", n, analyze_max_n));
  const auto start = std::chrono::steady_clock::now();
  const PartitionTable table(n);
  Analysis a;
  a.n = n;
  a.partitions = table.count();
  a.engine = engine;
  a.target = target;
  if (engine == Engine::backward)
    run_backward(n, target, progress, backward, a);
  else
    run_forward(table, target, a);
  finish_analysis(a);
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

}  // namespace piles::bulgarian
