// The argument-fuzzing suite (test/common/argument_fuzz.hpp) on the back-to-back GEMM,
// device::B2bGemm (D = op1(op0(A·B0)·B1, C)): every field of B2bGemmArguments at its extremes —
// the four extents (N0 past the tile's 64), each leading dimension, each of the seven pointers
// (null, every misaligned byte offset, far off, near the top of the address space), op0's and op1's
// alpha and beta (NaN and infinities included), both biases, the batch count and the five batch
// strides, and the ways the pointers can alias — alone and in seeded random combinations, on
// gfx942's DefaultB2bGemm in the simulator. Each case ends refused (the same Status from every
// entry point, no byte of any buffer changed), accepted and run (every element of D against the
// double-precision reference of host/reference_b2b_gemm.hpp, every other byte unchanged, NaN in
// every input byte that is not an element), or accepted and too large to run (checked by its grid
// and Params). HIPTILE_FUZZ_CASES sets the
// random cases per configuration, HIPTILE_FUZZ_MAX_TILE_STEPS the largest case that is run.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../common/argument_fuzz.hpp"
#include "../common/fake_address.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/host/reference_b2b_gemm.hpp"
#include "hiptile/numeric/numeric_limits.hpp"

namespace {

using hiptile::ByteRange;
using hiptile::half_t;
using hiptile::Status;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
using Int128 = ByteRange::Int128;
namespace device = hiptile::gemm::device;
namespace epilogue = hiptile::epilogue;

// The seven pointers of a case: the five matrices (with a leading dimension and a batch stride
// each), then the two bias vectors.
constexpr int kMatrices = 5;
constexpr int kOperands = 7;
enum Operand { kA, kB0, kB1, kC, kD, kBias0, kBias1 };
char const* const kNames[kOperands] = {"A", "B0", "B1", "C", "D", "bias0", "bias1"};

// Where an operand's pointer points: its own buffer, or an address nothing may dereference — far
// off (fake_address), 4 KiB below 2^64 (anything longer wraps the address space) or at 2^63.
enum class Place { kBuffer, kFar, kTop, kHigh };

// How the pointers of a case relate. kInPlace, kBias1IsC and kBias0IsBias1 are legal, and any
// overlap of C with D when op1 reads no C; the others make D overlap something it must not.
enum class Alias {
  kNone,
  kDIsA,
  kDIsB0,
  kDIsB1,
  kDInsideA,            // 16 bytes in
  kDInsideB1,           // 16 bytes in
  kInPlace,             // C is D: same pointer, ld and batch stride
  kInPlaceOtherStride,  // C is D, but C's batch stride one vector longer
  kCShiftedFromD,       // C one element past D, same ld
  kCIsDOtherLd,         // C is D's pointer with another ld
  kBias0InD,
  kBias1InD,
  kBias1IsC,
  kBias0IsBias1,
};

using fuzz::max_tile_steps;  // here: block rows × batches × (K0 tiles + N1 column steps)

// The activation of a functor in double, as the library's (ReLU keeps a NaN: x < 0 is false).
template <class Activation>
double activate(double x) {
  if constexpr (std::is_same_v<Activation, epilogue::ReLU>) {
    return x < 0 ? 0.0 : x;
  } else {
    static_assert(std::is_same_v<Activation, epilogue::Identity>, "the subject's reference knows ReLU and Identity");
    return x;
  }
}

template <class B2b>
struct B2bSubject {
  using Operator = B2b;
  using EA = typename B2b::ElementA;  // A, B0, B1, P and bias0
  using ED = typename B2b::ElementD;  // C, D and bias1
  using LA = typename B2b::LayoutA;
  using LB0 = typename B2b::LayoutB0;
  using LB1 = typename B2b::LayoutB1;
  using LD = typename B2b::LayoutD;
  using Tile = typename B2b::TileShapeType;
  using Op0 = typename B2b::Op0Type;
  using Op1 = typename B2b::OutputOpType;
  static_assert(std::is_same_v<EA, typename B2b::ElementB0> && std::is_same_v<EA, typename B2b::ElementB1>);
  static constexpr std::size_t kBytes[kOperands] = {sizeof(EA), sizeof(EA), sizeof(EA), sizeof(ED),
                                                    sizeof(ED), sizeof(EA), sizeof(ED)};
  // Elements per 16-byte vector: pointers, lds and batch strides of A, B0 and B1 are whole vectors.
  static constexpr std::int64_t kVector[kMatrices] = {B2b::kAlignmentA, B2b::kAlignmentB0, B2b::kAlignmentB1, 1, 1};
  static constexpr bool kRowMajor[kMatrices] = {LA::kRowMajor, LB0::kRowMajor, LB1::kRowMajor, LD::kRowMajor,
                                                LD::kRowMajor};

  struct Case {
    std::int64_t m = 1, n0 = 1, k0 = 1, n1 = 1;
    std::array<std::optional<std::int64_t>, kMatrices> ld;  // none: the minimum, padded
    int pad = 0;                                            // elements added to each unset ld
    float alpha0 = 1.0f, beta0 = 0.0f;                      // op0
    float alpha1 = 1.0f, beta1 = 0.0f;                      // op1
    std::array<bool, 2> bias{};                             // bias0, bias1 given
    std::array<int, kOperands> misalign{};                  // bytes added to each pointer
    std::array<bool, kOperands> null{};
    std::array<Place, kOperands> place{};
    Alias alias = Alias::kNone;
    int batch_count = 1;
    std::array<std::optional<std::int64_t>, kMatrices> batch_stride;  // none: one batch's span, stacked
    std::uint64_t seed = 1;
  };

