#pragma once

#include <cstdint>

namespace piles::babylon {

// The most resident memory this process has held so far, in bytes.
std::uint64_t peak_rss_bytes();

}  // namespace piles::babylon
