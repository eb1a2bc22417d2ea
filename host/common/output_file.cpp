#include "host/common/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "host/common/error.hpp"

namespace piles {

void write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  const bool written =
      out && std::fwrite(text.data(), 1, text.size(), out) == text.size() && std::fflush(out) == 0;
  const int error = errno;
  if (out && std::fclose(out) != 0 && written)
    throw std::runtime_error(
        fmt::format("{}: cannot be written ({})", path.string(), std::strerror(errno)));
  if (!written)
    throw std::runtime_error(
        fmt::format("{}: cannot be written ({})", path.string(), std::strerror(error)));
}

OutputFile::OutputFile(std::string path, const std::string& option) : path_(std::move(path)) {
  if (path_.empty()) return;
  std::error_code ec;
  const bool existed = std::filesystem::exists(path_, ec);
  // Appending opens the file for writing without emptying it.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    throw UsageError(
        fmt::format("{} {}: cannot be written ({})", option, path_, std::strerror(errno)));
  ::close(fd);
  if (!existed) std::filesystem::remove(path_, ec);
}

}  // namespace piles
