// Fprop, Dgrad and Wgrad of grouped layers with few channels per group through packed groups
// (IteratorAlgorithm::kPackedGroups: several groups a GEMM batch, the filter block-diagonal), on the
// simulator, every output element against the double-precision host reference: 8 and 16 channels
// per group, as many groups as a tile's N holds and group counts with no power-of-two divisor (a
// batch of 6 groups, the tile's N partly empty), unequal C and K per group, strides (Dgrad's row
// classes), dilation, padding on both sides, convolution mode, f16 and bf16 into f32 with α, β·C and
// a bias, one group (a batch of one). Then the block-diagonal element map against its definition,
// the refusals, and DefaultConvolution's choice of it. Half-vector filter accesses for groups of 4
// channels (ResNeXt 32x4d), whose batches pack an even number of groups. Wgrad, which computes a
// batch's every (filter, channel) pair and stores the diagonal blocks (PackedWgradOutput),
// data-parallel and with parallel split-K.
#include <sstream>
#include <vector>

#include "conv_test_support.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/device/default_convolution.hpp"

namespace {

using namespace conv_test;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::conv::ConvGeometry;
using hiptile::conv::device::PackedGroupConvolution;

template <ConvOperator Op, class Element = half_t, class ElementC = Element, int Access = 8>
using Packed = PackedGroupConvolution<Op, Element, ElementC, hiptile::arch::Gfx942,
                                      hiptile::epilogue::LinearCombination<ElementC>, Access>;
template <ConvOperator Op, class Element = half_t, class ElementC = Element>
using HalfVectors = Packed<Op, Element, ElementC, 4>;

ConvProblemSize with_mode(ConvProblemSize p, ConvMode mode) {
  p.mode = mode;
  return p;
}

// (n, h, w, c, k, r, s, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w, groups)
std::vector<ConvProblemSize> const kGroupedLayers = {
    ConvProblemSize::conv2d(2, 9, 10, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 8),     // 8 groups of 8: one batch
    ConvProblemSize::conv2d(1, 11, 9, 128, 128, 3, 3, 1, 1, 2, 2, 1, 1, 16),  // 3 x 3 / 2, two batches of 8
    ConvProblemSize::conv2d(1, 7, 8, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 4),      // 16 channels a group: 4 a batch
    ConvProblemSize::conv2d(2, 6, 7, 48, 48, 3, 3, 1, 1, 1, 1, 1, 1, 6),      // 6 groups: a batch of 48 of 64
    ConvProblemSize::conv2d(1, 8, 8, 64, 128, 3, 3, 1, 1, 1, 1, 1, 1, 8),     // C 8, K 16 a group
    ConvProblemSize::conv2d(1, 9, 12, 64, 64, 5, 3, 4, 1, 1, 1, 2, 1, 8),     // dilated rows
    with_mode(ConvProblemSize::conv2d(1, 8, 9, 64, 64, 3, 3, 1, 1, 1, 2, 1, 1, 8), ConvMode::kConvolution),
    ConvProblemSize::conv3d(1, {{4, 5, 6}}, 64, 64, {{3, 3, 3}}, {{1, 1, 1}}, {{1, 1, 1}}, {{1, 1, 1}}, 8),
};

TEST_CASE("packed groups: Fprop and Dgrad of grouped layers match the reference", "[conv][packed_groups]") {
  for (ConvProblemSize const& p : kGroupedLayers) {
    INFO(describe(p));
    CHECK(run_conv<Packed<ConvOperator::kFprop>>(p).passed());
    CHECK(run_conv<Packed<ConvOperator::kDgrad>>(p).passed());
  }
  // Uneven padding after; a stride larger than the filter (Dgrad's tap-less row classes).
  ConvProblemSize p = ConvProblemSize::conv2d(1, 10, 11, 64, 64, 3, 3, 1, 1, 2, 2, 1, 1, 8);
  p.pad_after = {{0, 0, 2}};
  ConvProblemSize const strided = ConvProblemSize::conv2d(1, 9, 9, 64, 64, 1, 1, 0, 0, 3, 3, 1, 1, 8);
  for (ConvProblemSize const& q : {p, strided}) {
    INFO(describe(q));
    CHECK(run_conv<Packed<ConvOperator::kFprop>>(q).passed());
    CHECK(run_conv<Packed<ConvOperator::kDgrad>>(q).passed());
  }
}

TEST_CASE("packed groups: half-vector filter accesses for groups of 4 channels", "[conv][packed_groups]") {
  // (n, h, w, c, k, r, s, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w, groups)
  std::vector<ConvProblemSize> const four = {
      ConvProblemSize::conv2d(2, 9, 10, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 16),    // 16 groups of 4: one batch
      ConvProblemSize::conv2d(1, 11, 9, 128, 128, 3, 3, 1, 1, 2, 2, 1, 1, 32),  // 3 x 3 / 2, two batches
      ConvProblemSize::conv2d(1, 7, 8, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, 6),      // a batch of 6
      ConvProblemSize::conv2d(1, 8, 7, 32, 64, 3, 3, 1, 1, 1, 1, 1, 1, 8),      // C 4, K 8 a group
      ConvProblemSize::conv2d(1, 9, 9, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 8),      // 8 channels: half vectors too
  };
  Epilogue const e{0.75f, -0.5f, true};
  for (ConvProblemSize const& p : four) {
    INFO(describe(p));
    CHECK(run_conv<HalfVectors<ConvOperator::kFprop>>(p).passed());
    CHECK(run_conv<HalfVectors<ConvOperator::kDgrad>>(p).passed());
    CHECK(run_conv<HalfVectors<ConvOperator::kFprop, bfloat16_t, float>>(p, e).passed());
    CHECK(run_conv<HalfVectors<ConvOperator::kDgrad, half_t, float>>(p, e).passed());
  }
  CHECK(HalfVectors<ConvOperator::kFprop>::groups_per_batch(four[0]) == 16);
  CHECK(HalfVectors<ConvOperator::kFprop>::groups_per_batch(four[2]) == 6);
  // 3 groups of 4: no even count divides them, so a batch's x channels are no whole vector.
  ConvProblemSize const three = ConvProblemSize::conv2d(1, 6, 6, 12, 12, 3, 3, 1, 1, 1, 1, 1, 1, 3);
  using Fprop = HalfVectors<ConvOperator::kFprop>;
  CHECK(Fprop::groups_per_batch(three) == 1);
  CHECK(Fprop::can_implement(unread_arguments<Fprop>(three)) == Status::kErrorChannelsNotAligned);
  // x in whole 16-byte vectors, w in 8-byte accesses.
  auto args = unread_arguments<Fprop>(four[0]);
  args.b = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(args.b) + 8);
  CHECK(Fprop::can_implement(args) == Status::kSuccess);
  args.a = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(args.a) + 8);
  CHECK(Fprop::can_implement(args) == Status::kErrorMisalignedOperand);
}

