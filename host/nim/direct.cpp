#include "host/nim/direct.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "core/nim.hpp"
#include "host/common/error.hpp"
#include "host/nim/grundy.hpp"

namespace piles::nim {
namespace {

using partition::part_t;

// Value of the position with parts[0..len) (non-increasing). A split only replaces a pile by
// smaller ones, so every position it reaches comes earlier in lexicographic order: its value
// is already known when positions are solved in rank order.
std::uint32_t solve_position(const DirectSolution& solved, const std::vector<part_t>& parts,
                             std::int64_t k) {
  const partition::CountView view = solved.table.view();
  std::vector<bool> seen;
  std::vector<int> split(solved.table.n());  // a split of n stones has at most n parts
  std::vector<part_t> rest, next;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] < 2 || (i > 0 && parts[i] == parts[i - 1])) continue;  // each pile size once
    rest = parts;
    rest.erase(rest.begin() + i);
    each_split(parts[i], parts[i] - 1, k, split.data(), 0, [&](const int* pieces, int len) {
      next.resize(rest.size() + len);
      std::merge(rest.begin(), rest.end(), pieces, pieces + len, next.begin(), std::greater<>());
      const std::uint32_t value =
          solved.values[partition::rank(view, next.data(), static_cast<int>(next.size()))];
      if (value >= seen.size()) seen.resize(value + 1);
      seen[value] = true;
    });
  }
  std::uint32_t mex = 0;
  while (mex < seen.size() && seen[mex]) ++mex;
  return mex;
}

}  // namespace

std::uint64_t DirectSolution::winning() const {
  return values.size() - std::count(values.begin(), values.end(), 0u);
}

DirectSolution solve_directly(int n, std::int64_t k) {
  if (n < 1 || n > max_direct_n)
    throw UsageError(
        fmt::format("N: {} is out of range for the direct search (1..{})", n, max_direct_n));
  check_k(k);
  DirectSolution solved{PartitionTable(n), {}};
  const std::uint64_t positions = solved.table.count();
  solved.values.resize(positions);
  std::vector<part_t> parts(n);
  for (std::uint64_t r = 0; r < positions; ++r) {
    parts.resize(n);
    parts.resize(partition::unrank(solved.table.view(), r, parts.data()));
    solved.values[r] = solve_position(solved, parts, k);
  }
  return solved;
}

}  // namespace piles::nim
