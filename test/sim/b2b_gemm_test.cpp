// Back-to-back GEMM on the simulator (gfx942): D = op1(op0(A·B0)·B1, C) against a double-precision
// reference of the two products — ragged M, N0, K0 and N1 (one past a tile, primes, below the atom),
// every layout of A, B0, B1 and D, op0 with a bias and an activation, op1 with C and a bias,
// batches, f16 and bf16 — and the Statuses of what the operator refuses. The reference keeps P in
// double; the tolerance allows P's rounding to the element type, which the kernel does as a chain
// of two GEMMs would.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gemm_test_support.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/host/reference_b2b_gemm.hpp"
#include "hiptile/sim/runtime.hpp"

namespace {

using namespace gemm_test;
namespace device = hiptile::gemm::device;
namespace epilogue = hiptile::epilogue;
using hiptile::arch::Gfx942;

struct Problem {
  int m, n0, k0, n1;
  int pad = 0;  // extra elements per leading dimension
};

struct Options {
  float alpha0 = 1.0f;
  bool bias0 = false;
  float alpha1 = 1.0f;
  float beta1 = 0.0f;
  bool bias1 = false;
  int batches = 1;
};

// The activation of a functor's parameters in double (ReLU or identity).
template <class Activation>
double activate(double x) {
  if constexpr (std::is_same_v<Activation, epilogue::ReLU>) return x > 0 ? x : 0;
  return x;
}

// One run of operator B on problem p with options o, every element of every batch of D against the
// reference and every element of D's buffers outside the batches untouched.
template <class B>
void run_b2b(Problem p, Options o) {
  using EA = typename B::ElementA;
  using ED = typename B::ElementD;
  using Op0 = typename B::Op0Type;
  using Op1 = typename B::OutputOpType;
  INFO("M=" << p.m << " N0=" << p.n0 << " K0=" << p.k0 << " N1=" << p.n1 << " pad " << p.pad << ", batches "
            << o.batches << (o.bias0 ? ", bias0" : "") << ", beta1 " << o.beta1 << (o.bias1 ? ", bias1" : ""));
  std::mt19937 rng(p.m * 131 + p.n0 * 17 + p.k0 * 3 + p.n1 + o.batches);
  std::vector<Matrix<EA, typename B::LayoutA>> a;
  std::vector<Matrix<EA, typename B::LayoutB0>> b0;
  std::vector<Matrix<EA, typename B::LayoutB1>> b1;
  std::vector<Matrix<ED, typename B::LayoutD>> c, d;
  // The batches of each operand in one buffer: batch b at b · stride (the stride a batch's size
  // plus one 16-byte vector, so that batches do not touch).
  auto stacked = [&](auto& batches, int rows, int cols) {
    for (int b = 0; b < o.batches; ++b) batches.emplace_back(rows, cols, p.pad);
    for (auto& m : batches) fill(m, rng, -1.0f, 1.0f);
  };
  stacked(a, p.m, p.k0);
  stacked(b0, p.k0, p.n0);
  stacked(b1, p.n0, p.n1);
  stacked(c, p.m, p.n1);
  stacked(d, p.m, p.n1);
  auto pack = [&](auto const& batches, std::int64_t& stride) {
    using T = typename std::remove_cvref_t<decltype(batches[0].data)>::value_type;
    stride = std::int64_t(batches[0].data.size()) + 16 / std::int64_t(sizeof(T));
    std::vector<T> all(std::size_t(stride * o.batches), T(NAN));
    for (int b = 0; b < o.batches; ++b) {
      std::copy(batches[b].data.begin(), batches[b].data.end(), all.begin() + b * stride);
    }
    return all;
  };
  typename B::Arguments args;
  auto a_all = pack(a, args.batch_stride_a);
  auto b0_all = pack(b0, args.batch_stride_b0);
  auto b1_all = pack(b1, args.batch_stride_b1);
  auto c_all = pack(c, args.batch_stride_c);
  std::vector<ED> d_all(std::size_t(args.batch_stride_c * o.batches), ED(NAN));
  args.batch_stride_d = args.batch_stride_c;
  std::vector<EA> bias0(p.n0);
  std::vector<ED> bias1(p.n1);
  for (auto& x : bias0) x = EA(std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng));
  for (auto& x : bias1) x = ED(std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng));

  args.problem = {p.m, p.n0, p.k0, p.n1};
  args.a = {a_all.data(), a[0].ld};
  args.b0 = {b0_all.data(), b0[0].ld};
  args.b1 = {b1_all.data(), b1[0].ld};
  args.c = {c_all.data(), c[0].ld};
  args.d = {d_all.data(), d[0].ld};
  args.op0.alpha = o.alpha0;
  args.bias0 = o.bias0 ? bias0.data() : nullptr;
  args.op1.alpha = o.alpha1;
  args.op1.beta = o.beta1;
  args.bias1 = o.bias1 ? bias1.data() : nullptr;
  args.batch_count = o.batches;
  B op;
  REQUIRE(op.initialize(args) == Status::kSuccess);
  hiptile::Status const st = op.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(st == Status::kSuccess);

  std::vector<bool> owned(d_all.size(), false);
  int wrong = 0;
  for (int b = 0; b < o.batches; ++b) {
    hiptile::host::B2bReferenceOps ops;
    ops.alpha0 = o.alpha0;
    ops.activation0 = activate<typename Op0::Activation>;
    ops.alpha1 = o.alpha1;
    ops.beta1 = o.beta1;
    ops.activation1 = activate<typename Op1::Activation>;
    ops.p_roundoff = unit_roundoff<EA>();
    ops.d_roundoff = unit_roundoff<ED>();
    std::vector<double> ref, tol;
    hiptile::host::reference_b2b_gemm(
        args.problem, [&](int i, int k) { return double(float(a[b].at(i, k))); },
        [&](int k, int n) { return double(float(b0[b].at(k, n))); },
        [&](int n, int j) { return double(float(b1[b].at(n, j))); },
        [&](int i, int j) { return double(float(c[b].at(i, j))); },
        [&](int n) { return o.bias0 ? double(float(bias0[n])) : 0.0; },
        [&](int j) { return o.bias1 ? double(float(bias1[j])) : 0.0; }, ops, ref, tol);
    for (int i = 0; i < p.m; ++i) {
      for (int j = 0; j < p.n1; ++j) {
        std::int64_t const at = b * args.batch_stride_d + B::LayoutD::offset(i, j, d[0].ld);
        owned[std::size_t(at)] = true;
        double const got = double(float(d_all[std::size_t(at)]));
        std::size_t const e = std::size_t(i) * p.n1 + j;
        if (!(std::abs(got - ref[e]) <= tol[e]) && ++wrong <= 5) {
          UNSCOPED_INFO("batch " << b << " D[" << i << "][" << j << "] = " << got << ", reference " << ref[e] << " ± "
                                 << tol[e]);
        }
      }
    }
  }
  CHECK(wrong == 0);
  int touched = 0;
  for (std::size_t e = 0; e < d_all.size(); ++e) {
    if (!owned[e] && !std::isnan(float(d_all[e]))) ++touched;
  }
  CHECK(touched == 0);
}

