#pragma once
// GemmSubject: device::Gemm as a subject of the argument-fuzzing suite (test/common/argument_fuzz.hpp):
// every field of Gemm::Arguments with its extremes, cases made real in an arena (or at far fake
// addresses when huge), outputs checked against a double-precision reference. Used by the Gemm
// suite and, one instance per group, by the GroupedGemm suite.
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../common/argument_fuzz.hpp"
#include "../common/fake_address.hpp"
#include "../common/tuned_operator.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/device/selecting_gemm.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "hiptile/sim/runtime.hpp"

namespace gemm_fuzz {

using hiptile::ByteRange;
using hiptile::GemmCoord;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::epilogue::BiasMode;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace device = hiptile::gemm::device;
namespace arch = hiptile::arch;
using hiptile::gemm::kernel::SplitKMode;

// Where one of the output functor's declared device pointers (functor_pointers.hpp: fp8 scales,
// amax) points: null; a float of its own (kOwn) or one byte past it; the first element of D, A, B,
// C or the bias; far from every buffer (kFar: the case is then not run).
enum class Place { kNull, kOwn, kMisaligned, kInD, kInA, kInB, kInC, kInBias, kFar };

// How the pointers of a case relate: kInPlace and kBiasIsC are legal, the others overlap D with an
// input it must not.
enum class Alias { kNone, kDIsA, kDIsB, kInPlace, kCShiftedFromD, kCIsDOtherLd, kBiasInD, kBiasIsC };
constexpr int kOperands = 5;  // A, B, C, D, bias
enum Operand { kA, kB, kC, kD, kBias };

using fuzz::max_tile_steps;  // block-tile K steps here: tiles × K tiles

// Gemm: the configuration whose rules shape the cases (tile, schedule); Op: the operator run, Gemm
// itself, or a SelectingGemm or fuzz::TunedOperator (a TunedGemm) whose candidates include it.
// NoWorkspace: every case gives no workspace and asks for no K decomposition (the workspace,
// split_k_slices and stream_k_* fields, which only split-K and stream-K take, are left out), so
// that an operator which picks what fits the workspace runs them all.
template <class Gemm, class Op = Gemm, bool NoWorkspace = false>
struct GemmSubject {
  using Operator = Op;
  static constexpr bool kSelecting = !std::is_same_v<Op, Gemm>;
  static constexpr bool kTuned = requires { typename Op::Tuning; };  // a fuzz::TunedOperator
  using EA = typename Gemm::ElementA;
  using EB = typename Gemm::ElementB;
  using EC = typename Gemm::ElementC;
  using LA = typename Gemm::LayoutA;
  using LB = typename Gemm::LayoutB;
  using LC = typename Gemm::LayoutC;
  using Tile = typename Gemm::TileShapeType;
  static constexpr std::size_t kBytes[kOperands] = {sizeof(EA), sizeof(EB), sizeof(EC), sizeof(EC), sizeof(EC)};
  static constexpr std::int64_t kVector[kOperands] = {Gemm::kAlignmentA, Gemm::kAlignmentB, 1, 1, 1};
  static constexpr bool kIntegerD = std::is_integral_v<EC>;
  using OutputOp = typename Gemm::OutputOpType;
  // The output functor's declared pointers (ScaledLinearCombination: scale_a, scale_b, scale_d read,
  // amax written), each a field of its own.
  static constexpr std::size_t kFunctorPointers =
      std::tuple_size_v<decltype(hiptile::epilogue::functor_pointers<OutputOp>(typename OutputOp::Params{}))>;
  static_assert(kFunctorPointers == 0 || kFunctorPointers == 4, "the subject places ScaledLinearCombination's pointers");
  static constexpr bool kSaturating = [] {
    if constexpr (requires { Gemm::OutputOpType::kOutputOverflow; }) {
      return Gemm::OutputOpType::kOutputOverflow == hiptile::OverflowMode::kSaturating;
    } else {
      return false;
    }
  }();

  struct Case {
    std::int64_t m = 1, n = 1, k = 1;
    std::array<std::optional<std::int64_t>, 4> ld;  // A, B, C, D; none: the minimum, padded
    int pad = 0;                                     // elements added to each unset ld
    float alpha = 1.0f, beta = 0.0f;
    int bias_mode = 0;
    std::array<int, kOperands> misalign{};  // bytes added to each pointer
    std::array<bool, kOperands> null{};
    Alias alias = Alias::kNone;
    int slices = 1;
    int stream_k_workgroups = 0;  // stream-K configurations only
    int stream_k_partitions = 0;
    fuzz::WorkspaceGiven workspace = fuzz::WorkspaceGiven::kExact;  // split-K and stream-K only
    int batch_count = 1;
    std::array<std::optional<std::int64_t>, 4> batch_stride;  // A, B, C, D; none: one batch's span, stacked
    std::array<Place, kFunctorPointers> functor{};            // the output functor's pointers
    std::uint64_t seed = 1;
  };
  static constexpr bool kStreamK = Gemm::kSplitK == SplitKMode::kStreamK;
  static constexpr bool kWorkspace = Gemm::kSplitK != SplitKMode::kNone && !NoWorkspace;  // split-K or stream-K
  // Stream-K runs checked with some tiles shared, so that the suite is known to reach the handing
  // on of partial sums.
  static inline std::int64_t shared_tile_checks = 0;

