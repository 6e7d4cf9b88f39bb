#pragma once
// SwizzledMnLdsLayout: one stage of an MN-contiguous operand tile (TileMN × TileK elements) in
// shared memory for the cp.async path on NVIDIA GPUs — SwizzledLdsLayout transposed, in blocks:
// the tile's MN extent is cut into blocks of up to 128 bytes (64 16-bit elements), each stored as
// its own SwizzledLdsLayout of TileK rows (one per k) of the block's MN elements, the blocks one
// after another.
//
// So the same two claims hold with the roles of MN and K exchanged: a warp's cp.async of
// consecutive 16-byte MN vectors of one k fills whole 128-byte lines, and ldmatrix.trans — 8 lanes
// reading one 16-byte chunk each from 8 consecutive k at the same MN — hits all 32 banks once
// (test/unit/lds_layout_test.cpp). The mma.sync wave MMA reads it with ldmatrix.trans
// (kMnContiguous). A block of 128-byte rows is also the MN-major layout in the 128-byte swizzle
// that warpgroup MMAs read (arch::warpgroup_descriptor_sw128 with the blocks kBlockBytes apart).
#include <cstddef>

#include "hiptile/gemm/block/lds_tile.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, int TileMN, int TileK>
struct SwizzledMnLdsLayout : LdsTile<Element, TileMN, TileK> {
  static constexpr int kBlockMN = TileMN * int(sizeof(Element)) > 128 ? 128 / int(sizeof(Element)) : TileMN;
  static_assert(TileMN % kBlockMN == 0, "an MN-contiguous tile wider than 128 bytes is whole 128-byte blocks");
  using Rows = SwizzledLdsLayout<Element, TileK, kBlockMN>;  // one block: row k holds its MN extent
  static constexpr bool kMnContiguous = true;
  static constexpr int kBlockElements = Rows::kElements;
  static constexpr std::size_t kBlockBytes = Rows::kBytes;
  static constexpr std::size_t kBytes = std::size_t(TileMN) * TileK * sizeof(Element);
  static constexpr int kElements = TileMN * TileK;

  // Element offset of (mn, k) within the stage.
  HIPTILE_HOST_DEVICE static constexpr int offset(int mn, int k) {
    return (mn / kBlockMN) * kBlockElements + Rows::offset(k, mn % kBlockMN);
  }
};

}  // namespace hiptile::gemm::block
