#pragma once
// SwizzledLdsLayout: one stage of a K-contiguous operand tile (TileMN rows × TileK elements) in
// LDS / shared memory: the stages gfx9's register-staged loaders write for K-contiguous tiles
// (register_staged_lds_layout.hpp; the gfx942 default's A and B), and NVIDIA's cp.async stages.
//
// Rows are stored one after another, K-contiguous, so the 16-byte vectors a warp copies from
// consecutive addresses of global memory land in consecutive 16-byte chunks: a warp's cp.async
// then fills whole 128-byte lines, one shared-memory wavefront each, and neighbouring threads
// share 32-byte sectors of L2. (PackedLdsLayout stores the packs of one row far apart; cp.async
// into it measured one wavefront and one L2 sector per thread on the H100 — 8× the wavefronts and
// 2× the sectors of the ideal — and capped the GEMM at about 190 TFLOPS; docs/performance.md.)
//
// Within every 128-byte line the eight 16-byte chunks are permuted by an XOR with a key, so that
// ldmatrix — 8 lanes reading one 16-byte chunk each from 8 consecutive rows at the same k — hits
// 8 different chunk positions, i.e. all 32 banks once:
//   P = chunks per row (TileK · sizeof(Element) / 16)
//   P < 8:  8 / P rows share a line; key = line % P  (the lines of 8 consecutive rows get P
//           different keys, and the P chunk positions of a row differ in the bits above them)
//   P >= 8: a row spans P / 8 lines; key = row % 8
// The pattern repeats every 8 rows: offset(row + 8·j, k) = offset(row, k) + j·kRowGroupElements.
// test/unit/lds_layout_test.cpp checks the bijection, the period and both conflict-free claims.
#include <cstddef>

#include "hiptile/gemm/block/lds_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, int TileMN, int TileK>
struct SwizzledLdsLayout : LdsTile<Element, TileMN, TileK> {
  using Tile = LdsTile<Element, TileMN, TileK>;
  using Tile::kPackBytes;
  using Tile::kPackElements;
  using Tile::kPacks;
  static_assert(kPacks >= 2 && (kPacks & (kPacks - 1)) == 0,
                "the swizzled layout needs TileShape::kK of 32, 64, 128 ... bytes (a power of two, at least 32)");
  static constexpr int kLineChunks = 8;  // 128-byte lines
  static constexpr std::size_t kBytes = std::size_t(TileMN) * TileK * sizeof(Element);
  static constexpr int kElements = TileMN * TileK;
  static constexpr int kRowGroupElements = 8 * TileK;  // 8 rows: one full period of the swizzle

  // Element offset of (row, k) within the stage.
  HIPTILE_HOST_DEVICE static constexpr int offset(int row, int k) {
    int const chunk = row * kPacks + k / kPackElements;  // unswizzled chunk index
    int const line = chunk / kLineChunks;
    int const key = kPacks < kLineChunks ? line % kPacks : row % kLineChunks;
    int const swizzled = line * kLineChunks + ((chunk % kLineChunks) ^ key);
    return swizzled * kPackElements + k % kPackElements;
  }
};

}  // namespace hiptile::gemm::block
