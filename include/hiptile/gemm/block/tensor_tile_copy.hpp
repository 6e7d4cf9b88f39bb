#pragma once
// TensorTileCopy: the matrix model of TensorCopyLoader (global_tile_loader.hpp), for NVIDIA sm_90.
// One thread of the block moves a whole K tile of a K-contiguous operand (TileMN rows × TileK)
// into its stage with one tensor copy (arch/tensor_copy.hpp): the copy engine reads rows at any
// 16-byte pitch, writes them in the 128-byte swizzle — SwizzledLdsLayout's for 128-byte rows, the
// layout warpgroup MMAs read — and fills rows past MN and columns past K with zeros.
//
// Against cp.async (16 bytes a thread) on the H100: two instructions a stage instead of one per
// 16 bytes, and rows at a pitch that is not a multiple of 128 bytes cost fewer L2 sectors (1.5× the
// aligned pitch's, against cp.async's 2.25× at K = 3000). The 128-row tiles ran 1-14% faster with
// it, the 64-row tiles slower (docs/performance.md, "Tensor copies").
//
// Params hold the tensor map, built on the host from the operand: extents {K, MN, batches},
// strides {ld, batch_stride} in bytes, box {TileK, TileMN, 1}. A batch stride of 0 (every batch
// reads one matrix) is a map of one batch that every batch reads.
//
// An MN-contiguous 16-bit operand (SwizzledMnLdsLayout, which warpgroup MMAs read with their
// transpose bit) is the same with MN and K exchanged: extents {MN, K, batches}, box {64, TileK, 1},
// one copy per 64-element block of the tile, each landing as the block's TileK rows of 128 bytes
// in the 128-byte swizzle.
#include <cstdint>

#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

// Layout: the stage's SwizzledLdsLayout, whose rows must be 128 bytes, or SwizzledMnLdsLayout of
// 128-byte blocks.
template <class Element, class Layout>
class TensorTileCopy {
 public:
  using LdsLayout = Layout;
  static constexpr int kTileMN = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static constexpr bool kMnMajor = requires { requires Layout::kMnContiguous; };
  // The box's contiguous extent and its rows: a K row (K-major), or a block's MN extent (MN-major).
  static constexpr int kBoxInner = kMnMajor ? 128 / int(sizeof(Element)) : kTileK;
  static constexpr int kBoxRows = kMnMajor ? kTileK : kTileMN;
  static constexpr int kBoxes = kMnMajor ? kTileMN / kBoxInner : 1;
  static_assert(kBoxInner * int(sizeof(Element)) == 128 && (!kMnMajor || kTileMN % kBoxInner == 0),
                "tensor copies write 128-byte rows (the 128-byte swizzle)");
  static_assert(kBoxRows <= 256, "a tensor copy's box has at most 256 rows");
  static constexpr int kTileBytes = static_cast<int>(Layout::kBytes);  // bytes the copies land, zeros included

  // The operand as the copy engine reads it, built on the host.
  struct Params {
    arch::TensorMap map{};
    int extent_k = 0;
    bool batched = false;  // whether the map has a batch per sub-problem (else all read batch 0)
    bool encoded = false;  // whether the driver took the map

    Params() = default;
    // Encodes the map of `view`, read by `batches` sub-problems.
    Params(OperandView<Element> const& view, int batches) noexcept {
      extent_k = view.extent_k;
      batched = batches > 1 && view.batch_stride != 0;
      std::uint64_t const row_bytes = std::uint64_t(view.ld) * sizeof(Element);
      std::uint64_t const matrix_bytes = std::uint64_t(view.batch_stride) * sizeof(Element);
      std::uint64_t const inner = std::uint64_t(kMnMajor ? view.extent_mn : view.extent_k);
      std::uint64_t const rows = std::uint64_t(kMnMajor ? view.extent_k : view.extent_mn);
      arch::TensorMap3d const tensor{
          view.data,
          int(sizeof(Element)),
          {inner, rows, std::uint64_t(batched ? batches : 1)},
          // (One batch: any stride the driver takes; the rows' span, rounded to 16 bytes.)
          {row_bytes, batched ? matrix_bytes : round_up<std::uint64_t>(row_bytes * rows, 16)},
          {std::uint32_t(kBoxInner), std::uint32_t(kBoxRows), 1}};
      encoded = view.ld >= 0 && view.extent_k > 0 && view.extent_mn > 0 && arch::encode_tensor_map(map, tensor);
    }
  };

  // Whether the driver took the operand's map: its pitch and batch stride (one batch: its rows'
  // span) multiples of 16 bytes below 2^40, its extents within 2^32.
  static bool offsets_fit(Params const& p) noexcept { return p.encoded; }

  HIPTILE_DEVICE HIPTILE_INLINE TensorTileCopy(Params const& p, int mn0, int batch, int /*thread*/)
      : map_(&p.map), mn0_(mn0), batch_(p.batched ? batch : 0), k_tiles_(ceil_div(p.extent_k, kTileK)) {}

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  // Asks for K tile `k_tile` in `stage`, its kTileBytes counted against `landed` (one thread).
  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile, arch::SharedBarrier* landed) const {
    if constexpr (kMnMajor) {
      HIPTILE_UNROLL
      for (int box = 0; box < kBoxes; ++box) {
        arch::tensor_copy_3d(stage + box * Layout::kBlockElements, map_, mn0_ + box * kBoxInner, k_tile * kTileK,
                             batch_, landed);
      }
    } else {
      arch::tensor_copy_3d(stage, map_, k_tile * kTileK, mn0_, batch_, landed);
    }
  }

 private:
  arch::TensorMap const* map_;  // in the kernel's parameters or the grouped GEMM's groups
  int mn0_;
  int batch_;
  int k_tiles_;
};

}  // namespace hiptile::gemm::block
