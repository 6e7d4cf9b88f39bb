#pragma once
// B2bGemmArguments: what a back-to-back GEMM (b2b_gemm.hpp) computes,
//
//   P[m][n] = op0(Σ_k A[m][k] · B0[k][n], 0, bias0[n])               M × N0, never stored
//   D[m][j] = op1(Σ_n P[m][n] · B1[n][j], C[m][j], bias1[j])         M × N1
//
// with P rounded to A's element type (op0's output) before the second product, as a chain of two
// GEMM calls would store it. The same fields for every configuration of the types and functors.
#include <cstdint>

#include "hiptile/layout/tensor_ref.hpp"

namespace hiptile::gemm::device {

// The extents of a back-to-back GEMM: D is m × n1; the first product m × n0 over k0, the second
// n1 columns over n0.
struct B2bGemmCoord {
  int m = 0;
  int n0 = 0;
  int k0 = 0;
  int n1 = 0;
};

template <class ElementA, class LayoutA, class ElementB0, class LayoutB0, class ElementB1, class LayoutB1,
          class ElementD, class LayoutD, class Op0Params, class Op1Params>
struct B2bGemmArguments {
  B2bGemmCoord problem;
  layout::TensorRef<ElementA const, LayoutA> a;     // m × k0
  layout::TensorRef<ElementB0 const, LayoutB0> b0;  // k0 × n0
  layout::TensorRef<ElementB1 const, LayoutB1> b1;  // n0 × n1
  layout::TensorRef<ElementD const, LayoutD> c;     // m × n1; may be null when op1 ignores it (beta = 0)
  layout::TensorRef<ElementD, LayoutD> d;           // m × n1; may be C itself (same pointer and ld)
  Op0Params op0{};                                  // reads no source: beta 0 for a LinearCombination
  ElementA const* bias0 = nullptr;                  // n0 elements, or none
  Op1Params op1{};
  ElementD const* bias1 = nullptr;                  // n1 elements, or none
  // batch_count problems of this shape, batch b's operands b · batch_stride_* elements further on
  // (0: every batch reads the same one); D's batches may not overlap. The biases serve every batch.
  int batch_count = 1;
  std::int64_t batch_stride_a = 0;
  std::int64_t batch_stride_b0 = 0;
  std::int64_t batch_stride_b1 = 0;
  std::int64_t batch_stride_c = 0;
  std::int64_t batch_stride_d = 0;
};

}  // namespace hiptile::gemm::device
