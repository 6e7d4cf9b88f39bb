#pragma once
// The loaders of Dgrad's implicit GEMM (dx from dy and w), one row class at a time
// (conv_geometry.hpp, class_dim): M = the class's input pixels N·cD·cH·cW, N = C/groups,
// K = the class's taps · channel blocks of K/groups. Unit stride is the one class that holds every
// pixel and every tap; with stride s a class visits only the taps congruent to its residue. A
// class with none (stride larger than the filter) is not a batch of the GEMM: TaplessClassFill
// writes its rows (the epilogue's β·C and bias alone).
//
//   AnalyticDgradOutputGradientLoader     A = dy gathered; coordinates recomputed each K tile with
//                                         `/` and `%`; AccessElements channels per access
//   PrecomputedDgradOutputGradientLoader  A = dy gathered; each row's position found once per block
//                                         with the class's host-built FastDivmods, the tap advanced
//                                         by increments, valid taps as bit masks; whole vectors
//   DgradFilterLoader                     B = w read C-contiguous (MN-major), for both
#include <cstdint>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/fprop_loaders.hpp"
#include "hiptile/conv/tap_cursor.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

// The class tap `a` (0 <= a < class taps, D outermost) as a per-dimension tap index a_i.
HIPTILE_HOST_DEVICE HIPTILE_INLINE void class_tap(ConvGeometry::DgradClass const& c, int a, int (&tap)[3]) {
  tap[2] = a % c.dim[2].taps;
  tap[1] = (a / c.dim[2].taps) % c.dim[1].taps;
  tap[0] = a / (c.dim[2].taps * c.dim[1].taps);
}

// K tiles of a row class: its taps times the channel blocks of K/groups; none for a class with no
// rows (an image smaller than the stride) — its taps are then never visited.
template <int TileK>
HIPTILE_HOST_DEVICE HIPTILE_INLINE int class_k_tiles(ConvGeometry::DgradClass const& c, int kg) {
  return c.per_image > 0 ? c.taps * ceil_div(kg, TileK) : 0;
}

// Where a row class's taps lie in the filter (taps counted (f_d·R + f_h)·S + f_w): class tap a_i is
// filter tap data_tap(residue_i + a_i·stride_i), a step of ±stride_i (the sign: convolution mode)
// from the class's first, so a K tile's filter tap is a dot product and the K loop divides nothing.
// The gathering and the copying filter loaders both walk it.
struct DgradClassFilterTaps {
  int first = 0;              // the filter tap of class tap (0, 0, 0)
  int step[3] = {0, 0, 0};    // filter taps per class tap in each dimension

  DgradClassFilterTaps() = default;
  HIPTILE_HOST_DEVICE HIPTILE_INLINE DgradClassFilterTaps(ConvGeometry const& g, ConvGeometry::DgradClass const& cls) {
    ConvProblemSize const& c = g.problem;
    int const inner[3] = {c.filter[1] * c.filter[2], c.filter[2], 1};
    HIPTILE_UNROLL
    for (int i = 0; i < 3; ++i) {
      int const stride = c.stride[i] > 1 ? c.stride[i] : 1;
      first += g.data_tap(i, cls.dim[i].residue) * inner[i];
      step[i] = (g.flip ? -stride : stride) * inner[i];
    }
  }

  // The filter tap of the class tap `cursor` stands at.
  template <int TileK>
  HIPTILE_DEVICE HIPTILE_INLINE int at(TapCursor<TileK> const& cursor) const {
    return first + cursor.tap(0) * step[0] + cursor.tap(1) * step[1] + cursor.tap(2) * step[2];
  }
};

// Reach of a dgrad A block: the images the rows of its class can come from, whose per-image rows
// are at least the product of max(1, input / stride).
inline std::int64_t dgrad_images_reached(ConvGeometry const& g, std::int64_t rows) {
  ConvProblemSize const& c = g.problem;
  std::int64_t per_image = 1;
  for (int i = 0; i < 3; ++i) {
    std::int64_t const e = c.input[i] / c.stride[i];
    per_image *= e > 0 ? e : 1;
  }
  return images_reached(rows, per_image, c.n);
}

// Reach of a dgrad A block from its base.
template <int TileM, class Element>
bool dgrad_gradient_fits(ConvGeometry const& geometry) noexcept {
  return ConvOperand<Element>::reach_fits(dgrad_images_reached(geometry, TileM) * geometry.padded_gradient_image());
}

