#pragma once
// timing_label<Config>(): the name scripts/timing_model gives a kernel configuration (its label(),
// "f16; A row, B col, C row; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1"), built from the
// configuration's types, so that C++ code finds a configuration's exported timing by its type
// (timing_model.hpp). The model reads the label from the kernel's demangled name
// (scripts/gemm_isa_table's parse_config); this reads the same template arguments:
//
//   element types  the loaders' elements and the epilogue's output element: "f16" when all three
//                  agree, else "A*B->C" (a convolution: its activation-side tile's number format);
//   layouts        each operand's contiguous dimension and C's layout, or the convolution's operator
//                  and iterator family (and dgrad's row division); then the schedule, unless
//                  data-parallel;
//   shapes         tile / wave / MFMA atom / LDS stages.
//
// Where the model would not read a part ("?": an NVIDIA mainloop, an element type it has no name
// for), the label names no exported kernel, so the configuration is not modelled.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "hiptile/conv/dgrad_loaders.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/conv/few_channel_fprop_loaders.hpp"
#include "hiptile/conv/fprop_loaders.hpp"
#include "hiptile/conv/packed_wgrad_output.hpp"
#include "hiptile/conv/wgrad_loaders.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/kernel/grouped_gemm_kernel.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/wave/mfma_wave_mma.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/element_name.hpp"

namespace hiptile::sim {

namespace detail {

inline constexpr std::string_view kUnread = hiptile::detail::kUnnamedElement;

template <class Shape>
struct ShapeOf {
  static std::string name() { return std::string(kUnread); }
};
template <int M, int N, int K>
struct ShapeOf<GemmShape<M, N, K>> {
  static std::string name() { return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K); }
};

// The atom's type name, "Mfma32x32x8F16", from its mnemonic "v_mfma_f32_32x32x8_f16": the shape,
// then each operand type capitalised, without the output type (arch/mfma.hpp names every atom so).
template <class Atom>
std::string atom_name() {
  std::string_view rest = Atom::kMnemonic;
  std::string name = "Mfma";
  for (int part = 0; !rest.empty(); ++part) {
    std::size_t const end = rest.find('_');
    std::string_view const word = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (part == 3) name += word;  // v, mfma, the output type, the shape
    if (part > 3) name += char(word[0] - 'a' + 'A') + std::string(word.substr(1));
  }
  return name;
}

template <class WaveMma>
struct AtomOf {
  static std::string name() { return std::string(kUnread); }
};
template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct AtomOf<gemm::wave::MfmaWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>> {
  static std::string name() { return atom_name<Atom>(); }
};

// An operand loader: its element and contiguous dimension (a GEMM's TileLoader), or the
// convolution operator and iterator family it belongs to ("conv fprop, precomputed").
template <class Loader>
struct LoaderOf {
  static constexpr bool kMatrix = false;
  static constexpr std::string_view kConv = {};
};
template <class Element, gemm::OperandMajor Major, int TileMN, int TileK, int Threads>
struct LoaderOf<gemm::block::TileLoader<Element, Major, TileMN, TileK, Threads>> {
  static constexpr bool kMatrix = true;
  static constexpr std::string_view kElement = element_name<Element>();
  static constexpr bool kKContiguous = Major == gemm::OperandMajor::kK;
};
// A convolution's activation-side loader: the model names the element by its tile's number format.
template <class Tile>
struct ConvLoaderOf {
  static constexpr bool kMatrix = false;
  static constexpr std::string_view kElement = format_name<typename Tile::ElementType>();
};
template <class Tile>
struct LoaderOf<conv::AnalyticFpropActivationLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr std::string_view kConv = "conv fprop, analytic";
};
template <class Tile>
struct LoaderOf<conv::PrecomputedFpropActivationLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr std::string_view kConv = "conv fprop, precomputed";
};
// (The few-channel iterator's access width names it too: one tile with 1- and 4-channel accesses
// is two kernels.)
// `kName` followed by " x<kAccess>" (an access width in elements, one digit) where `kSuffixed`.
template <std::string_view const& kName, bool kSuffixed, int kAccess>
struct AccessSuffixed {
  static_assert(kAccess >= 1 && kAccess <= 9);
  static constexpr std::array<char, kName.size() + 3> kChars = [] {
    std::array<char, kName.size() + 3> chars{};
    for (std::size_t i = 0; i < kName.size(); ++i) chars[i] = kName[i];
    chars[kName.size()] = ' ', chars[kName.size() + 1] = 'x', chars[kName.size() + 2] = char('0' + kAccess);
    return chars;
  }();
  static constexpr std::string_view value = kSuffixed ? std::string_view(kChars.data(), kChars.size()) : kName;
};
inline constexpr std::string_view kFewChannelFprop = "conv fprop, few-channel";
inline constexpr std::string_view kPackedGroupFprop = "conv fprop, packed-group";
inline constexpr std::string_view kPackedGroupDgrad = "conv dgrad, packed-group";

