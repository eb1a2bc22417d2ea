#include "host/common/output.hpp"

#include <cstdio>

namespace piles {

void emit_json(const nlohmann::json& object) {
  const std::string line = object.dump();
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace piles
