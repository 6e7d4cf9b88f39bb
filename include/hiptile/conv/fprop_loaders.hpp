#pragma once
// The loaders of Fprop's implicit GEMM (y = conv(x, w): M = N·Z·P·Q output pixels, N = K/groups
// output channels, K = taps · channel blocks; conv_geometry.hpp):
//
//   AnalyticFpropActivationLoader     A = x gathered; every coordinate recomputed each K tile with
//                                     `/` and `%`; accesses of AccessElements channels, so any
//                                     channel count that is a multiple of AccessElements (1 for all)
//   PrecomputedFpropActivationLoader  A = x gathered; each row's pixel found once per block with the
//                                     host's FastDivmods, the filter tap advanced by increments, and
//                                     each row's valid taps kept as bit masks; whole 16-byte vectors
//   FpropFilterLoader                 B = w, K-contiguous (KTRSC), for both
//
// Each is written over its gathered tile (Tile: a GatheredTile, register-staged, or an
// AsyncGatheredTile, cp.async; gemm/block/gathering_loader.hpp), which fixes the element type,
// the tile's extents and the access width.
#include <cstdint>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/tap_cursor.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

using gemm::block::kInvalidOffset;

// The filter tap and first channel of K tile kt of a taps-outermost-inside ordering (see
// conv_geometry.hpp): tap kt % taps as (t, r, s), channels from (kt / taps)·kTileK.
struct TapTile {
  int tap;
  Spatial filter;  // t, r, s
  int channel0;
};

template <int TileK>
HIPTILE_DEVICE HIPTILE_INLINE TapTile tap_tile(ConvGeometry const& g, int kt) {
  auto const [block, tap] = g.div_taps.divmod(kt);
  auto const [t, rs] = g.div_rs.divmod(tap);
  auto const [r, s] = g.div_s.divmod(rs);
  return {tap, {{t, r, s}}, block * TileK};
}

// Image offset of the first image a block of rows [m0, m0 + rows) touches when each image has
// `per_image` rows, and how many images such a block may touch.
HIPTILE_HOST_DEVICE inline std::int64_t images_reached(std::int64_t rows, std::int64_t per_image, std::int64_t images) {
  std::int64_t const reached = (rows - 1) / per_image + 2;
  return reached < images ? reached : images;
}

// Reach of an Fprop A block from its base (its first image, its group's first channel): the images
// kTileM output pixels can come from, with their padding (where intermediate positions lie).
template <int TileM, class Element>
bool fprop_activation_fits(ConvGeometry const& geometry) noexcept {
  ConvProblemSize const& c = geometry.problem;
  return ConvOperand<Element>::reach_fits(images_reached(TileM, geometry.output_pixels_per_image(), c.n) *
                                          geometry.padded_activation_image());
}

// One data tap along D, H and W, in elements of x (the precomputed and few-channel iterators).
HIPTILE_DEVICE HIPTILE_INLINE void fprop_tap_steps(ConvGeometry const& g, int (&step)[3]) {
  ConvProblemSize const& c = g.problem;
  step[2] = c.dilation[2] * c.c;
  step[1] = c.dilation[1] * c.input[2] * c.c;
  step[0] = c.dilation[0] * c.input[1] * c.input[2] * c.c;
}

// Output row m's taps, found once per block (the precomputed and few-channel iterators): the
// element offset of its pixel at data tap (0, 0, 0), channel 0, from image n_first (possibly
// outside the input, in the padding), and per dimension a mask whose bit t says data tap t lands
// inside the input. A row past the last (m >= rows) has none.
HIPTILE_DEVICE HIPTILE_INLINE void fprop_row_taps(ConvGeometry const& g, int m, int rows, int n_first, int& corner,
                                                  std::uint32_t (&mask)[3]) {
  ConvProblemSize const& c = g.problem;
  for (int i = 0; i < 3; ++i) mask[i] = 0;
  corner = 0;
  if (m >= rows) return;
  auto const [n, zpq] = g.div_zpq.divmod(m);
  auto const [z, pq] = g.div_pq.divmod(zpq);
  auto const [pp, q] = g.div_q.divmod(pq);
  int const o[3] = {z, pp, q};
  int x0[3];
  for (int i = 0; i < 3; ++i) {
    x0[i] = o[i] * c.stride[i] - c.pad_before[i];
    for (int t = 0; t < c.filter[i]; ++t) {
      int const x = x0[i] + t * c.dilation[i];
      if (x >= 0 && x < c.input[i]) mask[i] |= 1u << t;
    }
  }
  corner = g.activation_pixel(n - n_first, x0) * c.c;
}