template <class EA, class LA, class LB0, class LB1, class ED, class LD, class Act0 = hiptile::epilogue::Identity,
          class Act1 = hiptile::epilogue::Identity>
using B2b = device::DefaultB2bGemm<EA, LA, EA, LB0, EA, LB1, ED, LD, Gfx942, epilogue::LinearCombination<EA, Act0>,
                                   epilogue::LinearCombination<ED, Act1>>;

using F16 = B2b<half_t, RowMajor, ColumnMajor, RowMajor, half_t, RowMajor, epilogue::ReLU>;

TEST_CASE("b2b GEMM: ragged shapes against the double reference (f16, gfx942)", "[b2b][sim]") {
  // Edges of every extent: M one row and one past the 128-row tile, N0 below the atom and the whole
  // tile, K0 below the K tile and a prime past it, N1 one column and past the 64-column step.
  for (Problem const p : {Problem{1, 64, 32, 1}, Problem{129, 64, 40, 64}, Problem{37, 13, 7, 130, 8},
                          Problem{200, 40, 97, 65, 24}, Problem{64, 1, 1, 8}}) {
    run_b2b<F16>(p, Options{});
  }
}

TEST_CASE("b2b GEMM: op0's alpha, bias and activation, op1's C and bias, batches", "[b2b][sim]") {
  run_b2b<F16>({96, 48, 64, 72, 8}, {0.5f, true, 1.0f, 0.0f, false, 1});
  run_b2b<F16>({70, 64, 33, 40}, {1.0f, false, 2.0f, -0.75f, true, 1});
  run_b2b<F16>({50, 24, 40, 96, 16}, {1.5f, true, 1.0f, 1.0f, true, 3});
  // op1 with an activation too.
  run_b2b<B2b<half_t, RowMajor, ColumnMajor, RowMajor, half_t, RowMajor, epilogue::Identity, epilogue::ReLU>>(
      {33, 64, 24, 64}, {1.0f, true, 1.0f, 0.5f, false, 2});
}

