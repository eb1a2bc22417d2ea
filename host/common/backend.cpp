#include "host/common/backend.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "host/common/error.hpp"
#include "host/common/provenance.hpp"
#ifdef PILES_HAVE_CUDA
#include "kernels/device.hpp"
#endif

namespace piles {
namespace {

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

void select_device(const RunTarget& target) {
#ifdef PILES_HAVE_CUDA
  if (target.backend == Backend::gpu) gpu::use_device(target.device_index);
#else
  (void)target;
#endif
}

bool require_gpu() {
  const char* value = std::getenv("PILES_REQUIRE_GPU");
  return value && std::string_view(value) == "1";
}

int resolve_threads(int requested) {
  if (requested < 0) throw UsageError(fmt::format("--threads: {} is negative", requested));
  return requested > 0 ? requested : omp_get_num_procs();
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
  if (want != "auto" && want != "cpu" && want != "gpu")
    throw UsageError(fmt::format("--backend: '{}' is not one of auto, cpu, gpu", want));
  if (want == "cpu") return target;
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
    if (require_gpu())
      throw UsageError(
          fmt::format("--backend auto: PILES_REQUIRE_GPU=1 but no CUDA device answered ({})", why));
    return target;
  }
  target.backend = Backend::gpu;
  target.device = device;
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
  return resolve_threads(options.threads);
}

}  // namespace piles
