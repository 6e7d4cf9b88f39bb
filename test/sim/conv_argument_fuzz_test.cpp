// The argument-fuzzing suite (test/common/argument_fuzz.hpp) on the convolutions: every field of
// ConvProblemSize and of ImplicitGemmConvolution::Arguments at its extremes, alone and in seeded
// combinations, for Fprop, Dgrad and Wgrad on gfx942 configurations run in the simulator, and on
// DefaultConvolution and TunedConvolution, which run a configuration of their list chosen per
// problem. Each case
// ends refused (the same Status from every entry point, nothing written), accepted and run (the
// whole output against the double-precision reference, every other byte unchanged), or accepted
// and too large to run (checked by its launch geometry and Params). HIPTILE_FUZZ_CASES sets the
// random cases per configuration, HIPTILE_FUZZ_MAX_TILE_STEPS the largest case that is run.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../common/argument_fuzz.hpp"
#include "../common/fake_address.hpp"
#include "../common/tuned_operator.hpp"
#include "conv_test_support.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/conv/device/depthwise_convolution.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "hiptile/tune/default_tuned_convolution.hpp"

namespace {

using namespace conv_test;
using hiptile::ByteRange;
using hiptile::half_t;
using Int128 = ByteRange::Int128;

constexpr int kOperands = 5;  // a, b, c, d, bias
enum Operand { kA, kB, kC, kD, kBias };

// How the pointers of a case relate: kInPlace and kBiasIsC are legal, the others overlap d with
// an input it must not.
enum class Alias { kNone, kDIsA, kDIsB, kDInsideA, kInPlace, kCShiftedFromD, kBiasInD, kBiasIsC };
// Where an operand's pointer points: its own buffer, or an address nothing may dereference — far
// off (fake_address), just below 2^64 (a tensor longer than 4 KiB wraps the address space) or at
// 2^63.
enum class Place { kBuffer, kFar, kTop, kHigh };

using fuzz::max_tile_steps;  // block-tile K steps here: workgroups × K tiles
// The default limit runs every small accepted case. A lower one (the sanitize preset's 16, where
// AddressSanitizer's fake stacks for stack-use-after-return make the simulator's fibers some 50
// times slower) also caps what each configuration simulates in all at 4 times the limit, in tile
// steps (runnable() counts them): the small cases past it are checked by their launch geometry.
std::int64_t run_budget() { return max_tile_steps() >= 64 ? INT64_MAX : 4 * max_tile_steps(); }

// Multiply-adds the host reference may spend on one case.
constexpr std::int64_t kMaxReferenceOps = std::int64_t{1} << 22;

// int64 arithmetic clamped into int, for settings derived from a case's other fields.
int clamp_int(std::int64_t v) { return int(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX)); }

// The operator whose Candidate<I> an operator that chooses runs: a fuzz::TunedOperator's tuned
// operator, or the selecting operator itself.
template <class Op>
struct CandidatesOfOperator : std::type_identity<Op> {};
template <class Op>
  requires requires { typename Op::Tuning; }
struct CandidatesOfOperator<Op> : std::type_identity<typename Op::Tuning> {};
template <class Op>
using CandidatesOf = typename CandidatesOfOperator<Op>::type;

// Conv: the configuration whose rules shape the cases (tile, channels per access, split-K and its
// workspace); Op: the operator run, Conv itself or a fuzz::TunedOperator (a TunedConvolution) whose
// candidates include it.
template <class Conv, class Op = Conv>
struct ConvSubject {
  using Operator = Op;
  static constexpr bool kTuned = requires { typename Op::Tuning; };  // a fuzz::TunedOperator
  static constexpr bool kSelecting = requires { typename Op::Choice; };  // a SelectingConvolution
  static constexpr bool kChooses = kTuned || kSelecting;
  using E = typename Conv::Element;
  using EC = typename Conv::ElementC;
  using Tile = typename Conv::TileShapeType;
  static constexpr ConvOperator kOp = Conv::kOperator;
  static constexpr std::size_t kBytes[kOperands] = {sizeof(E), sizeof(E), sizeof(EC), sizeof(EC), sizeof(EC)};
  // Whether Arguments has the split-K slice count (operators that can split K).
  // What the runs cost, in block-tile K steps (see runnable()), for the budget and the log.
  static inline std::int64_t simulated_steps = 0;
  // A tuned operator's cases run, by the candidate chosen, and those of them over K slices: so that
  // the suite is known to reach the candidates the tuner picks.
  static inline std::map<int, std::int64_t> runs_by_candidate;
  static inline std::int64_t split_runs = 0;

  struct Case {
    ConvProblemSize problem;
    float alpha = 1.0f, beta = 0.0f;
    bool bias = false;
    std::array<int, kOperands> misalign{};  // bytes added to each pointer
    std::array<bool, kOperands> null{};
    std::array<Place, kOperands> place{};
    Alias alias = Alias::kNone;
    int slices = 1;
    int workgroups = 0;  // a persistent grid (refused by the others unless 0)
    fuzz::WorkspaceGiven workspace = fuzz::WorkspaceGiven::kExact;  // split-K configurations only
    std::uint64_t seed = 1;
  };
  static constexpr bool kDirect = Conv::kAlgorithm == IteratorAlgorithm::kDirect;  // DepthwiseConvolution
  static constexpr bool kPacked = Conv::kAlgorithm == IteratorAlgorithm::kPackedGroups;
  // A filter extent at the configuration's limit: the precomputed iterators' masks; the direct
  // convolution's LDS (one output position's halo and a filter plane: 64 taps a row is past it
  // with a filter column of two or more).
  static constexpr int kFilterLimit = [] {
    if constexpr (kDirect) {
      return 64;
    } else {
      return Conv::kMaxPrecomputedFilterExtent;
    }
  }();
  static constexpr bool kSplitK = hiptile::gemm::kernel::splits_k(Conv::kSplitK);
  static constexpr bool kPersistent = Conv::kSplitK == hiptile::gemm::kernel::SplitKMode::kPersistent;

  static std::string name() {
    return std::string(kTuned       ? "TunedConvolution, cases shaped by "
                       : kSelecting ? "SelectingConvolution, cases shaped by "
                                    : "") +
           std::string(kOp == ConvOperator::kFprop ? "Fprop" : kOp == ConvOperator::kDgrad ? "Dgrad" : "Wgrad") +
           " " + hiptile::conv::to_string(Conv::kAlgorithm) + ", " +
           std::to_string(Conv::kAccessElements) + "-element accesses, " + std::to_string(sizeof(EC) * 8) +
           "-bit output";
  }

  // ---- sizes, all for problems check() accepted ----------------------------------------------

