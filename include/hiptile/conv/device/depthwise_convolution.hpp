#pragma once
// DepthwiseConvolution: the device-level operator for depthwise convolutions (groups = C = K), a
// direct convolution (conv/direct/) rather than an implicit GEMM:
//
//   using Depthwise = hiptile::conv::device::DepthwiseConvolution<ConvOperator::kFprop, half_t, half_t,
//                                                                 hiptile::arch::Gfx942>;
//   Depthwise::Arguments args{problem, x, w, nullptr, y, {alpha, beta}, bias};
//   Depthwise op; op.initialize(args); op.run(stream);
//
// It takes ConvArguments like every convolution of these types (a: x for Fprop, dy for Dgrad and
// Wgrad; b: the filter, or x for Wgrad; d: y, dx or dw), so DefaultConvolution lists it beside the
// implicit GEMMs and picks it for every depthwise problem it takes. Filters of any extent, stride,
// dilation, padding, 2-D and 3-D, both modes; a workgroup covers 64 channels and a tile of output
// positions chosen per problem so that the source positions it reads (its halo) and one filter
// plane fit kLdsBytes (choose_tile). Fprop and Dgrad: DepthwiseKernel, one launch. Wgrad:
// DepthwiseWgradKernel over Arguments::split_k_slices slices of the output tiles, then (with more
// than one) GEMM's parallel split-K reduction over the workspace's slices x C x T·R·S fp32 sums.
//
// can_implement refuses, in this order:
//   what ConvProblemSize::check refuses
//   kErrorNotSupported       not depthwise (groups, C and K must be equal: one channel a group and no
//                            channel multiplier)
//   kErrorInvalidProblem     split_k_slices below 1 (kErrorGridTooLarge past the grid)
//   kErrorNotSupported       split_k_slices above 1 for Fprop or Dgrad, or workgroups != 0
//   kErrorNullPointer        a, b or d null, or c null when the output functor reads it
//   kErrorChannelsNotAligned C not a multiple of AccessElements
//   kErrorMisalignedOperand  a tensor the kernel stages (Fprop: x; Dgrad: dy; Wgrad: dy and x) not
//                            aligned to AccessElements elements, or the others to their element
//   kErrorIndexOverflow      a position past int, or a tensor past the address space
//   kErrorNotSupported       Wgrad with more strips of filter taps than its lanes (Strips), or the halo
//                            of one output position and one filter plane past kLdsBytes (a large
//                            dilation): the implicit GEMM takes them
//   kErrorAliasedOperand     d overlapping a, b, the bias, or c (unless c is d)
//   the output functor's pointers' checks (functor_pointers.hpp)
//   kErrorGridTooLarge       the grid past the launch's extents
//   the workspace's checks   Wgrad over several slices (split_k_workspace.hpp)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/conv_arguments.hpp"
#include "hiptile/conv/device/conv_log.hpp"
#include "hiptile/conv/direct/depthwise_kernel.hpp"
#include "hiptile/conv/direct/depthwise_wgrad_kernel.hpp"
#include "hiptile/conv/direct/gather_axis.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/gemm/device/device_operator.hpp"
#include "hiptile/gemm/device/split_k_workspace.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/split_k_reduction.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/stream.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/conv/direct/nvidia/async_halo_copy.hpp"
#endif

