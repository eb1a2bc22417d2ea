#include "host/bulgarian/successor.hpp"

#include <omp.h>

#include "core/bulgarian.hpp"

namespace piles::bulgarian {

std::vector<std::uint64_t> successors_cpu(const PartitionTable& table, std::uint64_t first,
                                          std::uint64_t count, int threads) {
  using partition::part_t;
  std::vector<std::uint64_t> out(count);
  const partition::CountView view = table.view();
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<part_t> parts(view.n + 1), next(view.n + 2);
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
      const int len = partition::unrank(view, first + i, parts.data());
      const int next_len = bulgarian::move(parts.data(), len, next.data());
      out[i] = partition::rank(view, next.data(), next_len);
    }
  }
  return out;
}

}  // namespace piles::bulgarian
