#pragma once
// The copy engine's im2col maps of the convolutions' gathered operands (arch::Im2colTensorMap),
// built on the host, and the limits hiptile checks before the driver sees them:
//
//   packed_im2col      what both share
//   activation_im2col  x as Wgrad's B reads it (wgrad_tensor_copies.hpp)
//   gradient_im2col    dy as Dgrad's A reads it, one map per row class (dgrad_tensor_copies.hpp)
//   im2col_limits_hold whether the copy engine takes a map and the filter taps' offsets
#include <cstdint>

#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_problem_size.hpp"

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

}  // namespace hiptile::conv
