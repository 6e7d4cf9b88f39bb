#pragma once
// The wave (warp) size the code is compiled for: 64 on gfx9 and in the simulator, 32 on NVIDIA.
// It is a compile-time constant in every pass, the HIP host pass included, so host code can size
// launches from it.
#include "hiptile/platform/backend.hpp"

namespace hiptile {

inline constexpr int kWaveSize = HIPTILE_BACKEND_NVIDIA ? 32 : 64;

}  // namespace hiptile
