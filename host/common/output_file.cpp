#include "host/common/output_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "host/common/error.hpp"

namespace piles {

void write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  if (!out.write(text.data(), static_cast<std::streamsize>(text.size())).flush())
    throw std::runtime_error(fmt::format("{}: cannot be written", path.string()));
}

OutputFile::OutputFile(std::string path, const std::string& option) : path_(std::move(path)) {
  if (path_.empty()) return;
  std::error_code ec;
  const bool existed = std::filesystem::exists(path_, ec);
  // Appending opens the file for writing without emptying it.
  if (!std::ofstream(path_, std::ios::app))
    throw UsageError(fmt::format("{} {}: cannot be written", option, path_));
  if (!existed) std::filesystem::remove(path_, ec);
}

}  // namespace piles