  // Elements of each operand.
  static std::int64_t elements(ConvProblemSize const& p, int op) {
    switch (op) {
      case kA: return kOp == ConvOperator::kFprop ? p.activation_elements() : p.output_elements();
      case kB: return kOp == ConvOperator::kWgrad ? p.activation_elements() : p.filter_elements();
      case kBias: return kOp == ConvOperator::kDgrad ? p.c : p.k;
      default:
        return kOp == ConvOperator::kFprop   ? p.output_elements()
               : kOp == ConvOperator::kDgrad ? p.activation_elements()
                                             : p.filter_elements();
    }
  }
  // d as a matrix: rows × columns (the reference's shape).
  static std::pair<std::int64_t, std::int64_t> d_shape(ConvProblemSize const& p) {
    std::int64_t const d = elements(p, kD);
    std::int64_t const columns = kOp == ConvOperator::kWgrad ? d / p.k : kOp == ConvOperator::kFprop ? p.k : p.c;
    return {d / columns, columns};
  }
  // Dgrad's row classes: the product of the strides (one class without stride); those with filter
  // taps: the product of min(stride, filter).
  static Int128 classes(ConvProblemSize const& p) {
    return kOp == ConvOperator::kDgrad ? Int128(p.stride[0]) * p.stride[1] * p.stride[2] : 1;
  }
  static Int128 tap_classes(ConvProblemSize const& p) {
    Int128 t = 1;
    for (int i = 0; kOp == ConvOperator::kDgrad && i < 3; ++i) t *= std::min(p.stride[i], p.filter[i]);
    return t;
  }
  // One batch's GEMM (Dgrad: the largest row class) and its K tiles (Dgrad: at most), for the
  // block tile T (a tuned operator's candidate may have another than Conv's); batches: the GEMM's
  // (groups × row classes with taps). fill: the workgroups of Dgrad's TaplessClassFill, at most
  // one per block of rows of each row class (those with taps return at once).
  struct Work {
    Int128 m, n, k_tiles, batches, fill = 0;
  };
  template <class T = Tile>
  static Work work(ConvProblemSize const& p) {
    if constexpr (T::kK == 1) {
      // A direct convolution (TileShapeType: output positions by channels, K 1): rows are the output
      // positions, columns the channels, each workgroup's steps the filter's taps.
      Int128 const positions =
          kOp == ConvOperator::kFprop ? Int128(p.output_elements() / p.k) : Int128(p.activation_elements() / p.c);
      return {positions, p.k, Int128(p.filter[0]) * p.filter[1] * p.filter[2], 1};
    } else {
      return gemm_work<T>(p);
    }
  }
  template <class T>
  static Work gemm_work(ConvProblemSize const& p) {
    auto const g = p.implicit_gemm(kOp);
    Work w{g.m, g.n, 0, Int128(p.groups) * tap_classes(p)};
    if (kOp == ConvOperator::kFprop) {
      w.k_tiles = Int128(p.filter[0]) * p.filter[1] * p.filter[2] * hiptile::ceil_div(p.c_per_group(), T::kK);
    } else if (kOp == ConvOperator::kDgrad) {
      w.m = p.n;
      Int128 taps = 1;
      for (int i = 0; i < 3; ++i) {
        w.m *= hiptile::ceil_div(p.input[i], p.stride[i]);
        taps *= hiptile::ceil_div(p.filter[i], p.stride[i]);  // a class's taps, at most
      }
      w.k_tiles = taps * hiptile::ceil_div(p.k_per_group(), T::kK);
      if (tap_classes(p) < classes(p)) {
        using Fill = typename Conv::TaplessFill;
        int const runs = hiptile::ceil_div(p.c_per_group(), Fill::kVector);
        int const rows = runs < Fill::kRunsPerBlock ? Fill::kRunsPerBlock / runs : 1;
        w.fill = Int128(p.groups) * classes(p) * ((w.m + rows - 1) / rows);
      }
    } else {
      w.k_tiles = hiptile::ceil_div<std::int64_t>(g.k, T::kK);
    }
    return w;
  }
  template <class T = Tile>
  static Int128 tiles(Work const& w) {
    return ((w.m + T::kM - 1) / T::kM) * ((w.n + T::kN - 1) / T::kN);
  }

  // ---- the cases -------------------------------------------------------------------------------

  // A valid problem, small enough to run at the case limit if it can: 2-D or 3-D, a filter up to
  // 3 wide, padding, stride, dilation, groups and mode drawn at random; channels per group whole
  // accesses where the configuration needs them.
  static Case baseline(fuzz::Rng& rng) {
    auto pick = [&](int lo, int hi) { return lo + int(rng() % std::uint64_t(hi - lo + 1)); };
    int const access = Conv::kAccessElements;
    Case best;
    // Depthwise (groups = C = K): always for the direct convolution; a quarter of the baselines of
    // an operator that chooses (its direct candidate's).
    bool const depthwise = kDirect || (kChooses && rng() % 4 == 0);
    for (int attempt = 0; attempt < 200; ++attempt) {
      ConvProblemSize p;
      bool const three_d = rng() % 3 == 0;
      p.n = pick(1, 2);
      for (int i = three_d ? 0 : 1; i < 3; ++i) {
        p.input[i] = pick(1, three_d ? 5 : 9);
        p.filter[i] = pick(1, 3);
        p.dilation[i] = rng() % 4 == 0 ? 2 : 1;
        p.stride[i] = std::array{1, 1, 2, 3}[rng() % 4];
        if (kOp == ConvOperator::kDgrad && p.stride[i] > 1) p.dilation[i] = 1;
        int const dilated = p.dilation[i] * (p.filter[i] - 1) + 1;
        p.pad_before[i] = pick(0, dilated - 1);
        p.pad_after[i] = pick(0, dilated - 1);
      }
      p.groups = rng() % 3 == 0 ? 2 : 1;
      // C/groups whole accesses (all operators read x or w by C); K/groups too but for Fprop.
      p.c = p.groups * access * pick(1, access == 1 ? 20 : 3);
      p.k = p.groups * (kOp == ConvOperator::kFprop || access == 1 ? pick(1, 40) : access * pick(1, 4));
      if (depthwise) p.groups = p.c = p.k = access * pick(1, 9);
      // Packed groups: an even count of groups of one or two accesses (a batch packs two or more).
      if (kPacked) {
        p.groups = 2 * pick(1, 4);
        p.c = p.groups * access * pick(1, 2);
        p.k = p.groups * (kOp == ConvOperator::kFprop ? pick(1, 8) : access * pick(1, 2));
      }
      p.mode = rng() % 4 == 0 ? ConvMode::kConvolution : ConvMode::kCrossCorrelation;
      if (p.check() != Status::kSuccess) continue;
      Case c;
      c.problem = p;
      c.alpha = std::array{1.0f, 0.5f, -1.25f}[rng() % 3];
      c.beta = std::array{0.0f, 1.0f, -0.5f}[rng() % 3];
      c.bias = rng() % 2 == 0;
      c.seed = rng();
      best = c;
      // (Sized as the kernel that runs it: a depthwise case as the direct convolution.)
      using Direct = hiptile::GemmShape<128, 64, 1>;
      Work const w = depthwise ? work<Direct>(p) : work(p);
      Int128 const t = depthwise ? tiles<Direct>(w) : tiles(w);
      if (t * w.batches * std::max<Int128>(w.k_tiles, 1) <= max_tile_steps()) break;
    }
    return best;
  }

