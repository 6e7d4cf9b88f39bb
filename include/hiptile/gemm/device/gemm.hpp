#pragma once
// Gemm: the device-level GEMM operator, D = op(A·B, C, bias), in the CUTLASS shape users know.
// (One operator's whole host side — its checks in their documented order, the kernel's Params, the
// launches and the log's words — in one place: over 400 lines, each part short.)
//
//   using Gemm = hiptile::gemm::device::Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC,
//                                            ElementAccumulator, Arch, TileShape, WaveShape, MmaAtom,
//                                            OutputOp, TileOrder, Stages>;
//   Gemm::Arguments args{problem, ref_a, ref_b, ref_c, ref_d, output_op_params};
//   Status s = Gemm::can_implement(args);   // every unsupported input has its own Status
//   Gemm op; op.initialize(args); op.run(stream);
//
// Strided batched: Arguments::batch_count problems of one shape in one launch (grid y), the b-th
// reading A, B and C b · batch_stride_* elements past their pointers and writing D likewise.
//
// SplitK (kernel/split_k.hpp) = kSerial or kParallel divides each tile's K loop among
// Arguments::split_k_slices workgroups, with get_workspace_size(args) bytes of workspace given in
// Arguments: for a few tiles with a long K. kStreamK runs a grid sized to the device whose
// workgroups share the tiles' K iterations evenly (kernel/stream_k.hpp): for tile counts that are
// not a multiple of the device.
//
// A wrong configuration stops at compile time with one static_assert naming what to change;
// a wrong argument is refused by can_implement() (and initialize()) with its own Status. No entry
// point throws, and a failed initialize() leaves the operator uninitialised.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <type_traits>

#include "hiptile/arch/device_check.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/gemm/device/gemm_arguments.hpp"
#include "hiptile/gemm/device/gemm_configuration.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/device/operand_views.hpp"
#include "hiptile/gemm/device/split_k_workspace.hpp"
#include "hiptile/gemm/device/device_operator.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/kernel/scheduler_for.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/layout/tensor_ref.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

template <class ElementA_, class LayoutA_, class ElementB_, class LayoutB_, class ElementC_, class LayoutC_,
          class ElementAccumulator_, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp,
          class TileOrder, int Stages, kernel::SplitKMode SplitK = kernel::SplitKMode::kNone>
