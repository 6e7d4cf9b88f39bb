#pragma once
// The tensor-copy loaders of Dgrad's implicit GEMM (IteratorAlgorithm::kTensorCopy, NVIDIA sm_90
// with warpgroup MMAs), one row class at a time (dgrad_loaders.hpp): one thread asks the copy engine
// for each operand's K tile, so no thread works out a pixel's address or a tap's mask. On the H100
// the precomputed loaders spent over half of a 1×1 stride-2 Dgrad's instructions building their
// per-row positions and masks (docs/performance.md).
//
//   DgradOutputGradientTensorCopy  A = dy gathered: K tile kt is one class tap of one 64-channel
//                                  block; one copy in the copy engine's im2col mode walks the
//                                  tile's class rows (n, j_d, j_h, j_w) and reads dy at
//                                  base + j − a·dilation for class tap a, zeros outside dy
//   DgradFilterTensorCopy          B = w as a K × (taps · C/groups) row-major matrix: for the tile's
//                                  filter tap, one tensor copy per 64-channel block of its columns
//
// Both take the K tiles in the precomputed loaders' order (TapCursor: class taps innermost).
// A's stage is SwizzledLdsLayout (TileM rows of 128 bytes: one 64-channel block per K tile), B's
// SwizzledMnLdsLayout, both in the copy engine's 128-byte swizzle.
//
// The im2col walk: for class tap a the copy reads dy at corner + j + offset, with offset
// (taps − 1 − a)·dilation ≥ 0 per dimension, so the corner of row j is base + j − (taps − 1)·dilation.
// Each row class has its own map: its bounding box starts at that corner of j = 0 and spans the
// class's extent (count) per dimension, so the walk wraps to the next row and image where the
// class's rows do. What the copies need (ImplicitGemmConvolution::can_implement): K/groups a
// multiple of 64 (or one group of at least 64 filters, a multiple of 8: the last block's channels
// past K are outside dy's and w's maps and read as zeros), at most kMaxTapClasses row classes with
// taps (each map rides in the kernel's parameters), and the im2col map's limits
// (arch/tensor_map.hpp).
#include <cstdint>

#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/dgrad_loaders.hpp"
#include "hiptile/conv/tap_cursor.hpp"
#include "hiptile/conv/tensor_maps.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

template <class Element, class Layout>
class DgradOutputGradientTensorCopy {
 public:
  using LdsLayout = Layout;
  static constexpr int kTileM = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static_assert(!requires { requires Layout::kMnContiguous; } && kTileK * int(sizeof(Element)) == 128,
                "dy's stage holds one 64-channel block per K tile: K-contiguous rows of 128 bytes");
  static constexpr int kTileBytes = static_cast<int>(Layout::kBytes);
  // Row classes with taps whose maps the parameters hold: every 2-D stride up to 3 (3 × 3 classes).
  static constexpr int kMaxTapClasses = 9;

  struct Params {
    arch::TensorMap maps[kMaxTapClasses]{};  // by a class's index among those with taps
    int rank = 0;  // of the maps: 4 or 5, or 0 where the copy engine's limits refuse the problem

