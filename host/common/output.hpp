#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace piles {

// One JSON object per line on stdout (DESIGN.md section 9), with the provenance fields
// (host/common/provenance.hpp) that the object does not set itself.
void emit_json(const nlohmann::json& object);

// "3,1,4,5,2": the form lists are written in on the command line.
template <class T>
std::string comma_list(const std::vector<T>& values) {
  return fmt::format("{}", fmt::join(values, ","));
}

// "(4, 3, 1, 1)": the form partitions are printed in.
template <class T>
std::string paren_list(const std::vector<T>& values) {
  return fmt::format("({})", fmt::join(values, ", "));
}

// "1,035,443,218": a count with its thousands grouped, as every game's text prints counts.
std::string group_digits(std::uint64_t x);

// "3.4e13": a large estimate with `digits` significant digits, as a reader writes it (below
// 10,000 a whole number: "160").
std::string scientific(double x, int digits = 2);

// `x` to `digits` decimals, for JSON figures that measure no finer (seconds, ratios).
double rounded(double x, int digits);

// "1 start", "2 starts": a count with its noun agreeing.
template <class Count>
std::string plural(Count count, const char* noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

}  // namespace piles
