#pragma once
// The compile-time side of a GEMM configuration, in three parts so that a wrong configuration
// (Over 400 lines: some thirty rules, each a condition and its own message, and the stand-ins; kept
// together so that a rule and its message cannot drift apart.)
// gives one error line that says what to change, and nothing after it:
//
//   GemmConditions         one bool per rule, each well-formed for any template arguments (a rule
//                          that reads a part another rule found broken counts as met)
//   GemmConfigurationCheck a static_assert per rule, with the message a user reads
//   GemmConfiguration      the components the configuration implies (LDS layouts, wave MMA,
//                          mainloop, epilogue), or inert stand-ins when a rule failed, so the
//                          operator built from them adds no errors of its own
#include <cstddef>
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/core/concepts.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/gemm/collective/builder.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/kernel/split_k_reduction.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::device {

namespace detail {

// NVIDIA copies an operand straight into a swizzled stage where its builder says so (both
// K-contiguous, or 16-bit warpgroup MMAs: collective/builder_decl.hpp); gfx9 never (no 16-byte
// global-to-LDS copy: the loads pass through registers, MN-contiguous tiles transposed on the way).
template <class Arch, class MmaAtom, class ElementA, OperandMajor MajorA, class ElementB, OperandMajor MajorB>
inline constexpr bool kCopiesIntoSwizzledStages =
    Arch::kWaveSize == 32 && collective::kNvidiaCopiesIntoSwizzledStages<MmaAtom, ElementA, MajorA, ElementB, MajorB>;

// The components of a configuration whose rules all hold, from its architecture family's builders
// (gemm/collective/builder.hpp). Nothing here is instantiated before GemmConditions has found the
// configuration valid.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class TileShape, class WaveShape, class MmaAtom, class OutputOp, int Stages>
struct GemmComponents {
  using Family = typename Arch::Family;
  static constexpr OperandMajor kMajorA = kOperandMajor<Operand::kA, LayoutA>;
  static constexpr OperandMajor kMajorB = kOperandMajor<Operand::kB, LayoutB>;
  static constexpr int kThreads = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN) * Arch::kWaveSize;
  using Loaders =
      collective::GemmLoaderBuilder<Family, ElementA, kMajorA, ElementB, kMajorB, MmaAtom, TileShape, kThreads>;
  static constexpr bool kAsyncCopy = Loaders::kAsyncCopy;
  using LoaderA = typename Loaders::LoaderA;  // the global-tile loaders of A and B
  using LoaderB = typename Loaders::LoaderB;
  using LdsLayoutA = typename LoaderA::LdsLayout;
  using LdsLayoutB = typename LoaderB::LdsLayout;
  using Mainloops = collective::MainloopBuilder<Family, MmaAtom, LoaderA, LoaderB, TileShape, WaveShape, Stages>;
  using WaveMma = typename Mainloops::WaveMma;
  using Mainloop = typename Mainloops::Mainloop;
  using Output = epilogue::MatrixOutput<ElementC, LayoutC>;
  // The epilogue reads Arguments::row_scale / column_scale (kScales).
  using Epilogue = typename collective::EpilogueBuilder<Family, WaveMma, TileShape, Output, OutputOp, /*kScales=*/true,
                                                        /*kContiguousRows=*/LayoutC::kRowMajor>::Epilogue;
  // Parallel split-K: each slice's fp32 partial sums go straight from the registers to a row-major
  // workspace matrix (α = 1, β = 0 is exact), and the reduction applies OutputOp through Output.
  using PartialEpilogue = epilogue::DirectStoreEpilogue<WaveMma, epilogue::MatrixOutput<float, layout::RowMajor>,
                                                        epilogue::LinearCombination<float>>;
  using Reduction = kernel::SplitKReduction<Output, OutputOp>;
};

// What a GEMM operator reads of its components, inert: the stand-ins for a configuration that
// failed a rule, so that the operator's own code compiles and the failed rule is the only error.
template <class ElementA_, class ElementB_, class ElementC, class OutputOp, int WaveSize>
struct PlaceholderComponents {
  static constexpr OperandMajor kMajorA = OperandMajor::kK;
  static constexpr OperandMajor kMajorB = OperandMajor::kK;
  static constexpr bool kAsyncCopy = false;
  struct WaveMma {
    using ElementA = ElementA_;
    using ElementB = ElementB_;
    using ElementAccumulator = float;
    using Accumulators = Array<Array<float, 1>, 1>;
    using LdsLayoutA = void;
    using LdsLayoutB = void;
    static constexpr int kWaveM = 1, kWaveN = 1, kAtomsM = 1, kAtomsN = 1, kAccumulatorsPerAtom = 1;
    HIPTILE_HOST_DEVICE static constexpr int accumulator_row(int, int, int) { return 0; }
    HIPTILE_HOST_DEVICE static constexpr int accumulator_col(int, int, int) { return 0; }
  };
  struct Mainloop {
    using WaveMma = PlaceholderComponents::WaveMma;
    static constexpr int kThreads = WaveSize;
    static constexpr int kWaveSize = WaveSize;
    static constexpr std::size_t kLdsBytes = 0;
    using Accumulators = typename WaveMma::Accumulators;
    using Problem = NoProblem;
    struct Params {
      OperandView<ElementA_> a;
      OperandView<ElementB_> b;
    };
    struct WaveOrigin {
      int m0, n0;
    };
    HIPTILE_HOST_DEVICE static constexpr WaveOrigin wave_origin(int) { return {0, 0}; }
    HIPTILE_DEVICE static void run(Accumulators&, Params const&, NoProblem, TileWork const&, std::byte*, int) {}
  };
  template <class Element>
  struct Loader {
    using Params = OperandView<Element>;
    static bool offsets_fit(Params const&) { return true; }
  };
  using LoaderA = Loader<ElementA_>;
  using LoaderB = Loader<ElementB_>;
  struct Epilogue {
    using Params =
        typename epilogue::DirectStoreEpilogue<WaveMma, epilogue::MatrixOutput<ElementC, layout::RowMajor>, OutputOp>::Params;
    using Problem = NoProblem;
    static constexpr std::size_t kLdsBytesPerWave = 0;
    template <class RowValues = epilogue::NoRowValues>
    HIPTILE_DEVICE static void run(typename Mainloop::Accumulators const&, Params const&, NoProblem, TileWork const&,
                                   int, int, int, std::byte*, RowValues const& = {}) {}
  };
  struct PartialEpilogue : Epilogue {
    using Params = typename epilogue::DirectStoreEpilogue<WaveMma, epilogue::MatrixOutput<float, layout::RowMajor>,
                                                          epilogue::LinearCombination<float>>::Params;
    template <class RowValues = epilogue::NoRowValues>
    HIPTILE_DEVICE static void run(typename Mainloop::Accumulators const&, Params const&, NoProblem, TileWork const&,
                                   int, int, int, std::byte*, RowValues const& = {}) {}
  };
  using Output = epilogue::MatrixOutput<ElementC, layout::RowMajor>;
  using Reduction = kernel::SplitKReduction<Output, OutputOp>;
};

// An output functor that does nothing, in place of one that is not an EpilogueFunctor.
template <class ElementC>
struct PlaceholderOutputOp {
  using ElementOutput = ElementC;
  struct Params {};
  static constexpr bool kNeedsSource = false;
  PlaceholderOutputOp() = default;
  HIPTILE_HOST_DEVICE constexpr explicit PlaceholderOutputOp(Params const&) {}
  HIPTILE_HOST_DEVICE constexpr bool is_source_needed() const { return false; }
  HIPTILE_HOST_DEVICE ElementC operator()(float, float, float) const { return ElementC{}; }
};

}  // namespace detail

