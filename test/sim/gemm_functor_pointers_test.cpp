// The output functor's device pointers are operands (epilogue/functor_pointers.hpp): the fp8 GEMM's
// scale_a, scale_b, scale_d and amax, and a user functor's declared pointers, are refused with
// their own Status when misaligned, null where required or overlapping what they must not — by
// can_implement, initialize and operator() alike, with nothing written — in GEMM, grouped GEMM
// and convolution; and a saturating output saturates in every output type, f32 included.
#include "gemm_test_support.hpp"

#include <array>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/epilogue/scaled_linear_combination.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/platform/qualifiers.hpp"

using namespace gemm_test;
namespace ep = hiptile::epilogue;
namespace arch = hiptile::arch;
namespace device = hiptile::gemm::device;
using hiptile::float8_e4m3fnuz;

namespace {

template <class EC, class Op = ep::ScaledLinearCombination<EC>>
using Fp8 = device::DefaultGemmConfiguration<float8_e4m3fnuz, RowMajor, float8_e4m3fnuz, ColumnMajor, EC, RowMajor,
                                             arch::Gfx942, Op>;
using Fp8F16 = Fp8<half_t>;

// A 64 × 48 × 96 fp8 problem with every buffer real: A, B, C, D, the bias and three scales.
struct Fp8Problem {
  static constexpr int kM = 64, kN = 48, kK = 96;
  Matrix<float8_e4m3fnuz, RowMajor> a{kM, kK, 0};
  Matrix<float8_e4m3fnuz, ColumnMajor> b{kK, kN, 0};
  Matrix<half_t, RowMajor> c{kM, kN, 0}, d{kM, kN, 0};
  std::vector<half_t> bias = std::vector<half_t>(kN, half_t(0.25f));
  std::array<float, 8> scales{0.5f, 2.0f, 1.0f, -1.0f, 0, 0, 0, 0};  // scale_a, scale_b, scale_d, amax, spare
  Fp8F16::Arguments args;
  Fp8Problem() {
    std::mt19937 rng(40);
    fill(a, rng, -1.0f, 1.0f);
    fill(b, rng, -1.0f, 1.0f);
    fill(c, rng, -1.0f, 1.0f);
    for (auto& x : d.data) x = half_t(NAN);
    args = {{kM, kN, kK}, a.cref(), b.cref(), c.cref(), d.ref(), {}};
    args.output_op = {1.0f, 0.5f, {}, &scales[0], &scales[1], &scales[2], &scales[3]};
    args.bias = bias.data();
    args.bias_mode = BiasMode::kPerColumn;
  }
};

// Every entry point refuses `args` with `expected`, and no byte of D or the scales changes.
template <class G>
void check_refused(typename G::Arguments const& args, Status expected, Matrix<half_t, RowMajor> const& d,
                   std::array<float, 8> const& scales) {
  std::vector<half_t> const d_before = d.data;
  std::array<float, 8> const scales_before = scales;
  CHECK(G::can_implement(args) == expected);
  G op;
  CHECK(op.initialize(args) == expected);
  CHECK(op.run() == Status::kErrorNotInitialized);
  CHECK(G{}(args) == expected);
  CHECK(std::memcmp(d.data.data(), d_before.data(), d.data.size() * sizeof(half_t)) == 0);
  CHECK(std::memcmp(scales.data(), scales_before.data(), sizeof scales) == 0);
}

template <class T>
T const* bytes_past(void const* p, std::ptrdiff_t bytes) {
  return reinterpret_cast<T const*>(static_cast<char const*>(p) + bytes);
}

}  // namespace