  static std::vector<fuzz::Field<Case>> fields() {
    std::vector<fuzz::Field<Case>> f;
    // An int field: the integer extremes that fit int, `limits` ± 1, and small values.
    auto integers = [&](std::string name, std::vector<std::int64_t> limits, auto get) {
      fuzz::Field<Case> field{name, {}};
      std::vector<std::int64_t> values = fuzz::integer_extremes(limits, false);
      for (std::int64_t v : {3, 5, 7, 12}) values.push_back(v);
      for (std::int64_t v : values) {
        if (v < INT_MIN || v > INT_MAX) continue;
        field.settings.push_back({std::to_string(v), [=](Case& c) { get(c.problem) = int(v); }});
      }
      f.push_back(field);
      return f.size() - 1;
    };
    // A setting derived from the case's own problem.
    auto relative = [&](std::size_t field, std::string label, auto set) {
      f[field].settings.push_back({label, [=](Case& c) { set(c.problem); }});
    };
    auto dilated = [](ConvProblemSize const& p, int i) {
      return std::int64_t(p.dilation[i]) * (std::int64_t(p.filter[i]) - 1) + 1;
    };

    // The fields in the order their cases come: under a run budget (run_budget()) the presets,
    // scalars, pointers and aliasing run first.
    //
    // Problems at the limits: each loader's reach from its block's base just under and just over
    // 2^31 - 1 bytes, the grid just inside and just past kMaxWorkgroups, strides whose product
    // passes int (Dgrad's row classes, and its batches), dilations that put a tap past int.
    fuzz::Field<Case> shape{"shape", {}};
    auto preset = [&](std::string label, ConvProblemSize p) {
      shape.settings.push_back({label, [=](Case& c) { c.problem = p; }});
    };
    using P = ConvProblemSize;
    // x (Fprop, Wgrad) and dy (Dgrad): 4 images of 3 × 2731 = 8193 pixels, of which a block
    // reaches 2: 2·8193·65528·2 = 2^31 − 32 bytes; 8 channels more pass the limit.
    for (int ch : {65528, 65536}) {
      preset("x reach, C = " + std::to_string(ch), P::conv2d(4, 3, 2731, ch, 8, 1, 1));
      preset("dy reach, K = " + std::to_string(ch), P::conv2d(4, 3, 2731, 8, ch, 1, 1));
    }
    // w: 128 filters of C (Fprop: 2^31 − 2048 and 2^31 bytes), a group's 8 filters of C (Dgrad:
    // 2^31 − 128 and 2^31).
    for (int ch : {8388600, 8388608, 134217720, 134217728}) {
      preset("w reach, C = " + std::to_string(ch), P::conv2d(1, 1, 1, ch, 8, 1, 1));
    }
    // Wgrad's dy: 32 pixels of K, 2^31 − 512 and 2^31 bytes.
    for (int ch : {33554424, 33554432}) preset("dy reach, K = " + std::to_string(ch), P::conv2d(1, 1, 1, 8, ch, 1, 1));
    // Fprop: 2 tile rows by K/128 tile columns, 16777214 and 16777216 workgroups.
    for (int ch : {8388607 * 128, 8388607 * 128 + 8}) {
      preset("grid, K = " + std::to_string(ch), P::conv2d(2, 5, 36, 16, ch, 3, 3, 1, 1, 2, 1));
    }
    preset("grid, N = 1024, C = 2^22", P::conv2d(1024, 5, 36, 1 << 22, 24, 3, 3, 1, 1, 2, 1));
    preset("grid, K = 2^25 - 8, C = 8192", P::conv2d(2, 5, 36, 8192, (1 << 25) - 8, 3, 3, 1, 1, 2, 1));
    // (Wgrad on packed groups, whose 64 pixels of K reach past 32-bit offsets in the case above:
    // 2^17 tile rows by 576 tile columns.)
    preset("grid, K = 2^23 - 8, C = 8192", P::conv2d(2, 5, 36, 8192, (1 << 23) - 8, 3, 3, 1, 1, 2, 1));
    // Dgrad refuses stride and dilation above 1 in one dimension; Fprop and Wgrad run it.
    preset("stride 2, dilation 2", P::conv2d(1, 8, 8, 8, 8, 3, 3, 1, 1, 2, 2, 2, 2));
    for (int s : {46341, 65536}) {
      preset("strides " + std::to_string(s) + " x " + std::to_string(s),
             P::conv3d(1, {{1, 1, 4}}, 8, 8, {{1, 1, 1}}, {{0, 0, 0}}, {{s, s, 1}}));
    }
    // Depthwise (groups = C = K), which DefaultConvolution runs on the direct convolution; and a
    // grid of one position a tile over 2^26 positions: 2^26 workgroups. The dilation leaves room
    // for no more in the 32 KiB of LDS: for Wgrad's 64 channels a workgroup 124 (250 halo positions
    // and the zero one of 128 bytes, 3 fp32 taps of 8 channel vectors), for gfx9's Fprop and Dgrad,
    // 32 channels, 252 (506 positions of 64 bytes, 3 taps of 4 vectors: 32,768 bytes).
    preset("depthwise 3 x 3, C = 24", P::conv2d(2, 9, 10, 24, 24, 3, 3, 1, 1).with_groups(24));
    preset("depthwise 5 x 5 / 2, C = 72", P::conv2d(1, 11, 9, 72, 72, 5, 5, 2, 2, 2, 2).with_groups(72));
    // Few channels (RGB stems, patchify), which DefaultConvolution's Fprop runs on packed taps.
    preset("stem 7 x 7 / 2, C = 3", P::conv2d(1, 12, 11, 3, 16, 7, 7, 3, 3, 2, 2));
    preset("patchify 4 x 4 / 4, C = 3", P::conv2d(2, 8, 12, 3, 24, 4, 4, 0, 0, 4, 4));
    // Grouped layers of few channels per group, which DefaultConvolution's Fprop and Dgrad run on
    // packed groups.
    preset("grouped 3 x 3, 8 groups of 8", P::conv2d(1, 9, 10, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 8));
    preset("grouped 3 x 3 / 2, 12 groups of 16", P::conv2d(2, 7, 9, 192, 192, 3, 3, 1, 1, 2, 2, 1, 1, 12));
    preset("grouped 3 x 3, 16 groups of 4", P::conv2d(1, 8, 9, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 16));
    for (int dilation : {124, 252}) {
      preset("depthwise 1 x 3, dilation " + std::to_string(dilation) + ", W = 2^26",
             P::conv2d(1, 1, 1 << 26, 8, 8, 1, 3, 0, 0, 1, 1, 1, dilation).with_groups(8));
    }
    {
      // Dgrad: 2 and 4 groups of INT_MAX row classes, 2^32 − 2 and 2^33 − 4 batches.
      for (int g : {2, 4}) {
        P p = P::conv3d(1, {{1, 1, 4}}, 8 * g, 8 * g, {{1, 1, 1}}, {{0, 0, 0}}, {{1, INT_MAX, 1}});
        p.groups = g;
        preset("stride H = INT_MAX, groups = " + std::to_string(g), p);
      }
      // The last tap of a filter dilated by INT_MAX lands past int: x = o + INT_MAX.
      P p = P::conv2d(1, 3, 2, 8, 8, 1, 2);
      p.dilation[2] = INT_MAX;
      p.pad_after[2] = INT_MAX;
      preset("dilation W = INT_MAX, S = 2, pad_after W = INT_MAX", p);
      // A 1-tap filter with dilation INT_MAX: the dilation is never applied.
      P q = P::conv2d(1, 3, 4, 8, 8, 1, 1);
      q.dilation = {{INT_MAX, INT_MAX, INT_MAX}};
      preset("1 × 1 filter, dilation INT_MAX", q);
      // 2^31 filter taps (T·R·S) in a problem check() accepts: every extent fits int, their product not.
      preset("filter 2^30 x 2 x 1 on as large an input",
             P::conv3d(1, {{1 << 30, 2, 1}}, 8, 8, {{1 << 30, 2, 1}}));
    }
    f.push_back(shape);

    float const nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (bool alpha : {true, false}) {
      fuzz::Field<Case> field{alpha ? "alpha" : "beta", {}};
      for (float v : {0.0f, -0.0f, 1.0f, -1.0f, nan, inf, -inf, 1e-40f, 65504.0f}) {
        field.settings.push_back({std::to_string(v), [=](Case& c) { (alpha ? c.alpha : c.beta) = v; }});
      }
      f.push_back(field);
    }
    f.push_back({"bias", {{"on", [](Case& c) { c.bias = true; }}, {"off", [](Case& c) { c.bias = false; }}}});
    fuzz::Field<Case> slices{"split_k_slices", {}};
    for (int v : {0, -1, 2, 3, 7, 65535, 65536, INT_MAX, INT_MIN}) {
      slices.settings.push_back({std::to_string(v), [=](Case& c) { c.slices = v; }});
    }
    f.push_back(slices);
    fuzz::Field<Case> workgroups{"workgroups", {}};
    for (int v : {0, -1, 1, 3, 65535, INT_MAX, INT_MIN}) {
      workgroups.settings.push_back({std::to_string(v), [=](Case& c) { c.workgroups = v; }});
    }
    f.push_back(workgroups);
    if (kSplitK) f.push_back(fuzz::workspace_field<Case>());

    char const* const names[kOperands] = {"a", "b", "c", "d", "bias"};
    for (int op = 0; op < kOperands; ++op) {
      fuzz::Field<Case> pointer{std::string(names[op]) + " pointer", {}};
      auto const needs_c = [op](Case& c) {
        if (op == kC && c.beta == 0.0f) c.beta = 0.75f;  // so that c is read
        if (op == kBias) c.bias = true;
      };
      pointer.settings.push_back({"null", [=](Case& c) {
                                    needs_c(c);
                                    c.null[op] = true;
                                  }});
      // Every byte offset below the alignment the operand needs, and one whole vector.
      int const alignment = op <= kB ? Conv::kAccessElements * int(sizeof(E)) : int(kBytes[op]);
      for (int b = 1; b <= alignment; ++b) {
        pointer.settings.push_back({"+" + std::to_string(b) + " bytes", [=](Case& c) {
                                      needs_c(c);
                                      c.misalign[op] = b;
                                    }});
      }
      pointer.settings.push_back({"+16 bytes", [=](Case& c) { c.misalign[op] = 16; }});
      std::pair<char const*, Place> const places[] = {
          {"far off", Place::kFar}, {"4 KiB below 2^64", Place::kTop}, {"at 2^63", Place::kHigh}};
      for (auto const& [label, place] : places) {
        pointer.settings.push_back({label, [=](Case& c) {
                                      needs_c(c);
                                      c.place[op] = place;
                                    }});
      }
      f.push_back(pointer);
    }
    fuzz::Field<Case> alias{"aliasing", {}};
    std::pair<char const*, Alias> const kinds[] = {
        {"d is a", Alias::kDIsA},         {"d is b", Alias::kDIsB},
        {"d inside a", Alias::kDInsideA}, {"c is d (in place)", Alias::kInPlace},
        {"c is d + 1 element", Alias::kCShiftedFromD}, {"bias inside d", Alias::kBiasInD},
        {"bias is c", Alias::kBiasIsC}};
    for (auto const& [label, kind] : kinds) {
      alias.settings.push_back({label, [kind](Case& c) {
                                  c.alias = kind;
                                  if (kind == Alias::kInPlace || kind == Alias::kCShiftedFromD ||
                                      kind == Alias::kBiasIsC) {
                                    if (c.beta == 0.0f) c.beta = 0.75f;  // so that c is read
                                  }
                                  if (kind == Alias::kBiasInD || kind == Alias::kBiasIsC) c.bias = true;
                                }});
    }
    f.push_back(alias);

    integers("n", {}, [](ConvProblemSize& p) -> int& { return p.n; });
    std::size_t const c = integers("C", {Conv::kAccessElements, Tile::kK, Tile::kN},
                                   [](ConvProblemSize& p) -> int& { return p.c; });
    relative(c, "groups · one access + 1", [](ConvProblemSize& p) {
      p.c = clamp_int(std::int64_t(p.groups) * Conv::kAccessElements + 1);
    });
    std::size_t const k = integers("K", {Conv::kAccessElements, Tile::kM, Tile::kN},
                                   [](ConvProblemSize& p) -> int& { return p.k; });
    relative(k, "groups · one access + 1", [](ConvProblemSize& p) {
      p.k = clamp_int(std::int64_t(p.groups) * Conv::kAccessElements + 1);
    });
    char const* const dims[3] = {"D", "H", "W"};
    char const* const taps[3] = {"T", "R", "S"};
    for (int i = 0; i < 3; ++i) {
      std::string const d = dims[i];
      std::size_t const input =
          integers("input " + d, {32}, [i](ConvProblemSize& p) -> int& { return p.input[i]; });
      // The padded input one short of the dilated filter (no output), and exactly it (one).
      relative(input, "dilated filter - padding - 1", [=](ConvProblemSize& p) {
        p.input[i] = clamp_int(dilated(p, i) - p.pad_before[i] - p.pad_after[i] - 1);
      });
      relative(input, "dilated filter - padding", [=](ConvProblemSize& p) {
        p.input[i] = clamp_int(dilated(p, i) - p.pad_before[i] - p.pad_after[i]);
      });
      std::size_t const filter = integers(std::string("filter ") + taps[i], {kFilterLimit},
                                          [i](ConvProblemSize& p) -> int& { return p.filter[i]; });
      relative(filter, "padded input", [=](ConvProblemSize& p) {
        std::int64_t const span = std::int64_t(p.input[i]) + p.pad_before[i] + p.pad_after[i] - 1;
        p.filter[i] = clamp_int(span / std::max(p.dilation[i], 1) + 1);
      });
      for (int side = 0; side < 2; ++side) {
        std::string const name = std::string(side == 0 ? "pad_before " : "pad_after ") + d;
        std::size_t const pad = integers(name, {}, [i, side](ConvProblemSize& p) -> int& {
          return side == 0 ? p.pad_before[i] : p.pad_after[i];
        });
        for (int delta : {-1, 0}) {
          relative(pad, "dilated filter" + std::string(delta < 0 ? " - 1" : ""), [=](ConvProblemSize& p) {
            (side == 0 ? p.pad_before[i] : p.pad_after[i]) = clamp_int(dilated(p, i) + delta);
          });
        }
      }
      integers("stride " + d, {}, [i](ConvProblemSize& p) -> int& { return p.stride[i]; });
      integers("dilation " + d, {}, [i](ConvProblemSize& p) -> int& { return p.dilation[i]; });
    }
    std::size_t const groups = integers("groups", {}, [](ConvProblemSize& p) -> int& { return p.groups; });
    relative(groups, "C (depthwise)", [](ConvProblemSize& p) { p.groups = p.c; });
    relative(groups, "C / one access", [](ConvProblemSize& p) { p.groups = std::max(1, p.c / Conv::kAccessElements); });
    fuzz::Field<Case> mode{"mode", {}};
    for (int v : {0, 1, 2, -1, INT_MAX, INT_MIN}) {
      mode.settings.push_back({std::to_string(v), [=](Case& c) { c.problem.mode = static_cast<ConvMode>(v); }});
    }
    f.push_back(mode);

    return f;
  }