    Params() = default;
    Params(ConvOperand<Element> const& dy, ConvGeometry const& g) noexcept {
      if (g.tap_classes > kMaxTapClasses) return;
      int map_rank = 0;
      for (int t = 0; t < g.tap_classes; ++t) {
        ConvGeometry::DgradClass const cls = g.dgrad_class(g.class_index_of(t));
        arch::Im2colTensorMap const image = gradient_im2col(g, cls, dy.data, kTileM);
        map_rank = image.rank;
        if (cls.per_image == 0) continue;  // no rows: never copied
        if (!encode_im2col(maps[t], image, g.problem)) return;
      }
      rank = map_rank;
    }
  };

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const& p, ConvGeometry const&) noexcept { return p.rank != 0; }

  // A block past its class's rows (a smaller class than the largest) has no K tiles.
  HIPTILE_DEVICE HIPTILE_INLINE DgradOutputGradientTensorCopy(Params const& p, ConvGeometry const& g, int m0,
                                                              int batch, int /*thread*/)
      : map_(&p.maps[g.div_tap_classes.mod(batch)]), rank_(p.rank) {
    ConvGeometry::DgradClass const cls = g.dgrad_class(g.class_index_of(batch));
    channel_ = g.group_of(batch) * g.kg;
    k_tiles_ = m0 < g.problem.n * cls.per_image ? class_k_tiles<kTileK>(cls, g.kg) : 0;
    if (k_tiles_ == 0) return;
    int j[3];
    image_ = g.dgrad_row<true>(cls, m0, j);
    HIPTILE_UNROLL
    for (int s = 0; s < 3; ++s) {  // W, H, D
      int const d = 2 - s;
      DgradClassDim const& c = cls.dim[d];
      corner_[s] = c.base - (c.taps - 1) * g.problem.dilation[d] + j[d];
      last_tap_[s] = c.taps - 1;
      dilation_[s] = g.problem.dilation[d];
    }
    cursor_ = TapCursor<kTileK>(cls.dim[0].taps, cls.dim[1].taps, cls.dim[2].taps);
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    cursor_.go_to(k_tile);
    std::uint16_t offsets[3];
    HIPTILE_UNROLL
    for (int s = 0; s < 3; ++s) {
      offsets[s] = static_cast<std::uint16_t>((last_tap_[s] - cursor_.tap(2 - s)) * dilation_[s]);
    }
    int const channel = channel_ + cursor_.channel0();
    im2col_copy(rank_, stage, map_, channel, corner_, image_, offsets, landed);
    cursor_.step();
  }

 private:
  arch::TensorMap const* map_;  // the block's class's, in the kernel's parameters
  int rank_;
  int channel_ = 0;  // dy's first channel of the block's group
  int k_tiles_ = 0;
  int image_ = 0;
  int corner_[3] = {};  // W, H, D: the corner of the block's first row
  int last_tap_[3] = {};
  int dilation_[3] = {};
  // The issuing thread's place in the K order, advanced by each copy (tiles come in order).
  mutable TapCursor<kTileK> cursor_;
};

template <class Element, class Layout>
class DgradFilterTensorCopy {
 public:
  using LdsLayout = Layout;
  static constexpr int kTileN = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static constexpr int kBlockChannels = Layout::kBlockMN;
  static constexpr int kBlocks = kTileN / kBlockChannels;
  static_assert(Layout::kMnContiguous && kBlockChannels * int(sizeof(Element)) == 128,
                "tensor copies write 128-byte rows (the 128-byte swizzle) of MN-contiguous blocks");
  static_assert(kTileK <= 256, "a tensor copy's box has at most 256 rows");
  static constexpr int kTileBytes = static_cast<int>(Layout::kBytes);

  // w as K rows of taps · C/groups elements; a box is 64 channels of one tap × TileK filters.
  using Params = FilterMatrixParams<Element, kBlockChannels, kTileK>;
  using Problem = ConvGeometry;

  static bool offsets_fit(Params const& p, ConvGeometry const&) noexcept { return p.encoded; }

  // Columns past C/groups read the next tap's channels (or zeros), into columns of D that the
  // epilogue does not store; a tile's filters stay in its group (K/groups is a multiple of 64).
  HIPTILE_DEVICE HIPTILE_INLINE DgradFilterTensorCopy(Params const& p, ConvGeometry const& g, int n0, int batch,
                                                      int /*thread*/)
      : map_(&p.map), cg_(g.cg) {
    ConvGeometry::DgradClass const cls = g.dgrad_class(g.class_index_of(batch));
    row_ = g.group_of(batch) * g.kg;
    k_tiles_ = class_k_tiles<kTileK>(cls, g.kg);
    cursor_ = TapCursor<kTileK>(cls.dim[0].taps, cls.dim[1].taps, cls.dim[2].taps);
    filter_taps_ = DgradClassFilterTaps(g, cls);
    column0_ = n0;
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    cursor_.go_to(k_tile);
    int const column = filter_taps_.at(cursor_) * cg_ + column0_;
    int const row = row_ + cursor_.channel0();
    HIPTILE_UNROLL
    for (int b = 0; b < kBlocks; ++b) {
      arch::tensor_copy_3d(stage + b * Layout::kBlockElements, map_, column + b * kBlockChannels, row, 0, landed);
    }
    cursor_.step();
  }

 private:
  arch::TensorMap const* map_;  // in the kernel's parameters
  int cg_;
  int row_ = 0;      // the block's group's first filter
  int k_tiles_ = 0;
  int column0_ = 0;  // the block's first channel
  DgradClassFilterTaps filter_taps_;
  mutable TapCursor<kTileK> cursor_;  // as DgradOutputGradientTensorCopy's
};

}  // namespace hiptile::conv
