#pragma once
// The loaders of Fprop's implicit GEMM for few channels per group (IteratorAlgorithm::kFewChannels:
// RGB stems, patchify layers), whose K is the filter's taps and channels packed into one run:
//
//   k = tap · C/groups + c     (taps in T, R, S order; the order w's KTRSC rows store them in)
//
// padded once, at its end, to the K tile — not C/groups padded to a K tile at every tap as the
// channel-block order of conv_geometry.hpp does (a 7 × 7 stem of three channels: 5 K tiles of 32
// instead of 49). A K tile then spans several taps, so every access finds its own tap:
//
//   FewChannelFpropActivationLoader  A = x gathered: each row's pixel and valid taps found once per
//                                    block (as the precomputed iterator: a corner offset and a bit
//                                    mask of the taps inside the input per dimension); per K tile
//                                    each of the thread's accesses splits its k into a tap and a
//                                    channel (FastDivmods), shared by all its rows
//   FewChannelFpropFilterLoader      B = w: row n's K run is its whole filter, taps · C/groups
//                                    contiguous elements
//
// An access reads AccessElements channels of one tap, so C/groups must be a multiple of it
// (can_implement); filter extents of at most 32 taps a dimension (the masks' bits).
#include <cstdint>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_operand.hpp"
#include "hiptile/conv/fprop_loaders.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

// The packed K of a geometry: taps · C/groups.
HIPTILE_HOST_DEVICE inline int few_channel_k(ConvGeometry const& g) { return g.taps * g.cg; }

// Which of a thread's accesses of its 16-byte vector an access at tile column k is: the tiles'
// K-contiguous slots start at multiples of the vector, so this is a constant after unrolling (in
// unsigned arithmetic, whose remainder by a power of two is a mask of known-zero bits).
template <class Tile>
HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr int access_in_vector(int k) {
  static_assert((Tile::kVectorElements & (Tile::kVectorElements - 1)) == 0, "16-byte vectors of 2^n elements");
  return static_cast<int>(static_cast<unsigned>(k) % unsigned(Tile::kVectorElements)) / Tile::kAccessElements;
}

template <class Tile>
class FewChannelFpropActivationLoader
    : public gemm::block::GatheringLoader<FewChannelFpropActivationLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<FewChannelFpropActivationLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileM = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static constexpr int kAccesses = Tile::kVectorElements / Tile::kAccessElements;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "x is channel- (K-) contiguous");
  static_assert(Tile::kThreads % (kTileK / Tile::kVectorElements) == 0,
                "a thread reads the same columns of every row it loads (its accesses' taps are shared)");

 public:
  using Params = ConvOperand<Element>;
  static constexpr int kAccessElements = Tile::kAccessElements;

  using Problem = ConvGeometry;

  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return fprop_activation_fits<kTileM, Element>(geometry);
  }

  HIPTILE_DEVICE HIPTILE_INLINE FewChannelFpropActivationLoader(Params const& p, ConvGeometry const& geometry, int m0,
                                                                int batch, int thread)
      : Base(thread), g_(geometry), column_(Tile::slot_k(thread, 0)) {
    ConvGeometry const& g = geometry;
    int const rows = g.output_pixels();
    int const n_first = g.div_zpq.div(m0);
    buffer_ = p.resource(n_first * g.activation_image() + std::int64_t(g.group_of(batch)) * g.cg);
    fprop_tap_steps(g, step_);
    HIPTILE_UNROLL
    for (int slot = 0; slot < Tile::kSlots; ++slot) {
      fprop_row_taps(g, m0 + Tile::slot_mn(thread, slot), rows, n_first, corner_[slot], mask_[slot]);
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return ceil_div(few_channel_k(g_), kTileK); }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    ConvGeometry const& g = g_;
    // This thread's accesses in K tile kt: their tap (as data taps) and offset from a row's corner.
    int offset[kAccesses];
    int data[kAccesses][3];
    bool inside[kAccesses];
    HIPTILE_UNROLL
    for (int a = 0; a < kAccesses; ++a) {
      int const k = kt * kTileK + column_ + a * kAccessElements;
      inside[a] = k < few_channel_k(g);
      auto const [tap, channel] = g.div_cg.divmod(inside[a] ? k : 0);
      auto const [t, rs] = g.div_rs.divmod(tap);
      auto const [r, s] = g.div_s.divmod(rs);
      int const filter[3] = {t, r, s};
      offset[a] = channel;
      for (int i = 0; i < 3; ++i) {
        data[a][i] = g.data_tap(i, filter[i]);
        offset[a] += data[a][i] * step_[i];
      }
    }
    sink(buffer_, [&](int slot, int, int k) -> std::uint32_t {
      int const a = access_in_vector<Tile>(k);
      bool const valid = inside[a] && ((mask_[slot][0] >> data[a][0]) & (mask_[slot][1] >> data[a][1]) &
                                       (mask_[slot][2] >> data[a][2]) & 1u);
      return valid ? static_cast<std::uint32_t>(corner_[slot] + offset[a]) * sizeof(Element) : kInvalidOffset;
    });
  }

  ConvGeometry const& g_;
  int column_;  // the tile column of this thread's first access
  arch::BufferResource buffer_;
  int step_[3];
  int corner_[Tile::kSlots];             // element offset of the row's pixel at data tap (0, 0, 0), channel 0
  std::uint32_t mask_[Tile::kSlots][3];  // bit t: data tap t of dimension i lands inside the input
};

// B = w: row n of the block is output channel n of the group, its K run the whole filter.
template <class Tile>
class FewChannelFpropFilterLoader : public gemm::block::GatheringLoader<FewChannelFpropFilterLoader<Tile>, Tile> {
  using Base = gemm::block::GatheringLoader<FewChannelFpropFilterLoader<Tile>, Tile>;
  friend Base;
  using Element = typename Tile::ElementType;
  static constexpr int kTileN = Tile::kTileMN;
  static constexpr int kTileK = Tile::kTileK;
  static_assert(Tile::kMajor == gemm::OperandMajor::kK, "w is K-contiguous (KTRSC)");

 public:
  using Params = ConvOperand<Element>;

  using Problem = ConvGeometry;

  // Reach from the block's first filter: kTileN filters of taps·C/groups elements.
  static bool offsets_fit(Params const&, ConvGeometry const& geometry) noexcept {
    return Params::reach_fits(ByteRange::Int128(kTileN) * few_channel_k(geometry));
  }

  HIPTILE_DEVICE HIPTILE_INLINE FewChannelFpropFilterLoader(Params const& p, ConvGeometry const& geometry, int n0,
                                                            int batch, int thread)
      : Base(thread), g_(geometry), n0_(n0) {
    buffer_ = p.resource((std::int64_t(g_.group_of(batch)) * g_.kg + n0) * few_channel_k(g_));
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return ceil_div(few_channel_k(g_), kTileK); }

 private:
  template <class Sink>
  HIPTILE_DEVICE HIPTILE_INLINE void gather(int kt, Sink const& sink) {
    int const run = few_channel_k(g_);
    int const k0 = kt * kTileK;
    sink(buffer_, [&](int, int mn, int k) -> std::uint32_t {
      if (n0_ + mn >= g_.kg || k0 + k >= run) return kInvalidOffset;
      return static_cast<std::uint32_t>(mn * run + k0 + k) * sizeof(Element);
    });
  }

  ConvGeometry const& g_;
  int n0_;
  arch::BufferResource buffer_;
};

}  // namespace hiptile::conv
