#pragma once

// What the fuzz targets share: their inputs as files, journals with their checksums made
// right, and a check that stops the run with a message when a property fails.

#include <unistd.h>

#include <boost/crc.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace piles::fuzz {

// A failed property is a finding like a crash: libFuzzer keeps the input that caused it.
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "property failed: %s\n", what);
  std::abort();
}

inline std::filesystem::path scratch_dir() {
  return std::filesystem::temp_directory_path() / ("piles_fuzz_" + std::to_string(getpid()));
}

// A file in a folder of this process's own, so that fuzzers run side by side do not collide;
// the folder goes when the process exits normally.
inline std::filesystem::path scratch(const std::string& name) {
  [[maybe_unused]] static const bool made = [] {
    std::filesystem::create_directories(scratch_dir());
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return true;
  }();
  return scratch_dir() / name;
}

inline void write_file(const std::filesystem::path& path, std::string_view data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(data.data(), data.size());
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The journal with every complete line's checksum made right: a line ending in 8 hex digits
// gets them replaced, any other line gets a checksum appended. A fuzzer almost never guesses a
// CRC-32, so without this it would only ever meet the checksum check; the raw input covers
// that check.
inline std::string fix_checksums(std::string_view text) {
  std::string fixed;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) {
      fixed += text.substr(pos);  // a cut-short last line stays as it is
      break;
    }
    std::string_view body = text.substr(pos, newline - pos);
    const std::size_t space = body.rfind(' ');
    if (space != std::string_view::npos && body.size() - space == 9 &&
        body.substr(space + 1).find_first_not_of("0123456789abcdef") == std::string_view::npos)
      body = body.substr(0, space);
    boost::crc_32_type crc;
    crc.process_bytes(body.data(), body.size());
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x", static_cast<unsigned>(crc.checksum()));
    fixed.append(body).append(" ").append(digits).append("\n");
    pos = newline + 1;
  }
  return fixed;
}

}  // namespace piles::fuzz
