#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace piles::gpu {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int multiprocessors = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t memory_bytes = 0;
};

// The first CUDA device, or nothing. Any CUDA error counts as "no device": on a machine
// without a driver cudaGetDeviceCount fails with codes other than cudaErrorNoDevice.
std::optional<DeviceInfo> find_device();

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)"
std::string describe(const DeviceInfo& device);

}  // namespace piles::gpu