  // ---- a case made real ------------------------------------------------------------------------

  class Instance {
   public:
    explicit Instance(Case const& c) : c_(c), valid_(c.problem.check() == Status::kSuccess) {
      // Each operand's bytes with 64 bytes of slack for the misaligned pointers; a problem check()
      // refuses gets 4 KiB buffers, which nothing may touch.
      std::array<Int128, kOperands> bytes{};
      Int128 total = 0;
      for (int op = 0; op < kOperands; ++op) {
        bytes[op] = (valid_ ? Int128(elements(c.problem, op)) * Int128(kBytes[op]) : Int128(4096)) + 64;
        total += bytes[op];
      }
      real_ = total <= (Int128(1) << 22);  // 4 MiB
      for (int op = 0; op < kOperands; ++op) {
        if (real_) {
          bytes_[op] = std::size_t(bytes[op]);
          base_[op] = arena_.allocate(bytes_[op], c.seed * 7 + op);
        } else {
          base_[op] = test_support::fake_address<std::byte>(op);  // never touched: huge cases only check
        }
      }
      if (real_) fill();
      std::array<std::byte*, kOperands> p{};
      for (int op = 0; op < kOperands; ++op) {
        std::byte* at = base_[op];
        switch (c.place[op]) {
          case Place::kBuffer: break;
          case Place::kFar: at = test_support::fake_address<std::byte>(op); break;
          case Place::kTop: at = reinterpret_cast<std::byte*>(std::uintptr_t(0) - 4096); break;
          case Place::kHigh: at = reinterpret_cast<std::byte*>(std::uintptr_t{1} << 63); break;
        }
        p[op] = c.null[op] ? nullptr : at + c.misalign[op];
      }
      switch (c.alias) {
        case Alias::kNone: break;
        case Alias::kDIsA: p[kD] = p[kA]; break;
        case Alias::kDIsB: p[kD] = p[kB]; break;
        case Alias::kDInsideA: p[kD] = p[kA] ? p[kA] + 16 : nullptr; break;
        case Alias::kInPlace: p[kC] = p[kD]; break;
        case Alias::kCShiftedFromD: p[kC] = p[kD] ? p[kD] + sizeof(EC) : nullptr; break;
        case Alias::kBiasInD: p[kBias] = p[kD]; break;
        case Alias::kBiasIsC: p[kBias] = p[kC]; break;
      }
      ptr_ = p;
      args_.problem = c.problem;
      args_.a = reinterpret_cast<E const*>(p[kA]);
      args_.b = reinterpret_cast<E const*>(p[kB]);
      args_.c = reinterpret_cast<EC const*>(p[kC]);
      args_.d = reinterpret_cast<EC*>(p[kD]);
      args_.output_op = {c.alpha, c.beta};
      args_.bias = c.bias ? reinterpret_cast<EC const*>(p[kBias]) : nullptr;
      args_.split_k_slices = c.slices;
      args_.workgroups = c.workgroups;
      // (A tuned operator's: the workspace of the candidate and K slices it chooses.)
      workspace_.give(arena_, args_, Op::get_workspace_size(args_), real_, c.workspace, c.seed * 7 + kOperands,
                      ptr_[kD]);
    }

    typename Conv::Arguments const& args() const { return args_; }
    fuzz::Arena& arena() { return arena_; }

    // Real buffers under every operand it reads or writes, and small enough to simulate and to
    // compute on the host.
    bool runnable() const {
      if (!real_ || !valid_ || !workspace_.real()) return false;
      for (int op = 0; op < kOperands; ++op) {
        if (c_.place[op] != Place::kBuffer) return false;
      }
      ConvProblemSize const& p = c_.problem;
      Launched const l = launched();
      Work const& w = l.work;
      Int128 const workgroups = l.tiles * w.batches * l.slices + w.fill;
      // The reference's loops: each output element over its taps and channels (Dgrad: each dx
      // element over every tap and K/groups, most skipped when strided).
      Int128 const taps = Int128(p.filter[0]) * p.filter[1] * p.filter[2];
      Int128 const reference = std::max(Int128(p.output_elements()) * taps * p.c_per_group(),
                                        Int128(p.activation_elements()) * taps * p.k_per_group());
      Int128 const steps = workgroups * std::max<Int128>(w.k_tiles, 1);
      // What the budget counts: run() and operator(), each its K steps and, for starting each
      // workgroup's fibers, about one more step per workgroup.
      Int128 const cost = 2 * (steps + workgroups);
      bool const small = workgroups <= max_tile_steps() && steps <= max_tile_steps() &&
                         reference <= kMaxReferenceOps && simulated_steps + cost <= run_budget();
      if (small) {
        simulated_steps += std::int64_t(cost);
        if constexpr (kChooses) {
          ++runs_by_candidate[l.candidate];
          if (l.slices > 1) ++split_runs;
        }
      }
      return small;
    }

