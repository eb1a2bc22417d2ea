#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

namespace piles {

// Seconds on some clock that only moves forward: slices are timed by it, so that a test can
// drive the sizing with a clock of its own.
using Clock = std::function<double()>;
double steady_seconds();  // the steady clock every run is timed with

// Asked by an engine between pieces of its work, from any of its threads: true once the run is
// to end early (its time limit, a signal). Cheap enough to ask every millisecond.
using Cancel = std::function<bool()>;

// What an engine throws once Cancel said so: it has reported every chunk it finished, and the
// chunks it left unfinished are the next run's (a resumed run redoes them whole).
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

// Whether `cancel` (which may be empty) says to stop.
inline bool cancelled(const Cancel& cancel) {
  return cancel && cancel();
}

// One slice as run: the units the sizer's rate asked for, those it held and the seconds it took.
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
// keeps the engine busy. Given a deadline (a time limit), a slice holds no more than the rate
// fits before it, so that the last slice of a run ends at its limit rather than a slice later.
class SliceSizer {
 public:
  SliceSizer(double seconds, std::uint64_t first, std::uint64_t floor = 1,
             Clock clock = steady_seconds);

  std::uint64_t next() const { return next_; }
  std::uint64_t floor() const { return floor_; }
  double now() const { return clock_(); }
  // A time on the sizer's clock that slices are to end by.
  void set_deadline(double at) { deadline_ = at; }
  // A new floor, where the units of the work left changed (its chunks weighed again).
  void set_floor(std::uint64_t floor) {
    floor_ = std::max<std::uint64_t>(floor, 1);
    next_ = std::max(next_, floor_);
  }
  // The units of the slice to run now: next(), cut to what the recent rate fits before the
  // deadline, and never below the floor.
  std::uint64_t wanted() const;
  void record(std::uint64_t units, double seconds);
  const std::vector<SliceTime>& history() const { return history_; }

 private:
  double target_seconds_;
  std::uint64_t floor_, next_;
  Clock clock_;
  double recent_units_ = 0, recent_seconds_ = 0;
  double rate_ = 0;  // units per second, 0 before the first slice
  std::optional<double> deadline_;
  std::vector<SliceTime> history_;
};

using Weight = std::function<std::uint64_t(std::uint64_t)>;

// Runs `items` in order, in consecutive batches whose total weight is about sizer.wanted(): at
// least one item and at least the sizer's floor while items are left, and beyond the floor no
// more than wanted(). Each batch is timed by the sizer's clock into the sizer. Before each batch
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