  static std::string name() { return hiptile::kernel_name<Gemm>(); }

  // Rows and columns of each matrix operand, and its minimum ld.
  static std::pair<std::int64_t, std::int64_t> extent(Case const& c, int op) {
    if (op == kA) return {c.m, c.k};
    if (op == kB) return {c.k, c.n};
    return {c.m, c.n};
  }
  static std::int64_t min_ld(Case const& c, int op) {
    auto const [rows, cols] = extent(c, op);
    std::int64_t const min = op == kA ? LA::min_leading_dimension(rows, cols)
                             : op == kB ? LB::min_leading_dimension(rows, cols)
                                        : LC::min_leading_dimension(rows, cols);
    return hiptile::round_up<std::int64_t>(min, kVector[op]);
  }
  // (The padding rounded up to whole vectors: 8 elements are not one for 8-bit types.)
  static std::int64_t ld_of(Case const& c, int op) {
    return c.ld[op] ? *c.ld[op] : min_ld(c, op) + hiptile::round_up<std::int64_t>(c.pad, kVector[op]);
  }

  // Elements one batch of an operand spans (as int64, saturating), and the stride between batches.
  static std::int64_t one_batch(Case const& c, int op) {
    auto const [rows, cols] = extent(c, op);
    bool const row_major = op == kA ? LA::kRowMajor : op == kB ? LB::kRowMajor : LC::kRowMajor;
    ByteRange::Int128 const span = ByteRange::span(std::max<std::int64_t>(row_major ? rows : cols, 1),
                                                   std::max<std::int64_t>(ld_of(c, op), 1),
                                                   std::max<std::int64_t>(row_major ? cols : rows, 1));
    return span > ByteRange::Int128(INT64_MAX) ? INT64_MAX : std::int64_t(span);
  }
  static std::int64_t stride_of(Case const& c, int op) {
    if (c.batch_stride[op]) return *c.batch_stride[op];
    std::int64_t const one = one_batch(c, op);
    return one > INT64_MAX - 64 ? one : hiptile::round_up<std::int64_t>(one, kVector[op]);
  }
  // Batches a case's buffers hold and its runs compute: the count, at least 1.
  static std::int64_t batches(Case const& c) { return std::max(c.batch_count, 1); }

  static Case baseline(fuzz::Rng& rng) {
    Case c;
    c.m = 1 + std::int64_t(rng() % 200);
    c.n = 1 + std::int64_t(rng() % 200);
    c.k = 1 + std::int64_t(rng() % 150);
    c.pad = std::array{0, 8, 24}[rng() % 3];
    c.alpha = std::array{1.0f, 0.5f, -1.25f}[rng() % 3];
    c.beta = std::array{0.0f, 1.0f, -0.5f}[rng() % 3];
    c.bias_mode = kIntegerD ? 0 : int(rng() % 3);  // an integer D takes no bias
    c.batch_count = kStreamK ? 1 : std::array{1, 1, 2}[rng() % 3];
    c.seed = rng();
    return c;
  }