    // What a run launches: the work of the configuration that runs and its K slices. A tuned
    // operator's choice (initialize() has made it: select() answers from the cache), else Conv with
    // the case's slices.
    struct Launched {
      Work work;
      Int128 tiles;
      int slices;
      int candidate = -1;  // a tuned operator's choice
    };
    Launched launched() const {
      if constexpr (kChooses) {
        std::conditional_t<kTuned, hiptile::tune::TunedChoice, hiptile::conv::device::ConvChoice> choice;
        Work const w = work(c_.problem);
        Launched l{w, tiles(w), INT_MAX};  // no choice: too many slices to run
        if (!hiptile::ok(Op::select(args_, choice))) return l;
        (void)hiptile::visit_index<Op::kCandidates>(choice.candidate, [&]<int I>() {
          using T = typename CandidatesOf<Op>::template Candidate<I>::TileShapeType;
          l.work = work<T>(c_.problem);
          l.tiles = tiles<T>(l.work);
          return Status::kSuccess;
        });
        l.slices = choice.split_k_slices;
        l.candidate = choice.candidate;
        return l;
      } else {
        Work const w = work(c_.problem);
        return {w, tiles(w), std::max(c_.slices, 1)};
      }
    }

    std::string check_geometry(Conv const& op) const
      requires(!kChooses)
    {
      return check_launch(op, c_.slices);
    }
    // A SelectingConvolution: it ran what select() chooses, with the chosen K slices.
    std::string check_geometry(Op const& op) const
      requires kSelecting
    {
      hiptile::conv::device::ConvChoice chosen;
      if (!hiptile::ok(Op::select(args_, chosen)) || chosen.candidate != op.choice().candidate ||
          chosen.split_k_slices != op.choice().split_k_slices) {
        return "the choice run is not select()'s";
      }
      std::string wrong = "no candidate initialised";
      (void)hiptile::visit_index<Op::kCandidates>(chosen.candidate, [&]<int I>() {
        auto const& candidate = op.template candidate<I>();
        wrong = candidate.initialized() ? check_launch(candidate, chosen.split_k_slices)
                                        : "the chosen candidate is not initialised";
        return Status::kSuccess;
      });
      return wrong;
    }
    // A TunedConvolution: it ran the choice it keeps for the arguments (fuzz::TunedOperator::
    // check_choice), and the chosen candidate launched the problem with the chosen K slices.
    std::string check_geometry(Op const& op) const
      requires kTuned
    {
      if (std::string const wrong = op.check_choice(args_); !wrong.empty()) return wrong;
      std::string wrong = "no candidate initialised";
      op.visit_chosen([&](auto const& candidate) {
        wrong = candidate.initialized() ? check_launch(candidate, op.tuned().choice().split_k_slices)
                                        : "the chosen candidate is not initialised";
      });
      return wrong;
    }

    // The launch and the Params initialize() built for configuration C over `slices` K slices,
    // against what the problem asks for: every tile of every batch (group, Dgrad row class), in a
    // grid the kernel's int batch index holds.
    // The grid of `work_items` tiles × batches × slices: all of them, or a persistent grid of the
    // case's workgroups (the simulated device's when 0), never more than the work.
    template <class C>
    Int128 launched_workgroups(Int128 work_items) const {
      if constexpr (C::kSplitK != hiptile::gemm::kernel::SplitKMode::kPersistent) {
        return work_items;
      } else {
        std::int64_t grid = c_.workgroups;
        if (grid == 0) {
          REQUIRE(hiptile::query_device_workgroups<typename C::Kernel>(unsigned(C::kThreads), C::kLdsBytes, grid) ==
                  Status::kSuccess);
        }
        return std::max<Int128>(1, std::min<Int128>(grid, work_items));
      }
    }

    // A direct convolution: its Params hold the arguments' tensors and the problem's axes, and its
    // grid is one workgroup per tile of each output plane and 64-channel block.
    template <class C>
      requires(C::kAlgorithm == IteratorAlgorithm::kDirect)
    std::string check_launch(C const& op, int slices) const {
      ConvProblemSize const& p = c_.problem;
      auto const& k = op.params();
      auto const tile = op.tile();
      // (Wgrad reduces over dy's positions: its axes are Fprop's.)
      Spatial const out = kOp == ConvOperator::kDgrad ? p.input : p.output();
      std::ostringstream s;
      if (kOp != ConvOperator::kWgrad && slices != 1) s << "a direct convolution over " << slices << " slices; ";
      bool same = static_cast<void const*>(k.d) == args_.d && k.channels == p.c && k.images == p.n;
      if constexpr (kOp == ConvOperator::kWgrad) {
        same = same && static_cast<void const*>(k.dy) == args_.a && static_cast<void const*>(k.x) == args_.b &&
               (slices > 1) == (k.partials != nullptr);
      } else {
        same = same && static_cast<void const*>(k.source) == args_.a && static_cast<void const*>(k.filter) == args_.b;
      }
      if (!same) s << "operands in Params differ from the arguments; ";
      for (int i = 0; i < 3; ++i) {
        if (k.axis[i].output != out[i] || k.axis[i].taps != p.filter[i]) s << "axis " << i << " differs; ";
      }
      if (tile.h < 1 || tile.w < 1 || tile.h * tile.w > C::Kernel::kMaxPixels ||
          tile.lds_bytes > std::int64_t(C::kLdsBytes)) {
        s << "tile " << tile.h << "x" << tile.w << " with " << tile.lds_bytes << " bytes of LDS; ";
      }
      Int128 const tiles = Int128(p.n) * out[0] * hiptile::ceil_div(out[1], std::max(tile.h, 1)) *
                           hiptile::ceil_div(out[2], std::max(tile.w, 1));
      Int128 const expected =
          (kOp == ConvOperator::kWgrad ? Int128(slices) : tiles) * hiptile::ceil_div(p.c, C::Kernel::kChannels);
      if (Int128(op.workgroups()) != expected) {
        s << "workgroups " << op.workgroups() << ", expected " << std::int64_t(expected) << "; ";
      }
      return s.str();
    }
    template <class C>
    std::string check_launch(C const& op, int slices) const {
      using T = typename C::TileShapeType;
      ConvProblemSize const& p = c_.problem;
      // (Packed groups: a batch of groups_per_batch groups, the GEMM of that many fewer, wider ones.)
      ConvProblemSize batch = p;
      if constexpr (C::kAlgorithm == IteratorAlgorithm::kPackedGroups) batch.groups /= C::groups_per_batch(p);
      Work const w = work<T>(batch);
      Int128 const t = tiles<T>(w);
      std::ostringstream s;
      if (t > C::kMaxWorkgroups) s << "accepted with " << std::int64_t(t) << " tiles per batch; ";
      if (w.batches > INT_MAX) {
        s << "accepted with " << std::int64_t(w.batches) << " batches, past the kernel's int batch index; ";
      }
      if (Int128(op.batches()) != w.batches) {
        s << "batches " << op.batches() << ", the problem has " << std::int64_t(w.batches) << "; ";
      } else if (Int128 const expected = launched_workgroups<C>(t * w.batches * slices);
                 Int128(op.workgroups()) != expected) {
        s << "workgroups " << op.workgroups() << ", expected " << std::int64_t(expected) << "; ";
      }
      auto const& m = op.params().mainloop;
      if (static_cast<void const*>(m.a.data) != args_.a || m.a.elements != elements(p, kA) ||
          static_cast<void const*>(m.b.data) != args_.b || m.b.elements != elements(p, kB)) {
        s << "operands in Params differ from the arguments; ";
      }
      auto const& g = op.params().problem;
      Spatial const out = p.output();
      if (g.cg != batch.c_per_group() || g.kg != batch.k_per_group() || g.div_group_c.divisor() != p.c_per_group() ||
          g.div_group_k.divisor() != p.k_per_group() ||
          Int128(g.taps) != Int128(p.filter[0]) * p.filter[1] * p.filter[2] || g.out[0] != out[0] ||
          g.out[1] != out[1] || g.out[2] != out[2] || Int128(g.classes) != classes(p)) {
        s << "geometry in Params differs from the problem (classes " << g.classes << "); ";
      }
      return s.str();
    }

