// ImplicitGemmConvolution's argument checks, one at a time: for Fprop, Dgrad and Wgrad (gfx942,
// f16, precomputed and analytic iterators) a valid baseline that runs right, then one case per
// Status of can_implement's order of checks, each changing the fewest fields of the baseline that
// reach it (one, except where noted). Each refusal must come alike from can_implement, initialize
// and operator(), and leave the operator uninitialised (run() gives kErrorNotInitialized even after
// a good initialize). Then both sides of kErrorOperandTooLarge for each loader, the legal in-place
// C = D computed right, the analytic iterator's narrow accesses, and strides near INT_MAX.
//
// The checked cases have far-off fake addresses (test/common/fake_address.hpp): they are only
// checked, never run, and an entry point that touched one would crash.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "../common/fake_address.hpp"
#include "conv_test_support.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/dgrad_loaders.hpp"
#include "hiptile/conv/fprop_loaders.hpp"

namespace {

using namespace conv_test;
using hiptile::half_t;
using test_support::fake_address;

using FpropPrecomputed = Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kPrecomputed>;
using FpropAnalytic = Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic>;
using DgradPrecomputed = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kPrecomputed>;
using DgradAnalytic = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic>;
using WgradPrecomputed = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kPrecomputed>;
using WgradAnalytic = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic>;

// The largest byte offset from a loader's base a buffer load may use (ConvOperand::kMaxReachBytes).
constexpr std::int64_t kMaxReach = (std::int64_t{1} << 31) - 1;

template <class Conv>
constexpr bool kNoexceptEntryPoints =
    noexcept(Conv::can_implement(std::declval<typename Conv::Arguments const&>())) &&
    noexcept(std::declval<Conv&>().initialize(std::declval<typename Conv::Arguments const&>())) &&
    noexcept(std::declval<Conv const&>().run()) &&
    noexcept(std::declval<Conv&>()(std::declval<typename Conv::Arguments const&>()));
static_assert(kNoexceptEntryPoints<FpropPrecomputed> && kNoexceptEntryPoints<DgradAnalytic> &&
              kNoexceptEntryPoints<WgradPrecomputed>);

// The baseline: 2 images of 5 × 36, 16 → 24 channels, a 3 × 3 filter with padding 1 and stride 2
// along H (so that Dgrad has two row classes and one more field makes it dilated-strided); W is
// wide enough for a 33-tap filter. Run with α = 0.75, β = 0.5 and a bias, so C and the bias are
// checked too.
ConvProblemSize baseline_problem() { return ConvProblemSize::conv2d(2, 5, 36, 16, 24, 3, 3, 1, 1, 2, 1); }
constexpr float kAlpha = 0.75f, kBeta = 0.5f;

// A problem's arguments with far-off fake operands, and the baseline's α, β and bias.
template <class Conv>
typename Conv::Arguments fake_arguments(ConvProblemSize const& p) {
  using E = typename Conv::Element;
  using EC = typename Conv::ElementC;
  typename Conv::Arguments a{};
  a.problem = p;
  a.a = fake_address<E const>(0);
  a.b = fake_address<E const>(1);
  a.c = fake_address<EC const>(2);
  a.d = fake_address<EC>(3);
  a.output_op = {kAlpha, kBeta};
  a.bias = fake_address<EC const>(4);
  return a;
}

// `args` must give `expected` from every entry point; a refusal must leave the operator
// uninitialised although a good initialize came first.
template <class Conv>
void require_status(typename Conv::Arguments const& args, typename Conv::Arguments const& good, Status expected) {
  INFO("expected: " << hiptile::to_string(expected));
  CHECK(Conv::can_implement(args) == expected);
  CHECK(Conv::get_workspace_size(args) == 0);  // no split-K here: no workspace, whatever the arguments
  Conv op;
  REQUIRE(op.initialize(good) == Status::kSuccess);
  CHECK(op.initialize(args) == expected);
  if (expected == Status::kSuccess) {
    CHECK(op.initialized());
    return;
  }
  CHECK_FALSE(op.initialized());
  CHECK(op.run() == Status::kErrorNotInitialized);
  Conv fresh;
  CHECK(fresh.run() == Status::kErrorNotInitialized);
  CHECK(fresh(args) == expected);
}

// One case of the table: what it changes, and the Status each operator must give. Where the
// precomputed iterators' filter limit (Fprop and Dgrad) refuses it first, `analytic` is what the
// analytic iterators give.
template <class Conv>
struct Change {
  std::string what;
  std::function<void(typename Conv::Arguments&)> change;
  Status fprop, dgrad, wgrad;
  std::optional<Status> analytic = std::nullopt;

