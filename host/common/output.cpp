#include "host/common/output.hpp"

#include <cmath>
#include <cstdio>

#include "host/common/provenance.hpp"

namespace piles {

void emit_json(const nlohmann::json& object) {
  nlohmann::json answer = object;
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
  const std::string digits = std::to_string(x);
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

double rounded(double x, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(x * scale) / scale;
}

}  // namespace piles