template <class Tile>
class AnalyticFpropActivationLoader
    : public gemm::block::GatheringLoader<AnalyticFpropActivationLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<AnalyticFpropActivationLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileM = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "x is channel- (K-) contiguous");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return fprop_activation_fits<kTileM, Element>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE AnalyticFpropActivationLoader(Params const& p, ConvGeometry const& geometry, int m0,
                                                              int batch, int thread)
      : Base(thread), geometry_(geometry), m0_(m0) {
    ConvGeometry const& g = geometry;
    n_first_ = m0 / g.output_pixels_per_image();
    buffer_ = p.resource(n_first_ * g.activation_image() + std::int64_t(g.group_of(batch)) * g.cg);
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return geometry_.taps * ceil_div(geometry_.cg, kTileK); }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    ConvGeometry const& g = geometry_;
    ConvProblemSize const& c = g.problem;
    int const taps = g.taps;
    int const tap = kt % taps;
    int const channel0 = (kt / taps) * kTileK;
    int const filter[3] = {tap / (c.filter[1] * c.filter[2]), (tap / c.filter[2]) % c.filter[1], tap % c.filter[2]};
    int const rows = g.output_pixels();
    sink(buffer_, [&](int, int mn, int k) -> std::uint32_t {
      int const m = m0_ + mn;
      int const channel = channel0 + k;
      if (m >= rows || channel >= g.cg) return kInvalidOffset;
      int const q = m % g.out[2];
      int const p = (m / g.out[2]) % g.out[1];
      int const z = (m / (g.out[2] * g.out[1])) % g.out[0];
      int const n = m / (g.out[2] * g.out[1] * g.out[0]);
      int const o[3] = {z, p, q};
      int x[3];
      for (int i = 0; i < 3; ++i) {
        x[i] = o[i] * c.stride[i] - c.pad_before[i] + g.data_tap(i, filter[i]) * c.dilation[i];
        if (x[i] < 0 || x[i] >= c.input[i]) return kInvalidOffset;
      }
      return static_cast<std::uint32_t>(g.activation_pixel(n - n_first_, x) * c.c + channel) * sizeof(Element);
    });
  }

  ConvGeometry const& geometry_;
  int m0_;
  int n_first_;
  arch::BufferResource buffer_;
};