// What the rules read of a shape, an atom and a functor: the real members, or neutral stand-ins
// (extents of 1, no types) where the part is not well-formed, which its own rule reports.
template <class Shape>
struct ExtentsOf {
  static constexpr int kM = 1, kN = 1, kK = 1;
};
template <GemmShapeType Shape>
struct ExtentsOf<Shape> {
  static constexpr int kM = Shape::kM, kN = Shape::kN, kK = Shape::kK;
};
template <class Atom>
struct AtomOf {
  static constexpr bool kKnown = false;
  static constexpr int kM = 1, kN = 1, kK = 1, kCPerLane = 0;
  using ElementA = void;
  using ElementB = void;
  using ElementC = void;
};
template <MmaAtomType Atom>
struct AtomOf<Atom> {
  static constexpr bool kKnown = true;
  static constexpr int kM = Atom::kM, kN = Atom::kN, kK = Atom::kK, kCPerLane = Atom::kCPerLane;
  using ElementA = typename Atom::ElementA;
  using ElementB = typename Atom::ElementB;
  using ElementC = typename Atom::ElementC;
};
// Whether an MFMA atom's instruction exists on Arch (gfx90a lacks fp8/bf8, xf32 and the newer i8
// forms); other atoms are checked by their own rules.
template <class Atom, class Arch>
constexpr bool atom_on_arch() {
  if constexpr (MfmaAtom<Atom> && std::is_same_v<Arch, arch::Gfx90a>) {
    return Atom::kOnGfx90a;
  } else {
    return true;
  }
}
// The two families of 8-bit float formats (docs/mi300_facts.md, "FP8 on gfx942"): gfx942's FNUZ,
// and OCP's (NVIDIA, gfx950).
template <class T>
inline constexpr bool kFnuzFp8 = std::is_same_v<T, float8_e4m3fnuz> || std::is_same_v<T, float8_e5m2fnuz>;
template <class T>
inline constexpr bool kOcpFp8 = std::is_same_v<T, float8_e4m3fn> || std::is_same_v<T, float8_e5m2>;

