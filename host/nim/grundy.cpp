#include "host/nim/grundy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/nim.hpp"
#include "host/common/error.hpp"

namespace piles::nim {
namespace {

void check_arguments(std::int64_t k, int upto) {
  check_k(k);
  if (upto < 1 || upto > max_upto(k))
    throw UsageError(
        fmt::format("--upto: {} is out of range (1..{} for k = {})", upto, max_upto(k), k));
}

}  // namespace

void check_k(std::int64_t k) {
  if (k < 2) throw UsageError(fmt::format("--k: {} is below 2 (a move makes at least 2 piles)", k));
}

int max_upto(std::int64_t k) {
  return k == 3 ? max_upto_k3 : max_upto_closed_form;
}

std::uint32_t grundy_closed_form(std::int64_t k, std::int64_t i) {
  return static_cast<std::uint32_t>(k == 2 ? (i + 1) % 2 : i - 1);
}

std::vector<std::uint32_t> grundy_values(std::int64_t k, int upto, int threads,
                                         Progress* progress) {
  check_arguments(k, upto);
  if (k == 3) return grundy_three(upto, threads, progress);
  std::vector<std::uint32_t> values(upto);
  for (int i = 1; i <= upto; ++i) values[i - 1] = grundy_closed_form(k, i);
  return values;
}

std::vector<std::uint32_t> grundy_by_definition(std::int64_t k, int upto) {
  std::vector<std::uint32_t> g(upto + 1, 0);  // g[i] = G_k(i); g[0] is unused
  std::vector<int> parts(upto);
  for (int i = 2; i <= upto; ++i) {
    std::vector<bool> seen(1);
    each_split(i, i - 1, k, parts.data(), 0, [&](const int* split, int len) {
      std::uint32_t x = 0;
      for (int j = 0; j < len; ++j) x ^= g[split[j]];
      if (x >= seen.size()) seen.resize(2 * x + 2);
      seen[x] = true;
    });
    std::uint32_t mex = 0;
    while (mex < seen.size() && seen[mex]) ++mex;
    g[i] = mex;
  }
  return {g.begin() + 1, g.end()};
}

}  // namespace piles::nim
