#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"

namespace piles::benchmark {

// One engine on one fixed instance. Its work count and answer make the signature, which is the
// same on every backend, thread count and machine: a different signature is a different
// computation, not a slower one.
struct Measure {
  std::string instance;  // "topswops solve 13"
  std::string engine;    // "cpu-dfs", "gpu-lockstep", ...
  Backend backend = Backend::cpu;
  std::string unit;  // "nodes", "partitions", ...
  std::uint64_t work = 0;
  std::string answer{};  // set by the run, like work and seconds
  double seconds = 0;

  std::string signature() const;
  double rate() const { return seconds > 0 ? static_cast<double>(work) / seconds : 0; }
};

// Runs every fixed instance on the engines of the target's backend (the games solved on the
// host only, Nim and Babylon, on a CPU target alone), handing each measure to `done` as it
// comes.
std::vector<Measure> run_suite(const RunTarget& target,
                               const std::function<void(const Measure&)>& done);

}  // namespace piles::benchmark
