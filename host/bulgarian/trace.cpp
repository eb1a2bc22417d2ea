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
  Trace t = play_until_repeat(start, advance, list);
  t.cards = std::accumulate(start.begin(), start.end(), std::int64_t{0});
  return t;
}

}  // namespace piles::bulgarian
