#pragma once
// The copy engine's maps of the convolutions' operands, what the tensor-copy loaders
// (fprop_tensor_copies.hpp, dgrad_tensor_copies.hpp, wgrad_tensor_copies.hpp) share:
//
//   packed_im2col           host: what every im2col map of a packed image has
//   activation_im2col       host: x, walked over output pixels (Fprop's A, Wgrad's B)
//   gradient_im2col         host: dy, walked over a Dgrad row class's rows (Dgrad's A)
//   im2col_limits_hold      host: whether the copy engine takes a map and the filter taps' offsets
//   encode_im2col           host: the map, where those limits hold
//   ActivationIm2colParams  host: x's map and geometry, the Params of Fprop's A and Wgrad's B
//   encode_filter_matrix    host: w as a K × (taps · C/groups) row-major matrix (Fprop's and Dgrad's B)
//   FilterMatrixParams      host: w's matrix map and geometry, the Params of Fprop's and Dgrad's B
//   im2col_copy             device: one im2col copy through a map of rank 4 or 5
#include <climits>
#include <cstdint>

#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

// Host: what every im2col map of a packed image shares: N images of `extents` (D, H, W)
// pixels of `channels` channels at `base`, copied 128 bytes of channels a pixel, `pixels` pixels a
// copy. 2-D problems (D = T = 1, so one output plane) take rank 4, whose corners may range further
// than rank 5's. The caller sets each spatial dimension's bounding box and traversal stride.
template <class Element>
arch::Im2colTensorMap packed_im2col(ConvGeometry const& g, Element const* base, int channels, Spatial const& extents,
                                    int pixels) noexcept {
  ConvProblemSize const& p = g.problem;
  arch::Im2colTensorMap m;
  m.base = base;
  m.element_bytes = int(sizeof(Element));
  bool const planar = p.input[0] == 1 && p.filter[0] == 1 && g.out[0] == 1;
  m.rank = planar ? 4 : 5;
  std::uint64_t stride = sizeof(Element) * std::uint64_t(channels);
  m.extents[0] = std::uint64_t(channels);
  for (int s = 0; s < m.rank - 2; ++s) {  // W, H, D: the problem's dimension 2 − s
    m.extents[1 + s] = std::uint64_t(extents[2 - s]);
    m.strides[s] = stride;
    stride *= std::uint64_t(extents[2 - s]);
  }
  m.extents[m.rank - 1] = std::uint64_t(p.n);
  m.strides[m.rank - 2] = stride;
  m.channels = std::uint32_t(128 / sizeof(Element));
  m.pixels = std::uint32_t(pixels);
  return m;
}

// Host: x (NDHWC) as Wgrad's B reads it: each copy `pixels` consecutive output pixels' input pixels
// at one filter tap. The bounding box of the first tap runs from −pad_before to the last output
// position's corner, walked in steps of the stride.
template <class Element>
arch::Im2colTensorMap activation_im2col(ConvGeometry const& g, Element const* x, int pixels) noexcept {
  ConvProblemSize const& p = g.problem;
  arch::Im2colTensorMap m = packed_im2col(g, x, p.c, p.input, pixels);
  for (int s = 0; s < m.rank - 2; ++s) {
    int const d = 2 - s;
    m.lower[s] = -p.pad_before[d];
    m.upper[s] = int(std::int64_t(g.out[d] - 1) * p.stride[d] - p.pad_before[d] - (p.input[d] - 1));
    m.traversal[s] = std::uint32_t(p.stride[d]);
  }
  return m;
}

// Host: dy (NZPQK) as Dgrad's A reads it for row class `cls`: each copy `pixels` consecutive class
// rows at one class tap. The bounding box starts at row 0's corner for the class's last tap,
// base − (taps − 1)·dilation, and spans the class's extent, walked in unit steps.
template <class Element>
arch::Im2colTensorMap gradient_im2col(ConvGeometry const& g, ConvGeometry::DgradClass const& cls, Element const* dy,
                                      int pixels) noexcept {
  ConvProblemSize const& p = g.problem;
  arch::Im2colTensorMap m = packed_im2col(g, dy, p.k, g.out, pixels);
  for (int s = 0; s < m.rank - 2; ++s) {
    int const d = 2 - s;
    DgradClassDim const& c = cls.dim[d];
    m.lower[s] = c.base - (c.taps - 1) * p.dilation[d];
    m.upper[s] = m.lower[s] + c.count - g.out[d];
    m.traversal[s] = 1;
  }
  return m;
}

