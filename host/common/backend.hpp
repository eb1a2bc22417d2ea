#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "host/common/progress.hpp"

namespace piles {

// Flags every search command shares (DESIGN.md section 9).
struct CommonOptions {
  std::string backend = "auto";  // auto | cpu | gpu
  int threads = 0;               // 0: every hardware thread
  bool json = false;
  bool quiet = false;
  double status_every = default_status_every;  // between status lines in a log; 0: none
  std::string devices = "all";                 // --devices: all, or "N[,N...]"
};

enum class Backend { cpu, gpu };

// What a command will run on, resolved once from the flags.
struct RunTarget {
  Backend backend = Backend::cpu;
  std::string device = "cpu";  // GPU description, or "cpu"
  int threads = 1;             // CPU threads (host side of a GPU run too)
  int device_index = 0;        // which of the machine's GPUs (one per MPI rank on a node)
  // Every GPU this process drives, device_index first: a job's chunks are shared among them, a
  // worker thread each; one for an MPI rank, none on the CPU.
  std::vector<int> devices;
  // --devices ...,cpu: the host's CPU threads share the job's chunks too, as one more worker
  // beside the devices' (on the game's CPU engine).
  bool cpu_worker = false;
  int ranks = 1;             // processes of the MPI job this one belongs to
  bool auto_picked = false;  // --backend auto chose the GPU (an engine slower there may not)

  // The target of one of `devices` alone.
  RunTarget on_device(int index) const;
  // The CPU worker's: the host's threads less one for each device's worker.
  RunTarget on_cpu_worker() const;
  // The CPU threads of this process (in the same MPI job): where a GPU run sends work that the
  // host does better, and what a check compares the GPU against.
  RunTarget on_host() const;
};

// Makes the target's GPU the current device of the calling thread (CUDA keeps one per host
// thread, so every thread that launches must say so); nothing for a CPU target.
void select_device(const RunTarget& target);

// auto: the GPU when this build has CUDA and a device answers, else the CPU. Asking for gpu in
// a CPU-only build, or where no device answers, is a UsageError; so is auto without a device
// under PILES_REQUIRE_GPU=1.
RunTarget resolve_backend(const CommonOptions& options);

// True when the environment says PILES_REQUIRE_GPU=1: a GPU that does not answer is then a
// failure (of a command, of a GPU test), never a quiet fall-back or a skip. Unset, empty or 0
// is false; any value but those and 1 is a UsageError.
bool require_gpu();

// The devices `--devices` names among `count` (0..count-1): every one for "all", else those of
// a list "N[,N...]" in its order. Throws UsageError (one line) for a list
// that is empty, not numbers, repeats one, or names a device the machine does not have.
std::vector<int> parse_devices(std::string_view text, int count);

// `--devices` whole: the devices as parse_devices reads them, and whether the list ends with
// "cpu" (the CPU worker). "cpu" alone, or twice, is a UsageError.
struct DeviceList {
  std::vector<int> devices;
  bool cpu = false;
};
DeviceList parse_device_list(std::string_view text, int count);

int resolve_threads(int requested);
// CPU threads for a game solved on the host only: --backend gpu and --devices are refused
// (naming the game) rather than ignored.
int host_only_threads(const CommonOptions& options, const char* game);
const char* backend_name(Backend backend);
bool cuda_build();
// Description of the GPU this process would use, or empty when there is none.
std::string gpu_description();
// Descriptions of every GPU CUDA lists, in its order.
std::vector<std::string> gpu_descriptions();
// The loaded NVIDIA kernel driver's release ("580.65.06"), or empty where none is loaded.
std::string nvidia_driver_release();
// The release in the text of /proc/driver/nvidia/version: the first number with dots on its
// first line ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..."), or
// empty.
std::string nvidia_driver_release_in(std::string_view proc_text);
// The CUDA version of the machine's driver ("13.0"), or empty where there is none.
std::string gpu_driver();
// Why no GPU answers ("no NVIDIA driver loaded", CUDA's error where a driver answered with one,
// "built without CUDA"), or empty when one does.
std::string gpu_unavailable_reason();

}  // namespace piles
