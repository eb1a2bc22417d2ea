#include "host/bulgarian/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/bulgarian.hpp"
#include "host/common/error.hpp"
#include "host/common/output.hpp"
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

void check_longest_transient(int n, const std::vector<std::uint64_t>& histogram,
                             const std::vector<int>& deepest, std::string_view engine) {
  std::size_t depths = histogram.size();
  while (depths > 0 && histogram[depths - 1] == 0) --depths;
  if (depths == 0) return;
  const std::int64_t longest = static_cast<std::int64_t>(depths) - 1;
  const auto refuse = [&](const std::string& why) {
    throw std::runtime_error(
        fmt::format("n = {}: the GPU {} engine's longest transient of {} moves fails its replay "
                    "on the host: {}",
                    n, engine, longest, why));
  };
  const bool partition_of_n =
      !deepest.empty() && std::is_sorted(deepest.begin(), deepest.end(), std::greater<>()) &&
      deepest.back() > 0 && std::accumulate(deepest.begin(), deepest.end(), std::int64_t{0}) == n;
  if (!partition_of_n)
    refuse(fmt::format("its deepest partition {} is not a partition of n", paren_list(deepest)));
  const std::int64_t moves = trace(deepest, false).transient;
  if (moves != longest)
    refuse(fmt::format("its deepest partition {} reaches its cycle in {} moves",
                       paren_list(deepest), moves));
}

}  // namespace piles::bulgarian
