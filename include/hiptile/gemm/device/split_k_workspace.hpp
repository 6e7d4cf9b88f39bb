#pragma once
// SplitKWorkspace: what a device-level operator (Gemm, ImplicitGemmConvolution) does for split-K
// and stream-K (kernel/split_k.hpp), written once: the workspace's size and layout, its checks,
// what the kernel gets from it, and the zeroing its flags need before a workspace's first launch.
//
//   kParallel  batches · slices fp32 partial matrices of M × N, batch b, slice s at (b · slices + s) · M · N
//   kSerial    PartialTiles with a slot per slice but the last of every output tile of every batch:
//              the int flags (padded to 256 bytes), then the slots' partial sums (kTileBytes each);
//              none with one slice
//   kStreamK   PartialTiles with a slot per stream-K unit; none when no tile is shared
//   kNone      none
// The flags are zeroed where due by FlagReset (flag_reset.hpp).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <type_traits>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/platform/launch.hpp"

namespace hiptile::gemm::device {

// The PartialTiles of the modes that hand no partial tile over (parallel split-K, none).
struct NoPartialTiles {
  using Element = float;
  struct Params {
    int* flags = nullptr;
    Element* tiles = nullptr;
  };
  static constexpr std::size_t kTileBytes = 0;
};

template <kernel::SplitKMode Mode, class PartialTiles = NoPartialTiles>
  requires(Mode == kernel::SplitKMode::kParallel || Mode == kernel::SplitKMode::kNone ||
           !std::is_same_v<PartialTiles, NoPartialTiles>)
struct SplitKWorkspace {
  static constexpr bool kSerial = Mode == kernel::SplitKMode::kSerial;
  static constexpr bool kParallel = Mode == kernel::SplitKMode::kParallel;
  static constexpr bool kStreamK = Mode == kernel::SplitKMode::kStreamK;
  static constexpr std::size_t kAlignment = 16;         // what the workspace pointer must be aligned to
  static constexpr std::size_t kFlagAlignment = 256;  // where the slots' partial sums start

  // The extents of one launch: tiles per batch (grid x), batches (grid y), one batch's GEMM M × N,
  // stream-K's units.
  struct Extents {
    std::int64_t tiles = 0;
    std::int64_t batches = 1;
    int m = 0;
    int n = 0;
    int stream_k_units = 0;
  };

  // PartialTiles slots the launch needs.
  static std::int64_t slots(int slices, Extents const& e) noexcept {
    if (kSerial && slices > 1) return e.tiles * e.batches * (slices - 1);
    if (kStreamK) return e.stream_k_units;
    return 0;
  }

  // Bytes needed; SIZE_MAX when that does not fit a size_t (no workspace can serve it).
  static std::size_t bytes(int slices, Extents const& e) noexcept {
    using Int128 = ByteRange::Int128;
    Int128 total = 0;
    if (kParallel) total = Int128(e.batches) * slices * e.m * e.n * Int128(sizeof(float));
    if (Int128 const n = slots(slices, e); n > 0) {
      Int128 const align = kFlagAlignment;
      total = (n * Int128(sizeof(int)) + align - 1) / align * align + n * Int128(PartialTiles::kTileBytes);
    }
    return total > Int128(SIZE_MAX) ? SIZE_MAX : static_cast<std::size_t>(total);
  }

  // The slice count: kErrorInvalidProblem below 1, kErrorNotSupported above 1 without serial or
  // parallel split-K, kErrorGridTooLarge past the grid's z extent.
  static Status check_slices(int slices) noexcept {
    if (slices < 1) return Status::kErrorInvalidProblem;
    if (slices > 1 && !kSerial && !kParallel) return Status::kErrorNotSupported;
    if (std::uint64_t(slices) > max_grid_extent(2, 1)) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  // The workspace given for `needed` bytes: present, large enough, aligned, and overlapping none of
  // the operands nor the output functor's pointers (it is written while they are read).
  static Status check(void const* workspace, std::size_t given, std::size_t needed,
                      std::initializer_list<ByteRange> operands, std::span<ByteRange const> functor = {}) noexcept {
    if (needed == 0) return Status::kSuccess;
    if (workspace == nullptr) return Status::kErrorWorkspaceNull;
    if (given < needed) return Status::kErrorWorkspaceTooSmall;
    if (reinterpret_cast<std::uintptr_t>(workspace) % kAlignment != 0) return Status::kErrorMisalignedOperand;
    ByteRange const w(workspace, ByteRange::Int128(needed), 1);
    if (!w.addressable()) return Status::kErrorIndexOverflow;
    for (ByteRange const& operand : operands) {
      if (w.overlaps(operand)) return Status::kErrorAliasedOperand;
    }
    for (ByteRange const& pointer : functor) {
      if (w.overlaps(pointer)) return Status::kErrorAliasedOperand;
    }
    return Status::kSuccess;
  }

  // Parallel: where the kernel writes the partial sums and the reduction reads them.
  static float* partials(void* workspace) noexcept { return static_cast<float*>(workspace); }

  // Serial and stream-K: the flags and partial sums of `slots` slots (slots(), 0 for none).
  static typename PartialTiles::Params partial_tiles(void* workspace, std::int64_t slots) noexcept {
    if (workspace == nullptr || slots == 0) return {};
    auto* const base = static_cast<std::byte*>(workspace);
    std::size_t const flag_bytes = round_up<std::size_t>(std::size_t(slots) * sizeof(int), kFlagAlignment);
    return {reinterpret_cast<int*>(base), reinterpret_cast<typename PartialTiles::Element*>(base + flag_bytes)};
  }

};

}  // namespace hiptile::gemm::device