// Needs C/groups a multiple of the 16-byte vector and filter extents of at most 32 (the masks'
// bits, kMaxPrecomputedFilterExtent); can_implement refuses other problems.
template <class Tile>
class PrecomputedFpropActivationLoader
    : public gemm::block::GatheringLoader<PrecomputedFpropActivationLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<PrecomputedFpropActivationLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileM = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "x is channel- (K-) contiguous");
  static_assert(Tile::kAccessElements * sizeof(Element) == 16, "the precomputed iterators read whole 16-byte vectors");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return fprop_activation_fits<kTileM, Element>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE PrecomputedFpropActivationLoader(Params const& p, ConvGeometry const& geometry, int m0,
                                                                 int batch, int thread)
      : Base(thread), taps_(geometry.taps), cg_(geometry.cg),
        cursor_(geometry.problem.filter[0], geometry.problem.filter[1], geometry.problem.filter[2]) {
    ConvGeometry const& g = geometry;
    ConvProblemSize const& c = g.problem;
    int const rows = g.output_pixels();
    int const n_first = g.div_zpq.div(m0);
    buffer_ = p.resource(n_first * g.activation_image() + std::int64_t(g.group_of(batch)) * g.cg);
    for (int i = 0; i < 3; ++i) flip_extent_[i] = g.flip ? c.filter[i] - 1 : 0;
    fprop_tap_steps(g, step_);
    HIPTILE_UNROLL
    for (int slot = 0; slot < Tile::kSlots; ++slot) {
      fprop_row_taps(g, m0 + Tile::slot_mn(thread, slot), rows, n_first, corner_[slot], mask_[slot]);
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return taps_ * ceil_div(cg_, kTileK); }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    cursor_.go_to(kt);
    int data[3];
    for (int i = 0; i < 3; ++i) data[i] = flip_extent_[i] == 0 ? cursor_.tap(i) : flip_extent_[i] - cursor_.tap(i);
    int const channel0 = cursor_.channel0();
    int const tap_offset = data[0] * step_[0] + data[1] * step_[1] + data[2] * step_[2] + channel0;
    sink(buffer_, [&](int slot, int, int k) -> std::uint32_t {
      bool const valid = ((mask_[slot][0] >> data[0]) & (mask_[slot][1] >> data[1]) & (mask_[slot][2] >> data[2]) & 1u) &&
                         channel0 + k < cg_;
      return valid ? static_cast<std::uint32_t>(corner_[slot] + tap_offset + k) * sizeof(Element) : kInvalidOffset;
    });
    cursor_.step();
  }

  int taps_;
  int cg_;
  TapCursor<kTileK> cursor_;  // the filter tap of the next K tile
  arch::BufferResource buffer_;
  int flip_extent_[3];  // F − 1 in convolution mode (data tap = F − 1 − filter tap), else 0
  int step_[3];
  int corner_[Tile::kSlots];             // element offset of the row's pixel at filter tap (0, 0, 0), channel 0
  std::uint32_t mask_[Tile::kSlots][3];  // bit t: data tap t of dimension i lands inside the input
};

// B = w: row n of the block is output channel n of the group, its K the taps-and-channel order.
// kPackedGroups (IteratorAlgorithm::kPackedGroups): a batch holds several groups (conv_geometry.hpp),
// so row n's K run spans their channels and reads w only in row n's own group's block, zeros
// elsewhere; its accesses stay inside one group's channels (C/groups a multiple of them).
template <class Tile, bool kPackedGroups = false>
class FpropFilterLoader : public gemm::block::GatheringLoader<FpropFilterLoader<Tile, kPackedGroups>, Tile> {
  using Base = gemm::block::GatheringLoader<FpropFilterLoader<Tile, kPackedGroups>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileN = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "w is K-contiguous (KTRSC)");

 public:
  using Params = ConvOperand<Element>;

  using Problem = ConvGeometry;

  // Reach from the block's first filter: kTileN filters.
  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return Params::reach_fits(ByteRange::Int128(kTileN) * geometry.filter_elements());
  }

  HIPTILE_DEVICE HIPTILE_INLINE FpropFilterLoader(Params const& p, ConvGeometry const& geometry, int n0, int batch,
                                                  int thread)
      : Base(thread), g_(geometry), n0_(n0) {
    buffer_ = p.resource((std::int64_t(g_.group_of(batch)) * g_.kg + n0) * g_.filter_elements());
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return g_.taps * ceil_div(g_.cg, kTileK); }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    TapTile const t = tap_tile<kTileK>(g_, kt);
    sink(buffer_, [&](int, int mn, int k) -> std::uint32_t {
      int const channel = t.channel0 + k;
      if (n0_ + mn >= g_.kg || channel >= g_.cg) return kInvalidOffset;
      if constexpr (kPackedGroups) {
        // (From the block's first filter: row n0 + mn's element, less the n0 rows before it.)
        // (Both within the block's reach, which offsets_fit bounds by 2^31 bytes.)
        int const e = g_.packed_filter_element(n0_ + mn, channel, t.tap);
        return e < 0 ? kInvalidOffset
                     : static_cast<std::uint32_t>(e - n0_ * int(g_.filter_elements())) * sizeof(Element);
      } else {
        return static_cast<std::uint32_t>((mn * g_.taps + t.tap) * g_.cg + channel) * sizeof(Element);
      }
    });
  }

  ConvGeometry const& g_;
  int n0_;
  arch::BufferResource buffer_;
};

}  // namespace hiptile::conv
