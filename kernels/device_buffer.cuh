#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cuda_check.cuh"

namespace piles::gpu {

// Owning, uninitialised device array of T; moves, never copies. Its destructor never throws,
// so unwinding after a sticky device error ends in one error line, not std::terminate.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceBuffer holds bytes copied to and fro");

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t size) : size_(size) {
    if (size_ > 0) PILES_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    copy_from(host.data(), host.size());
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

  void copy_from(const T* host, std::size_t count) {
    if (count > 0)
      PILES_CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void copy_to(T* host, std::size_t count) const {
    if (count > 0)
      PILES_CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  std::vector<T> to_host() const {
    std::vector<T> out(size_);
    copy_to(out.data(), size_);
    return out;
  }
  void fill_zero() {
    if (size_ > 0) PILES_CUDA_CHECK(cudaMemset(data_, 0, bytes()));
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace piles::gpu
