#include "host/nim/bfile.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "host/common/error.hpp"

namespace piles::nim {

std::string bfile_lines(const std::vector<std::uint32_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += fmt::format("{} {}\n", i + 1, values[i]);
  return out;
}

std::vector<std::uint32_t> read_bfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError(fmt::format("{}: cannot be read ({})", path, std::strerror(errno)));
  std::vector<std::uint32_t> values;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::int64_t n = 0, value = -1;
    std::string rest;
    if (!(fields >> n >> value) || fields >> rest || value < 0 || value > UINT32_MAX ||
        n != static_cast<std::int64_t>(values.size()) + 1)
      throw UsageError(
          fmt::format("{} line {}: expected \"{} value\"", path, number, values.size() + 1));
    values.push_back(static_cast<std::uint32_t>(value));
  }
  if (in.bad())
    throw UsageError(fmt::format("{}: cannot be read ({})", path, std::strerror(errno)));
  return values;
}

}  // namespace piles::nim