template <class Tile>
struct LoaderOf<conv::FewChannelFpropActivationLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr int kAccess = Tile::kAccessElements;
  static constexpr std::string_view kConv = AccessSuffixed<kFewChannelFprop, kAccess != 1, kAccess>::value;
};
// (Packed groups: the precomputed activation-side loaders with a block-diagonal filter, which
// names the kernel, and its access width where it is narrower than a 16-byte vector.)
template <class Tile, bool kFprop>
struct PackedGroupFilterOf : ConvLoaderOf<Tile> {
  static constexpr int kAccess = Tile::kAccessElements;
  static constexpr bool kWhole = kAccess * sizeof(typename Tile::ElementType) == 16;
  static constexpr std::string_view kConv =
      AccessSuffixed<kFprop ? kPackedGroupFprop : kPackedGroupDgrad, !kWhole, kAccess>::value;
  static constexpr bool kNamesKernel = true;
};
template <class Tile>
struct LoaderOf<conv::FpropFilterLoader<Tile, true>> : PackedGroupFilterOf<Tile, true> {};
template <class Tile>
struct LoaderOf<conv::DgradFilterLoader<Tile, true>> : PackedGroupFilterOf<Tile, false> {};
template <class Tile>
struct LoaderOf<conv::AnalyticDgradOutputGradientLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr std::string_view kConv = "conv dgrad, analytic";
};
template <class Tile>
struct LoaderOf<conv::PrecomputedDgradOutputGradientLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr std::string_view kConv = "conv dgrad, precomputed";
};
template <class Tile>
struct LoaderOf<conv::AnalyticWgradActivationLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr std::string_view kConv = "conv wgrad, analytic";
};
template <class Tile>
struct LoaderOf<conv::PrecomputedWgradActivationLoader<Tile>> : ConvLoaderOf<Tile> {
  static constexpr std::string_view kConv = "conv wgrad, precomputed";
};

// The epilogue's output: D's element and layout (MatrixOutput), or dgrad's row division.
template <class Output>
struct OutputOf {
  static constexpr std::string_view kElement = kUnread, kLayout = kUnread, kDivision = {};
};
template <class Element, class Layout>
struct OutputOf<epilogue::MatrixOutput<Element, Layout>> {
  static constexpr std::string_view kElement = element_name<Element>(), kDivision = {};
  static constexpr std::string_view kLayout = std::is_same_v<Layout, layout::RowMajor>      ? "row"
                                              : std::is_same_v<Layout, layout::ColumnMajor> ? "col"
                                                                                            : kUnread;
};
template <class Element, conv::RowDivision Load, conv::RowDivision Store>
struct OutputOf<conv::DgradOutput<Element, Load, Store>> {
  static constexpr std::string_view kElement = kUnread, kLayout = kUnread;
  static constexpr std::string_view kDivision = Load == conv::RowDivision::kFast
                                                    ? (Store == conv::RowDivision::kFast ? " (rows: load fast, store fast)"
                                                                                         : " (rows: load fast, store plain)")
                                                    : (Store == conv::RowDivision::kFast ? " (rows: load plain, store fast)"
                                                                                         : " (rows: load plain, store plain)");
};

// (Wgrad on packed groups: its output mapping names the kernel.)
template <class Element>
struct OutputOf<conv::PackedWgradOutput<Element>> : OutputOf<void> {
  static constexpr std::string_view kConv = "conv wgrad, packed-group";
};

template <class Epilogue>
struct EpilogueOf : OutputOf<void> {};
template <class WaveMma, class Output, class OutputOp, bool kScales>
struct EpilogueOf<epilogue::DirectStoreEpilogue<WaveMma, Output, OutputOp, kScales>> : OutputOf<Output> {};

