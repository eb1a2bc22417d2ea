#include "host/common/slices.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

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
  rate_ = rate;
  const double grown = 4.0 * std::max<std::uint64_t>(units, 1);
  const double wanted = rate > 0 ? std::min(rate * target_seconds_, grown) : grown;
  next_ = std::max(floor_, static_cast<std::uint64_t>(std::max(1.0, std::floor(wanted))));
}

std::uint64_t SliceSizer::wanted() const {
  if (!deadline_ || rate_ <= 0) return next_;
  const double fits = std::floor(rate_ * std::max(0.0, *deadline_ - clock_()));
  if (fits >= static_cast<double>(next_)) return next_;
  return std::max(floor_, static_cast<std::uint64_t>(fits));
}

namespace {

// The items not taken yet; take() hands out the next batch for one sizer.
class SliceQueue {
 public:
  SliceQueue(const std::vector<std::uint64_t>& items, const Weight& weight)
      : items_(items), weight_(weight) {}

  // The next batch for `sizer` and its weight; empty when every item is taken.
  std::vector<std::uint64_t> take(const SliceSizer& sizer, std::uint64_t& units) {
    std::vector<std::uint64_t> batch;
    units = 0;
    const std::uint64_t wanted = sizer.wanted();
    while (next_ < items_.size() &&
           (units < sizer.floor() || units + weight_(items_[next_]) <= wanted)) {
      units += weight_(items_[next_]);
      batch.push_back(items_[next_++]);
    }
    return batch;
  }
  bool empty() const { return next_ == items_.size(); }

 private:
  const std::vector<std::uint64_t>& items_;
  const Weight& weight_;
  std::size_t next_ = 0;
};

}  // namespace

bool run_in_slices(const std::vector<std::uint64_t>& items, const Weight& weight, SliceSizer& sizer,
                   const std::function<void(const std::vector<std::uint64_t>&)>& run,
                   const std::function<bool()>& stop) {
  SliceQueue queue(items, weight);
  for (std::uint64_t units = 0; !queue.empty();) {
    if (stop && stop()) return false;
    const std::vector<std::uint64_t> batch = queue.take(sizer, units);
    const double start = sizer.now();
    run(batch);
    sizer.record(units, sizer.now() - start);
  }
  return true;
}

bool run_in_slices_on(const std::vector<std::uint64_t>& items, const Weight& weight,
                      std::vector<SliceSizer>& sizers,
                      const std::function<void(int worker, const std::vector<std::uint64_t>&)>& run,
                      const std::function<bool()>& stop) {
  SliceQueue queue(items, weight);
  std::mutex mutex;  // the queue, `stop` and the ending
  bool stopped = false, ended = false;
  std::exception_ptr failure;
  const auto work = [&](int w) {
    SliceSizer& sizer = sizers[w];
    for (;;) {
      std::vector<std::uint64_t> batch;
      std::uint64_t units = 0;
      {
        const std::lock_guard lock(mutex);
        if (!ended && !queue.empty() && stop && stop()) ended = stopped = true;
        if (!ended) batch = queue.take(sizer, units);
        if (batch.empty()) return;
      }
      const double start = sizer.now();
      try {
        run(w, batch);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        ended = true;
        return;
      }
      sizer.record(units, sizer.now() - start);
    }
  };
  std::vector<std::jthread> threads;
  for (int w = 1; w < static_cast<int>(sizers.size()); ++w) threads.emplace_back(work, w);
  work(0);
  threads.clear();  // joins
  if (failure) std::rethrow_exception(failure);
  return !stopped;
}

}  // namespace piles
