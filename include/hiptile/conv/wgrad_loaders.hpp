#pragma once
// The loaders of Wgrad's implicit GEMM (dw from x and dy): M = K/groups output channels,
// N = taps · C/groups (dw's own KTRSC order, so D is dw as a row-major matrix), K = N·Z·P·Q output
// pixels. Both operands are MN-contiguous (channels are innermost in NDHWC), read through the
// transposing GatheredTile. Their buffers are re-based every K tile, near the pixels it reads, so
// the offsets stay small whatever the tensors' sizes.
//
//   WgradOutputGradientLoader       A = dyᵀ: row k of the group, K = output pixels (a plain matrix)
//   AnalyticWgradActivationLoader   B = x gathered: column (tap, c), K = output pixels; every
//                                   coordinate recomputed with `/` and `%`; AccessElements per access
//   PrecomputedWgradActivationLoader  the same with each column's tap found once per block and the
//                                   pixels split with the host's FastDivmods; whole vectors
#include <cstdint>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/fprop_loaders.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

template <class Tile>
class WgradOutputGradientLoader : public gemm::block::GatheringLoader<WgradOutputGradientLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<WgradOutputGradientLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kMN, "dy is read K- (M-) contiguous");

 public:
  using Params = ConvOperand<Element>;

  using Problem = ConvGeometry;

  // Reach from a K tile's base: kTileK pixels of K channels.
  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return Params::reach_fits(ByteRange::Int128(kTileK) * geometry.problem.k);
  }

  HIPTILE_DEVICE HIPTILE_INLINE WgradOutputGradientLoader(Params const& p, ConvGeometry const& geometry, int m0,
      int batch, int thread)
      : Base(thread), p_(p), geometry_(geometry), m0_(m0), first_(std::int64_t(geometry.group_of(batch)) * geometry.kg + m0) {}

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return ceil_div(pixels(), kTileK); }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    ConvGeometry const& g = geometry_;
    int const pixel0 = kt * kTileK;
    int const pixels_left = pixels() - pixel0;
    int const k_all = g.problem.k;
    arch::BufferResource const buffer = p_.resource(std::int64_t(pixel0) * k_all + first_);
    sink(buffer, [&](int, int mn, int k) -> std::uint32_t {
      if (m0_ + mn >= g.kg || k >= pixels_left) return kInvalidOffset;
      return static_cast<std::uint32_t>(k * k_all + mn) * sizeof(Element);
    });
  }

  HIPTILE_DEVICE HIPTILE_INLINE int pixels() const {
    ConvGeometry const& g = geometry_;
    return g.output_pixels();
  }

  Params const& p_;
  ConvGeometry const& geometry_;
  int m0_;
  std::int64_t first_;  // dy's element of pixel 0 at the block's first channel
};

// Reach of a wgrad B K tile: the images kTileK output pixels can come from, with their padding.
template <class Element, int TileK>
bool wgrad_activation_fits(ConvGeometry const& geometry) noexcept {
  ConvGeometry const& g = geometry;
  ConvProblemSize const& c = g.problem;
  return ConvOperand<Element>::reach_fits(images_reached(TileK, g.output_pixels_per_image(), c.n) *
                                          g.padded_activation_image());
}

template <class Tile>
class AnalyticWgradActivationLoader : public gemm::block::GatheringLoader<AnalyticWgradActivationLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<AnalyticWgradActivationLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kMN, "x is read C- (N-) contiguous");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return wgrad_activation_fits<Element, kTileK>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE AnalyticWgradActivationLoader(Params const& p, ConvGeometry const& geometry, int n0,
      int batch, int thread)
      : Base(thread), p_(p), geometry_(geometry), n0_(n0), group_channel_(std::int64_t(geometry.group_of(batch)) * geometry.cg) {}

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const {
    ConvGeometry const& g = geometry_;
    return ceil_div(g.output_pixels(), kTileK);
  }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    ConvGeometry const& g = geometry_;
    ConvProblemSize const& c = g.problem;
    int const zpq = g.output_pixels_per_image();
    int const pixels = g.output_pixels();
    int const pixel0 = kt * kTileK;
    int const n_first = pixel0 / zpq;
    arch::BufferResource const buffer = p_.resource(n_first * g.activation_image() + group_channel_);
    sink(buffer, [&](int, int mn, int k) -> std::uint32_t {
      int const column = n0_ + mn;
      int const pixel = pixel0 + k;
      if (column >= g.taps * g.cg || pixel >= pixels) return kInvalidOffset;
      int const tap = column / g.cg;
      int const channel = column % g.cg;
      int const filter[3] = {tap / (c.filter[1] * c.filter[2]), (tap / c.filter[2]) % c.filter[1], tap % c.filter[2]};
      int const o[3] = {(pixel / (g.out[1] * g.out[2])) % g.out[0], (pixel / g.out[2]) % g.out[1], pixel % g.out[2]};
      int const n = pixel / zpq;
      int x[3];
      for (int i = 0; i < 3; ++i) {
        x[i] = o[i] * c.stride[i] - c.pad_before[i] + g.data_tap(i, filter[i]) * c.dilation[i];
        if (x[i] < 0 || x[i] >= c.input[i]) return kInvalidOffset;
      }
      return static_cast<std::uint32_t>(g.activation_pixel(n - n_first, x) * c.c + channel) * sizeof(Element);
    });
  }

  Params const& p_;
  ConvGeometry const& geometry_;
  int n0_;
  std::int64_t group_channel_;
};