// Host: whether the copy engine takes `m` (its rules, arch/tensor_map.hpp, checked here so that
// no driver's leniency decides) and the filter taps' offsets, which a copy carries in 16 bits.
inline bool im2col_limits_hold(arch::Im2colTensorMap const& m, ConvProblemSize const& p) noexcept {
  int const reach = m.rank == 4 ? 128 : 16;
  for (int s = 0; s < m.rank - 2; ++s) {
    if (m.lower[s] < -reach || m.lower[s] >= reach || m.upper[s] < -reach || m.upper[s] >= reach ||
        m.traversal[s] < 1 || m.traversal[s] > 8) {
      return false;
    }
  }
  for (int d = 0; d < 3; ++d) {
    if (std::int64_t(p.filter[d] - 1) * p.dilation[d] > 0xffff) return false;
  }
  return m.pixels <= 1024;
}

// Host: encodes `image` into `map` where the limits above hold and the driver takes it.
inline bool encode_im2col(arch::TensorMap& map, arch::Im2colTensorMap const& image, ConvProblemSize const& p) noexcept {
  return im2col_limits_hold(image, p) && arch::encode_tensor_map(map, image);
}

// x's im2col map (activation_im2col): the Params of Fprop's A and Wgrad's B (the geometry is the
// kernel's), `Pixels` output pixels a copy. rank 0 where the copy engine's limits refuse the problem.
template <class Element, int Pixels>
struct ActivationIm2colParams {
  arch::TensorMap map{};
  int rank = 0;  // of the map: 4 or 5

  ActivationIm2colParams() = default;
  ActivationIm2colParams(ConvOperand<Element> const& x, ConvGeometry const& g) noexcept {
    arch::Im2colTensorMap const image = activation_im2col(g, x.data, Pixels);
    if (encode_im2col(map, image, g.problem)) rank = image.rank;
  }
};

// Host: w (KTRSC) as a K × (taps · C/groups) row-major matrix, copied in boxes of `box_columns`
// elements (128 bytes) × `box_rows` filters; false where the driver refuses it or a coordinate
// would not fit the copies' ints.
template <class Element>
bool encode_filter_matrix(arch::TensorMap& map, ConvOperand<Element> const& w, ConvGeometry const& g,
                          std::uint32_t box_columns, std::uint32_t box_rows) noexcept {
  std::uint64_t const columns = std::uint64_t(g.taps) * std::uint64_t(g.cg);
  std::uint64_t const rows = std::uint64_t(g.problem.k);
  arch::TensorMap3d const tensor{w.data,
                                 int(sizeof(Element)),
                                 {columns, rows, 1},
                                 {columns * sizeof(Element), round_up<std::uint64_t>(columns * rows * sizeof(Element), 16)},
                                 {box_columns, box_rows, 1}};
  return columns <= INT32_MAX && rows <= INT32_MAX && arch::encode_tensor_map(map, tensor);
}

// w's matrix map (encode_filter_matrix): the Params of Fprop's and Dgrad's B (the geometry is the
// kernel's), boxes of `BoxColumns` elements × `BoxRows` filters. `encoded` false where the driver or
// the copies' ints refuse the problem.
template <class Element, int BoxColumns, int BoxRows>
struct FilterMatrixParams {
  arch::TensorMap map{};
  bool encoded = false;

  FilterMatrixParams() = default;
  FilterMatrixParams(ConvOperand<Element> const& w, ConvGeometry const& g) noexcept
      : encoded(encode_filter_matrix(map, w, g, BoxColumns, BoxRows)) {}
};

// One im2col copy (arch::tensor_copy_im2col) through `map`, of rank 4 or 5.
HIPTILE_DEVICE HIPTILE_INLINE void im2col_copy(int rank, void* stage, arch::TensorMap const* map, int channel,
                                               int const (&corner)[3], int image, std::uint16_t const (&offsets)[3],
                                               arch::SharedBarrier* landed) {
  if (rank == 4) {
    arch::tensor_copy_im2col<4>(stage, map, channel, corner, image, offsets, landed);
  } else {
    arch::tensor_copy_im2col<5>(stage, map, channel, corner, image, offsets, landed);
  }
}

}  // namespace hiptile::conv
