#pragma once
// ImplicitGemmConvolution: the device-level convolution operator — Fprop, Dgrad or Wgrad of a 2-D
// (One operator's whole host side for three operators and two iterator families — its checks, the
// plan that builds the geometry and tensor maps once, the launches, the log: over 400 lines.)
// or 3-D convolution as an implicit GEMM, built from GEMM's mainloop, wave MMAs and epilogues.
//
//   using Conv = hiptile::conv::device::ImplicitGemmConvolution<
//       ConvOperator::kFprop, half_t, half_t, float, arch::Gfx942, GemmShape<128, 128, 32>,
//       GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, epilogue::LinearCombination<half_t>,
//       IteratorAlgorithm::kPrecomputed, 8, 2>;
//   Conv::Arguments args{problem, x, w, nullptr, y, {alpha, beta}};
//   Status s = Conv::can_implement(args);
//   Conv op; op.initialize(args); op.run(stream);
//
// The operands, in the implicit GEMM's roles (CUTLASS's docs, "Implicit GEMM Convolution"):
//
//   operator  a    b    d    M               N              K
//   Fprop     x    w    y    N·Z·P·Q         K/groups       T·R·S·C/groups
//   Dgrad     dy   w    dx   N·D·H·W         C/groups       T·R·S·K/groups
//   Wgrad     dy   x    dw   K/groups        T·R·S·C/groups N·Z·P·Q
//
// x and dx are NDHWC, y and dy NZPQK, w and dw KTRSC (C/groups channels): packed, channels
// innermost. c, when the output op reads it (β ≠ 0), is a tensor shaped like d (it may be d itself);
// the bias, when given, has one element per channel of d (Wgrad: per output filter k).
// The launch has one grid row per group (and, for strided Dgrad, per row class with filter taps).
// A strided Dgrad whose stride exceeds the filter has row classes without taps: their rows are
// op(0, C, bias), written by a second kernel, TaplessClassFill, launched first.
//
// SplitK = SplitKMode::kParallel or kSerial splits every tile's K loop over
// Arguments::split_k_slices workgroups (Wgrad's K is all N·Z·P·Q output pixels), with a workspace
// of get_workspace_size(args) bytes given in Arguments. Parallel: each slice writes fp32 partial
// sums, and a second kernel adds them in slice order and applies the epilogue. Serial: the slices
// of a tile take turns adding into the workspace, and the last applies the epilogue. Both add in
// slice order, so results are the same run to run (and the same in both).
//
// SplitK = SplitKMode::kPersistent launches no workgroup per tile but a grid of the workgroups the
// device holds at once (Arguments::workgroups, or the device's count when 0), each walking tiles
// w, w + grid, ... of every batch (gemm/kernel/persistent_scheduler.hpp): for problems of many
// short tiles (a strided Dgrad's row classes, small channel counts) whose launch and set-up per
// workgroup weigh on each tile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <variant>

#include "hiptile/arch/device_check.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/conv_arguments.hpp"
#include "hiptile/conv/device/conv_configuration.hpp"
#include "hiptile/conv/device/conv_log.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/conv/tapless_class_fill.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/gemm/device/gemm_configuration.hpp"
#include "hiptile/gemm/device/split_k_workspace.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/gemm/device/device_operator.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::conv::device {

template <ConvOperator Op, class Element_, class ElementC_, class ElementAccumulator_, class Arch, class TileShape,
          class WaveShape, class MmaAtom, class OutputOp, IteratorAlgorithm Algorithm, int AccessElements, int Stages,
          RowDivision LoadDivision = RowDivision::kFast, RowDivision StoreDivision = RowDivision::kFast,
          gemm::kernel::SplitKMode SplitK = gemm::kernel::SplitKMode::kNone>
