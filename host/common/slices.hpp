#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace piles {

// Seconds on some clock that only moves forward: slices are timed by it, so that a test can
// drive the sizing with a clock of its own.
using Clock = std::function<double()>;
double steady_seconds();  // the steady clock every run is timed with

// One slice as run: the units the sizer asked for, those it held and the seconds it took.
struct SliceTime {
  std::uint64_t planned = 0, units = 0;
  double seconds = 0;
};

// Long runs go to an engine in slices of about `seconds` each (DESIGN.md section 11): no
// engine call, and so no kernel launch, holds unbounded work, the progress bar and the journal
// move after every slice, and a kill loses at most one slice. A slice is measured in the
// caller's units of work (prefixes, chain steps); the first holds `first` units, each later one
// follows the rate of the recent slices (at most four times the slice before it, so a cheap
// start does not make a huge second slice), and none is smaller than `floor`, the least that
// keeps the engine busy.
class SliceSizer {
 public:
  SliceSizer(double seconds, std::uint64_t first, std::uint64_t floor = 1,
             Clock clock = steady_seconds);

  std::uint64_t next() const { return next_; }
  std::uint64_t floor() const { return floor_; }
  double now() const { return clock_(); }
  void record(std::uint64_t units, double seconds);
  const std::vector<SliceTime>& history() const { return history_; }

 private:
  double target_seconds_;
  std::uint64_t floor_, next_;
  Clock clock_;
  double recent_units_ = 0, recent_seconds_ = 0;
  std::vector<SliceTime> history_;
};

using Weight = std::function<std::uint64_t(std::uint64_t)>;

// Runs `items` in order, in consecutive batches whose total weight is about sizer.next(): at
// least one item and at least the sizer's floor while items are left, and beyond the floor no
// more than next(). Each batch is timed by the sizer's clock into the sizer. Before each batch
// `stop` is asked whether to end early; returns false if it did.
bool run_in_slices(const std::vector<std::uint64_t>& items, const Weight& weight, SliceSizer& sizer,
                   const std::function<void(const std::vector<std::uint64_t>&)>& run,
                   const std::function<bool()>& stop = {});

// The same with several workers at once (one per GPU of a node), each with its own sizer: a
// worker that frees up takes the next consecutive batch its sizer asks for, so a faster device
// takes larger slices and every slice still holds about the same seconds. run(worker, batch)
// runs on that worker's thread; `stop` is asked (by one worker at a time) before each batch.
// The first exception a worker throws ends the run: the others finish the batch they hold and
// take no more, and it is rethrown here. Returns false if `stop` ended the run.
bool run_in_slices_on(const std::vector<std::uint64_t>& items, const Weight& weight,
                      std::vector<SliceSizer>& sizers,
                      const std::function<void(int worker, const std::vector<std::uint64_t>&)>& run,
                      const std::function<bool()>& stop = {});

// The default slice: long enough that starting a slice costs nothing, short enough that the
// screen and the journal move and a kill loses little.
inline constexpr double default_slice_seconds = 30;

}  // namespace piles
