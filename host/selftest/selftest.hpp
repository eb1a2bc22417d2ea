#pragma once

#include <fmt/ranges.h>

#include <functional>
#include <string>
#include <vector>

#include "host/common/backend.hpp"

namespace piles::selftest {

// What one check compares: a value from outside the engine under test (a published value, a
// theorem, brute force, or the CPU engine in the same run) and the engine's own, both written
// out the same way, so that equal text is a pass.
struct Compared {
  std::string expected, got;
};

// One known-answer check of one engine on one instance.
struct Check {
  std::string engine;    // "topswops/gpu-lockstep", "bulgarian/cpu-backward", ...
  std::string instance;  // "f(n), n = 1..12"
  std::function<Compared()> run;
};

struct CheckResult {
  std::string engine, instance, expected, got;
  double seconds = 0;
  bool ok() const { return expected == got; }
};

// The checks of every engine that runs on `target`'s backend: the GPU engines for a GPU target
// (against published values and the CPU engines), every CPU engine of the four games for a CPU
// target.
std::vector<Check> topswops_checks(const RunTarget& target);
std::vector<Check> bulgarian_checks(const RunTarget& target);
std::vector<Check> host_game_checks(const RunTarget& target);  // Nim and Babylon, CPU only

// Every check of the games above for the target.
std::vector<Check> all_checks(const RunTarget& target);

// Runs the checks in turn, handing each result to `done` as it comes; a check that throws is a
// failure whose `got` says what it threw.
std::vector<CheckResult> run(const std::vector<Check>& checks,
                             const std::function<void(const CheckResult&)>& done);

// Item by item, items numbered from `first`: on agreement both sides say how many agreed and
// give the last (the largest instance); else both give the first item that differs.
Compared compare_each(const std::vector<Compared>& each, int first);

// Values written out for comparison: "1 2 4 7".
template <class Range>
std::string joined(const Range& values) {
  return fmt::format("{}", fmt::join(values, " "));
}

}  // namespace piles::selftest