  static std::vector<fuzz::Field<Case>> fields() {
    std::vector<fuzz::Field<Case>> f;
    auto integers = [&](std::string name, std::vector<std::int64_t> limits, bool wide, auto set) {
      f.push_back(fuzz::integer_field<Case>(std::move(name), limits, wide, set));
    };
    integers("M", {Tile::kM, 2 * Tile::kM}, false, [](Case& c, std::int64_t v) { c.m = v; });
    integers("N", {Tile::kN, 2 * Tile::kN}, false, [](Case& c, std::int64_t v) { c.n = v; });
    integers("K", {Tile::kK, 2 * Tile::kK}, false, [](Case& c, std::int64_t v) { c.k = v; });
    // Whole shapes at the edges no single extent reaches: grids around the backend's limit with
    // operands small enough for 32-bit offsets, and products of extents past 2^31 and 2^32.
    fuzz::Field<Case> shape{"M x N x K", {}};
    std::int64_t const side = 4096;  // tiles along M; N is sized so the grid straddles the limit
    std::int64_t const limit_n = Gemm::kMaxWorkgroups / side;
    for (auto [m, n, k] : {std::array<std::int64_t, 3>{side * Tile::kM, limit_n * Tile::kN, 8},
                           {side * Tile::kM, (limit_n + 1) * Tile::kN, 8},
                           {side * Tile::kM, (limit_n + 1) * Tile::kN - (Tile::kN - 1), 1},
                           {1 << 20, 1 << 20, 8}, {65536, 65536, 1}, {65536, 32768, 16}, {46341, 46341, 8}}) {
      shape.settings.push_back({std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
                                [=](Case& c) {
                                  c.m = m;
                                  c.n = n;
                                  c.k = k;
                                }});
    }
    f.push_back(shape);
    char const* const ld_names[4] = {"lda", "ldb", "ldc", "ldd"};
    for (int op = 0; op < 4; ++op) {
      integers(ld_names[op], {}, true, [op](Case& c, std::int64_t v) { c.ld[op] = v; });
      // Around the minimum for the case's shape, and one vector off.
      for (std::int64_t delta : {std::int64_t{-1}, std::int64_t{1}, -kVector[op], kVector[op]}) {
        f.back().settings.push_back({"min" + std::to_string(delta), [op, delta](Case& c) {
                                       c.ld[op] = min_ld(c, op) + delta;
                                     }});
      }
    }
    float const nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (bool alpha : {true, false}) {
      fuzz::Field<Case> field{alpha ? "alpha" : "beta", {}};
      for (float v : {0.0f, -0.0f, 1.0f, -1.0f, nan, inf, -inf, 1e-40f, 65504.0f}) {
        field.settings.push_back({std::to_string(v), [=](Case& c) { (alpha ? c.alpha : c.beta) = v; }});
      }
      f.push_back(field);
    }
    fuzz::Field<Case> bias{"bias_mode", {}};
    for (int v : {0, 1, 2, 3, -1, INT_MAX, INT_MIN}) {
      bias.settings.push_back({std::to_string(v), [=](Case& c) { c.bias_mode = v; }});
    }
    f.push_back(bias);
    char const* const names[kOperands] = {"A", "B", "C", "D", "bias"};
    for (int op = 0; op < kOperands; ++op) {
      fuzz::Field<Case> pointer{std::string(names[op]) + " pointer", {}};
      pointer.settings.push_back({"null", [op](Case& c) { c.null[op] = true; }});
      // Every byte offset below the alignment the operand needs, and one past a whole vector.
      int const alignment = op <= kB ? 16 : int(kBytes[op]);
      for (int b = 1; b < alignment; ++b) {
        pointer.settings.push_back({"+" + std::to_string(b) + " bytes", [op, b](Case& c) { c.misalign[op] = b; }});
      }
      pointer.settings.push_back({"+16 bytes", [op](Case& c) { c.misalign[op] = 16; }});
      f.push_back(pointer);
    }
    for (std::size_t i = 0; i < kFunctorPointers; ++i) {
      char const* const names[] = {"scale_a", "scale_b", "scale_d", "amax"};
      fuzz::Field<Case> pointer{std::string("output_op.") + names[i], {}};
      std::pair<char const*, Place> const places[] = {
          {"null", Place::kNull},        {"a float of its own", Place::kOwn}, {"+1 byte", Place::kMisaligned},
          {"inside D", Place::kInD},     {"inside A", Place::kInA},          {"inside B", Place::kInB},
          {"inside C", Place::kInC},     {"inside the bias", Place::kInBias}, {"far out of range", Place::kFar}};
      for (auto const& [label, place] : places) {
        pointer.settings.push_back({label, [i, place](Case& c) {
                                      c.functor[i] = place;
                                      if (place == Place::kInC && c.beta == 0.0f) c.beta = 1.0f;  // C read
                                      if (place == Place::kInBias && c.bias_mode == 0) c.bias_mode = 2;
                                    }});
      }
      f.push_back(pointer);
    }
    fuzz::Field<Case> alias{"aliasing", {}};
    std::pair<char const*, Alias> const kinds[] = {
        {"D is A", Alias::kDIsA},           {"D is B", Alias::kDIsB},
        {"C is D (in place)", Alias::kInPlace}, {"C is D + 1 element", Alias::kCShiftedFromD},
        {"C is D with another ld", Alias::kCIsDOtherLd}, {"bias inside D", Alias::kBiasInD},
        {"bias is C", Alias::kBiasIsC}};
    for (auto const& [label, kind] : kinds) {
      alias.settings.push_back({label, [kind](Case& c) {
                                  c.alias = kind;
                                  if (kind == Alias::kInPlace || kind == Alias::kCShiftedFromD ||
                                      kind == Alias::kCIsDOtherLd) {
                                    if (c.beta == 0.0f) c.beta = 0.75f;  // so that C is read
                                  }
                                  if ((kind == Alias::kBiasInD || kind == Alias::kBiasIsC) && c.bias_mode == 0) {
                                    c.bias_mode = 1;
                                  }
                                }});
    }
    f.push_back(alias);
    fuzz::Field<Case> batch_count{"batch_count", {}};
    for (int v : {0, 1, 2, 3, -1, INT_MIN, INT_MAX, 65535, 65536}) {
      batch_count.settings.push_back({std::to_string(v), [=](Case& c) { c.batch_count = v; }});
    }
    f.push_back(batch_count);
    // Strides: broadcast (0), below the vector, negative, huge, D's batches overlapping (0, one
    // element short) or side by side within D's leading dimension.
    fuzz::Field<Case> strides{"batch strides", {}};
    auto two_batches = [](Case& c) { c.batch_count = std::max(c.batch_count, 2); };
    char const* const stride_names[4] = {"A", "B", "C", "D"};
    for (int op = 0; op < 4; ++op) {
      std::string const name = stride_names[op];
      for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1}, std::int64_t{1} << 62, std::int64_t{INT64_MAX}}) {
        strides.settings.push_back({name + " " + std::to_string(v), [=](Case& c) {
                                      two_batches(c);
                                      c.batch_stride[op] = v;
                                      if (op == kC && c.beta == 0.0f) c.beta = 0.5f;  // so that C is read
                                    }});
      }
      strides.settings.push_back({name + " one batch - 1", [=](Case& c) {
                                    two_batches(c);
                                    c.batch_stride[op] = one_batch(c, op) - 1;
                                  }});
    }
    strides.settings.push_back({"D side by side", [](Case& c) {
                                  c.batch_count = 3;
                                  c.ld[kD] = 3 * min_ld(c, kD) + 8;
                                  c.batch_stride[kD] = LC::kRowMajor ? c.n : c.m;
                                }});
    strides.settings.push_back({"D side by side, ld one short", [](Case& c) {
                                  c.batch_count = 3;
                                  c.ld[kD] = 3 * (LC::kRowMajor ? c.n : c.m) - 1;
                                  c.batch_stride[kD] = LC::kRowMajor ? c.n : c.m;
                                }});
    f.push_back(strides);
    if constexpr (!NoWorkspace) {
      fuzz::Field<Case> slices{"split_k_slices", {}};
      for (int v : {INT_MIN, -1, 0, 1, 2, 3, 7, 65535, 65536, INT_MAX}) {
        slices.settings.push_back({std::to_string(v), [=](Case& c) { c.slices = v; }});
      }
      f.push_back(slices);
    }
    if constexpr (kStreamK && !NoWorkspace) {
      // 0 asks the device (the simulator's compute units × resident workgroups); more than the
      // tiles' K iterations can use leaves the schedule with fewer units than given.
      fuzz::Field<Case> workgroups{"stream_k_workgroups", {}};
      for (std::int64_t v : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{7}, std::int64_t{64},
                             Gemm::kMaxWorkgroups, Gemm::kMaxWorkgroups + 1, std::int64_t{INT_MAX},
                             std::int64_t{-1}, std::int64_t{INT_MIN}}) {
        workgroups.settings.push_back({std::to_string(v), [=](Case& c) { c.stream_k_workgroups = int(v); }});
      }
      // Found by this suite: a given count past kMaxWorkgroups made a grid one launch cannot hold,
      // and iterations · units past 2^63 overflowed a unit's range (now kErrorIndexOverflow).
      workgroups.settings.push_back({"INT_MAX on 65536 x 65536 x 2^20", [](Case& c) {
                                       c.m = c.n = 65536;
                                       c.k = 1 << 20;
                                       c.stream_k_workgroups = INT_MAX;
                                     }});
      workgroups.settings.push_back({"kMaxWorkgroups on 2^19 x 2^18 x (2^22 - 32)", [](Case& c) {
                                       c.m = 1 << 19;
                                       c.n = 1 << 18;
                                       c.k = (1 << 22) - 32;
                                       c.stream_k_workgroups = int(Gemm::kMaxWorkgroups);
                                     }});
      f.push_back(workgroups);
      // 0: the device's XCDs; the schedule uses one group unless the units divide evenly.
      fuzz::Field<Case> partitions{"stream_k_partitions", {}};
      for (int v : {0, 1, 2, 3, 8, INT_MAX, -1, INT_MIN}) {
        partitions.settings.push_back({std::to_string(v), [=](Case& c) { c.stream_k_partitions = v; }});
      }
      f.push_back(partitions);
    }
    if constexpr (kWorkspace) {
      fuzz::Field<Case> workspace = fuzz::workspace_field<Case>();
      if constexpr (kStreamK) {
        // Stream-K takes no slices; it needs a workspace when a tile is shared, which the baseline's
        // few tiles are (on the device's grid) once K spans two tiles.
        for (auto& setting : workspace.settings) {
          setting.second = [set = setting.second](Case& c) {
            int const slices = c.slices;
            set(c);
            c.slices = slices;
            if (c.k > 0 && c.k <= Tile::kK) c.k += Tile::kK;
          };
        }
      }
      f.push_back(workspace);
    }
    return f;
  }

  class Instance {
   public:
    // The case's buffers go to `shared` when given (the groups of a grouped case share one arena), else
    // to the instance's own arena.
    explicit Instance(Case const& c, fuzz::Arena* shared = nullptr) : c_(c), arena_(shared ? shared : &own_arena_) {
      // What each operand spans (elements), with a vector of slack past its last element.
      std::array<ByteRange::Int128, kOperands> span{};
      ByteRange::Int128 total = 0;
      for (int op = 0; op < kOperands; ++op) {
        if (op == kBias) {
          span[op] = std::max<std::int64_t>(std::max(c.m, c.n), 1);
        } else {
          auto const [rows, cols] = extent(c, op);
          bool const row_major = op == kA ? LA::kRowMajor : op == kB ? LB::kRowMajor : LC::kRowMajor;
          std::int64_t const outer = std::max<std::int64_t>(row_major ? rows : cols, 1);
          std::int64_t const inner = std::max<std::int64_t>(row_major ? cols : rows, 1);
          span[op] = ByteRange::span(outer, std::max<std::int64_t>(ld_of(c, op), 1), inner) +
                     ByteRange::Int128(batches(c) - 1) * std::max<std::int64_t>(stride_of(c, op), 0);
        }
        span[op] = span[op] * ByteRange::Int128(kBytes[op]) + 64;
        total += span[op] > 0 ? span[op] : ByteRange::Int128(1) << 80;
      }
      real_ = total <= (ByteRange::Int128(1) << 22);  // 4 MiB
      for (int op = 0; op < kOperands; ++op) {
        std::byte* base = nullptr;
        if (real_) {
          span_bytes_[op] = std::size_t(span[op]);
          base = arena_->allocate(span_bytes_[op], c.seed * 7 + op);
        } else {
          // Far apart and never touched: huge cases are only checked, never run.
          base = test_support::fake_address<std::byte>(op);
        }
        base_[op] = base;
      }
      if (real_) fill();
      std::array<std::byte*, kOperands> p{};
      for (int op = 0; op < kOperands; ++op) p[op] = c.null[op] ? nullptr : base_[op] + c.misalign[op];
      std::array<std::int64_t, 4> ld{ld_of(c, kA), ld_of(c, kB), ld_of(c, kC), ld_of(c, kD)};
      stride_ = {stride_of(c, kA), stride_of(c, kB), stride_of(c, kC), stride_of(c, kD)};
      switch (c.alias) {
        case Alias::kNone: break;
        case Alias::kDIsA: p[kD] = p[kA]; break;
        case Alias::kDIsB: p[kD] = p[kB]; break;
        case Alias::kInPlace: p[kC] = p[kD]; ld[kC] = ld[kD]; stride_[kC] = stride_[kD]; break;
        case Alias::kCShiftedFromD: p[kC] = p[kD] ? p[kD] + sizeof(EC) : nullptr; ld[kC] = ld[kD]; break;
        case Alias::kCIsDOtherLd: p[kC] = p[kD]; ld[kC] = ld[kD] + 8; break;
        case Alias::kBiasInD: p[kBias] = p[kD]; break;
        case Alias::kBiasIsC: p[kBias] = p[kC]; break;
      }
      ptr_ = p;
      ld_ = ld;
      args_.problem = GemmCoord{int(c.m), int(c.n), int(c.k)};
      args_.a = {reinterpret_cast<EA const*>(p[kA]), ld[kA]};
      args_.b = {reinterpret_cast<EB const*>(p[kB]), ld[kB]};
      args_.c = {reinterpret_cast<EC const*>(p[kC]), ld[kC]};
      args_.d = {reinterpret_cast<EC*>(p[kD]), ld[kD]};
      if constexpr (kIntegerD) {
        args_.output_op = {};  // IntegerOutput: D = the int32 sums, no alpha or beta
      } else {
        args_.output_op = {c.alpha, c.beta};
      }
      args_.bias = reinterpret_cast<EC const*>(p[kBias]);
      args_.bias_mode = static_cast<BiasMode>(c.bias_mode);
      args_.split_k_slices = c.slices;
      args_.batch_count = c.batch_count;
      args_.batch_stride_a = stride_[kA];
      args_.batch_stride_b = stride_[kB];
      args_.batch_stride_c = stride_[kC];
      args_.batch_stride_d = stride_[kD];
      args_.stream_k_workgroups = c.stream_k_workgroups;
      args_.stream_k_partitions = c.stream_k_partitions;
      place_functor_pointers();
      if constexpr (!NoWorkspace) {
        workspace_.give(*arena_, args_, Op::get_workspace_size(args_), real_, c.workspace, c.seed * 7 + kOperands,
                        ptr_[kD]);
      }
    }

    typename Gemm::Arguments const& args() const { return args_; }
    fuzz::Arena& arena() { return *arena_; }
    bool runnable() const {
      std::int64_t const tiles =
          hiptile::ceil_div<std::int64_t>(c_.m, Tile::kM) * hiptile::ceil_div<std::int64_t>(c_.n, Tile::kN);
      std::int64_t const slices = std::max(c_.slices, 1);
      for (Place p : c_.functor) {
        if (p == Place::kFar) return false;  // (accepted: its launch geometry is checked)
      }
      return real_ && workspace_.real() &&
             batches(c_) * tiles * (hiptile::ceil_div<std::int64_t>(c_.k, Tile::kK) + slices) <= max_tile_steps() &&
             batches(c_) * c_.m * c_.n * c_.k <= (1 << 22);
    }

    // A SelectingGemm: it ran what select() chooses, with the problem as given.
    std::string check_geometry(Op const& op) const
      requires(kSelecting && !kTuned)
    {
      hiptile::gemm::device::GemmChoice chosen;
      if (!hiptile::ok(Op::select(args_, chosen)) || chosen.candidate != op.choice().candidate) return "choice";
      std::string wrong = "no candidate initialised";
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (void)((I == op.choice().candidate ? (wrong = check_candidate(op.template candidate<I>()), true) : false) ||
               ...);
      }(std::make_integer_sequence<int, Op::kCandidates>{});
      return wrong;
    }
    // A TunedGemm: it ran the choice it keeps for these arguments (fuzz::TunedOperator::check_choice),
    // with the chosen K slices.
    std::string check_geometry(Op const& op) const
      requires kTuned
    {
      if (std::string const wrong = op.check_choice(args_); !wrong.empty()) return wrong;
      std::string wrong = "no candidate initialised";
      op.visit_chosen([&](auto const& candidate) {
        wrong = check_candidate(candidate);
        if (wrong.empty() && candidate.split_k_slices() != op.tuned().choice().split_k_slices) {
          wrong = "the candidate runs other K slices than chosen";
        }
      });
      return wrong;
    }
    template <class Candidate>
    std::string check_candidate(Candidate const& op) const {
      auto const& p = op.params();
      if (!op.initialized() || op.batch_count() != c_.batch_count || p.epilogue.output.extent_m != c_.m ||
          p.epilogue.output.extent_n != c_.n || p.mainloop.a.extent_k != c_.k) {
        return "the chosen candidate's problem or batches differ from the arguments";
      }
      return "";
    }

    std::string check_geometry(Gemm const& op) const
      requires(!kSelecting)
    {
      std::int64_t const tiles =
          hiptile::ceil_div<std::int64_t>(c_.m, Tile::kM) * hiptile::ceil_div<std::int64_t>(c_.n, Tile::kN);
      auto const& p = op.params();
      if constexpr (kStreamK) {
        if (std::string const e = check_stream_k(op, tiles); !e.empty()) return e;
      } else if (op.workgroups() != tiles || tiles > Gemm::kMaxWorkgroups) {
        return "grid of " + std::to_string(op.workgroups());
      }
      if (op.split_k_slices() != c_.slices) return "split into " + std::to_string(op.split_k_slices()) + " slices";
      if (op.batch_count() != c_.batch_count) return "batches " + std::to_string(op.batch_count());
      if (p.epilogue.output.extent_m != c_.m || p.epilogue.output.extent_n != c_.n || p.mainloop.a.extent_k != c_.k ||
          p.mainloop.b.extent_k != c_.k) {
        return "problem extents in Params differ from the arguments";
      }
      return "";
    }

    // Every element of D against the double reference over the snapshot's inputs, every other byte
    // of every buffer unchanged.
    std::string check_output() {
      if (std::string const wrong = check_values(); !wrong.empty()) return wrong;
      return arena_->changes([&](std::byte const* p) { return may_change(p); });
    }

    // Whether a run may change the byte at p: an element of D, the workspace, or an amax of its own.
    bool may_change(std::byte const* p) const {
      if (workspace_.contains(p)) return true;  // split-K's or stream-K's to use
      if (amax_ != nullptr && p >= amax_ && p < amax_ + sizeof(float)) return true;
      if (ptr_[kD] == nullptr || p < ptr_[kD]) return false;
      std::int64_t const offset = p - ptr_[kD];
      for (std::int64_t b = 0; b < batches(c_); ++b) {
        std::int64_t const element = offset / std::int64_t(sizeof(EC)) - b * stride_[kD];
        if (element < 0) break;
        std::int64_t const outer = element / ld_[kD], inner = element % ld_[kD];
        if (LC::kRowMajor ? outer < c_.m && inner < c_.n : outer < c_.n && inner < c_.m) return true;
      }
      return false;
    }

    // "" if every element of D matches the double reference over the snapshot's inputs.
    std::string check_values() {
      using Limits = std::conditional_t<kIntegerD, std::numeric_limits<EC>, hiptile::numeric_limits<EC>>;
      double const u = kIntegerD ? 0.0 : std::ldexp(1.0, -Limits::digits);
      double const max_finite = double(Limits::max());
      bool const source = c_.beta != 0.0f && !kIntegerD;
      // The inputs as they were before the run (in place, C is D's old contents).
      std::array<std::byte const*, kOperands> before{};
      for (int op : {kA, kB, kC, kBias}) before[op] = ptr_[op] ? arena_->saved_view(ptr_[op]) : nullptr;
      auto saved = [](std::byte const* p, auto tag) {
        using T = decltype(tag);
        T value;
        std::memcpy(&value, p, sizeof(T));
        return double(float(value));
      };
      // The functor's scales as the kernel reads them (null: 1), and the amax it must reach.
      auto scale = [&](std::size_t i) {
        std::byte const* const at = i < kFunctorPointers ? functor_[i] : nullptr;
        return at == nullptr ? 1.0 : saved(arena_->saved_view(at), float{});
      };
      double const product_scale = scale(0) * scale(1), output_scale = scale(2);
      double amax = 0;
      bool amax_nan = false;
      std::int64_t mismatches = 0;
      std::ostringstream first;
      for (std::int64_t batch = 0; batch < batches(c_); ++batch) {
        if (batch > 0) {  // the next batch's matrices (the bias serves every batch)
          for (int op : {kA, kB, kC}) {
            if (before[op] != nullptr) before[op] += stride_[op] * std::int64_t(kBytes[op]);
          }
        }
        std::byte const* const d_batch = ptr_[kD] + batch * stride_[kD] * std::int64_t(sizeof(EC));
        for (std::int64_t i = 0; i < c_.m; ++i) {
          for (std::int64_t j = 0; j < c_.n; ++j) {
            double acc = 0, magnitude = 0;
            for (std::int64_t kk = 0; kk < c_.k; ++kk) {
              double const a = saved(before[kA] + LA::offset(i, kk, ld_[kA]) * sizeof(EA), EA{});
              double const b = saved(before[kB] + LB::offset(kk, j, ld_[kB]) * sizeof(EB), EB{});
              acc += a * b;
              magnitude += std::abs(a * b);
            }
            double const cij = source ? saved(before[kC] + LC::offset(i, j, ld_[kC]) * sizeof(EC), EC{}) : 0;
            double const bias = c_.bias_mode == 1   ? saved(before[kBias] + i * sizeof(EC), EC{})
                                : c_.bias_mode == 2 ? saved(before[kBias] + j * sizeof(EC), EC{})
                                                    : 0.0;
            if constexpr (std::is_integral_v<EA>) {
              // int32 accumulation wraps around, as the MFMA's does (a K of 4 million reaches it here).
              acc = double(std::int32_t(std::uint32_t(std::int64_t(acc))));
            }
            double const alpha = kIntegerD ? 1.0 : double(c_.alpha) * product_scale;
            double const x = alpha * acc + (source ? double(c_.beta) * cij : 0.0) + bias;
            double const ref = output_scale * x;
            amax_nan = amax_nan || std::isnan(x);
            amax = std::max(amax, std::abs(x));
            magnitude = std::abs(output_scale) *
                        (std::abs(alpha) * magnitude + std::abs(double(c_.beta) * cij) + std::abs(bias));
            double const tol = u * std::abs(ref) + 1.2 * double(c_.k + 4) * std::ldexp(1.0, -23) * magnitude +
                               8 * std::ldexp(1.0, -24) * std::abs(ref) + 1e-30 + std::ldexp(1.0, -25);
            EC got_value;
            std::memcpy(&got_value, d_batch + LC::offset(i, j, ld_[kD]) * sizeof(EC), sizeof(EC));
            double const got = kIntegerD ? double(got_value) : double(float(got_value));
            bool right;
            if constexpr (kIntegerD) {
              right = got == ref;  // int32 sums are exact (and these stay far inside int32)
            } else if (kSaturating && !std::isnan(ref) && (std::isinf(ref) || std::abs(ref) - tol > max_finite)) {
              right = got == std::copysign(max_finite, ref);  // clamped to the largest finite value
            } else if (kSaturating && std::isinf(got)) {
              right = false;  // a saturating output is never infinite
            } else if (std::isnan(ref) || std::isnan(magnitude)) {
              right = std::isnan(got) || std::isinf(magnitude);  // inf · 0 terms make NaN either way
            } else if (std::isinf(ref)) {
              right = got == ref || std::isnan(got);
            } else if (std::isinf(got)) {
              right = std::abs(ref) + tol >= max_finite && (got > 0) == (ref > 0);  // rounded past the largest
            } else {
              right = std::abs(got - ref) <= tol;
            }
            if (!right && mismatches++ == 0) {
              first << "batch " << batch << " D[" << i << "][" << j << "] = " << got << ", reference " << ref;
            }
          }
        }
      }
      if (mismatches > 0) return std::to_string(mismatches) + " wrong elements, first " + first.str();
      if (amax_ != nullptr) {  // max |x| over D, before scale_d (fp32 arithmetic: a relative 2^-20 apart)
        float got;
        std::memcpy(&got, amax_, sizeof got);
        bool const right = amax_nan ? std::isnan(got) : std::abs(double(got) - amax) <= amax * std::ldexp(1.0, -20);
        if (!right) return "amax " + std::to_string(got) + ", reference " + std::to_string(amax);
      }
      if constexpr (kStreamK) {
        hiptile::gemm::kernel::StreamKSchedule s;
        if (hiptile::ok(Gemm::stream_k_schedule(args_, s)) && s.units > 0) ++shared_tile_checks;
      }
      return "";
    }

   private:
    // Stream-K's schedule against what stream_k.hpp promises: every tile data-parallel or shared, a
    // grid one launch holds, no more units than workgroups given (or the device can hold: 32 waves
    // per compute unit), partitions that divide them, a workspace exactly when a tile is shared; and
    // the pieces of the first, middle and last units covering their share of their group's K
    // iterations, ⌊u · I / U⌋ to ⌊(u + 1) · I / U⌋, with the owners' peer counts, in 128 bits.
    std::string check_stream_k(Gemm const& op, std::int64_t tiles) const {
      using Int128 = ByteRange::Int128;
      auto const& s = op.stream_k();
      std::int64_t const k_tiles = hiptile::ceil_div<std::int64_t>(c_.k, Tile::kK);
      std::int64_t const most_units = c_.stream_k_workgroups > 0 ? c_.stream_k_workgroups
                                                                 : std::int64_t{hiptile::sim::compute_units()} * 32;
      int const most_partitions = c_.stream_k_partitions > 0
                                      ? c_.stream_k_partitions
                                      : Gemm::ArchTag::xcds(hiptile::sim::compute_units());
      std::ostringstream at;
      at << "stream-K schedule (dp " << s.dp_tiles << ", shared " << s.sk_tiles << ", units " << s.units
         << ", partitions " << s.partitions << ", K iterations " << s.k_tiles << ", grid " << op.workgroups() << ")";
      if (op.workgroups() != s.workgroups() || op.workgroups() < 1 || op.workgroups() > Gemm::kMaxWorkgroups) {
        return at.str() + ": grid";
      }
      if (s.dp_tiles < 0 || s.sk_tiles < 0 || s.dp_tiles + std::int64_t{s.sk_tiles} != tiles || s.k_tiles != k_tiles ||
          (s.units == 0) != (s.sk_tiles == 0) || s.units > most_units ||
          Int128(s.units) > Int128(s.sk_tiles) * s.k_tiles) {
        return at.str() + ": tiles or units";
      }
      if (s.partitions < 1 || s.partitions > std::max(most_partitions, 1) ||
          (s.units > 0 && s.units % s.partitions != 0)) {
        return at.str() + ": partitions";
      }
      if ((Gemm::get_workspace_size(args_) > 0) != (s.units > 0)) return at.str() + ": workspace";
      for (std::int64_t unit : {std::int64_t{0}, std::int64_t{1}, std::int64_t{s.units / 2},
                                std::int64_t{s.units} - 2, std::int64_t{s.units} - 1}) {
        if (unit < 0 || unit >= s.units) continue;
        // The unit's group: the shared tiles j (tile id dp + j) with j ≡ unit (mod partitions).
        std::int64_t const residue = unit % s.partitions, local = unit / s.partitions;
        std::int64_t const units = s.units / s.partitions;
        std::int64_t const group_tiles = (s.sk_tiles - residue + s.partitions - 1) / s.partitions;
        Int128 const iterations = Int128(group_tiles) * k_tiles;
        Int128 const begin = iterations * local / units, end = iterations * (local + 1) / units;
        hiptile::gemm::kernel::StreamKPieces pieces(s, s.dp_tiles + int(unit));
        hiptile::gemm::kernel::StreamKPiece piece;
        Int128 next = end;  // pieces come last tile first
        int count = 0;
        while (next > begin && pieces.next(piece) && ++count <= 4) {
          std::int64_t const j = std::int64_t{piece.tile} - s.dp_tiles - residue;
          Int128 const tile_begin = Int128(j / s.partitions) * k_tiles;
          // The unit holding the tile's first iteration: the largest l with ⌊l · I / U⌋ <= it.
          Int128 const first_unit = ((tile_begin + 1) * units - 1) / iterations;
          bool const owner = piece.k.last == k_tiles;
          if (j < 0 || j % s.partitions != 0 || j / s.partitions >= group_tiles || piece.k.first < 0 ||
              piece.k.first >= piece.k.last ||
              tile_begin + piece.k.last != next || piece.owner != owner ||
              piece.peers != (owner ? std::int64_t(local - first_unit) : 0)) {
            break;
          }
          next = tile_begin + piece.k.first;
        }
        if (next != begin || pieces.next(piece)) {
          return at.str() + ": unit " + std::to_string(unit) + "'s pieces do not cover its iterations";
        }
      }
      return "";
    }

    // Inputs: A and B positive (so a product's sign never hangs on rounding), C and the bias of
    // either sign. D keeps the arena's random bytes, except in place, where it holds C's values.
    void fill() {
      fuzz::Rng rng(c_.seed);
      auto fill_with = [&](int op, std::size_t bytes, float lo, float hi, auto tag) {
        using T = decltype(tag);
        std::uniform_real_distribution<float> dist(lo, hi);
        for (std::size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
          // Integers: the same range scaled to 127 (so int8's A and B are 32..127, never 0).
          T const v = std::is_integral_v<T> ? T(std::lround(dist(rng) * 127.0f)) : T(dist(rng));
          std::memcpy(base_[op] + i, &v, sizeof(T));
        }
      };
      fill_with(kA, span_bytes_[kA], 0.25f, 1.0f, EA{});
      fill_with(kB, span_bytes_[kB], 0.25f, 1.0f, EB{});
      fill_with(kC, span_bytes_[kC], -2.0f, 2.0f, EC{});
      fill_with(kBias, span_bytes_[kBias], -1.0f, 1.0f, EC{});
      if (c_.alias == Alias::kInPlace) fill_with(kD, span_bytes_[kD], -2.0f, 2.0f, EC{});
    }

    // Points the output functor's pointers as the case places them; a read pointer that lands in a
    // real buffer holds a float the reference then reads (0.5, 2 or 0.75: exact products).
    void place_functor_pointers() {
      for (std::size_t i = 0; i < kFunctorPointers; ++i) {
        std::byte* at = nullptr;
        switch (c_.functor[i]) {
          case Place::kNull: break;
          case Place::kOwn:
            at = real_ ? arena_->allocate(16, c_.seed * 11 + i) : test_support::fake_address<std::byte>(16 + int(i));
            break;
          case Place::kMisaligned: at = test_support::fake_address<std::byte>(16 + int(i)) + 1; break;
          case Place::kInD: at = base_[kD]; break;
          case Place::kInA: at = base_[kA]; break;
          case Place::kInB: at = base_[kB]; break;
          case Place::kInC: at = base_[kC]; break;
          case Place::kInBias: at = base_[kBias]; break;
          case Place::kFar: at = test_support::fake_address<std::byte>(20 + int(i)); break;
        }
        bool const written = i == 3;
        bool const in_arena =
            real_ && at != nullptr && c_.functor[i] != Place::kFar && c_.functor[i] != Place::kMisaligned;
        if (in_arena && !written) {
          float const value = std::array{0.5f, 2.0f, 0.75f}[i];
          std::memcpy(at, &value, sizeof value);
        }
        if (in_arena && written && c_.functor[i] == Place::kOwn) amax_ = at;
        functor_[i] = at;
        if constexpr (kFunctorPointers == 4) {
          auto& p = args_.output_op;
          float* const f = reinterpret_cast<float*>(at);
          if (i == 0) {
            p.scale_a = f;
          } else if (i == 1) {
            p.scale_b = f;
          } else if (i == 2) {
            p.scale_d = f;
          } else {
            p.amax = f;
          }
        }
      }
    }

    Case c_;
    std::array<std::byte*, kFunctorPointers> functor_{};  // where each functor pointer points
    std::byte* amax_ = nullptr;                           // an amax of the case's own, written by a run
    fuzz::Arena own_arena_;
    fuzz::Arena* arena_;
    bool real_ = false;
    std::array<std::byte*, kOperands> base_{};
    std::array<std::size_t, kOperands> span_bytes_{};
    std::array<std::byte*, kOperands> ptr_{};
    std::array<std::int64_t, 4> ld_{};
    std::array<std::int64_t, 4> stride_{};  // batch strides of A, B, C, D
    typename Gemm::Arguments args_{};
    fuzz::GivenWorkspace workspace_;
  };
};

}  // namespace gemm_fuzz