TEST_CASE("packed groups: f16 and bf16 into f32, with alpha, beta and a bias", "[conv][packed_groups]") {
  Epilogue const e{0.75f, -0.5f, true};
  for (ConvProblemSize const& p : {kGroupedLayers[0], kGroupedLayers[3], kGroupedLayers[4]}) {
    INFO(describe(p));
    CHECK(run_conv<Packed<ConvOperator::kFprop>>(p, e).passed());
    CHECK(run_conv<Packed<ConvOperator::kFprop, bfloat16_t, float>>(p, e).passed());
    CHECK(run_conv<Packed<ConvOperator::kDgrad, bfloat16_t>>(p, e).passed());
    CHECK(run_conv<Packed<ConvOperator::kDgrad, half_t, float>>(p, e).passed());
  }
}

TEST_CASE("packed groups: a batch holds as many groups as the tile's N, a divisor of the groups",
          "[conv][packed_groups]") {
  using Fprop = Packed<ConvOperator::kFprop>;
  using Dgrad = Packed<ConvOperator::kDgrad>;
  static_assert(Fprop::TileShapeType::kN == 64 && Dgrad::TileShapeType::kN == 64);
  CHECK(Fprop::groups_per_batch(kGroupedLayers[0]) == 8);
  CHECK(Fprop::groups_per_batch(kGroupedLayers[2]) == 4);
  CHECK(Fprop::groups_per_batch(kGroupedLayers[3]) == 6);
  CHECK(Fprop::groups_per_batch(kGroupedLayers[4]) == 4);  // K 16 a group along N
  CHECK(Dgrad::groups_per_batch(kGroupedLayers[4]) == 8);  // C 8 a group along N
  // One group, or groups wider than half the tile: one a batch, the precomputed iterator's GEMM.
  ConvProblemSize const one = ConvProblemSize::conv2d(1, 6, 6, 64, 64, 3, 3, 1, 1);
  ConvProblemSize const wide = ConvProblemSize::conv2d(1, 6, 6, 80, 80, 3, 3, 1, 1, 1, 1, 1, 1, 2);
  CHECK(Fprop::groups_per_batch(one) == 1);
  CHECK(Fprop::groups_per_batch(wide) == 1);
  for (ConvProblemSize const& p : {one, wide}) {
    INFO(describe(p));
    CHECK(run_conv<Fprop>(p).passed());
    CHECK(run_conv<Dgrad>(p).passed());
  }
}