  static std::string name() {
    auto major = [](bool row) { return row ? "row" : "col"; };
    return std::string("B2bGemm f16 (A ") + major(LA::kRowMajor) + ", B0 " + major(LB0::kRowMajor) + ", B1 " +
           major(LB1::kRowMajor) + ", D " + major(LD::kRowMajor) + ")";
  }

  // Rows and columns of each matrix, its minimum ld (whole vectors for A, B0, B1) and its ld.
  static std::pair<std::int64_t, std::int64_t> extent(Case const& c, int op) {
    if (op == kA) return {c.m, c.k0};
    if (op == kB0) return {c.k0, c.n0};
    if (op == kB1) return {c.n0, c.n1};
    return {c.m, c.n1};
  }
  static std::int64_t min_ld(Case const& c, int op) {
    auto const [rows, cols] = extent(c, op);
    std::int64_t const min = op == kA    ? LA::min_leading_dimension(rows, cols)
                             : op == kB0 ? LB0::min_leading_dimension(rows, cols)
                             : op == kB1 ? LB1::min_leading_dimension(rows, cols)
                                         : LD::min_leading_dimension(rows, cols);
    return hiptile::round_up<std::int64_t>(min, kVector[op]);
  }
  static std::int64_t ld_of(Case const& c, int op) {
    return c.ld[op] ? *c.ld[op] : min_ld(c, op) + hiptile::round_up<std::int64_t>(c.pad, kVector[op]);
  }
  // Elements one batch of a matrix spans (int64, saturating), and the stride between batches.
  static std::int64_t one_batch(Case const& c, int op) {
    auto const [rows, cols] = extent(c, op);
    Int128 const span = ByteRange::span(std::max<std::int64_t>(kRowMajor[op] ? rows : cols, 1),
                                        std::max<std::int64_t>(ld_of(c, op), 1),
                                        std::max<std::int64_t>(kRowMajor[op] ? cols : rows, 1));
    return span > Int128(INT64_MAX) ? INT64_MAX : std::int64_t(span);
  }
  static std::int64_t stride_of(Case const& c, int op) {
    if (c.batch_stride[op]) return *c.batch_stride[op];
    std::int64_t const one = one_batch(c, op);
    return one > INT64_MAX - 64 ? one : hiptile::round_up<std::int64_t>(one, kVector[op]);
  }
  static std::int64_t batches(Case const& c) { return std::max(c.batch_count, 1); }
  // Settings that concern C make op1 read it.
  static void needs_c(Case& c) {
    if (c.beta1 == 0.0f) c.beta1 = 0.5f;
  }

  static Case baseline(fuzz::Rng& rng) {
    Case c;
    c.m = 1 + std::int64_t(rng() % 200);
    c.n0 = 1 + std::int64_t(rng() % Tile::kN0);
    c.k0 = 1 + std::int64_t(rng() % 150);
    c.n1 = 1 + std::int64_t(rng() % 200);
    c.pad = std::array{0, 8, 24}[rng() % 3];
    c.alpha0 = std::array{1.0f, 0.5f, 1.5f, -0.25f}[rng() % 4];
    c.alpha1 = std::array{1.0f, 0.5f, -1.25f}[rng() % 3];
    c.beta1 = std::array{0.0f, 1.0f, -0.5f}[rng() % 3];
    c.bias = {rng() % 2 == 0, rng() % 2 == 0};
    c.batch_count = std::array{1, 1, 2}[rng() % 3];
    c.seed = rng();
    return c;
  }

