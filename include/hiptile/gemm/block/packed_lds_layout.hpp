#pragma once
// PackedLdsLayout: how one stage of an operand tile (TileMN × TileK elements) sits in LDS for the
// register-staged loaders when the swizzled layout does not serve (register_staged_lds_layout.hpp):
// MN-contiguous tiles, and K-contiguous ones whose rows are not a power of two of 16-byte packs.
//
// K is split into packs of 16 bytes (8 f16/bf16 elements); a pack of one row is one 16-byte
// chunk, so every fragment read and every K-contiguous tile write is one ds_read/ds_write_b128.
// Chunks are laid out pack-major: the TileMN rows of pack 0, then those of pack 1, ... with no
// spare chunk. Within each group of 8 rows, row 8g + j sits at chunk 8g + (j ^ key(g, p)), and
// the key spreads every access of the main loop over the 8 chunk positions of a 128-byte line
// (the banks, under the LDS model of sim/lds_bank_model.hpp: 8 lanes per phase for 16-byte
// accesses, 32 for 4-byte ones):
//  - fragment reads (8 lanes, 8 consecutive rows, one pack): j varies, the key does not;
//  - the transposing loader's word writes (one k of rows V·u + j for 8 consecutive u, V =
//    16 / sizeof(Element) rows per global vector): key = (g ^ g / 8) % 8 takes 8 values over them,
//    for V = 4, 8 and 16;
//  - K-contiguous writes (8 lanes: 8 / packs rows × every pack of a row): key ^= p · 8 / packs
//    (p % 8 beyond 8 packs) keeps the packs of a row apart, for a power of two of packs (other
//    counts stay correct, their stores may share banks).
// Rows 8 apart do not sit a constant distance apart (no kRowGroupElements): readers compute each
// row's offset. test/unit/lds_layout_test.cpp checks the claims by brute force, and
// test/sim/gemm_lds_conflict_test.cpp on the simulator's bank model.
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

  static constexpr std::size_t kBytes = std::size_t(TileMN) * TileK * sizeof(Element);
  static constexpr int kElements = TileMN * TileK;

  // Element offset of (row, k) within the stage. k % kPackElements selects the element in its pack.
  HIPTILE_HOST_DEVICE static constexpr int offset(int row, int k) {
    int const pack = k / kPackElements;
    int const group = row / 8;
    int const pack_key = kPacks <= 8 ? pack * (8 / kPacks) : pack;
    int const key = (group ^ (group / 8) ^ pack_key) % 8;
    int const chunk = pack * TileMN + 8 * group + ((row % 8) ^ key);
    return chunk * kPackElements + k % kPackElements;
  }
};

}  // namespace hiptile::gemm::block
