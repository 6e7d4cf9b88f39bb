#pragma once
// RegisterStagedLdsLayout: the LDS layout of a stage that a register-staged loader writes
// (tile_loader.hpp, gathered_tile.hpp) and the wave MMA reads.
//
//  K-contiguous tile, 2, 4, 8 … 16-byte packs per row: SwizzledLdsLayout. Eight neighbouring
//    threads store one whole 128-byte line (8 / packs rows × every pack), and the wave MMA reads
//    one pack of 8 consecutive rows; the swizzle serves both without a spare byte. Two stages of a
//    128×128×32 f16 tile fill 32 KiB exactly, so two workgroups share a gfx942 compute unit
//    (64 KiB of LDS): the padded layout's 37,376 bytes left room for one, with one wave per SIMD
//    and nothing to hide its LDS latency behind (docs/timing_model.md).
//  MN-contiguous tile, or packs per row not a power of two: PackedLdsLayout. The transposing
//    loader's 4-byte stores cover the same k of rows 8 apart, which only its spare chunk every 8
//    rows spreads over the banks.
#include <bit>
#include <type_traits>

#include "hiptile/gemm/block/lds_tile.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"

namespace hiptile::gemm::block {

template <class Element, OperandMajor Major, int TileMN, int TileK>
inline constexpr bool kSwizzledStage =
    Major == OperandMajor::kK && LdsTile<Element, TileMN, TileK>::kPacks >= 2 &&
    std::has_single_bit(unsigned(LdsTile<Element, TileMN, TileK>::kPacks));

template <class Element, OperandMajor Major, int TileMN, int TileK>
using RegisterStagedLdsLayout =
    std::conditional_t<kSwizzledStage<Element, Major, TileMN, TileK>, SwizzledLdsLayout<Element, TileMN, TileK>,
                       PackedLdsLayout<Element, TileMN, TileK>>;

}  // namespace hiptile::gemm::block