namespace hiptile::conv::device {

// The element types the direct kernels multiply (converted to fp32).
template <class T>
concept DirectConvElement = std::same_as<T, half_t> || std::same_as<T, bfloat16_t> || std::same_as<T, float>;

// LDS a depthwise workgroup may take: half of what one may have, so that two share a CU or SM — on
// gfx9 32 KiB; on NVIDIA less the 1 KiB the SM keeps for each (Sm90: 112 KiB, which holds Wgrad's
// two buffers of a 7x7 filter's 128-position tile, 109 KiB).
template <class Arch>
inline constexpr std::size_t kDepthwiseLdsBytes = Arch::kLdsBytesPerWorkgroup >= 128 * 1024
                                                      ? std::size_t(Arch::kLdsBytesPerWorkgroup / 2 / 1024 - 1) * 1024
                                                      : 32 * 1024;

template <ConvOperator Op, DirectConvElement Element_, class ElementC_, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC_>,
          int AccessElements = 16 / static_cast<int>(sizeof(Element_)),
          class Workgroup = typename DefaultDepthwiseWorkgroup<typename Arch::Family, Op>::type,
          std::size_t LdsBytes = kDepthwiseLdsBytes<Arch>>
class DepthwiseConvolution
    : public gemm::device::DeviceOperator<
          DepthwiseConvolution<Op, Element_, ElementC_, Arch, OutputOp, AccessElements, Workgroup, LdsBytes>> {
  static constexpr bool kWgrad = Op == ConvOperator::kWgrad;

 public:
  // Fprop and Dgrad: a kernel with its tap loop unrolled for filters 3, 5 or 7 wide (WindowWidth),
  // launched where the layer takes the window and is that wide; Kernel, which takes every layer,
  // elsewhere (WindowKernel<0>).
  template <int WindowWidth>
  using WindowKernel = DepthwiseKernel<Element_, ElementC_, OutputOp, AccessElements, LdsBytes, Workgroup, WindowWidth>;
  using Kernel = std::conditional_t<kWgrad,
                                    DepthwiseWgradKernel<Element_, ElementC_, OutputOp, AccessElements, LdsBytes, Workgroup>,
                                    WindowKernel<0>>;
  // Wgrad's slices' sums, added in slice order by GEMM's parallel split-K reduction (dw as a C x
  // taps matrix).
  using Reduction = gemm::kernel::SplitKReduction<epilogue::MatrixOutput<ElementC_, layout::RowMajor>, OutputOp>;
  using Workspace = gemm::device::SplitKWorkspace<gemm::kernel::SplitKMode::kParallel>;
  static constexpr ConvOperator kOperator = Op;
  static constexpr IteratorAlgorithm kAlgorithm = IteratorAlgorithm::kDirect;
  static constexpr int kAccessElements = AccessElements;
  static constexpr int kStages = 1;
  // Wgrad reduces over every output position: its output tiles split into Arguments::split_k_slices
  // slices, each a workgroup per 64 channels, whose sums a second kernel adds (parallel split-K).
  static constexpr gemm::kernel::SplitKMode kSplitK =
      kWgrad ? gemm::kernel::SplitKMode::kParallel : gemm::kernel::SplitKMode::kNone;
  static constexpr int kThreads = Kernel::kMaxThreadsPerBlock;
  static constexpr std::size_t kLdsBytes = Kernel::kLdsBytes;  // the most a launch takes
  static_assert(kLdsBytes <= std::size_t(Arch::kLdsBytesPerWorkgroup));
  using Element = Element_;
  using ElementC = ElementC_;
  using ArchTag = Arch;
  using OutputOpType = OutputOp;
  // In the implicit GEMM's terms a selection compares: M output positions (at most) by N channels.
  using TileShapeType = GemmShape<Kernel::kMaxPixels, Kernel::kChannels, 1>;
  using Arguments = ConvArguments<Element, ElementC, typename OutputOp::Params>;
  static constexpr char const* kName = "DepthwiseConvolution";
  // The consecutive positions a thread owns, whose width a tile with the window is a multiple of.
  static constexpr int kRun = [] {
    if constexpr (kWgrad) {
      return 1;
    } else {
      return Kernel::kRun;
    }
  }();

  // Wgrad over several slices: their fp32 sums, slices x C x T·R·S; otherwise none.
  static std::size_t get_workspace_size(Arguments const& args) noexcept {
    return workspace_bytes(args.problem, args.split_k_slices);
  }

  // Wgrad: slices enough that the launch has about `target_workgroups` workgroups (two per CU or SM
  // is a good target), at most one a tile. 1 for Fprop and Dgrad, or a problem it does not take.
  static int split_k_slices_for(ConvProblemSize const& p, std::int64_t target_workgroups) noexcept {
    if (!kWgrad || !ok(p.check())) return 1;
    GatherAxis h = GatherAxis::of(p, ConvOperator::kFprop, 1), w = GatherAxis::of(p, ConvOperator::kFprop, 2);
    if (!choose_tile(h, w)) return 1;
    std::int64_t const tiles = output_tiles(p, h, w);
    std::int64_t const wanted = ceil_div<std::int64_t>(target_workgroups, ceil_div(p.c, Kernel::kChannels));
    std::int64_t const slices = std::clamp<std::int64_t>(wanted, 1, std::min<std::int64_t>(tiles, 65535));
    return int(ceil_div(tiles, ceil_div(tiles, slices)));  // (no slice without a tile)
  }

  // The tile a problem runs with (after initialize(): the one it launches).
  struct Tile {
    int h = 0, w = 0;
    std::int64_t lds_bytes = 0;
  };
  Tile tile() const noexcept { return {params_.axis[1].tile, params_.axis[2].tile, lds_bytes_}; }
  // Fprop and Dgrad after initialize(): the width of the WindowKernel it launches, 0 for Kernel.
  int window_width() const noexcept {
    if constexpr (kWgrad) {
      return 0;
    } else {
      return params_.window ? Kernel::unrolled_width(params_.axis[1], params_.axis[2]) : 0;
    }
  }

  // The output tile for these axes: at most Kernel::kMaxPixels positions, its halo and a filter
  // plane within kLdsBytes. Where the axes allow the tap loop's window (Kernel::window_fits), a tile
  // whose rows are whole runs (its width a multiple of Kernel::kRun, past the output's if need be)
  // comes first; then the tiles over the output plane that read the fewest source positions in
  // all; then fewer tiles. False when not even one position fits.
  static bool choose_tile(GatherAxis& h, GatherAxis& w) noexcept {
    std::int64_t best_reads = -1, best_tiles = 0;
    int best_h = 0, best_w = 0;
    bool best_window = false;
    int const widest = std::min(ceil_div(w.output, kRun) * kRun, Kernel::kMaxPixels);
    for (int tw = 1; tw <= widest; ++tw) {
      for (int th = 1; th <= std::min(h.output, Kernel::kMaxPixels / tw); ++th) {
        GatherAxis hh = h, ww = w;
        hh.tile = th, ww.tile = tw;
        hh.halo = h.halo_for(th), ww.halo = w.halo_for(tw);
        bool const window = window_fits(hh, ww);
        if ((tw > w.output && !window) || Kernel::lds_bytes(hh, ww) > std::int64_t(kLdsBytes)) continue;
        std::int64_t const tiles = std::int64_t(ceil_div(h.output, th)) * ceil_div(w.output, tw);
        std::int64_t const reads = tiles * hh.halo * ww.halo;
        bool const better = best_reads < 0 || window > best_window ||
                            (window == best_window &&
                             (reads < best_reads || (reads == best_reads && tiles < best_tiles)));
        if (better) best_reads = reads, best_tiles = tiles, best_h = th, best_w = tw, best_window = window;
      }
    }
    if (best_reads < 0) return false;
    h.tile = best_h, w.tile = best_w;
    h.halo = h.halo_for(best_h), w.halo = w.halo_for(best_w);
    return true;
  }

 private:
  friend class gemm::device::DeviceOperator<DepthwiseConvolution>;

  struct Plan {
    GatherAxis axis[3];
    Dim3 grid{};
  };

  static Status plan(Arguments const& args, Plan& plan) noexcept {
    ConvProblemSize const& p = args.problem;
    if (Status const s = p.check(); !ok(s)) return s;
    if (p.groups != p.c || p.k != p.c) return Status::kErrorNotSupported;
    if (Status const s = Workspace::check_slices(args.split_k_slices); !ok(s)) return s;
    if ((!kWgrad && args.split_k_slices != 1) || args.workgroups != 0) return Status::kErrorNotSupported;
    bool const source = OutputOp(args.output_op).is_source_needed();
    if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (source && args.c == nullptr)) {
      return Status::kErrorNullPointer;
    }
    if (p.c % AccessElements != 0) return Status::kErrorChannelsNotAligned;
    // Whole vectors of the tensors the kernel stages (Fprop: x; Dgrad: dy; Wgrad: dy and x).
    std::size_t const vector = sizeof(Array<Element, AccessElements>);
    if (!aligned(args.a, vector) || !aligned(args.b, kWgrad ? vector : alignof(Element)) ||
        !aligned(args.d, alignof(ElementC)) || (source && !aligned(args.c, alignof(ElementC))) ||
        !aligned(args.bias, alignof(ElementC))) {
      return Status::kErrorMisalignedOperand;
    }
    // The kernel indexes positions in int (the context a positional functor sees, Wgrad's tiles),
    // offsets in 64 bits.
    std::int64_t const positions = std::max(p.output_elements(), p.activation_elements()) / p.c;
    if (positions > INT32_MAX) return Status::kErrorIndexOverflow;
    std::int64_t const d_elements =
        Op == ConvOperator::kFprop ? p.output_elements() : Op == ConvOperator::kDgrad ? p.activation_elements()
                                                                                      : p.filter_elements();
    ByteRange const a(args.a, Op == ConvOperator::kFprop ? p.activation_elements() : p.output_elements(),
                      sizeof(Element));
    ByteRange const b(args.b, kWgrad ? p.activation_elements() : p.filter_elements(), sizeof(Element));
    ByteRange const d(args.d, d_elements, sizeof(ElementC));
    ByteRange const c = source ? ByteRange(args.c, d_elements, sizeof(ElementC)) : ByteRange();
    ByteRange const bias = args.bias != nullptr ? ByteRange(args.bias, p.c, sizeof(ElementC)) : ByteRange();
    if (!a.addressable() || !b.addressable() || !c.addressable() || !d.addressable() || !bias.addressable()) {
      return Status::kErrorIndexOverflow;
    }
    // (Wgrad gathers x from the output positions as Fprop does.)
    for (int i = 0; i < 3; ++i) plan.axis[i] = GatherAxis::of(p, kWgrad ? ConvOperator::kFprop : Op, i);
    if constexpr (kWgrad) {  // (a lane per strip of taps: DepthwiseWgradKernel::Strips)
      if (!Kernel::Strips::of(p.filter[0], p.filter[1], p.filter[2]).fit()) return Status::kErrorNotSupported;
    }
    if (!choose_tile(plan.axis[1], plan.axis[2])) return Status::kErrorNotSupported;
    bool const in_place = static_cast<void const*>(args.c) == args.d;
    if (d.overlaps(a) || d.overlaps(b) || d.overlaps(bias) || (!in_place && d.overlaps(c))) {
      return Status::kErrorAliasedOperand;
    }
    if (Status const s = epilogue::check_functor_pointers<OutputOp>(args.output_op, {a, b, c, bias}, d); !ok(s)) {
      return s;
    }
    std::int64_t const tiles = output_tiles(p, plan.axis[1], plan.axis[2]);
    std::int64_t const blocks = ceil_div(p.c, Kernel::kChannels);
    std::int64_t const grid_x = kWgrad ? args.split_k_slices : tiles;
    if (std::uint64_t(grid_x) > max_grid_extent(0, unsigned(kThreads)) || tiles > INT32_MAX ||
        std::uint64_t(blocks) > max_grid_extent(1, 1) ||
        (kWgrad && std::uint64_t(Reduction::blocks(p.c, int(p.filter_elements() / p.c))) >
                       max_grid_extent(0, unsigned(Reduction::kMaxThreadsPerBlock)))) {
      return Status::kErrorGridTooLarge;
    }
    plan.grid = {unsigned(grid_x), unsigned(blocks), 1};
    auto const functor = epilogue::functor_ranges<OutputOp>(args.output_op);
    return Workspace::check(args.workspace, args.workspace_bytes, workspace_bytes(p, args.split_k_slices),
                            {a, b, c, d, bias}, functor);
  }

