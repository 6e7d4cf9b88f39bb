#pragma once
// ConvProblemSize: one 2-D or 3-D convolution, as the activation x (N × D × H × W × C, NDHWC), the
// filter w (K × T × R × S × C/groups, KTRSC) and the output y (N × Z × P × Q × K, NZPQK). A 2-D
// problem is the 3-D one with D = T = Z = 1 (conv2d() builds one).
//
// Spatial quantities are {D, H, W}-ordered triples: input {D, H, W}, filter {T, R, S},
// output {Z, P, Q}, and per dimension the padding before and after, the stride and the dilation.
// Output position o and filter tap f read input position
//     i = o·stride − pad_before + f'·dilation,   f' = f (cross-correlation) or F − 1 − f (convolution),
// and positions outside [0, extent) read zero. The output extent is
//     out = (in + pad_before + pad_after − dilation·(F − 1) − 1) / stride + 1.
//
// check() validates every field; an operator's can_implement() starts with it.
#include <cstdint>

#include "hiptile/core/array.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

// {D, H, W}, {T, R, S} or {Z, P, Q}.
using Spatial = Array<int, 3>;

enum class ConvMode { kCrossCorrelation, kConvolution };

// Fprop: y = conv(x, w). Dgrad: dx from dy and w. Wgrad: dw from x and dy.
enum class ConvOperator { kFprop, kDgrad, kWgrad };

constexpr char const* to_string(ConvOperator op) noexcept {
  return op == ConvOperator::kFprop ? "fprop" : op == ConvOperator::kDgrad ? "dgrad" : "wgrad";
}

struct ConvProblemSize {
  int n = 1;  // images
  int c = 1;  // input channels (all groups)
  int k = 1;  // output channels (all groups)
  Spatial input{{1, 1, 1}};   // D, H, W
  Spatial filter{{1, 1, 1}};  // T, R, S
  Spatial pad_before{{0, 0, 0}};
  Spatial pad_after{{0, 0, 0}};
  Spatial stride{{1, 1, 1}};
  Spatial dilation{{1, 1, 1}};
  int groups = 1;  // C and K split into this many independent convolutions (groups = C: depthwise)
  ConvMode mode = ConvMode::kCrossCorrelation;

  // A 2-D problem: N × H × W × C activation, K × R × S × C/groups filter, symmetric padding.
  HIPTILE_HOST_DEVICE static constexpr ConvProblemSize conv2d(int n, int h, int w, int c, int k, int r, int s,
                                                             int pad_h = 0, int pad_w = 0, int stride_h = 1,
                                                             int stride_w = 1, int dilation_h = 1,
                                                             int dilation_w = 1, int groups = 1) {
    ConvProblemSize p;
    p.n = n;
    p.groups = groups;
    p.c = c;
    p.k = k;
    p.input = {{1, h, w}};
    p.filter = {{1, r, s}};
    p.pad_before = {{0, pad_h, pad_w}};
    p.pad_after = {{0, pad_h, pad_w}};
    p.stride = {{1, stride_h, stride_w}};
    p.dilation = {{1, dilation_h, dilation_w}};
    return p;
  }

  // A 3-D problem: N × D × H × W × C activation, K × T × R × S × C/groups filter, symmetric padding.
  HIPTILE_HOST_DEVICE static constexpr ConvProblemSize conv3d(int n, Spatial input, int c, int k, Spatial filter,
                                                             Spatial pad = {{0, 0, 0}}, Spatial stride = {{1, 1, 1}},
                                                             Spatial dilation = {{1, 1, 1}}, int groups = 1) {
    ConvProblemSize p;
    p.n = n;
    p.groups = groups;
    p.c = c;
    p.k = k;
    p.input = input;
    p.filter = filter;
    p.pad_before = pad;
    p.pad_after = pad;
    p.stride = stride;
    p.dilation = dilation;
    return p;
  }

  // This problem split into `g` groups (g = C: depthwise): conv2d(...).with_groups(32).
  HIPTILE_HOST_DEVICE constexpr ConvProblemSize with_groups(int g) const {
    ConvProblemSize p = *this;
    p.groups = g;
    return p;
  }

  HIPTILE_HOST_DEVICE constexpr int c_per_group() const { return c / groups; }
  HIPTILE_HOST_DEVICE constexpr int k_per_group() const { return k / groups; }

  // The extent the dilated filter covers in dimension i: dilation·(F − 1) + 1, in 64 bits.
  HIPTILE_HOST_DEVICE constexpr std::int64_t dilated_filter(int i) const {
    return std::int64_t(dilation[i]) * (filter[i] - 1) + 1;
  }

  // Output extent in dimension i, in 64 bits; <= 0 when the dilated filter does not fit the padded
  // input. Meaningful once the fields are positive (check() tests them first).
  HIPTILE_HOST_DEVICE constexpr std::int64_t output_extent(int i) const {
    std::int64_t const span = std::int64_t(input[i]) + pad_before[i] + pad_after[i] - dilated_filter(i);
    return span < 0 ? 0 : span / stride[i] + 1;
  }

