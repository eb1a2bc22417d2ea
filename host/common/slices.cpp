#include "host/common/slices.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "host/common/clock.hpp"

namespace piles {

SliceSizer::SliceSizer(double seconds, std::uint64_t first, std::uint64_t floor)
    : target_seconds_(seconds),
      floor_(std::max<std::uint64_t>(floor, 1)),
      next_(std::max(first, floor_)) {}

void SliceSizer::record(std::uint64_t units, double seconds) {
  units_done_ += units;
  seconds_spent_ += seconds;
  const double rate = seconds_spent_ > 0 ? units_done_ / seconds_spent_ : 0;
  const double grown = 4.0 * std::max<std::uint64_t>(units, 1);
  const double wanted = rate > 0 ? std::min(rate * target_seconds_, grown) : grown;
  next_ = std::max(floor_, static_cast<std::uint64_t>(std::max(1.0, std::floor(wanted))));
}

bool run_in_slices(const std::vector<std::uint64_t>& items,
                   const std::function<std::uint64_t(std::uint64_t)>& weight, SliceSizer& sizer,
                   const std::function<void(const std::vector<std::uint64_t>&)>& run,
                   const std::function<bool()>& stop) {
  std::vector<std::uint64_t> batch;
  for (std::size_t i = 0; i < items.size();) {
    if (stop && stop()) return false;
    batch.clear();
    std::uint64_t units = 0;
    while (i < items.size() && (batch.empty() || units + weight(items[i]) <= sizer.next())) {
      units += weight(items[i]);
      batch.push_back(items[i++]);
    }
    const auto start = std::chrono::steady_clock::now();
    run(batch);
    sizer.record(units, seconds_since(start));
  }
  return true;
}

}  // namespace piles
