#include "host/common/output.hpp"

#include <cmath>
#include <cstdio>
#include <string>

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

}  // namespace

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
  const std::string line = answer.dump();
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
