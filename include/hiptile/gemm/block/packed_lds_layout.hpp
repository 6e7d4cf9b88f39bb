#pragma once
// PackedLdsLayout: how one stage of an operand tile (TileMN × TileK elements) sits in LDS.
//
// K is split into packs of 16 bytes (8 f16/bf16 elements); a pack of one row is one 16-byte
// chunk, so every fragment read and every K-contiguous tile write is one ds_read/ds_write_b128.
// Chunks are laid out pack-major: all rows of pack 0, then all rows of pack 1, ...
//
// Two offsets keep every access of the GEMM main loop free of bank conflicts under the LDS model
// of sim/lds_bank_model.hpp (8 lanes per phase for 16-byte accesses, 32 for 4-byte ones):
//  - row r sits at chunk r + r/8 within its pack block (one spare chunk every 8 rows). Fragment
//    reads (8 lanes, 8 consecutive rows, one pack) hit 8 consecutive chunks; the MN-contiguous
//    loader's 4-byte writes (rows 8u + j for 8 consecutive u, fixed j) land on chunks 9u + j,
//    8 different banks quadruples.
//  - pack blocks are kBlockStride chunks apart with kBlockStride ≡ 8/packs-per-row (mod 8), so the
//    K-contiguous loader's writes (8 lanes = 8/packs rows × all packs of a row) hit 8 chunks.
// The simulator checks both claims: test/sim/gemm_lds_conflict_test.cpp.
#include <cstddef>

#include "hiptile/gemm/block/lds_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, int TileMN, int TileK>
struct PackedLdsLayout : LdsTile<Element, TileMN, TileK> {
  using Tile = LdsTile<Element, TileMN, TileK>;
  using Tile::kPackBytes;
  using Tile::kPackElements;
  using Tile::kPacks;
  static_assert(kPacks <= 8 || kPacks % 8 == 0, "packs per row must divide 8 or be a multiple of 8");

  static constexpr int kRowChunks = TileMN + TileMN / 8;  // rows with one spare chunk per 8
  static constexpr int kBlockResidue = kPacks >= 8 ? 1 : 8 / kPacks;
  static constexpr int kBlockStride = kRowChunks + ((kBlockResidue - kRowChunks % 8) + 8) % 8;
  static constexpr std::size_t kBytes = std::size_t(kPacks) * kBlockStride * kPackBytes;
  static constexpr int kElements = static_cast<int>(kBytes / sizeof(Element));
  // offset(row + 8·j, k) = offset(row, k) + j·kRowGroupElements: 8 rows are 9 chunks.
  static constexpr int kRowGroupElements = 9 * kPackElements;

  // Element offset of (row, k) within the stage. k % kPackElements selects the element in its pack.
  HIPTILE_HOST_DEVICE static constexpr int offset(int row, int k) {
    return ((k / kPackElements) * kBlockStride + row + row / 8) * kPackElements + k % kPackElements;
  }
};

}  // namespace hiptile::gemm::block
