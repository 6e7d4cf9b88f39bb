#pragma once
// DefaultTunedGemm: TunedGemm over DefaultGemm's candidates for these types, layouts and
// architecture (gemm/device/default_gemm.hpp lists them: the default tile data-parallel and with
// stream-K, the small-M stream-K tiles, parallel split-K), the default list find mode chooses from.
//
//   using Gemm = hiptile::tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
//                                                hiptile::arch::Gfx942>;
//
// TunedGemmOf<S> gives TunedGemm over the candidates of any SelectingGemm S.
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/selecting_gemm.hpp"
#include "hiptile/tune/tuned_gemm.hpp"

namespace hiptile::tune {

template <class Selecting>
struct TunedGemmOf;
template <class... Candidates>
struct TunedGemmOf<gemm::device::SelectingGemm<Candidates...>> {
  using type = TunedGemm<Candidates...>;
};

template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp = gemm::device::DefaultOutputOp<ElementA, ElementC>>
using DefaultTunedGemm = typename TunedGemmOf<
    gemm::device::DefaultGemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, OutputOp>>::type;

}  // namespace hiptile::tune
