#pragma once
// TileLoader: moves one operand tile (TileMN × TileK elements of an MN × K operand) from global
// memory into a PackedLdsLayout stage, in two steps so the mainloop can overlap them with math:
//   load():  global → registers, with 16-byte buffer loads; elements outside the operand read 0;
//   store(): registers → LDS.
//
// Edges need no branches on the loads: rows (kK) or K-columns (kMN) past the end of the operand
// are past the end of its buffer and read zeros. The other edge — K past the end within a row
// (kK), M/N past the end within a column (kMN) — still lies inside the buffer, so the vectors that
// cross it are masked in registers.
//
// Thread mapping, chosen for coalesced global reads and conflict-free LDS writes:
//  kK:  vector v = thread + kThreads·i covers pack v % kPacks of row v / kPacks: neighbouring
//       threads read neighbouring 16 bytes of a row; one ds_write_b128 per vector.
//  kMN: unit u = thread + kThreads·i covers 8 rows × 2 k: k pair s = u % 4 of pack
//       (u / 4) / (TileMN / 8), rows 8·((u / 4) % (TileMN / 8)) + 0..7. It loads two 16-byte vectors
//       along MN (k and k+1) and transposes them into eight 4-byte (k, k+1) pairs, one
//       ds_write_b32 each: K-packed LDS for an MN-contiguous operand.
#include <cstdint>
#include <cstring>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, OperandMajor Major, int TileMN, int TileK, int Threads>
struct TileLoader {
  using LdsLayout = PackedLdsLayout<Element, TileMN, TileK>;
  static constexpr int kVectorElements = LdsLayout::kPackElements;
  using Vector = Array<Element, kVectorElements>;
  static constexpr int kPacks = LdsLayout::kPacks;
  static constexpr int kVectors = TileMN * TileK / kVectorElements;  // 16-byte global loads per tile
  static_assert(kVectors % Threads == 0,
                "the tile's 16-byte vectors must divide evenly among the threads: change the tile or thread count");
  static constexpr int kVectorsPerThread = kVectors / Threads;
  static_assert(Major == OperandMajor::kK || sizeof(Element) == 2,
                "the MN-contiguous loader transposes 2-byte elements only (f16, bf16)");
  static_assert(Major == OperandMajor::kK || TileMN >= 64,
                "an MN-contiguous operand needs a tile extent of at least 64 in M (A) or N (B)");
  static constexpr int kUnitsPerThread = kVectorsPerThread / 2;  // kMN: two vectors per unit
  static_assert(Major == OperandMajor::kK || kVectorsPerThread % 2 == 0,
                "an MN-contiguous tile needs an even number of 16-byte vectors per thread: make TileMN * TileK * "
                "sizeof(Element) a multiple of 32 * Threads");

  // The loaded vectors, and for each how many of its leading elements are inside the operand. The
  // mask is applied in store(), not load(): masking right after a load would make the load's
  // consumer wait for the data there, inside the math of the previous tile.
  struct Registers {
    Array<Vector, kVectorsPerThread> vectors;
    Array<int, kVectorsPerThread> valid;
  };

  // Global → registers for the tile whose first row is `mn0` and first k is `k0`.
  HIPTILE_DEVICE HIPTILE_INLINE static void load(Registers& regs, OperandView<Element> const& op,
                                                 arch::BufferResource const& buffer, int mn0, int k0, int thread) {
    if constexpr (Major == OperandMajor::kK) {
      HIPTILE_UNROLL
      for (int i = 0; i < kVectorsPerThread; ++i) {
        int const v = thread + Threads * i;
        int const row = mn0 + v / kPacks;
        int const k = k0 + (v % kPacks) * kVectorElements;
        std::int64_t const element = std::int64_t(row) * op.ld + k;
        regs.vectors[i] = arch::buffer_load<Vector>(buffer, static_cast<std::uint32_t>(element * sizeof(Element)));
        regs.valid[i] = op.extent_k - k;
      }
    } else {
      HIPTILE_UNROLL
      for (int i = 0; i < kUnitsPerThread; ++i) {
        int const u = thread + Threads * i;
        int const k = k0 + unit_k(u);
        int const row = mn0 + unit_row(u);
        HIPTILE_UNROLL
        for (int e = 0; e < 2; ++e) {
          std::int64_t const element = std::int64_t(k + e) * op.ld + row;
          regs.vectors[2 * i + e] =
              arch::buffer_load<Vector>(buffer, static_cast<std::uint32_t>(element * sizeof(Element)));
          regs.valid[2 * i + e] = op.extent_mn - row;
        }
      }
    }
  }

  // Registers → LDS stage.
  HIPTILE_DEVICE HIPTILE_INLINE static void store(Registers& regs, Element* stage, int thread) {
    HIPTILE_UNROLL
    for (int i = 0; i < kVectorsPerThread; ++i) mask_from(regs.vectors[i], regs.valid[i]);
    if constexpr (Major == OperandMajor::kK) {
      HIPTILE_UNROLL
      for (int i = 0; i < kVectorsPerThread; ++i) {
        int const v = thread + Threads * i;
        arch::lds_store(reinterpret_cast<Vector*>(stage + LdsLayout::offset(v / kPacks, (v % kPacks) * kVectorElements)),
                        regs.vectors[i]);
      }
    } else {
      HIPTILE_UNROLL
      for (int i = 0; i < kUnitsPerThread; ++i) {
        int const u = thread + Threads * i;
        int const k = unit_k(u);
        int const row = unit_row(u);
        HIPTILE_UNROLL
        for (int j = 0; j < 8; ++j) {
          Array<Element, 2> const pair{{regs.vectors[2 * i][j], regs.vectors[2 * i + 1][j]}};
          arch::lds_store(reinterpret_cast<Array<Element, 2>*>(stage + LdsLayout::offset(row + j, k)), pair);
        }
      }
    }
  }

 private:
  // kMN unit geometry (see the header comment).
  HIPTILE_HOST_DEVICE static constexpr int unit_k(int u) { return (u / 4 / (TileMN / 8)) * kVectorElements + 2 * (u % 4); }
  HIPTILE_HOST_DEVICE static constexpr int unit_row(int u) { return 8 * ((u / 4) % (TileMN / 8)); }

  // Zeroes the elements of `v` from index `valid` on (valid may be <= 0 or >= the vector size).
  HIPTILE_DEVICE HIPTILE_INLINE static void mask_from(Vector& v, int valid) {
    if (valid >= kVectorElements) return;
    HIPTILE_UNROLL
    for (int e = 0; e < kVectorElements; ++e) {
      if (e >= valid) v[e] = Element{};
    }
  }
};

}  // namespace hiptile::gemm::block