    // Every element of d against the double reference over the snapshot's inputs; every other
    // byte of every buffer unchanged.
    std::string check_output() {
      ConvProblemSize const& p = c_.problem;
      double const u = std::ldexp(1.0, -hiptile::numeric_limits<EC>::digits);
      double const max_finite = double(float(hiptile::numeric_limits<EC>::max()));
      bool const source = c_.beta != 0.0f;
      auto snapshot = [&](int op, auto tag) {
        using T = decltype(tag);
        std::vector<T> v(std::size_t(elements(p, op)));
        std::memcpy(v.data(), arena_.saved_view(ptr_[op]), v.size() * sizeof(T));
        return v;
      };
      std::vector<E> const a = snapshot(kA, E{}), b = snapshot(kB, E{});
      std::vector<EC> const c0 = source ? snapshot(kC, EC{}) : std::vector<EC>{};
      bool const with_bias = args_.bias != nullptr;  // a null bias is no bias
      std::vector<EC> const bias = with_bias ? snapshot(kBias, EC{}) : std::vector<EC>{};
      HostMatrix<double, RowMajor> ref, magnitude;
      std::span<E const> const sa(a), sb(b);
      if constexpr (kOp == ConvOperator::kFprop) {
        hiptile::host::reference_conv_fprop(p, sa, sb, ref, &magnitude);
      } else if constexpr (kOp == ConvOperator::kDgrad) {
        hiptile::host::reference_conv_dgrad(p, sa, sb, ref, &magnitude);
      } else {
        hiptile::host::reference_conv_wgrad(p, sb, sa, ref, &magnitude);
      }
      std::int64_t const k = p.implicit_gemm(kOp).k;
      auto const [rows, columns] = d_shape(p);
      std::int64_t mismatches = 0, unwritten = 0;
      std::ostringstream first;
      for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < columns; ++j) {
          std::int64_t const e = i * columns + j;
          double const cij = source ? double(float(c0[std::size_t(e)])) : 0.0;
          double const bias_value =
              with_bias ? double(float(bias[std::size_t(kOp == ConvOperator::kWgrad ? i : j)])) : 0.0;
          double const r = double(c_.alpha) * ref.at(i, j) + (source ? double(c_.beta) * cij : 0.0) + bias_value;
          double const mag = std::abs(double(c_.alpha)) * magnitude.at(i, j) + std::abs(double(c_.beta) * cij) +
                             std::abs(bias_value);
          double const tol = u * std::abs(r) + 1.2 * double(k + 4) * std::ldexp(1.0, -23) * mag +
                             8 * std::ldexp(1.0, -24) * std::abs(r) + 1e-30 + std::ldexp(1.0, -25);
          std::byte const* const at = ptr_[kD] + e * std::int64_t(sizeof(EC));
          EC got_value;
          std::memcpy(&got_value, at, sizeof(EC));
          double const got = double(float(got_value));
          bool right;
          if (is_poison(at)) {
            right = false;
            ++unwritten;
          } else if (std::isnan(r) || std::isnan(mag)) {
            right = std::isnan(got) || std::isinf(mag);  // inf · 0 terms make NaN either way
          } else if (std::isinf(r)) {
            right = got == r || std::isnan(got);
          } else if (std::isinf(got)) {
            right = std::abs(r) + tol >= max_finite && (got > 0) == (r > 0);  // rounded past the largest
          } else {
            right = std::abs(got - r) <= tol;
          }
          if (!right && mismatches++ == 0) first << "d[" << i << "][" << j << "] = " << got << ", reference " << r;
        }
      }
      if (mismatches > 0) {
        return std::to_string(mismatches) + " wrong elements (" + std::to_string(unwritten) + " never written), first " +
               first.str();
      }
      std::byte const* const d_end = ptr_[kD] + elements(p, kD) * std::int64_t(sizeof(EC));
      return arena_.changes([&](std::byte const* q) {
        return (q >= ptr_[kD] && q < d_end) || workspace_.contains(q);
      });
    }

   private:
    // d's elements start as poison, a NaN with a payload arithmetic does not produce (a signalling
    // one: a computed NaN is quiet), so an element the kernel never writes is told apart.
    static constexpr std::uint32_t kPoison32 = 0x7fa5a5a5u;
    static constexpr std::uint16_t kPoison16 = 0x7d5a;
    static bool is_poison(std::byte const* at) {
      if constexpr (sizeof(EC) == 4) {
        std::uint32_t bits;
        std::memcpy(&bits, at, 4);
        return bits == kPoison32;
      } else {
        std::uint16_t bits;
        std::memcpy(&bits, at, 2);
        return bits == kPoison16;
      }
    }

    // a and b positive (so a sum's sign never hangs on rounding), c and the bias of either sign;
    // d poisoned, except in place, where it holds c's values.
    void fill() {
      fuzz::Rng rng(c_.seed);
      auto fill_with = [&](int op, float lo, float hi, auto tag) {
        using T = decltype(tag);
        std::uniform_real_distribution<float> dist(lo, hi);
        for (std::size_t i = 0; i + sizeof(T) <= bytes_[op]; i += sizeof(T)) {
          T const v = T(dist(rng));
          std::memcpy(base_[op] + i, &v, sizeof(T));
        }
      };
      fill_with(kA, 0.25f, 1.0f, E{});
      fill_with(kB, 0.25f, 1.0f, E{});
      fill_with(kC, -2.0f, 2.0f, EC{});
      fill_with(kBias, -1.0f, 1.0f, EC{});
      if (c_.alias == Alias::kInPlace) {
        fill_with(kD, -2.0f, 2.0f, EC{});
      } else {
        for (std::size_t i = 0; i + sizeof(EC) <= bytes_[kD]; i += sizeof(EC)) {
          if constexpr (sizeof(EC) == 4) {
            std::memcpy(base_[kD] + i, &kPoison32, 4);
          } else {
            std::memcpy(base_[kD] + i, &kPoison16, 2);
          }
        }
      }
    }

    Case c_;
    bool valid_ = false;  // check() accepts the problem: its sizes are known
    bool real_ = false;   // the buffers are real
    fuzz::Arena arena_;
    std::array<std::byte*, kOperands> base_{};
    std::array<std::size_t, kOperands> bytes_{};
    std::array<std::byte*, kOperands> ptr_{};
    typename Conv::Arguments args_{};
    fuzz::GivenWorkspace workspace_;
  };
};

template <class Conv, class Op = Conv>
void fuzz_conv(char const* label, std::uint64_t seed) {
  using Subject = ConvSubject<Conv, Op>;
  fuzz::Report const report = fuzz::run<Subject>(seed, fuzz::random_cases());
  WARN(report.summary(label) << "; about " << Subject::simulated_steps << " tile steps simulated");
  auto refused = [&](Status s) { return report.refused.count(hiptile::to_string(s)) == 1; };
  CHECK(report.ran >= (run_budget() == INT64_MAX ? 40 : 1));
  CHECK(report.geometry_only >= 5);
  for (Status s : {Status::kErrorInvalidProblem, Status::kErrorInvalidEnum, Status::kErrorGroupsNotDividing,
                   Status::kErrorPaddingTooLarge, Status::kErrorEmptyOutput, Status::kErrorNullPointer,
                   Status::kErrorMisalignedOperand, Status::kErrorIndexOverflow, Status::kErrorAliasedOperand,
                   Status::kErrorGridTooLarge}) {
    INFO(hiptile::to_string(s));
    CHECK(refused(s));
  }
  // (The direct convolution reads through no loader offsets, and takes Dgrad's strides with dilation.)
  if constexpr (!Subject::kDirect) {
    CHECK(refused(Status::kErrorOperandTooLarge));
    if (Conv::kAccessElements > 1 && !Subject::kChooses) CHECK(refused(Status::kErrorChannelsNotAligned));
    if (Conv::kOperator == ConvOperator::kDgrad) CHECK(refused(Status::kErrorDilatedStridedDgrad));
  }
  if (Conv::kAlgorithm == IteratorAlgorithm::kPrecomputed && Conv::kOperator != ConvOperator::kWgrad) {
    CHECK(refused(Status::kErrorNotSupported));
  }
  if constexpr (!Subject::kPersistent) CHECK(refused(Status::kErrorNotSupported));  // a grid of workgroups
  if constexpr (Subject::kSplitK) {
    CHECK(refused(Status::kErrorWorkspaceNull));
    CHECK(refused(Status::kErrorWorkspaceTooSmall));
  } else {
    CHECK(refused(Status::kErrorNotSupported));  // more than one slice
  }
}

using FpropPrecomputed = Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kPrecomputed>;
using DgradPrecomputed = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kPrecomputed>;
using WgradPrecomputed = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kPrecomputed>;
using FpropAnalytic1 = Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic, 1>;
using DgradAnalytic1 = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic, 1>;
using WgradAnalytic1 = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic, 1>;
using DgradAnalytic2F32 = Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic, 2, float>;
template <ConvOperator Op>
using Persistent = Gfx942Conv<Op, half_t, IteratorAlgorithm::kPrecomputed, 8, half_t, hiptile::conv::RowDivision::kFast,
                              hiptile::conv::RowDivision::kFast, hiptile::gemm::kernel::SplitKMode::kPersistent>;
