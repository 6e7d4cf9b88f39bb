#pragma once
// The tensor-copy loaders of Fprop's implicit GEMM (IteratorAlgorithm::kTensorCopy, NVIDIA sm_90
// with warpgroup MMAs): one thread asks the copy engine for each operand's K tile, so no thread
// works out a pixel's address or a tap's mask (fprop_loaders.hpp's precomputed loader builds both
// per block).
//
//   FpropActivationTensorCopy  A = x gathered: K tile kt is one filter tap of one 64-channel block;
//                              one copy in the copy engine's im2col mode walks the tile's TileM
//                              output pixels and reads each one's input pixel at that tap, the
//                              padding as zeros (the map is Wgrad's, activation_im2col)
//   FpropFilterTensorCopy      B = w as a K × (taps · C/groups) row-major matrix, K-contiguous: one
//                              tensor copy of TileN filters × the tile's 64 channels of its tap
//
// Both take the K tiles in the precomputed loaders' order (TapCursor: taps innermost) and land
// SwizzledLdsLayout stages of 128-byte rows (one 64-channel block per K tile). What the copies
// need (ImplicitGemmConvolution::can_implement): C/groups a multiple of 64, so that a block's
// channels share one tap and one group — or one group of at least 64 channels, a multiple of 8:
// the last block's channels past C are outside x's map and read as zeros, so the filter columns
// its box holds there (the next tap's first channels, or zeros) add nothing — and the im2col map's
// limits (arch/tensor_map.hpp).
#include <cstdint>

#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/tensor_maps.hpp"
#include "hiptile/conv/tap_cursor.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

template <class Element, class Layout>
class FpropActivationTensorCopy {
 public:
  using LdsLayout = Layout;
  static constexpr int kTileM = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static_assert(!requires { requires Layout::kMnContiguous; } && kTileK * int(sizeof(Element)) == 128,
                "x's stage holds one 64-channel block per K tile: K-contiguous rows of 128 bytes");
  static constexpr int kTileBytes = static_cast<int>(Layout::kBytes);

  using Params = ActivationIm2colParams<Element, kTileM>;
  using Problem = ConvGeometry;

  static bool offsets_fit(Params const& p, ConvGeometry const&) noexcept { return p.rank != 0; }

  // The block's first output pixel, split once; rows past the last image read zeros.
  HIPTILE_DEVICE HIPTILE_INLINE FpropActivationTensorCopy(Params const& p, ConvGeometry const& g, int m0, int batch,
                                                          int /*thread*/)
      : map_(&p.map), geometry_(&g), rank_(p.rank) {
    ConvProblemSize const& c = g.problem;
    channel_ = g.group_of(batch) * g.cg;
    k_tiles_ = g.taps * ceil_div(g.cg, kTileK);
    auto const [n, zpq] = g.div_zpq.divmod(m0);
    auto const [z, pq] = g.div_pq.divmod(zpq);
    auto const [pp, q] = g.div_q.divmod(pq);
    image_ = n;
    int const out[3] = {z, pp, q};
    HIPTILE_UNROLL
    for (int s = 0; s < 3; ++s) {  // W, H, D
      int const d = 2 - s;
      corner_[s] = out[d] * c.stride[d] - c.pad_before[d];
    }
    cursor_ = TapCursor<kTileK>(c.filter[0], c.filter[1], c.filter[2]);
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    cursor_.go_to(k_tile);
    std::uint16_t offsets[3];
    HIPTILE_UNROLL
    for (int s = 0; s < 3; ++s) {
      int const d = 2 - s;
      offsets[s] = static_cast<std::uint16_t>(geometry_->data_tap(d, cursor_.tap(d)) * geometry_->problem.dilation[d]);
    }
    int const channel = channel_ + cursor_.channel0();
    im2col_copy(rank_, stage, map_, channel, corner_, image_, offsets, landed);
    cursor_.step();
  }

 private:
  arch::TensorMap const* map_;  // in the kernel's parameters
  ConvGeometry const* geometry_;  // in the kernel's parameters
  int rank_;
  int channel_ = 0;  // x's first channel of the block's group
  int k_tiles_ = 0;
  int image_ = 0;
  int corner_[3] = {};  // W, H, D: the block's first output pixel's corner in x
  // The issuing thread's place in the K order, advanced by each copy (tiles come in order).
  mutable TapCursor<kTileK> cursor_;
};

template <class Element, class Layout>
class FpropFilterTensorCopy {
 public:
  using LdsLayout = Layout;
  static constexpr int kTileN = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static_assert(!requires { requires Layout::kMnContiguous; } && kTileK * int(sizeof(Element)) == 128,
                "w's stage holds one 64-channel block per K tile: K-contiguous rows of 128 bytes");
  static_assert(kTileN <= 256, "a tensor copy's box has at most 256 rows");
  static constexpr int kTileBytes = static_cast<int>(Layout::kBytes);

  // w as K rows of taps · C/groups elements; a box is 64 channels of one tap × TileN filters.
  using Params = FilterMatrixParams<Element, kTileK, kTileN>;
  using Problem = ConvGeometry;

  static bool offsets_fit(Params const& p, ConvGeometry const&) noexcept { return p.encoded; }

  // Filters past K/groups read the next group's (or zeros), into columns of D that the epilogue
  // does not store; a K tile's channels stay in one tap where C/groups is a multiple of 64, and
  // reach into the next tap's (multiplied by x's zeros) in a partial last block.
  HIPTILE_DEVICE HIPTILE_INLINE FpropFilterTensorCopy(Params const& p, ConvGeometry const& g, int n0, int batch,
                                                      int /*thread*/)
      : map_(&p.map), cg_(g.cg) {
    ConvProblemSize const& c = g.problem;
    row_ = g.group_of(batch) * g.kg + n0;
    k_tiles_ = g.taps * ceil_div(g.cg, kTileK);
    cursor_ = TapCursor<kTileK>(c.filter[0], c.filter[1], c.filter[2]);
    inner_[0] = c.filter[1] * c.filter[2];
    inner_[1] = c.filter[2];
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    cursor_.go_to(k_tile);
    int const tap = cursor_.tap(0) * inner_[0] + cursor_.tap(1) * inner_[1] + cursor_.tap(2);
    arch::tensor_copy_3d(stage, map_, tap * cg_ + cursor_.channel0(), row_, 0, landed);
    cursor_.step();
  }

 private:
  arch::TensorMap const* map_;  // in the kernel's parameters
  int cg_;
  int row_ = 0;  // the block's first filter
  int k_tiles_ = 0;
  int inner_[2] = {};  // filter taps per step of t and of r: R·S and S
  mutable TapCursor<kTileK> cursor_;  // as FpropActivationTensorCopy's
};

}  // namespace hiptile::conv
