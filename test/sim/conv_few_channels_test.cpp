// Fprop with few channels per group through the packed-taps iterator (IteratorAlgorithm::
// kFewChannels: K = taps · C/groups in one run), on the simulator, every output element against the
// double-precision host reference: RGB stems and patchify layers (3 channels, strides 2, 4 and 16),
// 1, 2, 4 and 8 channels with accesses of 1, 2 and 4 channels, padding on both sides, dilation,
// convolution mode, groups, 3-D, f16 and bf16 into f32, α, β·C and a bias; K runs that end inside a
// tile and that span several taps per tile; rows past the last pixel. Then its refusals, and
// DefaultConvolution's choice of it for the layers no whole-vector iterator takes.
#include <sstream>
#include <vector>

#include "conv_test_support.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/few_channel_fprop_loaders.hpp"
#include "hiptile/log/logger.hpp"

namespace {

using namespace conv_test;
using hiptile::bfloat16_t;
using hiptile::half_t;

template <int Access, class Element = half_t, class ElementC = Element>
using FewChannelConv = Gfx942Conv<ConvOperator::kFprop, Element, IteratorAlgorithm::kFewChannels, Access, ElementC>;

ConvProblemSize with_mode(ConvProblemSize p, ConvMode mode) {
  p.mode = mode;
  return p;
}

// Three channels (one-channel accesses): stems, patchify, odd sizes and paddings.
std::vector<ConvProblemSize> const kRgbLayers = {
    ConvProblemSize::conv2d(2, 19, 17, 3, 24, 7, 7, 3, 3, 2, 2),   // ResNet's 7 × 7 / 2 stem, 147 taps·channels
    ConvProblemSize::conv2d(1, 20, 24, 3, 40, 4, 4, 0, 0, 4, 4),   // 4 × 4 / 4 patchify (48: one and a half tiles)
    ConvProblemSize::conv2d(1, 32, 32, 3, 20, 16, 16, 0, 0, 16, 16),  // 16 × 16 / 16 patchify (768)
    ConvProblemSize::conv2d(3, 15, 13, 3, 16, 3, 3, 1, 1, 2, 2),   // 3 × 3 / 2 stem (27: under one tile)
    ConvProblemSize::conv2d(1, 11, 14, 3, 8, 3, 5, 2, 1, 1, 1, 2, 1),  // dilated rows, uneven padding
    with_mode(ConvProblemSize::conv2d(2, 9, 10, 3, 12, 3, 3, 1, 1, 1, 2), ConvMode::kConvolution),
    ConvProblemSize::conv3d(1, {{5, 7, 6}}, 3, 16, {{3, 3, 3}}, {{1, 1, 1}}, {{2, 1, 2}}),
};

TEST_CASE("few-channel Fprop: RGB stems and patchify layers match the reference", "[conv][few_channels]") {
  for (ConvProblemSize const& p : kRgbLayers) {
    INFO(describe(p));
    CHECK(run_conv<FewChannelConv<1>>(p).passed());
  }
  // Uneven padding after: the window stops short of the last pixels.
  ConvProblemSize p = ConvProblemSize::conv2d(2, 13, 13, 3, 24, 5, 5, 2, 2, 2, 2);
  p.pad_after = {{0, 0, 3}};
  INFO(describe(p));
  CHECK(run_conv<FewChannelConv<1>>(p).passed());
}

TEST_CASE("few-channel Fprop: f16 and bf16 into f32, with alpha, beta and a bias", "[conv][few_channels]") {
  Epilogue const e{0.75f, -0.5f, true};
  for (ConvProblemSize const& p : {kRgbLayers[0], kRgbLayers[3], kRgbLayers[6]}) {
    INFO(describe(p));
    CHECK(run_conv<FewChannelConv<1>>(p, e).passed());
    CHECK(run_conv<FewChannelConv<1, bfloat16_t>>(p, e).passed());
    CHECK(run_conv<FewChannelConv<1, half_t, float>>(p, e).passed());
    CHECK(run_conv<FewChannelConv<1, bfloat16_t, float>>(p, e).passed());
  }
}

TEST_CASE("few-channel Fprop: wider accesses of 2 and 4 channels, 1 to 8 channels, groups", "[conv][few_channels]") {
  // (n, h, w, c, k, r, s, pad, pad, stride, stride, dilation, dilation, groups)
  for (int c : {1, 2, 4, 8}) {
    ConvProblemSize const p = ConvProblemSize::conv2d(2, 12, 11, c, 16, 5, 5, 2, 2, 2, 1);
    INFO(describe(p));
    CHECK(run_conv<FewChannelConv<1>>(p).passed());
    if (c % 2 == 0) CHECK(run_conv<FewChannelConv<2>>(p).passed());
    if (c % 4 == 0) CHECK(run_conv<FewChannelConv<4>>(p).passed());
  }
  // Groups of few channels each: 4 groups of 2 channels to 4 groups of 6 filters; 2 groups of 4.
  for (ConvProblemSize const& p : {ConvProblemSize::conv2d(2, 9, 9, 8, 24, 3, 3, 1, 1, 1, 1, 1, 1, 4),
                                   ConvProblemSize::conv2d(1, 10, 7, 8, 32, 3, 3, 1, 1, 2, 1, 1, 1, 2)}) {
    INFO(describe(p));
    CHECK(run_conv<FewChannelConv<1>>(p).passed());
    CHECK(run_conv<FewChannelConv<2>>(p).passed());
  }
}

TEST_CASE("few-channel Fprop: the packed K counts its tiles once, not a tile per tap", "[conv][few_channels]") {
  // 7 x 7 taps of 3 channels: 147 elements of K, five tiles of 32 (the channel-block order: 49).
  hiptile::conv::ConvGeometry g;
  REQUIRE(hiptile::conv::ConvGeometry::make(kRgbLayers[0], false, g) == Status::kSuccess);
  CHECK(hiptile::conv::few_channel_k(g) == 147);
  CHECK(kRgbLayers[0].implicit_gemm(ConvOperator::kFprop).k == 147);
}

TEST_CASE("few-channel Fprop: refusals name what is wrong", "[conv][few_channels]") {
  using Conv4 = FewChannelConv<4>;
  // Three channels do not fill a four-channel access.
  auto args = unread_arguments<Conv4>(kRgbLayers[0]);
  CHECK(Conv4::can_implement(args) == Status::kErrorChannelsNotAligned);
  // An access of 4 f16 channels needs 8-byte aligned x and w.
  ConvProblemSize const four = ConvProblemSize::conv2d(1, 8, 8, 4, 8, 3, 3, 1, 1);
  args = unread_arguments<Conv4>(four);
  CHECK(Conv4::can_implement(args) == Status::kSuccess);
  args.a = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(args.a) + 2);
  CHECK(Conv4::can_implement(args) == Status::kErrorMisalignedOperand);
  // A filter of more than 32 taps a dimension does not fit the masks.
  using Conv1 = FewChannelConv<1>;
  ConvProblemSize const wide = ConvProblemSize::conv2d(1, 4, 40, 3, 8, 1, 33, 0, 0);
  CHECK(Conv1::can_implement(unread_arguments<Conv1>(wide)) == Status::kErrorNotSupported);
}

