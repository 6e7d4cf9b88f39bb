// Convolution configurations beyond the defaults, on the simulator:
//  - split-K, parallel and serial: every split count gives the reference's answer, the same split
//    count gives bitwise the same output run after run, and the same in both modes (both add the
//    slices in one order); serial split-K leaves its flags zero between runs; the workspace is
//    checked (null, too small, misaligned, aliased);
//  - the strided-dgrad output mapping with plain division or FastDivmod in its source load and its
//    store (the four RowDivision combinations) gives the same, right, answer;
//  - f32 convolutions (f32 MFMA), both iterator families.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "../common/split_k_determinism.hpp"
#include "conv_test_support.hpp"

namespace {

using namespace conv_test;
using hiptile::half_t;
using hiptile::conv::RowDivision;
using hiptile::gemm::kernel::SplitKMode;

template <ConvOperator Op, IteratorAlgorithm Algorithm = IteratorAlgorithm::kPrecomputed,
          SplitKMode Mode = SplitKMode::kParallel>
using SplitConv = Gfx942Conv<Op, half_t, Algorithm, 8, half_t, RowDivision::kFast, RowDivision::kFast, Mode>;

std::vector<ConvProblemSize> const kSplitShapes = {
    ConvProblemSize::conv2d(2, 9, 11, 16, 24, 3, 3, 1, 1),
    ConvProblemSize::conv2d(1, 13, 12, 32, 40, 3, 3, 1, 1, 2, 2),
    ConvProblemSize::conv3d(1, {{4, 5, 6}}, 8, 16, {{3, 3, 3}}, {{1, 1, 1}}),
};

template <SplitKMode Mode>
void check_split_counts() {
  Epilogue e{0.75f, 0.5f, true};
  for (int slices : {1, 2, 3, 7}) {
    e.split_k_slices = slices;
    for (ConvProblemSize const& p : kSplitShapes) {
      INFO("slices " << slices << ": " << describe(p));
      CHECK(run_conv<SplitConv<ConvOperator::kWgrad, IteratorAlgorithm::kPrecomputed, Mode>>(p, e).passed());
      CHECK(run_conv<SplitConv<ConvOperator::kWgrad, IteratorAlgorithm::kAnalytic, Mode>>(p, e).passed());
      CHECK(run_conv<SplitConv<ConvOperator::kFprop, IteratorAlgorithm::kPrecomputed, Mode>>(p, e).passed());
      CHECK(run_conv<SplitConv<ConvOperator::kDgrad, IteratorAlgorithm::kPrecomputed, Mode>>(p, e).passed());
    }
  }
}

TEST_CASE("conv: parallel split-K gives the reference's answer for every split count", "[conv][split_k]") {
  check_split_counts<SplitKMode::kParallel>();
}

TEST_CASE("conv: serial split-K gives the reference's answer for every split count", "[conv][split_k]") {
  check_split_counts<SplitKMode::kSerial>();
}

// Wgrad of fixed data with `slices` slices: its operands, arguments and workspace.
template <SplitKMode Mode>
struct WgradProblem {
  using Conv = SplitConv<ConvOperator::kWgrad, IteratorAlgorithm::kPrecomputed, Mode>;
  hiptile::host::DeviceBuffer<half_t> dy, x, dw;
  hiptile::host::DeviceBuffer<std::byte> workspace;
  typename Conv::Arguments args;

