#include "host/common/machine.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <string_view>
#include <thread>

namespace piles {
namespace {

// The value of the first "key : value" line of a /proc file that starts with `key`, or empty.
std::string proc_field(const char* file, std::string_view key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

}  // namespace

std::string cpu_model() {
  const std::string cpu = proc_field("/proc/cpuinfo", "model name");
  return cpu.empty() ? "CPU model unknown" : cpu;
}

std::string machine_description() {
  std::string text =
      fmt::format("{}, {} logical CPUs", cpu_model(), std::thread::hardware_concurrency());
  const std::string mem_kib = proc_field("/proc/meminfo", "MemTotal");
  if (!mem_kib.empty()) text += fmt::format(", {:.1f} GiB memory", std::stod(mem_kib) / (1 << 20));
  return text;
}

std::string utc_now() {
  const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  const auto day = std::chrono::floor<std::chrono::days>(now);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss time{now - day};
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                     time.hours().count(), time.minutes().count(), time.seconds().count());
}

}  // namespace piles
