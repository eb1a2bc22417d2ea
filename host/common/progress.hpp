#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace piles {

// The observer of a run's work: an engine reports units done through add() and never prints;
// whoever starts the run (the job driver, a command) makes the Progress, which draws a bar with
// rate and ETA on stderr only when stderr is a terminal and the run is not --quiet. add() is
// safe from many threads and cheap when nothing is drawn.
class Progress {
 public:
  Progress(std::string label, std::uint64_t total, std::string unit, bool quiet);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::uint64_t done);
  void finish();

 private:
  void draw(std::uint64_t done, bool final);

  std::string label_, unit_;
  std::uint64_t total_;
  bool enabled_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> next_draw_ns_{0};
  std::chrono::steady_clock::time_point start_;
  std::mutex draw_mutex_;
  bool finished_ = false;
};

}  // namespace piles