  Status expected() const {
    if (analytic && Conv::kAlgorithm == IteratorAlgorithm::kAnalytic && Conv::kOperator != ConvOperator::kWgrad) {
      return *analytic;
    }
    return Conv::kOperator == ConvOperator::kFprop   ? fprop
           : Conv::kOperator == ConvOperator::kDgrad ? dgrad
                                                     : wgrad;
  }
};

template <class T>
T* shifted(T* p, std::ptrdiff_t bytes) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) + bytes);
}
// An address `bytes` below the end of the address space: a tensor longer than that wraps past it.
template <class T>
T* top_of_address_space(std::uintptr_t bytes) {
  return reinterpret_cast<T*>(std::uintptr_t(0) - bytes);
}

// Elements of d: y (Fprop), dx (Dgrad) or dw (Wgrad).
template <class Conv>
std::int64_t d_elements(ConvProblemSize const& p) {
  return Conv::kOperator == ConvOperator::kFprop   ? p.output_elements()
         : Conv::kOperator == ConvOperator::kDgrad ? p.activation_elements()
                                                   : p.filter_elements();
}

template <class Conv>
std::vector<Change<Conv>> changes() {
  using Args = typename Conv::Arguments;
  using E = typename Conv::Element;
  using EC = typename Conv::ElementC;
  constexpr Status kOk = Status::kSuccess;
  constexpr Status kInvalid = Status::kErrorInvalidProblem;
  constexpr Status kOverflow = Status::kErrorIndexOverflow;
  constexpr Status kMisaligned = Status::kErrorMisalignedOperand;
  constexpr Status kNull = Status::kErrorNullPointer;
  constexpr Status kAliased = Status::kErrorAliasedOperand;
  constexpr Status kChannels = Status::kErrorChannelsNotAligned;
  auto all = [](std::string what, std::function<void(Args&)> f, Status s) {
    return Change<Conv>{std::move(what), std::move(f), s, s, s};
  };
  std::vector<Change<Conv>> v = {
      // ConvProblemSize::check(): each field's own range.
      all("n = 0", [](Args& a) { a.problem.n = 0; }, kInvalid),
      all("n = -1", [](Args& a) { a.problem.n = -1; }, kInvalid),
      all("c = 0", [](Args& a) { a.problem.c = 0; }, kInvalid),
      all("k = INT_MIN", [](Args& a) { a.problem.k = INT_MIN; }, kInvalid),
      all("input H = 0", [](Args& a) { a.problem.input[1] = 0; }, kInvalid),
      all("filter S = -3", [](Args& a) { a.problem.filter[2] = -3; }, kInvalid),
      all("pad_before H = -1", [](Args& a) { a.problem.pad_before[1] = -1; }, kInvalid),
      all("pad_after W = INT_MIN", [](Args& a) { a.problem.pad_after[2] = INT_MIN; }, kInvalid),
      all("stride W = 0", [](Args& a) { a.problem.stride[2] = 0; }, kInvalid),
      all("dilation H = -1", [](Args& a) { a.problem.dilation[1] = -1; }, kInvalid),
      all("groups = 0", [](Args& a) { a.problem.groups = 0; }, kInvalid),
      all("mode = 2", [](Args& a) { a.problem.mode = static_cast<ConvMode>(2); }, Status::kErrorInvalidEnum),
      all("mode = -1", [](Args& a) { a.problem.mode = static_cast<ConvMode>(-1); }, Status::kErrorInvalidEnum),
      all("groups = 3", [](Args& a) { a.problem.groups = 3; }, Status::kErrorGroupsNotDividing),
      all("groups = 32 (> C)", [](Args& a) { a.problem.groups = 32; }, Status::kErrorGroupsNotDividing),
      all("pad_before H = 3 (the filter's extent)", [](Args& a) { a.problem.pad_before[1] = 3; },
          Status::kErrorPaddingTooLarge),
      all("pad_after W = INT_MAX", [](Args& a) { a.problem.pad_after[2] = INT_MAX; }, Status::kErrorPaddingTooLarge),
      all("pad_before D = 1 (T = 1)", [](Args& a) { a.problem.pad_before[0] = 1; }, Status::kErrorPaddingTooLarge),
      all("filter S = 39 (W + padding = 38)", [](Args& a) { a.problem.filter[2] = 39; }, Status::kErrorEmptyOutput),
      all("dilation W = 20 (dilated filter 41)", [](Args& a) { a.problem.dilation[2] = 20; },
          Status::kErrorEmptyOutput),
      // No one field makes an output extent or element count pass check()'s limits from a
      // baseline this small: two do.
      all("input W = INT_MAX, pad_after W = 2: Q = 2^31", [](Args& a) {
            a.problem.input[2] = INT_MAX;
            a.problem.pad_after[2] = 2;
          }, kOverflow),
      all("n = INT_MAX, input H = INT_MAX: x has more than 2^63 elements", [](Args& a) {
            a.problem.n = INT_MAX;
            a.problem.input[1] = INT_MAX;
          }, kOverflow),
      // Dgrad with stride and dilation above 1 in one dimension (the baseline's H has stride 2).
      Change<Conv>{"dilation H = 2", [](Args& a) { a.problem.dilation[1] = 2; }, kOk,
                   Status::kErrorDilatedStridedDgrad, kOk},
      // Split-K slices: at least 1, and 1 without parallel split-K.
      all("split_k_slices = 0", [](Args& a) { a.split_k_slices = 0; }, kInvalid),
      all("split_k_slices = INT_MIN", [](Args& a) { a.split_k_slices = INT_MIN; }, kInvalid),
      all("split_k_slices = 2", [](Args& a) { a.split_k_slices = 2; }, Status::kErrorNotSupported),
      // Null pointers; C only matters when β ≠ 0, the bias is optional.
      all("a = null", [](Args& a) { a.a = nullptr; }, kNull),
      all("b = null", [](Args& a) { a.b = nullptr; }, kNull),
      all("d = null", [](Args& a) { a.d = nullptr; }, kNull),
      all("c = null (β ≠ 0)", [](Args& a) { a.c = nullptr; }, kNull),
      all("bias = null", [](Args& a) { a.bias = nullptr; }, kOk),
      all("c = null and β = 0", [](Args& a) {
            a.c = nullptr;
            a.output_op.beta = 0.0f;
          }, kOk),
      // Channels per group: Fprop reads C/groups in vectors, Dgrad and Wgrad K/groups as well.
      all("c = 12", [](Args& a) { a.problem.c = 12; }, kChannels),
      Change<Conv>{"k = 20", [](Args& a) { a.problem.k = 20; }, kOk, kChannels, kChannels},
      Change<Conv>{"groups = 2 (K/groups = 12)", [](Args& a) { a.problem.groups = 2; }, kOk, kChannels, kChannels},
      // The precomputed iterators' masks hold 32 taps (Fprop and Dgrad; Wgrad has none).
      Change<Conv>{"filter S = 33", [](Args& a) { a.problem.filter[2] = 33; }, Status::kErrorNotSupported,
                   Status::kErrorNotSupported, kOk, kOk},
      all("filter S = 32", [](Args& a) { a.problem.filter[2] = 32; }, kOk),
      // a and b to the access's vector (8 f16 = 16 bytes), c, d and the bias to the element.
      all("a + 2 bytes", [](Args& a) { a.a = shifted(a.a, 2); }, kMisaligned),
      all("a + 8 bytes", [](Args& a) { a.a = shifted(a.a, 8); }, kMisaligned),
      all("b + 2 bytes", [](Args& a) { a.b = shifted(a.b, 2); }, kMisaligned),
      all("c + 1 byte", [](Args& a) { a.c = shifted(a.c, 1); }, kMisaligned),
      all("d + 1 byte", [](Args& a) { a.d = shifted(a.d, 1); }, kMisaligned),
      all("bias + 1 byte", [](Args& a) { a.bias = shifted(a.bias, 1); }, kMisaligned),
      all("a + 16 bytes", [](Args& a) { a.a = shifted(a.a, 16); }, kOk),
      all("c + 1 byte and β = 0 (C not read)", [](Args& a) {
            a.c = shifted(a.c, 1);
            a.output_op.beta = 0.0f;
          }, kOk),
      // GEMM extents and pixel counts in int; tensors inside the address space.
      all("n = INT_MAX", [](Args& a) { a.problem.n = INT_MAX; }, kOverflow),
      all("k = 2^31 - 8", [](Args& a) { a.problem.k = INT_MAX - 7; }, kOverflow),
      all("a 16 bytes below 2^64", [](Args& a) { a.a = top_of_address_space<E const>(16); }, kOverflow),
      all("b 16 bytes below 2^64", [](Args& a) { a.b = top_of_address_space<E const>(16); }, kOverflow),
      all("c 16 bytes below 2^64", [](Args& a) { a.c = top_of_address_space<EC const>(16); }, kOverflow),
      all("d 16 bytes below 2^64", [](Args& a) { a.d = top_of_address_space<EC>(16); }, kOverflow),
      all("bias 16 bytes below 2^64", [](Args& a) { a.bias = top_of_address_space<EC const>(16); }, kOverflow),
      // Outputs overlapping inputs; C = D in place is legal, and so is D ending where A starts.
      all("d = a", [](Args& a) { a.d = const_cast<EC*>(reinterpret_cast<EC const*>(a.a)); }, kAliased),
      all("d = b + 8 elements", [](Args& a) { a.d = const_cast<EC*>(reinterpret_cast<EC const*>(a.b)) + 8; },
          kAliased),
      all("bias = d + 3 elements", [](Args& a) { a.bias = a.d + 3; }, kAliased),
      all("c = d + 1 element", [](Args& a) { a.c = a.d + 1; }, kAliased),
      all("c = d (in place)", [](Args& a) { a.c = a.d; }, kOk),
      all("d ending where a starts", [](Args& a) {
            a.d = const_cast<EC*>(reinterpret_cast<EC const*>(a.a)) - d_elements<Conv>(a.problem);
          }, kOk),
      all("d ending one element into a", [](Args& a) {
            a.d = const_cast<EC*>(reinterpret_cast<EC const*>(a.a)) - d_elements<Conv>(a.problem) + 1;
          }, kAliased),
      // The grid: one launch holds kMaxWorkgroups tiles. Fprop's N = K: 2 tile rows of M, so
      // K/128 tile columns of 8388607 fill 16777214 workgroups and one more column passes the
      // limit; that K makes Dgrad's GEMM K (taps·K) overflow int and Wgrad's A reach 2^36 bytes.
      Change<Conv>{"k = 8388607·128", [](Args& a) { a.problem.k = 8388607 * 128; }, kOk, kOverflow,
                   Status::kErrorOperandTooLarge},
      Change<Conv>{"k = 8388607·128 + 8", [](Args& a) { a.problem.k = 8388607 * 128 + 8; },
                   Status::kErrorGridTooLarge, kOverflow, Status::kErrorOperandTooLarge},
      // No one field passes the grid limit for Dgrad or Wgrad before an int extent or a loader's
      // reach does: two do. Dgrad: 1024 images (864 tile rows of its larger row class) by 2^22
      // channels (32768 tile columns), its group's filters 2^31 − 2^28 bytes; Fprop's and Wgrad's x
      // reach passes 2^31 there. Wgrad: 2^25 − 8 filters (262144 tile rows) by 9·8192 columns (576),
      // dy's reach 2^31 − 512 bytes; Dgrad's filters reach past 2^31 there.
      Change<Conv>{"n = 1024, c = 2^22", [](Args& a) {
                     a.problem.n = 1024;
                     a.problem.c = 1 << 22;
                   }, Status::kErrorOperandTooLarge, Status::kErrorGridTooLarge, Status::kErrorOperandTooLarge},
      Change<Conv>{"k = 2^25 - 8, c = 8192", [](Args& a) {
                     a.problem.k = (1 << 25) - 8;
                     a.problem.c = 8192;
                   }, kOk, Status::kErrorOperandTooLarge, Status::kErrorGridTooLarge},
  };
  return v;
}

}  // namespace

