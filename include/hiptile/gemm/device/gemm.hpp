#pragma once
// Gemm: the device-level GEMM operator, D = op(A·B, C, bias), in the CUTLASS shape users know.
//
//   using Gemm = hiptile::gemm::device::Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC,
//                                            ElementAccumulator, Arch, TileShape, WaveShape, MmaAtom,
//                                            OutputOp, TileOrder, Stages>;
//   Gemm::Arguments args{problem, ref_a, ref_b, ref_c, ref_d, output_op_params};
//   Status s = Gemm::can_implement(args);   // every unsupported input has its own Status
//   Gemm op; op.initialize(args, workspace); op.run(stream);
//
// A wrong configuration stops at compile time with one static_assert naming what to change;
// a wrong argument is refused by can_implement() (and initialize()) with its own Status.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/gemm/device/gemm_configuration.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/mainloop/async_copy_mainloop.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/layout/tensor_ref.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class ElementAccumulator, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp,
          class TileOrder, int Stages>
class Gemm {
  using Config = GemmConfiguration<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator, Arch,
                                   TileShape, WaveShape, MmaAtom, OutputOp, TileOrder, Stages>;
  static_assert(Config::kValid);  // each check inside Config has its own message

 public:
  // The configuration, so a user can start from DefaultGemm and spell out Gemm with one change.
  using ElementAccumulatorType = ElementAccumulator;
  using ArchTag = Arch;
  using TileShapeType = TileShape;
  using WaveShapeType = WaveShape;
  using MmaAtomType = MmaAtom;
  using OutputOpType = OutputOp;
  using TileOrderType = TileOrder;
  static constexpr int kStages = Stages;

  static constexpr OperandMajor kMajorA = Config::kMajorA;
  static constexpr OperandMajor kMajorB = Config::kMajorB;
  using WaveMma = typename Config::WaveMma;
  static constexpr bool kAsyncCopy = Config::kAsyncCopy;  // cp.async mainloop (NVIDIA, K-contiguous A and B)
  using Mainloop = std::conditional_t<
      kAsyncCopy, mainloop::AsyncCopyMainloop<TileShape, WaveShape, WaveMma, Arch::kWaveSize, Stages>,
      mainloop::PipelinedMainloop<ElementA, kMajorA, ElementB, kMajorB, TileShape, WaveShape, WaveMma,
                                  Arch::kWaveSize, Stages>>;
  using Epilogue = typename Config::Epilogue;
  using Kernel = kernel::GemmKernel<TileShape, WaveShape, Mainloop, Epilogue, TileOrder>;
  static constexpr int kThreads = Mainloop::kThreads;
  static constexpr std::size_t kLdsBytes = Kernel::kLdsBytes;
  // Elements per 16-byte vector load: pointers and leading dimensions of A and B must be multiples.
  static constexpr int kAlignmentA = 16 / static_cast<int>(sizeof(ElementA));
  static constexpr int kAlignmentB = 16 / static_cast<int>(sizeof(ElementB));

  struct Arguments {
    GemmCoord problem;
    layout::TensorRef<ElementA const, LayoutA> a;
    layout::TensorRef<ElementB const, LayoutB> b;
    layout::TensorRef<ElementC const, LayoutC> c;  // may be null when the output op ignores it (beta = 0)
    layout::TensorRef<ElementC, LayoutC> d;
    typename OutputOp::Params output_op{};
    ElementC const* bias = nullptr;  // bias[m] (kPerRow) or bias[n] (kPerColumn)
    epilogue::BiasMode bias_mode = epilogue::BiasMode::kNone;
  };

