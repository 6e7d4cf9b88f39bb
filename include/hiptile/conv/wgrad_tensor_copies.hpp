#pragma once
// The tensor-copy loaders of Wgrad's implicit GEMM (IteratorAlgorithm::kTensorCopy, NVIDIA sm_90
// with warpgroup MMAs): one thread asks the copy engine for each operand's whole K tile, as GEMM's
// TensorTileCopy does, so no thread works out a pixel's address. That per-pixel integer work
// bounds the gathering loaders of wgrad_loaders.hpp on the H100 (docs/performance.md).
//
//   WgradOutputGradientTensorCopy  A = dyᵀ: dy as an (N·Z·P·Q) × K row-major matrix, whose
//                                  channels (M) are contiguous: gemm::block::TensorTileCopy's
//                                  MN-major copies, one per 64-channel block
//   WgradActivationTensorCopy      B = x gathered: for each 64-channel block of the tile's columns
//                                  (one filter tap, since C/groups is a multiple of 64), one copy
//                                  in the copy engine's im2col mode walks the K tile's output pixels
//                                  and reads the input pixel each meets at that tap, padding as zeros
//
// Both land SwizzledMnLdsLayout stages: blocks of 64 channels × TileK pixels in the 128-byte
// swizzle, which warpgroup MMAs read with their transpose bit. What the copies need
// (ImplicitGemmConvolution::can_implement): C/groups a multiple of 64, and the im2col map's limits
// (arch/tensor_map.hpp) — padding and the bounding box's far corner within [-128, 127] for 2-D
// problems ([-16, 15] for 3-D), strides up to 8.
#include <cstdint>

#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/tensor_tile_copy.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

// Host: x (NDHWC) as the copy engine's im2col mode reads it for Wgrad's B: each copy `pixels`
// consecutive output pixels' input pixels at one filter tap, 128 bytes of channels a pixel. The
// bounding box of the first tap runs from −pad_before to the last output position's corner, walked
// in steps of the stride. 2-D problems (D = T = 1, so one output plane) take rank 4, whose corners
// may range further than rank 5's.
template <class Element>
arch::Im2colTensorMap activation_im2col(ConvGeometry const& g, Element const* x, int pixels) noexcept {
  ConvProblemSize const& p = g.problem;
  arch::Im2colTensorMap m;
  m.base = x;
  m.element_bytes = int(sizeof(Element));
  bool const planar = p.input[0] == 1 && p.filter[0] == 1 && g.out[0] == 1;
  m.rank = planar ? 4 : 5;
  std::uint64_t stride = sizeof(Element) * std::uint64_t(p.c);
  m.extents[0] = std::uint64_t(p.c);
  for (int s = 0; s < m.rank - 2; ++s) {  // W, H, D: the problem's dimension 2 − s
    int const d = 2 - s;
    m.extents[1 + s] = std::uint64_t(p.input[d]);
    m.strides[s] = stride;
    stride *= std::uint64_t(p.input[d]);
    m.lower[s] = -p.pad_before[d];
    m.upper[s] = int(std::int64_t(g.out[d] - 1) * p.stride[d] - p.pad_before[d] - (p.input[d] - 1));
    m.traversal[s] = std::uint32_t(p.stride[d]);
  }
  m.extents[m.rank - 1] = std::uint64_t(p.n);
  m.strides[m.rank - 2] = stride;
  m.channels = std::uint32_t(128 / sizeof(Element));
  m.pixels = std::uint32_t(pixels);
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

template <class Element, class Layout>
class WgradOutputGradientTensorCopy {
  using Copy = gemm::block::TensorTileCopy<Element, Layout>;
  static_assert(Copy::kMnMajor, "dy is read K- (M-) contiguous");

 public:
  using LdsLayout = Layout;
  static constexpr int kTileBytes = Copy::kTileBytes;

  struct Params {
    typename Copy::Params copy;
    int kg = 0;  // K/groups: the first channel of group g is g·kg

    Params() = default;
    explicit Params(ConvOperand<Element> const& dy) noexcept : copy(matrix(dy), 1), kg(dy.geometry.kg) {}
  };

  static bool offsets_fit(Params const& p) noexcept { return Copy::offsets_fit(p.copy); }

  // Wgrad has one row class, so `batch` is the group. Rows past the group's K/groups channels read
  // the next group's (or zeros); they make rows of D that the epilogue does not store.
  HIPTILE_DEVICE HIPTILE_INLINE WgradOutputGradientTensorCopy(Params const& p, int m0, int batch, int thread)
      : copy_(p.copy, batch * p.kg + m0, 0, thread) {}

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return copy_.k_tiles(); }

  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    copy_.copy(stage, k_tile, landed);
  }

 private:
  static gemm::OperandView<Element> matrix(ConvOperand<Element> const& dy) noexcept {
    ConvGeometry const& g = dy.geometry;
    gemm::OperandView<Element> v;
    v.data = dy.data;
    v.ld = g.problem.k;
    v.extent_mn = g.problem.k;
    v.extent_k = g.output_pixels();
    v.span_bytes = dy.elements * std::int64_t(sizeof(Element));
    return v;
  }

  Copy copy_;
};