TEST_CASE("DefaultConvolution runs RGB stems on the few-channel iterator", "[conv][few_channels][default]") {
  using Default = hiptile::conv::device::DefaultConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942>;
  hiptile::conv::IteratorAlgorithm picked = IteratorAlgorithm::kPrecomputed;
  auto const inspect = [&](auto const& conv, auto const&) { picked = conv.choice().algorithm; };
  for (ConvProblemSize const& p : {kRgbLayers[0], kRgbLayers[1], kRgbLayers[3]}) {
    INFO(describe(p));
    CHECK(run_conv<Default>(p, {}, 3, inspect).passed());
    CHECK(picked == IteratorAlgorithm::kFewChannels);
  }
  // Channels of whole 16-byte vectors stay on the precomputed iterator.
  ConvProblemSize const eight = ConvProblemSize::conv2d(1, 12, 12, 8, 16, 3, 3, 1, 1);
  CHECK(run_conv<Default>(eight, {}, 3, inspect).passed());
  CHECK(picked == IteratorAlgorithm::kPrecomputed);
  // And the log names the iterator of the choice.
  std::ostringstream text;
  text << hiptile::conv::device::ConvChoice{0, hiptile::conv::device::ConvChoiceRule::kFewChannels, 128, 128, 32, 2,
                                            IteratorAlgorithm::kFewChannels};
  CHECK(text.str().find("few-channel iterators") != std::string::npos);
}

}  // namespace