TEMPLATE_TEST_CASE("each argument check of a convolution gives its own Status, alike from every entry point",
                   "[conv][checks]", FpropPrecomputed, FpropAnalytic, DgradPrecomputed, DgradAnalytic,
                   WgradPrecomputed, WgradAnalytic) {
  using Conv = TestType;
  ConvProblemSize const p = baseline_problem();
  // The baseline runs and is right, α, β·C and the bias included.
  auto const result = run_conv<Conv>(p, Epilogue{kAlpha, kBeta, true}, 21);
  INFO(describe(p) << ": " << hiptile::host::to_string(result));
  REQUIRE(result.passed());

  auto const good = fake_arguments<Conv>(p);
  REQUIRE(Conv::can_implement(good) == Status::kSuccess);
  for (Change<Conv> const& c : changes<Conv>()) {
    auto args = good;
    c.change(args);
    INFO(c.what << " (" << describe(args.problem) << ")");
    require_status<Conv>(args, good, c.expected());
  }
}

namespace {

// Reach of each loader from its block's base, in bytes, as the loaders' offsets_fit() count it.
// Fprop A = x: the images TileM output pixels come from, D·H·W·C elements each.
std::int64_t fprop_activation_reach(ConvProblemSize const& p, int tile_m) {
  Spatial const o = p.output();
  std::int64_t const zpq = std::int64_t(o[0]) * o[1] * o[2];
  return hiptile::conv::images_reached(tile_m, zpq, p.n) * p.input[0] * p.input[1] * p.input[2] *
         std::int64_t(p.c) * 2;
}
// Fprop B = w: TileN filters of T·R·S·C/groups elements.
std::int64_t fprop_filter_reach(ConvProblemSize const& p, int tile_n) {
  return std::int64_t(tile_n) * p.filter[0] * p.filter[1] * p.filter[2] * p.c_per_group() * 2;
}
// Dgrad A = dy: the images the block's rows come from (at least max(1, D/stride)·… rows each),
// Z·P·Q·K elements each.
std::int64_t dgrad_gradient_reach(ConvProblemSize const& p, int tile_m) {
  std::int64_t per_image = 1;
  for (int i = 0; i < 3; ++i) per_image *= std::max(1, p.input[i] / p.stride[i]);
  Spatial const o = p.output();
  return hiptile::conv::images_reached(tile_m, per_image, p.n) * o[0] * o[1] * o[2] * std::int64_t(p.k) * 2;
}
// Dgrad B = w: a whole group's filters.
std::int64_t dgrad_filter_reach(ConvProblemSize const& p) {
  return std::int64_t(p.k_per_group()) * p.filter[0] * p.filter[1] * p.filter[2] * p.c_per_group() * 2;
}
// Wgrad A = dy: TileK output pixels of K channels.
std::int64_t wgrad_gradient_reach(ConvProblemSize const& p, int tile_k) { return std::int64_t(tile_k) * p.k * 2; }
// Wgrad B = x: the images TileK output pixels come from.
std::int64_t wgrad_activation_reach(ConvProblemSize const& p, int tile_k) {
  return fprop_activation_reach(p, tile_k);
}

// One side of the limit: a problem, which loader it tests, and whether it must fit.
struct Reach {
  std::string what;
  ConvProblemSize problem;
  bool operand_a;
  std::int64_t bytes;
};

template <class Conv>
std::vector<Reach> reach_cases() {
  using P = ConvProblemSize;
  constexpr int kTileM = Conv::TileShapeType::kM, kTileN = Conv::TileShapeType::kN, kTileK = Conv::TileShapeType::kK;
  // 3 × 2731 = 8193 pixels an image: a 128-row (or 32-pixel) block reaches into 2 of the 4 images,
  // so 2·8193·C·2 bytes; C = 65528 gives 2^31 − 32, the largest multiple of 32 (8 channels of 2
  // bytes in 2 images) below the limit, and 8 channels more 2^31 + 2^18. The whole tensor is
  // 4 images: a block's reach, not the tensor, is what counts.
  auto images = [](int c, int k) { return P::conv2d(4, 3, 2731, c, k, 1, 1); };
  std::vector<Reach> v;
  if constexpr (Conv::kOperator == ConvOperator::kFprop) {
    for (int c : {65528, 65536}) {
      P const p = images(c, 8);
      v.push_back({"x, C = " + std::to_string(c), p, true, fprop_activation_reach(p, kTileM)});
    }
    // TileN filters of C: 128·8388600·2 = 2^31 − 2048 (a multiple of 128·8·2), and 2^31.
    for (int c : {8388600, 8388608}) {
      P const p = P::conv2d(1, 1, 1, c, 8, 1, 1);
      v.push_back({"w, C = " + std::to_string(c), p, false, fprop_filter_reach(p, kTileN)});
    }
  } else if constexpr (Conv::kOperator == ConvOperator::kDgrad) {
    for (int k : {65528, 65536}) {
      P const p = images(8, k);
      v.push_back({"dy, K = " + std::to_string(k), p, true, dgrad_gradient_reach(p, kTileM)});
    }
    // A group's 8 filters of C: 8·134217720·2 = 2^31 − 128, and 2^31.
    for (int c : {134217720, 134217728}) {
      P const p = P::conv2d(1, 1, 1, c, 8, 1, 1);
      v.push_back({"w, C = " + std::to_string(c), p, false, dgrad_filter_reach(p)});
    }
  } else {
    // 32 pixels of K channels: 32·33554424·2 = 2^31 − 512, and 2^31.
    for (int k : {33554424, 33554432}) {
      P const p = P::conv2d(1, 1, 1, 8, k, 1, 1);
      v.push_back({"dy, K = " + std::to_string(k), p, true, wgrad_gradient_reach(p, kTileK)});
    }
    for (int c : {65528, 65536}) {
      P const p = images(c, 8);
      v.push_back({"x, C = " + std::to_string(c), p, false, wgrad_activation_reach(p, kTileK)});
    }
  }
  return v;
}

}  // namespace