template <class Tile>
class AnalyticDgradOutputGradientLoader : public gemm::block::GatheringLoader<AnalyticDgradOutputGradientLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<AnalyticDgradOutputGradientLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileM = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "dy is channel- (K-) contiguous");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return dgrad_gradient_fits<kTileM, Element>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE AnalyticDgradOutputGradientLoader(Params const& p, ConvGeometry const& geometry, int m0,
      int batch, int thread)
      : Base(thread), g_(geometry), class_(geometry.dgrad_class(geometry.class_index_of(batch))), m0_(m0) {
    n_first_ = class_.per_image > 0 ? m0 / class_.per_image : 0;
    buffer_ = p.resource(n_first_ * g_.gradient_image() + std::int64_t(g_.group_of(batch)) * g_.kg);
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const {
    return class_k_tiles<kTileK>(class_, g_.kg);
  }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    ConvProblemSize const& c = g_.problem;
    int const channel0 = (kt / class_.taps) * kTileK;
    int tap[3];
    class_tap(class_, kt % class_.taps, tap);
    int const rows = c.n * class_.per_image;
    sink(buffer_, [&](int, int mn, int k) -> std::uint32_t {
      int const m = m0_ + mn;
      int const channel = channel0 + k;
      if (m >= rows || channel >= g_.kg) return kInvalidOffset;
      int j[3];
      int const n = g_.dgrad_row<false>(class_, m, j);
      int o[3];
      for (int i = 0; i < 3; ++i) {
        o[i] = class_.dim[i].base + j[i] - tap[i] * c.dilation[i];
        if (o[i] < 0 || o[i] >= g_.out[i]) return kInvalidOffset;
      }
      int const pixel = (((n - n_first_) * g_.out[0] + o[0]) * g_.out[1] + o[1]) * g_.out[2] + o[2];
      return static_cast<std::uint32_t>(pixel * c.k + channel) * sizeof(Element);
    });
  }

  ConvGeometry const& g_;
  ConvGeometry::DgradClass class_;
  int m0_;
  int n_first_;
  arch::BufferResource buffer_;
};

// Needs K/groups a multiple of the 16-byte vector and at most 32 class taps per dimension (the
// masks' bits; can_implement: kMaxPrecomputedFilterExtent).
template <class Tile>
class PrecomputedDgradOutputGradientLoader : public gemm::block::GatheringLoader<PrecomputedDgradOutputGradientLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<PrecomputedDgradOutputGradientLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileM = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "dy is channel- (K-) contiguous");
  static_assert(Tile::kAccessElements * sizeof(Element) == 16, "the precomputed iterators read whole 16-byte vectors");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return dgrad_gradient_fits<kTileM, Element>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE PrecomputedDgradOutputGradientLoader(Params const& p, ConvGeometry const& geometry, int m0,
      int batch, int thread)
      : Base(thread), kg_(geometry.kg) {
    ConvGeometry const& g = geometry;
    ConvProblemSize const& c = g.problem;
    ConvGeometry::DgradClass const cls = g.dgrad_class(g.class_index_of(batch));
    k_tiles_ = class_k_tiles<kTileK>(cls, g.kg);
    int const rows = c.n * cls.per_image;
    int const n_first = cls.per_image > 0 ? g.div_class_dhw[cls.bits].div(m0) : 0;
    buffer_ = p.resource(n_first * g.gradient_image() + std::int64_t(g.group_of(batch)) * g.kg);
    cursor_ = TapCursor<kTileK>(cls.dim[0].taps, cls.dim[1].taps, cls.dim[2].taps);
    // One class tap further in dimension i moves dy's position back by the dilation (stride 1) or
    // by one (stride > 1, where the class's taps are a stride apart).
    step_[2] = -c.dilation[2] * c.k;
    step_[1] = -c.dilation[1] * g.out[2] * c.k;
    step_[0] = -c.dilation[0] * g.out[1] * g.out[2] * c.k;
    // A class without rows (an image smaller than the stride) reads nothing: its blocks only run
    // the epilogue, so they skip the per-row positions and masks.
    if (k_tiles_ == 0) return;
    HIPTILE_UNROLL
    for (int slot = 0; slot < Tile::kSlots; ++slot) {
      int const m = m0 + Tile::slot_mn(thread, slot);
      for (int i = 0; i < 3; ++i) mask_[slot][i] = 0;
      corner_[slot] = 0;
      if (m >= rows) continue;
      int j[3];
      int const n = g.dgrad_row<true>(cls, m, j);
      int o0[3];
      for (int i = 0; i < 3; ++i) {
        o0[i] = cls.dim[i].base + j[i];
        for (int a = 0; a < cls.dim[i].taps; ++a) {
          int const o = o0[i] - a * c.dilation[i];
          if (o >= 0 && o < g.out[i]) mask_[slot][i] |= 1u << a;
        }
      }
      corner_[slot] = ((((n - n_first) * g.out[0] + o0[0]) * g.out[1] + o0[1]) * g.out[2] + o0[2]) * c.k;
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    cursor_.go_to(kt);
    int const tap[3] = {cursor_.tap(0), cursor_.tap(1), cursor_.tap(2)};
    int const channel0 = cursor_.channel0();
    int const tap_offset = tap[0] * step_[0] + tap[1] * step_[1] + tap[2] * step_[2] + channel0;
    sink(buffer_, [&](int slot, int, int k) -> std::uint32_t {
      bool const valid = ((mask_[slot][0] >> tap[0]) & (mask_[slot][1] >> tap[1]) & (mask_[slot][2] >> tap[2]) & 1u) &&
                         channel0 + k < kg_;
      return valid ? static_cast<std::uint32_t>(corner_[slot] + tap_offset + k) * sizeof(Element) : kInvalidOffset;
    });
    cursor_.step();
  }

  int kg_;
  int k_tiles_;
  TapCursor<kTileK> cursor_;  // the class tap of the next K tile
  arch::BufferResource buffer_;
  int step_[3];
  int corner_[Tile::kSlots] = {};             // element offset of the row's dy position at class tap (0, 0, 0)
  std::uint32_t mask_[Tile::kSlots][3] = {};  // bit a: class tap a of dimension i lands inside dy
};