template <class F, class ElementC>
struct OutputOf : std::type_identity<ElementC> {};
template <epilogue::EpilogueFunctor F, class ElementC>
struct OutputOf<F, ElementC> : std::type_identity<typename F::ElementOutput> {};

// One bool per rule of a GEMM configuration, each a plain expression over the stand-ins above, so
// well-formed for any template arguments. A rule that depends on another holding counts as met
// when that one fails, so one mistake breaks one rule.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class ElementAccumulator, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp,
          class TileOrder, int Stages>
struct GemmConditions {
  using T = ExtentsOf<TileShape>;
  using W = ExtentsOf<WaveShape>;
  using A = AtomOf<MmaAtom>;
  static constexpr int kWaveSize = Arch::kWaveSize;

  // The parts every later rule reads.
  static constexpr bool kAtomKind = A::kKnown;
  static constexpr bool kFunctor = epilogue::EpilogueFunctor<OutputOp>;
  static constexpr bool kShapes = GemmShapeType<TileShape> && GemmShapeType<WaveShape>;
  static constexpr bool kTileOrder = kernel::TileOrderType<TileOrder>;
  static constexpr bool kFunctorOutput = std::is_same_v<typename OutputOf<OutputOp, ElementC>::type, ElementC>;

  // Waves split the tile in M and N; the atom tiles the wave tile, with the configuration's types.
  static constexpr bool kWavesTileM = T::kM % W::kM == 0;
  static constexpr bool kWavesTileN = T::kN % W::kN == 0;
  static constexpr bool kWaveKIsTileK = W::kK == T::kK;
  static constexpr bool kAtomTilesWaveM = W::kM % A::kM == 0;
  static constexpr bool kAtomTilesWaveN = W::kN % A::kN == 0;
  static constexpr bool kAtomTilesTileK = T::kK % A::kK == 0;
  // fp8: the formats of the architecture (FNUZ on gfx9, OCP on NVIDIA), before the atom's types.
  static constexpr bool kFp8FormatForArch =
      !((kFnuzFp8<ElementA> || kFnuzFp8<ElementB>) && kWaveSize == 32) &&
      !((kOcpFp8<ElementA> || kOcpFp8<ElementB>) && kWaveSize == 64);
  static constexpr bool kAtomInputs =
      !kAtomKind || !kFp8FormatForArch ||
      (std::is_same_v<ElementA, typename A::ElementA> && std::is_same_v<ElementB, typename A::ElementB>);
  static constexpr bool kAtomAccumulator = !kAtomKind || std::is_same_v<ElementAccumulator, typename A::ElementC>;
  // The atom runs on the architecture's waves (SimtFma has one row per 8 lanes).
  static constexpr bool kMfmaOnWave64 = !MfmaAtom<MmaAtom> || kWaveSize == 64;
  static constexpr bool kAtomOnArch = !kMfmaOnWave64 || atom_on_arch<MmaAtom, Arch>();
  static constexpr bool kMmaSyncOnNvidia = !MmaSyncAtom<MmaAtom> || kWaveSize == 32;
  static constexpr bool kWarpgroupOnSm90 = !WarpgroupAtom<MmaAtom> || std::is_same_v<Arch, arch::Sm90>;
  static constexpr bool kSimtOnWave = !SimtAtom<MmaAtom> || A::kM * 8 == kWaveSize;

