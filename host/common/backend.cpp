#include "host/common/backend.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string_view>

#include "host/common/error.hpp"
#include "host/common/output.hpp"
#include "host/common/parse.hpp"
#include "host/common/provenance.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/device.hpp"
#endif

namespace piles {
namespace {

// Device numbers a list may name before the machine is asked how many it has.
constexpr int max_devices = 1 << 20;

// Present exactly when the NVIDIA kernel driver is loaded.
constexpr const char* nvidia_driver_file = "/proc/driver/nvidia/version";

}  // namespace

bool cuda_build() {
#ifdef PILES_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

std::string gpu_description() {
#ifdef PILES_HAVE_CUDA
  if (const auto device = gpu::find_device()) return gpu::describe(*device);
#endif
  return {};
}

std::vector<std::string> gpu_descriptions() {
  std::vector<std::string> all;
#ifdef PILES_HAVE_CUDA
  for (const gpu::DeviceInfo& device : gpu::all_devices()) all.push_back(gpu::describe(device));
#endif
  return all;
}

std::string nvidia_driver_release_in(std::string_view proc_text) {
  std::istringstream line{std::string(proc_text.substr(0, proc_text.find('\n')))};
  static const std::regex release(R"(\d+(\.\d+)+)");
  for (std::string word; line >> word;)
    if (std::regex_match(word, release)) return word;
  return {};
}

std::string nvidia_driver_release() {
  std::ifstream file(nvidia_driver_file);
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return nvidia_driver_release_in(text);
}

std::string gpu_driver() {
#ifdef PILES_HAVE_CUDA
  return gpu::driver_version();
#else
  return {};
#endif
}

std::string gpu_unavailable_reason() {
#ifdef PILES_HAVE_CUDA
  const std::string error = gpu::probe_device().error;
  // Without a driver CUDA speaks of an insufficient driver version, which sends a reader off to
  // upgrade a driver they do not have: say what is true.
  std::error_code ec;
  if (!error.empty() && !std::filesystem::exists(nvidia_driver_file, ec))
    return "no NVIDIA driver loaded";
  return error;
#else
  return "built without CUDA";
#endif
}

RunTarget RunTarget::on_device(int index) const {
  RunTarget one = *this;
  one.device_index = index;
  one.devices = {index};
  return one;
}

RunTarget RunTarget::on_cpu_worker() const {
  RunTarget host = on_host();
  host.threads = std::max(1, threads - static_cast<int>(devices.size()));
  return host;
}

RunTarget RunTarget::on_host() const {
  RunTarget host;
  host.threads = threads;
  host.ranks = ranks;
  return host;
}

DeviceList parse_device_list(std::string_view text, int count) {
  DeviceList list;
  constexpr std::string_view cpu = ",cpu";
  if (text == "cpu")
    throw UsageError(
        "--devices: cpu alone is the CPU backend (--backend cpu); name devices beside it, such as "
        "all,cpu");
  if (text.ends_with(cpu)) {
    text.remove_suffix(cpu.size());
    list.cpu = true;
    if (text == "cpu" || text.ends_with(cpu)) throw UsageError("--devices: cpu is listed twice");
  }
  if (text.find("cpu") != std::string_view::npos)
    throw UsageError("--devices: cpu goes last, after the devices (such as 0,1,cpu)");
  list.devices = parse_devices(text, count);
  return list;
}

std::vector<int> parse_devices(std::string_view text, int count) {
  std::vector<int> out;
  if (text == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
    return out;
  }
  static const std::regex list(R"(\d{1,9}(,\d{1,9})*)");
  if (text.empty()) throw UsageError("--devices: the list is empty");
  if (!std::regex_match(std::string(text), list))
    throw UsageError(
        fmt::format("--devices: '{}' is not all or a list of device numbers such as 0,2", text));
  std::istringstream in{std::string(text)};
  for (std::string word; std::getline(in, word, ',');) {
    const int d = std::stoi(word);
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw UsageError(fmt::format("--devices: device {} is listed twice", d));
    if (d >= count)
      throw UsageError(
          count == 0
              ? fmt::format("--devices: device {} does not exist (no CUDA device answered: {})", d,
                            gpu_unavailable_reason())
              : fmt::format("--devices: device {} does not exist (this machine has {}: 0..{})", d,
                            plural(count, "device"), count - 1));
    out.push_back(d);
  }
  return out;
}

void select_device(const RunTarget& target) {
#ifdef PILES_HAVE_CUDA
  if (target.backend == Backend::gpu) gpu::use_device(target.device_index);
#else
  (void)target;
#endif
}

bool require_gpu() {
  const char* value = std::getenv("PILES_REQUIRE_GPU");
  const std::string_view text = value ? value : "";
  // Any other spelling ("yes", "true") would be a promise read as "no": refused instead.
  if (text != "" && text != "0" && text != "1")
    throw UsageError(fmt::format("PILES_REQUIRE_GPU: '{}' is not 0 or 1", text));
  return text == "1";
}

int resolve_threads(int requested) {
  if (requested < 0) throw UsageError(fmt::format("--threads: {} is negative", requested));
  if (requested > 0) return requested;
  // OMP_NUM_THREADS is how a batch system or a user caps OpenMP programs; omp_get_max_threads
  // reads it, and otherwise every core this process may use.
  return std::getenv("OMP_NUM_THREADS") ? omp_get_max_threads() : omp_get_num_procs();
}

const char* backend_name(Backend backend) {
  return backend == Backend::gpu ? "gpu" : "cpu";
}

namespace {

RunTarget pick_backend(const CommonOptions& options) {
  RunTarget target;
  target.threads = resolve_threads(options.threads);
  target.device = "cpu";
  const std::string& want = options.backend;
  parse_choice(want, "--backend", {"auto", "cpu", "gpu"});
  const bool chosen = options.devices != "all";
  if (chosen) parse_device_list(options.devices, max_devices);  // its form, before any device
  if (want == "cpu") {
    if (chosen) throw UsageError("--devices: the CPU backend has no devices (--backend cpu)");
    return target;
  }
  if (want == "gpu" && !cuda_build())
    throw UsageError("--backend gpu: this build of piles has no GPU support (built without CUDA)");
  if (require_gpu() && !cuda_build())
    throw UsageError(
        "--backend auto: PILES_REQUIRE_GPU=1 but this build of piles has no GPU support");
  const std::string device = gpu_description();
  if (device.empty()) {
    const std::string why = gpu_unavailable_reason();
    if (want == "gpu")
      throw UsageError(fmt::format("--backend gpu: no CUDA device answered ({})", why));
    if (chosen) parse_device_list(options.devices, 0);
    if (require_gpu())
      throw UsageError(
          fmt::format("--backend auto: PILES_REQUIRE_GPU=1 but no CUDA device answered ({})", why));
    return target;
  }
  target.backend = Backend::gpu;
  target.auto_picked = want == "auto";
  const std::vector<std::string> all = gpu_descriptions();
  const DeviceList list = parse_device_list(options.devices, static_cast<int>(all.size()));
  target.devices = list.devices;
  target.cpu_worker = list.cpu;
  target.device_index = target.devices.front();
  target.device = all[target.device_index];
  for (std::size_t i = 1; i < target.devices.size(); ++i)
    target.device += fmt::format("; {}", all[target.devices[i]]);
  return target;
}

}  // namespace

RunTarget resolve_backend(const CommonOptions& options) {
  const RunTarget target = pick_backend(options);
  note_target(target);
  return target;
}

int host_only_threads(const CommonOptions& options, const char* game) {
  if (options.backend == "gpu")
    throw UsageError(
        fmt::format("--backend gpu: {} has no GPU engine (it is solved on the CPU)", game));
  if (options.devices != "all")
    throw UsageError(
        fmt::format("--devices: {} has no GPU engine (it is solved on the CPU)", game));
  return resolve_threads(options.threads);
}

}  // namespace piles
