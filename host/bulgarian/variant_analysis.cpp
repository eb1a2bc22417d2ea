#include "host/bulgarian/variant_analysis.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/bulgarian_games.hpp"
#include "host/bulgarian/generic.hpp"
#include "host/common/error.hpp"
#include "host/common/partition_table.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/bulgarian_forward.hpp"
#include "kernels/bulgarian_generic.hpp"
#endif

namespace piles::bulgarian {
namespace {

std::uint64_t host_memory() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
}

template <class Game>
void run_game(const Game& game, const RunTarget& target, Analysis& a) {
  a.partitions = game.count();
  if (a.partitions >= generic_max_states)
    throw UsageError(fmt::format("n = {}, --variant {}: {} states are beyond 32-bit ranks", a.n,
                                 a.variant.empty() ? "plain" : a.variant, a.partitions));
  const bool gpu = target.backend == Backend::gpu;
  std::uint64_t memory = host_memory() / 2;
#ifdef PILES_HAVE_CUDA
  if (gpu) memory = gpu::free_device_memory();
#endif
  if (a.partitions * generic_bytes_per_state > memory)
    throw UsageError(
        fmt::format("n = {}: the generic engine needs {:.1f} GiB, more than the "
                    "{:.1f} GiB of {}",
                    a.n, a.partitions * generic_bytes_per_state / 1073741824.0,
                    memory / 1073741824.0, gpu ? "free GPU memory" : "half the host memory"));
  ForwardCounts counts;
#ifdef PILES_HAVE_CUDA
  if (gpu) counts = gpu::generic_forward(game);
#endif
  if (!gpu) counts = generic_cpu(game, target.threads);
  std::uint64_t placed = 0;
  for (const std::uint64_t c : counts.histogram) placed += c;
  if (placed != a.partitions)
    throw std::runtime_error(fmt::format("n = {}: the generic engine placed {} states, not {}", a.n,
                                         placed, a.partitions));
  a.transient_histogram = std::move(counts.histogram);
  a.garden_of_eden = counts.garden_of_eden;
  a.cycle_ranks = std::move(counts.cycle_ranks);
  count_cycles(game, a);
}

// a * b, or the cap where it would reach it: the product is capped before it can wrap.
std::uint64_t capped_product(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return tuple_count_cap;
  return std::min(tuple_count_cap, product);
}

}  // namespace

std::vector<std::uint64_t> tuple_table(int n, int players) {
  std::vector<std::uint64_t> t((players + 1) * (n + 1), 0);
  t[0] = 1;
  for (int j = 1; j <= players; ++j)
    for (int m = 0; m <= n; ++m) {
      std::uint64_t sum = 0;
      for (int k = 0; k <= m; ++k)
        sum = std::min(tuple_count_cap,
                       sum + capped_product(partition_count(k), t[(j - 1) * (n + 1) + m - k]));
      t[j * (n + 1) + m] = sum;
    }
  return t;
}

int variant_max_n(const Variant& v) {
  if (v.kind == VariantKind::montreal)
    throw UsageError(
        "--variant montreal: the rows of n cards are no finite set (any number of empty "
        "positions), so only trace takes it");
  return v.kind == VariantKind::carolina ? carolina_max_n : forward_max_n;
}

Analysis analyze_variant(int n, const Variant& v, const RunTarget& target) {
  const int max_n = variant_max_n(v);
  if (n < 1 || n > max_n)
    throw UsageError(
        fmt::format("n = {} is out of range (1..{}) for --variant {}", n, max_n, v.name()));
  const auto start = std::chrono::steady_clock::now();
  Analysis a;
  a.n = n;
  a.variant = v.is_plain() ? "" : v.name();
  a.engine = Engine::generic;
  a.target = target;
  const PartitionTable table(n);
  switch (v.kind) {
    case VariantKind::plain:
      run_game(PlainGame{table.view()}, target, a);
      break;
    case VariantKind::carolina:
      run_game(CarolinaGame{n}, target, a);
      break;
    case VariantKind::multiplayer: {
      const std::vector<std::uint64_t> tuples = tuple_table(n, v.players);
      run_game(MultiplayerGame{table.view(), tuples.data(), v.players}, target, a);
      break;
    }
    case VariantKind::austrian:
      run_game(AustrianGame{table.view(), v.limit}, target, a);
      break;
    case VariantKind::montreal:
      break;
  }
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

}  // namespace piles::bulgarian
