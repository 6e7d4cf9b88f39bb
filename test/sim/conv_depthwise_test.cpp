// DepthwiseConvolution (the direct convolution of depthwise layers) in the simulator on gfx942:
// every element of its output against the double-precision nested-loop reference, on shapes that
// reach each path of the kernel (ragged tiles, stride above the filter, dilation, asymmetric
// padding, both modes, 3-D, a partial channel block, Dgrad's exact divisions), with the simulator's
// LDS race detector on; its refusals; and DefaultConvolution picking it for depthwise layers only.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "conv_test_support.hpp"
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/device/depthwise_convolution.hpp"
#include "hiptile/conv/direct/gather_axis.hpp"
#include "hiptile/platform/device_query.hpp"

namespace {

using conv_test::ConvOperator;
using conv_test::ConvProblemSize;
using conv_test::Spatial;
using hiptile::Status;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::conv::ConvMode;
using hiptile::conv::IteratorAlgorithm;
using hiptile::conv::device::ConvChoiceRule;

template <ConvOperator Op, class Element = half_t, class ElementC = Element>
using Depthwise = hiptile::conv::device::DepthwiseConvolution<Op, Element, ElementC, hiptile::arch::Gfx942>;

// Depthwise problems: C = K = groups.
ConvProblemSize depthwise(int n, int h, int w, int c, int r, int s, int pad_h, int pad_w, int stride_h = 1,
                          int stride_w = 1, int dilation_h = 1, int dilation_w = 1) {
  return ConvProblemSize::conv2d(n, h, w, c, c, r, s, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w, c);
}

std::vector<ConvProblemSize> shapes() {
  std::vector<ConvProblemSize> v = {
      depthwise(2, 9, 11, 64, 3, 3, 1, 1),          // MobileNet's 3x3, ragged
      depthwise(1, 14, 13, 72, 3, 3, 1, 1, 2, 2),   // stride 2, a partial channel block
      depthwise(1, 12, 12, 16, 5, 5, 2, 2),         // 5x5
      depthwise(1, 15, 10, 8, 7, 7, 3, 3),          // ConvNeXt's 7x7
      depthwise(1, 10, 9, 24, 3, 3, 2, 2, 1, 1, 2, 2),  // dilation 2
      depthwise(2, 7, 8, 8, 2, 2, 0, 0, 3, 3),      // stride above the filter
      depthwise(1, 6, 40, 136, 1, 3, 0, 1, 1, 2),   // 1x3, stride 1x2, three channel blocks
      depthwise(1, 30, 21, 8, 3, 3, 1, 1),          // more than one tile a plane
  };
  ConvProblemSize asymmetric = depthwise(1, 8, 9, 16, 3, 4, 0, 0, 2, 1);
  asymmetric.pad_before = {{0, 2, 1}};
  asymmetric.pad_after = {{0, 0, 2}};
  v.push_back(asymmetric);
  ConvProblemSize convolution = depthwise(1, 7, 7, 8, 3, 5, 1, 2, 1, 2);
  convolution.mode = ConvMode::kConvolution;
  v.push_back(convolution);
  // 3-D: 3x3x3, stride 2 in depth.
  v.push_back(ConvProblemSize::conv3d(1, {{5, 6, 7}}, 16, 16, {{3, 3, 3}}, {{1, 1, 1}}, {{2, 1, 1}}, {{1, 1, 1}}, 16));
  return v;
}

// The filter width whose unrolled tap loop DepthwiseConvolution should launch (docs/conv.md): 3, 5
// or 7 where the width axis has unit steps and nothing divides (Fprop: stride and dilation 1 along
// the width; Dgrad: stride 1 along height and width, dilation 1 along the width), else 0, the
// kernel for any filter.
int unrolled_width(ConvProblemSize const& p, ConvOperator op) {
  int const s = p.filter[2];
  bool const unit = p.dilation[2] == 1 && p.stride[2] == 1 && (op == ConvOperator::kFprop || p.stride[1] == 1);
  return unit && (s == 3 || s == 5 || s == 7) ? s : 0;
}

template <ConvOperator Op, class Element, class ElementC = Element>
void check_shapes(conv_test::Epilogue e = {}) {
  int unrolled = 0;
  for (ConvProblemSize const& p : shapes()) {
    auto const launched = [&](auto const& conv, auto const&) {
      CHECK(conv.window_width() == unrolled_width(p, Op));
      unrolled += conv.window_width() != 0;
    };
    auto const result = conv_test::run_conv<Depthwise<Op, Element, ElementC>>(p, e, 11, launched);
    INFO(conv_test::describe(p) << ": " << hiptile::host::to_string(result));
    CHECK(result.passed());
  }
  CHECK(unrolled == 5);  // (each unrolled kernel runs: two 3x3, the 3x3x3, a 5x5, a 7x7)
}

}  // namespace

