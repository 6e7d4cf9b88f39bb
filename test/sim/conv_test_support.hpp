#pragma once
// Shared by the simulator convolution tests: runs one ImplicitGemmConvolution configuration on one
// problem and checks every element of its output against the double-precision nested-loop host
// reference (host/reference_conv.hpp), with α, β·C and a per-channel bias applied on the host. The
// output is poisoned first, so an element the kernel never writes counts as a mismatch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/implicit_gemm_convolution.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/sim/runtime.hpp"
#include "../common/fake_address.hpp"

namespace conv_test {

using hiptile::GemmShape;
using hiptile::Status;
using hiptile::conv::ConvMode;
using hiptile::conv::ConvOperator;
using hiptile::conv::ConvProblemSize;
using hiptile::conv::IteratorAlgorithm;
using hiptile::conv::Spatial;
using hiptile::host::HostMatrix;
using RowMajor = hiptile::layout::RowMajor;

// A gfx942 configuration: 128 × 128 × 32 tile of four 64 × 64 waves, 32×32×8 MFMA, two stages.
template <ConvOperator Op, class Element, IteratorAlgorithm Algorithm, int AccessElements = 16 / int(sizeof(Element)),
          class ElementC = Element,
          hiptile::conv::RowDivision Load = hiptile::conv::RowDivision::kFast,
          hiptile::conv::RowDivision Store = hiptile::conv::RowDivision::kFast,
          hiptile::gemm::kernel::SplitKMode SplitK = hiptile::gemm::kernel::SplitKMode::kNone>
using Gfx942Conv = hiptile::conv::device::ImplicitGemmConvolution<
    Op, Element, ElementC, float, hiptile::arch::Gfx942, GemmShape<128, 128, 32>, GemmShape<64, 64, 32>,
    std::conditional_t<std::is_same_v<Element, hiptile::bfloat16_t>, hiptile::arch::Mfma32x32x8Bf16,
                       hiptile::arch::Mfma32x32x8F16>,
    hiptile::epilogue::LinearCombination<ElementC>, Algorithm, AccessElements, 2, Load, Store, SplitK>;

struct Epilogue {
  float alpha = 1.0f;
  float beta = 0.0f;
  bool bias = false;
  int split_k_slices = 1;  // with a parallel split-K configuration
  int workgroups = 0;      // with a persistent configuration: the grid (0: the device's)
};

inline std::string describe(ConvProblemSize const& p) {
  std::ostringstream s;
  s << "N=" << p.n << " DHW=" << p.input[0] << "x" << p.input[1] << "x" << p.input[2] << " C=" << p.c << " K=" << p.k
    << " TRS=" << p.filter[0] << "x" << p.filter[1] << "x" << p.filter[2] << " pad=" << p.pad_before[0] << ","
    << p.pad_before[1] << "," << p.pad_before[2] << "/" << p.pad_after[0] << "," << p.pad_after[1] << ","
    << p.pad_after[2] << " stride=" << p.stride[0] << "," << p.stride[1] << "," << p.stride[2]
    << " dilation=" << p.dilation[0] << "," << p.dilation[1] << "," << p.dilation[2] << " groups=" << p.groups
    << (p.mode == ConvMode::kConvolution ? " conv" : " xcorr");
  return s.str();
}

// The tensors as matrices: rows are pixels (or filters), columns channels (or taps·channels).
struct TensorShapes {
  std::int64_t x_rows, x_cols, w_rows, w_cols, y_rows, y_cols;
};
inline TensorShapes tensor_shapes(ConvProblemSize const& p) {
  Spatial const o = p.output();
  std::int64_t const taps = std::int64_t(p.filter[0]) * p.filter[1] * p.filter[2];
  return {std::int64_t(p.n) * p.input[0] * p.input[1] * p.input[2], p.c, p.k, taps * (p.c / p.groups),
          std::int64_t(p.n) * o[0] * o[1] * o[2], p.k};
}

// A problem's arguments with a, b and d at far-off fake addresses (test/common/fake_address.hpp),
// α = 1, β = 0: for tests of the checks, the choice and the log, which never read them.
template <class Conv>
typename Conv::Arguments unread_arguments(ConvProblemSize const& p) {
  typename Conv::Arguments a{};
  a.problem = p;
  a.a = test_support::fake_address<typename Conv::Element const>(0);
  a.b = test_support::fake_address<typename Conv::Element const>(1);
  a.d = test_support::fake_address<typename Conv::ElementC>(3);
  a.output_op = {1.0f, 0.0f};
  return a;
}

// What run_conv does with the operator once it is initialised, by default nothing (a test of a
// selecting operator reads its choice()).
struct NoInspection {
  template <class Conv>
  void operator()(Conv const&, typename Conv::Arguments const&) const noexcept {}
};

// Runs Conv on problem p and returns the comparison of its whole output with the reference. The
// workspace is get_workspace_size(args) bytes, or none when `workspace` is false.
template <class Conv, class Inspect = NoInspection>
hiptile::host::Comparison run_conv(ConvProblemSize const& p, Epilogue e = {}, std::uint64_t seed = 1,
                                   Inspect inspect = {}, bool workspace = true) {
  using Element = typename Conv::Element;
  using ElementC = typename Conv::ElementC;
  constexpr ConvOperator op = Conv::kOperator;
  TensorShapes const s = tensor_shapes(p);
  // a and b in the implicit GEMM's roles; d's shape.
  std::int64_t const a_rows = op == ConvOperator::kFprop ? s.x_rows : s.y_rows;
  std::int64_t const a_cols = op == ConvOperator::kFprop ? s.x_cols : s.y_cols;
  std::int64_t const b_rows = op == ConvOperator::kWgrad ? s.x_rows : s.w_rows;
  std::int64_t const b_cols = op == ConvOperator::kWgrad ? s.x_cols : s.w_cols;
  std::int64_t const d_rows = op == ConvOperator::kFprop ? s.y_rows : op == ConvOperator::kDgrad ? s.x_rows : s.w_rows;
  std::int64_t const d_cols = op == ConvOperator::kFprop ? s.y_cols : op == ConvOperator::kDgrad ? s.x_cols : s.w_cols;
  HostMatrix<Element, RowMajor> a(a_rows, a_cols), b(b_rows, b_cols);
  HostMatrix<ElementC, RowMajor> c(d_rows, d_cols), d(d_rows, d_cols);
  HostMatrix<ElementC, RowMajor> bias(1, op == ConvOperator::kDgrad ? p.c : p.k);
  hiptile::host::fill_random(a, seed, -1.0, 1.0);
  hiptile::host::fill_random(b, seed + 1, -1.0, 1.0);
  hiptile::host::fill_random(c, seed + 2, -2.0, 2.0);
  hiptile::host::fill_random(bias, seed + 3, -1.0, 1.0);
  hiptile::host::poison(d);

  HostMatrix<double, RowMajor> ref, magnitude;
  if constexpr (op == ConvOperator::kFprop) {
    hiptile::host::reference_conv_fprop(p, std::as_const(a).span(), std::as_const(b).span(), ref, &magnitude);
  } else if constexpr (op == ConvOperator::kDgrad) {
    hiptile::host::reference_conv_dgrad(p, std::as_const(a).span(), std::as_const(b).span(), ref, &magnitude);
  } else {
    hiptile::host::reference_conv_wgrad(p, std::as_const(b).span(), std::as_const(a).span(), ref, &magnitude);
  }
  for (std::int64_t i = 0; i < d_rows; ++i) {
    for (std::int64_t j = 0; j < d_cols; ++j) {
      double const bias_value = e.bias ? double(float(bias.at(0, op == ConvOperator::kWgrad ? i : j))) : 0.0;
      double const source = e.beta != 0.0f ? double(float(c.at(i, j))) : 0.0;
      ref.at(i, j) = e.alpha * ref.at(i, j) + e.beta * source + bias_value;
      magnitude.at(i, j) = std::abs(e.alpha) * magnitude.at(i, j) + std::abs(e.beta * source) + std::abs(bias_value);
    }
  }

  hiptile::host::DeviceBuffer<Element> da(std::as_const(a).span()), db(std::as_const(b).span());
  hiptile::host::DeviceBuffer<ElementC> dc(std::as_const(c).span()), dd(std::as_const(d).span()),
      dbias(std::as_const(bias).span());
  typename Conv::Arguments args{p,
                                da.data(),
                                db.data(),
                                e.beta != 0.0f ? dc.data() : nullptr,
                                dd.data(),
                                {e.alpha, e.beta},
                                e.bias ? dbias.data() : nullptr};
  args.split_k_slices = e.split_k_slices;
  args.workgroups = e.workgroups;
  hiptile::host::DeviceBuffer<std::byte> bytes(std::max<std::size_t>(Conv::get_workspace_size(args), 1));
  if (workspace) {
    args.workspace = bytes.data();
    args.workspace_bytes = Conv::get_workspace_size(args);
  }
  INFO(describe(p));
  REQUIRE(Conv::can_implement(args) == Status::kSuccess);
  Conv conv;
  REQUIRE(conv.initialize(args) == Status::kSuccess);
  inspect(std::as_const(conv), std::as_const(args));
  Status const status = conv.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(status == Status::kSuccess);
  dd.copy_to_host(d.span());
  std::int64_t const k = p.implicit_gemm(op).k;
  return hiptile::host::compare(d, ref, magnitude, hiptile::host::gemm_tolerance<Element, ElementC>(k));
}

}  // namespace conv_test
