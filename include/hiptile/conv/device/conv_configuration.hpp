#pragma once
// ConvComponents: what an implicit-GEMM convolution is built from — the wave MMA, mainloop and
// epilogue GEMM's builders give (gemm/collective/builder.hpp) and GEMM's kernel, with the
// convolution's loaders (conv_loaders.hpp; NVIDIA's tensor copies in
// conv/collective/nvidia/tensor_copy_loaders.hpp) and output mapping in place of the matrix ones.
//
// The rules a configuration must meet are GEMM's (gemm_configuration.hpp) for the GEMM operand
// layouts each operator's loaders have (ConvOperandLayouts), plus the convolution's own, checked
// by ConvConfigurationCheck with one message each.
#include <cstddef>
#include <type_traits>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_loaders.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/conv/packed_wgrad_output.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/gemm/collective/builder.hpp"
#include "hiptile/gemm/device/gemm_configuration.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/kernel/scheduler_for.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/split_k_reduction.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/conv/collective/nvidia/tensor_copy_loaders.hpp"
#endif

namespace hiptile::conv::device {

// The GEMM layouts of each operator's operands: which index of A (M × K) and B (K × N) is
// contiguous. Fprop: x and w are both channel- (K-) contiguous. Dgrad: dy is K-contiguous, w is
// C- (N-) contiguous. Wgrad: dy is K- (M-) contiguous, x C- (N-) contiguous.
template <ConvOperator Op>
struct ConvOperandLayouts {
  using A = std::conditional_t<Op == ConvOperator::kWgrad, layout::ColumnMajor, layout::RowMajor>;
  using B = std::conditional_t<Op == ConvOperator::kFprop, layout::ColumnMajor, layout::RowMajor>;
};

// The convolution's own rules, on top of GEMM's.
template <ConvOperator Op, class Element, class TileShape, class WaveShape, class Arch, class MmaAtom,
          IteratorAlgorithm Algorithm, int AccessElements>
struct ConvConfigurationCheck {
  static constexpr bool kAlgorithm = Algorithm == IteratorAlgorithm::kAnalytic ||
                                     Algorithm == IteratorAlgorithm::kPrecomputed ||
                                     Algorithm == IteratorAlgorithm::kTensorCopy ||
                                     Algorithm == IteratorAlgorithm::kFewChannels ||
                                     Algorithm == IteratorAlgorithm::kPackedGroups;
  static_assert(kAlgorithm,
                "Algorithm must be IteratorAlgorithm::kAnalytic, kPrecomputed, kTensorCopy, kFewChannels or "
                "kPackedGroups (kDirect is DepthwiseConvolution)");
  static constexpr bool kFewChannelsFprop = Algorithm != IteratorAlgorithm::kFewChannels || Op == ConvOperator::kFprop;
  static_assert(kFewChannelsFprop,
                "IteratorAlgorithm::kFewChannels packs Fprop's filter taps and channels into one K run: it is for "
                "ConvOperator::kFprop only");
  static constexpr bool kPackedGroupsOperator = Algorithm != IteratorAlgorithm::kPackedGroups ||
                                                Op != ConvOperator::kWgrad ||
                                                AccessElements == kVectorElements<Element>;
  static_assert(kPackedGroupsOperator,
                "Wgrad on IteratorAlgorithm::kPackedGroups reads both of its operands (dy and x, a batch's channels) in "
                "whole 16-byte vectors: AccessElements must be 16 / sizeof(Element)");
  static constexpr bool kTensorCopy = Algorithm == IteratorAlgorithm::kTensorCopy;
  static constexpr bool kTensorCopyTarget = !kTensorCopy || (std::is_same_v<Arch, arch::Sm90> &&
                                                             gemm::WarpgroupAtom<MmaAtom> && sizeof(Element) == 2);
  static_assert(kTensorCopyTarget,
                "IteratorAlgorithm::kTensorCopy is for arch::Sm90 with warpgroup MMAs (arch::WarpgroupMma) and "
                "16-bit elements; use kPrecomputed elsewhere");
  static constexpr bool kTensorCopyChannelBlock =
      !kTensorCopy || Op == ConvOperator::kWgrad || TileShape::kK * int(sizeof(Element)) == 128;
  static_assert(kTensorCopyChannelBlock,
                "Fprop's and Dgrad's tensor copies read one 64-channel block per K tile: TileShape::kK must be 64");
  static constexpr bool kTensorCopyTile =
      !kTensorCopy || (TileShape::kM % 64 == 0 && TileShape::kN % 64 == 0 && TileShape::kK <= 256);
  static_assert(kTensorCopyTile,
                "IteratorAlgorithm::kTensorCopy fills 64-channel blocks of at most 256 pixels: TileShape::kM and kN "
                "must be multiples of 64, kK at most 256");
  static constexpr bool kAccessDividesVector =
      AccessElements > 0 && kVectorElements<Element> % AccessElements == 0;
  static_assert(kAccessDividesVector,
                "AccessElements must divide the 16-byte vector: 1, 2, 4 or 8 for f16/bf16, 1, 2 or 4 for f32");
  static constexpr bool kPrecomputedWholeVectors =
      Algorithm == IteratorAlgorithm::kAnalytic || Algorithm == IteratorAlgorithm::kFewChannels ||
      Algorithm == IteratorAlgorithm::kPackedGroups || AccessElements == kVectorElements<Element>;
  static_assert(kPrecomputedWholeVectors,
                "the precomputed iterators and tensor copies read whole 16-byte vectors: AccessElements must be 16 / "
                "sizeof(Element); "
                "use IteratorAlgorithm::kAnalytic for narrower accesses (kPackedGroups: AccessElements is the "
                "filter's)");
  // Dgrad's B and both of Wgrad's operands are channel- (MN-) contiguous: GatheredTile transposes
  // them in units of two 16-byte vectors along MN.
  static constexpr int kThreads = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN) * Arch::kWaveSize;
  static constexpr bool mn_fits(int tile_mn) {
    int const vectors = tile_mn * TileShape::kK / kVectorElements<Element>;
    return tile_mn >= 64 && vectors % kThreads == 0 && (vectors / kThreads) % 2 == 0;
  }
  static constexpr bool kTransposedTiles = kTensorCopy || ((Op == ConvOperator::kFprop || mn_fits(TileShape::kN)) &&
                                                            (Op != ConvOperator::kWgrad || mn_fits(TileShape::kM)));
  static_assert(kTransposedTiles,
                "Dgrad's filter and Wgrad's operands are channel-contiguous: their tiles need TileShape::kN (Dgrad, "
                "Wgrad) and kM (Wgrad) of at least 64 and an even number of 16-byte vectors per thread (grow the "
                "tile or TileShape::kK)");
  // Warpgroup MMAs read cp.async stages (wave/warpgroup_wave_mma.hpp): Fprop's K-contiguous x and w,
  // Dgrad's and Wgrad's MN-contiguous operands through the instruction's transpose bit.
  static constexpr bool kWarpgroupOperands =
      !gemm::WarpgroupAtom<MmaAtom> || AccessElements == kVectorElements<Element>;
  static_assert(kWarpgroupOperands,
                "warpgroup MMA (wgmma) atoms read stages that cp.async fills with whole 16-byte vectors: "
                "AccessElements must be 16 / sizeof(Element)");
  static constexpr bool kTransposedElement =
      Op == ConvOperator::kFprop || sizeof(Element) == 2 || sizeof(Element) == 4;
  static_assert(kTransposedElement, "Dgrad and Wgrad transpose 2- or 4-byte elements only");
  static constexpr bool kValid = kAlgorithm && kFewChannelsFprop && kPackedGroupsOperator && kTensorCopyTarget && kTensorCopyChannelBlock &&
                                 kTensorCopyTile && kAccessDividesVector && kPrecomputedWholeVectors &&
                                 kTransposedTiles && kWarpgroupOperands && kTransposedElement;
};

