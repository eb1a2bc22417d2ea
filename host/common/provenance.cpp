#include "host/common/provenance.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <mutex>

#include "build_info.hpp"
#include "host/common/output.hpp"

namespace piles {
namespace {

std::mutex target_mutex;
RunTarget noted_target;  // guarded by target_mutex

}  // namespace

void note_target(const RunTarget& target) {
  const std::lock_guard lock(target_mutex);
  noted_target = target;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

nlohmann::json provenance() {
  RunTarget target;
  {
    const std::lock_guard lock(target_mutex);
    target = noted_target;
  }
  nlohmann::json devices = nlohmann::json::array();
  if (target.backend == Backend::gpu && target.devices.size() > 1) {
    const std::vector<std::string> all = gpu_descriptions();
    for (int d : target.devices) devices.push_back(all.at(d));
  } else if (target.backend == Backend::gpu) {
    devices.push_back(target.device);
  }
  if (target.backend == Backend::gpu && target.cpu_worker) devices.push_back("cpu");
  return {{"version", version},        {"commit", commit},
          {"host", host_name()},       {"backend", backend_name(target.backend)},
          {"threads", target.threads}, {"ranks", target.ranks},
          {"devices", devices}};
}

std::string threads_and_ranks(int threads, int ranks) {
  const std::string per_rank = plural(threads, "thread");
  return ranks <= 1 ? per_rank : fmt::format("{} of {}", plural(ranks, "MPI rank"), per_rank);
}

std::string describe_target(const RunTarget& target) {
  return fmt::format("{}, {}", target.device, threads_and_ranks(target.threads, target.ranks));
}

}  // namespace piles
