#pragma once
// SwizzledMnLdsLayout: one stage of an MN-contiguous operand tile (TileMN × TileK elements) in
// shared memory for the cp.async path on NVIDIA GPUs — SwizzledLdsLayout transposed: TileK rows
// (one per k) of TileMN contiguous elements, swizzled as that layout swizzles its rows.
//
// So the same two claims hold with the roles of MN and K exchanged: a warp's cp.async of
// consecutive 16-byte MN vectors of one k fills whole 128-byte lines, and ldmatrix.trans — 8 lanes
// reading one 16-byte chunk each from 8 consecutive k at the same MN — hits all 32 banks once
// (test/unit/lds_layout_test.cpp). The wave MMA reads it with ldmatrix.trans (kMnContiguous).
#include "hiptile/gemm/block/lds_tile.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, int TileMN, int TileK>
struct SwizzledMnLdsLayout : LdsTile<Element, TileMN, TileK> {
  using Rows = SwizzledLdsLayout<Element, TileK, TileMN>;  // row k holds the tile's MN extent
  static constexpr bool kMnContiguous = true;
  static constexpr std::size_t kBytes = Rows::kBytes;
  static constexpr int kElements = Rows::kElements;

  // Element offset of (mn, k) within the stage.
  HIPTILE_HOST_DEVICE static constexpr int offset(int mn, int k) { return Rows::offset(k, mn); }
};

}  // namespace hiptile::gemm::block
