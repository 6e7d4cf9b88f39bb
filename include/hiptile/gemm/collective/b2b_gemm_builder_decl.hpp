#pragma once
// B2bGemmShape and the primary B2bGemmBuilder template, which the architecture families specialise
// (b2b_gemm_builder.hpp says what a builder gives; include that header, not this one).
#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/gemm/operand.hpp"

namespace hiptile::gemm {

// The tile of a back-to-back GEMM (see B2bGemmBuilder).
template <int M, int N0, int K0, int N1>
struct B2bGemmShape {
  static constexpr int kM = M;
  static constexpr int kN0 = N0;
  static constexpr int kK0 = K0;
  static constexpr int kN1 = N1;
};

}  // namespace hiptile::gemm

namespace hiptile::gemm::collective {

template <class Family, class ElementA, OperandMajor kMajorA, class ElementB0, OperandMajor kMajorB0,
          class ElementB1, OperandMajor kMajorB1, class Atom, class Op0, class Tile, int WaveM, int Stages>
struct B2bGemmBuilder {
  static_assert(sizeof(Family) == 0,
                "no back-to-back GEMM builder for this architecture family here: NVIDIA configurations compile "
                "with nvcc only");
};

}  // namespace hiptile::gemm::collective
