#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace piles::gpu {

struct DeviceInfo {
  std::string name;
  int multiprocessors = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t memory_bytes = 0;
};

// What asking CUDA for this process's device (the first, unless use_device chose another) gave:
// the device, or why none answered in CUDA's own words ("CUDA error 35: CUDA driver version is
// insufficient for CUDA runtime version"). Any CUDA error counts as "no device": on a machine
// without a driver cudaGetDeviceCount fails with codes other than cudaErrorNoDevice.
struct DeviceProbe {
  std::optional<DeviceInfo> device;
  std::string error;  // empty when a device answered
};
DeviceProbe probe_device();

// The device of probe_device(), or nothing.
std::optional<DeviceInfo> find_device();

// Every device CUDA lists, in its order; empty wherever CUDA reports an error.
std::vector<DeviceInfo> all_devices();

// Number of CUDA devices; 0 wherever CUDA reports any error.
int device_count();

// Makes `index` (taken modulo the device count) the device of the calling host thread (CUDA
// keeps the current device per thread), e.g. one GPU per MPI rank on a node. Does nothing
// where there is no device.
void use_device(int index);

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)"
std::string describe(const DeviceInfo& device);

// The CUDA version the installed driver supports ("13.0"), or empty without a driver.
std::string driver_version();

}  // namespace piles::gpu
