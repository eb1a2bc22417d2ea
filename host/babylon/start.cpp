#include "host/babylon/start.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"

namespace piles::babylon {

int max_start_chips(int colours) {
  return std::min(max_chips, (key_bits<Bits256> - colours) / 2);
}

std::vector<int> parse_counts(const std::vector<std::string>& args) {
  std::vector<int> counts;
  for (const std::string& arg : args)
    for (const std::int64_t c : parse_int_list(arg, "chip count", 1, max_chips))
      counts.push_back(static_cast<int>(c));
  check_start(counts);
  return counts;
}

void check_start(const std::vector<int>& counts) {
  const int colours = static_cast<int>(counts.size());
  if (colours < 2)
    throw UsageError(
        fmt::format("need chips of at least two colours, got {}", plural(colours, "colour")));
  if (colours > max_colours)
    throw UsageError(fmt::format("{} colours: at most {} are supported", colours, max_colours));
  for (const int c : counts)
    if (c < 1) throw UsageError(fmt::format("chip count: '{}' is not positive", c));
  const int chips = std::accumulate(counts.begin(), counts.end(), 0);
  if (chips > max_start_chips(colours))
    throw UsageError(fmt::format("{} chips in {} colours: at most {} fit the position key", chips,
                                 colours, max_start_chips(colours)));
}

Position start_position(const std::vector<int>& counts) {
  Position p;
  p.colours = static_cast<int>(counts.size());
  for (int c = 0; c < p.colours; ++c)
    for (int i = 0; i < counts[c]; ++i) p.colour[c].add(1);
  return p;
}

std::string colour_name(int colour) {
  return std::string(1, static_cast<char>('A' + colour));
}

std::vector<std::vector<int>> table_starts(int colours, int max_chips) {
  std::vector<std::vector<int>> starts;
  std::vector<int> counts(colours);
  // Non-decreasing counts with the given total, smallest first.
  const std::function<void(int, int, int)> fill = [&](int i, int low, int left) {
    if (i == colours - 1) {
      if (left >= low) {
        counts[i] = left;
        starts.push_back(counts);
      }
      return;
    }
    for (int c = low; c * (colours - i) <= left; ++c) {
      counts[i] = c;
      fill(i + 1, c, left - c);
    }
  };
  for (int total = colours; total <= max_chips; ++total) fill(0, 1, total);
  return starts;
}

bool theorem_second_wins(int p, int q) {
  return (p + q) % 2 == 0 && std::min(p, q) >= 3;
}

}  // namespace piles::babylon
