#include "host/babylon/resources.hpp"

#include <sys/resource.h>

namespace piles::babylon {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace piles::babylon
