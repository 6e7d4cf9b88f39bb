#pragma once
// Which backend this translation unit is compiled for. Exactly one of these is 1:
//   HIPTILE_BACKEND_AMD     clang -x hip (gfx942 / gfx90a), both the host and the device pass
//   HIPTILE_BACKEND_NVIDIA  nvcc (sm_80 / sm_90), both passes
//   HIPTILE_BACKEND_SIM     plain host C++: kernels run in hiptile's MI300 simulator
// HIPTILE_DEVICE_PASS is 1 only while a GPU compiler generates device code.
// This header and qualifiers.hpp are the only places that test the compiler's own macros.

#if defined(__HIP__)
#define HIPTILE_BACKEND_AMD 1
#define HIPTILE_BACKEND_NVIDIA 0
#define HIPTILE_BACKEND_SIM 0
#if defined(__HIP_DEVICE_COMPILE__)
#define HIPTILE_DEVICE_PASS 1
#else
#define HIPTILE_DEVICE_PASS 0
#endif
#elif defined(__CUDACC__)
#define HIPTILE_BACKEND_AMD 0
#define HIPTILE_BACKEND_NVIDIA 1
#define HIPTILE_BACKEND_SIM 0
#if defined(__CUDA_ARCH__)
#define HIPTILE_DEVICE_PASS 1
#else
#define HIPTILE_DEVICE_PASS 0
#endif
#else
#define HIPTILE_BACKEND_AMD 0
#define HIPTILE_BACKEND_NVIDIA 0
#define HIPTILE_BACKEND_SIM 1
#define HIPTILE_DEVICE_PASS 0
#endif

namespace hiptile {

enum class Backend { kAmd, kNvidia, kSim };

inline constexpr Backend kBackend = HIPTILE_BACKEND_AMD      ? Backend::kAmd
                                    : HIPTILE_BACKEND_NVIDIA ? Backend::kNvidia
                                                             : Backend::kSim;

constexpr const char* to_string(Backend b) {
  switch (b) {
    case Backend::kAmd: return "amd";
    case Backend::kNvidia: return "nvidia";
    case Backend::kSim: return "sim";
  }
  return "unknown";
}

}  // namespace hiptile
