#pragma once
// RegisterStagedLdsLayout: the LDS layout of a stage that a register-staged loader writes
// (tile_loader.hpp, gathered_tile.hpp) and the wave MMA reads. Neither has a spare byte: a stage
// of a 128×128×32 f16 tile is 16 KiB, so the gfx942 default (one stage) fits four workgroups in a
// compute unit's 64 KiB of LDS, and two stages fit two. Two stages of the layout padded by a chunk
// every 8 rows took 37,376 bytes, left room for one workgroup, one wave per SIMD, and nothing to
// hide the LDS latency (docs/timing_model.md).
//  K-contiguous tile, 2, 4, 8 … 16-byte packs per row: SwizzledLdsLayout. Eight neighbouring
//    threads store one whole 128-byte line (8 / packs rows × every pack), the wave MMA reads one
//    pack of 8 consecutive rows, and rows 8 apart sit a constant distance apart, so each thread's
//    reads of several rows take one address register.
//  Otherwise (an MN-contiguous tile, which the loader transposes through word stores down rows 8
//  apart): PackedLdsLayout, whose row key spreads those stores too.
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
