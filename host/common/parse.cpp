#include "host/common/parse.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <limits>

#include "host/common/error.hpp"

namespace piles {
namespace {

// Edits (insert, delete, substitute, swap two neighbours) that turn a into b.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string nearest(std::string_view word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& name : names) {
    const std::size_t d = distance(word, name);
    if (d < best_distance) best = name, best_distance = d;
  }
  return best;
}

std::string not_one_of(std::string_view value, const std::vector<std::string>& names) {
  const std::string near = nearest(value, names);
  return fmt::format("'{}' is not one of {}{}", value, fmt::join(names, ", "),
                     near.empty() ? "" : fmt::format("; did you mean {}?", near));
}

std::string parse_choice(std::string_view value, std::string_view what,
                         const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), value) == names.end())
    throw UsageError(fmt::format("{}: {}", what, not_one_of(value, names)));
  return std::string(value);
}

std::int64_t parse_int(std::string_view text, std::string_view what, std::int64_t lo,
                       std::int64_t hi) {
  if (text.empty()) throw UsageError(fmt::format("{}: empty value", what));
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  // from_chars takes no '+', so one is skipped here, but not before a '-': "+-7" is no integer.
  const bool plus = text.front() == '+' && (text.size() == 1 || text[1] != '-');
  auto [ptr, ec] = std::from_chars(text.data() + plus, end, value);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && ptr == end && (value < lo || value > hi)))
    throw UsageError(hi == std::numeric_limits<std::int64_t>::max()
                         ? fmt::format("{}: '{}' is out of range (at least {})", what, text, lo)
                         : fmt::format("{}: '{}' is out of range ({}..{})", what, text, lo, hi));
  if (ec != std::errc() || ptr != end)
    throw UsageError(fmt::format("{}: '{}' is not an integer", what, text));
  return value;
}

std::vector<std::int64_t> parse_int_list(std::string_view text, std::string_view what,
                                         std::int64_t lo, std::int64_t hi) {
  constexpr std::string_view blank = " \t\n", separators = ", \t\n";
  if (text.find_first_not_of(blank) == std::string_view::npos)
    throw UsageError(fmt::format("{}: empty list", what));
  std::vector<std::int64_t> values;
  bool after_comma = true;  // an item must come next (at the start too)
  for (std::size_t at = 0;;) {
    at = std::min(text.size(), text.find_first_not_of(blank, at));
    const bool comma = at < text.size() && text[at] == ',';
    if ((at == text.size() || comma) && after_comma)
      throw UsageError(fmt::format("{}: empty entry in '{}'", what, text));
    if (at == text.size()) return values;
    if (comma) {
      after_comma = true;
      ++at;
      continue;
    }
    const std::size_t end = std::min(text.size(), text.find_first_of(separators, at));
    values.push_back(parse_int(text.substr(at, end - at), what, lo, hi));
    after_comma = false;
    at = end;
  }
}

IntRange parse_int_range(std::string_view text, std::string_view what, std::int64_t lo,
                         std::int64_t hi) {
  const std::size_t dots = text.find("..");
  if (dots == std::string_view::npos) {
    const std::int64_t n = parse_int(text, what, lo, hi);
    return {n, n};
  }
  const IntRange r{parse_int(text.substr(0, dots), what, lo, hi),
                   parse_int(text.substr(dots + 2), what, lo, hi)};
  if (r.first > r.last) throw UsageError(fmt::format("{}: empty range '{}'", what, text));
  return r;
}

double parse_seconds(std::string_view text, std::string_view what) {
  double seconds = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, seconds);
  if (text.empty() || ec != std::errc() || ptr != end || !(seconds > 0) || seconds > 1e9)
    throw UsageError(fmt::format("{}: '{}' is not a positive number of seconds", what, text));
  return seconds;
}

}  // namespace piles
