#pragma once
// GatheredTile: one operand tile (TileMN × TileK elements) held in registers between a gather from
// global memory and its store into an LDS stage (register_staged_lds_layout.hpp) — the part every
// RegisterStagedLoader whose addresses are not those of a matrix shares (the convolution
// iterators). The loader says where each access comes from; GatheredTile owns which thread loads
// what, and the LDS writes.
//
// Each 16-byte vector of the tile is gathered from kVectorElements / AccessElements accesses of
// AccessElements consecutive elements; the loader returns each access's byte offset in the
// operand's buffer, or kInvalidOffset for an access wholly outside the operand (the buffer then
// reads zeros: docs/mi300_facts.md, "Buffer loads"). Narrow accesses let an operand whose runs of
// contiguous elements are not whole vectors (a channel count not a multiple of 8) be read exactly.
//
// Thread mapping, as the matrix TileLoader's (tile_loader.hpp), so the LDS writes are as free of
// bank conflicts:
//  kK:  slot i of thread t is vector v = t + Threads·i: row v / kPacks, k (v % kPacks)·kVectorElements.
//  kMN: slot i is unit u = t + Threads·i, with V = kVectorElements and P = V / 2 k pairs per pack:
//       rows V·((u/P) % (TileMN/V)) + 0..V−1 and k pair (u / P / (TileMN/V))·V + 2·(u % P) + {0, 1}:
//       two 16-byte vectors along MN, transposed into V (k, k+1) pairs (4 or 8 bytes each).
#include <cstdint>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/block/register_staged_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

// A byte offset no buffer of this library reaches (their sizes stay below 2^31): a load from it reads zeros.
inline constexpr std::uint32_t kInvalidOffset = std::uint32_t{1} << 31;

template <class Element, OperandMajor Major, int TileMN, int TileK, int Threads, int AccessElements>
class GatheredTile {
 public:
  using ElementType = Element;
  using LdsLayout = RegisterStagedLdsLayout<Element, Major, TileMN, TileK>;
  static constexpr OperandMajor kMajor = Major;
  static constexpr int kTileMN = TileMN;
  static constexpr int kTileK = TileK;
  static constexpr int kThreads = Threads;
  static constexpr bool kAsyncCopy = false;
  static constexpr int kVectorElements = LdsLayout::kPackElements;
  static constexpr int kPacks = LdsLayout::kPacks;
  static constexpr int kAccessElements = AccessElements;
  static_assert(kVectorElements % AccessElements == 0, "an access must be a whole fraction of a 16-byte vector");
  static constexpr int kAccessesPerVector = kVectorElements / AccessElements;
  using Vector = Array<Element, kVectorElements>;
  using Access = Array<Element, AccessElements>;

  static constexpr int kVectors = TileMN * TileK / kVectorElements;
  static_assert(kVectors % Threads == 0, "the tile's 16-byte vectors must divide evenly among the threads");
  static constexpr int kVectorsPerThread = kVectors / Threads;
  static_assert(Major == OperandMajor::kK ||
                    ((sizeof(Element) == 2 || sizeof(Element) == 4) && TileMN >= 64 && kVectorsPerThread % 2 == 0),
                "an MN-contiguous gathered tile transposes 2- or 4-byte elements, needs TileMN >= 64 and an even "
                "number of vectors per thread");
  static constexpr int kPairsPerPack = kVectorElements / 2;
  // Slots per thread: vectors (kK) or two-vector units (kMN).
  static constexpr int kSlots = Major == OperandMajor::kK ? kVectorsPerThread : kVectorsPerThread / 2;

  // The tile row (the first of kVectorElements for kMN) and k of slot `slot` of thread `thread`.
  HIPTILE_HOST_DEVICE static constexpr int slot_mn(int thread, int slot) {
    int const x = thread + Threads * slot;
    if constexpr (Major == OperandMajor::kK) return x / kPacks;
    return kVectorElements * ((x / kPairsPerPack) % (TileMN / kVectorElements));
  }
  HIPTILE_HOST_DEVICE static constexpr int slot_k(int thread, int slot) {
    int const x = thread + Threads * slot;
    if constexpr (Major == OperandMajor::kK) return (x % kPacks) * kVectorElements;
    return (x / kPairsPerPack / (TileMN / kVectorElements)) * kVectorElements + 2 * (x % kPairsPerPack);
  }

  // Gathers this thread's share of the tile. offset(slot, mn, k) is the byte offset in `buffer`
  // of the access whose first element is at tile row mn + i (kK: consecutive k from k; kMN:
  // consecutive rows from mn, at k), or kInvalidOffset.
  template <class OffsetOf>
  HIPTILE_DEVICE HIPTILE_INLINE void load(arch::BufferResource const& buffer, int thread, OffsetOf const& offset) {
    HIPTILE_UNROLL
    for (int slot = 0; slot < kSlots; ++slot) {
      int const mn = slot_mn(thread, slot);
      int const k = slot_k(thread, slot);
      if constexpr (Major == OperandMajor::kK) {
        HIPTILE_UNROLL
        for (int a = 0; a < kAccessesPerVector; ++a) {
          put(vectors_[slot], a, arch::buffer_load<Access>(buffer, offset(slot, mn, k + a * AccessElements)));
        }
      } else {
        HIPTILE_UNROLL
        for (int e = 0; e < 2; ++e) {
          HIPTILE_UNROLL
          for (int a = 0; a < kAccessesPerVector; ++a) {
            put(vectors_[2 * slot + e], a,
                arch::buffer_load<Access>(buffer, offset(slot, mn + a * AccessElements, k + e)));
          }
        }
      }
    }
  }

  // Registers → LDS stage.
  HIPTILE_DEVICE HIPTILE_INLINE void store(Element* stage, int thread) const {
    HIPTILE_UNROLL
    for (int slot = 0; slot < kSlots; ++slot) {
      int const mn = slot_mn(thread, slot);
      int const k = slot_k(thread, slot);
      if constexpr (Major == OperandMajor::kK) {
        arch::lds_store(reinterpret_cast<Vector*>(stage + LdsLayout::offset(mn, k)), vectors_[slot]);
      } else {
        HIPTILE_UNROLL
        for (int j = 0; j < kVectorElements; ++j) {
          Array<Element, 2> const pair{{vectors_[2 * slot][j], vectors_[2 * slot + 1][j]}};
          arch::lds_store(reinterpret_cast<Array<Element, 2>*>(stage + LdsLayout::offset(mn + j, k)), pair);
        }
      }
    }
  }

 private:
  HIPTILE_DEVICE HIPTILE_INLINE static void put(Vector& v, int a, Access const& access) {
    if constexpr (AccessElements == kVectorElements) {
      v = access;
    } else {
      HIPTILE_UNROLL
      for (int e = 0; e < AccessElements; ++e) v[a * AccessElements + e] = access[e];
    }
  }

  Array<Vector, kVectorsPerThread> vectors_;
};

}  // namespace hiptile::gemm::block
