#pragma once
// B2bGemm: the device operator of a back-to-back GEMM, D = op1(op0(A·B0)·B1, C)
// (b2b_gemm_arguments.hpp), with the first product's M × N0 kept in registers as the second's A
// operand: A·B0 is never written to memory and read back, which is what a chain of two Gemm calls
// costs. The pattern of an MLP block with a narrow hidden layer and of attention's P·V.
//
// N0 is at most one tile (TileShape::kN0): each workgroup holds a block row's whole P. A
// workgroup per TileShape::kM rows of D (grid x) and per batch (grid y) runs the first product over
// K0, then D's block columns one after another from the same P (kernel/b2b_gemm_kernel.hpp). The
// components come from the architecture family's builder (gemm/collective/builder.hpp).
//
// Template parameters: the element types and layouts of A (M × K0), B0 (K0 × N0), B1 (N0 × N1) and
// D (and C, M × N1); Arch; TileShape, a B2bGemmShape<M, N0, K0, N1>; WaveM, the rows each wave
// holds (TileShape::kM / WaveM waves); MmaAtom, both products' atom; Op0 and Op1, output functors
// (epilogue/functor_concept.hpp) giving P's element (A's type) and D's; Stages, the first
// product's LDS stages. A, B0 and B1 share the atom's element type; the sums are fp32.
//
// can_implement's checks, in order: an extent or batch_count below 1 (kErrorInvalidProblem); N0
// above TileShape::kN0, or an op0 that reads its source (kErrorNotSupported); a null A, B0, B1, D,
// or C where op1 reads it (kErrorNullPointer); a leading dimension below its extent or a negative
// batch stride (kErrorInvalidLayout); A, B0, B1 not 16-byte aligned, their leading dimensions and
// batch strides not whole 16-byte vectors, or C, D, a bias off its element's alignment
// (kErrorMisalignedOperand); extents or operands past the kernel's indices (kErrorIndexOverflow); a
// block's loads past 32-bit buffer offsets (kErrorOperandTooLarge); D overlapping an input other
// than C in place, or its own other batches (kErrorAliasedOperand); the functors' device pointers
// (functor_pointers.hpp); more block rows or batches than a grid holds (kErrorGridTooLarge).
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/gemm/collective/builder.hpp"
#include "hiptile/gemm/device/b2b_gemm_arguments.hpp"
#include "hiptile/gemm/device/device_operator.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/device/operand_views.hpp"
#include "hiptile/gemm/kernel/b2b_gemm_kernel.hpp"
#include "hiptile/gemm/kernel/data_parallel_scheduler.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/numeric/element_name.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

template <class ElementA_, class LayoutA_, class ElementB0_, class LayoutB0_, class ElementB1_, class LayoutB1_,
          class ElementD_, class LayoutD_, class Arch, class TileShape, int WaveM, class MmaAtom,
          epilogue::EpilogueFunctor Op0, epilogue::EpilogueFunctor Op1, int Stages>