  // The block geometry, once the shapes tile each other.
  static constexpr bool kGeometry = kShapes && kWavesTileM && kWavesTileN && kWaveKIsTileK;
  static constexpr int kThreads = (T::kM / W::kM) * (T::kN / W::kN) * kWaveSize;
  static constexpr bool kThreadsFit = !kGeometry || kThreads <= 1024;
  static constexpr bool kAccumulatorsFit = !(kGeometry && kAtomTilesWaveM && kAtomTilesWaveN) ||
                                           (W::kM / A::kM) * (W::kN / A::kN) * A::kCPerLane <= 256;

  // 16-byte vectors of an operand's tile per thread: 0 if not whole (2 where the geometry is broken,
  // so that the rules below count as met).
  static constexpr int vectors_per_thread(int tile_mn, int element_bytes) {
    if (!kGeometry) return 2;
    int const bytes = tile_mn * T::kK * element_bytes;
    return bytes % (16 * kThreads) == 0 ? bytes / (16 * kThreads) : 0;
  }
  static constexpr int kVectorsA = vectors_per_thread(T::kM, int(sizeof(ElementA)));
  static constexpr int kVectorsB = vectors_per_thread(T::kN, int(sizeof(ElementB)));
  static constexpr bool kWholeVectors = kVectorsA > 0 && kVectorsB > 0;

  // An MN-contiguous operand (A column-major, B row-major) goes through the transposing
  // register-staged loader (block::TileLoader) on every architecture, and that has rules of its own.
  static constexpr OperandMajor kMajorA = kOperandMajor<Operand::kA, LayoutA>;
  static constexpr OperandMajor kMajorB = kOperandMajor<Operand::kB, LayoutB>;
  static constexpr bool kTransposeA = kMajorA == OperandMajor::kMN;
  static constexpr bool kTransposeB = kMajorB == OperandMajor::kMN;
  static constexpr bool kTransposedTileA = !(kTransposeA && kShapes) || (T::kM >= 64 && T::kM * sizeof(ElementA) % 16 == 0);
  static constexpr bool kTransposedTileB = !(kTransposeB && kShapes) || (T::kN >= 64 && T::kN * sizeof(ElementB) % 16 == 0);

