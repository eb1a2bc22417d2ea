#pragma once

#include <chrono>

namespace piles {

// Wall-clock seconds since `start`, the one clock every run and slice is timed with.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace piles