  static std::vector<fuzz::Field<Case>> fields() {
    std::vector<fuzz::Field<Case>> f;
    auto integers = [&](std::string name, std::vector<std::int64_t> limits, bool wide, auto set) {
      f.push_back(fuzz::integer_field<Case>(std::move(name), limits, wide, set));
    };
    integers("M", {Tile::kM, 2 * Tile::kM}, false, [](Case& c, std::int64_t v) { c.m = v; });
    integers("N0", {Tile::kN0, 2 * Tile::kN0}, false, [](Case& c, std::int64_t v) { c.n0 = v; });
    integers("K0", {Tile::kK0, 2 * Tile::kK0}, false, [](Case& c, std::int64_t v) { c.k0 = v; });
    integers("N1", {Tile::kN1, 2 * Tile::kN1}, false, [](Case& c, std::int64_t v) { c.n1 = v; });
    // Whole shapes at the edges no single extent reaches: the grid's most block rows (M rounded up
    // to the tile just inside int), K0 and N1 rounded up to their tiles at int's edge, operands
    // past 2^32 elements, products past 2^31 and 2^32.
    fuzz::Field<Case> shape{"M x N0 x K0 x N1", {}};
    std::int64_t const top_m = (INT_MAX / Tile::kM) * Tile::kM;
    std::int64_t const top_k = (INT_MAX / Tile::kK0) * Tile::kK0;
    std::int64_t const top_n1 = (INT_MAX / Tile::kN1) * Tile::kN1;
    for (auto [m, n0, k0, n1] : {std::array<std::int64_t, 4>{top_m, Tile::kN0, 8, Tile::kN1},
                                 {top_m + 1, Tile::kN0, 8, Tile::kN1},
                                 {top_m, 1, 1, 1},
                                 {1, Tile::kN0, top_k, 1},
                                 {1, Tile::kN0, top_k + 1, 1},
                                 {1, 1, 1, top_n1},
                                 {1, 1, 1, top_n1 + 1},
                                 {1 << 20, Tile::kN0, 1 << 11, 1 << 11},
                                 {65536, Tile::kN0, 65536, 65536},
                                 {46341, Tile::kN0, 46341, 46341},
                                 {Tile::kM, Tile::kN0 + 1, Tile::kK0, Tile::kN1},
                                 {Tile::kM + 1, Tile::kN0, 2 * Tile::kK0 + 1, 2 * Tile::kN1 + 1}}) {
      shape.settings.push_back({std::to_string(m) + "x" + std::to_string(n0) + "x" + std::to_string(k0) + "->" +
                                    std::to_string(n1),
                                [=](Case& c) {
                                  c.m = m;
                                  c.n0 = n0;
                                  c.k0 = k0;
                                  c.n1 = n1;
                                }});
    }
    f.push_back(shape);
    char const* const ld_names[kMatrices] = {"lda", "ldb0", "ldb1", "ldc", "ldd"};
    for (int op = 0; op < kMatrices; ++op) {
      integers(ld_names[op], {}, true, [op](Case& c, std::int64_t v) {
        c.ld[op] = v;
        if (op == kC) needs_c(c);
      });
      // Around the minimum for the case's shape, one vector off, and one element short of a vector.
      std::vector<std::int64_t> deltas;
      for (std::int64_t delta : {std::int64_t{-1}, std::int64_t{1}, -kVector[op], kVector[op], 2 * kVector[op] - 1}) {
        if (std::find(deltas.begin(), deltas.end(), delta) == deltas.end()) deltas.push_back(delta);
      }
      for (std::int64_t delta : deltas) {
        f.back().settings.push_back({"min" + std::string(delta < 0 ? "" : "+") + std::to_string(delta),
                                     [op, delta](Case& c) {
                                       c.ld[op] = min_ld(c, op) + delta;
                                       if (op == kC) needs_c(c);
                                     }});
      }
    }
    float const nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    // op0: P must stay inside f16 for the reference's bound (A, B0 <= 1), so its alpha's extremes
    // are the non-finite and the tiny ones; any nonzero beta asks op0 for a source P has none of.
    fuzz::Field<Case> alpha0{"op0.alpha", {}};
    for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-40f, nan, inf, -inf}) {
      alpha0.settings.push_back({std::to_string(v), [=](Case& c) { c.alpha0 = v; }});
    }
    f.push_back(alpha0);
    fuzz::Field<Case> beta0{"op0.beta", {}};
    for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 1e-40f, 65504.0f, nan, inf, -inf}) {
      beta0.settings.push_back({std::to_string(v), [=](Case& c) { c.beta0 = v; }});
    }
    f.push_back(beta0);
    for (bool alpha : {true, false}) {
      fuzz::Field<Case> field{alpha ? "op1.alpha" : "op1.beta", {}};
      for (float v : {0.0f, -0.0f, 1.0f, -1.0f, nan, inf, -inf, 1e-40f, 65504.0f}) {
        field.settings.push_back({std::to_string(v), [=](Case& c) { (alpha ? c.alpha1 : c.beta1) = v; }});
      }
      f.push_back(field);
    }
    std::pair<char const*, Place> const places[] = {
        {"far off", Place::kFar}, {"4 KiB below 2^64", Place::kTop}, {"at 2^63", Place::kHigh}};
    for (int op = 0; op < kMatrices; ++op) {
      fuzz::Field<Case> pointer{std::string(kNames[op]) + " pointer", {}};
      pointer.settings.push_back({"null", [op](Case& c) {
                                    c.null[op] = true;
                                    if (op == kC) needs_c(c);
                                  }});
      // Every byte offset below the alignment the operand needs, and one past it.
      int const alignment = op <= kB1 ? 16 : int(kBytes[op]);
      for (int b = 1; b <= alignment; ++b) {
        pointer.settings.push_back({"+" + std::to_string(b) + " bytes", [op, b](Case& c) {
                                      c.misalign[op] = b;
                                      if (op == kC) needs_c(c);
                                    }});
      }
      if (op > kB1) {
        pointer.settings.push_back({"+16 bytes", [op](Case& c) {
                                      c.misalign[op] = 16;
                                      if (op == kC) needs_c(c);
                                    }});
      }
      for (auto const& [label, place] : places) {
        pointer.settings.push_back({label, [op, place](Case& c) {
                                      c.place[op] = place;
                                      if (op == kC) needs_c(c);
                                    }});
      }
      if (op == kC) {  // C that op1 does not read: anything goes
        for (auto const& [label, set] :
             std::initializer_list<std::pair<char const*, void (*)(Case&)>>{
                 {"null, beta 0", [](Case& c) { c.null[kC] = true; }},
                 {"+1 byte, beta 0", [](Case& c) { c.misalign[kC] = 1; }},
                 {"4 KiB below 2^64, beta 0", [](Case& c) { c.place[kC] = Place::kTop; }}}) {
          pointer.settings.push_back({label, [set](Case& c) {
                                        set(c);
                                        c.beta1 = 0.0f;
                                      }});
        }
      }
      f.push_back(pointer);
    }
    for (int op : {kBias0, kBias1}) {
      int const which = op - kBias0;
      fuzz::Field<Case> bias{kNames[op], {}};
      bias.settings.push_back({"none", [which](Case& c) { c.bias[which] = false; }});
      bias.settings.push_back({"given", [which](Case& c) { c.bias[which] = true; }});
      for (int b : {1, 2, 3, 16}) {
        bias.settings.push_back({"+" + std::to_string(b) + " bytes", [which, op, b](Case& c) {
                                   c.bias[which] = true;
                                   c.misalign[op] = b;
                                 }});
      }
      for (auto const& [label, place] : places) {
        bias.settings.push_back({label, [which, op, place](Case& c) {
                                   c.bias[which] = true;
                                   c.place[op] = place;
                                 }});
      }
      f.push_back(bias);
    }
    fuzz::Field<Case> alias{"aliasing", {}};
    std::pair<char const*, Alias> const kinds[] = {
        {"D is A", Alias::kDIsA},
        {"D is B0", Alias::kDIsB0},
        {"D is B1", Alias::kDIsB1},
        {"D is A + 16 bytes", Alias::kDInsideA},
        {"D is B1 + 16 bytes", Alias::kDInsideB1},
        {"C is D (in place)", Alias::kInPlace},
        {"C is D, another batch stride", Alias::kInPlaceOtherStride},
        {"C is D + 1 element", Alias::kCShiftedFromD},
        {"C is D with another ld", Alias::kCIsDOtherLd},
        {"bias0 inside D", Alias::kBias0InD},
        {"bias1 inside D", Alias::kBias1InD},
        {"bias1 is C", Alias::kBias1IsC},
        {"bias0 is bias1", Alias::kBias0IsBias1}};
    for (auto const& [label, kind] : kinds) {
      alias.settings.push_back({label, [kind](Case& c) {
                                  c.alias = kind;
                                  if (kind == Alias::kInPlace || kind == Alias::kInPlaceOtherStride ||
                                      kind == Alias::kCShiftedFromD || kind == Alias::kCIsDOtherLd) {
                                    needs_c(c);
                                  }
                                  if (kind == Alias::kInPlaceOtherStride) c.batch_count = std::max(c.batch_count, 2);
                                  if (kind == Alias::kBias0InD || kind == Alias::kBias0IsBias1) c.bias[0] = true;
                                  if (kind == Alias::kBias1InD || kind == Alias::kBias1IsC ||
                                      kind == Alias::kBias0IsBias1) {
                                    c.bias[1] = true;
                                  }
                                }});
    }
    // In place over several batches, and C overlapping D while op1 reads no C: both legal.
    alias.settings.push_back({"C is D (in place), 3 batches", [](Case& c) {
                                c.alias = Alias::kInPlace;
                                needs_c(c);
                                c.batch_count = 3;
                              }});
    alias.settings.push_back({"C is D + 1 element, beta 0", [](Case& c) {
                                c.alias = Alias::kCShiftedFromD;
                                c.beta1 = 0.0f;
                              }});
    f.push_back(alias);
    fuzz::Field<Case> batch_count{"batch_count", {}};
    for (int v : {0, 1, 2, 3, -1, INT_MIN, INT_MAX, 65535, 65536}) {
      batch_count.settings.push_back({std::to_string(v), [=](Case& c) { c.batch_count = v; }});
    }
    f.push_back(batch_count);
    // Strides: broadcast (0; D's batches then overlap), negative, below the vector, huge, one
    // element short of a batch (inputs may overlap, D's may not), or D's batches side by side
    // within its leading dimension.
    fuzz::Field<Case> strides{"batch strides", {}};
    for (int op = 0; op < kMatrices; ++op) {
      std::string const name = kNames[op];
      std::vector<std::int64_t> values = {0, -1, 1, 8, std::int64_t{1} << 31, std::int64_t{1} << 62, INT64_MAX,
                                          INT64_MIN};
      if (kVector[op] > 1) values.push_back(-kVector[op]);
      for (std::int64_t v : values) {
        strides.settings.push_back({name + " " + std::to_string(v), [=](Case& c) {
                                      c.batch_count = std::max(c.batch_count, 2);
                                      c.batch_stride[op] = v;
                                      if (op == kC) needs_c(c);
                                    }});
      }
      std::vector<std::int64_t> deltas = {-1, 1};
      if (kVector[op] > 1) deltas.push_back(-kVector[op]);
      for (std::int64_t delta : deltas) {
        strides.settings.push_back({name + " one batch" + (delta < 0 ? "" : "+") + std::to_string(delta),
                                    [=](Case& c) {
                                      c.batch_count = std::max(c.batch_count, 2);
                                      c.batch_stride[op] = one_batch(c, op) + delta;
                                      if (op == kC) needs_c(c);
                                    }});
      }
    }
    strides.settings.push_back({"D side by side", [](Case& c) {
                                  c.batch_count = 3;
                                  std::int64_t const inner = std::max<std::int64_t>(LD::kRowMajor ? c.n1 : c.m, 1);
                                  c.ld[kD] = 3 * inner + 8;
                                  c.batch_stride[kD] = inner;
                                }});
    strides.settings.push_back({"D side by side, ld one short", [](Case& c) {
                                  c.batch_count = 3;
                                  std::int64_t const inner = std::max<std::int64_t>(LD::kRowMajor ? c.n1 : c.m, 1);
                                  c.ld[kD] = 3 * inner - 1;
                                  c.batch_stride[kD] = inner;
                                }});
    strides.settings.push_back({"every input broadcast (0)", [](Case& c) {
                                  c.batch_count = std::max(c.batch_count, 3);
                                  for (int op : {kA, kB0, kB1, kC}) c.batch_stride[op] = 0;
                                  needs_c(c);
                                }});
    f.push_back(strides);
    return f;
  }

  class Instance {
   public:
    explicit Instance(Case const& c) : c_(c) {
      // What each operand spans (elements) over its batches, with 64 bytes of slack for the
      // misaligned pointers and the last vector's loads; the biases max(N0, N1) elements each, so
      // that one can stand for the other.
      std::array<Int128, kOperands> span{};
      Int128 total = 0;
      for (int op = 0; op < kOperands; ++op) {
        if (op >= kBias0) {
          span[op] = std::max<std::int64_t>(std::max(c.n0, c.n1), 1);
        } else {
          span[op] = Int128(one_batch(c, op)) + Int128(batches(c) - 1) * std::max<std::int64_t>(stride_of(c, op), 0);
        }
        span[op] = span[op] * Int128(kBytes[op]) + 64;
        total += span[op];
      }
      real_ = total <= (Int128(1) << 22);  // 4 MiB
      for (int op = 0; op < kOperands; ++op) {
        if (real_) {
          span_bytes_[op] = std::size_t(span[op]);
          base_[op] = arena_.allocate(span_bytes_[op], c.seed * 7 + op);
        } else {
          base_[op] = test_support::fake_address<std::byte>(op);  // never touched: huge cases only check
        }
      }
      std::array<std::byte*, kOperands> p{};
      for (int op = 0; op < kOperands; ++op) {
        std::byte* at = base_[op];
        switch (c.place[op]) {
          case Place::kBuffer: break;
          case Place::kFar: at = test_support::fake_address<std::byte>(8 + op); break;
          case Place::kTop: at = reinterpret_cast<std::byte*>(std::uintptr_t(0) - 4096); break;
          case Place::kHigh: at = reinterpret_cast<std::byte*>(std::uintptr_t{1} << 63); break;
        }
        bool const absent = c.null[op] || (op == kBias0 && !c.bias[0]) || (op == kBias1 && !c.bias[1]);
        p[op] = absent ? nullptr : at + c.misalign[op];
      }
      for (int op = 0; op < kMatrices; ++op) {
        ld_[op] = ld_of(c, op);
        stride_[op] = stride_of(c, op);
      }
      switch (c.alias) {
        case Alias::kNone: break;
        case Alias::kDIsA: p[kD] = p[kA]; break;
        case Alias::kDIsB0: p[kD] = p[kB0]; break;
        case Alias::kDIsB1: p[kD] = p[kB1]; break;
        case Alias::kDInsideA: p[kD] = p[kA] ? p[kA] + 16 : nullptr; break;
        case Alias::kDInsideB1: p[kD] = p[kB1] ? p[kB1] + 16 : nullptr; break;
        case Alias::kInPlace:
          p[kC] = p[kD];
          ld_[kC] = ld_[kD];
          stride_[kC] = stride_[kD];
          break;
        case Alias::kInPlaceOtherStride:
          p[kC] = p[kD];
          ld_[kC] = ld_[kD];
          stride_[kC] = stride_[kD] + 8;
          break;
        case Alias::kCShiftedFromD:
          p[kC] = p[kD] ? p[kD] + sizeof(ED) : nullptr;
          ld_[kC] = ld_[kD];
          stride_[kC] = stride_[kD];
          break;
        case Alias::kCIsDOtherLd:
          p[kC] = p[kD];
          ld_[kC] = ld_[kD] + 8;
          stride_[kC] = stride_[kD];
          break;
        case Alias::kBias0InD: p[kBias0] = p[kD]; break;
        case Alias::kBias1InD: p[kBias1] = p[kD]; break;
        case Alias::kBias1IsC: p[kBias1] = p[kC]; break;
        case Alias::kBias0IsBias1: p[kBias0] = p[kBias1]; break;
      }
      ptr_ = p;
      if (real_) fill();
      args_.problem = {int(c.m), int(c.n0), int(c.k0), int(c.n1)};
      args_.a = {reinterpret_cast<EA const*>(p[kA]), ld_[kA]};
      args_.b0 = {reinterpret_cast<EA const*>(p[kB0]), ld_[kB0]};
      args_.b1 = {reinterpret_cast<EA const*>(p[kB1]), ld_[kB1]};
      args_.c = {reinterpret_cast<ED const*>(p[kC]), ld_[kC]};
      args_.d = {reinterpret_cast<ED*>(p[kD]), ld_[kD]};
      args_.op0.alpha = c.alpha0;
      args_.op0.beta = c.beta0;
      args_.op1.alpha = c.alpha1;
      args_.op1.beta = c.beta1;
      args_.bias0 = reinterpret_cast<EA const*>(p[kBias0]);
      args_.bias1 = reinterpret_cast<ED const*>(p[kBias1]);
      args_.batch_count = c.batch_count;
      args_.batch_stride_a = stride_[kA];
      args_.batch_stride_b0 = stride_[kB0];
      args_.batch_stride_b1 = stride_[kB1];
      args_.batch_stride_c = stride_[kC];
      args_.batch_stride_d = stride_[kD];
    }

    typename B2b::Arguments const& args() const { return args_; }
    fuzz::Arena& arena() { return arena_; }

    // Real buffers under every pointer, and small enough to simulate (block-tile steps: each
    // block row's K0 tiles and D's column steps) and to compute on the host.
    bool runnable() const {
      if (!real_) return false;
      for (Place place : c_.place) {
        if (place != Place::kBuffer) return false;
      }
      std::int64_t const rows = hiptile::ceil_div<std::int64_t>(c_.m, Tile::kM);
      std::int64_t const steps = batches(c_) * rows *
                                 (hiptile::ceil_div<std::int64_t>(c_.k0, Tile::kK0) +
                                  hiptile::ceil_div<std::int64_t>(c_.n1, Tile::kN1));
      Int128 const reference = Int128(batches(c_)) * c_.m * c_.n0 * (c_.k0 + c_.n1);
      return steps <= max_tile_steps() && reference <= (Int128(1) << 24);
    }

    // The grid (a workgroup per block row, a grid row per batch) and the Params initialize() built.
    std::string check_geometry(B2b const& op) const {
      hiptile::Dim3 const g = op.grid();
      std::int64_t const rows = hiptile::ceil_div<std::int64_t>(c_.m, Tile::kM);
      if (std::int64_t(g.x) != rows || std::int64_t(g.y) != c_.batch_count || g.z != 1) {
        return "grid " + std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z) + ", expected " +
               std::to_string(rows) + "x" + std::to_string(c_.batch_count);
      }
      auto const& p = op.params();
      auto const& out = p.epilogue.output;
      if (p.n1 != c_.n1 || p.second.n0 != c_.n0 || out.extent_m != c_.m || out.extent_n != c_.n1) {
        return "extents in Params differ from the arguments";
      }
      if (out.d != args_.d.data || out.ldd != ld_[kD] || out.batch_stride != stride_[kD]) return "D in Params";
      if (Op1(args_.op1).is_source_needed() &&
          (out.c != args_.c.data || out.ldc != ld_[kC] || out.c_batch_stride != stride_[kC])) {
        return "C in Params";
      }
      if (p.second.bias0 != args_.bias0 || p.epilogue.bias != args_.bias1) return "a bias in Params";
      return "";
    }

    // Every element of D against the double reference over the snapshot's inputs, every other byte
    // of every buffer unchanged.
    std::string check_output() const {
      if (std::string const wrong = check_values(); !wrong.empty()) return wrong;
      return arena_.changes([&](std::byte const* p) { return may_change(p); });
    }

   private:
    // Whether a run may change the byte at p: an element of one of D's batches.
    bool may_change(std::byte const* p) const {
      if (ptr_[kD] == nullptr || p < ptr_[kD]) return false;
      std::int64_t const element = (p - ptr_[kD]) / std::int64_t(sizeof(ED));
      for (std::int64_t b = 0; b < batches(c_); ++b) {
        std::int64_t const e = element - b * stride_[kD];
        if (e < 0) break;
        std::int64_t const outer = e / ld_[kD], inner = e % ld_[kD];
        if (LD::kRowMajor ? outer < c_.m && inner < c_.n1 : outer < c_.n1 && inner < c_.m) return true;
        if (stride_[kD] == 0) break;
      }
      return false;
    }

    // The snapshot of `bytes` bytes from the operand's pointer, if they lie in one buffer.
    std::byte const* saved(int op, Int128 bytes) const {
      if (ptr_[op] == nullptr || bytes <= 0) return nullptr;
      std::byte const* const first = arena_.saved_view(ptr_[op]);
      std::byte const* const last = arena_.saved_view(ptr_[op] + std::int64_t(bytes) - 1);
      return first != nullptr && last != nullptr && last - first == std::int64_t(bytes) - 1 ? first : nullptr;
    }
    // Elements a matrix spans over the case's batches, by the arguments' ld and stride.
    Int128 elements(int op) const {
      auto const [rows, cols] = extent(c_, op);
      return ByteRange::span(kRowMajor[op] ? rows : cols, ld_[op], kRowMajor[op] ? cols : rows) +
             Int128(batches(c_) - 1) * stride_[op];
    }

    std::string check_values() const {
      bool const source = Op1(args_.op1).is_source_needed();
      std::array<std::byte const*, kOperands> before{};
      for (int op : {kA, kB0, kB1, kC}) {
        if (op == kC && !source) continue;
        before[op] = saved(op, elements(op) * Int128(kBytes[op]));
        if (before[op] == nullptr) return std::string(kNames[op]) + " lies outside its buffer";
      }
      for (int op : {kBias0, kBias1}) {
        if (ptr_[op] == nullptr) continue;
        before[op] = saved(op, Int128(op == kBias0 ? c_.n0 : c_.n1) * Int128(kBytes[op]));
        if (before[op] == nullptr) return std::string(kNames[op]) + " lies outside its buffer";
      }
      auto value = [](std::byte const* base, std::int64_t element, auto tag) {
        using T = decltype(tag);
        T v;
        std::memcpy(&v, base + element * std::int64_t(sizeof(T)), sizeof(T));
        return double(float(v));
      };
      hiptile::host::B2bReferenceOps ops;
      ops.alpha0 = c_.alpha0;
      ops.activation0 = activate<typename Op0::Activation>;
      ops.alpha1 = c_.alpha1;
      ops.beta1 = c_.beta1;
      ops.activation1 = activate<typename Op1::Activation>;
      ops.p_roundoff = std::ldexp(1.0, -hiptile::numeric_limits<EA>::digits);
      ops.d_roundoff = std::ldexp(1.0, -hiptile::numeric_limits<ED>::digits);
      double const max_finite = double(hiptile::numeric_limits<ED>::max());
      std::int64_t mismatches = 0;
      std::ostringstream first;
      std::vector<double> ref, tol;
      for (std::int64_t batch = 0; batch < batches(c_); ++batch) {
        std::int64_t const a0 = batch * stride_[kA], b00 = batch * stride_[kB0], b10 = batch * stride_[kB1];
        std::int64_t const c0 = batch * stride_[kC];
        hiptile::host::reference_b2b_gemm(
            args_.problem, [&](int i, int k) { return value(before[kA], a0 + LA::offset(i, k, ld_[kA]), EA{}); },
            [&](int k, int n) { return value(before[kB0], b00 + LB0::offset(k, n, ld_[kB0]), EA{}); },
            [&](int n, int j) { return value(before[kB1], b10 + LB1::offset(n, j, ld_[kB1]), EA{}); },
            [&](int i, int j) { return source ? value(before[kC], c0 + LD::offset(i, j, ld_[kC]), ED{}) : 0.0; },
            [&](int n) { return before[kBias0] ? value(before[kBias0], n, EA{}) : 0.0; },
            [&](int j) { return before[kBias1] ? value(before[kBias1], j, ED{}) : 0.0; }, ops, ref, tol);
        std::byte const* const d = ptr_[kD] + batch * stride_[kD] * std::int64_t(sizeof(ED));
        for (std::int64_t i = 0; i < c_.m; ++i) {
          for (std::int64_t j = 0; j < c_.n1; ++j) {
            std::size_t const at = std::size_t(i * c_.n1 + j);
            double const r = ref[at], t = tol[at];
            double const got = value(d, LD::offset(i, j, ld_[kD]), ED{});
            bool right;
            if (std::isnan(t) || std::isinf(t)) {
              // A non-finite alpha or beta: the reference bounds nothing, but it stays finite or
              // not (op0's -inf makes P 0 and D finite; inf · a sum near 0 is ±inf or NaN).
              right = std::isfinite(r) == std::isfinite(got);
            } else if (!std::isfinite(r)) {
              right = got == r || std::isnan(got);
            } else if (std::isinf(got)) {
              right = std::abs(r) + t >= max_finite && (got > 0) == (r > 0);  // rounded past the largest
            } else {
              right = std::abs(got - r) <= t;
            }
            if (!right && mismatches++ == 0) {
              first << "batch " << batch << " D[" << i << "][" << j << "] = " << got << ", reference " << r << " ± "
                    << t;
            }
          }
        }
      }
      if (mismatches > 0) return std::to_string(mismatches) + " wrong elements, first " + first.str();
      return "";
    }

    // Inputs: A and B0 positive (P's sums never hang on rounding), B1, C and the biases of either
    // sign; every other byte of their buffers NaN — ld padding, the gaps between batches, the tail
    // of the last vector the loads may touch, bias elements past N0 or N1 — which no element of D
    // may show. D keeps the arena's random bytes, except where C is D, where it holds C's values.
    void fill() {
      fuzz::Rng rng(c_.seed);
      auto nan_fill = [&](int op, auto tag) {
        using T = decltype(tag);
        T const v = T(std::numeric_limits<float>::quiet_NaN());
        for (std::size_t i = 0; i + sizeof(T) <= span_bytes_[op]; i += sizeof(T)) {
          std::memcpy(base_[op] + i, &v, sizeof(T));
        }
      };
      // The elements of matrix `op` (every batch) at its pointer, where that is its own buffer.
      auto matrix = [&](int op, int buffer, float lo, float hi, auto tag) {
        using T = decltype(tag);
        std::byte* const at = ptr_[op];
        if (at == nullptr || at < base_[buffer] || at >= base_[buffer] + span_bytes_[buffer]) return;
        std::uniform_real_distribution<float> dist(lo, hi);
        auto const [rows, cols] = extent(c_, op);
        std::int64_t const outer = kRowMajor[op] ? rows : cols, inner = kRowMajor[op] ? cols : rows;
        for (std::int64_t b = 0; b < batches(c_); ++b) {
          for (std::int64_t o = 0; o < outer; ++o) {
            for (std::int64_t e = 0; e < inner; ++e) {
              // (In 128 bits: the fuzzed strides reach INT64_MIN and INT64_MAX.)
              Int128 const byte = (Int128(b) * stride_[op] + Int128(o) * ld_[op] + e) * Int128(sizeof(T));
              if (byte < 0 || Int128(at - base_[buffer]) + byte + Int128(sizeof(T)) > Int128(span_bytes_[buffer])) {
                continue;
              }
              T const v = T(dist(rng));
              std::memcpy(at + std::int64_t(byte), &v, sizeof(T));
            }
          }
        }
      };
      auto vector = [&](int op, std::int64_t n, float lo, float hi, auto tag) {
        using T = decltype(tag);
        std::uniform_real_distribution<float> dist(lo, hi);
        std::byte* const at = base_[op] + c_.misalign[op];
        for (std::int64_t i = 0; i < n && at + (i + 1) * std::int64_t(sizeof(T)) <= base_[op] + span_bytes_[op]; ++i) {
          T const v = T(dist(rng));
          std::memcpy(at + i * std::int64_t(sizeof(T)), &v, sizeof(T));
        }
      };
      for (int op : {kA, kB0, kB1, kBias0}) nan_fill(op, EA{});
      for (int op : {kC, kBias1}) nan_fill(op, ED{});
      matrix(kA, kA, 0.25f, 1.0f, EA{});
      matrix(kB0, kB0, 0.25f, 1.0f, EA{});
      matrix(kB1, kB1, -1.0f, 1.0f, EA{});
      matrix(kC, kC, -2.0f, 2.0f, ED{});
      if (c_.alias == Alias::kInPlace || c_.alias == Alias::kInPlaceOtherStride ||
          c_.alias == Alias::kCShiftedFromD || c_.alias == Alias::kCIsDOtherLd) {
        matrix(kC, kD, -2.0f, 2.0f, ED{});  // C's elements where C points: inside D's buffer
      }
      vector(kBias0, c_.n0, -1.0f, 1.0f, EA{});
      vector(kBias1, c_.n1, -1.0f, 1.0f, ED{});
    }

    Case c_;
    fuzz::Arena arena_;
    bool real_ = false;
    std::array<std::byte*, kOperands> base_{};
    std::array<std::size_t, kOperands> span_bytes_{};
    std::array<std::byte*, kOperands> ptr_{};
    std::array<std::int64_t, kMatrices> ld_{};
    std::array<std::int64_t, kMatrices> stride_{};  // batch strides
    typename B2b::Arguments args_{};
  };
};

