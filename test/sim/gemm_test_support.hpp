#pragma once
// Shared by the simulator GEMM tests: runs a gfx942 GEMM configuration on ragged shapes and checks
// it against a double-precision host reference with a tolerance set by the types and K. D is
// poisoned before each run, so an element the kernel never writes fails, and so does one it
// writes outside the problem.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/numeric_limits.hpp"

namespace gemm_test {

using hiptile::GemmCoord;
using hiptile::Status;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::epilogue::BiasMode;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

struct Shape {
  int m, n, k;
  int pad;  // extra elements per leading dimension, beyond the minimum rounded to 16 bytes (8 elements at least)
};

// Ragged edges everywhere: 1, primes, K below the tile's 32, extents one past a tile, large ld.
std::vector<Shape> const kShapes = {
    {1, 1, 1, 0},    {1, 131, 7, 0},   {67, 1, 40, 8},    {128, 128, 32, 0}, {129, 127, 33, 0},
    {13, 257, 300, 24}, {131, 67, 13, 0}, {200, 61, 97, 40}, {3, 5, 1000, 0},  {256, 130, 64, 1000},
};

// The minimum rounded up to whole 16-byte vectors (and at least to 8 elements), plus pad.
std::int64_t padded_ld(std::int64_t min_ld, int pad, int element_bytes = 2) {
  std::int64_t const round = std::max(8, 16 / element_bytes);
  return (min_ld + round - 1) / round * round + pad;
}

template <class T, class Layout>
struct Matrix {
  int rows, cols;
  std::int64_t ld;
  std::vector<T> data;
  Matrix(int r, int c, int pad)
      : rows(r), cols(c), ld(padded_ld(Layout::min_leading_dimension(r, c), pad, int(sizeof(T)))) {
    data.resize(Layout::kRowMajor ? r * ld : c * ld);
  }
  T& at(int r, int c) { return data[Layout::offset(r, c, ld)]; }
  T const& at(int r, int c) const { return data[Layout::offset(r, c, ld)]; }
  hiptile::layout::TensorRef<T, Layout> ref() { return {data.data(), ld}; }
  hiptile::layout::TensorRef<T const, Layout> cref() const { return {data.data(), ld}; }
};

template <class T, class Layout>
void fill(Matrix<T, Layout>& m, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  for (auto& x : m.data) x = T(dist(rng));
}

// Unit roundoff of the output type: the final conversion's error.
template <class T>
double unit_roundoff() {
  return std::ldexp(1.0, -hiptile::numeric_limits<T>::digits);
}

struct Epilogue {
  float alpha = 1.0f;
  float beta = 0.0f;
  BiasMode bias_mode = BiasMode::kNone;
  std::string activation = "identity";
  int split_k_slices = 1;  // with a split-K configuration
  int stream_k_workgroups = 0;  // with a stream-K configuration
  int stream_k_partitions = 0;
  bool workspace = true;  // false: none given (a selecting operator then runs a candidate that needs none)
};

// The activations in double, from their definitions (not from hiptile's float approximations).
double activate(std::string const& name, double x) {
  if (name == "relu") return x > 0 ? x : 0;
  if (name == "gelu_tanh") return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  if (name == "gelu_erf") return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  if (name == "silu") return x / (1 + std::exp(-x));
  if (name == "clamp") return std::clamp(x, -0.5, 0.75);
  return x;
}

// DefaultGemmConfiguration for gfx942 (f16, 128 × 128 × 32 tiles, XcdRemap<GroupedTileOrder<8>>), spelled out
// with one change, the K decomposition Mode (split-K or stream-K).
template <class LA, class LB, class LC, hiptile::gemm::kernel::SplitKMode Mode, class Act>
struct SplitGemmOf {
  using Base = hiptile::gemm::device::DefaultGemmConfiguration<half_t, LA, half_t, LB, half_t, LC, hiptile::arch::Gfx942,
                                                  hiptile::epilogue::LinearCombination<half_t, Act>>;
  using type = hiptile::gemm::device::Gemm<half_t, LA, half_t, LB, half_t, LC, float, hiptile::arch::Gfx942,
                                           typename Base::TileShapeType, typename Base::WaveShapeType,
                                           typename Base::MmaAtomType, typename Base::OutputOpType,
                                           typename Base::TileOrderType, Base::kStages, Mode>;
};
template <class LA, class LB, class LC, hiptile::gemm::kernel::SplitKMode Mode,
          class Act = hiptile::epilogue::Identity>
using SplitGemm = typename SplitGemmOf<LA, LB, LC, Mode, Act>::type;

// A fixed 300 × 200 × 2000 f16 problem (A row-major, B column-major, D = A·B) for Gemm G, after
// `configure(args)` chose its K decomposition, with the workspace that then needs.
template <class G>
struct FixedProblem {
  static constexpr int kM = 300, kN = 200, kK = 2000;
  Matrix<half_t, RowMajor> a{kM, kK, 0}, d{kM, kN, 0};
  Matrix<half_t, ColumnMajor> b{kK, kN, 0};
  typename G::Arguments args;
  hiptile::host::DeviceBuffer<std::byte> workspace;

