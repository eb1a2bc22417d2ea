#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace piles {

// One JSON object per line on stdout (DESIGN.md section 9), with the provenance fields
// (host/common/provenance.hpp) that the object does not set itself.
void emit_json(const nlohmann::json& object);

// `j.dump(indent)` with every float in its shortest decimal form: nlohmann-json's printer is
// not always shortest (0.006035 comes out as 0.0060350000000000004).
std::string json_text(const nlohmann::json& j, int indent = -1);

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
// The same for a count of any size given as its decimal digits (a GMP count's get_str()).
std::string group_digits(std::string_view digits);

// "3.4e13": a large estimate with `digits` significant digits, as a reader writes it (below
// 10,000 a whole number: "160").
std::string scientific(double x, int digits = 2);

// `x` to `digits` decimals, for JSON figures that measure no finer (seconds, ratios).
double rounded(double x, int digits);

// `x` to `digits` significant digits: what a measured figure (seconds, a rate) is worth.
// emit_json writes every float of an answer so.
double significant(double x, int digits = 4);

// "1 start", "2 starts", "1,024 chunks": a count, grouped, with its noun agreeing.
template <class Count>
std::string plural(Count count, const char* noun) {
  return fmt::format("{} {}{}", group_digits(static_cast<std::uint64_t>(count)), noun,
                     count == 1 ? "" : "s");
}

}  // namespace piles