// B = w as N = C/groups (contiguous) × K = class taps · channel blocks of K/groups. The K tiles
// come in the A loader's order (TapCursor), each at its filter tap (DgradClassFilterTaps).
// kPackedGroups (IteratorAlgorithm::kPackedGroups): a batch holds several groups
// (conv_geometry.hpp), w block-diagonal in it: element (k, c) read where k's and c's groups are one,
// zeros elsewhere; an access stays inside one group's channels (C/groups a multiple of it).
template <class Tile, bool kPackedGroups = false>
class DgradFilterLoader : public gemm::block::GatheringLoader<DgradFilterLoader<Tile, kPackedGroups>, Tile> {
  using Base = gemm::block::GatheringLoader<DgradFilterLoader<Tile, kPackedGroups>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kMN, "w is read C- (N-) contiguous");

 public:
  using Params = ConvOperand<Element>;

  // Reach from the block's first channel of its group's filters: all of them.
  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return Params::reach_fits(ByteRange::Int128(geometry.kg) * geometry.filter_elements());
  }

  HIPTILE_DEVICE HIPTILE_INLINE DgradFilterLoader(Params const& p, ConvGeometry const& geometry, int n0,
      int batch, int thread)
      : Base(thread), g_(geometry), n0_(n0) {
    ConvGeometry::DgradClass const cls = g_.dgrad_class(g_.class_index_of(batch));
    k_tiles_ = class_k_tiles<kTileK>(cls, g_.kg);
    cursor_ = TapCursor<kTileK>(cls.dim[0].taps, cls.dim[1].taps, cls.dim[2].taps);
    filter_taps_ = DgradClassFilterTaps(g_, cls);
    // (Packed: a block's channels span groups, so each access finds its own; else from channel n0.)
    buffer_ = p.resource(std::int64_t(g_.group_of(batch)) * g_.kg * g_.filter_elements() + (kPackedGroups ? 0 : n0));
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    cursor_.go_to(kt);
    int const channel0 = cursor_.channel0();
    int const filter_tap = filter_taps_.at(cursor_);
    sink(buffer_, [&](int, int mn, int k) -> std::uint32_t {
      int const channel = channel0 + k;  // of dy, K
      if (n0_ + mn >= g_.cg || channel >= g_.kg) return kInvalidOffset;
      if constexpr (kPackedGroups) {
        int const e = g_.packed_filter_element(channel, n0_ + mn, filter_tap);
        return e < 0 ? kInvalidOffset : static_cast<std::uint32_t>(e) * sizeof(Element);
      } else {
        return static_cast<std::uint32_t>((channel * g_.taps + filter_tap) * g_.cg + mn) * sizeof(Element);
      }
    });
    cursor_.step();
  }

  ConvGeometry const& g_;
  int n0_;
  int k_tiles_;
  TapCursor<kTileK> cursor_;  // the class tap of the next K tile
  DgradClassFilterTaps filter_taps_;
  arch::BufferResource buffer_;
};

}  // namespace hiptile::conv