template <ConvOperator Op, class Element, class ElementC, class Arch, class TileShape, class WaveShape, class MmaAtom,
          class OutputOp, IteratorAlgorithm Algorithm, int AccessElements, int Stages, RowDivision LoadDivision,
          RowDivision StoreDivision, gemm::kernel::SplitKMode SplitK>
struct ConvComponents {
  static constexpr int kThreads = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN) * Arch::kWaveSize;
  // A tile the cp.async path can serve: swizzled stages need power-of-two rows of at least 32 bytes
  // (K along a K-contiguous stage's rows, MN along an MN-contiguous one's) and whole vectors per thread.
  static constexpr bool power_of_two(int x) { return x > 0 && (x & (x - 1)) == 0; }
  static constexpr bool swizzle_fits(int tile_mn) {
    int const vector = kVectorElements<Element>;
    return power_of_two(tile_mn) && tile_mn >= 2 * vector && (tile_mn * TileShape::kK / vector) % kThreads == 0;
  }
  // NVIDIA mma.sync or warpgroup MMA with whole 16-byte accesses: cp.async straight into swizzled
  // stages, which the wave MMA reads with ldmatrix (K-contiguous operands) or ldmatrix.trans
  // (MN-contiguous ones), or wgmma reads itself, with the tiles in flight held by no registers.
  // Otherwise (gfx9, narrower accesses) the tiles pass through registers into the stages of
  // register_staged_lds_layout.hpp.
  // Tensor copies (ConvConfigurationCheck holds them to Sm90's warpgroup MMAs) need no thread's share.
  static constexpr bool kAsyncCopy = Algorithm == IteratorAlgorithm::kTensorCopy ||
                                     ((gemm::MmaSyncAtom<MmaAtom> || gemm::WarpgroupAtom<MmaAtom>) &&
                                      AccessElements == kVectorElements<Element> && sizeof(Element) == 2 &&
                                      TileShape::kK >= 32 && power_of_two(TileShape::kK) &&
                                      swizzle_fits(TileShape::kM) && swizzle_fits(TileShape::kN));
  using Loaders = ConvLoaders<Op, Element, TileShape::kM, TileShape::kN, TileShape::kK, kThreads, Algorithm,
                              AccessElements,
                              kAsyncCopy ? gemm::block::TileTransfer::kAsyncCopy
                                         : gemm::block::TileTransfer::kRegisterStaged>;
  using LoaderA = typename Loaders::A;
  using LoaderB = typename Loaders::B;
  using Mainloops = gemm::collective::MainloopBuilder<typename Arch::Family, MmaAtom, LoaderA, LoaderB, TileShape,
                                                     WaveShape, Stages>;
  using WaveMma = typename Mainloops::WaveMma;
  using Mainloop = typename Mainloops::Mainloop;
  // (Wgrad on packed groups stores a batch's diagonal blocks only.)
  using Output = std::conditional_t<
      Op == ConvOperator::kDgrad, DgradOutput<ElementC, LoadDivision, StoreDivision>,
      std::conditional_t<Op == ConvOperator::kWgrad && Algorithm == IteratorAlgorithm::kPackedGroups,
                         PackedWgradOutput<ElementC>, epilogue::MatrixOutput<ElementC, layout::RowMajor>>>;
  // GEMM's builders (an NHWC output's rows are contiguous): NVIDIA stores rows through shared memory,
  // gfx9 straight from the registers.
  template <class Out, class Functor>
  using EpilogueFor = typename gemm::collective::EpilogueBuilder<typename Arch::Family, WaveMma, TileShape, Out, Functor,
                                                                 /*kScales=*/false, /*kContiguousRows=*/true>::Epilogue;
  // Parallel split-K: the kernel stores each slice's fp32 partial sums (α = 1, β = 0 is exact), the
  // reduction applies the output op through the output mapping. Serial split-K's last slice runs
  // the epilogue itself.
  static constexpr bool kParallelSplitK = SplitK == gemm::kernel::SplitKMode::kParallel;
  using PartialOutput = epilogue::MatrixOutput<float, layout::RowMajor>;
  using Epilogue = std::conditional_t<kParallelSplitK, EpilogueFor<PartialOutput, epilogue::LinearCombination<float>>,
                                      EpilogueFor<Output, OutputOp>>;
  using Scheduler = gemm::kernel::SchedulerFor<SplitK, gemm::kernel::RowMajorTileOrder, typename Mainloop::Accumulators,
                                               Mainloop::kThreads, /*kBatched=*/true>;
  using Kernel = typename gemm::collective::KernelBuilder<typename Arch::Family, TileShape, WaveShape, Mainloop,
                                                          Epilogue, Scheduler>::Kernel;
  using Reduction = gemm::kernel::SplitKReduction<Output, OutputOp>;
};