TEMPLATE_TEST_CASE("a loader's reach from its block's base is refused just past 2^31 - 1 bytes, not before",
                   "[conv][checks]", FpropPrecomputed, FpropAnalytic, DgradPrecomputed, DgradAnalytic,
                   WgradPrecomputed, WgradAnalytic) {
  using Conv = TestType;
  constexpr ConvOperator kOp = Conv::kOperator;
  auto const cases = reach_cases<Conv>();
  REQUIRE(cases.size() == 4);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Reach const& r = cases[i];
    bool const fits = i % 2 == 0;  // each pair: just under, then just over
    INFO(r.what << ": " << r.bytes << " bytes (" << describe(r.problem) << ")");
    REQUIRE(r.problem.check() == Status::kSuccess);
    REQUIRE((r.bytes <= kMaxReach) == fits);
    REQUIRE(std::abs(r.bytes - kMaxReach) < (std::int64_t{1} << 19));  // the cases sit at the limit

    auto args = fake_arguments<Conv>(r.problem);
    hiptile::conv::ConvGeometry g;
    REQUIRE(hiptile::conv::ConvGeometry::make(r.problem, kOp == ConvOperator::kDgrad, g) == Status::kSuccess);
    // The loaders' own test, on the Params initialize() would give them.
    ConvProblemSize const& p = r.problem;
    std::int64_t const a_elements = kOp == ConvOperator::kFprop ? p.activation_elements() : p.output_elements();
    std::int64_t const b_elements = kOp == ConvOperator::kWgrad ? p.activation_elements() : p.filter_elements();
    typename Conv::LoaderA::Params const pa{args.a, a_elements};
    typename Conv::LoaderB::Params const pb{args.b, b_elements};
    CHECK(Conv::LoaderA::offsets_fit(pa, g) == (r.operand_a ? fits : true));
    CHECK(Conv::LoaderB::offsets_fit(pb, g) == (r.operand_a ? true : fits));

    require_status<Conv>(args, fake_arguments<Conv>(baseline_problem()),
                         fits ? Status::kSuccess : Status::kErrorOperandTooLarge);
    if (fits) {
      Conv op;
      REQUIRE(op.initialize(args) == Status::kSuccess);
      CHECK(op.params().mainloop.a.elements == a_elements);
      CHECK(op.params().mainloop.b.elements == b_elements);
    }
  }
}

