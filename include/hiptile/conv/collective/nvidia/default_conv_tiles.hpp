#pragma once
// NVIDIA's part of DefaultConvolution's choices (conv/device/default_convolution.hpp): Sm90 takes
// warpgroup MMAs for the 16-bit types, every operator. Part of NVIDIA's builder: included by nvcc
// translation units only (and by host code that reasons about NVIDIA defaults).
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/gemm/collective/nvidia/default_configurations.hpp"

namespace hiptile::conv::device {

// Sm90's atom: warpgroup MMAs for the 16-bit types (DefaultMmaAtom says which others exist; the
// convolutions take f16, bf16 and f32).
template <class Element>
struct ConvAtomSm90 : gemm::device::DefaultMmaAtom<Element, Element, arch::Sm90> {};
template <class Element>
  requires(arch::kWarpgroupMmaElement<Element> && sizeof(Element) == 2)
struct ConvAtomSm90<Element> : std::type_identity<arch::WarpgroupMma<Element>> {};
template <ConvOperator Op>
struct DefaultConvTile<Op, arch::Sm90> {
  using TileShape = GemmShape<128, Op == ConvOperator::kWgrad ? 128 : 64, 64>;
  using WaveShape = GemmShape<16, TileShape::kN, 64>;
  static constexpr int kStages = 4;
  template <class Element>
  using MmaAtom = typename ConvAtomSm90<Element>::type;
};
}  // namespace hiptile::conv::device