using F16 = device::DefaultB2bGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor,
                                   hiptile::arch::Gfx942, epilogue::LinearCombination<half_t, epilogue::ReLU>>;
using F16ColumnMajor =
    device::DefaultB2bGemm<half_t, ColumnMajor, half_t, ColumnMajor, half_t, ColumnMajor, half_t, ColumnMajor,
                           hiptile::arch::Gfx942, epilogue::LinearCombination<half_t, epilogue::ReLU>>;

template <class B2b>
void fuzz_b2b(char const* label, std::uint64_t seed) {
  fuzz::Report const report = fuzz::run<B2bSubject<B2b>>(seed, fuzz::random_cases());
  WARN(report.summary(label));  // the counts, for the log
  CHECK(report.ran > 0);
  CHECK(report.geometry_only > 0);
  for (Status s : {Status::kErrorInvalidProblem, Status::kErrorNotSupported, Status::kErrorNullPointer,
                   Status::kErrorInvalidLayout, Status::kErrorMisalignedOperand, Status::kErrorIndexOverflow,
                   Status::kErrorOperandTooLarge, Status::kErrorAliasedOperand}) {
    INFO(hiptile::to_string(s));
    CHECK(report.refused.count(hiptile::to_string(s)) == 1);
  }
}

TEST_CASE("B2bGemm gives every extreme argument a Status or a right answer: f16, A row, B0 col, B1 row, D row",
          "[fuzz][b2b]") {
  fuzz_b2b<F16>("b2b f16 (A row, B0 col, B1 row, D row), ReLU op0", 21);
}
TEST_CASE("B2bGemm gives every extreme argument a Status or a right answer: f16, column-major A, B0, B1, D",
          "[fuzz][b2b]") {
  fuzz_b2b<F16ColumnMajor>("b2b f16 (A, B0, B1, D col), ReLU op0", 22);
}

