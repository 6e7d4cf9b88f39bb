#pragma once
// TileLoader: the matrix model of RegisterStagedLoader (global_tile_loader.hpp). It moves one
// operand tile (TileMN × TileK elements of an MN × K matrix operand) from global memory into an
// LDS stage (register_staged_lds_layout.hpp), in two steps so the mainloop can overlap them with
// math:
//   load(k_tile): global → registers, with 16-byte buffer loads; elements outside the operand read 0;
//   store(stage): registers → LDS.
//
// The buffer resource starts at the block's first row (kK) or column (kMN), not at the operand:
// its offsets are 32-bit, and this way they only have to reach across one block tile — TileMN
// rows of K (kK) or K rows of TileMN (kMN) — whatever the operand's size. offsets_fit() is that
// limit, checked on the host.
//
// Edges need no branches on the loads: rows (kK) or K-columns (kMN) past the end of the operand
// are past the end of its buffer and read zeros. The other edge — K past the end within a row
// (kK), M/N past the end within a column (kMN) — still lies inside the buffer, so the vectors that
// cross it are masked in registers.
//
// Thread mapping, chosen for coalesced global reads and conflict-free LDS writes:
//  kK:  vector v = thread + kThreads·i covers pack v % kPacks of row v / kPacks: neighbouring
//       threads read neighbouring 16 bytes of a row; one ds_write_b128 per vector.
//  kMN: an LDS word holds P neighbouring k of one row, a 16-byte vector V = 16 / sizeof(Element)
//       rows of one k. P is 4 / sizeof(Element) (4-byte words: 2 f16, 4 8-bit, 1 f32) when each
//       thread loads a multiple of that many vectors, else the largest power of two that divides
//       its vectors (narrower words, more LDS stores). Unit u = thread + kThreads·i covers V rows ×
//       P k: k group s = u % G of pack (u / G) / (TileMN / V) (a pack's V k are G = V / P groups of
//       P), rows V·((u / G) % (TileMN / V)) + 0..V-1. It loads P 16-byte vectors along MN
//       (k … k+P-1) and regroups them into V words of P k, one LDS store each: K-packed LDS for an
//       MN-contiguous operand of any element size.
#include <cstdint>
#include <cstring>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/register_staged_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, OperandMajor Major, int TileMN, int TileK, int Threads>
class TileLoader {
 public:
  using Params = OperandView<Element>;
  using LdsLayout = RegisterStagedLdsLayout<Element, Major, TileMN, TileK>;
  static constexpr int kVectorElements = LdsLayout::kPackElements;
  using Vector = Array<Element, kVectorElements>;
  // What a thread holds between load and store: each vector as four 32-bit words. The loader only
  // moves bits (and masks them); kept as 8-bit elements, the compiler split every word into bytes
  // after the load and packed them again for the LDS store (164 VALU per K step of an int8 tile).
  using Bits = Array<std::uint32_t, 4>;
  static_assert(sizeof(Vector) == sizeof(Bits), "a loader vector is 16 bytes");
  static constexpr int kPacks = LdsLayout::kPacks;
  static constexpr int kVectors = TileMN * TileK / kVectorElements;  // 16-byte global loads per tile
  static_assert(kVectors % Threads == 0,
                "the tile's 16-byte vectors must divide evenly among the threads: change the tile or thread count");
  static constexpr int kVectorsPerThread = kVectors / Threads;
  static_assert(sizeof(Element) == 1 || sizeof(Element) == 2 || sizeof(Element) == 4,
                "the loader moves 1-, 2- or 4-byte elements");
  static_assert(Major == OperandMajor::kK || (TileMN >= 64 && TileMN % kVectorElements == 0),
                "an MN-contiguous operand needs a tile extent in M (A) or N (B) of at least 64, whole 16-byte "
                "vectors");
  // kMN: k of one row per LDS word (P above), and the units of P vectors each thread loads.
  static constexpr int kKPerWord = [] {
    int p = 4 / static_cast<int>(sizeof(Element));
    while (kVectorsPerThread % p != 0) p /= 2;
    return p;
  }();
  static constexpr int kUnitsPerThread = kVectorsPerThread / kKPerWord;
  static constexpr int kGroups = kVectorElements / kKPerWord;  // groups of kKPerWord k in a pack
  // The most bytes past a block's first element that its loads may reach (buffer offsets pass
  // through the builtins' int argument).
  static constexpr std::int64_t kMaxBlockBytes = (std::int64_t{1} << 31) - 1;

  // Host: whether every block's loads stay within kMaxBlockBytes of its first element, so that
  // the 32-bit offsets (and the int ld and k below them) cannot wrap. Exact for any Params.
  static bool offsets_fit(Params const& p) noexcept {
    if (p.ld < 0 || p.extent_k < 0 || !round_up_fits(p.extent_k, TileK)) return false;
    std::int64_t const k = round_up(p.extent_k, TileK);
    ByteRange::Int128 const elements =
        Major == OperandMajor::kK ? ByteRange::span(TileMN, p.ld, k) : ByteRange::span(k, p.ld, TileMN);
    return elements * ByteRange::Int128(sizeof(Element)) <= kMaxBlockBytes;
  }