  // What the LDS layouts, wave MMAs, copies and epilogues need of the shapes (each component
  // checks the same again for itself; here the message can say which parameter to change).
  static constexpr bool kNvidiaCopy = detail::kCopiesIntoSwizzledStages<Arch, MmaAtom, ElementA, kMajorA, ElementB, kMajorB>;
  // The cp.async mainloop overlaps a landing stage with the one it reads; the register-staged one
  // can hold the next tile in registers over a single stage.
  static constexpr bool kStages = Stages >= (kNvidiaCopy ? 2 : 1);
  static constexpr int packs_per_row(int element_bytes) {  // 16-byte packs in a K row of the tile, 0 if not whole
    if (!kShapes) return 8;
    return (T::kK * element_bytes) % 16 == 0 ? T::kK * element_bytes / 16 : 0;
  }
  static constexpr int kPacksA = packs_per_row(int(sizeof(ElementA)));
  static constexpr int kPacksB = packs_per_row(int(sizeof(ElementB)));
  static constexpr bool kTileKWholePacks = kPacksA > 0 && kPacksB > 0;
  static constexpr bool kTileMNMultipleOf8 = T::kM % 8 == 0 && T::kN % 8 == 0;
  static constexpr bool packs_fit_layout(int packs) {
    if (packs == 0) return true;                                        // kTileKWholePacks says so
    if (kNvidiaCopy) return packs >= 2 && (packs & (packs - 1)) == 0;  // SwizzledLdsLayout
    return packs <= 8 || packs % 8 == 0;  // PackedLdsLayout; the register-staged swizzled stages
                                          // take only powers of two, which pass this too
  }
  static constexpr bool kPacksFitLayout = packs_fit_layout(kPacksA) && packs_fit_layout(kPacksB);
  // MFMA: each lane reads one run of TileK / (64 / atom M) elements of a row, whole 16-byte packs.
  static constexpr int kMfmaRun = T::kK / (64 / (A::kM < 64 ? A::kM : 64));
  static constexpr bool kMfmaRunsWholePacks = !(MfmaAtom<MmaAtom> && kShapes) ||
                                              (kMfmaRun % (16 / int(sizeof(ElementA))) == 0 &&
                                               kMfmaRun % (16 / int(sizeof(ElementB))) == 0);
  // mma.sync: B fragments are loaded for pairs of atom columns; the cp.async mainloop
  // double-buffers fragments over at least two K-steps, and its copies spread whole rows of 16-byte
  // vectors over the threads, several rows a thread only in whole groups of 8 (the swizzle's
  // period). A row is an MN row of a K-contiguous operand, a k row of an MN-contiguous one.
  static constexpr bool copy_rows_fit(OperandMajor major, int tile_mn, int k_packs, int element_bytes) {
    int const packs = major == OperandMajor::kK ? k_packs : tile_mn * element_bytes / 16;
    int const rows = major == OperandMajor::kK ? tile_mn : T::kK;
    if (packs <= 0) return true;  // kTileKWholePacks / kTransposedTile say so
    if (kThreads % packs != 0) return false;
    return rows * packs == kThreads || (kThreads / packs) % 8 == 0;
  }
  static constexpr bool kMmaSyncFits =
      !((MmaSyncAtom<MmaAtom> || WarpgroupAtom<MmaAtom>) && kGeometry) ||
      (W::kN % (2 * A::kN) == 0 &&
       (!kNvidiaCopy || (T::kK / A::kK >= 2 && copy_rows_fit(kMajorA, T::kM, kPacksA, int(sizeof(ElementA))) &&
                         copy_rows_fit(kMajorB, T::kN, kPacksB, int(sizeof(ElementB))))));
  // Warpgroup MMAs read both operands from stages in the 128-byte swizzle: K-major ones of 128-byte
  // rows, and for 16-bit types MN-major ones too (kNvidiaCopy); four 16-row warps per 64-row
  // instruction, one stage running while the next computes.
  static constexpr bool kWarpgroupFits =
      !(WarpgroupAtom<MmaAtom> && kGeometry && kWarpgroupOnSm90) ||
      (kNvidiaCopy && W::kM == 16 && T::kM % 64 == 0 &&
       (W::kN == 64 || W::kN == 128 || W::kN == 192 || W::kN == 256) && T::kK * int(sizeof(ElementA)) == 128 &&
       T::kK * int(sizeof(ElementB)) == 128 && Stages >= 3);
  // NVIDIA, row-major D: the staged epilogue stores 16-byte runs of the wave tile's rows, every lane
  // one run a pass.
  static constexpr int kStoreVector = 16 / int(sizeof(ElementC));
  static constexpr bool kStagedEpilogueFits = !(kShapes && kWaveSize == 32 && LayoutC::kRowMajor) ||
                                              (W::kN % kStoreVector == 0 &&
                                               W::kM * W::kN % (kWaveSize * kStoreVector) == 0);

