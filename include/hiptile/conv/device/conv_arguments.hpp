#pragma once
// ConvArguments: what one convolution call takes — the problem, the implicit GEMM's operands a and
// b, c and d, the output functor's parameters, the bias, split-K's slices and workspace, a persistent
// kernel's grid
// (implicit_gemm_convolution.hpp says which tensor each operand is for each operator). It depends
// only on the element types and the output functor, so every configuration of one convolution
// takes the same Arguments: an operator that picks a configuration per problem (TunedConvolution)
// passes them on unchanged.
#include <cstddef>

#include "hiptile/conv/conv_problem_size.hpp"

namespace hiptile::conv::device {

template <class Element, class ElementC, class OutputOpParams>
struct ConvArguments {
  ConvProblemSize problem;
  Element const* a = nullptr;   // Fprop: x; Dgrad: dy; Wgrad: dy
  Element const* b = nullptr;   // Fprop: w; Dgrad: w; Wgrad: x
  ElementC const* c = nullptr;  // shaped like d; may be null when the output op ignores it (β = 0)
  ElementC* d = nullptr;        // Fprop: y; Dgrad: dx; Wgrad: dw
  OutputOpParams output_op{};
  ElementC const* bias = nullptr;  // one per channel of d (Wgrad: per filter); null: no bias
  int split_k_slices = 1;          // > 1 only with SplitKMode::kParallel or kSerial
  int workgroups = 0;              // SplitKMode::kPersistent: the grid; 0 for the device's resident workgroups
  void* workspace = nullptr;       // get_workspace_size(*this) bytes, 16-byte aligned
  std::size_t workspace_bytes = 0;
};

}  // namespace hiptile::conv::device