class ImplicitGemmConvolution : public gemm::device::DeviceOperator<ImplicitGemmConvolution<
                                    Op, Element_, ElementC_, ElementAccumulator_, Arch, TileShape, WaveShape, MmaAtom,
                                    OutputOp, Algorithm, AccessElements, Stages, LoadDivision, StoreDivision, SplitK>> {
  // GEMM's rules, as for K-contiguous operands: the convolution's own MN-contiguous loaders
  // (GatheredTile) are not GEMM's transposing TileLoader, and ConvConfigurationCheck has their rules.
  static_assert(sizeof(gemm::device::GemmConfigurationCheck<Element_, layout::RowMajor, Element_,
                                                            layout::ColumnMajor, ElementC_, layout::RowMajor,
                                                            ElementAccumulator_, Arch, TileShape, WaveShape, MmaAtom,
                                                            OutputOp, gemm::kernel::RowMajorTileOrder, Stages>) > 0);
  static_assert(
      sizeof(ConvConfigurationCheck<Op, Element_, TileShape, WaveShape, Arch, MmaAtom, Algorithm, AccessElements>) > 0);
  static_assert(Algorithm != IteratorAlgorithm::kDirect,
                "ImplicitGemmConvolution: IteratorAlgorithm::kDirect is no implicit GEMM; DepthwiseConvolution is the "
                "direct convolution (conv/device/depthwise_convolution.hpp)");
  static_assert(SplitK != gemm::kernel::SplitKMode::kStreamK,
                "ImplicitGemmConvolution: stream-K is GEMM's (one problem); use SplitKMode::kSerial or kParallel");
  // (Inert stand-ins where a rule failed: its message above is then the only error.)
  static constexpr bool kValidConfiguration =
      gemm::device::GemmConditions<Element_, layout::RowMajor, Element_, layout::ColumnMajor, ElementC_,
                                   layout::RowMajor, ElementAccumulator_, Arch, TileShape, WaveShape, MmaAtom,
                                   OutputOp, gemm::kernel::RowMajorTileOrder, Stages>::kValid &&
      ConvConfigurationCheck<Op, Element_, TileShape, WaveShape, Arch, MmaAtom, Algorithm, AccessElements>::kValid;
  using Components = std::conditional_t<
      kValidConfiguration,
      ConvComponents<Op, Element_, ElementC_, Arch, TileShape, WaveShape, MmaAtom, OutputOp, Algorithm, AccessElements,
                     Stages, LoadDivision, StoreDivision, SplitK>,
      ConvPlaceholderComponents<Op, Element_, ElementC_, TileShape, WaveShape, OutputOp, SplitK, Arch::kWaveSize>>;

 public:
  static constexpr ConvOperator kOperator = Op;
  static constexpr IteratorAlgorithm kAlgorithm = Algorithm;
  static constexpr int kAccessElements = AccessElements;  // channels per access of a and b
  static constexpr int kStages = Stages;
  static constexpr RowDivision kLoadDivision = LoadDivision;
  static constexpr RowDivision kStoreDivision = StoreDivision;
  static constexpr gemm::kernel::SplitKMode kSplitK = SplitK;
  static constexpr bool kParallelSplitK = Components::kParallelSplitK;
  static constexpr bool kPersistent = SplitK == gemm::kernel::SplitKMode::kPersistent;
  // This configuration with split-K mode `Mode` (kSerial, kParallel, kPersistent): e.g.
  // DefaultConvolutionConfiguration<…>::WithSplitK<SplitKMode::kSerial>, without spelling out its 15
  // parameters.
  template <gemm::kernel::SplitKMode Mode>
  using WithSplitK = ImplicitGemmConvolution<Op, Element_, ElementC_, ElementAccumulator_, Arch, TileShape, WaveShape,
                                             MmaAtom, OutputOp, Algorithm, AccessElements, Stages, LoadDivision,
                                             StoreDivision, Mode>;
  using Element = Element_;    // a and b
  using ElementC = ElementC_;  // c, d and the bias
  using ElementAccumulator = ElementAccumulator_;
  using ArchTag = Arch;
  using TileShapeType = TileShape;
  using WaveShapeType = WaveShape;
  using MmaAtomType = MmaAtom;
  using OutputOpType = OutputOp;
  using LoaderA = typename Components::LoaderA;
  using LoaderB = typename Components::LoaderB;
  using Output = typename Components::Output;
  using Mainloop = typename Components::Mainloop;
  using Epilogue = typename Components::Epilogue;
  using Kernel = typename Components::Kernel;
  using Reduction = typename Components::Reduction;  // parallel split-K's second kernel
  // Dgrad: the rows of the row classes without filter taps (tapless_class_fill.hpp).
  using TaplessFill = TaplessClassFill<ElementC, LoadDivision, StoreDivision, OutputOp>;
  using Workspace = gemm::device::SplitKWorkspace<SplitK, typename Kernel::Partials>;
  // (The warp-specialised kernel has more threads than its mainloop: a producer warpgroup.)
  static constexpr int kThreads = Kernel::kMaxThreadsPerBlock;
  static constexpr std::size_t kLdsBytes = Kernel::kLdsBytes;
  static_assert(kLdsBytes <= std::size_t(Arch::kLdsBytesPerWorkgroup),
                "the LDS stages exceed the workgroup's LDS: reduce Stages, TileShape::kK or the tile");
  static constexpr std::int64_t kMaxWorkgroups =
      std::min<std::int64_t>(gemm::kernel::kMaxTiles, std::int64_t(max_grid_extent(0, unsigned(kThreads))));
  // The bytes of one access of a and of b (packed groups: a's in whole 16-byte vectors).
  static constexpr int kVector = 16 / int(sizeof(Element_));
  static constexpr std::size_t kAccessBytesA =
      std::size_t(Algorithm == IteratorAlgorithm::kPackedGroups ? kVector : AccessElements) * sizeof(Element_);
  static constexpr std::size_t kAccessBytesB = std::size_t(AccessElements) * sizeof(Element_);
  static constexpr bool kPackedWgrad = Algorithm == IteratorAlgorithm::kPackedGroups && Op == ConvOperator::kWgrad;
  // Filter taps per dimension (Dgrad: per row class) the precomputed iterators' masks can hold.
  static constexpr int kMaxPrecomputedFilterExtent = 32;

  // The same for every configuration of these types and output functor (conv_arguments.hpp).
  using Arguments = ConvArguments<Element, ElementC, typename OutputOp::Params>;
  static constexpr char const* kName = "ImplicitGemmConvolution";

 private:
  struct Launch {
    int gemm_m = 0, gemm_n = 0;  // one batch's GEMM extents (Dgrad: the largest class's rows)
    int tiles_m = 0, tiles_n = 0;
    std::int64_t tiles = 0;
    std::int64_t batches = 0;
  };
  using FillParams = std::conditional_t<Op == ConvOperator::kDgrad, typename TaplessFill::Params, std::monostate>;
  friend class gemm::device::DeviceOperator<ImplicitGemmConvolution>;

  // What the checks build that initialize() uses again (DeviceOperator): the geometry and its
  // divisors, the launch's shape, the loaders' parameters (the tensor copies' maps, encoded once) and
  // Dgrad's tap-less fill.
  struct Plan {
    ConvGeometry geometry;
    Launch launch;
    typename LoaderA::Params a{};
    typename LoaderB::Params b{};
    FillParams fill{};
  };

  // The checks (can_implement, in the order of docs/conv.md's table), keeping what they built.
  static Status plan(Arguments const& args, Plan& plan) noexcept {
    ConvProblemSize const& p = args.problem;
    if (Status const s = p.check(); !ok(s)) return s;
    if (Op == ConvOperator::kDgrad) {
      for (int i = 0; i < 3; ++i) {
        if (p.stride[i] > 1 && p.dilation[i] > 1) return Status::kErrorDilatedStridedDgrad;
      }
    }
    if (Status const s = Workspace::check_slices(args.split_k_slices); !ok(s)) return s;
    if (args.workgroups < 0) return Status::kErrorInvalidProblem;
    if (args.workgroups != 0 && !kPersistent) return Status::kErrorNotSupported;
    bool const source = OutputOp(args.output_op).is_source_needed();
    if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (source && args.c == nullptr)) {
      return Status::kErrorNullPointer;
    }
    // The channel runs each loader reads in one access: C/groups for x and w (Fprop, Wgrad's x,
    // Dgrad's w), K/groups for dy (Dgrad, Wgrad).
    int const cg = p.c / p.groups;
    int const kg = p.k / p.groups;
    // (Packed groups: a GEMM batch of `pack` groups, whose problem is `batch`. Wgrad reads a
    // batch's channels: several groups' together.)
    int const pack = groups_per_batch(p);
    ConvProblemSize batch = p;
    batch.groups /= pack;
    bool const channels = channels_multiple_of(kPackedWgrad ? batch : p, AccessElements);
    // Tensor copies read 128-byte blocks of channels, each of one filter tap and group: of x
    // (Fprop and Wgrad, C/groups) or of dy (Dgrad, K/groups). Fprop's and Dgrad's last block may be
    // partial when there is one group: the copy engine reads the channels past C (K) as zeros, which
    // zero whatever the filter's box holds there. Wgrad writes each block to 64 columns of dw, and
    // with groups a block's next channels are the next group's: there whole blocks only.
    int const block_channels = Op == ConvOperator::kDgrad ? kg : cg;
    bool const whole_blocks = block_channels * sizeof(Element) % 128 == 0;
    bool const partial_last_block =
        Op != ConvOperator::kWgrad && p.groups == 1 && block_channels * sizeof(Element) >= 128;
    bool const blocks = Algorithm != IteratorAlgorithm::kTensorCopy || whole_blocks || partial_last_block;
    // Packed groups read a batch's activation-side channels (Fprop C, Dgrad K: its groups' together)
    // in whole vectors, AccessElements being the filter's access.
    bool const packed_vectors = Algorithm != IteratorAlgorithm::kPackedGroups || kPackedWgrad ||
                                std::int64_t(pack) * (Op == ConvOperator::kDgrad ? kg : cg) % kVector == 0;
    if (!channels || !blocks || !packed_vectors) return Status::kErrorChannelsNotAligned;
    // The precomputed and few-channel iterators keep one mask bit per filter tap (Dgrad: per tap of
    // a row class).
    if ((Algorithm == IteratorAlgorithm::kPrecomputed || Algorithm == IteratorAlgorithm::kFewChannels ||
         Algorithm == IteratorAlgorithm::kPackedGroups) &&
        !precomputed_taps_fit(p)) {
      return Status::kErrorNotSupported;
    }
    if (!aligned(args.a, kAccessBytesA) || !aligned(args.b, kAccessBytesB) || !aligned(args.d, alignof(ElementC)) ||
        (source && !aligned(args.c, alignof(ElementC))) ||
        (args.bias != nullptr && !aligned(args.bias, alignof(ElementC)))) {
      return Status::kErrorMisalignedOperand;
    }
    // The kernel indexes GEMM rows, columns and K, and pixels, in int (a batch's GEMM: packed
    // groups widen its N and K).
    auto const gemm = batch.implicit_gemm(Op);
    std::int64_t const pixels_in = std::int64_t(p.n) * p.input[0] * p.input[1] * p.input[2];
    auto const fits_int = [](std::int64_t v, int tile) { return v <= INT32_MAX && round_up_fits(int(v), tile); };
    if (!fits_int(gemm.m, TileShape::kM) || !fits_int(gemm.n, TileShape::kN) ||
        !fits_int(gemm.k + TileShape::kK * std::int64_t(p.filter[0]) * p.filter[1] * p.filter[2], TileShape::kK) ||
        !fits_int(pixels_in, 1)) {
      return Status::kErrorIndexOverflow;
    }
    Ranges const r = ranges(args, source);
    if (!r.a.addressable() || !r.b.addressable() || !r.c.addressable() || !r.d.addressable() ||
        !r.bias.addressable()) {
      return Status::kErrorIndexOverflow;
    }
    ConvGeometry& geometry = plan.geometry;
    if (Status const s = ConvGeometry::make(p, Op == ConvOperator::kDgrad, geometry, pack); !ok(s)) return s;
    // (Tensor copies: whether the copy engine's tensor maps describe the operands.)
    plan.a = operand_a(args, geometry);
    plan.b = operand_b(args, geometry);
    if (!gemm::block::loader_offsets_fit<LoaderA>(plan.a, geometry) ||
        !gemm::block::loader_offsets_fit<LoaderB>(plan.b, geometry)) {
      return Algorithm == IteratorAlgorithm::kTensorCopy ? Status::kErrorTensorCopyLimits
                                                         : Status::kErrorOperandTooLarge;
    }
    bool const in_place = static_cast<void const*>(args.c) == args.d;
    if (r.d.overlaps(r.a) || r.d.overlaps(r.b) || r.d.overlaps(r.bias) || (!in_place && r.d.overlaps(r.c))) {
      return Status::kErrorAliasedOperand;
    }
    // The output functor's declared device pointers (fp8 scales, amax): operands too.
    if (Status const s = epilogue::check_functor_pointers<OutputOp>(args.output_op, {r.a, r.b, r.c, r.bias}, r.d);
        !ok(s)) {
      return s;
    }
    Launch const l = plan.launch = launch_shape(geometry);
    if (l.tiles > kMaxWorkgroups || std::uint64_t(l.batches) > max_grid_extent(1, 1) ||
        (kParallelSplitK && std::uint64_t(Reduction::blocks(l.gemm_m, l.gemm_n)) >
                                max_grid_extent(0, unsigned(Reduction::kMaxThreadsPerBlock)))) {
      return Status::kErrorGridTooLarge;
    }
    if constexpr (Op == ConvOperator::kDgrad) {
      typename TaplessFill::Params& fill = plan.fill;
      if (Status const s = TaplessFill::make(output(args, geometry), geometry, args.bias, args.output_op, fill);
          !ok(s)) {
        return s;
      }
      if (std::uint64_t(TaplessFill::blocks(fill)) > max_grid_extent(0, unsigned(TaplessFill::kMaxThreadsPerBlock)) ||
          std::uint64_t(TaplessFill::batches(geometry)) > max_grid_extent(1, 1)) {
        return Status::kErrorGridTooLarge;
      }
    }
    auto const functor = epilogue::functor_ranges<OutputOp>(args.output_op);
    return Workspace::check(args.workspace, args.workspace_bytes, workspace_bytes(args, l),
                            {r.a, r.b, r.c, r.d, r.bias}, functor);
  }

 public:
  // A split count for split-K: enough slices that the launch has about
  // `target_workgroups` workgroups (two per CU or SM is a good target: the device's count, queried),
  // but every slice keeps at least kMinKTilesPerSlice K tiles, so the partial sums' traffic stays
  // small beside the math. 1 when the tiles alone fill the target, or for a problem check() refuses.
  static constexpr int kMinKTilesPerSlice = 8;
  static int split_k_slices_for(ConvProblemSize const& p, std::int64_t target_workgroups) noexcept {
    ConvGeometry geometry;
    if (!ok(p.check()) || !ok(ConvGeometry::make(p, Op == ConvOperator::kDgrad, geometry, groups_per_batch(p)))) {
      return 1;
    }
    Launch const l = launch_shape(geometry);
    auto const gemm = geometry.problem.implicit_gemm(Op);
    std::int64_t const k_tiles = ceil_div<std::int64_t>(gemm.k, TileShape::kK);
    std::int64_t const wanted = ceil_div<std::int64_t>(target_workgroups, std::max<std::int64_t>(1, l.tiles * l.batches));
    std::int64_t const most = std::max<std::int64_t>(1, k_tiles / kMinKTilesPerSlice);
    return int(std::clamp<std::int64_t>(wanted, 1, std::min<std::int64_t>(most, 65535)));
  }

  // Bytes of workspace the arguments need (split_k_workspace.hpp): split-K's partial sums (and
  // serial split-K's flags), 0 without split-K (and 0 for arguments can_implement refuses
  // for another reason).
  static std::size_t get_workspace_size(Arguments const& args) noexcept {
    ConvGeometry geometry;
    if (!ok(args.problem.check()) ||
        !ok(ConvGeometry::make(args.problem, Op == ConvOperator::kDgrad, geometry, groups_per_batch(args.problem)))) {
      return 0;
    }
    return workspace_bytes(args, launch_shape(geometry));
  }

 private:
  // The kernel's Params from what the checks built (DeviceOperator::initialize).
  Status build(Arguments const& args, Plan const& plan) noexcept {
    Launch const& l = plan.launch;
    typename Kernel::Params params{};
    gemm::kernel::ScheduleShape shape;
    shape.tiles_m = l.tiles_m;
    shape.tiles_n = l.tiles_n;
    shape.batches = int(l.batches);
    shape.slices = args.split_k_slices;
    if constexpr (kPersistent) {
      std::int64_t workgroups = 0;  // the arguments', or as many as the device holds at once
      if (Status const q = workgroups_or_device<Kernel>(args.workgroups, unsigned(kThreads), kLdsBytes, workgroups);
          !ok(q)) {
        return q;
      }
      shape.workgroups = int(std::min<std::int64_t>(workgroups, kMaxWorkgroups));
    }
    params.problem = plan.geometry;  // (once: the loaders and the output mapping read it there)
    params.mainloop.a = plan.a;
    params.mainloop.b = plan.b;
    typename Output::Params const out = output(args, plan.geometry);
    epilogue::BiasMode const bias_mode = args.bias == nullptr            ? epilogue::BiasMode::kNone
                                         : Op == ConvOperator::kWgrad ? epilogue::BiasMode::kPerRow
                                                                         : epilogue::BiasMode::kPerColumn;
    auto& e = params.epilogue;
    gemm::device::FlagReset flags;
    if constexpr (kParallelSplitK) {
      // The kernel writes each slice's partials through a MatrixOutput<float> (batch b, slice s at
      // (b · slices + s) · M · N of the workspace); the reduction reads them and writes d.
      std::int64_t const matrix = std::int64_t(l.gemm_m) * l.gemm_n;
      float* const partials = Workspace::partials(args.workspace);
      e.output = {nullptr, 0, partials, l.gemm_n, l.gemm_m, l.gemm_n, matrix, 0};
      e.op = {1.0f, 0.0f};
      reduction_ = {partials, l.gemm_m, l.gemm_n, args.split_k_slices, out, args.bias, bias_mode, args.output_op};
      if constexpr (Op == ConvOperator::kDgrad || kPackedWgrad) {
        reduction_.problem = plan.geometry;  // (DgradOutput and PackedWgradOutput read it)
      }
    } else {
      e.output = out;
      e.bias = args.bias;
      e.bias_mode = bias_mode;
      e.op = args.output_op;
      std::int64_t const slots = Workspace::slots(args.split_k_slices, {l.tiles, l.batches});
      typename Kernel::Partials::Params const partials = Workspace::partial_tiles(args.workspace, slots);
      flags = {partials.flags, slots};
      shape.flags = partials.flags;
      shape.partial_tiles = partials.tiles;
    }
    if (Status const s = Components::Scheduler::make_params(shape, params.scheduler); !ok(s)) return s;
    grid_ = Components::Scheduler::grid(shape);
    this->flag_reset_ = flags;
    params_ = params;
    fill_ = plan.fill;
    launch_ = l;
    problem_ = args.problem;
    return Status::kSuccess;
  }

  // Dgrad with row classes without taps: TaplessClassFill (grid: row blocks × groups · classes).
  // Then the convolution kernel (grid: tiles × batches × K slices), then with parallel split-K the
  // reduction (grid: element blocks × batches), on the same stream.
  Status launch_kernels(Stream stream) const noexcept {
    if constexpr (Op == ConvOperator::kDgrad) {
      if (std::int64_t const blocks = TaplessFill::blocks(fill_); blocks > 0) {
        LaunchConfig const fill{{unsigned(blocks), unsigned(TaplessFill::batches(fill_.geometry))},
                                {unsigned(TaplessFill::kMaxThreadsPerBlock)},
                                0,
                                stream};
        if (Status const s = launch<TaplessFill>(fill, fill_); !ok(s)) return s;
      }
    }
    LaunchConfig const config{grid_, {unsigned(kThreads)}, kLdsBytes, stream};
    Status const s = launch<Kernel>(config, params_);
    if constexpr (!kParallelSplitK) {
      return s;
    } else {  // (a discarded branch: other configurations never instantiate the reduction)
      if (!ok(s)) return s;
      return launch<Reduction>(Reduction::launch_config(reduction_, launch_.batches, stream), reduction_);
    }
  }

  // The output functor's parameters as build() placed them (the reduction's with parallel split-K).
  typename OutputOp::Params const& output_op() const noexcept {
    if constexpr (kParallelSplitK) {
      return reduction_.op;
    } else {
      return params_.epilogue.op;
    }
  }

  // The log's words (conv_log.hpp) and lines.
  static std::string problem_text(Arguments const& args) { return conv_problem_text(Op, args.problem); }
  static std::string configuration_text() { return conv_configuration_name<ImplicitGemmConvolution>(); }
  // The refusal in the convolution's words where Status's sentence speaks of GEMM or of another
  // iterator: which tensor is misaligned and to what, which channel count and what it must divide.
  void log_refusal(Arguments const& args, Plan const&, Status s) const {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << "convolution " << problem_text(args) << " refused by " << configuration_text() << ": ";
      ConvProblemSize const& p = args.problem;
      if (s == Status::kErrorMisalignedOperand) {
        os << "misaligned tensor:";
        if (!aligned(args.a, kAccessBytesA)) os << " a not " << kAccessBytesA << "-byte aligned (the iterator's access);";
        if (!aligned(args.b, kAccessBytesB)) os << " b not " << kAccessBytesB << "-byte aligned (the iterator's access);";
        if (OutputOp(args.output_op).is_source_needed() && !aligned(args.c, alignof(ElementC))) {
          os << " c not aligned to its element;";
        }
        if (!aligned(args.d, alignof(ElementC))) os << " d not aligned to its element;";
        if (!aligned(args.bias, alignof(ElementC))) os << " bias not aligned to its element;";
        os << " (or a workspace or output functor pointer: docs/conv.md)";
      } else if (s == Status::kErrorChannelsNotAligned) {
        os << "channels per group C " << p.c_per_group() << (Op == ConvOperator::kFprop ? "" : ", K ")
           << (Op == ConvOperator::kFprop ? std::string() : std::to_string(p.k_per_group())) << " are not multiples of "
           << (Algorithm == IteratorAlgorithm::kTensorCopy ? 128 / int(sizeof(Element)) : AccessElements)
           << (Algorithm == IteratorAlgorithm::kTensorCopy ? " (the copy engine's 128-byte blocks)"
                                                           : " (this iterator's channels per access)")
           << ": DefaultConvolution (which then picks one channel per access) or DefaultAnalyticConvolution takes "
              "them";
      } else {
        os << to_string(s);
      }
    });
  }
  void log_launch() const {
    logging::write(logging::Category::kApi, [&](std::ostream& os) {
      os << "ImplicitGemmConvolution::run(" << conv_problem_text(Op, problem_) << ")";
    });
    logging::write(logging::Category::kTrace, [&](std::ostream& os) {
      os << "convolution " << configuration_text() << "; " << kThreads << " threads, " << kLdsBytes
         << " bytes of LDS, grid " << grid_.x << "x" << grid_.y << "x" << grid_.z << "; problem "
         << conv_problem_text(Op, problem_);
    });
  }
  // Advice for this problem (docs/logging.md), each given only where what it recommends would take
  // the problem: the precomputed iterator for an analytic one (channels of whole 16-byte vectors,
  // at most kMaxPrecomputedFilterExtent taps a dimension, 16-byte aligned a and b); padding the
  // channels to whole vectors where that adds at most a quarter to the work (never for a depthwise
  // layer's one channel a group); split-K for a grid that fills under half the device where the K
  // loop is long enough to split (this configuration's WithSplitK takes what it takes).
  void write_hints(Arguments const& args) const {
    ConvProblemSize const& p = args.problem;
    int const cg = p.c_per_group(), kg = p.k_per_group();
    // The channel runs the loaders read (Fprop: C/groups of x and w; Dgrad, Wgrad: K/groups too).
    auto const padded = [&](int channels) { return ceil_div(channels, kVector) * kVector; };
    bool const reads_kg = Op != ConvOperator::kFprop;
    bool const vector_channels = channels_multiple_of(p, kVector);
    bool const cheap_padding = 4 * padded(cg) <= 5 * cg && (!reads_kg || 4 * padded(kg) <= 5 * kg);
    bool const taps_fit = precomputed_taps_fit(p);
    bool const vectors_aligned = aligned(args.a, 16) && aligned(args.b, 16);
    if (Algorithm == IteratorAlgorithm::kAnalytic && vector_channels && taps_fit && vectors_aligned) {
      logging::write(logging::Category::kHints, [&](std::ostream& os) {
        os << "channels per group (C " << cg << ", K " << kg << ") are multiples of " << kVector
           << ": the precomputed iterator (DefaultConvolutionConfiguration, one of DefaultConvolution's candidates) reads "
              "them 16 bytes at a time, this analytic one "
           << AccessElements << " channel(s) per access";
      });
    } else if (!vector_channels && cheap_padding && taps_fit) {
      logging::write(logging::Category::kHints, [&](std::ostream& os) {
        os << "channels per group (C " << cg << ", K " << kg << ") are not multiples of " << kVector
           << ": padded to C " << padded(cg) << (reads_kg ? ", K " + std::to_string(padded(kg)) : std::string())
           << " (zeros in the added channels) the precomputed iterator reads whole 16-byte vectors";
      });
    }
    std::int64_t slots = 0;
    if (kSplitK == gemm::kernel::SplitKMode::kNone &&
        ok(query_device_workgroups<Kernel>(unsigned(kThreads), kLdsBytes, slots)) && 2 * workgroups() < slots) {
      int const slices = split_k_slices_for(p, slots);
      logging::write(logging::Category::kHints, [&](std::ostream& os) {
        os << workgroups() << " tiles fill " << (100 * workgroups() + slots / 2) / slots << "% of the " << slots
           << " workgroups the device holds at once";
        if (slices > 1) {
          os << ": split-K shares the K loop among idle CUs (this configuration's WithSplitK<SplitKMode::kSerial>, "
             << "split_k_slices_for gives " << slices << " slices)";
        } else {
          os << ": a narrower tile would use more of them (the K loop is too short to split)";
        }
      });
    }
  }

 public:
  typename Kernel::Params const& params() const noexcept { return params_; }
  // The launch initialize() set up: tiles per batch (grid x), batches (grid y: groups, times row
  // classes with filter taps for Dgrad) and K slices (grid z); persistent: the walking workgroups.
  std::int64_t workgroups() const noexcept { return std::int64_t(grid_.x) * grid_.y * grid_.z; }
  int batches() const noexcept { return launch_.batches; }

  // Groups a GEMM batch holds: with IteratorAlgorithm::kPackedGroups the most, a divisor of the
  // groups, whose filter-side channels fill at most the tile (Fprop: K/groups along TileShape::kN,
  // Dgrad: C/groups along kN, Wgrad: K/groups along kM) and whose gathered channels are whole
  // 16-byte vectors (Fprop C, Dgrad K, Wgrad both); else 1.
  static int groups_per_batch(ConvProblemSize const& p) noexcept {
    if (Algorithm != IteratorAlgorithm::kPackedGroups || p.groups < 1) return 1;
    int const cg = p.c_per_group(), kg = p.k_per_group();
    int const along = Op == ConvOperator::kDgrad ? cg : kg;
    int const tile = Op == ConvOperator::kWgrad ? TileShape::kM : TileShape::kN;
    int pack = 1;
    for (int d = 2; d <= p.groups && std::int64_t(d) * along <= tile; ++d) {
      bool const vectors = Op == ConvOperator::kWgrad ? std::int64_t(d) * cg % kVector == 0 &&
                                                            std::int64_t(d) * kg % kVector == 0
                                                      : std::int64_t(d) * (Op == ConvOperator::kDgrad ? kg : cg) %
                                                                kVector == 0;
      if (p.groups % d == 0 && vectors) pack = d;
    }
    return pack;
  }
  // The problem one GEMM batch runs as a problem of its own: groups / groups_per_batch groups.
  static ConvProblemSize batch_problem(ConvProblemSize p) noexcept {
    p.groups /= groups_per_batch(p);
    return p;
  }

 private:
  // Whether the channel runs the loaders read are multiples of `n`: C/groups (x and w), and
  // K/groups (dy) for Dgrad and Wgrad.
  static bool channels_multiple_of(ConvProblemSize const& p, int n) noexcept {
    return p.c_per_group() % n == 0 && (Op == ConvOperator::kFprop || p.k_per_group() % n == 0);
  }
  // Whether the precomputed iterators' masks hold the filter taps of every dimension (Dgrad: of a
  // row class); Wgrad's have none.
  static bool precomputed_taps_fit(ConvProblemSize const& p) noexcept {
    if constexpr (Op != ConvOperator::kWgrad) {
      for (int i = 0; i < 3; ++i) {
        int const taps = Op == ConvOperator::kDgrad ? (p.filter[i] - 1) / p.stride[i] + 1 : p.filter[i];
        if (taps > kMaxPrecomputedFilterExtent) return false;
      }
    }
    return true;
  }

  static bool aligned(void const* p, std::size_t bytes) noexcept {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
  }

  // One batch per group (packed: per batch of groups; and Dgrad row class with taps); its GEMM's M
  // is the largest class's rows.
  static Launch launch_shape(ConvGeometry const& g) noexcept {
    ConvProblemSize const& p = g.problem;
    auto gemm = p.implicit_gemm(Op);
    if (Op == ConvOperator::kDgrad) {
      gemm.m = p.n;
      for (int i = 0; i < 3; ++i) gemm.m *= ceil_div(p.input[i], p.stride[i]);
    }
    Launch l;
    l.gemm_m = int(gemm.m);
    l.gemm_n = int(gemm.n);
    l.tiles_m = int(ceil_div<std::int64_t>(gemm.m, TileShape::kM));
    l.tiles_n = int(ceil_div<std::int64_t>(gemm.n, TileShape::kN));
    l.tiles = std::int64_t(l.tiles_m) * l.tiles_n;
    l.batches = std::int64_t(p.groups) * g.tap_classes;
    return l;
  }

  // The tensors: what the kernel reads (a, b, c, bias) or writes (d), in elements.
  static std::int64_t elements_a(ConvProblemSize const& p) noexcept {
    return Op == ConvOperator::kFprop ? p.activation_elements() : p.output_elements();
  }
  static std::int64_t elements_b(ConvProblemSize const& p) noexcept {
    return Op == ConvOperator::kWgrad ? p.activation_elements() : p.filter_elements();
  }
  static std::int64_t elements_d(ConvProblemSize const& p) noexcept {
    return Op == ConvOperator::kFprop   ? p.output_elements()
           : Op == ConvOperator::kDgrad ? p.activation_elements()
                                        : p.filter_elements();
  }
  static int bias_elements(ConvProblemSize const& p) noexcept { return Op == ConvOperator::kDgrad ? p.c : p.k; }

  struct Ranges {
    ByteRange a, b, c, d, bias;
  };
  static Ranges ranges(Arguments const& args, bool source) noexcept {
    ConvProblemSize const& p = args.problem;
    Ranges r;
    r.a = ByteRange(args.a, elements_a(p), sizeof(Element));
    r.b = ByteRange(args.b, elements_b(p), sizeof(Element));
    r.d = ByteRange(args.d, elements_d(p), sizeof(ElementC));
    if (source) r.c = ByteRange(args.c, elements_d(p), sizeof(ElementC));
    if (args.bias != nullptr) r.bias = ByteRange(args.bias, bias_elements(p), sizeof(ElementC));
    return r;
  }

  // (The gathering loaders' Params are the ConvOperand; the tensor copies' build their maps from it
  // and the geometry.)
  template <class Loader>
  static typename Loader::Params operand(Element const* data, std::int64_t elements, ConvGeometry const& g) noexcept {
    ConvOperand<Element> const tensor{data, elements};
    if constexpr (std::is_same_v<typename Loader::Params, ConvOperand<Element>>) {
      return tensor;
    } else {
      return typename Loader::Params(tensor, g);
    }
  }
  static typename LoaderA::Params operand_a(Arguments const& args, ConvGeometry const& g) noexcept {
    return operand<LoaderA>(args.a, elements_a(args.problem), g);
  }
  static typename LoaderB::Params operand_b(Arguments const& args, ConvGeometry const& g) noexcept {
    return operand<LoaderB>(args.b, elements_b(args.problem), g);
  }

  // Fprop: y as an (N·Z·P·Q) × K matrix, group g's columns from g·K/groups. Wgrad: dw as a
  // K × (taps·C/groups) matrix, group g's rows from g·K/groups (packed groups: PackedWgradOutput).
  // Dgrad: the row-class mapping. (The geometry's groups: a batch's, packed or not.)
  static typename Output::Params output(Arguments const& args, ConvGeometry const& g) noexcept {
    ConvProblemSize const& p = g.problem;
    if constexpr (Op == ConvOperator::kDgrad || kPackedWgrad) {
      typename Output::Params o;  // (the geometry is the kernel's: at_batch binds it)
      o.c = args.c;
      o.d = args.d;
      return o;
    } else {
      auto const gemm = p.implicit_gemm(Op);
      typename Output::Params o;
      o.c = args.c;
      o.d = args.d;
      o.ldc = o.ldd = Op == ConvOperator::kFprop ? p.k : gemm.n;
      o.extent_m = int(gemm.m);
      o.extent_n = int(gemm.n);
      o.batch_stride = Op == ConvOperator::kFprop ? g.kg : std::int64_t(g.kg) * gemm.n;
      o.bias_batch_stride = g.kg;
      o.c_batch_stride = o.batch_stride;
      return o;
    }
  }

  static std::size_t workspace_bytes(Arguments const& args, Launch const& l) noexcept {
    return Workspace::bytes(args.split_k_slices, {l.tiles, l.batches, l.gemm_m, l.gemm_n});
  }

  typename Kernel::Params params_{};
  typename Reduction::Params reduction_{};
  FillParams fill_{};
  Launch launch_{};
  Dim3 grid_{};
  ConvProblemSize problem_{};  // what initialize() took, for the log's lines
};

}  // namespace hiptile::conv::device
