#pragma once

// What every bench program's record needs: CPU seconds of this process, the load average, the
// date, and which backends to run, asked for with --backend.

#include <fmt/format.h>
#include <time.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "host/common/backend.hpp"
#include "host/common/machine.hpp"

namespace piles::bench {

inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

inline std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return fmt::format("{} {} {}", one, five, fifteen);
}

// "2026-11-23"
inline std::string today() {
  return utc_now().substr(0, 10);
}

// The GPU to bench for --backend cpu | both | auto: none for cpu; for both (or auto under
// PILES_REQUIRE_GPU=1) a GPU that does not answer ends the program with status 2 and the
// reason, since a record without the rows it was asked for would mislead; auto without one
// says so and runs the CPU alone.
inline std::string bench_device(const std::string& backend, const char* program) {
  if (backend == "cpu") return {};
  const std::string device = gpu_description();
  if (!device.empty()) return device;
  const std::string why = gpu_unavailable_reason();
  if (backend == "both" || require_gpu()) {
    fmt::print(stderr, "{}: error: --backend {}: no GPU answered ({})\n", program, backend, why);
    std::exit(2);
  }
  fmt::print("{}: no GPU answered ({}): the CPU rows alone\n", program, why);
  return {};
}

// Writes a bench program's record to `out` (its folder made where missing) and says where; a
// record that cannot be written ends the program with status 1, since a bench run exists for it.
inline void write_record(const std::string& out, const std::string& text) {
  const std::filesystem::path path(out);
  std::error_code ignored;  // a folder that cannot be made shows as a file that cannot be written
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ignored);
  std::ofstream file(path);
  file << text;
  file.close();
  if (!file) {
    fmt::print(stderr, "error: cannot write the record {}\n", out);
    std::exit(1);
  }
  fmt::print("record written to {}\n", out);
}

}  // namespace piles::bench
