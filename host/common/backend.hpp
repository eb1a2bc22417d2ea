#pragma once

#include <string>

namespace piles {

// Flags every search command shares (DESIGN.md section 9).
struct CommonOptions {
  std::string backend = "auto";  // auto | cpu | gpu
  int threads = 0;               // 0: every hardware thread
  bool json = false;
  bool quiet = false;
};

enum class Backend { cpu, gpu };

// What a command will run on, resolved once from the flags.
struct RunTarget {
  Backend backend = Backend::cpu;
  std::string device;  // GPU description, or "cpu"
  int threads = 1;     // CPU threads (host side of a GPU run too)
};

// auto: the GPU when this build has CUDA and a device answers, else the CPU. Asking for gpu in
// a CPU-only build, or where no device answers, is a UsageError.
RunTarget resolve_backend(const CommonOptions& options);

int resolve_threads(int requested);
const char* backend_name(Backend backend);
bool cuda_build();
// Description of the GPU this process would use, or empty when there is none.
std::string gpu_description();

}  // namespace piles
