#include <cuda_runtime.h>

#include <cstdio>

#include "kernels/device.hpp"

namespace piles::gpu {

std::optional<DeviceInfo> find_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky error so later queries start clean
    return std::nullopt;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  DeviceInfo info;
  info.index = 0;
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