  // {Z, P, Q}, for a problem check() accepted.
  HIPTILE_HOST_DEVICE constexpr Spatial output() const {
    return {{int(output_extent(0)), int(output_extent(1)), int(output_extent(2))}};
  }

  // The tensors' element counts (for a problem check() accepted, they fit int64).
  std::int64_t activation_elements() const {
    return std::int64_t(n) * input[0] * input[1] * std::int64_t(input[2]) * c;
  }
  std::int64_t filter_elements() const {
    return std::int64_t(k) * filter[0] * filter[1] * std::int64_t(filter[2]) * c_per_group();
  }
  std::int64_t output_elements() const {
    Spatial const o = output();
    return std::int64_t(n) * o[0] * o[1] * std::int64_t(o[2]) * k;
  }

  // Multiply-adds of the whole convolution (of each of Fprop, Dgrad and Wgrad: they are the same).
  std::int64_t macs() const {
    return output_elements() / k * k * filter[0] * filter[1] * std::int64_t(filter[2]) * c_per_group();
  }

  // The implicit GEMM of `op` for one group (CUTLASS's docs, "Implicit GEMM Convolution"):
  //   Fprop: M = N·Z·P·Q, N = K/groups, K = T·R·S·C/groups;
  //   Dgrad: M = N·D·H·W, N = C/groups, K = T·R·S·K/groups;
  //   Wgrad: M = K/groups, N = T·R·S·C/groups, K = N·Z·P·Q.
  // Each extent in 64 bits; an operator checks they fit its index type.
  struct GemmExtent {
    std::int64_t m, n, k;
  };
  GemmExtent implicit_gemm(ConvOperator op) const {
    Spatial const o = output();
    std::int64_t const taps = std::int64_t(filter[0]) * filter[1] * filter[2];
    std::int64_t const outputs = std::int64_t(n) * o[0] * o[1] * o[2];
    std::int64_t const inputs = std::int64_t(n) * input[0] * input[1] * input[2];
    switch (op) {
      case ConvOperator::kFprop: return {outputs, k_per_group(), taps * c_per_group()};
      case ConvOperator::kDgrad: return {inputs, c_per_group(), taps * k_per_group()};
      case ConvOperator::kWgrad: return {k_per_group(), taps * c_per_group(), outputs};
    }
    return {0, 0, 0};
  }

  // kSuccess, or what is wrong with the problem itself (independent of any kernel):
  //   kErrorInvalidProblem   a count, extent, stride or dilation <= 0, or padding < 0
  //   kErrorInvalidEnum      mode is not a ConvMode enumerator
  //   kErrorGroupsNotDividing groups does not divide C and K
  //   kErrorPaddingTooLarge   padding (before or after) >= the dilated filter extent: whole output
  //                          rows would see only padding
  //   kErrorEmptyOutput      an output extent <= 0 (the dilated filter is larger than the padded input)
  //   kErrorIndexOverflow    a padded extent (input + padding) past 2^31 − 1, or a tensor's element
  //                          count past 63 bits
  constexpr Status check() const noexcept {
    if (n <= 0 || c <= 0 || k <= 0 || groups <= 0) return Status::kErrorInvalidProblem;
    if (mode != ConvMode::kCrossCorrelation && mode != ConvMode::kConvolution) return Status::kErrorInvalidEnum;
    for (int i = 0; i < 3; ++i) {
      if (input[i] <= 0 || filter[i] <= 0 || stride[i] <= 0 || dilation[i] <= 0) return Status::kErrorInvalidProblem;
      if (pad_before[i] < 0 || pad_after[i] < 0) return Status::kErrorInvalidProblem;
    }
    if (c % groups != 0 || k % groups != 0) return Status::kErrorGroupsNotDividing;
    for (int i = 0; i < 3; ++i) {
      if (pad_before[i] >= dilated_filter(i) || pad_after[i] >= dilated_filter(i)) return Status::kErrorPaddingTooLarge;
    }
    for (int i = 0; i < 3; ++i) {
      if (output_extent(i) <= 0) return Status::kErrorEmptyOutput;
      // Kernels compute positions in int: the padded extent bounds them.
      if (std::int64_t(input[i]) + pad_before[i] + pad_after[i] > kMaxExtent) return Status::kErrorIndexOverflow;
    }
    // Element counts: products of factors below 2^31, checked after every factor, so no partial
    // product passes 2^94 (128 bits hold it).
    auto const fits = [](std::int64_t const (&factors)[5]) {
      ByteRange::Int128 product = 1;
      for (std::int64_t f : factors) {
        product *= f;
        if (product > kMaxElements) return false;
      }
      return true;
    };
    std::int64_t const x[5] = {n, input[0], input[1], input[2], c};
    std::int64_t const y[5] = {n, output_extent(0), output_extent(1), output_extent(2), k};
    std::int64_t const w[5] = {k, filter[0], filter[1], filter[2], c / groups};
    if (!fits(x) || !fits(y) || !fits(w)) return Status::kErrorIndexOverflow;
    return Status::kSuccess;
  }

  static constexpr std::int64_t kMaxExtent = (std::int64_t{1} << 31) - 1;
  static constexpr std::int64_t kMaxElements = INT64_MAX;
};

}  // namespace hiptile::conv
