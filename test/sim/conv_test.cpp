// Convolution on the simulator: Fprop, Dgrad (unit stride and strided) and Wgrad, f16 and bf16, both
// iterator families, on a list of shapes built to reach every edge: scaled-down ResNet-50 and 3-D
// UNet layers, R and S in {1, 3, 5, 7}, stride 1–3 (stride_h ≠ stride_w too), padding 0–3 and
// asymmetric, dilation 1–2, channel counts off the tile, N = 1, odd extents, H < R, strides larger
// than the filter, groups and depthwise, convolution mode. Every output element is checked against
// the double-precision nested-loop reference; unwritten ones count as mismatches.
#include "conv_test_support.hpp"

namespace {

using namespace conv_test;
using hiptile::bfloat16_t;
using hiptile::half_t;

ConvProblemSize with(ConvProblemSize p, int groups, ConvMode mode = ConvMode::kCrossCorrelation) {
  p.groups = groups;
  p.mode = mode;
  return p;
}

ConvProblemSize asymmetric(ConvProblemSize p, Spatial before, Spatial after) {
  p.pad_before = before;
  p.pad_after = after;
  return p;
}

// Channel counts are multiples of 8 (the precomputed iterators' vectors); conv_sweep_test.cpp
// covers the others with the analytic iterator's narrow accesses.
std::vector<ConvProblemSize> shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 14, 14, 64, 64, 3, 3, 1, 1),              // ResNet-50 3×3, scaled down
      P::conv2d(1, 15, 13, 32, 72, 1, 1, 0, 0, 2, 2),        // 1×1 stride 2 (stride > filter)
      P::conv2d(2, 9, 11, 24, 40, 5, 5, 2, 2, 1, 2),         // 5×5, stride_h ≠ stride_w
      P::conv2d(1, 17, 10, 16, 136, 7, 7, 3, 3, 2, 2),       // 7×7 / 2 stem
      P::conv2d(3, 7, 9, 8, 8, 3, 3, 2, 2, 3, 3),            // stride 3, padding 2
      P::conv2d(1, 12, 12, 40, 24, 3, 3, 2, 2, 1, 1, 2, 2),  // dilation 2
      P::conv2d(1, 2, 9, 16, 16, 3, 3, 1, 1),                // H < R
      asymmetric(P::conv2d(2, 8, 7, 16, 32, 3, 3), {{0, 0, 1}}, {{0, 2, 0}}),
      asymmetric(P::conv2d(1, 10, 10, 32, 16, 4, 4, 0, 0, 2, 2), {{0, 1, 2}}, {{0, 2, 1}}),
      with(P::conv2d(2, 8, 8, 32, 64, 3, 3, 1, 1), 4),               // groups
      with(P::conv2d(1, 9, 9, 48, 48, 3, 3, 1, 1, 2, 2), 48 / 8),    // groups of 8 channels
      with(P::conv2d(1, 6, 7, 16, 24, 3, 5, 1, 2), 1, ConvMode::kConvolution),
      P::conv3d(1, {{5, 6, 7}}, 16, 24, {{3, 3, 3}}, {{1, 1, 1}}),                // 3-D UNet layer
      P::conv3d(2, {{6, 5, 4}}, 8, 16, {{2, 2, 2}}, {{0, 0, 0}}, {{2, 2, 2}}),    // 3-D stride 2
      with(P::conv3d(1, {{4, 5, 6}}, 16, 16, {{3, 1, 3}}, {{1, 0, 1}}, {{1, 2, 1}}), 2, ConvMode::kConvolution),
  };
}

// Shapes whose Dgrad needs no row classes' dilation: dilation > 1 only with unit stride.
bool dgrad_supported(ConvProblemSize const& p) {
  for (int i = 0; i < 3; ++i) {
    if (p.stride[i] > 1 && p.dilation[i] > 1) return false;
  }
  return true;
}

template <class Conv>
void run_shapes(Epilogue e = {}) {
  std::uint64_t seed = 11;
  for (ConvProblemSize const& p : shapes()) {
    if (Conv::kOperator == ConvOperator::kDgrad && !dgrad_supported(p)) continue;
    auto const result = run_conv<Conv>(p, e, seed++);
    INFO(describe(p) << ": " << hiptile::host::to_string(result));
    CHECK(result.passed());
  }
}

TEMPLATE_TEST_CASE("conv: every shape, precomputed iterators", "[conv]", half_t, bfloat16_t) {
  SECTION("fprop") { run_shapes<Gfx942Conv<ConvOperator::kFprop, TestType, IteratorAlgorithm::kPrecomputed>>(); }
  SECTION("dgrad") { run_shapes<Gfx942Conv<ConvOperator::kDgrad, TestType, IteratorAlgorithm::kPrecomputed>>(); }
  SECTION("wgrad") { run_shapes<Gfx942Conv<ConvOperator::kWgrad, TestType, IteratorAlgorithm::kPrecomputed>>(); }
}

TEMPLATE_TEST_CASE("conv: every shape, analytic iterators", "[conv]", half_t, bfloat16_t) {
  SECTION("fprop") { run_shapes<Gfx942Conv<ConvOperator::kFprop, TestType, IteratorAlgorithm::kAnalytic>>(); }
  SECTION("dgrad") { run_shapes<Gfx942Conv<ConvOperator::kDgrad, TestType, IteratorAlgorithm::kAnalytic>>(); }
  SECTION("wgrad") { run_shapes<Gfx942Conv<ConvOperator::kWgrad, TestType, IteratorAlgorithm::kAnalytic>>(); }
}

TEST_CASE("conv: alpha, beta with a source tensor, and per-channel bias", "[conv]") {
  Epilogue const e{0.5f, -1.25f, true};
  SECTION("fprop") { run_shapes<Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kPrecomputed>>(e); }
  SECTION("dgrad") { run_shapes<Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kPrecomputed>>(e); }
  SECTION("wgrad") { run_shapes<Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kPrecomputed>>(e); }
}

}  // namespace
