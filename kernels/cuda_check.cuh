#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace piles::gpu {

// A failed CUDA call becomes an exception carrying file, line and CUDA's own message.
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "CUDA error 35: CUDA driver version is insufficient for CUDA runtime version"
inline std::string cuda_error_text(cudaError_t status) {
  return "CUDA error " + std::to_string(static_cast<int>(status)) + ": " +
         cudaGetErrorString(status);
}

// Where in the tree a check failed, without the build machine's path to it.
inline const char* source_name(const char* file) {
  const char* in_tree = std::strstr(file, "kernels/");
  return in_tree ? in_tree : file;
}

inline void check_cuda(cudaError_t status, const char* file, int line) {
  if (status != cudaSuccess)
    throw CudaError(cuda_error_text(status) + " (at " + source_name(file) + ":" +
                    std::to_string(line) + ")");
}

}  // namespace piles::gpu

#define PILES_CUDA_CHECK(call) ::piles::gpu::check_cuda((call), __FILE__, __LINE__)

// After a launch: catches bad configurations at once and faults at the next sync.
#define PILES_CUDA_CHECK_LAUNCH() PILES_CUDA_CHECK(cudaGetLastError())
