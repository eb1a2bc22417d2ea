#include <cuda_runtime.h>

#include <cstdio>

#include "kernels/cuda_check.cuh"
#include "kernels/device.hpp"

namespace piles::gpu {

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the error so later queries start clean
    return 0;
  }
  return count;
}

void use_device(int index) {
  const int count = device_count();
  if (count > 0) PILES_CUDA_CHECK(cudaSetDevice(index % count));
}

std::optional<DeviceInfo> find_device() {
  int index = 0;
  cudaDeviceProp prop{};
  if (device_count() == 0 || cudaGetDevice(&index) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, index) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  DeviceInfo info;
  info.index = index;
  info.name = prop.name;
  info.multiprocessors = prop.multiProcessorCount;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.memory_bytes = prop.totalGlobalMem;
  return info;
}

std::string describe(const DeviceInfo& d) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB)", d.name.c_str(), d.compute_major,
                d.compute_minor, d.multiprocessors,
                static_cast<double>(d.memory_bytes) / (1u << 30));
  return buf;
}

}  // namespace piles::gpu