namespace {

// Runs Conv with C = D: D starts as C's values, and must end as α·conv + β·(C's values) + bias.
template <class Conv>
hiptile::host::Comparison run_in_place(ConvProblemSize const& p, float alpha, float beta, std::uint64_t seed) {
  using E = typename Conv::Element;
  using EC = typename Conv::ElementC;
  constexpr ConvOperator op = Conv::kOperator;
  TensorShapes const s = tensor_shapes(p);
  std::int64_t const a_rows = op == ConvOperator::kFprop ? s.x_rows : s.y_rows;
  std::int64_t const a_cols = op == ConvOperator::kFprop ? s.x_cols : s.y_cols;
  std::int64_t const b_rows = op == ConvOperator::kWgrad ? s.x_rows : s.w_rows;
  std::int64_t const b_cols = op == ConvOperator::kWgrad ? s.x_cols : s.w_cols;
  std::int64_t const d_rows = op == ConvOperator::kFprop ? s.y_rows : op == ConvOperator::kDgrad ? s.x_rows : s.w_rows;
  std::int64_t const d_cols = op == ConvOperator::kFprop ? s.y_cols : op == ConvOperator::kDgrad ? s.x_cols : s.w_cols;
  HostMatrix<E, RowMajor> a(a_rows, a_cols), b(b_rows, b_cols);
  HostMatrix<EC, RowMajor> d(d_rows, d_cols), bias(1, op == ConvOperator::kDgrad ? p.c : p.k);
  hiptile::host::fill_random(a, seed, -1.0, 1.0);
  hiptile::host::fill_random(b, seed + 1, -1.0, 1.0);
  hiptile::host::fill_random(d, seed + 2, -2.0, 2.0);
  hiptile::host::fill_random(bias, seed + 3, -1.0, 1.0);
  HostMatrix<EC, RowMajor> const c0 = d;

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
      double const bias_value = double(float(bias.at(0, op == ConvOperator::kWgrad ? i : j)));
      double const source = double(float(c0.at(i, j)));
      ref.at(i, j) = alpha * ref.at(i, j) + beta * source + bias_value;
      magnitude.at(i, j) = std::abs(alpha) * magnitude.at(i, j) + std::abs(beta * source) + std::abs(bias_value);
    }
  }
  typename Conv::Arguments args{p, a.data(), b.data(), d.data(), d.data(), {alpha, beta}, bias.data()};
  INFO(describe(p));
  REQUIRE(Conv::can_implement(args) == Status::kSuccess);
  Conv conv;
  REQUIRE(conv.initialize(args) == Status::kSuccess);
  Status const status = conv.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(status == Status::kSuccess);
  return hiptile::host::compare(d, ref, magnitude, hiptile::host::gemm_tolerance<E, EC>(p.implicit_gemm(op).k));
}

}  // namespace