  Status build(Arguments const& args, Plan const& plan) noexcept {
    ConvProblemSize const& p = args.problem;
    typename Kernel::Params k{};
    k.c = args.c;
    k.d = args.d;
    k.bias = args.bias;
    k.op = args.output_op;
    k.images = p.n;
    k.channels = p.c;
    for (int i = 0; i < 3; ++i) k.axis[i] = plan.axis[i];
    if (Status const s = TileGrid::make(k.axis, k.grid); !ok(s)) return s;
    k.flip = p.mode == ConvMode::kConvolution;
    if (Status const s = FastDivmod::make(k.axis[2].tile, k.div_tile_w); !ok(s)) return s;
    if (Status const s = FastDivmod::make(k.axis[2].halo, k.div_halo_w); !ok(s)) return s;
    if constexpr (kWgrad) {
      k.dy = args.a;
      k.x = args.b;
      k.tiles = int(output_tiles(p, k.axis[1], k.axis[2]));
      k.tiles_per_slice = int(ceil_div<std::int64_t>(k.tiles, args.split_k_slices));
      k.taps = int(p.filter_elements() / p.c);
      auto const strips = Kernel::Strips::of(p.filter[0], p.filter[1], p.filter[2]);
      k.strip_width = strips.width;
      k.strips_per_row = strips.per_row;
      k.strips = int(strips.count);
      k.groups = Kernel::kTapLanes / k.strips;
      if (args.split_k_slices > 1) {
        // The kernel writes slice s's sums at s · C · taps; the reduction adds them into dw.
        k.partials = Workspace::partials(args.workspace);
        typename Reduction::Params& r = reduction_;
        r = {};
        r.partials = k.partials;
        r.extent_m = p.c;
        r.extent_n = k.taps;
        r.slices = args.split_k_slices;
        r.output = {args.c, k.taps, args.d, k.taps, p.c, k.taps, 0, 0, 0};
        r.bias = args.bias;
        r.bias_mode = args.bias != nullptr ? epilogue::BiasMode::kPerRow : epilogue::BiasMode::kNone;
        r.op = args.output_op;
      }
    } else {
      k.source = args.a;
      k.filter = args.b;
      if (Status const s = FastDivmod::make(std::int64_t(k.axis[1].taps) * k.axis[2].taps, k.div_plane_taps); !ok(s)) {
        return s;
      }
      k.window = Kernel::window_fits(k.axis[1], k.axis[2]);
      std::size_t const vector = sizeof(typename Kernel::OutputVector);
      k.vector_output =
          aligned(args.d, vector) && (!OutputOp(args.output_op).is_source_needed() || aligned(args.c, vector));
    }
    params_ = k;
    grid_ = plan.grid;
    lds_bytes_ = Kernel::lds_bytes(k.axis[1], k.axis[2]);
    problem_ = p;
    slices_ = args.split_k_slices;
    return Status::kSuccess;
  }

