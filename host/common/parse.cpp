#include "host/common/parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "host/common/error.hpp"

namespace piles {

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
    throw UsageError(fmt::format("{}: '{}' is out of range ({}..{})", what, text, lo, hi));
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