class Gemm : public DeviceOperator<Gemm<ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                                         ElementAccumulator_, Arch, TileShape, WaveShape, MmaAtom, OutputOp, TileOrder,
                                         Stages, SplitK>> {
  // Each rule of the configuration, with its own message; a broken one is the only error, since
  // Config then holds inert stand-ins for the components.
  static_assert(sizeof(GemmConfigurationCheck<ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_,
                                              ElementAccumulator_, Arch, TileShape, WaveShape, MmaAtom, OutputOp,
                                              TileOrder, Stages>) > 0);
  using Config = GemmConfiguration<ElementA_, LayoutA_, ElementB_, LayoutB_, ElementC_, LayoutC_, ElementAccumulator_,
                                   Arch, TileShape, WaveShape, MmaAtom, OutputOp, TileOrder, Stages>;
  using Op = typename Config::OutputOp;  // OutputOp once it is an EpilogueFunctor
  static_assert(SplitK != kernel::SplitKMode::kPersistent,
                "Gemm: SplitKMode::kPersistent is the convolution's; a GEMM's persistent grid is kStreamK");
  static_assert(SplitK == kernel::SplitKMode::kNone || std::is_same_v<ElementAccumulator_, float>,
                "split-K and stream-K add partial sums in fp32: an integer GEMM (int32 accumulators) needs "
                "SplitKMode::kNone");
  static constexpr bool kIntegerOutput = std::is_integral_v<ElementC_>;

 public:
  // The configuration, so generic code can read it and a user can start from DefaultGemmConfiguration and
  // spell out Gemm with one change.
  using ElementA = ElementA_;
  using LayoutA = LayoutA_;
  using ElementB = ElementB_;
  using LayoutB = LayoutB_;
  using ElementC = ElementC_;  // C, D and the bias
  using LayoutC = LayoutC_;    // C and D
  using ElementAccumulator = ElementAccumulator_;
  using ElementAccumulatorType = ElementAccumulator_;
  using ArchTag = Arch;
  using TileShapeType = TileShape;
  using WaveShapeType = WaveShape;
  using MmaAtomType = MmaAtom;
  using OutputOpType = OutputOp;
  using TileOrderType = TileOrder;
  static constexpr int kStages = Stages;
  static constexpr kernel::SplitKMode kSplitK = SplitK;
  static constexpr bool kParallelSplitK = SplitK == kernel::SplitKMode::kParallel;
  static constexpr bool kStreamK = SplitK == kernel::SplitKMode::kStreamK;

  static constexpr OperandMajor kMajorA = Config::kMajorA;
  static constexpr OperandMajor kMajorB = Config::kMajorB;
  using WaveMma = typename Config::WaveMma;
  static constexpr bool kAsyncCopy = Config::kAsyncCopy;  // cp.async mainloop (NVIDIA, K-contiguous A and B)
  using LoaderA = typename Config::LoaderA;  // the global-tile loaders of A and B
  using LoaderB = typename Config::LoaderB;
  using Mainloop = typename Config::Mainloop;
  using Order = typename Config::Order;  // TileOrder, the tile order the kernel runs
  // The kernel's epilogue: parallel split-K's partial sums, or OutputOp's into D.
  using Epilogue = std::conditional_t<kParallelSplitK, typename Config::PartialEpilogue, typename Config::Epilogue>;
  // The schedule of SplitK over TileOrder's tiles: batched (grid y) unless stream-K, which shares the
  // tiles of one problem.
  using Scheduler = kernel::SchedulerFor<SplitK, Order, typename Mainloop::Accumulators, Mainloop::kThreads,
                                         /*kBatched=*/!kStreamK>;
  using Kernel = kernel::GemmKernel<TileShape, WaveShape, Mainloop, Epilogue, Scheduler>;
  using Reduction = typename Config::Reduction;  // parallel split-K's second kernel
  using Workspace = SplitKWorkspace<SplitK, typename Kernel::Partials>;
  static constexpr int kThreads = Mainloop::kThreads;
  static constexpr std::size_t kLdsBytes = Kernel::kLdsBytes;
  // Elements per 16-byte vector load: pointers and leading dimensions of A and B must be multiples.
  static constexpr int kAlignmentA = 16 / static_cast<int>(sizeof(ElementA));
  static constexpr int kAlignmentB = 16 / static_cast<int>(sizeof(ElementB));
  // The most workgroups one launch of this kernel may have (the backend's grid limit for
  // kThreads-thread workgroups, and int tile ids).
  static constexpr std::int64_t kMaxWorkgroups =
      std::min<std::int64_t>(kernel::kMaxTiles, std::int64_t(max_grid_extent(0, unsigned(kThreads))));

  // The same for every configuration of these types and output functor (gemm_arguments.hpp).
  using Arguments = GemmArguments<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, typename Op::Params>;

  static constexpr char const* kName = "Gemm";

  // Bytes of workspace the arguments need (split_k_workspace.hpp): split-K's partial sums (and
  // serial split-K's flags), stream-K's flags and partial sums of its units (for the device's
  // workgroups when stream_k_workgroups is 0), 0 without split-K or stream-K, for a problem with
  // an extent ≤ 0, or when the device cannot be queried (can_implement then says so).
  static std::size_t get_workspace_size(Arguments const& args) noexcept {
    GemmCoord const& p = args.problem;
    if (p.m <= 0 || p.n <= 0 || p.k <= 0 || args.split_k_slices < 1 || args.batch_count < 1) return 0;
    kernel::StreamKSchedule schedule;
    if (!ok(stream_k_schedule(args, schedule))) return 0;
    return workspace_bytes(args, schedule);
  }

  // Stream-K: how the arguments' tiles would be shared (kernel/stream_k.hpp) — data-parallel
  // tiles, shared tiles, units, partitions — for the device's workgroups unless the arguments
  // give them. Valid problems only; without stream-K, every tile data-parallel.
  static Status stream_k_schedule(Arguments const& args, kernel::StreamKSchedule& schedule) noexcept {
    GemmCoord const& p = args.problem;
    kernel::StreamKSchedule s;
    s.dp_tiles = static_cast<int>(std::min<std::int64_t>(tiles(p), kernel::kMaxTiles));
    if constexpr (kStreamK) {
      int xcds = 1;
      if (args.stream_k_partitions == 0) {
        DeviceInfo const* device = nullptr;
        if (Status const q = current_device_info(device); !ok(q)) return q;
        xcds = device->xcds;
      }
      // (The grid is then at most the larger of the tiles and these workgroups: within kMaxWorkgroups.)
      std::int64_t resident = 0;  // the arguments', or the device's
      if (Status const q = workgroups_or_device<Kernel>(args.stream_k_workgroups, unsigned(kThreads), kLdsBytes,
                                                        resident);
          !ok(q)) {
        return q;
      }
      int const workgroups = static_cast<int>(std::min<std::int64_t>(resident, kMaxWorkgroups));
      int const partitions = args.stream_k_partitions != 0 ? args.stream_k_partitions : xcds;
      if (Status const m = kernel::StreamKSchedule::make(s.dp_tiles, ceil_div(p.k, TileShape::kK), workgroups,
                                                           partitions, s);
          !ok(m)) {
        return m;
      }
    }
    schedule = s;
    return Status::kSuccess;
  }

 private:
  friend class DeviceOperator<Gemm>;
  // What the checks find that building the kernel's parameters needs: stream-K's schedule (one
  // device query).
  struct Plan {
    kernel::StreamKSchedule stream_k;
  };
  // The operator's steps (DeviceOperator): the checks, keeping the stream-K schedule they found (one
  // device query); the kernel's Params from them; the launches.
  static Status plan(Arguments const& args, Plan& plan) noexcept { return check(args, plan.stream_k); }

  Status build(Arguments const& args, Plan const& plan) noexcept {
    typename Kernel::Params params{};
    kernel::ScheduleShape shape;
    shape.stream_k = plan.stream_k;
    GemmCoord const& p = args.problem;
    shape.tiles_m = ceil_div(p.m, TileShape::kM);
    shape.tiles_n = ceil_div(p.n, TileShape::kN);
    shape.batches = args.batch_count;
    shape.slices = args.split_k_slices;
    params.mainloop = mainloop_params(args);
    auto& e = params.epilogue;
    if constexpr (kParallelSplitK) {
      // Slice s's partials are the s-th row-major M × N fp32 matrix of the workspace.
      float* const partials = Workspace::partials(args.workspace);
      e.output = {nullptr, 0, partials, p.n, p.m, p.n, std::int64_t(p.m) * p.n, 0};
      e.op = {1.0f, 0.0f};
      reduction_ = {partials,       p.m,          p.n,           args.split_k_slices, output_params(args), args.bias,
                    args.bias_mode, args.output_op, args.row_scale, args.column_scale};
    } else {
      e = epilogue_params(args);
    }
    std::int64_t const slots = Workspace::slots(args.split_k_slices, extents(args, shape.stream_k));
    typename Kernel::Partials::Params const partials = Workspace::partial_tiles(args.workspace, slots);
    shape.flags = partials.flags;
    shape.partial_tiles = partials.tiles;
    if (Status const s = Scheduler::make_params(shape, params.scheduler); !ok(s)) return s;
    this->flag_reset_ = {partials.flags, slots};
    params_ = params;
    stream_k_ = shape.stream_k;
    workgroups_ = shape.stream_k.workgroups();  // all tiles without stream-K; <= kMaxWorkgroups
    slices_ = args.split_k_slices;
    batches_ = args.batch_count;
    args_ = args;
    return Status::kSuccess;
  }

  // The GEMM kernel (grid: tiles or stream-K's workgroups × batches × K slices), then with parallel
  // split-K the reduction, on the same stream.
  Status launch_kernels(Stream stream) const noexcept {
    LaunchConfig const config{
        {unsigned(workgroups_), unsigned(batches_), unsigned(slices_)}, {unsigned(kThreads)}, kLdsBytes, stream};
    Status const s = launch<Kernel>(config, params_);
    if constexpr (!kParallelSplitK) {
      return s;
    } else {  // (a discarded branch: other configurations never instantiate the reduction)
      if (!ok(s)) return s;
      return launch<Reduction>(Reduction::launch_config(reduction_, batches_, stream), reduction_);
    }
  }

  // The output functor's parameters as build() placed them: with parallel split-K the reduction
  // applies it (the kernel's own epilogue only stores partial sums).
  typename Op::Params const& output_op() const noexcept {
    if constexpr (kParallelSplitK) {
      return reduction_.op;
    } else {
      return params_.epilogue.op;
    }
  }

  // The log's words (gemm_log.hpp): the problem, the configuration, a refusal, the hints for these
  // arguments on the current device (its facts were read by check_device), a launch's trace, bench
  // and api lines.
  static std::string problem_text(Arguments const& args) { return device::problem_text(args); }
  static std::string configuration_text() { return configuration_name<Gemm>(); }
  void log_refusal(Arguments const& args, Plan const&, Status s) const {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << "GEMM " << problem_text(args) << " refused by " << configuration_text() << ": " << to_string(s);
    });
  }
  void write_hints(Arguments const& args) const {
    DeviceInfo const* device = nullptr;
    std::int64_t slots = 0;
    if (!ok(current_device_info(device)) ||
        !ok(query_device_workgroups<Kernel>(unsigned(kThreads), kLdsBytes, slots))) {
      return;
    }
    device::write_hints<Gemm>(args, *device, std::int64_t(workgroups_) * batches_ * slices_, slots);
  }
  void log_launch() const {
    logging::write(logging::Category::kApi, [&](std::ostream& os) { os << "Gemm::run(" << problem_text(args_) << ")"; });
    logging::write(logging::Category::kTrace, [&](std::ostream& os) {
      os << "GEMM " << configuration_text() << "; " << kThreads << " threads, " << kLdsBytes << " bytes of LDS, grid "
         << workgroups_ << "x" << batches_ << "x" << slices_ << "; problem " << problem_text(args_);
    });
    logging::write(logging::Category::kBench, [&](std::ostream& os) { os << bench_command<Gemm>(args_); });
  }

 public:
  // What initialize() built: the kernel's parameters and its launch shape (one workgroup per
  // output tile and K slice, or stream-K's workgroups; kThreads threads, kLdsBytes of dynamic LDS).
  typename Kernel::Params const& params() const noexcept { return params_; }
  int workgroups() const noexcept { return workgroups_; }  // grid x
  int split_k_slices() const noexcept { return slices_; }  // grid z
  int batch_count() const noexcept { return batches_; }    // grid y
  kernel::StreamKSchedule const& stream_k() const noexcept { return stream_k_; }

  // What initialize() gives the kernel for one problem without parallel split-K — its mainloop's
  // and its epilogue's parameters — and the memory each operand spans, for operators that launch
  // many problems at once (GroupedGemm). Arguments that can_implement accepts only.
  static typename Mainloop::Params mainloop_params(Arguments const& args) noexcept {
    return {loader_params<LoaderA>(view_a(args), args.batch_count), loader_params<LoaderB>(view_b(args), args.batch_count)};
  }
  static typename Config::Epilogue::Params epilogue_params(Arguments const& args) noexcept {
    return {output_params(args), args.bias, args.bias_mode, args.output_op, args.row_scale, args.column_scale};
  }
  struct Ranges {
    ByteRange a, b, c, d, bias, row_scale, column_scale;  // c and bias empty when not read
  };
  static Ranges ranges(Arguments const& args) noexcept {
    return ranges(args, Op(args.output_op).is_source_needed(), args.bias_mode != epilogue::BiasMode::kNone);
  }

 private:
  using Int128 = ByteRange::Int128;

  static typename Config::Output::Params output_params(Arguments const& args) noexcept {
    return {args.c.data, args.c.ld, args.d.data,      args.d.ld, args.problem.m, args.problem.n, args.batch_stride_d,
            0,           args.batch_stride_c};
  }

  // can_implement, also giving the stream-K schedule it checked the workspace against.
  static Status check(Arguments const& args, kernel::StreamKSchedule& schedule) noexcept {
    GemmCoord const& p = args.problem;
    if (p.m <= 0 || p.n <= 0 || p.k <= 0) return Status::kErrorInvalidProblem;
    if (!epilogue::is_valid(args.bias_mode)) return Status::kErrorInvalidEnum;
    if (Status const s = Workspace::check_slices(args.split_k_slices); !ok(s)) return s;
    if (args.stream_k_workgroups < 0 || args.stream_k_partitions < 0) return Status::kErrorInvalidProblem;
    if (!kStreamK && (args.stream_k_workgroups != 0 || args.stream_k_partitions != 0)) return Status::kErrorNotSupported;
    if (args.batch_count < 1) return Status::kErrorInvalidProblem;
    if (kStreamK && args.batch_count > 1) return Status::kErrorNotSupported;
    bool const source = Op(args.output_op).is_source_needed();
    bool const bias = args.bias_mode != epilogue::BiasMode::kNone;
    if (bias && kIntegerOutput) return Status::kErrorNotSupported;
    if (args.a.data == nullptr || args.b.data == nullptr || args.d.data == nullptr) return Status::kErrorNullPointer;
    if (source && args.c.data == nullptr) return Status::kErrorNullPointer;
    if (bias && args.bias == nullptr) return Status::kErrorNullPointer;
    if (args.a.ld < LayoutA::min_leading_dimension(p.m, p.k) || args.b.ld < LayoutB::min_leading_dimension(p.k, p.n) ||
        args.d.ld < LayoutC::min_leading_dimension(p.m, p.n) ||
        (source && args.c.ld < LayoutC::min_leading_dimension(p.m, p.n)) || args.batch_stride_a < 0 ||
        args.batch_stride_b < 0 || args.batch_stride_c < 0 || args.batch_stride_d < 0) {
      return Status::kErrorInvalidLayout;
    }
    if (!aligned(args.a.data, 16) || args.a.ld % kAlignmentA != 0 || !aligned(args.b.data, 16) ||
        args.b.ld % kAlignmentB != 0 || !aligned(args.d.data, alignof(ElementC)) ||
        (source && !aligned(args.c.data, alignof(ElementC))) || (bias && !aligned(args.bias, alignof(ElementC))) ||
        !aligned(args.row_scale, alignof(float)) || !aligned(args.column_scale, alignof(float)) ||
        args.batch_stride_a % kAlignmentA != 0 || args.batch_stride_b % kAlignmentB != 0) {
      return Status::kErrorMisalignedOperand;
    }
    // The kernel indexes rows, columns and K in int up to the extents rounded up to the tile, and
    // every operand in 64 bits.
    if (!round_up_fits(p.m, TileShape::kM) || !round_up_fits(p.n, TileShape::kN) ||
        !round_up_fits(p.k, TileShape::kK)) {
      return Status::kErrorIndexOverflow;
    }
    Ranges const r = ranges(args, source, bias);
    if (!r.a.addressable() || !r.b.addressable() || !r.c.addressable() || !r.d.addressable() ||
        !r.bias.addressable() || !r.row_scale.addressable() || !r.column_scale.addressable()) {
      return Status::kErrorIndexOverflow;
    }
    // Each loader's offsets within one block tile (32-bit buffer offsets on gfx9).
    if (!LoaderA::offsets_fit(loader_params<LoaderA>(view_a(args), args.batch_count)) ||
        !LoaderB::offsets_fit(loader_params<LoaderB>(view_b(args), args.batch_count))) {
      return Status::kErrorOperandTooLarge;
    }
    // D is written while A, B, C and the bias are read by other workgroups: it may overlap none of
    // them, except C when C is D itself (each element is read before the one write to it).
    bool const in_place = static_cast<void const*>(args.c.data) == args.d.data && args.c.ld == args.d.ld &&
                          (args.batch_stride_c == args.batch_stride_d || args.batch_count == 1);
    if (r.d.overlaps(r.a) || r.d.overlaps(r.b) || r.d.overlaps(r.bias) || r.d.overlaps(r.row_scale) ||
        r.d.overlaps(r.column_scale) || (!in_place && r.d.overlaps(r.c)) || !output_batches_disjoint(LayoutC::kRowMajor, p.m, p.n, args.d.ld, args.batch_stride_d, args.batch_count)) {
      return Status::kErrorAliasedOperand;
    }
    // The output functor's declared device pointers (fp8 scales, amax): operands too.
    if (Status const s = epilogue::check_functor_pointers<Op>(
            args.output_op, {r.a, r.b, r.c, r.bias, r.row_scale, r.column_scale}, r.d);
        !ok(s)) {
      return s;
    }
    // (Grid y: the batches, of the kernel and of parallel split-K's reduction.)
    if (std::uint64_t(args.batch_count) > max_grid_extent(1, 1)) return Status::kErrorGridTooLarge;
    if (tiles(p) > kMaxWorkgroups ||
        (kParallelSplitK && std::uint64_t(Reduction::blocks(p.m, p.n)) >
                                max_grid_extent(0, unsigned(Reduction::kMaxThreadsPerBlock)))) {
      return Status::kErrorGridTooLarge;
    }
    if (Status const s = stream_k_schedule(args, schedule); !ok(s)) return s;
    auto const functor = epilogue::functor_ranges<Op>(args.output_op);
    return Workspace::check(args.workspace, args.workspace_bytes, workspace_bytes(args, schedule),
                            {r.a, r.b, r.c, r.d, r.bias, r.row_scale, r.column_scale}, functor);
  }

  // The memory each operand spans: what the kernel may read (A, B, C, bias, scales) or write (D).
  static Ranges ranges(Arguments const& args, bool source, bool bias) noexcept {
    GemmCoord const& p = args.problem;
    std::int64_t const outer = LayoutC::kRowMajor ? p.m : p.n;
    std::int64_t const inner = LayoutC::kRowMajor ? p.n : p.m;
    // Every batch's: the last batch's elements start (batch_count - 1) · stride further on.
    auto batches = [&](Int128 one, std::int64_t stride) {
      return one > 0 ? Int128(args.batch_count - 1) * stride + one : one;
    };
    Ranges r;
    r.a = ByteRange(args.a.data, batches(operand_elements(args.a.ld, p.m, p.k, kMajorA, kAlignmentA), args.batch_stride_a),
                    sizeof(ElementA));
    r.b = ByteRange(args.b.data, batches(operand_elements(args.b.ld, p.n, p.k, kMajorB, kAlignmentB), args.batch_stride_b),
                    sizeof(ElementB));
    r.d = ByteRange(args.d.data, batches(ByteRange::span(outer, args.d.ld, inner), args.batch_stride_d), sizeof(ElementC));
    if (source) {
      r.c = ByteRange(args.c.data, batches(ByteRange::span(outer, args.c.ld, inner), args.batch_stride_c),
                      sizeof(ElementC));
    }
    if (bias) {
      r.bias = ByteRange(args.bias, args.bias_mode == epilogue::BiasMode::kPerRow ? p.m : p.n, sizeof(ElementC));
    }
    if (args.row_scale != nullptr) r.row_scale = ByteRange(args.row_scale, p.m, sizeof(float));
    if (args.column_scale != nullptr) r.column_scale = ByteRange(args.column_scale, p.n, sizeof(float));
    return r;
  }

  static OperandView<ElementA> view_a(Arguments const& args) noexcept {
    return operand_view(args.a.data, args.a.ld, args.problem.m, args.problem.k, kMajorA, args.batch_stride_a);
  }
  static OperandView<ElementB> view_b(Arguments const& args) noexcept {
    return operand_view(args.b.data, args.b.ld, args.problem.n, args.problem.k, kMajorB, args.batch_stride_b);
  }

  static std::int64_t tiles(GemmCoord const& p) noexcept {
    return std::int64_t{ceil_div(p.m, TileShape::kM)} * ceil_div(p.n, TileShape::kN);
  }
  static typename Workspace::Extents extents(Arguments const& args, kernel::StreamKSchedule const& s) noexcept {
    return {tiles(args.problem), args.batch_count, args.problem.m, args.problem.n, s.units};
  }
  static std::size_t workspace_bytes(Arguments const& args, kernel::StreamKSchedule const& s) noexcept {
    return Workspace::bytes(args.split_k_slices, extents(args, s));
  }

  typename Kernel::Params params_{};
  kernel::StreamKSchedule stream_k_{};  // (without stream-K: every tile data-parallel)
  typename Reduction::Params reduction_{};
  int workgroups_ = 0;
  int slices_ = 1;
  int batches_ = 1;
  Arguments args_{};        // what initialize() took, for the log's lines
};

}  // namespace hiptile::gemm::device