// Needs C/groups a multiple of the 16-byte vector (a vector's columns then share one tap).
template <class Tile>
class PrecomputedWgradActivationLoader : public gemm::block::GatheringLoader<PrecomputedWgradActivationLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<PrecomputedWgradActivationLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kMN, "x is read C- (N-) contiguous");
  static_assert(Tile::kAccessElements * sizeof(Element) == 16, "the precomputed iterators read whole 16-byte vectors");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return wgrad_activation_fits<Element, kTileK>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE PrecomputedWgradActivationLoader(Params const& p, ConvGeometry const& geometry, int n0,
      int batch, int thread)
      : Base(thread), p_(p), geometry_(geometry), group_channel_(std::int64_t(geometry.group_of(batch)) * geometry.cg) {
    ConvGeometry const& g = geometry;
    ConvProblemSize const& c = g.problem;
    HIPTILE_UNROLL
    for (int slot = 0; slot < Tile::kSlots; ++slot) {
      int const column = n0 + Tile::slot_mn(thread, slot);
      valid_[slot] = column < g.taps * g.cg;
      auto const [tap, channel] = g.div_cg.divmod(valid_[slot] ? column : 0);
      auto const [t, rs] = g.div_rs.divmod(valid_[slot] ? tap : 0);
      auto const [r, s] = g.div_s.divmod(rs);
      int const filter[3] = {t, r, s};
      for (int i = 0; i < 3; ++i) {
        shift_[slot][i] = g.data_tap(i, valid_[slot] ? filter[i] : 0) * c.dilation[i] - c.pad_before[i];
      }
      channel_[slot] = channel;
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const {
    ConvGeometry const& g = geometry_;
    return ceil_div(g.output_pixels(), kTileK);
  }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    ConvGeometry const& g = geometry_;
    ConvProblemSize const& c = g.problem;
    int const pixels = g.output_pixels();
    int const pixel0 = kt * kTileK;
    int const n_first = g.div_zpq.div(pixel0);
    arch::BufferResource const buffer = p_.resource(n_first * g.activation_image() + group_channel_);
    sink(buffer, [&](int slot, int, int k) -> std::uint32_t {
      int const pixel = pixel0 + k;
      if (!valid_[slot] || pixel >= pixels) return kInvalidOffset;
      auto const [n, zpq] = g.div_zpq.divmod(pixel);
      auto const [z, pq] = g.div_pq.divmod(zpq);
      auto const [pp, q] = g.div_q.divmod(pq);
      int const o[3] = {z, pp, q};
      int x[3];
      for (int i = 0; i < 3; ++i) {
        x[i] = o[i] * c.stride[i] + shift_[slot][i];
        if (x[i] < 0 || x[i] >= c.input[i]) return kInvalidOffset;
      }
      return static_cast<std::uint32_t>(g.activation_pixel(n - n_first, x) * c.c + channel_[slot]) * sizeof(Element);
    });
  }

  Params const& p_;
  ConvGeometry const& geometry_;
  std::int64_t group_channel_;
  bool valid_[Tile::kSlots];
  int shift_[Tile::kSlots][3];  // input position of output position 0 at this column's data tap
  int channel_[Tile::kSlots];
};

}  // namespace hiptile::conv