TEST_CASE("fp8 GEMM: the scale and amax pointers are checked like every operand", "[gemm][types]") {
  Fp8Problem p;
  REQUIRE(Fp8F16::can_implement(p.args) == Status::kSuccess);
  SECTION("a scale 1 to 3 bytes off its alignment") {
    for (int off = 1; off < 4; ++off) {
      for (int which = 0; which < 4; ++which) {
        INFO("pointer " << which << " +" << off << " bytes");
        auto args = p.args;
        float* const at = const_cast<float*>(bytes_past<float>(&p.scales[4], off));
        if (which == 0) args.output_op.scale_a = at;
        if (which == 1) args.output_op.scale_b = at;
        if (which == 2) args.output_op.scale_d = at;
        if (which == 3) args.output_op.amax = at;
        check_refused<Fp8F16>(args, Status::kErrorMisalignedOperand, p.d, p.scales);
      }
    }
  }
  SECTION("amax inside D, A, B, C or the bias; a scale inside D") {
    auto args = p.args;
    args.output_op.amax = reinterpret_cast<float*>(p.d.data.data() + 100);
    check_refused<Fp8F16>(args, Status::kErrorAliasedOperand, p.d, p.scales);
    for (void const* input : {static_cast<void const*>(p.a.data.data() + 64), static_cast<void const*>(p.b.data.data()),
                              static_cast<void const*>(p.c.data.data() + 2), static_cast<void const*>(p.bias.data())}) {
      args.output_op.amax = const_cast<float*>(static_cast<float const*>(input));
      check_refused<Fp8F16>(args, Status::kErrorAliasedOperand, p.d, p.scales);
    }
    args = p.args;
    args.output_op.scale_d = reinterpret_cast<float const*>(p.d.data.data() + 2 * p.d.ld);
    check_refused<Fp8F16>(args, Status::kErrorAliasedOperand, p.d, p.scales);
  }
  SECTION("amax on a scale it would overwrite") {
    auto args = p.args;
    args.output_op.amax = &p.scales[1];  // scale_b's float
    check_refused<Fp8F16>(args, Status::kErrorAliasedOperand, p.d, p.scales);
  }
  SECTION("amax inside the split-K workspace") {
    using Split = device::Gemm<float8_e4m3fnuz, RowMajor, float8_e4m3fnuz, ColumnMajor, half_t, RowMajor, float,
                               arch::Gfx942, Fp8F16::TileShapeType, Fp8F16::WaveShapeType, Fp8F16::MmaAtomType,
                               Fp8F16::OutputOpType, Fp8F16::TileOrderType, Fp8F16::kStages,
                               hiptile::gemm::kernel::SplitKMode::kParallel>;
    Split::Arguments args = p.args;
    args.split_k_slices = 2;
    std::size_t const bytes = Split::get_workspace_size(args);
    std::vector<float> workspace(bytes / sizeof(float) + 8);
    args.workspace = workspace.data();
    args.workspace_bytes = bytes;
    REQUIRE(Split::can_implement(args) == Status::kSuccess);
    args.output_op.amax = workspace.data() + 4;
    CHECK(Split::can_implement(args) == Status::kErrorAliasedOperand);
    Split op;
    CHECK(op.initialize(args) == Status::kErrorAliasedOperand);
  }
  SECTION("a read scale may share its memory with an input: both are only read") {
    auto args = p.args;
    std::memcpy(p.c.data.data(), &p.scales[0], sizeof(float));  // C's first two elements hold 0.5f
    args.output_op.scale_a = reinterpret_cast<float const*>(p.c.data.data());
    CHECK(Fp8F16::can_implement(args) == Status::kSuccess);
  }
  SECTION("null pointers mean 1 and no amax, as documented") {
    auto args = p.args;
    args.output_op = {1.0f, 0.0f, {}, nullptr, nullptr, nullptr, nullptr};
    CHECK(Fp8F16::can_implement(args) == Status::kSuccess);
  }
}

namespace {

// A user's functor that scales by a float behind a required device pointer, and declares it.
struct ScaledByPointer {
  using ElementOutput = half_t;
  struct Params {
    float const* scale = nullptr;
  };
  static constexpr bool kNeedsSource = false;
  ScaledByPointer() = default;
  HIPTILE_HOST_DEVICE explicit ScaledByPointer(Params const& p) : params_(p) {}
  HIPTILE_HOST_DEVICE bool is_source_needed() const { return false; }
  HIPTILE_HOST_DEVICE half_t operator()(float acc, float, float bias = 0.0f) const {
    return half_t(acc * *params_.scale + bias);
  }
  static std::array<ep::FunctorPointer, 1> device_pointers(Params const& p) {
    return {{{p.scale, 1, sizeof(float), false, true}}};
  }
  Params params_{};
};
static_assert(ep::EpilogueFunctor<ScaledByPointer> && ep::DeclaresDevicePointers<ScaledByPointer>);

// The same functor declaring nothing: the operator cannot see its pointer.
struct UndeclaredPointer : ScaledByPointer {
  using ScaledByPointer::ScaledByPointer;
  static void device_pointers() = delete;
};
static_assert(ep::EpilogueFunctor<UndeclaredPointer> && !ep::DeclaresDevicePointers<UndeclaredPointer>);

using UserGemm = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                  arch::Gfx942, ScaledByPointer>;
using UndeclaredGemm = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                        arch::Gfx942, UndeclaredPointer>;

}  // namespace