TEST_CASE("GatherAxis: the halo holds every exact source position a tile reads", "[conv][depthwise]") {
  // Exhaustive over small axes: for each tile start and output and tap, the source position the
  // formulas of conv_problem_size.hpp give lies at its halo index, and exactly the taps whose division
  // is exact are kept.
  for (ConvOperator op : {ConvOperator::kFprop, ConvOperator::kDgrad}) {
    for (int stride = 1; stride <= 3; ++stride) {
      for (int dilation = 1; dilation <= 2; ++dilation) {
        for (int taps = 1; taps <= 4; ++taps) {
          for (int pad = 0; pad < dilation * (taps - 1) + 1; ++pad) {
            ConvProblemSize p = depthwise(1, 1, 13, 8, 1, taps, 0, pad, 1, stride, 1, dilation);
            if (p.check() != Status::kSuccess) continue;
            auto axis = hiptile::conv::GatherAxis::of(p, op, 2);
            for (int tile = 1; tile <= 4; ++tile) {
              int const halo = axis.halo_for(tile);
              for (int o0 = 0; o0 < axis.output; o0 += tile) {
                for (int o = 0; o < tile; ++o) {
                  for (int f = 0; f < taps; ++f) {
                    int const u = o * axis.out_step + f * axis.tap_step + axis.base(o0);
                    INFO("op " << int(op) << " stride " << stride << " dilation " << dilation << " taps " << taps
                               << " pad " << pad << " tile " << tile << " o0 " << o0 << " o " << o << " f " << f);
                    REQUIRE(u > -axis.divisor);
                    int const out = o0 + o;
                    // The reference's relation: Fprop x = out·stride − pad + f·dilation; Dgrad: the dy
                    // position q with out = q·stride − pad + f·dilation.
                    int const numerator = op == ConvOperator::kFprop ? out * stride - pad + f * dilation
                                                                     : out + pad - f * dilation;
                    int const divisor = op == ConvOperator::kFprop ? 1 : stride;
                    bool const exact = numerator % divisor == 0;
                    CHECK((u % axis.divisor == 0) == exact);
                    if (exact && u % axis.divisor == 0) {
                      int const index = u / axis.divisor;
                      CHECK(index >= 0);
                      CHECK(index < halo);
                      int const source = numerator / divisor;
                      CHECK(axis.origin(o0) + index == source);
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("DepthwiseConvolution Fprop: every shape against the double reference", "[conv][depthwise]") {
  check_shapes<ConvOperator::kFprop, half_t>();
  check_shapes<ConvOperator::kFprop, bfloat16_t>({0.5f, 0.0f, true});
}

TEST_CASE("DepthwiseConvolution Dgrad: every shape against the double reference", "[conv][depthwise]") {
  check_shapes<ConvOperator::kDgrad, half_t>();
  check_shapes<ConvOperator::kDgrad, bfloat16_t, float>({1.0f, 0.0f, true});
}

TEST_CASE("DepthwiseConvolution with the halo staged in fp32, 64 positions a workgroup: every shape", "[conv][depthwise]") {
  // (And fewer positions a workgroup, two loads in flight: the other shapes of DepthwiseWorkgroup.)
  using Tile = hiptile::conv::DepthwiseWorkgroup<64, 2, true>;
  using Fprop = hiptile::conv::device::DepthwiseConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942,
                                                            hiptile::epilogue::LinearCombination<half_t>, 8, Tile,
                                                            64 * 1024>;
  using Dgrad = hiptile::conv::device::DepthwiseConvolution<ConvOperator::kDgrad, bfloat16_t, bfloat16_t,
                                                            hiptile::arch::Gfx942,
                                                            hiptile::epilogue::LinearCombination<bfloat16_t>, 8, Tile,
                                                            64 * 1024>;
  static_assert(Fprop::Kernel::kParts == 2);
  for (ConvProblemSize const& p : shapes()) {
    auto const f = conv_test::run_conv<Fprop>(p, {1.0f, 0.5f, true}, 13);
    INFO(conv_test::describe(p) << ": " << hiptile::host::to_string(f));
    CHECK(f.passed());
    auto const d = conv_test::run_conv<Dgrad>(p, {}, 14);
    INFO(hiptile::host::to_string(d));
    CHECK(d.passed());
  }
}

TEST_CASE("DepthwiseConvolution Wgrad: every shape against the double reference, one slice and several",
          "[conv][depthwise][split_k]") {
  using Wgrad = Depthwise<ConvOperator::kWgrad>;
  for (ConvProblemSize const& p : shapes()) {
    int const slices = Wgrad::split_k_slices_for(p, 3);  // (a few: the shapes have few tiles)
    for (conv_test::Epilogue e : {conv_test::Epilogue{1.0f, 0.0f, false, 1}, conv_test::Epilogue{0.5f, -1.0f, true, slices},
                                  conv_test::Epilogue{1.0f, 0.0f, false, 7}}) {
      auto const result = conv_test::run_conv<Wgrad>(p, e, 15);
      INFO(conv_test::describe(p) << ", " << e.split_k_slices << " slices: " << hiptile::host::to_string(result));
      CHECK(result.passed());
    }
  }
  // bf16 in, fp32 out, and the lanes' strips of taps: 1 x 1 (32 groups of one-tap strips), 5 x 5
  // (five strips, six groups), 7 x 7 strided (seven strips of 7), 9 x 9 (two strips of 5 a row, one
  // tap dead), 11 x 12 (two strips of 7 a row, 22 lanes, one group), 1 x 31 (four strips of 8).
  using WgradF32 = Depthwise<ConvOperator::kWgrad, bfloat16_t, float>;
  for (ConvProblemSize const& p : {depthwise(2, 9, 8, 16, 1, 1, 0, 0), depthwise(1, 12, 11, 24, 5, 5, 2, 2),
                                   depthwise(1, 13, 12, 8, 7, 7, 3, 3, 2, 2), depthwise(1, 11, 12, 8, 9, 9, 4, 4),
                                   depthwise(1, 13, 14, 8, 11, 12, 5, 5), depthwise(2, 3, 40, 8, 1, 31, 0, 15)}) {
    auto const result = conv_test::run_conv<WgradF32>(p, {1.0f, 0.0f, true, 2}, 16);
    INFO(conv_test::describe(p) << ": " << hiptile::host::to_string(result));
    CHECK(result.passed());
  }
  // More strips of taps than lanes (7 x 7 x 7: 49 rows of 7 taps against 32 lanes): refused, the
  // implicit GEMM's.
  CHECK(Wgrad::can_implement(conv_test::unread_arguments<Wgrad>(ConvProblemSize::conv3d(
            1, {{9, 9, 9}}, 8, 8, {{7, 7, 7}}, {{3, 3, 3}}, {{1, 1, 1}}, {{1, 1, 1}}, 8))) == Status::kErrorNotSupported);
  using Strips = Wgrad::Kernel::Strips;
  CHECK(Strips::of(7, 7, 7).count == 49);
  CHECK(Strips::of(1, 3, 3).count == 3);
  CHECK(Strips::of(1, 9, 9).width == 5);
  CHECK(Strips::of(1, 9, 9).per_row == 2);
  CHECK(Strips::of(1, 1, 31).width == 8);
  CHECK(Strips::of(1, 1, 31).per_row == 4);
  // Several slices need the workspace.
  auto args = conv_test::unread_arguments<Wgrad>(depthwise(1, 20, 20, 8, 3, 3, 1, 1));
  args.split_k_slices = 2;
  CHECK(Wgrad::get_workspace_size(args) == 2u * 8 * 9 * sizeof(float));
  CHECK(Wgrad::can_implement(args) == Status::kErrorWorkspaceNull);
}

namespace {

// A HaloCopy (DepthwiseWorkgroup) that copies at once, through a register: with it the simulator
// runs the kernels' path of copies straight to LDS, which on NVIDIA is cp.async — Wgrad's two
// buffers, the next step's copies issued before this step's sums — with the LDS race detector on.
struct CopyAtOnce {
  template <class Vector>
  static void copy(Vector* lds, Vector const* global, int bytes) {
    Vector value;
    value.fill(typename Vector::value_type{});
    if (bytes != 0) value = hiptile::arch::global_load(global);
    hiptile::arch::lds_store(lds, value);
  }
  static void commit() {}
  template <int kPending>
  static void wait() {}
};

template <ConvOperator Op, class Element>
using CopiedAtOnce = hiptile::conv::device::DepthwiseConvolution<Op, Element, Element, hiptile::arch::Gfx942,
                                                                 hiptile::epilogue::LinearCombination<Element>, 8,
                                                                 hiptile::conv::DepthwiseWorkgroup<128, 1, false, CopyAtOnce>,
                                                                 64 * 1024>;

}  // namespace

TEST_CASE("DepthwiseConvolution with the halo copied straight to LDS: every shape", "[conv][depthwise]") {
  static_assert(CopiedAtOnce<ConvOperator::kWgrad, half_t>::Kernel::kBuffers == 2);
  using WgradF16 = CopiedAtOnce<ConvOperator::kWgrad, half_t>;
  for (ConvProblemSize const& p : shapes()) {
    auto const f = conv_test::run_conv<CopiedAtOnce<ConvOperator::kFprop, half_t>>(p, {1.0f, 0.5f, true}, 17);
    INFO(conv_test::describe(p) << ": Fprop " << hiptile::host::to_string(f));
    CHECK(f.passed());
    auto const d = conv_test::run_conv<CopiedAtOnce<ConvOperator::kDgrad, bfloat16_t>>(p, {}, 18);
    INFO("Dgrad " << hiptile::host::to_string(d));
    CHECK(d.passed());
    // Slices of several tiles each: the walk's steps alternate the buffers (3-D: several steps a tile).
    for (int slices : {1, 2}) {
      auto const w = conv_test::run_conv<WgradF16>(p, {0.5f, -1.0f, true, slices}, 19);
      INFO("Wgrad, " << slices << " slices: " << hiptile::host::to_string(w));
      CHECK(w.passed());
    }
  }
}

TEST_CASE("DepthwiseConvolution: alpha, beta, bias and an fp32 output", "[conv][depthwise]") {
  ConvProblemSize const p = depthwise(2, 9, 10, 24, 3, 3, 1, 1, 2, 1);
  for (conv_test::Epilogue e : {conv_test::Epilogue{2.0f, 0.5f, true}, conv_test::Epilogue{-1.0f, 1.0f, false}}) {
    auto const f = conv_test::run_conv<Depthwise<ConvOperator::kFprop, half_t, float>>(p, e, 3);
    CHECK(f.passed());
    auto const d = conv_test::run_conv<Depthwise<ConvOperator::kDgrad, half_t>>(p, e, 4);
    CHECK(d.passed());
  }
}

// The timing model's golden table of the depthwise kernel (test/amd/data/timing_golden_depthwise.md)
// names, per layer, the tile the gfx942 operator launches: it must be choose_tile's.
TEST_CASE("DepthwiseConvolution: the timing model's golden rows name the tiles choose_tile picks", "[conv][depthwise]") {
  std::ifstream table(HIPTILE_DEPTHWISE_GOLDEN);
  REQUIRE(table);
  // (The timing model's problem: 'fprop|dgrad NxHxWxC, RxS/sS/pP[/dD], tile THxTW'.)
  std::regex const row(
      R"(^\| [^|]+ \| (fprop|dgrad) (\d+)x(\d+)x(\d+)x(\d+), (\d+)x(\d+)/s(\d+)/p(\d+)(?:/d(\d+))?, tile (\d+)x(\d+) \|)");
  int rows = 0;
  for (std::string line; std::getline(table, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    auto const at = [&](int i) { return std::stoi(m[i].str()); };
    int const dilation = m[10].matched ? at(10) : 1;
    ConvProblemSize const p =
        depthwise(at(2), at(3), at(4), at(5), at(6), at(7), at(9), at(9), at(8), at(8), dilation, dilation);
    ConvOperator const op = m[1].str() == "fprop" ? ConvOperator::kFprop : ConvOperator::kDgrad;
    auto h = hiptile::conv::GatherAxis::of(p, op, 1);
    auto w = hiptile::conv::GatherAxis::of(p, op, 2);
    INFO(line);
    REQUIRE((op == ConvOperator::kFprop ? Depthwise<ConvOperator::kFprop>::choose_tile(h, w)
                                        : Depthwise<ConvOperator::kDgrad>::choose_tile(h, w)));
    CHECK(h.tile == at(11));
    CHECK(w.tile == at(12));
    ++rows;
  }
  CHECK(rows == 8);
}

TEST_CASE("DepthwiseConvolution: the tile has the window where it can, reads the fewest source positions, fits its LDS",
          "[conv][depthwise]") {
  // The LDS a workgroup may take (docs/conv.md): half a CU's or an SM's, so that two share it, less
  // the 1 KiB an SM keeps for each on NVIDIA.
  using hiptile::conv::device::kDepthwiseLdsBytes;
  static_assert(kDepthwiseLdsBytes<hiptile::arch::Gfx942> == 32 * 1024);
  static_assert(kDepthwiseLdsBytes<hiptile::arch::Sm90> == 112 * 1024);
  static_assert(kDepthwiseLdsBytes<hiptile::arch::Sm80> == 80 * 1024);
  using D = Depthwise<ConvOperator::kFprop>;
  using Kernel = D::Kernel;
  for (ConvProblemSize const& p : {depthwise(1, 56, 56, 64, 3, 3, 1, 1), depthwise(1, 112, 112, 64, 3, 3, 1, 1, 2, 2),
                                   depthwise(1, 28, 28, 64, 7, 7, 3, 3), depthwise(1, 7, 7, 64, 5, 5, 2, 2),
                                   depthwise(1, 30, 30, 64, 3, 3, 2, 2, 1, 1, 2, 2)}) {
    auto h = hiptile::conv::GatherAxis::of(p, ConvOperator::kFprop, 1);
    auto w = hiptile::conv::GatherAxis::of(p, ConvOperator::kFprop, 2);
    auto const h0 = h, w0 = w;
    REQUIRE(D::choose_tile(h, w));
    INFO(conv_test::describe(p) << ": tile " << h.tile << "x" << w.tile);
    CHECK(h.tile * w.tile <= Kernel::kMaxPixels);
    CHECK(Kernel::lds_bytes(h, w) <= std::int64_t(D::kLdsBytes));
    bool const window = Kernel::window_fits(h, w);
    // Every other tile that fits (widths past the output's only with the window): none has the
    // window where the chosen one has not, and none of the same kind reads fewer source positions.
    auto reads = [&](int th, int tw) {
      return std::int64_t((h.output + th - 1) / th) * ((w.output + tw - 1) / tw) * h0.halo_for(th) * w0.halo_for(tw);
    };
    for (int tw = 1; tw <= Kernel::kMaxPixels; ++tw) {
      for (int th = 1; th <= std::min(h.output, Kernel::kMaxPixels / tw); ++th) {
        auto hh = h0, ww = w0;
        hh.tile = th, ww.tile = tw;
        hh.halo = h0.halo_for(th), ww.halo = w0.halo_for(tw);
        bool const other_window = Kernel::window_fits(hh, ww);
        if (Kernel::lds_bytes(hh, ww) > std::int64_t(D::kLdsBytes) || (tw > w.output && !other_window) ||
            (tw >= w.output + Kernel::kRun)) {
          continue;
        }
        CHECK((window || !other_window));
        if (other_window == window) CHECK(reads(h.tile, w.tile) <= reads(th, tw));
      }
    }
  }
  // Unit steps along the width: the window (a width of whole runs).
  auto h = hiptile::conv::GatherAxis::of(depthwise(1, 56, 56, 64, 3, 3, 1, 1), ConvOperator::kFprop, 1);
  auto w = hiptile::conv::GatherAxis::of(depthwise(1, 56, 56, 64, 3, 3, 1, 1), ConvOperator::kFprop, 2);
  REQUIRE(D::choose_tile(h, w));
  CHECK(Kernel::window_fits(h, w));
}

TEST_CASE("DepthwiseConvolution refuses what it cannot run, with the Status that says why", "[conv][depthwise]") {
  using D = Depthwise<ConvOperator::kFprop>;
  auto args = conv_test::unread_arguments<D>(depthwise(1, 8, 8, 16, 3, 3, 1, 1));
  CHECK(D::can_implement(args) == Status::kSuccess);
  auto grouped = args;
  grouped.problem = ConvProblemSize::conv2d(1, 8, 8, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 8);  // 2 channels a group
  CHECK(D::can_implement(grouped) == Status::kErrorNotSupported);
  auto multiplier = args;
  multiplier.problem = ConvProblemSize::conv2d(1, 8, 8, 16, 32, 3, 3, 1, 1, 1, 1, 1, 1, 16);  // K = 2C
  CHECK(D::can_implement(multiplier) == Status::kErrorNotSupported);
  auto odd = args;
  odd.problem = depthwise(1, 8, 8, 12, 3, 3, 1, 1);
  CHECK(D::can_implement(odd) == Status::kErrorChannelsNotAligned);
  auto misaligned = args;
  misaligned.a = args.a + 1;
  CHECK(D::can_implement(misaligned) == Status::kErrorMisalignedOperand);
  auto split = args;
  split.split_k_slices = 2;
  CHECK(D::can_implement(split) == Status::kErrorNotSupported);
  auto null = args;
  null.b = nullptr;
  CHECK(D::can_implement(null) == Status::kErrorNullPointer);
  // A dilation so large that one output position's halo passes the LDS (ASPP-like): refused here,
  // the implicit GEMM's to take.
  auto dilated = args;
  dilated.problem = depthwise(1, 200, 200, 64, 3, 3, 90, 90, 1, 1, 90, 90);
  CHECK(D::can_implement(dilated) == Status::kErrorNotSupported);
  auto aliased = args;
  aliased.d = reinterpret_cast<half_t*>(const_cast<half_t*>(args.a));
  CHECK(D::can_implement(aliased) == Status::kErrorAliasedOperand);
}

TEST_CASE("DefaultConvolution picks the direct convolution for depthwise layers, and only for them",
          "[conv][depthwise][default]") {
  using Fprop = hiptile::conv::device::DefaultConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942>;
  using Dgrad = hiptile::conv::device::DefaultConvolution<ConvOperator::kDgrad, half_t, half_t, hiptile::arch::Gfx942>;
  using Wgrad = hiptile::conv::device::DefaultConvolution<ConvOperator::kWgrad, half_t, half_t, hiptile::arch::Gfx942>;
  ConvProblemSize const dw = depthwise(1, 12, 12, 32, 3, 3, 1, 1, 2, 2);
  // Wgrad: its output tiles split into slices for the device's slots (the workspace run_conv gives).
  auto wgrad = conv_test::run_conv<Wgrad>(depthwise(2, 30, 30, 32, 3, 3, 1, 1), {}, 7, [](auto const& op, auto const& args) {
    CHECK(op.choice().rule == ConvChoiceRule::kDirect);
    using Direct = typename Wgrad::template Candidate<4>;  // (after the split-K twins; the analytic split one last)
    static_assert(Direct::kAlgorithm == IteratorAlgorithm::kDirect);
    std::int64_t slots = 0;
    REQUIRE(hiptile::query_device_workgroups<typename Direct::Kernel>(unsigned(Direct::kThreads), Direct::kLdsBytes,
                                                                      slots) == Status::kSuccess);
    CHECK(op.choice().split_k_slices == Direct::split_k_slices_for(args.problem, 2 * slots));
    CHECK(op.choice().split_k_slices > 1);
  });
  CHECK(wgrad.passed());
  auto fprop = conv_test::run_conv<Fprop>(dw, {}, 5, [](auto const& op, auto const&) {
    CHECK(op.choice().rule == ConvChoiceRule::kDirect);
    CHECK(op.choice().algorithm == IteratorAlgorithm::kDirect);
  });
  CHECK(fprop.passed());
  auto dgrad = conv_test::run_conv<Dgrad>(dw, {}, 6, [](auto const& op, auto const&) {
    CHECK(op.choice().rule == ConvChoiceRule::kDirect);
  });
  CHECK(dgrad.passed());
  // Grouped with two channels a group, and C = 12 (no whole vectors): implicit GEMMs.
  for (ConvProblemSize const& p : {ConvProblemSize::conv2d(1, 8, 8, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 8),
                                   depthwise(1, 8, 8, 12, 3, 3, 1, 1)}) {
    auto r = conv_test::run_conv<Fprop>(p, {}, 8, [](auto const& op, auto const&) {
      CHECK(op.choice().algorithm != IteratorAlgorithm::kDirect);
    });
    CHECK(r.passed());
  }
}
