#pragma once
// GatherAxis: one spatial dimension (depth, height or width) of a direct convolution — which
// source position an output position reads through each filter tap. Fprop and Dgrad are one form:
//
//   Fprop (y from x):   source = o·stride − pad + f·dilation
//   Dgrad (dx from dy): source = (o + pad − f·dilation) / stride, only where the division is exact
//   both:               source = (o·out_step + f·tap_step + offset) / divisor
//
// f is the tap as it gathers; the filter element it multiplies is f (cross-correlation) or
// F − 1 − f (convolution), which the kernel settles when it stages the filter.
//
// A workgroup covers `tile` consecutive output positions from o0; the source positions they read lie
// in its halo, at most `halo` positions from origin(o0). In halo coordinates output o0 + o reads
// through tap f the position (o·out_step + f·tap_step + base(o0)) / divisor.
#include <cstdint>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

struct GatherAxis {
  int out_step = 1;
  int tap_step = 1;
  int offset = 0;
  int divisor = 1;
  int taps = 1;    // the filter's extent
  int source = 1;  // the source tensor's extent (x for Fprop, dy for Dgrad)
  int output = 1;  // the output's extent (y for Fprop, dx for Dgrad)
  int tile = 1;    // output positions a workgroup covers
  int halo = 1;    // source positions a workgroup's tile reads, at most

  // Dimension i of problem p for operator op (Fprop or Dgrad), with a tile of one position.
  static constexpr GatherAxis of(ConvProblemSize const& p, ConvOperator op, int i) noexcept {
    GatherAxis a;
    Spatial const o = p.output();
    if (op == ConvOperator::kFprop) {
      a = {p.stride[i], p.dilation[i], -p.pad_before[i], 1, p.filter[i], p.input[i], o[i], 1, 1};
    } else {
      a = {1, -p.dilation[i], p.pad_before[i], p.stride[i], p.filter[i], o[i], p.input[i], 1, 1};
    }
    a.halo = a.halo_for(1);
    return a;
  }

  // The most source positions a tile of `positions` outputs reads (exact divisions only), in 64
  // bits (a stride near 2^31 makes it pass int) and clamped to INT_MAX: no LDS holds such a halo.
  constexpr int halo_for(int positions) const noexcept {
    std::int64_t const step = tap_step < 0 ? -std::int64_t(tap_step) : tap_step;
    std::int64_t const halo = ((positions - 1) * std::int64_t(out_step) + (taps - 1) * step) / divisor + 1;
    return halo < INT32_MAX ? int(halo) : INT32_MAX;
  }

  // The first source position the tile from o0 can read: the least numerator, divided rounding up
  // (a smaller source position has no exact division in range).
  HIPTILE_HOST_DEVICE constexpr int origin(int o0) const noexcept {
    int const least = o0 * out_step + offset + (tap_step < 0 ? (taps - 1) * tap_step : 0);
    if (divisor == 1) return least;  // (Fprop's: no integer division, a long sequence on GPUs)
    return least >= 0 ? (least + divisor - 1) / divisor : -(-least / divisor);
  }
  // The numerator of output o0's tap 0 in halo coordinates. Every tap's is above −divisor, so the
  // exact divisions (numerator % divisor == 0) are the taps that read a position of the halo.
  HIPTILE_HOST_DEVICE constexpr int base(int o0) const noexcept { return o0 * out_step + offset - origin(o0) * divisor; }
};

}  // namespace hiptile::conv