  template <class Configure>
  explicit FixedProblem(Configure const& configure) : args{{kM, kN, kK}, a.cref(), b.cref(), {}, d.ref(), {1.0f, 0.0f}} {
    std::mt19937 rng(11);
    fill(a, rng, -1.0f, 1.0f);
    fill(b, rng, -1.0f, 1.0f);
    configure(args);
    args.workspace_bytes = G::get_workspace_size(args);
    workspace = hiptile::host::DeviceBuffer<std::byte>(args.workspace_bytes);
    args.workspace = workspace.data();
  }
};

// D of the fixed problem: what the split-K and stream-K determinism checks compare run to run.
template <class G, class Configure>
std::vector<half_t> fixed_problem_output(Configure const& configure) {
  FixedProblem<G> problem(configure);
  G gemm;
  REQUIRE(gemm(problem.args) == Status::kSuccess);
  return problem.d.data;
}

// Serial split-K's and stream-K's flags, the first `slots` ints of the workspace, set to 1 (what a
// writer raises) before initialize(): every run gives the bits of a fresh workspace and leaves the
// flags zero (each reader re-arms the flag it consumed), runs after the first without a memset.
// (On a GPU a stale 1 would let a reader take a slot before its writer stored it; the simulator
// dispatches the writers first, so the zeroing itself is the FlagReset test's.)
template <class G, class Configure>
void check_flags_left_zero(Configure const& configure, std::int64_t slots) {
  std::vector<half_t> const expected = fixed_problem_output<G>(configure);
  FixedProblem<G> problem(configure);
  REQUIRE(problem.args.workspace_bytes >= std::size_t(slots) * sizeof(int));
  int* const flags = reinterpret_cast<int*>(problem.workspace.data());
  std::fill(flags, flags + slots, 1);
  G gemm;
  REQUIRE(gemm.initialize(problem.args) == Status::kSuccess);
  for (int run = 0; run < 3; ++run) {
    INFO("run " << run << " after initialize()");
    std::fill(problem.d.data.begin(), problem.d.data.end(), half_t(NAN));
    REQUIRE(gemm.run() == Status::kSuccess);
    CHECK(std::memcmp(problem.d.data.data(), expected.data(), expected.size() * sizeof(half_t)) == 0);
    CHECK(std::count(flags, flags + slots, 0) == slots);
  }
}

// Runs `Gemm` (by default the gfx942 DefaultGemmConfiguration of these types) on one shape and checks every element.
template <class EA, class LA, class EB, class LB, class EC, class LC, class Act,
          class Gemm = hiptile::gemm::device::DefaultGemmConfiguration<EA, LA, EB, LB, EC, LC, hiptile::arch::Gfx942,
                                                          hiptile::epilogue::LinearCombination<EC, Act>>>
void run_case(Shape s, Epilogue e, Act act) {
  using OutputOp = typename Gemm::OutputOpType;
  std::mt19937 rng(s.m * 7919 + s.n * 31 + s.k);
  Matrix<EA, LA> a(s.m, s.k, s.pad);
  Matrix<EB, LB> b(s.k, s.n, s.pad);
  Matrix<EC, LC> c(s.m, s.n, s.pad), d(s.m, s.n, s.pad);
  fill(a, rng, -1.0f, 1.0f);
  fill(b, rng, -1.0f, 1.0f);
  fill(c, rng, -2.0f, 2.0f);
  std::vector<EC> bias(std::max(s.m, s.n));
  for (auto& x : bias) x = EC(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng));
  EC const poison = EC(NAN);
  for (auto& x : d.data) x = poison;

