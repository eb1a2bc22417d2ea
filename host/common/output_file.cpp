#include "host/common/output_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "host/common/error.hpp"

namespace piles {

OutputFile::OutputFile(std::string path, std::string option)
    : path_(std::move(path)), option_(std::move(option)) {
  if (path_.empty()) return;
  std::error_code ec;
  const bool existed = std::filesystem::exists(path_, ec);
  // Appending opens the file for writing without emptying it.
  if (!std::ofstream(path_, std::ios::app))
    throw UsageError(fmt::format("{} {}: cannot be written", option_, path_));
  if (!existed) std::filesystem::remove(path_, ec);
}

void OutputFile::write(std::string_view text) const {
  std::ofstream out(path_, std::ios::binary);
  if (!out.write(text.data(), static_cast<std::streamsize>(text.size())).flush())
    throw std::runtime_error(fmt::format("{} {}: cannot be written", option_, path_));
}

}  // namespace piles