template <hiptile::gemm::kernel::SplitKMode Mode>
using WgradSplitK = Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kPrecomputed, 8, half_t,
                               hiptile::conv::RowDivision::kFast, hiptile::conv::RowDivision::kFast, Mode>;

}  // namespace

TEST_CASE("Fprop gives every extreme argument a Status or a right answer: precomputed", "[fuzz][conv]") {
  fuzz_conv<FpropPrecomputed>("Fprop f16, precomputed", 11);
}
TEST_CASE("Dgrad gives every extreme argument a Status or a right answer: precomputed", "[fuzz][conv]") {
  fuzz_conv<DgradPrecomputed>("Dgrad f16, precomputed", 12);
}
TEST_CASE("Wgrad gives every extreme argument a Status or a right answer: precomputed", "[fuzz][conv]") {
  fuzz_conv<WgradPrecomputed>("Wgrad f16, precomputed", 13);
}
TEST_CASE("Fprop gives every extreme argument a Status or a right answer: analytic, 1-element accesses",
          "[fuzz][conv]") {
  fuzz_conv<FpropAnalytic1>("Fprop f16, analytic, 1-element accesses", 14);
}
TEST_CASE("Dgrad gives every extreme argument a Status or a right answer: analytic, 1-element accesses",
          "[fuzz][conv]") {
  fuzz_conv<DgradAnalytic1>("Dgrad f16, analytic, 1-element accesses", 15);
}
TEST_CASE("Wgrad gives every extreme argument a Status or a right answer: analytic, 1-element accesses",
          "[fuzz][conv]") {
  fuzz_conv<WgradAnalytic1>("Wgrad f16, analytic, 1-element accesses", 16);
}
TEST_CASE("Dgrad gives every extreme argument a Status or a right answer: analytic, 2-element accesses, f32 output",
          "[fuzz][conv]") {
  fuzz_conv<DgradAnalytic2F32>("Dgrad f16 -> f32, analytic, 2-element accesses", 17);
}
TEST_CASE("Wgrad gives every extreme argument a Status or a right answer: serial split-K", "[fuzz][conv][split_k]") {
  fuzz_conv<WgradSplitK<hiptile::gemm::kernel::SplitKMode::kSerial>>("Wgrad f16, precomputed, serial split-K", 18);
}
TEST_CASE("Wgrad gives every extreme argument a Status or a right answer: parallel split-K",
          "[fuzz][conv][split_k]") {
  fuzz_conv<WgradSplitK<hiptile::gemm::kernel::SplitKMode::kParallel>>("Wgrad f16, precomputed, parallel split-K",
                                                                       19);
}

TEST_CASE("Fprop gives every extreme argument a Status or a right answer: depthwise, direct", "[fuzz][conv][depthwise]") {
  fuzz_conv<hiptile::conv::device::DepthwiseConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942>>(
      "Fprop f16, depthwise direct", 22);
}
TEST_CASE("Dgrad gives every extreme argument a Status or a right answer: depthwise, direct", "[fuzz][conv][depthwise]") {
  fuzz_conv<hiptile::conv::device::DepthwiseConvolution<ConvOperator::kDgrad, half_t, float, hiptile::arch::Gfx942>>(
      "Dgrad f16 -> f32, depthwise direct", 23);
}

TEST_CASE("Wgrad gives every extreme argument a Status or a right answer: depthwise, direct, over slices",
          "[fuzz][conv][depthwise][split_k]") {
  fuzz_conv<hiptile::conv::device::DepthwiseConvolution<ConvOperator::kWgrad, half_t, half_t, hiptile::arch::Gfx942>>(
      "Wgrad f16, depthwise direct", 24);
}

TEST_CASE("Fprop gives every extreme argument a Status or a right answer: few channels, packed taps",
          "[fuzz][conv][few_channels]") {
  fuzz_conv<hiptile::conv::device::FewChannelConvolution<half_t, half_t, hiptile::arch::Gfx942>>(
      "Fprop f16, few-channel, 1-element accesses", 25);
  fuzz_conv<hiptile::conv::device::FewChannelConvolution<hiptile::bfloat16_t, float, hiptile::arch::Gfx942,
                                                          hiptile::epilogue::LinearCombination<float>, 2>>(
      "Fprop bf16 -> f32, few-channel, 2-element accesses", 29);
}

TEST_CASE("Packed groups give every extreme argument a Status or a right answer (Fprop, Dgrad, Wgrad)",
          "[fuzz][conv][packed_groups]") {
  fuzz_conv<hiptile::conv::device::PackedGroupConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942>>(
      "Fprop f16, packed groups", 30);
  fuzz_conv<hiptile::conv::device::PackedGroupConvolution<ConvOperator::kDgrad, hiptile::bfloat16_t, float,
                                                           hiptile::arch::Gfx942>>("Dgrad bf16 -> f32, packed groups",
                                                                                   31);
  fuzz_conv<hiptile::conv::device::PackedGroupConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942,
                                                           hiptile::epilogue::LinearCombination<half_t>, 4>>(
      "Fprop f16, packed groups, half-vector filter accesses", 32);
  fuzz_conv<typename hiptile::conv::device::PackedGroupConvolution<ConvOperator::kWgrad, half_t, half_t,
                                                                    hiptile::arch::Gfx942>::
                template WithSplitK<hiptile::gemm::kernel::SplitKMode::kParallel>>(
      "Wgrad f16, packed groups, parallel split-K", 33);
}

TEST_CASE("Fprop gives every extreme argument a Status or a right answer: persistent", "[fuzz][conv][persistent]") {
  fuzz_conv<Persistent<ConvOperator::kFprop>>("Fprop f16, precomputed, persistent", 20);
}
TEST_CASE("Dgrad gives every extreme argument a Status or a right answer: persistent", "[fuzz][conv][persistent]") {
  fuzz_conv<Persistent<ConvOperator::kDgrad>>("Dgrad f16, precomputed, persistent", 21);
}

// DefaultConvolution (a SelectingConvolution) on gfx942: each case runs the configuration the rules
// choose for it (the precomputed default, the analytic one for channel counts it refuses, Wgrad's
// split-K over few tiles), with the workspace the case gives. The cases are shaped by the default
// configuration, Wgrad's by its parallel split-K twin (so that the workspace field is tried).
namespace {

template <ConvOperator Op>
using SelectingConv = hiptile::conv::device::DefaultConvolution<Op, half_t, half_t, hiptile::arch::Gfx942>;
template <ConvOperator Op>
using SelectingShapedBy = typename SelectingConv<Op>::template Candidate<Op == ConvOperator::kWgrad ? 2 : 0>;
static_assert(SelectingShapedBy<ConvOperator::kWgrad>::kSplitK == hiptile::gemm::kernel::SplitKMode::kParallel &&
                  SelectingConv<ConvOperator::kFprop>::Candidate<1>::kAlgorithm == IteratorAlgorithm::kAnalytic,
              "DefaultConvolution's list changed: pick the candidates that shape the cases again");

// The first candidate of a selecting operator with iterator algorithm `a` (-1: none).
template <class Selecting>
constexpr int candidate_of(IteratorAlgorithm a) {
  return [&]<int... I>(std::integer_sequence<int, I...>) {
    int found = -1;
    ((found = found < 0 && Selecting::template Candidate<I>::kAlgorithm == a ? I : found), ...);
    return found;
  }(std::make_integer_sequence<int, Selecting::kCandidates>{});
}

// fuzz_conv's checks, then which candidates ran: where every small case runs, the default
// configuration (Wgrad: a split-K candidate) and the analytic one (the channel counts the default
// configuration refuses).
template <ConvOperator Op>
void fuzz_selecting_conv(char const* label, std::uint64_t seed) {
  using Subject = ConvSubject<SelectingShapedBy<Op>, SelectingConv<Op>>;
  fuzz_conv<SelectingShapedBy<Op>, SelectingConv<Op>>(label, seed);
  std::ostringstream runs;
  for (auto const& [candidate, count] : Subject::runs_by_candidate) runs << " candidate " << candidate << " " << count << ";";
  WARN(label << ": runs by candidate:" << runs.str() << " " << Subject::split_runs << " over K slices");
  if (run_budget() == INT64_MAX) {
    // DefaultAnalyticConvolution, for the channel counts the default configuration refuses (Fprop's
    // go to the few-channel candidate, which takes all the analytic one does but filters of more
    // than 32 taps a dimension; Wgrad's few tiles to its split twin, the list's last).
    if (Op == ConvOperator::kDgrad) CHECK(Subject::runs_by_candidate[1] > 0);
    if constexpr (Op == ConvOperator::kWgrad) {
      constexpr int kSplitAnalytic = SelectingConv<Op>::kCandidates - 1;
      using SplitAnalytic = typename SelectingConv<Op>::template Candidate<kSplitAnalytic>;
      static_assert(SplitAnalytic::kAlgorithm == IteratorAlgorithm::kAnalytic &&
                    SplitAnalytic::kSplitK == hiptile::gemm::kernel::SplitKMode::kParallel);
      CHECK(Subject::runs_by_candidate[kSplitAnalytic] > 0);
    }
    // Wgrad's small cases are all few tiles: split-K wherever a workspace is given.
    CHECK((Op == ConvOperator::kWgrad ? Subject::split_runs : Subject::runs_by_candidate[0]) > 0);
    // The depthwise cases run the direct convolution; Fprop's RGB stems the few-channel one.
    CHECK(Subject::runs_by_candidate[candidate_of<SelectingConv<Op>>(IteratorAlgorithm::kDirect)] > 0);
    if (Op == ConvOperator::kFprop) {
      CHECK(Subject::runs_by_candidate[candidate_of<SelectingConv<Op>>(IteratorAlgorithm::kFewChannels)] > 0);
    }
    // The grouped cases of few channels a group: packed groups (Wgrad: data-parallel or split).
    constexpr int kPacked = candidate_of<SelectingConv<Op>>(IteratorAlgorithm::kPackedGroups);
    CHECK(Subject::runs_by_candidate[kPacked] + (Op == ConvOperator::kWgrad ? Subject::runs_by_candidate[kPacked + 1] : 0) >
          0);
  }
}

}  // namespace

