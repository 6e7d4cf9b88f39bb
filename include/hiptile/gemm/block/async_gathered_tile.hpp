#pragma once
// AsyncGatheredTile: GatheredTile's counterpart for NVIDIA sm_80+: one operand tile (TileMN × TileK
// elements) gathered from global memory straight into a swizzled shared-memory stage with
// cp.async, so the copies in flight hold no registers and the mainloop can keep several tiles
// ahead (AsyncCopyMainloop). The loader says where each 16-byte access comes from (a byte offset in
// its buffer, or kInvalidOffset); AsyncGatheredTile owns which thread copies what.
//
// Every access is a whole 16-byte vector along the operand's contiguous index — K for kK, MN for
// kMN — written to a SwizzledLdsLayout (kK) or SwizzledMnLdsLayout (kMN) stage, which the wave MMA
// reads with ldmatrix or ldmatrix.trans. Thread mapping: slot i of thread t is vector
// v = t + Threads·i, vector v % R of stage row v / R (R vectors per row: along K for kK, along MN
// for kMN), so a warp copies consecutive vectors of a row — whole 128-byte lines of the stage,
// whole sectors of global memory where the operand is contiguous.
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_mn_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

template <class Element, OperandMajor Major, int TileMN, int TileK, int Threads>
class AsyncGatheredTile {
 public:
  using ElementType = Element;
  using LdsLayout = std::conditional_t<Major == OperandMajor::kK, SwizzledLdsLayout<Element, TileMN, TileK>,
                                       SwizzledMnLdsLayout<Element, TileMN, TileK>>;
  static constexpr OperandMajor kMajor = Major;
  static constexpr int kTileMN = TileMN;
  static constexpr int kTileK = TileK;
  static constexpr int kThreads = Threads;
  static constexpr bool kAsyncCopy = true;
  static constexpr int kVectorElements = 16 / static_cast<int>(sizeof(Element));
  static constexpr int kAccessElements = kVectorElements;
  static constexpr int kRowVectors = (Major == OperandMajor::kK ? TileK : TileMN) / kVectorElements;
  static constexpr int kVectors = TileMN * TileK / kVectorElements;
  static_assert(kVectors % Threads == 0, "the tile's 16-byte vectors must divide evenly among the threads");
  static constexpr int kSlots = kVectors / Threads;

  // The tile row and k of the first element of slot `slot` of thread `thread`.
  HIPTILE_HOST_DEVICE static constexpr int slot_mn(int thread, int slot) {
    int const v = thread + Threads * slot;
    return Major == OperandMajor::kK ? v / kRowVectors : (v % kRowVectors) * kVectorElements;
  }
  HIPTILE_HOST_DEVICE static constexpr int slot_k(int thread, int slot) {
    int const v = thread + Threads * slot;
    return Major == OperandMajor::kK ? (v % kRowVectors) * kVectorElements : v / kRowVectors;
  }

  // Issues this thread's copies into `stage` (the mainloop commits them). offset(slot, mn, k) is the
  // byte offset in `buffer` of the vector whose first element is at (mn, k), or kInvalidOffset.
  template <class OffsetOf>
  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, arch::BufferResource const& buffer, int thread,
                                          OffsetOf const& offset) const {
    HIPTILE_UNROLL
    for (int slot = 0; slot < kSlots; ++slot) {
      int const mn = slot_mn(thread, slot);
      int const k = slot_k(thread, slot);
      arch::buffer_async_copy_16(stage + LdsLayout::offset(mn, k), buffer, offset(slot, mn, k));
    }
  }
};

}  // namespace hiptile::gemm::block