// What ImplicitGemmConvolution reads of its components, inert: the stand-ins for a configuration
// that failed a rule (GEMM's or ConvConfigurationCheck's), so that the failed rule's message is the
// only error (as gemm::device::detail::PlaceholderComponents for GEMM).
template <ConvOperator Op, class Element, class ElementC, class TileShape, class WaveShape, class OutputOp,
          gemm::kernel::SplitKMode SplitK, int WaveSize>
struct ConvPlaceholderComponents {
  using Gemm = gemm::device::detail::PlaceholderComponents<Element, Element, ElementC, OutputOp, WaveSize>;
  using WaveMma = typename Gemm::WaveMma;
  struct Loader {
    using Params = ConvOperand<Element>;
    using Problem = ConvGeometry;
    static bool offsets_fit(Params const&, ConvGeometry const&) { return true; }
  };
  using LoaderA = Loader;
  using LoaderB = Loader;
  struct Mainloop : Gemm::Mainloop {
    using Problem = ConvGeometry;
    struct Params {
      ConvOperand<Element> a;
      ConvOperand<Element> b;
    };
    HIPTILE_DEVICE static void run(typename Gemm::Mainloop::Accumulators&, Params const&, ConvGeometry const&,
                                   gemm::TileWork const&, std::byte*, int) {}
  };
  using Output = std::conditional_t<Op == ConvOperator::kDgrad, DgradOutput<ElementC>,
                                    epilogue::MatrixOutput<ElementC, layout::RowMajor>>;
  template <class Out, class Functor>
  struct EpilogueOf {
    using Params = typename epilogue::DirectStoreEpilogue<WaveMma, Out, Functor>::Params;
    using Problem = gemm::ProblemOf<Out>;
    static constexpr std::size_t kLdsBytesPerWave = 0;
    template <class RowValues = epilogue::NoRowValues>
    HIPTILE_DEVICE static void run(typename WaveMma::Accumulators const&, Params const&, Problem const&,
                                   gemm::TileWork const&, int, int, int, std::byte*, RowValues const& = {}) {}
  };
  static constexpr bool kParallelSplitK = SplitK == gemm::kernel::SplitKMode::kParallel;
  using Epilogue =
      std::conditional_t<kParallelSplitK,
                         EpilogueOf<epilogue::MatrixOutput<float, layout::RowMajor>, epilogue::LinearCombination<float>>,
                         EpilogueOf<Output, OutputOp>>;
  using Scheduler = gemm::kernel::SchedulerFor<SplitK, gemm::kernel::RowMajorTileOrder, typename Mainloop::Accumulators,
                                               Mainloop::kThreads, /*kBatched=*/true>;
  using Kernel = gemm::kernel::GemmKernel<TileShape, WaveShape, Mainloop, Epilogue, Scheduler>;
  using Reduction = gemm::kernel::SplitKReduction<Output, OutputOp>;
};

}  // namespace hiptile::conv::device
