#pragma once
// AsyncMnTileCopy: AsyncTileCopy's counterpart for an MN-contiguous operand (A column-major, B
// row-major), for NVIDIA sm_80+: one tile (TileK rows of k × TileMN contiguous elements) copied
// straight into a SwizzledMnLdsLayout stage with cp.async, which warpgroup MMAs read with their
// transpose bit. Vector v = thread + Threads·i is MN pack v % packs of k row v / packs, so a warp
// reads whole runs of one k row and fills whole 128-byte lines of the stage. Every vector of a
// thread has the same pack, and its k rows are kRowStep apart (a multiple of the layout's 8-row
// swizzle period), so the addresses are set up once and each tile only adds its k0 rows.
//
// Edge vectors copy only their valid bytes (MN past the operand, or k past K: none); cp.async fills
// the rest of the 16 bytes with zeros. Pointers are 64-bit, so no operand is too large for it.
#include <cstdint>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

// Layout: the stage's SwizzledMnLdsLayout; Threads: the threads of the workgroup.
template <class Element, class Layout, int Threads>
class AsyncMnTileCopy {
 public:
  using Params = OperandView<Element>;
  using LdsLayout = Layout;
  static constexpr int kTileMN = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static constexpr int kPack = Layout::kPackElements;
  static constexpr int kPacks = kTileMN / kPack;  // 16-byte vectors along one k row
  static constexpr int kVectors = kTileK * kPacks;
  static_assert(kVectors % Threads == 0 && Threads % kPacks == 0,
                "the tile's 16-byte vectors must divide evenly among the threads, whole k rows at a time");
  static constexpr int kPerThread = kVectors / Threads;
  static constexpr int kRowStep = Threads / kPacks;  // k rows between a thread's vectors
  static_assert(kPerThread == 1 || kRowStep % 8 == 0, "k rows of one thread must be whole groups of 8 apart");
  // A step of 8 k rows is one 8-row swizzle period: a constant distance within a block.
  static constexpr int kDstStep = Layout::offset(0, kPerThread > 1 ? kRowStep : 0);

  static bool offsets_fit(Params const& p) noexcept { return p.ld >= 0 && p.extent_k >= 0; }

  // Kernel parameters are read once into registers here (as AsyncTileCopy does).
  HIPTILE_DEVICE HIPTILE_INLINE AsyncMnTileCopy(Params const& p, int mn0, int batch, int thread)
      : data_(p.data + batch * p.batch_stride),
        row_step_(kRowStep * p.ld),
        ld_(p.ld),
        mn_elements_(clamp_pack(p.extent_mn - mn0 - (thread % kPacks) * kPack)),
        first_k_(thread / kPacks),
        extent_k_(p.extent_k),
        k_tiles_(ceil_div(p.extent_k, kTileK)),
        full_k_tiles_(p.extent_k / kTileK),
        src_(data_ + (std::int64_t(thread / kPacks) * p.ld + mn0 + (thread % kPacks) * kPack)),
        dst_(Layout::offset((thread % kPacks) * kPack, thread / kPacks)) {}

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  // Issues the copies of K tile `k_tile` into `stage` (the caller commits them).
  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile) const {
    int const k0 = k_tile * kTileK;
    Element const* src = src_ + std::int64_t(k0) * ld_;
    if (mn_elements_ == kPack && k_tile < full_k_tiles_) {
      // Every vector of this thread lies inside the operand: whole 16-byte copies.
      HIPTILE_UNROLL
      for (int i = 0; i < kPerThread; ++i) arch::async_copy_16(stage + dst_ + i * kDstStep, src + i * row_step_);
      return;
    }
    HIPTILE_UNROLL
    for (int i = 0; i < kPerThread; ++i) {
      bool const inside = k0 + first_k_ + i * kRowStep < extent_k_ && mn_elements_ > 0;
      arch::async_copy_16(stage + dst_ + i * kDstStep, inside ? src + i * row_step_ : data_,
                          inside ? mn_elements_ * int(sizeof(Element)) : 0);
    }
  }

 private:
  HIPTILE_HOST_DEVICE static constexpr int clamp_pack(int n) { return n <= 0 ? 0 : (n < kPack ? n : kPack); }

  Element const* data_;
  std::int64_t row_step_;  // elements between a thread's consecutive vectors
  std::int64_t ld_;
  int mn_elements_;        // elements of this thread's MN vector inside the operand (0 .. kPack)
  int first_k_;            // this thread's first k row within a tile
  int extent_k_;
  int k_tiles_;
  int full_k_tiles_;       // K tiles with all of their K inside the operand
  Element const* src_;
  int dst_;
};

}  // namespace hiptile::gemm::block