TEST_CASE("b2b GEMM: every layout of A, B0, B1 and D", "[b2b][sim]") {
  Problem const p{131, 64, 48, 80, 8};
  run_b2b<B2b<half_t, ColumnMajor, ColumnMajor, RowMajor, half_t, RowMajor>>(p, {});
  run_b2b<B2b<half_t, RowMajor, RowMajor, RowMajor, half_t, RowMajor>>(p, {});
  run_b2b<B2b<half_t, RowMajor, ColumnMajor, ColumnMajor, half_t, RowMajor>>(p, {});
  run_b2b<B2b<half_t, RowMajor, ColumnMajor, RowMajor, half_t, ColumnMajor>>(p, {});
  run_b2b<B2b<half_t, ColumnMajor, RowMajor, ColumnMajor, float, ColumnMajor>>(p, {1.0f, true, 1.0f, 0.5f, true, 2});
}

TEST_CASE("b2b GEMM: bf16", "[b2b][sim]") {
  run_b2b<B2b<bfloat16_t, RowMajor, ColumnMajor, RowMajor, bfloat16_t, RowMajor, epilogue::ReLU>>(
      {100, 64, 72, 100, 8}, {1.0f, true, 1.0f, 0.25f, true, 2});
}

TEST_CASE("b2b GEMM: what it refuses, with the Status that says why", "[b2b][sim]") {
  std::vector<half_t> a(128 * 64), b0(64 * 128), b1(128 * 64), d(128 * 64);
  F16::Arguments good;
  good.problem = {128, 64, 64, 64};
  good.a = {a.data(), 64};
  good.b0 = {b0.data(), 64};
  good.b1 = {b1.data(), 64};
  good.d = {d.data(), 64};
  REQUIRE(F16::can_implement(good) == Status::kSuccess);
  auto refused = [&](auto change, Status expected) {
    F16::Arguments args = good;
    change(args);
    CHECK(F16::can_implement(args) == expected);
    F16 op;
    CHECK(op.initialize(args) == expected);
    CHECK(op.run() == Status::kErrorNotInitialized);
  };
  refused([](auto& x) { x.problem.m = 0; }, Status::kErrorInvalidProblem);
  refused([](auto& x) { x.problem.n1 = -1; }, Status::kErrorInvalidProblem);
  refused([](auto& x) { x.batch_count = 0; }, Status::kErrorInvalidProblem);
  // N0 past the tile's 64 (P must be one tile) — with operands big enough for it.
  refused([](auto& x) { x.problem.n0 = 65; }, Status::kErrorNotSupported);
  refused([](auto& x) { x.op0.beta = 1.0f; }, Status::kErrorNotSupported);  // P has no source
  refused([](auto& x) { x.b1.data = nullptr; }, Status::kErrorNullPointer);
  refused([](auto& x) { x.op1.beta = 1.0f; }, Status::kErrorNullPointer);  // C needed, none given
  refused([](auto& x) { x.a.ld = 63; }, Status::kErrorInvalidLayout);
  refused([](auto& x) { x.batch_stride_b0 = -8; }, Status::kErrorInvalidLayout);
  refused([](auto& x) { x.a.ld = 72 + 4; }, Status::kErrorMisalignedOperand);
  refused([&](auto& x) { x.b0.data = b0.data() + 1; }, Status::kErrorMisalignedOperand);
  refused([&](auto& x) { x.d.data = reinterpret_cast<half_t*>(reinterpret_cast<std::byte*>(d.data()) + 1); },
          Status::kErrorMisalignedOperand);
  refused(
      [](auto& x) {
        x.problem.k0 = 2147483640;  // rounded up to the 32-wide K tile, past INT_MAX
        x.a.ld = x.b0.ld = 2147483640;
      },
      Status::kErrorIndexOverflow);
  refused([&](auto& x) { x.d.data = const_cast<half_t*>(x.a.data); }, Status::kErrorAliasedOperand);
  refused(
      [&](auto& x) {
        x.batch_count = 2;
        x.batch_stride_d = 8;  // the batches' D overlap
      },
      Status::kErrorAliasedOperand);
}

}  // namespace