TEST_CASE("a user functor's declared pointers are checked; undeclared ones are the user's to get right",
          "[gemm][epilogue]") {
  Matrix<half_t, RowMajor> a(40, 32, 0), d(40, 24, 0);
  Matrix<half_t, ColumnMajor> b(32, 24, 0);
  std::mt19937 rng(2);
  fill(a, rng, -1.0f, 1.0f);
  fill(b, rng, -1.0f, 1.0f);
  for (auto& x : d.data) x = half_t(NAN);
  float const scale = 0.5f;
  UserGemm::Arguments args{{40, 24, 32}, a.cref(), b.cref(), {}, d.ref(), {&scale}};
  std::array<float, 8> unused{};
  CHECK(UserGemm::can_implement(args) == Status::kSuccess);
  args.output_op.scale = nullptr;  // required
  check_refused<UserGemm>(args, Status::kErrorNullPointer, d, unused);
  args.output_op.scale = bytes_past<float>(&scale, 2);
  check_refused<UserGemm>(args, Status::kErrorMisalignedOperand, d, unused);
  args.output_op.scale = reinterpret_cast<float const*>(d.data.data() + 6);
  check_refused<UserGemm>(args, Status::kErrorAliasedOperand, d, unused);
  // Undeclared: the same pointer inside D is accepted, as before the hook existed (documented).
  UndeclaredGemm::Arguments undeclared{{40, 24, 32}, a.cref(), b.cref(), {}, d.ref(), {}};
  undeclared.output_op.scale = reinterpret_cast<float const*>(d.data.data() + 6);
  CHECK(UndeclaredGemm::can_implement(undeclared) == Status::kSuccess);
  // Declared and right: the run is right.
  args.output_op.scale = &scale;
  UserGemm op;
  REQUIRE(op(args) == Status::kSuccess);
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 24; ++j) {
      double ref = 0, magnitude = 0;
      for (int k = 0; k < 32; ++k) {
        double const p = double(float(a.at(i, k))) * double(float(b.at(k, j)));
        ref += p;
        magnitude += std::abs(p);
      }
      ref *= scale;
      double const tol = std::ldexp(1.0, -11) * std::abs(ref) + 40 * std::ldexp(1.0, -23) * magnitude;
      REQUIRE(std::abs(double(float(d.at(i, j))) - ref) <= tol);
    }
  }
}

TEST_CASE("grouped GEMM: one group's declared pointer inside another group's D is refused", "[gemm][grouped]") {
  using Grouped = device::GroupedGemmOf<UserGemm>;
  Matrix<half_t, RowMajor> a(32, 32, 0), d0(32, 32, 0), d1(32, 32, 0);
  Matrix<half_t, ColumnMajor> b(32, 32, 0);
  float const scale = 1.0f;
  std::array<UserGemm::Arguments, 2> groups{};
  groups[0] = {{32, 32, 32}, a.cref(), b.cref(), {}, d0.ref(), {&scale}};
  groups[1] = {{32, 32, 32}, a.cref(), b.cref(), {}, d1.ref(), {&scale}};
  Grouped::Arguments args{};
  args.groups = groups.data();
  args.group_count = 2;
  std::size_t const bytes = Grouped::get_workspace_size(args);
  std::vector<std::byte> workspace(bytes + 256);
  args.workspace = workspace.data() + (256 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 256) % 256;
  args.workspace_bytes = bytes;
  REQUIRE(Grouped::can_implement(args) == Status::kSuccess);
  groups[1].output_op.scale = reinterpret_cast<float const*>(d0.data.data() + 10);  // group 0's D
  int failed = -1;
  CHECK(Grouped::can_implement(args, &failed) == Status::kErrorAliasedOperand);
  CHECK(failed == 1);
}