class B2bGemm : public DeviceOperator<B2bGemm<ElementA_, LayoutA_, ElementB0_, LayoutB0_, ElementB1_, LayoutB1_,
                                              ElementD_, LayoutD_, Arch, TileShape, WaveM, MmaAtom, Op0, Op1, Stages>> {
  static_assert(std::is_same_v<ElementA_, typename MmaAtom::ElementA> &&
                    std::is_same_v<ElementB0_, typename MmaAtom::ElementB> &&
                    std::is_same_v<ElementB1_, typename MmaAtom::ElementB> &&
                    std::is_same_v<typename MmaAtom::ElementA, typename MmaAtom::ElementB>,
                "A, B0 and B1 must be the MMA atom's one element type (P, the second product's A, is A's type)");
  static_assert(std::is_same_v<typename MmaAtom::ElementC, float>, "a back-to-back GEMM sums in fp32");
  static_assert(std::is_same_v<typename Op0::ElementOutput, ElementA_>,
                "op0 gives P, the second product's A operand: its ElementOutput must be A's element type");
  static_assert(std::is_same_v<typename Op1::ElementOutput, ElementD_>, "op1's ElementOutput must be D's type");
  static_assert(TileShape::kM % WaveM == 0, "TileShape::kM must be whole waves of WaveM rows");
  static_assert(Stages >= 1, "the first product needs an LDS stage");

 public:
  using ElementA = ElementA_;
  using LayoutA = LayoutA_;
  using ElementB0 = ElementB0_;
  using LayoutB0 = LayoutB0_;
  using ElementB1 = ElementB1_;
  using LayoutB1 = LayoutB1_;
  using ElementD = ElementD_;  // D, C and bias1
  using LayoutD = LayoutD_;
  using ArchTag = Arch;
  using TileShapeType = TileShape;
  using MmaAtomType = MmaAtom;
  using Op0Type = Op0;
  using OutputOpType = Op1;
  static constexpr int kWaveM = WaveM;
  static constexpr int kStages = Stages;
  static constexpr OperandMajor kMajorA = kOperandMajor<Operand::kA, LayoutA>;
  static constexpr OperandMajor kMajorB0 = kOperandMajor<Operand::kB, LayoutB0>;
  static constexpr OperandMajor kMajorB1 = kOperandMajor<Operand::kB, LayoutB1>;

  using Components = collective::B2bGemmBuilder<typename Arch::Family, ElementA, kMajorA, ElementB0, kMajorB0,
                                                ElementB1, kMajorB1, MmaAtom, Op0, TileShape, WaveM, Stages>;
  using FirstMainloop = typename Components::FirstMainloop;
  using Chained = typename Components::Chained;
  using Output = epilogue::MatrixOutput<ElementD, LayoutD>;
  using Epilogue = epilogue::DirectStoreEpilogue<typename Components::Consumer, Output, Op1>;
  using Scheduler = kernel::DataParallelScheduler<kernel::RowMajorTileOrder, /*kBatched=*/true>;
  using Kernel = kernel::B2bGemmKernel<TileShape::kM, TileShape::kN1, FirstMainloop, Chained, Epilogue, Scheduler>;
  static constexpr int kThreads = Components::kThreads;
  static constexpr std::size_t kLdsBytes = Kernel::kLdsBytes;
  // Elements per 16-byte vector load: pointers, leading dimensions and batch strides of A, B0 and
  // B1 must be multiples.
  static constexpr int kAlignmentA = 16 / static_cast<int>(sizeof(ElementA));
  static constexpr int kAlignmentB0 = 16 / static_cast<int>(sizeof(ElementB0));
  static constexpr int kAlignmentB1 = 16 / static_cast<int>(sizeof(ElementB1));

  using Arguments = B2bGemmArguments<ElementA, LayoutA, ElementB0, LayoutB0, ElementB1, LayoutB1, ElementD, LayoutD,
                                     typename Op0::Params, typename Op1::Params>;
  static constexpr char const* kName = "B2bGemm";

  // No workspace: P stays in registers.
  static std::size_t get_workspace_size(Arguments const&) noexcept { return 0; }

  // What initialize() built: the kernel's parameters and its grid (block rows × batches).
  typename Kernel::Params const& params() const noexcept { return params_; }
  Dim3 grid() const noexcept { return grid_; }

 private:
  friend class DeviceOperator<B2bGemm>;
  using Int128 = ByteRange::Int128;
  struct Plan {};
  struct Ranges {
    ByteRange a, b0, b1, c, d, bias0, bias1;  // c empty when op1 reads no source
  };

  static Status plan(Arguments const& args, Plan&) noexcept {
    B2bGemmCoord const& p = args.problem;
    if (p.m <= 0 || p.n0 <= 0 || p.k0 <= 0 || p.n1 <= 0 || args.batch_count < 1) {
      return Status::kErrorInvalidProblem;
    }
    if (p.n0 > TileShape::kN0 || Op0(args.op0).is_source_needed()) return Status::kErrorNotSupported;
    bool const source = Op1(args.op1).is_source_needed();
    if (args.a.data == nullptr || args.b0.data == nullptr || args.b1.data == nullptr || args.d.data == nullptr ||
        (source && args.c.data == nullptr)) {
      return Status::kErrorNullPointer;
    }
    if (args.a.ld < LayoutA::min_leading_dimension(p.m, p.k0) ||
        args.b0.ld < LayoutB0::min_leading_dimension(p.k0, p.n0) ||
        args.b1.ld < LayoutB1::min_leading_dimension(p.n0, p.n1) ||
        args.d.ld < LayoutD::min_leading_dimension(p.m, p.n1) ||
        (source && args.c.ld < LayoutD::min_leading_dimension(p.m, p.n1)) || args.batch_stride_a < 0 ||
        args.batch_stride_b0 < 0 || args.batch_stride_b1 < 0 || args.batch_stride_c < 0 || args.batch_stride_d < 0) {
      return Status::kErrorInvalidLayout;
    }
    if (!aligned(args.a.data, 16) || args.a.ld % kAlignmentA != 0 || args.batch_stride_a % kAlignmentA != 0 ||
        !aligned(args.b0.data, 16) || args.b0.ld % kAlignmentB0 != 0 || args.batch_stride_b0 % kAlignmentB0 != 0 ||
        !aligned(args.b1.data, 16) || args.b1.ld % kAlignmentB1 != 0 || args.batch_stride_b1 % kAlignmentB1 != 0 ||
        !aligned(args.d.data, alignof(ElementD)) || (source && !aligned(args.c.data, alignof(ElementD))) ||
        !aligned(args.bias0, alignof(ElementA)) || !aligned(args.bias1, alignof(ElementD))) {
      return Status::kErrorMisalignedOperand;
    }
    // Rows, columns and K in int up to the extents rounded up to the tile; operands in 64 bits.
    if (!round_up_fits(p.m, TileShape::kM) || !round_up_fits(p.k0, TileShape::kK0) ||
        !round_up_fits(p.n1, TileShape::kN1)) {
      return Status::kErrorIndexOverflow;
    }
    Ranges const r = ranges(args, source);
    if (!r.a.addressable() || !r.b0.addressable() || !r.b1.addressable() || !r.c.addressable() ||
        !r.d.addressable() || !r.bias0.addressable() || !r.bias1.addressable()) {
      return Status::kErrorIndexOverflow;
    }
    if (!Components::LoaderA::offsets_fit(params_a(args)) || !Components::LoaderB0::offsets_fit(params_b0(args)) ||
        !Components::LoaderB1::offsets_fit(params_b1(args))) {
      return Status::kErrorOperandTooLarge;
    }
    // D is written while the inputs are read by other workgroups: only C may be D itself.
    bool const in_place = static_cast<void const*>(args.c.data) == args.d.data && args.c.ld == args.d.ld &&
                          (args.batch_stride_c == args.batch_stride_d || args.batch_count == 1);
    if (r.d.overlaps(r.a) || r.d.overlaps(r.b0) || r.d.overlaps(r.b1) || r.d.overlaps(r.bias0) ||
        r.d.overlaps(r.bias1) || (!in_place && r.d.overlaps(r.c)) ||
        !output_batches_disjoint(LayoutD::kRowMajor, p.m, p.n1, args.d.ld, args.batch_stride_d, args.batch_count)) {
      return Status::kErrorAliasedOperand;
    }
    for (Status const s : {epilogue::check_functor_pointers<Op0>(args.op0, {r.a, r.b0, r.b1, r.c, r.bias0, r.bias1}, r.d),
                           epilogue::check_functor_pointers<Op1>(args.op1, {r.a, r.b0, r.b1, r.c, r.bias0, r.bias1}, r.d)}) {
      if (!ok(s)) return s;
    }
    if (std::uint64_t(ceil_div(p.m, TileShape::kM)) > max_grid_extent(0, unsigned(kThreads)) ||
        std::uint64_t(args.batch_count) > max_grid_extent(1, 1)) {
      return Status::kErrorGridTooLarge;
    }
    return Status::kSuccess;
  }

  Status build(Arguments const& args, Plan const&) noexcept {
    B2bGemmCoord const& p = args.problem;
    typename Kernel::Params k{};
    k.first = first_params(args);
    k.second = {params_b1(args), args.op0, args.bias0, p.n0};
    k.epilogue.output = {args.c.data, args.c.ld, args.d.data, args.d.ld, p.m, p.n1, args.batch_stride_d, 0,
                         args.batch_stride_c};
    k.epilogue.bias = args.bias1;
    k.epilogue.bias_mode = args.bias1 != nullptr ? epilogue::BiasMode::kPerColumn : epilogue::BiasMode::kNone;
    k.epilogue.op = args.op1;
    k.n1 = p.n1;
    kernel::ScheduleShape shape;
    shape.tiles_m = ceil_div(p.m, TileShape::kM);
    shape.tiles_n = 1;
    shape.batches = args.batch_count;
    if (Status const s = Scheduler::make_params(shape, k.scheduler); !ok(s)) return s;
    params_ = k;
    grid_ = Scheduler::grid(shape);
    args_ = args;
    return Status::kSuccess;
  }

  Status launch_kernels(Stream stream) const noexcept {
    return launch<Kernel>(LaunchConfig{grid_, {unsigned(kThreads)}, kLdsBytes, stream}, params_);
  }

  typename Op1::Params const& output_op() const noexcept { return params_.epilogue.op; }

  // The log's words: "512x64x1024 -> 256, batch 1, ld 1024/64/256/256/256" and
  // "f16, A row, B0 col, B1 row, D row; tile 128x64x32 -> 64, 4 waves, v_mfma_f32_32x32x8_f16, 2 stages".
  static std::string problem_text(Arguments const& args) {
    B2bGemmCoord const& p = args.problem;
    std::ostringstream os;
    os << p.m << "x" << p.n0 << "x" << p.k0 << " -> " << p.n1 << ", batch " << args.batch_count << ", ld " << args.a.ld
       << "/" << args.b0.ld << "/" << args.b1.ld << "/" << args.c.ld << "/" << args.d.ld;
    return os.str();
  }
  static std::string configuration_text() {
    std::string const a(element_name<ElementA>()), d(element_name<ElementD>());
    std::ostringstream os;
    os << (a == d ? a : a + "->" + d) << ", A " << detail::layout_name<LayoutA>() << ", B0 "
       << detail::layout_name<LayoutB0>() << ", B1 " << detail::layout_name<LayoutB1>() << ", D "
       << detail::layout_name<LayoutD>() << "; tile " << TileShape::kM << "x" << TileShape::kN0 << "x"
       << TileShape::kK0 << " -> " << TileShape::kN1 << ", " << TileShape::kM / WaveM << " waves, "
       << detail::atom_text<MmaAtom>() << ", " << Stages << (Stages == 1 ? " stage" : " stages");
    return os.str();
  }
  void log_refusal(Arguments const& args, Plan const&, Status s) const {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << "B2B GEMM " << problem_text(args) << " refused by " << configuration_text() << ": " << to_string(s);
      if (s == Status::kErrorNotSupported && args.problem.n0 > TileShape::kN0) {
        os << " (N0 = " << args.problem.n0 << " is more than the configuration's one tile of " << TileShape::kN0
           << " columns: choose a TileShape with kN0 >= N0)";
      } else if (s == Status::kErrorNotSupported) {
        os << " (op0 must not read a source: P has none; set its beta to 0)";
      }
    });
  }
  void write_hints(Arguments const&) const {}
  void log_launch() const {
    logging::write(logging::Category::kApi,
                   [&](std::ostream& os) { os << "B2bGemm::run(" << problem_text(args_) << ")"; });
    logging::write(logging::Category::kTrace, [&](std::ostream& os) {
      os << "B2B GEMM " << configuration_text() << "; " << kThreads << " threads, " << kLdsBytes
         << " bytes of LDS, grid " << grid_.x << "x" << grid_.y << "; problem " << problem_text(args_);
    });
  }

  static typename FirstMainloop::Params first_params(Arguments const& args) noexcept {
    if constexpr (Chained::Chain::kTransposedProducer) {
      return {params_b0(args), params_a(args)};  // Pᵀ = B0ᵀ·Aᵀ
    } else {
      return {params_a(args), params_b0(args)};
    }
  }
  // The loaders' parameters (the operand views: loader_params leaves room for loaders that need
  // more, such as tensor maps).
  static typename Components::LoaderA::Params params_a(Arguments const& args) noexcept {
    return loader_params<typename Components::LoaderA>(view_a(args), args.batch_count);
  }
  static typename Components::LoaderB0::Params params_b0(Arguments const& args) noexcept {
    return loader_params<typename Components::LoaderB0>(view_b0(args), args.batch_count);
  }
  static typename Components::LoaderB1::Params params_b1(Arguments const& args) noexcept {
    return loader_params<typename Components::LoaderB1>(view_b1(args), args.batch_count);
  }
  static OperandView<ElementA> view_a(Arguments const& args) noexcept {
    return operand_view(args.a.data, args.a.ld, args.problem.m, args.problem.k0, kMajorA, args.batch_stride_a);
  }
  static OperandView<ElementB0> view_b0(Arguments const& args) noexcept {
    return operand_view(args.b0.data, args.b0.ld, args.problem.n0, args.problem.k0, kMajorB0, args.batch_stride_b0);
  }
  static OperandView<ElementB1> view_b1(Arguments const& args) noexcept {
    return operand_view(args.b1.data, args.b1.ld, args.problem.n1, args.problem.n0, kMajorB1, args.batch_stride_b1);
  }

  // The memory each operand spans over every batch: what the kernel may read, and D.
  static Ranges ranges(Arguments const& args, bool source) noexcept {
    B2bGemmCoord const& p = args.problem;
    auto batches = [&](Int128 one, std::int64_t stride) {
      return one > 0 ? Int128(args.batch_count - 1) * stride + one : one;
    };
    std::int64_t const outer = LayoutD::kRowMajor ? p.m : p.n1;
    std::int64_t const inner = LayoutD::kRowMajor ? p.n1 : p.m;
    Ranges r;
    r.a = ByteRange(args.a.data, batches(operand_elements(args.a.ld, p.m, p.k0, kMajorA, kAlignmentA), args.batch_stride_a),
                    sizeof(ElementA));
    r.b0 = ByteRange(args.b0.data,
                     batches(operand_elements(args.b0.ld, p.n0, p.k0, kMajorB0, kAlignmentB0), args.batch_stride_b0),
                     sizeof(ElementB0));
    r.b1 = ByteRange(args.b1.data,
                     batches(operand_elements(args.b1.ld, p.n1, p.n0, kMajorB1, kAlignmentB1), args.batch_stride_b1),
                     sizeof(ElementB1));
    r.d = ByteRange(args.d.data, batches(ByteRange::span(outer, args.d.ld, inner), args.batch_stride_d), sizeof(ElementD));
    if (source) {
      r.c = ByteRange(args.c.data, batches(ByteRange::span(outer, args.c.ld, inner), args.batch_stride_c),
                      sizeof(ElementD));
    }
    if (args.bias0 != nullptr) r.bias0 = ByteRange(args.bias0, p.n0, sizeof(ElementA));
    if (args.bias1 != nullptr) r.bias1 = ByteRange(args.bias1, p.n1, sizeof(ElementD));
    return r;
  }

  typename Kernel::Params params_{};
  Dim3 grid_{};
  Arguments args_{};  // what initialize() took, for the log's lines
};

}  // namespace hiptile::gemm::device