TEST_CASE("DefaultConvolution Fprop (a configuration per problem) gives every extreme argument a Status or a right "
          "answer",
          "[fuzz][conv][default]") {
  fuzz_selecting_conv<ConvOperator::kFprop>("Fprop f16, DefaultConvolution", 26);
}
TEST_CASE("DefaultConvolution Dgrad (a configuration per problem) gives every extreme argument a Status or a right "
          "answer",
          "[fuzz][conv][default]") {
  fuzz_selecting_conv<ConvOperator::kDgrad>("Dgrad f16, DefaultConvolution", 27);
}
TEST_CASE("DefaultConvolution Wgrad (a configuration per problem) gives every extreme argument a Status or a right "
          "answer",
          "[fuzz][conv][default][split_k]") {
  fuzz_selecting_conv<ConvOperator::kWgrad>("Wgrad f16, DefaultConvolution", 28);
}

// TunedConvolution: DefaultTunedConvolution on gfx942 (the precomputed default configuration, the
// analytic one of one-channel accesses, and for Wgrad the default with parallel and with serial
// split-K) as fuzz::TunedOperator (test/common/tuned_operator.hpp), in heuristic mode (no database)
// and in hybrid mode with a database of its own, where each new problem's candidate is the one the
// MI300 timing model predicts fastest, stored and then read back. What ran is the tuned choice: its
// candidate, its K slices, the workspace it asks for. The cases are shaped by the default
// configuration, Wgrad's by its parallel split-K twin (so that the workspace field is tried).
// Neither mode picks Wgrad's serial split-K candidate here: it accepts the problems the parallel one
// does, which the heuristic takes first (list order), and the timing model has no entry for
// convolution with split-K, so hybrid mode times the data-parallel candidates only.
namespace {

template <ConvOperator Op>
using TunedConv = hiptile::tune::DefaultTunedConvolution<Op, half_t, half_t, hiptile::arch::Gfx942>;
template <ConvOperator Op>
using ShapedBy = typename TunedConv<Op>::template Candidate<Op == ConvOperator::kWgrad ? 2 : 0>;
static_assert(ShapedBy<ConvOperator::kWgrad>::kSplitK == hiptile::gemm::kernel::SplitKMode::kParallel &&
                  ShapedBy<ConvOperator::kFprop>::kSplitK == hiptile::gemm::kernel::SplitKMode::kNone,
              "DefaultTunedConvolution's list changed: pick the candidates that shape the cases again");

// fuzz_conv's checks, then which candidates ran. Where every small case runs (no run budget): the
// analytic candidate too (for the channel counts the default configuration refuses; Fprop: the
// few-channel one), and in Wgrad's
// heuristic mode a split-K candidate (over the baselines' few tiles). In hybrid mode: the timed
// problems are in the database.
template <ConvOperator Op, class Options>
void fuzz_tuned_conv(char const* label, std::uint64_t seed) {
  using Tuned = TunedConv<Op>;
  using Subject = ConvSubject<ShapedBy<Op>, fuzz::TunedOperator<Tuned, Options>>;
  Tuned::clear_cache();
  fuzz_conv<ShapedBy<Op>, fuzz::TunedOperator<Tuned, Options>>(label, seed);
  std::ostringstream runs;
  for (auto const& [candidate, count] : Subject::runs_by_candidate) {
    runs << " candidate " << candidate << " (" << Tuned::candidate_name(candidate) << ") " << count << ";";
  }
  WARN(label << ": runs by candidate:" << runs.str() << " " << Subject::split_runs << " over K slices");
  if (run_budget() == INT64_MAX) {
    // DefaultAnalyticConvolution (Fprop: the few-channel candidate; Wgrad: the analytic one or its
    // split twin, the list's last; as fuzz_selecting_conv says).
    constexpr int kOneChannel = Op == ConvOperator::kFprop ? candidate_of<Tuned>(IteratorAlgorithm::kFewChannels) : 1;
    CHECK(Subject::runs_by_candidate[kOneChannel] +
              (Op == ConvOperator::kWgrad ? Subject::runs_by_candidate[Tuned::kCandidates - 1] : 0) >
          0);
    if (Op == ConvOperator::kWgrad && Options::get().mode == hiptile::tune::FindMode::kHeuristic) {
      CHECK(Subject::split_runs > 0);
    }
  }
  if (Options::get().mode == hiptile::tune::FindMode::kHybrid) {
    std::int64_t stored = 0;
    for (auto const& entry : hiptile::tune::TuningDatabase(*Options::get().database).entries()) {
      stored += entry.key.candidates == Tuned::candidate_list_id();
    }
    WARN(label << ": " << stored << " problems timed and stored");
    CHECK(stored > 0);
  }
}

}  // namespace

TEST_CASE("TunedConvolution Fprop in heuristic mode gives every extreme argument a Status or a right answer",
          "[fuzz][conv][tune]") {
  fuzz_tuned_conv<ConvOperator::kFprop, fuzz::HeuristicTuning>("Fprop f16, TunedConvolution (heuristic)", 20);
}
TEST_CASE("TunedConvolution Dgrad in heuristic mode gives every extreme argument a Status or a right answer",
          "[fuzz][conv][tune]") {
  fuzz_tuned_conv<ConvOperator::kDgrad, fuzz::HeuristicTuning>("Dgrad f16, TunedConvolution (heuristic)", 21);
}
TEST_CASE("TunedConvolution Wgrad in heuristic mode gives every extreme argument a Status or a right answer",
          "[fuzz][conv][tune][split_k]") {
  fuzz_tuned_conv<ConvOperator::kWgrad, fuzz::HeuristicTuning>("Wgrad f16, TunedConvolution (heuristic)", 22);
}
TEST_CASE("TunedConvolution Fprop in hybrid mode gives every extreme argument a Status or a right answer",
          "[fuzz][conv][tune]") {
  fuzz_tuned_conv<ConvOperator::kFprop, fuzz::HybridTuning>("Fprop f16, TunedConvolution (hybrid, timing model)", 23);
}
TEST_CASE("TunedConvolution Dgrad in hybrid mode gives every extreme argument a Status or a right answer",
          "[fuzz][conv][tune]") {
  fuzz_tuned_conv<ConvOperator::kDgrad, fuzz::HybridTuning>("Dgrad f16, TunedConvolution (hybrid, timing model)", 24);
}
TEST_CASE("TunedConvolution Wgrad in hybrid mode gives every extreme argument a Status or a right answer",
          "[fuzz][conv][tune][split_k]") {
  fuzz_tuned_conv<ConvOperator::kWgrad, fuzz::HybridTuning>("Wgrad f16, TunedConvolution (hybrid, timing model)", 25);
}