TEST_CASE("packed groups: Wgrad stores a batch's diagonal blocks only", "[conv][packed_groups][wgrad]") {
  using Wgrad = Packed<ConvOperator::kWgrad>;
  using WgradSplit = Wgrad::WithSplitK<hiptile::gemm::kernel::SplitKMode::kParallel>;
  static_assert(Wgrad::TileShapeType::kM == 64);
  std::vector<ConvProblemSize> layers = kGroupedLayers;
  layers.push_back(ConvProblemSize::conv2d(2, 9, 10, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 16));  // groups of 4
  layers.push_back(ConvProblemSize::conv2d(1, 7, 8, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, 6));    // groups of 4, 6 a batch
  for (ConvProblemSize const& p : layers) {
    INFO(describe(p));
    CHECK(run_conv<Wgrad>(p).passed());
    Epilogue split{1.0f, 0.0f, false, 3};
    CHECK(run_conv<WgradSplit>(p, split).passed());
  }
  CHECK(Wgrad::groups_per_batch(kGroupedLayers[0]) == 8);   // K 8 a group along M 64
  CHECK(Wgrad::groups_per_batch(kGroupedLayers[4]) == 4);   // K 16 a group
  CHECK(Wgrad::groups_per_batch(layers[layers.size() - 2]) == 16);
  // alpha, beta and a bias (one per filter); bf16 into f32.
  Epilogue const e{0.75f, -0.5f, true};
  CHECK(run_conv<Wgrad>(kGroupedLayers[1], e).passed());
  CHECK(run_conv<Packed<ConvOperator::kWgrad, bfloat16_t, float>>(kGroupedLayers[3], e).passed());
  Epilogue split_e{0.75f, -0.5f, true, 2};
  CHECK(run_conv<WgradSplit>(kGroupedLayers[4], split_e).passed());
  // 3 groups of 4 channels: no even count divides them, so a batch's channels are no whole vector.
  ConvProblemSize const three = ConvProblemSize::conv2d(1, 6, 6, 12, 12, 3, 3, 1, 1, 1, 1, 1, 1, 3);
  CHECK(Wgrad::can_implement(unread_arguments<Wgrad>(three)) == Status::kErrorChannelsNotAligned);
}

TEST_CASE("packed groups: the block-diagonal filter element of every (k, c, tap)", "[conv][packed_groups]") {
  // 6 groups of C 8 and K 4, 3 a batch: batch channels K 12 x C 24, 2 x 2 taps.
  ConvProblemSize const p = ConvProblemSize::conv2d(1, 5, 5, 48, 24, 2, 2, 0, 0, 1, 1, 1, 1, 6);
  ConvGeometry g;
  REQUIRE(ConvGeometry::make(p, false, g, 3) == Status::kSuccess);
  CHECK(g.cg == 24);
  CHECK(g.kg == 12);
  CHECK(g.problem.groups == 2);
  CHECK(g.filter_elements() == 4 * 8);
  for (int k = 0; k < 12; ++k) {
    for (int c = 0; c < 24; ++c) {
      for (int tap = 0; tap < 4; ++tap) {
        // w is K x taps x C/groups: filter k's tap's channel c % 8, where k's group (k / 4) is c's (c / 8).
        int const expected = k / 4 == c / 8 ? (k * 4 + tap) * 8 + c % 8 : -1;
        CHECK(g.packed_filter_element(k, c, tap) == expected);
      }
    }
  }
  // A pack that does not divide the groups is no geometry.
  CHECK(ConvGeometry::make(p, false, g, 4) == Status::kErrorInvalidProblem);
}

TEST_CASE("packed groups: refusals name what is wrong", "[conv][packed_groups]") {
  using Fprop = Packed<ConvOperator::kFprop>;
  using Dgrad = Packed<ConvOperator::kDgrad>;
  // 4 channels a group do not fill a 16-byte access of w (HalfVectors takes them).
  ConvProblemSize const four = ConvProblemSize::conv2d(1, 8, 8, 128, 128, 3, 3, 1, 1, 1, 1, 1, 1, 32);
  CHECK(Fprop::can_implement(unread_arguments<Fprop>(four)) == Status::kErrorChannelsNotAligned);
  CHECK(Dgrad::can_implement(unread_arguments<Dgrad>(four)) == Status::kErrorChannelsNotAligned);
  // Misaligned w.
  auto args = unread_arguments<Fprop>(kGroupedLayers[0]);
  CHECK(Fprop::can_implement(args) == Status::kSuccess);
  args.b = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(args.b) + 8);
  CHECK(Fprop::can_implement(args) == Status::kErrorMisalignedOperand);
  // A filter of more than 32 taps a dimension does not fit the precomputed masks.
  ConvProblemSize const wide = ConvProblemSize::conv2d(1, 4, 40, 64, 64, 1, 33, 0, 0, 1, 1, 1, 1, 8);
  CHECK(Fprop::can_implement(unread_arguments<Fprop>(wide)) == Status::kErrorNotSupported);
}