// The mainloop's "element; layout" and "atom / stages" parts.
template <class Mainloop, class Epilogue>
struct MainloopOf {
  static std::string operands() { return "?; ?"; }
  static std::string atom_and_stages() { return "? / ?"; }
};
template <class LoaderA, class LoaderB, class TileShape, class WaveShape, class WaveMma, int WaveSize, int Stages,
          class Epilogue>
struct MainloopOf<gemm::mainloop::PipelinedMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, WaveSize, Stages>,
                  Epilogue> {
  using A = LoaderOf<LoaderA>;
  using B = LoaderOf<LoaderB>;
  using Out = EpilogueOf<Epilogue>;
  using TileShapeType = TileShape;
  using WaveShapeType = WaveShape;

  static std::string operands() {
    if constexpr (A::kMatrix && B::kMatrix) {
      std::string const a(A::kElement), b(B::kElement), c(Out::kElement);
      std::string const element = a == b && b == c ? a : a + "*" + b + "->" + c;
      return element + "; A " + (A::kKContiguous ? "row" : "col") + ", B " + (B::kKContiguous ? "col" : "row") +
             ", C " + std::string(Out::kLayout);
    } else if constexpr (requires { Out::kConv; }) {
      return std::string(B::kElement) + "; " + std::string(Out::kConv);
    } else if constexpr (requires { B::kNamesKernel; }) {
      return std::string(B::kElement) + "; " + std::string(B::kConv) + std::string(Out::kDivision);
    } else if constexpr (!A::kMatrix && !A::kConv.empty()) {
      return std::string(A::kElement) + "; " + std::string(A::kConv) + std::string(Out::kDivision);
    } else if constexpr (!A::kMatrix && !B::kConv.empty()) {
      return std::string(B::kElement) + "; " + std::string(B::kConv) + std::string(Out::kDivision);
    } else {
      return "?; ?";
    }
  }
  static std::string atom_and_stages() { return AtomOf<WaveMma>::name() + " / " + std::to_string(Stages); }
};

// The kernel: its shapes, mainloop and epilogue, and its schedule.
template <class Kernel>
struct KernelOf {
  static std::string label() { return "?; ?; ? / ? / ? / ?"; }
};
template <class TileShape, class WaveShape, class Mainloop, class Epilogue, class Scheduler>
struct KernelOf<gemm::kernel::GemmKernel<TileShape, WaveShape, Mainloop, Epilogue, Scheduler>> {
  static std::string label() {
    using M = MainloopOf<Mainloop, Epilogue>;
    constexpr gemm::kernel::SplitKMode kSplitK = Scheduler::kMode;
    std::string const schedule =
        kSplitK == gemm::kernel::SplitKMode::kNone ? "" : std::string(", ") + gemm::kernel::to_string(kSplitK);
    return M::operands() + schedule + "; " + ShapeOf<TileShape>::name() + " / " + ShapeOf<WaveShape>::name() + " / " +
           M::atom_and_stages();
  }
};
template <class TileShape, class Mainloop, class Epilogue, class TileOrder>
struct KernelOf<gemm::kernel::GroupedGemmKernel<TileShape, Mainloop, Epilogue, TileOrder>> {
  static std::string label() {
    using M = MainloopOf<Mainloop, Epilogue>;
    if constexpr (requires { typename M::TileShapeType; }) {
      // The grouped kernel names no wave shape: the model reads both shapes off its mainloop.
      return M::operands() + ", grouped; " + ShapeOf<typename M::TileShapeType>::name() + " / " +
             ShapeOf<typename M::WaveShapeType>::name() + " / " + M::atom_and_stages();
    } else {
      return "?; ?; ? / ? / ? / ?";
    }
  }
};

}  // namespace detail

// The timing model's label of Config: a device operator (gemm::device::Gemm, GroupedGemm,
// conv::device::ImplicitGemmConvolution, …: its Kernel) or a kernel type itself.
template <class Config>
std::string timing_label() {
  if constexpr (requires { typename Config::Kernel; }) {
    return detail::KernelOf<typename Config::Kernel>::label();
  } else {
    return detail::KernelOf<Config>::label();
  }
}

}  // namespace hiptile::sim
