#include "host/common/output.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

#include "host/common/provenance.hpp"

namespace piles {

namespace {

// Every float of an answer is a measurement (seconds, a rate, a mean): its last digits are noise.
void round_floats(nlohmann::json& j) {
  if (j.is_number_float())
    j = significant(j.get<double>());
  else if (j.is_structured())
    for (nlohmann::json& each : j) round_floats(each);
}

// The shortest decimal that reads back as `x` (fmt's is), still a float to a JSON reader.
std::string float_text(double x) {
  std::string text = fmt::format("{}", x);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string json_text(const nlohmann::json& j, int indent) {
  const std::string dumped = j.dump(indent);
  std::string text;
  text.reserve(dumped.size());
  for (std::size_t i = 0; i < dumped.size();) {
    const char c = dumped[i];
    if (c == '"') {  // a string, copied whole: digits inside it are not numbers
      std::size_t end = i + 1;
      while (dumped[end] != '"') end += dumped[end] == '\\' ? 2 : 1;
      text.append(dumped, i, end + 1 - i);
      i = end + 1;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t end =
          std::min(dumped.find_first_not_of("0123456789+-.eE", i), dumped.size());
      const std::string_view number(dumped.data() + i, end - i);
      double x = 0;
      if (number.find_first_of(".eE") == std::string_view::npos ||
          std::from_chars(number.data(), number.data() + number.size(), x).ec != std::errc())
        text += number;
      else
        text += float_text(x);
      i = end;
    } else {
      text += c;
      ++i;
    }
  }
  return text;
}

void emit_json(const nlohmann::json& object) {
  nlohmann::json answer = object;
  // An input echoed back (bulgarian random's probability p) keeps the digits it was given.
  const nlohmann::json p = answer.is_object() ? answer.value("p", nlohmann::json()) : nullptr;
  round_floats(answer);
  if (!p.is_null()) answer["p"] = p;
  // An answer's own fields win: a merge says "merge" for its backend, a bench record its device.
  const nlohmann::json fields = provenance();
  for (auto field = fields.begin(); field != fields.end(); ++field)
    if (!answer.contains(field.key())) answer[field.key()] = field.value();
  const std::string line = json_text(answer);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

std::string group_digits(std::uint64_t x) {
  return group_digits(std::to_string(x));
}

std::string group_digits(std::string_view digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string scientific(double x, int digits) {
  if (x < 1e4) return fmt::format("{:.0f}", x);
  const int exponent = static_cast<int>(std::floor(std::log10(x)));
  double mantissa = x / std::pow(10.0, exponent);
  return fmt::format("{:.{}g}e{}", mantissa, digits, exponent);
}

double significant(double x, int digits) {
  if (x == 0 || !std::isfinite(x)) return x;
  // Printed back through the shortest decimal that reads as the same double: 0.0001501.
  return std::stod(fmt::format("{:.{}e}", x, digits - 1));
}

double rounded(double x, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(x * scale) / scale;
}

}  // namespace piles