  // Thread `thread`'s loader for the block tile whose first row (kK) or column (kMN) is mn0, in
  // batch `batch` (p.batch_stride elements on per batch; each batch spans span_bytes).
  HIPTILE_DEVICE HIPTILE_INLINE TileLoader(Params const& p, int mn0, int batch, int thread)
      : ld_(static_cast<int>(p.ld)), extent_k_(p.extent_k), extent_mn_(p.extent_mn - mn0), thread_(thread) {
    std::int64_t const first = Major == OperandMajor::kK ? std::int64_t(mn0) * p.ld : std::int64_t(mn0);
    std::int64_t const left = p.span_bytes - first * std::int64_t(sizeof(Element));
    // More than 4 GiB left means this block is far from the operand's end: its loads, within
    // kMaxBlockBytes, never reach the end, so the record count only has to exceed them.
    std::uint32_t const records = left > std::int64_t(UINT32_MAX) ? UINT32_MAX : static_cast<std::uint32_t>(left);
    buffer_ = arch::make_buffer_resource(p.data + (batch * p.batch_stride + first), records);
  }

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return ceil_div(extent_k_, TileK); }

  // Global → registers for K tile `k_tile` of this block.
  HIPTILE_DEVICE HIPTILE_INLINE void load(int k_tile) {
    int const k0 = k_tile * TileK;
    if constexpr (Major == OperandMajor::kK) {
      HIPTILE_UNROLL
      for (int i = 0; i < kVectorsPerThread; ++i) {
        int const v = thread_ + Threads * i;
        int const k = k0 + (v % kPacks) * kVectorElements;
        vectors_[i] = load_vector((v / kPacks) * ld_ + k);
        valid_[i] = extent_k_ - k;
      }
    } else {
      HIPTILE_UNROLL
      for (int i = 0; i < kUnitsPerThread; ++i) {
        int const u = thread_ + Threads * i;
        int const k = k0 + unit_k(u);
        int const row = unit_row(u);
        HIPTILE_UNROLL
        for (int e = 0; e < kKPerWord; ++e) {
          vectors_[kKPerWord * i + e] = load_vector((k + e) * ld_ + row);
          valid_[kKPerWord * i + e] = extent_mn_ - row;
        }
      }
    }
  }

  // Registers → LDS stage.
  HIPTILE_DEVICE HIPTILE_INLINE void store(Element* stage) {
    HIPTILE_UNROLL
    for (int i = 0; i < kVectorsPerThread; ++i) mask_from(vectors_[i], valid_[i]);
    if constexpr (Major == OperandMajor::kK) {
      HIPTILE_UNROLL
      for (int i = 0; i < kVectorsPerThread; ++i) {
        int const v = thread_ + Threads * i;
        arch::lds_store(reinterpret_cast<Bits*>(stage + LdsLayout::offset(v / kPacks, (v % kPacks) * kVectorElements)),
                        vectors_[i]);
      }
    } else {
      HIPTILE_UNROLL
      for (int i = 0; i < kUnitsPerThread; ++i) {
        int const u = thread_ + Threads * i;
        int const k = unit_k(u);
        int const row = unit_row(u);
        Array<Vector, kKPerWord> along_k;  // along_k[e]: the vector of k + e
        HIPTILE_UNROLL
        for (int e = 0; e < kKPerWord; ++e) along_k[e] = __builtin_bit_cast(Vector, vectors_[kKPerWord * i + e]);
        HIPTILE_UNROLL
        for (int j = 0; j < kVectorElements; ++j) {
          Array<Element, kKPerWord> word;
          HIPTILE_UNROLL
          for (int e = 0; e < kKPerWord; ++e) word[e] = along_k[e][j];
          arch::lds_store(reinterpret_cast<Array<Element, kKPerWord>*>(stage + LdsLayout::offset(row + j, k)), word);
        }
      }
    }
  }

 private:
  // The 16-byte vector at element `element` from the block's first element (< kMaxBlockBytes).
  HIPTILE_DEVICE HIPTILE_INLINE Bits load_vector(int element) const {
    return arch::buffer_load<Bits>(buffer_, static_cast<std::uint32_t>(element) * sizeof(Element));
  }

  // kMN unit geometry (see the header comment).
  static constexpr int kRowGroups = TileMN / kVectorElements;
  HIPTILE_HOST_DEVICE static constexpr int unit_k(int u) {
    return (u / kGroups / kRowGroups) * kVectorElements + kKPerWord * (u % kGroups);
  }
  HIPTILE_HOST_DEVICE static constexpr int unit_row(int u) { return kVectorElements * ((u / kGroups) % kRowGroups); }

  // Zeroes the elements of `v` from index `valid` on (valid may be <= 0 or >= the vector size):
  // word by word, on the bytes, whatever the element size.
  HIPTILE_DEVICE HIPTILE_INLINE static void mask_from(Bits& v, int valid) {
    if (valid >= kVectorElements) return;
    int const bytes = valid * static_cast<int>(sizeof(Element));
    HIPTILE_UNROLL
    for (int w = 0; w < 4; ++w) {
      int const keep = bytes - 4 * w;  // bytes of word w below the edge (little-endian: the low ones)
      if (keep <= 0) {
        v[w] = 0;
      } else if (keep < 4) {
        v[w] &= (std::uint32_t{1} << (8 * keep)) - 1;
      }
    }
  }
  arch::BufferResource buffer_;
  int ld_;         // fits: offsets_fit bounds it by kMaxBlockBytes
  int extent_k_;   // K
  int extent_mn_;  // rows (kK) or columns (kMN) of the operand from this block's first on
  int thread_;
  // The loaded vectors, and for each how many of its leading elements are inside the operand. The
  // mask is applied in store(), not load(): masking right after a load would make the load's
  // consumer wait for the data there, inside the math of the previous tile.
  Array<Bits, kVectorsPerThread> vectors_;
  Array<int, kVectorsPerThread> valid_;
};

}  // namespace hiptile::gemm::block