  WgradProblem(ConvProblemSize const& p, int slices) {
    TensorShapes const s = tensor_shapes(p);
    HostMatrix<half_t, RowMajor> host_dy(s.y_rows, s.y_cols), host_x(s.x_rows, s.x_cols), host_dw(s.w_rows, s.w_cols);
    hiptile::host::fill_random(host_dy, 5, -1.0, 1.0);
    hiptile::host::fill_random(host_x, 6, -1.0, 1.0);
    dy = hiptile::host::DeviceBuffer<half_t>(std::as_const(host_dy).span());
    x = hiptile::host::DeviceBuffer<half_t>(std::as_const(host_x).span());
    dw = hiptile::host::DeviceBuffer<half_t>(std::as_const(host_dw).span());
    args = {p, dy.data(), x.data(), nullptr, dw.data(), {1.0f, 0.0f}};
    args.split_k_slices = slices;
    args.workspace_bytes = Conv::get_workspace_size(args);
    workspace = hiptile::host::DeviceBuffer<std::byte>(args.workspace_bytes);
    args.workspace = workspace.data();
  }
};

// Runs Wgrad with `slices` slices on fixed data and returns dw.
template <SplitKMode Mode>
std::vector<half_t> wgrad_output(ConvProblemSize const& p, int slices) {
  WgradProblem<Mode> problem(p, slices);
  typename WgradProblem<Mode>::Conv conv;
  REQUIRE(conv(problem.args) == Status::kSuccess);
  return problem.dw.copy_to_host();
}

TEST_CASE("conv: split-K is bitwise deterministic, and the same serial and parallel", "[conv][split_k]") {
  ConvProblemSize const p = ConvProblemSize::conv2d(2, 15, 14, 16, 16, 3, 3, 1, 1);
  test_support::check_split_k_bitwise([&](auto mode, int slices) { return wgrad_output<decltype(mode)::value>(p, slices); },
                                      {2, 5});
}

// The flags of serial split-K, set to 1 (what a slice raises) before initialize(): every run gives
// the bits of a fresh workspace and leaves them zero, runs after the first without zeroing them
// (docs/gemm.md, "The flags between runs").
TEST_CASE("conv: serial split-K leaves its flags zero, run after run", "[conv][split_k]") {
  ConvProblemSize const p = ConvProblemSize::conv2d(2, 15, 14, 16, 16, 3, 3, 1, 1);
  int const slices = 3;
  std::vector<half_t> const expected = wgrad_output<SplitKMode::kSerial>(p, slices);
  WgradProblem<SplitKMode::kSerial> problem(p, slices);
  using Conv = WgradProblem<SplitKMode::kSerial>::Conv;
  using Tile = Conv::TileShapeType;
  // Wgrad's GEMM: K × (R·S·C) with one group, slot per tile and slice but the last.
  std::int64_t const tiles = hiptile::ceil_div(16, Tile::kM) * hiptile::ceil_div(3 * 3 * 16, Tile::kN);
  std::int64_t const slots = tiles * (slices - 1);
  int* const flags = reinterpret_cast<int*>(problem.workspace.data());
  std::fill(flags, flags + slots, 1);
  Conv conv;
  REQUIRE(conv.initialize(problem.args) == Status::kSuccess);
  for (int run = 0; run < 3; ++run) {
    INFO("run " << run << " after initialize()");
    std::vector<half_t> const poison(expected.size(), half_t(NAN));
    problem.dw.copy_from_host(poison);
    REQUIRE(conv.run() == Status::kSuccess);
    CHECK(test_support::same_bits(problem.dw.copy_to_host(), expected));
    CHECK(std::count(flags, flags + slots, 0) == slots);
  }
}

TEST_CASE("conv: split-K workspace and slice checks", "[conv][split_k]") {
  using Conv = SplitConv<ConvOperator::kWgrad>;
  using Unsplit = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kPrecomputed>;
  ConvProblemSize const p = kSplitShapes[0];
  auto const* a = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 20);
  auto const* b = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 30);
  auto* d = reinterpret_cast<half_t*>(std::uintptr_t(1) << 36);
  Conv::Arguments args{p, a, b, nullptr, d, {1.0f, 0.0f}};
  args.split_k_slices = 4;
  std::size_t const bytes = Conv::get_workspace_size(args);
  TensorShapes const s = tensor_shapes(p);
  CHECK(bytes == std::size_t(4) * s.w_rows * s.w_cols * sizeof(float));  // one group, 4 fp32 partial dw
  CHECK(Conv::can_implement(args) == Status::kErrorWorkspaceNull);
  args.workspace = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  args.workspace_bytes = bytes - 1;
  CHECK(Conv::can_implement(args) == Status::kErrorWorkspaceTooSmall);
  args.workspace_bytes = bytes;
  CHECK(Conv::can_implement(args) == Status::kSuccess);
  args.workspace = const_cast<half_t*>(b);  // over x
  CHECK(Conv::can_implement(args) == Status::kErrorAliasedOperand);
  args.workspace = reinterpret_cast<void*>((std::uintptr_t(1) << 40) + 8);
  CHECK(Conv::can_implement(args) == Status::kErrorMisalignedOperand);
  args.split_k_slices = 0;
  CHECK(Conv::can_implement(args) == Status::kErrorInvalidProblem);

  // Serial: a flag (padded to 256 bytes) and a tile of fp32 partial sums per slice but the last of
  // every tile (Wgrad of this problem: 24 filters × 9 taps · 16 channels = 1 × 2 tiles of
  // 128 × 128); none with one slice.
  using Serial = SplitConv<ConvOperator::kWgrad, IteratorAlgorithm::kPrecomputed, SplitKMode::kSerial>;
  Serial::Arguments serial{p, a, b, nullptr, d, {1.0f, 0.0f}};
  CHECK(Serial::get_workspace_size(serial) == 0);
  CHECK(Serial::can_implement(serial) == Status::kSuccess);
  serial.split_k_slices = 3;
  std::size_t const serial_bytes = Serial::get_workspace_size(serial);
  CHECK(serial_bytes == 256 + std::size_t(2) * 2 * 128 * 128 * sizeof(float));
  CHECK(Serial::can_implement(serial) == Status::kErrorWorkspaceNull);
  serial.workspace = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  serial.workspace_bytes = serial_bytes - 1;
  CHECK(Serial::can_implement(serial) == Status::kErrorWorkspaceTooSmall);
  serial.workspace_bytes = serial_bytes;
  CHECK(Serial::can_implement(serial) == Status::kSuccess);
  serial.workspace = d;  // over dw
  CHECK(Serial::can_implement(serial) == Status::kErrorAliasedOperand);

  Unsplit::Arguments unsplit{p, a, b, nullptr, d, {1.0f, 0.0f}};
  unsplit.split_k_slices = 2;
  CHECK(Unsplit::can_implement(unsplit) == Status::kErrorNotSupported);
  CHECK(Unsplit::get_workspace_size(unsplit) == 0);
}

