#include "host/bulgarian/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "core/bulgarian.hpp"
#include "core/partition.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"

namespace piles::bulgarian {

using partition::part_t;

std::vector<int> parse_partition(std::string_view text) {
  const auto values = parse_int_list(text, "partition", 1, partition::max_n);
  std::int64_t total = 0;
  for (auto v : values) total += v;
  if (total > partition::max_n)
    throw UsageError(fmt::format("partition: '{}' has {} cards, at most {} are supported", text,
                                 total, partition::max_n));
  std::vector<int> parts(values.begin(), values.end());
  std::sort(parts.begin(), parts.end(), std::greater<>());
  return parts;
}

Trace trace(const std::vector<int>& start) {
  Trace t;
  t.start = start;
  std::map<std::vector<int>, int> seen;  // partition -> index in the trace
  std::vector<part_t> cur(start.begin(), start.end()), next;
  while (true) {
    std::vector<int> as_int(cur.begin(), cur.end());
    if (auto it = seen.find(as_int); it != seen.end()) {
      t.transient = it->second;
      t.cycle_length = static_cast<int>(t.partitions.size()) - it->second;
      if (t.cycle_length > 1) t.partitions.push_back(std::move(as_int));
      return t;
    }
    seen.emplace(as_int, static_cast<int>(t.partitions.size()));
    t.partitions.push_back(std::move(as_int));
    next.resize(cur.size() + 1);
    next.resize(bulgarian::move(cur.data(), static_cast<int>(cur.size()), next.data()));
    std::swap(cur, next);
  }
}

}  // namespace piles::bulgarian
