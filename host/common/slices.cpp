#include "host/common/slices.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace piles {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SliceSizer::SliceSizer(double seconds, std::uint64_t first, std::uint64_t floor, Clock clock)
    : target_seconds_(seconds),
      floor_(std::max<std::uint64_t>(floor, 1)),
      next_(std::max(first, floor_)),
      clock_(std::move(clock)) {}

void SliceSizer::record(std::uint64_t units, double seconds) {
  history_.push_back({next_, units, seconds});
  // The rate of the recent slices, each weighing half as much with every slice after it, and
  // never above the last slice's: the rate of the whole run would lag a change of cost (a later
  // round, an expensive first item) for as long as the run had gone, and a slowdown overshoots
  // far more than a speed-up undershoots, so it is followed at once.
  recent_units_ = recent_units_ / 2 + units;
  recent_seconds_ = recent_seconds_ / 2 + seconds;
  double rate = recent_seconds_ > 0 ? recent_units_ / recent_seconds_ : 0;
  if (seconds > 0) rate = std::min(rate, units / seconds);
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
    while (i < items.size() &&
           (units < sizer.floor() || units + weight(items[i]) <= sizer.next())) {
      units += weight(items[i]);
      batch.push_back(items[i++]);
    }
    const double start = sizer.now();
    run(batch);
    sizer.record(units, sizer.now() - start);
  }
  return true;
}

}  // namespace piles
