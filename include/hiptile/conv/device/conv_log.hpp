#pragma once
// What a convolution operator writes to the log (log/logger.hpp; docs/logging.md):
//
//   conv_problem_text(p)        "fprop N32 56x56 C64 -> K64, filter 3x3, pad 1/1, stride 1, dilation 1, groups 1"
//   conv_configuration_name<C>() "f16->f16, fprop, precomputed, 8 channels per access; tile 128x128x32,
//                                 wave 64x64x32, v_mfma_f32_32x32x8_f16, 1 stage, data-parallel"
//                                (a direct convolution: its channels and output positions a workgroup)
//
// Formatting only, called behind logging::enabled tests.
#include <ostream>
#include <sstream>
#include <string>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/numeric/element_name.hpp"

namespace hiptile::conv::device {

inline std::string conv_problem_text(ConvOperator op, ConvProblemSize const& p) {
  std::ostringstream os;
  auto spatial = [&](Spatial const& s) {
    if (s[0] != 1) os << s[0] << "x";
    os << s[1] << "x" << s[2];
  };
  os << to_string(op) << " N" << p.n << " ";
  spatial(p.input);
  os << " C" << p.c << " -> K" << p.k << ", filter ";
  spatial(p.filter);
  os << ", pad " << p.pad_before[1] << "/" << p.pad_after[1] << " x " << p.pad_before[2] << "/" << p.pad_after[2]
     << ", stride " << p.stride[1] << "x" << p.stride[2] << ", dilation " << p.dilation[1] << "x" << p.dilation[2]
     << ", groups " << p.groups;
  if (p.mode == ConvMode::kConvolution) os << ", convolution";
  return os.str();
}

template <class C>
std::string conv_configuration_name() {
  std::ostringstream os;
  os << element_name<typename C::Element>() << "->" << element_name<typename C::ElementC>() << ", "
     << to_string(C::kOperator) << ", " << to_string(C::kAlgorithm) << ", " << C::kAccessElements
     << (C::kAccessElements == 1 ? " channel" : " channels") << " per access; ";
  if constexpr (C::kAlgorithm == IteratorAlgorithm::kDirect) {
    os << "depthwise, " << C::TileShapeType::kN << " channels by up to " << C::TileShapeType::kM
       << " output positions a workgroup, " << C::kThreads << " threads";
  } else {
    os << gemm::device::tile_text<C>();
  }
  return os.str();
}

}  // namespace hiptile::conv::device