  // Every rule that does not need the components.
  static constexpr bool kRulesHold =
      kAtomKind && kFunctor && kShapes && kTileOrder && kFunctorOutput && kGeometry && kAtomTilesWaveM &&
      kAtomTilesWaveN && kAtomTilesTileK && kFp8FormatForArch && kAtomInputs && kAtomAccumulator && kMfmaOnWave64 &&
      kAtomOnArch && kMmaSyncOnNvidia && kWarpgroupOnSm90 &&
      kSimtOnWave && kStages && kThreadsFit && kAccumulatorsFit && kWholeVectors && kTransposedTileA &&
      kTransposedTileB &&
      kTileKWholePacks && kTileMNMultipleOf8 && kPacksFitLayout && kMfmaRunsWholePacks && kMmaSyncFits &&
      kWarpgroupFits && kStagedEpilogueFits;

  using Components = detail::GemmComponents<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, TileShape,
                                            WaveShape, MmaAtom, OutputOp, Stages>;
  // LDS: the mainloop's stages (and its barriers), then the epilogue's staging, within the workgroup's share.
  static constexpr std::size_t stage_bytes() {
    if constexpr (kRulesHold) return Components::Mainloop::kLdsBytes;
    return 0;
  }
  static constexpr std::size_t epilogue_bytes() {
    if constexpr (kRulesHold) return (kThreads / kWaveSize) * Components::Epilogue::kLdsBytesPerWave;
    return 0;
  }
  static constexpr bool kStagesFitLds = stage_bytes() <= std::size_t(Arch::kLdsBytesPerWorkgroup);
  static constexpr bool kEpilogueFitsLds = epilogue_bytes() <= std::size_t(Arch::kLdsBytesPerWorkgroup);

  static constexpr bool kValid = kRulesHold && kStagesFitLds && kEpilogueFitsLds;
};

// The rules with the messages a user reads. Instantiating it (device::Gemm does) reports the first
// broken rule; by GemmConditions' construction one mistake breaks one rule.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class ElementAccumulator, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp,
          class TileOrder, int Stages>