template <class Element, class Layout>
class WgradActivationTensorCopy {
 public:
  using LdsLayout = Layout;
  static constexpr int kTileN = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static constexpr int kBlockChannels = Layout::kBlockMN;
  static constexpr int kBlocks = kTileN / kBlockChannels;
  static_assert(Layout::kMnContiguous && kBlockChannels * int(sizeof(Element)) == 128,
                "im2col copies write 128-byte rows (the 128-byte swizzle) of MN-contiguous blocks");
  static constexpr int kTileBytes = static_cast<int>(Layout::kBytes);

  struct Params {
    arch::TensorMap map{};
    ConvGeometry geometry;
    int rank = 0;  // of the map: 4 or 5, or 0 where the copy engine's limits refuse the problem

    Params() = default;
    explicit Params(ConvOperand<Element> const& x) noexcept : geometry(x.geometry) {
      arch::Im2colTensorMap const image = activation_im2col(x.geometry, x.data, kTileK);
      if (im2col_limits_hold(image, x.geometry.problem) && arch::encode_tensor_map(map, image)) rank = image.rank;
    }
  };

  static bool offsets_fit(Params const& p) noexcept { return p.rank != 0; }

  // Each block's channel and filter tap, found once: a column past taps · C/groups (the tile's edge)
  // reads column 0's, into columns of D that the epilogue does not store.
  HIPTILE_DEVICE HIPTILE_INLINE WgradActivationTensorCopy(Params const& p, int n0, int batch, int /*thread*/) : p_(p) {
    ConvGeometry const& g = p.geometry;
    int const columns = g.taps * g.cg;
    HIPTILE_UNROLL
    for (int b = 0; b < kBlocks; ++b) {
      int const column = n0 + b * kBlockChannels;
      auto const [tap, channel] = g.div_cg.divmod(column < columns ? column : 0);
      auto const [t, rs] = g.div_rs.divmod(tap);
      auto const [r, s] = g.div_s.divmod(rs);
      int const filter[3] = {t, r, s};
      channel_[b] = batch * g.cg + channel;  // one row class: `batch` is the group
      HIPTILE_UNROLL
      for (int i = 0; i < 3; ++i) {  // W, H, D
        int const d = 2 - i;
        offsets_[b][i] = static_cast<std::uint16_t>(g.data_tap(d, filter[d]) * g.problem.dilation[d]);
      }
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return ceil_div(p_.geometry.output_pixels(), kTileK); }

  // K tile `k_tile`: output pixels k_tile · TileK on. A tile that runs past the last image reads
  // zeros there.
  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    ConvGeometry const& g = p_.geometry;
    ConvProblemSize const& c = g.problem;
    auto const [n, zpq] = g.div_zpq.divmod(k_tile * kTileK);
    auto const [z, pq] = g.div_pq.divmod(zpq);
    auto const [pp, q] = g.div_q.divmod(pq);
    int const corner[3] = {q * c.stride[2] - c.pad_before[2], pp * c.stride[1] - c.pad_before[1],
                           z * c.stride[0] - c.pad_before[0]};
    HIPTILE_UNROLL
    for (int b = 0; b < kBlocks; ++b) {
      Element* const block = stage + b * Layout::kBlockElements;
      if (p_.rank == 4) {
        arch::tensor_copy_im2col<4>(block, &p_.map, channel_[b], corner, n, offsets_[b], landed);
      } else {
        arch::tensor_copy_im2col<5>(block, &p_.map, channel_[b], corner, n, offsets_[b], landed);
      }
    }
  }

 private:
  Params const& p_;  // in the kernel's parameters
  int channel_[kBlocks];
  std::uint16_t offsets_[kBlocks][3];  // W, H, D
};

}  // namespace hiptile::conv