template <RowDivision Load, RowDivision Store>
using StridedDgrad = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kPrecomputed, 8, half_t, Load, Store>;

TEST_CASE("conv: strided dgrad with plain or fast division in the epilogue's load and store", "[conv]") {
  // Strides 2 and 3 with a source tensor, so both the load and the store map rows; 1×1 / 2 has
  // classes without taps.
  std::vector<ConvProblemSize> const shapes = {ConvProblemSize::conv2d(2, 13, 11, 16, 24, 3, 3, 1, 1, 2, 2),
                                               ConvProblemSize::conv2d(1, 10, 14, 8, 16, 1, 1, 0, 0, 2, 2),
                                               ConvProblemSize::conv2d(1, 11, 9, 16, 8, 5, 3, 2, 1, 3, 2)};
  Epilogue const e{1.0f, -0.5f, true};
  for (ConvProblemSize const& p : shapes) {
    INFO(describe(p));
    CHECK(run_conv<StridedDgrad<RowDivision::kPlain, RowDivision::kPlain>>(p, e).passed());
    CHECK(run_conv<StridedDgrad<RowDivision::kFast, RowDivision::kPlain>>(p, e).passed());
    CHECK(run_conv<StridedDgrad<RowDivision::kPlain, RowDivision::kFast>>(p, e).passed());
    CHECK(run_conv<StridedDgrad<RowDivision::kFast, RowDivision::kFast>>(p, e).passed());
  }
}

}  // namespace

namespace {

// f32 in and out with the 32×32×2 f32 MFMA; TileShape::kK 16 keeps two stages within 64 KiB of LDS.
template <ConvOperator Op, IteratorAlgorithm Algorithm = IteratorAlgorithm::kPrecomputed, int AccessElements = 4>
using F32Conv = hiptile::conv::device::ImplicitGemmConvolution<
    Op, float, float, float, hiptile::arch::Gfx942, GemmShape<128, 128, 16>, GemmShape<64, 64, 16>,
    hiptile::arch::Mfma32x32x2F32, hiptile::epilogue::LinearCombination<float>, Algorithm, AccessElements, 2>;

TEST_CASE("conv: f32", "[conv]") {
  std::vector<ConvProblemSize> const shapes = {ConvProblemSize::conv2d(2, 9, 11, 16, 24, 3, 3, 1, 1, 2, 2),
                                               ConvProblemSize::conv3d(1, {{4, 5, 6}}, 8, 12, {{3, 3, 3}}, {{1, 1, 1}}),
                                               ConvProblemSize::conv2d(1, 7, 8, 3, 5, 3, 3, 1, 1)};
  Epilogue const e{1.0f, 0.25f, true};
  for (ConvProblemSize const& p : shapes) {
    INFO(describe(p));
    bool const vectors = p.c % 4 == 0 && p.k % 4 == 0;
    if (vectors) {
      CHECK(run_conv<F32Conv<ConvOperator::kFprop>>(p, e).passed());
      CHECK(run_conv<F32Conv<ConvOperator::kDgrad>>(p, e).passed());
      CHECK(run_conv<F32Conv<ConvOperator::kWgrad>>(p, e).passed());
    }
    CHECK(run_conv<F32Conv<ConvOperator::kFprop, IteratorAlgorithm::kAnalytic, 1>>(p, e).passed());
    CHECK(run_conv<F32Conv<ConvOperator::kDgrad, IteratorAlgorithm::kAnalytic, 1>>(p, e).passed());
    CHECK(run_conv<F32Conv<ConvOperator::kWgrad, IteratorAlgorithm::kAnalytic, 1>>(p, e).passed());
  }
}

}  // namespace

namespace {

TEST_CASE("conv: split_k_slices_for fills the target, keeping 8 K tiles per slice", "[conv][split_k]") {
  using Conv = SplitConv<ConvOperator::kWgrad>;
  // Wgrad of 3×3 64 → 64 on 32 × 56²: M × N = 64 × 576 is 1 × 5 tiles of 128, K = 100352 is 3136
  // tiles of 32: 264 workgroups wanted → ceil(264 / 5) = 53 slices, far below 3136 / 8.
  ConvProblemSize const big = ConvProblemSize::conv2d(32, 56, 56, 64, 64, 3, 3, 1, 1);
  CHECK(Conv::split_k_slices_for(big, 264) == 53);
  // K = 2·5·5 = 50 pixels is 2 K tiles: no split can keep 8 tiles per slice.
  ConvProblemSize const small = ConvProblemSize::conv2d(2, 5, 5, 16, 16, 3, 3, 1, 1);
  CHECK(Conv::split_k_slices_for(small, 264) == 1);
  // Tiles enough already.
  CHECK(Conv::split_k_slices_for(big, 4) == 1);
  ConvProblemSize invalid = big;
  invalid.n = 0;
  CHECK(Conv::split_k_slices_for(invalid, 264) == 1);
}

}  // namespace