TEST_CASE("convolution: the output functor's declared pointers are checked too", "[conv]") {
  using Conv = hiptile::conv::device::DefaultConvolution<hiptile::conv::ConvOperator::kFprop, half_t, half_t,
                                                         arch::Gfx942, ScaledByPointer>;
  hiptile::conv::ConvProblemSize const problem = hiptile::conv::ConvProblemSize::conv2d(1, 6, 6, 8, 8, 3, 3, 1, 1);
  std::vector<half_t> x(problem.activation_elements(), half_t(0.5f)), w(problem.filter_elements(), half_t(0.25f)),
      y(problem.output_elements(), half_t(NAN));
  float const scale = 2.0f;
  Conv::Arguments args{problem, x.data(), w.data(), nullptr, y.data(), {&scale}};
  CHECK(Conv::can_implement(args) == Status::kSuccess);
  args.output_op.scale = reinterpret_cast<float const*>(y.data() + 4);
  CHECK(Conv::can_implement(args) == Status::kErrorAliasedOperand);
  args.output_op.scale = nullptr;
  CHECK(Conv::can_implement(args) == Status::kErrorNullPointer);
  args.output_op.scale = bytes_past<float>(&scale, 1);
  CHECK(Conv::can_implement(args) == Status::kErrorMisalignedOperand);
}

TEST_CASE("a saturating output saturates in every output type: f32 to ±FLT_MAX, f16 to ±65504", "[gemm][types]") {
  Shape const s{33, 17, 64, 0};
  std::mt19937 rng(9);
  Matrix<float8_e4m3fnuz, RowMajor> a(s.m, s.k, 0);
  Matrix<float8_e4m3fnuz, ColumnMajor> b(s.k, s.n, 0);
  fill(a, rng, 0.25f, 1.0f);  // positive: every sum is positive
  fill(b, rng, -1.0f, -0.25f);  // negative B: every sum is negative, then a negative scale flips half
  // Every element of D inside the problem equals `want` (the padding is never written).
  auto all_equal = [&](auto const& d, float want) {
    int wrong = 0;
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) wrong += float(d.at(i, j)) == want ? 0 : 1;
    }
    return wrong == 0;
  };
  auto run = [&]<class G>(float scale_d, auto& d) {
    float const scale_a = 1.0f, scale_b = 1.0f;
    float amax = 0;
    typename G::Arguments args{{s.m, s.n, s.k}, a.cref(), b.cref(), {}, d.ref(), {}};
    args.output_op = {1.0f, 0.0f, {}, &scale_a, &scale_b, &scale_d, &amax};
    G op;
    REQUIRE(op(args) == Status::kSuccess);
    return amax;
  };
  SECTION("f32 D, default (saturating): a huge scale_d gives ±FLT_MAX, never infinity") {
    Matrix<float, RowMajor> d(s.m, s.n, 0);
    float const amax = run.operator()<Fp8<float>>(1e38f, d);
    CHECK(amax > 0);  // x itself is finite; only scale_d · x overflows
    CHECK(all_equal(d, -FLT_MAX));
    run.operator()<Fp8<float>>(-1e38f, d);
    CHECK(all_equal(d, FLT_MAX));
  }
  SECTION("f16 D: ±65504") {
    Matrix<half_t, RowMajor> d(s.m, s.n, 0);
    run.operator()<Fp8<half_t>>(1e30f, d);
    CHECK(all_equal(d, -65504.0f));
  }
  SECTION("f32 D that asks not to saturate: infinity") {
    using NonSaturating = Fp8<float, ep::ScaledLinearCombination<float, ep::Identity, hiptile::OverflowMode::kNonSaturating>>;
    Matrix<float, RowMajor> d(s.m, s.n, 0);
    run.operator()<NonSaturating>(1e38f, d);
    CHECK(all_equal(d, -std::numeric_limits<float>::infinity()));
  }
}
