#include <cuda_runtime.h>

#include <cstdio>

#include "kernels/cuda_check.cuh"
#include "kernels/device.hpp"

namespace piles::gpu {
namespace {

// Reports a failed query and clears the error, so that later calls start clean.
std::string failed(cudaError_t status) {
  cudaGetLastError();
  return cuda_error_text(status);
}

DeviceInfo info_of(const cudaDeviceProp& prop) {
  DeviceInfo info;
  info.name = prop.name;
  info.multiprocessors = prop.multiProcessorCount;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.memory_bytes = prop.totalGlobalMem;
  return info;
}

}  // namespace

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void use_device(int index) {
  const int count = device_count();
  if (count > 0) PILES_CUDA_CHECK(cudaSetDevice(index % count));
}

DeviceProbe probe_device() {
  DeviceProbe probe;
  int count = 0, index = 0;
  cudaDeviceProp prop{};
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess)
    probe.error = failed(status);
  else if (count == 0)
    probe.error = "CUDA reports no device";
  else if (const cudaError_t status = cudaGetDevice(&index); status != cudaSuccess)
    probe.error = failed(status);
  else if (const cudaError_t status = cudaGetDeviceProperties(&prop, index); status != cudaSuccess)
    probe.error = failed(status);
  if (!probe.error.empty()) return probe;
  probe.device = info_of(prop);
  return probe;
}

std::vector<DeviceInfo> all_devices() {
  std::vector<DeviceInfo> devices;
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    failed(status);
    return {};
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (const cudaError_t status = cudaGetDeviceProperties(&prop, i); status != cudaSuccess) {
      failed(status);
      return {};
    }
    devices.push_back(info_of(prop));
  }
  return devices;
}

std::optional<DeviceInfo> find_device() {
  return probe_device().device;
}

std::string describe(const DeviceInfo& d) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB)", d.name.c_str(), d.compute_major,
                d.compute_minor, d.multiprocessors,
                static_cast<double>(d.memory_bytes) / (1u << 30));
  return buf;
}

std::string driver_version() {
  int version = 0;
  if (cudaDriverGetVersion(&version) != cudaSuccess || version == 0) return {};
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace piles::gpu