TEMPLATE_TEST_CASE("in place, C = D, computes alpha·conv + beta·D + bias", "[conv][checks]", FpropPrecomputed,
                   FpropAnalytic, DgradPrecomputed, DgradAnalytic, WgradPrecomputed, WgradAnalytic) {
  // Two groups, stride 2 in both dimensions (Dgrad: four row classes in each group).
  ConvProblemSize p = ConvProblemSize::conv2d(1, 7, 9, 16, 32, 3, 3, 1, 1, 2, 2);
  p.groups = 2;
  auto const result = run_in_place<TestType>(p, 0.75f, -1.5f, 31);
  INFO(describe(p) << ": " << hiptile::host::to_string(result));
  CHECK(result.passed());
}

TEST_CASE("C = 3: the analytic iterator with 1-element accesses runs it, the 8-element ones refuse it") {
  // An RGB stem: 3 input channels.
  ConvProblemSize const rgb = ConvProblemSize::conv2d(2, 9, 11, 3, 8, 3, 3, 1, 1, 2, 2);
  using FpropNarrow = Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic, 1>;
  using WgradNarrow = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic, 1>;
  using DgradNarrow = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic, 1>;
  for (auto const& result : {run_conv<FpropNarrow>(rgb, Epilogue{1.0f, 0.5f, true}, 41),
                             run_conv<WgradNarrow>(rgb, Epilogue{1.0f, 0.0f, false}, 42)}) {
    INFO(describe(rgb) << ": " << hiptile::host::to_string(result));
    CHECK(result.passed());
  }
  // Dgrad reads K/groups in accesses too: C = 3 and K = 5.
  ConvProblemSize odd = rgb;
  odd.k = 5;
  auto const dgrad = run_conv<DgradNarrow>(odd, Epilogue{-1.0f, 0.25f, true}, 43);
  INFO(describe(odd) << ": " << hiptile::host::to_string(dgrad));
  CHECK(dgrad.passed());

  // The precomputed iterators (whole 16-byte vectors) and the analytic one with 8-element accesses
  // refuse the same problem, and the Status's text points to the analytic iterator.
  require_status<FpropPrecomputed>(fake_arguments<FpropPrecomputed>(rgb),
                                   fake_arguments<FpropPrecomputed>(baseline_problem()),
                                   Status::kErrorChannelsNotAligned);
  require_status<FpropAnalytic>(fake_arguments<FpropAnalytic>(rgb), fake_arguments<FpropAnalytic>(baseline_problem()),
                                Status::kErrorChannelsNotAligned);
  CHECK(FpropNarrow::can_implement(fake_arguments<FpropNarrow>(rgb)) == Status::kSuccess);
  require_status<DgradPrecomputed>(fake_arguments<DgradPrecomputed>(odd),
                                   fake_arguments<DgradPrecomputed>(baseline_problem()),
                                   Status::kErrorChannelsNotAligned);
  CHECK(DgradNarrow::can_implement(fake_arguments<DgradNarrow>(odd)) == Status::kSuccess);
  std::string const text = hiptile::to_string(Status::kErrorChannelsNotAligned);
  CHECK(text.find("analytic") != std::string::npos);
}

