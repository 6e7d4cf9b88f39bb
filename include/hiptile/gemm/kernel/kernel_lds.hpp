#pragma once
// KernelLds: the dynamic LDS a GEMM kernel launches with. The mainloop's stages, which the
// epilogue reuses once the mainloop is done (Epilogue::kLdsBytesPerWave for each wave): the larger
// of the two.
#include <cstddef>

namespace hiptile::gemm::kernel {

template <class Mainloop, class Epilogue>
struct KernelLds {
  static constexpr int kWaves = Mainloop::kThreads / Mainloop::kWaveSize;
  static constexpr std::size_t kEpilogueBytes = kWaves * Epilogue::kLdsBytesPerWave;
  static constexpr std::size_t kBytes = Mainloop::kLdsBytes > kEpilogueBytes ? Mainloop::kLdsBytes : kEpilogueBytes;
};

}  // namespace hiptile::gemm::kernel
