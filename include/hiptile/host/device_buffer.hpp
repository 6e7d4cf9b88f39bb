#pragma once
// DeviceBuffer<T>: owns count elements of device memory (simulator: host memory aligned as a GPU
// allocation), freed when it goes out of scope. Move-only. Failures throw std::runtime_error
// naming the Status, so test and example code needs no error plumbing:
//
//   host::DeviceBuffer<half_t> a(host_a.span());      // allocate and upload
//   ... run a kernel on a.data() ...
//   std::vector<half_t> back = d.copy_to_host();
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hiptile/core/concepts.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/device_memory.hpp"

namespace hiptile::host {

template <DeviceCopyable T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;

  explicit DeviceBuffer(std::size_t count) {
    void* p = nullptr;
    throw_if_failed(device_allocate(&p, count * sizeof(T)),
                    "allocating " + std::to_string(count * sizeof(T)) + " bytes");
    data_ = static_cast<T*>(p);
    size_ = count;
  }

  // Allocates host.size() elements and copies host into them.
  explicit DeviceBuffer(std::span<T const> host) : DeviceBuffer(host.size()) { copy_from_host(host); }

  ~DeviceBuffer() { reset(); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  DeviceBuffer(DeviceBuffer const&) = delete;
  DeviceBuffer& operator=(DeviceBuffer const&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t size_bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  // Copies host into the first host.size() elements.
  void copy_from_host(std::span<T const> host) {
    check_fits(host.size(), "copy_from_host");
    throw_if_failed(copy_memory(data_, host.data(), host.size_bytes(), CopyKind::kHostToDevice),
                    "copying " + std::to_string(host.size_bytes()) + " bytes to the device");
  }

  // Copies the first host.size() elements into host.
  void copy_to_host(std::span<T> host) const {
    check_fits(host.size(), "copy_to_host");
    throw_if_failed(copy_memory(host.data(), data_, host.size_bytes(), CopyKind::kDeviceToHost),
                    "copying " + std::to_string(host.size_bytes()) + " bytes from the device");
  }

  std::vector<T> copy_to_host() const {
    std::vector<T> host(size_);
    copy_to_host(std::span<T>(host));
    return host;
  }

  // Frees the memory now; the buffer is then empty.
  void reset() {
    device_free(data_);
    data_ = nullptr;
    size_ = 0;
  }

 private:
  static void throw_if_failed(Status s, std::string const& what) {
    if (!ok(s)) throw std::runtime_error("hiptile::host::DeviceBuffer: " + what + " failed: " + to_string(s));
  }
  void check_fits(std::size_t count, char const* what) const {
    if (count > size_) {
      throw std::length_error("hiptile::host::DeviceBuffer::" + std::string(what) + ": " + std::to_string(count) +
                              " elements do not fit in " + std::to_string(size_));
    }
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace hiptile::host