// Extents each within int whose products are not: Dgrad's row classes (the strides' product) times
// the groups are its batches, which the kernel indexes in int; (input + stride − 1) / stride, a row
// class's rounded-up extent, passes int with stride INT_MAX; and T·R·S, the filter's taps. Each
// problem below is valid; each must be refused with a Status, by every entry point
// (get_workspace_size included), or computed right.
TEST_CASE("extents near INT_MAX are refused or computed right, never wrapped") {
  using P = ConvProblemSize;
  // Dgrad: 65536 · 65536 row classes = 2^32 (it wrapped to 0 in int, and no batch was launched).
  P const wraps = P::conv3d(1, {{1, 1, 4}}, 8, 8, {{1, 1, 1}}, {{0, 0, 0}}, {{65536, 65536, 1}});
  require_status<DgradPrecomputed>(fake_arguments<DgradPrecomputed>(wraps),
                                   fake_arguments<DgradPrecomputed>(baseline_problem()), Status::kErrorGridTooLarge);
  require_status<DgradAnalytic>(fake_arguments<DgradAnalytic>(wraps), fake_arguments<DgradAnalytic>(baseline_problem()),
                                Status::kErrorGridTooLarge);
  // Dgrad: 2 groups of INT_MAX row classes, 2^32 − 2 batches: within the launch's grid y, not
  // within the kernel's int batch index.
  P groups = P::conv3d(1, {{1, 1, 4}}, 16, 16, {{1, 1, 1}}, {{0, 0, 0}}, {{1, INT_MAX, 1}});
  groups.groups = 2;
  require_status<DgradPrecomputed>(fake_arguments<DgradPrecomputed>(groups),
                                   fake_arguments<DgradPrecomputed>(baseline_problem()), Status::kErrorGridTooLarge);
  // One group of INT_MAX row classes is INT_MAX batches of one tile: within both, accepted (not run).
  P one_group = groups;
  one_group.groups = 1;
  CHECK(DgradPrecomputed::can_implement(fake_arguments<DgradPrecomputed>(one_group)) == Status::kSuccess);
  // 2^30·9 filter taps, each extent within int: the GEMM's K overflows int, and the taps' count
  // with it. The precomputed iterators' 32-tap limit refuses it first.
  P const taps = [] {
    P p = baseline_problem();
    p.input[0] = 1 << 30;
    p.filter[0] = 1 << 30;
    return p;
  }();
  require_status<FpropAnalytic>(fake_arguments<FpropAnalytic>(taps), fake_arguments<FpropAnalytic>(baseline_problem()),
                                Status::kErrorIndexOverflow);
  require_status<DgradAnalytic>(fake_arguments<DgradAnalytic>(taps), fake_arguments<DgradAnalytic>(baseline_problem()),
                                Status::kErrorIndexOverflow);
  require_status<WgradPrecomputed>(fake_arguments<WgradPrecomputed>(taps),
                                   fake_arguments<WgradPrecomputed>(baseline_problem()), Status::kErrorIndexOverflow);
  require_status<FpropPrecomputed>(fake_arguments<FpropPrecomputed>(taps),
                                   fake_arguments<FpropPrecomputed>(baseline_problem()), Status::kErrorNotSupported);
  // Fprop and Wgrad: stride W = INT_MAX on a 4-wide input, one output column; they run.
  P const wide = P::conv2d(1, 3, 4, 8, 8, 1, 1, 0, 0, 1, INT_MAX);
  for (auto const& result : {run_conv<FpropPrecomputed>(wide, Epilogue{}, 52), run_conv<FpropAnalytic>(wide, Epilogue{}, 53),
                             run_conv<WgradPrecomputed>(wide, Epilogue{}, 54)}) {
    INFO(describe(wide) << ": " << hiptile::host::to_string(result));
    CHECK(result.passed());
  }
}
