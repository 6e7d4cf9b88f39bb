#pragma once
// The builders' primary templates, which each architecture family specialises (builder.hpp says
// what each gives; include that header, not this one), and B2bGemmShape.
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/gemm/operand.hpp"

namespace hiptile::gemm {

// The tile of a back-to-back GEMM (B2bGemmBuilder): the block's rows kM, the first product's N
// tile kN0 (all of N0) and K tile kK0, D's columns per step kN1.
template <int M, int N0, int K0, int N1>
struct B2bGemmShape {
  static constexpr int kM = M;
  static constexpr int kN0 = N0;
  static constexpr int kK0 = K0;
  static constexpr int kN1 = N1;
};

}  // namespace hiptile::gemm

namespace hiptile::gemm::collective {

// A family without a builder here: NVIDIA's is included by nvcc translation units (and by
// hiptile/nvidia.hpp for host code that reasons about NVIDIA configurations).
template <class Family>
inline constexpr bool kNoBuilder = false;

// Whether NVIDIA's GemmLoaderBuilder copies a GEMM's operands straight into swizzled stages (cp.async
// or tensor copies): both K-contiguous, or 16-bit operands of warpgroup MMAs, which read an
// MN-contiguous stage with their transpose bit. Otherwise the loads pass through registers, which
// transpose an MN-contiguous tile. (Here, so that the configuration rules can read it too.)
template <class MmaAtom, class ElementA, OperandMajor kMajorA, class ElementB, OperandMajor kMajorB>
inline constexpr bool kNvidiaCopiesIntoSwizzledStages =
    (kMajorA == OperandMajor::kK && kMajorB == OperandMajor::kK) ||
    (WarpgroupAtom<MmaAtom> && sizeof(ElementA) == 2 && sizeof(ElementB) == 2);

template <class Family, class ElementA, OperandMajor kMajorA, class ElementB, OperandMajor kMajorB, class MmaAtom,
          class TileShape, int Threads>
struct GemmLoaderBuilder {
  static_assert(kNoBuilder<Family>, "no builder for this architecture family here: NVIDIA configurations compile "
                                    "with nvcc (host code that reasons about them includes hiptile/nvidia.hpp)");
};

template <class Family, class MmaAtom, class LoaderA, class LoaderB, class TileShape, class WaveShape, int Stages>
struct MainloopBuilder {
  static_assert(kNoBuilder<Family>, "no builder for this architecture family here: NVIDIA configurations compile "
                                    "with nvcc (host code that reasons about them includes hiptile/nvidia.hpp)");
};

template <class Family, class WaveMma, class TileShape, class Output, class OutputOp, bool kScales,
          bool kContiguousRows>
struct EpilogueBuilder {
  static_assert(kNoBuilder<Family>, "no builder for this architecture family here: NVIDIA configurations compile "
                                    "with nvcc (host code that reasons about them includes hiptile/nvidia.hpp)");
};

template <class Family, class TileShape, class WaveShape, class Mainloop, class Epilogue, class Scheduler>
struct KernelBuilder {
  static_assert(kNoBuilder<Family>, "no builder for this architecture family here: NVIDIA configurations compile "
                                    "with nvcc (host code that reasons about them includes hiptile/nvidia.hpp)");
};

template <class Family, class ElementA, OperandMajor kMajorA, class ElementB0, OperandMajor kMajorB0,
          class ElementB1, OperandMajor kMajorB1, class Atom, class Op0, class Tile, int WaveM, int Stages>
struct B2bGemmBuilder {
  static_assert(kNoBuilder<Family>, "no builder for this architecture family here: NVIDIA configurations compile "
                                    "with nvcc (host code that reasons about them includes hiptile/nvidia.hpp)");
};

}  // namespace hiptile::gemm::collective
