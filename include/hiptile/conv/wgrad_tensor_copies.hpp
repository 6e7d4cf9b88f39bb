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
#include "hiptile/conv/tensor_maps.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/tensor_tile_copy.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

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
    Params(ConvOperand<Element> const& dy, ConvGeometry const& g) noexcept : copy(matrix(dy, g), 1), kg(g.kg) {}
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
  static gemm::OperandView<Element> matrix(ConvOperand<Element> const& dy, ConvGeometry const& g) noexcept {
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

  using Params = ActivationIm2colParams<Element, kTileK>;
  using Problem = ConvGeometry;

  static bool offsets_fit(Params const& p, ConvGeometry const&) noexcept { return p.rank != 0; }

  // Each block's channel and filter tap, found once: a column past taps · C/groups (the tile's edge)
  // reads column 0's, into columns of D that the epilogue does not store.
  HIPTILE_DEVICE HIPTILE_INLINE WgradActivationTensorCopy(Params const& p, ConvGeometry const& g, int n0, int batch,
                                                          int /*thread*/)
      : p_(p), g_(g) {
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

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return ceil_div(g_.output_pixels(), kTileK); }

  // K tile `k_tile`: output pixels k_tile · TileK on. A tile that runs past the last image reads
  // zeros there.
  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    ConvGeometry const& g = g_;
    ConvProblemSize const& c = g.problem;
    auto const [n, zpq] = g.div_zpq.divmod(k_tile * kTileK);
    auto const [z, pq] = g.div_pq.divmod(zpq);
    auto const [pp, q] = g.div_q.divmod(pq);
    int const corner[3] = {q * c.stride[2] - c.pad_before[2], pp * c.stride[1] - c.pad_before[1],
                           z * c.stride[0] - c.pad_before[0]};
    HIPTILE_UNROLL
    for (int b = 0; b < kBlocks; ++b) {
      Element* const block = stage + b * Layout::kBlockElements;
      im2col_copy(p_.rank, block, &p_.map, channel_[b], corner, n, offsets_[b], landed);
    }
  }

 private:
  Params const& p_;     // in the kernel's parameters
  ConvGeometry const& g_;  // the kernel's
  int channel_[kBlocks];
  std::uint16_t offsets_[kBlocks][3];  // W, H, D
};

}  // namespace hiptile::conv