  typename Gemm::Arguments args{GemmCoord{s.m, s.n, s.k}, a.cref(), b.cref(), c.cref(), d.ref(),
                                typename OutputOp::Params{e.alpha, e.beta, act}, bias.data(), e.bias_mode};
  args.split_k_slices = e.split_k_slices;
  args.stream_k_workgroups = e.stream_k_workgroups;
  args.stream_k_partitions = e.stream_k_partitions;
  std::vector<std::byte> workspace(Gemm::get_workspace_size(args) + 16);  // 16-byte aligned below
  args.workspace = workspace.data() + (16 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 16) % 16;
  args.workspace_bytes = Gemm::get_workspace_size(args);
  if (!e.workspace) args.workspace = nullptr, args.workspace_bytes = 0;
  REQUIRE(Gemm::can_implement(args) == Status::kSuccess);
  Gemm gemm;
  REQUIRE(gemm.initialize(args) == Status::kSuccess);
  Status const status = gemm.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(status == Status::kSuccess);

  double const u = unit_roundoff<EC>();
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      double acc = 0, magnitude = 0;
      for (int k = 0; k < s.k; ++k) {
        double const p = double(float(a.at(i, k))) * double(float(b.at(k, j)));
        acc += p;
        magnitude += std::abs(p);
      }
      double const bias_value = e.bias_mode == BiasMode::kPerRow      ? double(float(bias[i]))
                                : e.bias_mode == BiasMode::kPerColumn ? double(float(bias[j]))
                                                                      : 0.0;
      double const cij = double(float(c.at(i, j)));
      double const pre = e.alpha * acc + e.beta * cij + bias_value;
      double const ref = activate(e.activation, pre);
      magnitude = std::abs(e.alpha) * magnitude + std::abs(e.beta * cij) + std::abs(bias_value);
      // fp32 accumulation over K (MFMA groups and the K loop), then one rounding to the output type.
      // The activation's slope is at most ~1.13 (GELU), so accumulation error passes through it;
      // its float evaluation adds a few ulps of the pre-activation value.
      double const tol = u * std::abs(ref) + 1.2 * (s.k + 4) * std::ldexp(1.0, -23) * magnitude +
                         8 * std::ldexp(1.0, -24) * std::abs(pre) + 1e-30;
      double const got = double(float(d.at(i, j)));
      if (!(std::abs(got - ref) <= tol)) {
        FAIL("D[" << i << "][" << j << "] = " << got << ", reference " << ref << ", tolerance " << tol << " (M=" << s.m
                  << " N=" << s.n << " K=" << s.k << ")");
      }
    }
  }
  // Padding between the rows (or columns) of D must stay untouched.
  for (std::size_t idx = 0; idx < d.data.size(); ++idx) {
    std::int64_t const outer = idx / d.ld, inner = idx % d.ld;
    bool const inside = LC::kRowMajor ? (outer < s.m && inner < s.n) : (outer < s.n && inner < s.m);
    if (!inside && !std::isnan(float(d.data[idx]))) FAIL("the kernel wrote D outside the problem at " << idx);
  }
}

// One configuration over every shape, identity epilogue.
template <class Config>
void run_all_shapes() {
  using EA = std::tuple_element_t<0, Config>;
  using EC = std::tuple_element_t<1, Config>;
  using LA = std::tuple_element_t<2, Config>;
  using LB = std::tuple_element_t<3, Config>;
  using LC = std::tuple_element_t<4, Config>;
  for (Shape const& s : kShapes) {
    DYNAMIC_SECTION("M=" << s.m << " N=" << s.n << " K=" << s.k << " pad=" << s.pad) {
      run_case<EA, LA, EA, LB, EC, LC>(s, Epilogue{}, hiptile::epilogue::Identity{});
    }
  }
}

}  // namespace gemm_test
