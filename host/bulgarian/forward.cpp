#include "host/bulgarian/forward.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>

#include "core/bulgarian.hpp"
#include "host/common/error.hpp"

namespace piles::bulgarian {
namespace {

// Jumps of 2^rounds moves reach a cycle from everywhere once 2^rounds exceeds every transient.
int doubling_rounds(int n) {
  return std::bit_width(static_cast<unsigned>(2 * n + 2));
}

}  // namespace

void check_forward_size(int n, std::uint64_t memory, const char* where) {
  if (n > forward_wide_max_n)
    throw UsageError(fmt::format("n = {}: the forward engine takes n <= {}; use --engine backward",
                                 n, forward_wide_max_n));
  const std::uint64_t need = PartitionTable(n).count() * forward_bytes_per_partition(n);
  if (need > memory)
    throw UsageError(fmt::format(
        "n = {}: the forward engine needs {:.1f} GiB, more than the {:.1f} GiB of {}; use "
        "--engine backward",
        n, need / 1073741824.0, memory / 1073741824.0, where));
}

template <class Rank>
void level_passes(const std::vector<Rank>& succ, std::vector<std::uint16_t>& depth, int threads,
                  std::vector<std::uint64_t>& histogram) {
  const auto count = static_cast<std::int64_t>(succ.size());
  // A state set during a pass is at level d, never d-1, so reading it early or late decides the
  // same way.
  for (int level = 1;; ++level) {
    if (level >= unknown_depth) throw std::runtime_error("transient beyond 16-bit depths");
    std::uint64_t joined = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : joined)
    for (std::int64_t i = 0; i < count; ++i) {
      const std::uint16_t next =
          std::atomic_ref<std::uint16_t>(depth[succ[i]]).load(std::memory_order_relaxed);
      if (joins_level(depth[i], next, level)) {
        std::atomic_ref<std::uint16_t>(depth[i]).store(level, std::memory_order_relaxed);
        ++joined;
      }
    }
    if (joined == 0) return;
    histogram.push_back(joined);
  }
}

template <class Rank>
ForwardCounts forward_cpu_ranks(const PartitionTable& table, int threads) {
  const partition::CountView view = table.view();
  const auto count = static_cast<std::int64_t>(table.count());
  // Each level is a pass with a barrier; small graphs run faster without the barriers.
  threads = static_cast<int>(std::min<std::int64_t>(threads, 1 + count / (1 << 22)));
  ForwardCounts out;

  std::vector<Rank> succ(count), jump(count), scratch(count);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i) succ[i] = jump[i] = successor_rank<Rank>(view, i);

  for (int round = 1; round <= doubling_rounds(table.n()); ++round) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < count; ++i) scratch[i] = jump[jump[i]];
    std::swap(jump, scratch);
  }
  scratch = {};

  // B^(2^rounds) maps onto the cycles and permutes each cycle, so its image is every cycle
  // partition and nothing else.
  std::vector<std::uint16_t> depth(count, unknown_depth);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i)
    std::atomic_ref<std::uint16_t>(depth[jump[i]]).store(0, std::memory_order_relaxed);
  jump = {};

  std::vector<std::uint8_t> has_predecessor(count, 0);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < count; ++i)
    std::atomic_ref<std::uint8_t>(has_predecessor[succ[i]]).store(1, std::memory_order_relaxed);
  std::uint64_t orphans = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : orphans)
  for (std::int64_t i = 0; i < count; ++i) orphans += has_predecessor[i] == 0;
  out.garden_of_eden = orphans;
  has_predecessor = {};

  for (std::int64_t i = 0; i < count; ++i)
    if (depth[i] == 0) out.cycle_ranks.push_back(i);
  out.histogram.push_back(out.cycle_ranks.size());

  level_passes(succ, depth, threads, out.histogram);
  return out;
}

template ForwardCounts forward_cpu_ranks<std::uint32_t>(const PartitionTable&, int);
template ForwardCounts forward_cpu_ranks<std::uint64_t>(const PartitionTable&, int);
template void level_passes(const std::vector<std::uint32_t>&, std::vector<std::uint16_t>&, int,
                           std::vector<std::uint64_t>&);
template void level_passes(const std::vector<std::uint64_t>&, std::vector<std::uint16_t>&, int,
                           std::vector<std::uint64_t>&);

ForwardCounts forward_cpu(const PartitionTable& table, int threads) {
  return table.n() <= forward_max_n ? forward_cpu_ranks<std::uint32_t>(table, threads)
                                    : forward_cpu_ranks<std::uint64_t>(table, threads);
}

}  // namespace piles::bulgarian
