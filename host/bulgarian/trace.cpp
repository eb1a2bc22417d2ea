#include "host/bulgarian/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "core/bulgarian.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"

namespace piles::bulgarian {
namespace {

// One move of p, `spare` holding the old parts afterwards.
void advance(std::vector<int>& p, std::vector<int>& spare) {
  spare.resize(p.size() + 1);
  spare.resize(bulgarian::move(p.data(), static_cast<int>(p.size()), spare.data()));
  std::swap(p, spare);
}

}  // namespace

std::vector<int> parse_partition(std::string_view text, std::int64_t max_cards) {
  const auto values = parse_int_list(text, "partition", 1, max_cards);
  std::int64_t total = 0;
  for (auto v : values) total += v;
  if (total > max_cards)
    throw UsageError(fmt::format("partition: '{}' has {} cards, at most {} are supported", text,
                                 total, max_cards));
  std::vector<int> parts(values.begin(), values.end());
  std::sort(parts.begin(), parts.end(), std::greater<>());
  return parts;
}

Trace trace(const std::vector<int>& start, bool list) {
  Trace t;
  t.start = start;
  t.cards = std::accumulate(start.begin(), start.end(), std::int64_t{0});
  std::vector<int> spare;
  // Brent: the hare runs ahead, the tortoise jumps to it at every power of two; they meet
  // once the power passes the cycle length and the tortoise is on the cycle.
  std::vector<int> tortoise = start, hare = start;
  advance(hare, spare);
  std::int64_t power = 1, lambda = 1;
  while (tortoise != hare) {
    if (power == lambda) {
      tortoise = hare;
      power *= 2;
      lambda = 0;
    }
    advance(hare, spare);
    ++lambda;
  }
  // Two walkers lambda moves apart meet first on the cycle's first partition.
  tortoise = hare = start;
  for (std::int64_t i = 0; i < lambda; ++i) advance(hare, spare);
  std::int64_t mu = 0;
  for (; tortoise != hare; ++mu) {
    advance(tortoise, spare);
    advance(hare, spare);
  }
  t.transient = mu;
  t.cycle_length = lambda;
  if (!list) return t;
  std::vector<int> p = start;
  for (std::int64_t i = 0; i < mu + lambda; ++i) {
    t.partitions.push_back(p);
    advance(p, spare);
  }
  if (lambda > 1) t.partitions.push_back(p);
  return t;
}

}  // namespace piles::bulgarian
