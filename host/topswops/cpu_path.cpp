#include "host/topswops/cpu_path.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string_view>

#include "core/topswops.hpp"
#include "host/common/error.hpp"

namespace piles::topswops {
namespace {

#ifdef PILES_TOPSWOPS_SSE
constexpr bool has_vector = true;
#else
constexpr bool has_vector = false;
#endif

CpuPath read_path() {
  const char* value = std::getenv(cpu_path_variable);
  if (value == nullptr || *value == '\0') return has_vector ? CpuPath::vector : CpuPath::portable;
  const std::string_view text = value;
  if (text == "portable") return CpuPath::portable;
  if (text == "vector" && has_vector) return CpuPath::vector;
  if (text == "vector")
    throw UsageError(fmt::format("{}: this build has no vector path (it needs an x86-64-v2 build)",
                                 cpu_path_variable));
  throw UsageError(
      fmt::format("{}: '{}' is not a path (vector | portable)", cpu_path_variable, text));
}

}  // namespace

CpuPath cpu_path() {
  static const CpuPath path = read_path();
  return path;
}

std::string cpu_path_text() {
  return cpu_path() == CpuPath::vector
             ? "vector (a deck in SSE registers, one up to 16 cards and two up to 24)"
             : "portable (a deck in packed 64-bit words, as on the GPU)";
}

}  // namespace piles::topswops