// The settings whose outcome the operator's table fixes, on one small case: what must be accepted
// (C is D in place, inputs broadcast, C unread when beta is 0, a bias shared with C) and the Status
// of what must be refused.
TEST_CASE("B2bGemm: the Status of the settings its table names", "[fuzz][b2b]") {
  using S = B2bSubject<F16>;
  S::Case base;
  base.m = 100, base.n0 = 40, base.k0 = 48, base.n1 = 72, base.batch_count = 2, base.beta1 = 0.5f;
  base.bias = {true, true};
  auto const fields = S::fields();
  auto status_of = [&](std::string const& field, std::string const& label) {
    for (auto const& f : fields) {
      if (f.name != field) continue;
      for (auto const& [name, set] : f.settings) {
        if (name != label) continue;
        S::Case c = base;
        set(c);
        return S::Operator::can_implement(S::Instance(c).args());
      }
    }
    FAIL("no setting " << field << " = " << label);
    return Status::kErrorInvalidEnum;  // (FAIL has ended the test)
  };
  std::pair<std::pair<char const*, char const*>, Status> const expected[] = {
      {{"aliasing", "C is D (in place)"}, Status::kSuccess},
      {{"aliasing", "C is D (in place), 3 batches"}, Status::kSuccess},
      {{"aliasing", "C is D, another batch stride"}, Status::kErrorAliasedOperand},
      {{"aliasing", "C is D + 1 element"}, Status::kErrorAliasedOperand},
      {{"aliasing", "C is D + 1 element, beta 0"}, Status::kSuccess},
      {{"aliasing", "C is D with another ld"}, Status::kErrorAliasedOperand},
      {{"aliasing", "D is A"}, Status::kErrorAliasedOperand},
      {{"aliasing", "D is B0"}, Status::kErrorAliasedOperand},
      {{"aliasing", "D is B1 + 16 bytes"}, Status::kErrorAliasedOperand},
      {{"aliasing", "bias0 inside D"}, Status::kErrorAliasedOperand},
      {{"aliasing", "bias1 inside D"}, Status::kErrorAliasedOperand},
      {{"aliasing", "bias1 is C"}, Status::kSuccess},
      {{"aliasing", "bias0 is bias1"}, Status::kSuccess},
      {{"op0.beta", "1.000000"}, Status::kErrorNotSupported},
      {{"op0.beta", "nan"}, Status::kErrorNotSupported},
      {{"op0.beta", "-0.000000"}, Status::kSuccess},
      {{"op1.beta", "nan"}, Status::kSuccess},
      {{"op1.alpha", "inf"}, Status::kSuccess},
      {{"N0", "65"}, Status::kErrorNotSupported},
      {{"N0", "64"}, Status::kSuccess},
      {{"N0", "0"}, Status::kErrorInvalidProblem},
      {{"batch_count", "0"}, Status::kErrorInvalidProblem},
      {{"C pointer", "null"}, Status::kErrorNullPointer},
      {{"C pointer", "null, beta 0"}, Status::kSuccess},
      {{"C pointer", "+1 byte, beta 0"}, Status::kSuccess},
      {{"A pointer", "+2 bytes"}, Status::kErrorMisalignedOperand},
      {{"D pointer", "+1 bytes"}, Status::kErrorMisalignedOperand},
      {{"D pointer", "+2 bytes"}, Status::kSuccess},
      {{"bias0", "+1 bytes"}, Status::kErrorMisalignedOperand},
      {{"bias1", "+2 bytes"}, Status::kSuccess},
      {{"bias0", "none"}, Status::kSuccess},
      {{"lda", "min-1"}, Status::kErrorInvalidLayout},
      {{"ldb1", "min+1"}, Status::kErrorMisalignedOperand},
      {{"ldd", "min+1"}, Status::kSuccess},
      {{"batch strides", "A 0"}, Status::kSuccess},
      {{"batch strides", "every input broadcast (0)"}, Status::kSuccess},
      {{"batch strides", "D 0"}, Status::kErrorAliasedOperand},
      {{"batch strides", "D one batch-1"}, Status::kErrorAliasedOperand},
      {{"batch strides", "C one batch-1"}, Status::kSuccess},
      {{"batch strides", "B0 -8"}, Status::kErrorInvalidLayout},
      {{"batch strides", "B1 1"}, Status::kErrorMisalignedOperand},
      {{"batch strides", "D side by side"}, Status::kSuccess},
      {{"batch strides", "D side by side, ld one short"}, Status::kErrorAliasedOperand},
      {{"D pointer", "4 KiB below 2^64"}, Status::kErrorIndexOverflow},
  };
  for (auto const& [setting, status] : expected) {
    INFO(setting.first << " = " << setting.second);
    CHECK(hiptile::to_string(status_of(setting.first, setting.second)) == hiptile::to_string(status));
  }
}

}  // namespace