  static Status can_implement(Arguments const& args) {
    GemmCoord const& p = args.problem;
    if (p.m <= 0 || p.n <= 0 || p.k <= 0) return Status::kErrorInvalidProblem;
    bool const source = OutputOp(args.output_op).is_source_needed();
    if (args.a.data == nullptr || args.b.data == nullptr || args.d.data == nullptr) return Status::kErrorNullPointer;
    if (source && args.c.data == nullptr) return Status::kErrorNullPointer;
    if (args.bias_mode != epilogue::BiasMode::kNone && args.bias == nullptr) return Status::kErrorNullPointer;
    if (args.a.ld < LayoutA::min_leading_dimension(p.m, p.k) || args.b.ld < LayoutB::min_leading_dimension(p.k, p.n) ||
        args.d.ld < LayoutC::min_leading_dimension(p.m, p.n) ||
        (source && args.c.ld < LayoutC::min_leading_dimension(p.m, p.n))) {
      return Status::kErrorInvalidLayout;
    }
    if (!aligned(args.a.data, 16) || args.a.ld % kAlignmentA != 0 || !aligned(args.b.data, 16) ||
        args.b.ld % kAlignmentB != 0 || !aligned(args.d.data, alignof(ElementC)) ||
        (source && !aligned(args.c.data, alignof(ElementC)))) {
      return Status::kErrorMisalignedOperand;
    }
    // Buffer offsets are 32-bit: every offset a tile load can form, edge tiles included, must fit.
    if (max_offset_bytes<ElementA>(kMajorA, p.m, TileShape::kM, p.k, args.a.ld) > kMaxBufferOffset ||
        max_offset_bytes<ElementB>(kMajorB, p.n, TileShape::kN, p.k, args.b.ld) > kMaxBufferOffset ||
        std::int64_t(ceil_div(p.m, TileShape::kM)) * ceil_div(p.n, TileShape::kN) > kMaxTiles) {
      return Status::kErrorIndexOverflow;
    }
    return Status::kSuccess;
  }

  static std::size_t get_workspace_size(Arguments const&) { return 0; }

  Status initialize(Arguments const& args, void* /*workspace*/ = nullptr) {
    Status const s = can_implement(args);
    if (!ok(s)) return s;
    GemmCoord const& p = args.problem;
    tiles_m_ = ceil_div(p.m, TileShape::kM);
    tiles_n_ = ceil_div(p.n, TileShape::kN);
    params_.mainloop.a = operand_view(args.a.data, args.a.ld, p.m, p.k, kMajorA);
    params_.mainloop.b = operand_view(args.b.data, args.b.ld, p.n, p.k, kMajorB);
    auto& e = params_.epilogue;
    e.c = args.c.data;
    e.ldc = args.c.ld;
    e.d = args.d.data;
    e.ldd = args.d.ld;
    e.bias = args.bias;
    e.bias_mode = args.bias_mode;
    e.op = args.output_op;
    e.extent_m = p.m;
    e.extent_n = p.n;
    params_.order = TileOrder::make_params(tiles_m_, tiles_n_);
    initialized_ = true;
    return Status::kSuccess;
  }

  Status run(Stream stream = nullptr) const {
    if (!initialized_) return Status::kErrorNotInitialized;
    LaunchConfig const config{{unsigned(tiles_m_ * tiles_n_)}, {unsigned(kThreads)}, kLdsBytes, stream};
    return launch<Kernel>(config, params_);
  }

  Status operator()(Arguments const& args, void* workspace = nullptr, Stream stream = nullptr) {
    Status const s = initialize(args, workspace);
    return ok(s) ? run(stream) : s;
  }

  typename Kernel::Params const& params() const { return params_; }

 private:
  static constexpr std::int64_t kMaxBufferOffset = (std::int64_t{1} << 31) - 1;
  static constexpr std::int64_t kMaxTiles = (std::int64_t{1} << 31) - 1;

  static bool aligned(void const* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

  // The largest byte offset (exclusive) a tile load of this operand can address.
  template <class Element>
  static std::int64_t max_offset_bytes(OperandMajor major, int extent_mn, int tile_mn, int extent_k, std::int64_t ld) {
    std::int64_t const rows_mn = round_up(extent_mn, tile_mn);
    std::int64_t const rows_k = round_up(extent_k, TileShape::kK);
    std::int64_t const elements = major == OperandMajor::kK ? rows_mn * ld + rows_k : rows_k * ld + rows_mn;
    return elements * std::int64_t(sizeof(Element));
  }

  template <class Element>
  static OperandView<Element> operand_view(Element const* data, std::int64_t ld, int extent_mn, int extent_k,
                                           OperandMajor major) {
    // The buffer ends with the last 16-byte vector that holds an element of the operand, so no load
    // reaches past the user's allocation by more than the vector its last element shares.
    std::int64_t const outer = major == OperandMajor::kK ? extent_mn : extent_k;
    std::int64_t const inner = major == OperandMajor::kK ? extent_k : extent_mn;
    std::int64_t const elements = (outer - 1) * ld + round_up<std::int64_t>(inner, 16 / sizeof(Element));
    return {data, ld, extent_mn, extent_k, static_cast<std::uint32_t>(elements * std::int64_t(sizeof(Element)))};
  }

  typename Kernel::Params params_{};
  int tiles_m_ = 0;
  int tiles_n_ = 0;
  bool initialized_ = false;
};

}  // namespace hiptile::gemm::device