TEST_CASE("DefaultConvolution runs grouped layers of few channels on packed groups", "[conv][packed_groups][default]") {
  using hiptile::arch::Gfx942;
  using hiptile::conv::device::DefaultConvolution;
  using FpropDefault = DefaultConvolution<ConvOperator::kFprop, half_t, half_t, Gfx942>;
  using DgradDefault = DefaultConvolution<ConvOperator::kDgrad, half_t, half_t, Gfx942>;
  hiptile::conv::device::ConvChoice picked;
  auto const inspect = [&](auto const& conv, auto const&) { picked = conv.choice(); };
  for (ConvProblemSize const& p : {kGroupedLayers[0], kGroupedLayers[1], kGroupedLayers[4]}) {
    INFO(describe(p));
    CHECK(run_conv<FpropDefault>(p, {}, 3, inspect).passed());
    CHECK(picked.algorithm == IteratorAlgorithm::kPackedGroups);
    CHECK(picked.rule == hiptile::conv::device::ConvChoiceRule::kPackedGroups);
    CHECK(FpropDefault::candidate_name(picked.candidate).find("8 channels per access") != std::string::npos);
    CHECK(run_conv<DgradDefault>(p, {}, 3, inspect).passed());
    CHECK(picked.algorithm == IteratorAlgorithm::kPackedGroups);
  }
  // Wgrad: the packed-group candidates (split-K over the few tiles with a workspace).
  using WgradDefault = DefaultConvolution<ConvOperator::kWgrad, half_t, half_t, Gfx942>;
  for (ConvProblemSize const& p : {kGroupedLayers[0], kGroupedLayers[1]}) {
    INFO(describe(p));
    CHECK(run_conv<WgradDefault>(p, {}, 3, inspect).passed());
    CHECK(picked.algorithm == IteratorAlgorithm::kPackedGroups);
    CHECK(picked.rule == hiptile::conv::device::ConvChoiceRule::kPackedGroups);
  }
  // Groups of 4 channels: the half-vector candidate.
  ConvProblemSize const four = ConvProblemSize::conv2d(1, 9, 9, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 16);
  CHECK(run_conv<FpropDefault>(four, {}, 3, inspect).passed());
  CHECK(picked.algorithm == IteratorAlgorithm::kPackedGroups);
  CHECK(FpropDefault::candidate_name(picked.candidate).find("4 channels per access") != std::string::npos);
  CHECK(run_conv<DgradDefault>(four, {}, 3, inspect).passed());
  CHECK(picked.algorithm == IteratorAlgorithm::kPackedGroups);
  // One group, 64 channels a group, or 17 groups of 8 (no divisor of 17 but 1 puts two groups in
  // a 64-channel tile): the precomputed iterator as before.
  ConvProblemSize const one = ConvProblemSize::conv2d(1, 6, 6, 64, 64, 3, 3, 1, 1);
  ConvProblemSize const two = ConvProblemSize::conv2d(1, 6, 6, 128, 128, 3, 3, 1, 1, 1, 1, 1, 1, 2);
  ConvProblemSize const prime = ConvProblemSize::conv2d(1, 6, 6, 136, 136, 3, 3, 1, 1, 1, 1, 1, 1, 17);
  for (ConvProblemSize const& p : {one, two, prime}) {
    INFO(describe(p));
    CHECK(run_conv<FpropDefault>(p, {}, 3, inspect).passed());
    CHECK(picked.algorithm == IteratorAlgorithm::kPrecomputed);
  }
  // The log names the iterator of the choice.
  std::ostringstream text;
  text << hiptile::conv::device::ConvChoice{0, hiptile::conv::device::ConvChoiceRule::kPackedGroups, 128, 64, 64, 2,
                                            IteratorAlgorithm::kPackedGroups};
  CHECK(text.str().find("packed-group iterators") != std::string::npos);
}

}  // namespace
