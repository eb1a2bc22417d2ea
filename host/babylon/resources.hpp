#pragma once

#include <cstdint>

namespace piles::babylon {

// The most resident memory this process has held so far, in bytes.
std::uint64_t peak_rss_bytes();

// Bytes in MiB, as memory figures are printed.
inline double mib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / (1 << 20);
}

}  // namespace piles::babylon
