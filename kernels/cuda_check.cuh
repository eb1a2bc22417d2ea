#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace piles::gpu {

// A failed CUDA call becomes an exception carrying file, line and CUDA's own message.
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t status, const char* file, int line) {
  if (status != cudaSuccess)
    throw CudaError(std::string("CUDA error at ") + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorString(status));
}

}  // namespace piles::gpu

#define PILES_CUDA_CHECK(call) ::piles::gpu::check_cuda((call), __FILE__, __LINE__)

// After a launch: catches bad configurations at once and faults at the next sync.
#define PILES_CUDA_CHECK_LAUNCH() PILES_CUDA_CHECK(cudaGetLastError())