struct GemmConfigurationCheck
    : GemmConditions<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator, Arch, TileShape,
                     WaveShape, MmaAtom, OutputOp, TileOrder, Stages> {
  using C = GemmConditions<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator, Arch,
                           TileShape, WaveShape, MmaAtom, OutputOp, TileOrder, Stages>;
  // (Named through using-declarations, so the compiler's line shows the rule's short name.)
  using C::kAtomKind;
  static_assert(kAtomKind,
                "MmaAtom must be an MFMA atom (arch/mfma.hpp), an mma.sync atom (arch/mma_sync.hpp), a warpgroup "
                "MMA atom (arch/warpgroup_mma.hpp) or SimtFma (arch/simt_fma.hpp)");
  using C::kFunctor;
  static_assert(kFunctor,
                "OutputOp must satisfy epilogue::EpilogueFunctor (epilogue/functor_concept.hpp): a Params type, "
                "construction from it, is_source_needed(), static constexpr bool kNeedsSource, and ElementOutput "
                "operator()(float, float, float)");
  using C::kShapes;
  static_assert(kShapes,
                "TileShape and WaveShape must be GemmShape<M, N, K> with positive extents");
  using C::kTileOrder;
  static_assert(kTileOrder,
                "TileOrder must satisfy kernel::TileOrderType (gemm/kernel/tile_order.hpp): Params, static Status "
                "make_params(int, int, Params&) noexcept, and static TileCoord tile(Params const&, int)");
  using C::kFunctorOutput;
  static_assert(kFunctorOutput,
                "OutputOp's ElementOutput must be ElementC");
  using C::kWavesTileM;
  static_assert(kWavesTileM,
                "TileShape::kM must be a multiple of WaveShape::kM");
  using C::kWavesTileN;
  static_assert(kWavesTileN,
                "TileShape::kN must be a multiple of WaveShape::kN");
  using C::kWaveKIsTileK;
  static_assert(kWaveKIsTileK,
                "WaveShape::kK must equal TileShape::kK (waves split M and N only)");
  using C::kAtomTilesWaveM;
  static_assert(kAtomTilesWaveM,
                "WaveShape::kM must be a multiple of the MMA atom's M");
  using C::kAtomTilesWaveN;
  static_assert(kAtomTilesWaveN,
                "WaveShape::kN must be a multiple of the MMA atom's N");
  using C::kAtomTilesTileK;
  static_assert(kAtomTilesTileK,
                "TileShape::kK must be a multiple of the MMA atom's K");
  using C::kFp8FormatForArch;
  static_assert(kFp8FormatForArch,
                "the fp8 formats do not match Arch: gfx942 takes the FNUZ formats (float8_e4m3fnuz, "
                "float8_e5m2fnuz), NVIDIA the OCP ones (float8_e4m3fn, float8_e5m2)");
  using C::kAtomInputs;
  static_assert(kAtomInputs,
                "ElementA and ElementB must be the MMA atom's input types");
  using C::kAtomAccumulator;
  static_assert(kAtomAccumulator,
                "ElementAccumulator must be the MMA atom's accumulator type");
  using C::kMfmaOnWave64;
  static_assert(kMfmaOnWave64, "MFMA atoms need a wave64 architecture (Gfx942, Gfx90a): use an mma.sync atom on NVIDIA");
  using C::kAtomOnArch;
  static_assert(kAtomOnArch,
                "this MFMA instruction does not exist on gfx90a (MI200): fp8/bf8, xf32 and the 32x32x16 / 16x16x32 "
                "i8 forms need Arch = Gfx942");
  using C::kMmaSyncOnNvidia;
  static_assert(kMmaSyncOnNvidia, "mma.sync atoms need an NVIDIA architecture (Sm80, Sm90): use an MFMA atom on gfx9");
  using C::kWarpgroupOnSm90;
  static_assert(kWarpgroupOnSm90, "warpgroup MMA (wgmma) atoms need Arch = Sm90 (built for sm_90a)");
  using C::kSimtOnWave;
  static_assert(kSimtOnWave, "SimtFma's wave size must be the architecture's: SimtFma<Element, Arch::kWaveSize>");
  using C::kStages;
  static_assert(kStages,
                "Stages must be at least 1, and 2 on the cp.async path (one stage computes while the next lands)");
  using C::kThreadsFit;
  static_assert(kThreadsFit,
                "TileShape / WaveShape gives more than 1024 threads: use larger wave tiles");
  using C::kAccumulatorsFit;
  static_assert(kAccumulatorsFit,
                "the wave tile needs more than 256 accumulator registers per lane: use a smaller WaveShape");
  using C::kWholeVectors;
  static_assert(kWholeVectors,
                "each thread must load whole 16-byte vectors of A and B: grow the tile or shrink the waves");
  using C::kTransposedTileA;
  static_assert(kTransposedTileA,
                "A is column-major (M-contiguous): its transposing loader needs TileShape::kM >= 64, whole 16-byte "
                "vectors (a multiple of 16 / sizeof(ElementA))");
  using C::kTransposedTileB;
  static_assert(kTransposedTileB,
                "B is row-major (N-contiguous): its transposing loader needs TileShape::kN >= 64, whole 16-byte "
                "vectors (a multiple of 16 / sizeof(ElementB))");
  using C::kTileKWholePacks;
  static_assert(kTileKWholePacks,
                "TileShape::kK must be whole 16-byte packs of A and B (a multiple of 8 for f16/bf16, 4 for f32)");
  using C::kTileMNMultipleOf8;
  static_assert(kTileMNMultipleOf8,
                "TileShape::kM and TileShape::kN must be multiples of 8");
  using C::kPacksFitLayout;
  static_assert(kPacksFitLayout,
                "TileShape::kK does not fit the LDS layout: gfx9 needs at most 8 or a multiple of 8 16-byte packs "
                "per row (kK * sizeof(Element) <= 128 or a multiple of 128), the NVIDIA cp.async layout a power "
                "of two of at least 2 (32, 64, 128 ... bytes)");
  using C::kMfmaRunsWholePacks;
  static_assert(kMfmaRunsWholePacks,
                "TileShape::kK is too small for the MFMA atom: each lane reads kK / (64 / atom M) elements of a "
                "row, which must be whole 16-byte packs: raise TileShape::kK");
  using C::kMmaSyncFits;
  static_assert(kMmaSyncFits,
                "the mma.sync or warpgroup MMA tile does not fit its copies: WaveShape::kN must be a multiple of "
                "16, and with cp.async TileShape::kK must hold two atom K-steps and each operand's rows of 16-byte "
                "vectors (MN rows, or k rows of an MN-contiguous operand) must spread over the threads in groups "
                "of 8");
  using C::kWarpgroupFits;
  static_assert(kWarpgroupFits,
                "the warpgroup MMA tile does not fit: it needs row-major A and column-major B (K-contiguous; "
                "16-bit types may also be MN-contiguous), "
                "WaveShape::kM = 16 (four warps per 64-row instruction), TileShape::kM a multiple of 64, "
                "WaveShape::kN of 64, 128, 192 or 256, 128-byte K rows (TileShape::kK = 64 for f16/bf16, 128 for 8-bit "
                "types) and Stages >= 3");
  using C::kStagedEpilogueFits;
  static_assert(kStagedEpilogueFits,
                "the staged epilogue (NVIDIA, row-major D) needs WaveShape::kN to be whole 16-byte runs of "
                "ElementC, and the wave tile whole passes of the warp's 16-byte stores");
  using C::kStagesFitLds;
  static_assert(kStagesFitLds,
                "the LDS stages exceed the workgroup's LDS: reduce Stages, TileShape::kK or the tile");
  using C::kEpilogueFitsLds;
  static_assert(kEpilogueFitsLds,
                "the epilogue's staging area exceeds the workgroup's shared memory: use smaller wave tiles");
};

