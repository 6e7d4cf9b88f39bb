#pragma once
// Kernel launch. A hiptile kernel is a functor type, not a __global__ function:
//
//   struct MyKernel {
//     struct Params { ... };                               // trivially copyable
//     static constexpr int kMaxThreadsPerBlock = 256;      // the launch bound
//     HIPTILE_DEVICE void operator()(Params const&) const; // the body every thread runs
//   };
//   Status s = hiptile::launch<MyKernel>({grid, block, lds_bytes, stream}, params);
//
// On amd and nvidia, launch() instantiates the __global__ entry kernel_entry<MyKernel>; in the
// simulator it runs the body on every simulated thread. Same source, three backends.
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>

#include "hiptile/core/concepts.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/dim3.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/runtime_api.hpp"
#include "hiptile/platform/stream.hpp"

#if HIPTILE_BACKEND_NVIDIA
#include <atomic>
#endif
#if HIPTILE_BACKEND_SIM
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <typeinfo>

#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile {

// (Plain traits rather than std::convertible_to: its std::declval is host-only in HIP's device pass.)
template <class K>
concept KernelFunctor = std::is_default_constructible_v<K> && DeviceCopyable<typename K::Params> &&
                        std::is_integral_v<std::remove_cvref_t<decltype(K::kMaxThreadsPerBlock)>> &&
                        (K::kMaxThreadsPerBlock > 0) && (K::kMaxThreadsPerBlock <= 1024);

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  std::size_t lds_bytes = 0;  // dynamic LDS per workgroup
  Stream stream = nullptr;
};

// The most workgroups one launch may have along a dimension whose workgroups have `threads`
// threads along it. amd, and the simulator that models it: the HSA dispatch packet counts the grid
// in work-items in 32 bits, so grid · block < 2^32 in each dimension (HIP's API docs: launches with
// gridDim · blockDim >= 2^32 are not supported). nvidia: gridDim.x <= 2^31 - 1, y and z <= 65535.
// (An empty workgroup is refused elsewhere; here it counts as one thread.)
constexpr unsigned long long max_grid_extent(int dimension, unsigned threads) noexcept {
#if HIPTILE_BACKEND_NVIDIA
  (void)threads;
  return dimension == 0 ? (1ull << 31) - 1 : 65535;
#else
  (void)dimension;
  return ((1ull << 32) - 1) / (threads > 0 ? threads : 1);
#endif
}

// Whether a grid of `grid` workgroups of `block` threads is within max_grid_extent everywhere.
constexpr bool grid_fits(Dim3 grid, Dim3 block) noexcept {
  return grid.x <= max_grid_extent(0, block.x) && grid.y <= max_grid_extent(1, block.y) &&
         grid.z <= max_grid_extent(2, block.z);
}

#if !HIPTILE_BACKEND_SIM
template <KernelFunctor Kernel>
__global__ void __launch_bounds__(Kernel::kMaxThreadsPerBlock)
    kernel_entry(HIPTILE_GRID_CONSTANT typename Kernel::Params const params) {
  Kernel{}(params);
}
#endif

#if HIPTILE_BACKEND_NVIDIA
// Lets kernel_entry<Kernel> take `bytes` of dynamic shared memory (past 48 KB a kernel must ask):
// a driver call the first time on each device, then none, since a GEMM of a few microseconds
// cannot afford one per launch. False when the device refuses.
template <KernelFunctor Kernel>
bool allow_dynamic_lds(std::size_t bytes) noexcept {
  constexpr int kDevicesRemembered = 64;
  static std::atomic<std::size_t> allowed[kDevicesRemembered] = {};  // per device, bytes already allowed
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  bool const remembered = device >= 0 && device < kDevicesRemembered;
  if (remembered && allowed[device].load(std::memory_order_relaxed) >= bytes) return true;
  if (cudaFuncSetAttribute(kernel_entry<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(bytes)) != cudaSuccess) {
    return false;
  }
  if (remembered) {
    std::size_t previous = allowed[device].load(std::memory_order_relaxed);
    while (previous < bytes && !allowed[device].compare_exchange_weak(previous, bytes)) {
    }
  }
  return true;
}
#endif

// The kernel's readable name, for the simulator's error messages.
template <class Kernel>
std::string kernel_name() {
#if HIPTILE_BACKEND_SIM
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(typeid(Kernel).name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(typeid(Kernel).name());
#else
  return "kernel";
#endif
}

// Launches `Kernel` over config's grid. Never throws: every failure is a Status (a grid beyond
// max_grid_extent is kErrorGridTooLarge before the backend sees it).
template <KernelFunctor Kernel>
Status launch(LaunchConfig const& config, typename Kernel::Params const& params) noexcept {
  if (config.block.volume() > static_cast<unsigned long long>(Kernel::kMaxThreadsPerBlock)) {
    return Status::kErrorInvalidLaunch;
  }
  if (!grid_fits(config.grid, config.block)) return Status::kErrorGridTooLarge;
#if HIPTILE_BACKEND_AMD
  dim3 const grid(config.grid.x, config.grid.y, config.grid.z);
  dim3 const block(config.block.x, config.block.y, config.block.z);
  hipLaunchKernelGGL(kernel_entry<Kernel>, grid, block, config.lds_bytes, config.stream, params);
  return hipGetLastError() == hipSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#elif HIPTILE_BACKEND_NVIDIA
  if (config.lds_bytes > 48 * 1024 && !allow_dynamic_lds<Kernel>(config.lds_bytes)) return Status::kErrorLdsOverflow;
  dim3 const grid(config.grid.x, config.grid.y, config.grid.z);
  dim3 const block(config.block.x, config.block.y, config.block.z);
  kernel_entry<Kernel><<<grid, block, config.lds_bytes, config.stream>>>(params);
  return cudaGetLastError() == cudaSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#else
  // The simulator allocates (stacks, host threads, names): a failure there is a Status too.
  try {
    Kernel const kernel{};
    return sim::launch(sim::LaunchShape{config.grid, config.block, config.lds_bytes}, kernel_name<Kernel>(),
                       [&] { kernel(params); }, sim::resolve(config.stream).counters);
  } catch (std::bad_alloc const&) {
    return Status::kErrorMemoryAllocation;
  } catch (...) {
    return Status::kErrorLaunchFailed;
  }
#endif
}

// Why the last launch from this host thread failed, where the backend can say more than its
// Status (the simulator names kernel, workgroup and barrier).
inline std::string last_launch_error() {
#if HIPTILE_BACKEND_SIM
  return sim::last_error_message();
#elif HIPTILE_BACKEND_AMD
  return hipGetErrorString(hipGetLastError());
#else
  return cudaGetErrorString(cudaGetLastError());
#endif
}

}  // namespace hiptile