  // The kernel; Wgrad over several slices then the reduction, on the same stream.
  Status launch_kernels(Stream stream) const noexcept {
    LaunchConfig const config{grid_, {unsigned(kThreads)}, std::size_t(lds_bytes_), stream};
    if constexpr (!kWgrad) {
      switch (window_width()) {
        case 3: return launch<WindowKernel<3>>(config, params_);
        case 5: return launch<WindowKernel<5>>(config, params_);
        case 7: return launch<WindowKernel<7>>(config, params_);
        default: return launch<Kernel>(config, params_);
      }
    }
    Status const s = launch<Kernel>(config, params_);
    if (slices_ == 1 || !ok(s)) return s;
    return launch<Reduction>(Reduction::launch_config(reduction_, 1, stream), reduction_);
  }

  // The output functor's parameters as build() placed them (the reduction's with several slices).
  typename OutputOp::Params const& output_op() const noexcept {
    return kWgrad && slices_ > 1 ? reduction_.op : params_.op;
  }

  static std::string problem_text(Arguments const& args) { return conv_problem_text(Op, args.problem); }
  static std::string configuration_text() { return conv_configuration_name<DepthwiseConvolution>(); }
  void log_refusal(Arguments const& args, Plan const&, Status s) const {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << "convolution " << problem_text(args) << " refused by " << configuration_text() << ": ";
      ConvProblemSize const& p = args.problem;
      if (s == Status::kErrorNotSupported && ok(p.check()) && (p.groups != p.c || p.k != p.c)) {
        os << "not depthwise (groups " << p.groups << ", C " << p.c << ", K " << p.k
           << " must be equal): an implicit GEMM (DefaultConvolution) takes it";
      } else if (s == Status::kErrorChannelsNotAligned) {
        os << "C " << p.c << " is not a multiple of " << AccessElements
           << " (the channels of one access): DefaultConvolution (one channel per access) takes it";
      } else {
        os << to_string(s);
      }
    });
  }
  void write_hints(Arguments const&) const {}
  void log_launch() const {
    logging::write(logging::Category::kApi, [&](std::ostream& os) {
      os << kName << "::run(" << conv_problem_text(Op, problem_) << ")";
    });
    logging::write(logging::Category::kTrace, [&](std::ostream& os) {
      os << "convolution " << configuration_text() << "; tile " << params_.axis[1].tile << "x" << params_.axis[2].tile;
      if (window_width() != 0) os << ", tap loop unrolled for " << window_width() << " wide";
      os << ", " << kThreads << " threads, " << lds_bytes_ << " bytes of LDS, grid " << grid_.x << "x" << grid_.y
         << "; problem " << conv_problem_text(Op, problem_);
    });
  }

 public:
  typename Kernel::Params const& params() const noexcept { return params_; }
  std::int64_t workgroups() const noexcept { return std::int64_t(grid_.x) * grid_.y; }
  // One launch covers every group (channel): one batch, where an implicit GEMM has one per group
  // (and Dgrad row class); for code that visits DefaultConvolution's chosen candidate.
  int batches() const noexcept { return 1; }

 private:
  // The tiles over every output plane (Fprop: of y; Dgrad: of dx; Wgrad: of dy, which it reduces).
  static std::int64_t output_tiles(ConvProblemSize const& p, GatherAxis const& h, GatherAxis const& w) noexcept {
    GatherAxis const d = GatherAxis::of(p, kWgrad ? ConvOperator::kFprop : Op, 0);
    return std::int64_t(p.n) * d.output * ceil_div(h.output, h.tile) * ceil_div(w.output, w.tile);
  }
  static std::size_t workspace_bytes(ConvProblemSize const& p, int slices) noexcept {
    if (!kWgrad || slices <= 1 || !ok(p.check())) return 0;
    return Workspace::bytes(slices, {1, 1, p.c, int(p.filter_elements() / p.c)});
  }
  static bool window_fits(GatherAxis const& h, GatherAxis const& w) noexcept {
    if constexpr (kWgrad) {
      return false;
    } else {
      return Kernel::window_fits(h, w);
    }
  }
  static bool aligned(void const* p, std::size_t bytes) noexcept {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
  }

  typename Kernel::Params params_{};
  typename Reduction::Params reduction_{};
  int slices_ = 1;
  Dim3 grid_{};
  std::int64_t lds_bytes_ = 0;
  ConvProblemSize problem_{};
};

}  // namespace hiptile::conv::device