// The components device::Gemm is built from: those of the configuration when every rule holds,
// inert stand-ins otherwise (GemmConfigurationCheck then says what is wrong).
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class ElementAccumulator, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp_,
          class TileOrder, int Stages>
struct GemmConfiguration
    : std::conditional_t<
          GemmConditions<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator, Arch, TileShape,
                         WaveShape, MmaAtom, OutputOp_, TileOrder, Stages>::kValid,
          detail::GemmComponents<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, TileShape, WaveShape,
                                 MmaAtom, OutputOp_, Stages>,
          detail::PlaceholderComponents<
              ElementA, ElementB, ElementC,
              std::conditional_t<epilogue::EpilogueFunctor<OutputOp_>, OutputOp_, detail::PlaceholderOutputOp<ElementC>>,
              Arch::kWaveSize>> {
  static constexpr bool kValid =
      GemmConditions<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator, Arch, TileShape,
                     WaveShape, MmaAtom, OutputOp_, TileOrder, Stages>::kValid;
  // The output functor, or an inert one when OutputOp is not an EpilogueFunctor.
  using OutputOp =
      std::conditional_t<epilogue::EpilogueFunctor<OutputOp_>, OutputOp_, detail::PlaceholderOutputOp<ElementC>>;
  // The tile order, or the row-major one when TileOrder is not a TileOrderType.
  using Order = std::conditional_t<kernel::TileOrderType<TileOrder>, TileOrder, kernel::RowMajorTileOrder>;
};

}  // namespace hiptile::gemm::device
