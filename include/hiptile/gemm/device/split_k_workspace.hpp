#pragma once
// SplitKWorkspace: what a device-level operator (Gemm, ImplicitGemmConvolution) does for split-K
// (kernel/split_k.hpp), written once: the workspace's size and layout, its checks, what the kernel
// gets from it, and the zeroing a serial launch needs first.
//
//   kParallel  batches · slices fp32 partial matrices of M × N, batch b, slice s at (b · slices + s) · M · N
//   kSerial    one int semaphore per output tile of every batch (padded to 256 bytes), then each
//              tile's partial sums (SerialSplitK::kTileBytes); none with one slice
//   kNone      none
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

template <kernel::SplitKMode Mode, class SerialSplitK>
struct SplitKWorkspace {
  static constexpr bool kSerial = Mode == kernel::SplitKMode::kSerial;
  static constexpr bool kParallel = Mode == kernel::SplitKMode::kParallel;
  static constexpr std::size_t kAlignment = 16;         // what the workspace pointer must be aligned to
  static constexpr std::size_t kSemaphoreAlignment = 256;  // where the serial partial sums start

  // The extents of one launch: tiles per batch (grid x), batches (grid y), one batch's GEMM M × N.
  struct Extents {
    std::int64_t tiles = 0;
    std::int64_t batches = 1;
    int m = 0;
    int n = 0;
  };

  // Bytes needed; SIZE_MAX when that does not fit a size_t (no workspace can serve it).
  static std::size_t bytes(int slices, Extents const& e) noexcept {
    using Int128 = ByteRange::Int128;
    Int128 total = 0;
    if (kParallel) total = Int128(e.batches) * slices * e.m * e.n * Int128(sizeof(float));
    if (kSerial && slices > 1) {
      Int128 const tiles = Int128(e.tiles) * e.batches;
      Int128 const align = kSemaphoreAlignment;
      total = (tiles * Int128(sizeof(int)) + align - 1) / align * align + tiles * Int128(SerialSplitK::kTileBytes);
    }
    return total > Int128(SIZE_MAX) ? SIZE_MAX : static_cast<std::size_t>(total);
  }

  // The slice count: kErrorInvalidProblem below 1, kErrorNotSupported above 1 without split-K,
  // kErrorGridTooLarge past the grid's z extent.
  static Status check_slices(int slices) noexcept {
    if (slices < 1) return Status::kErrorInvalidProblem;
    if (slices > 1 && Mode == kernel::SplitKMode::kNone) return Status::kErrorNotSupported;
    if (std::uint64_t(slices) > max_grid_extent(2, 1)) return Status::kErrorGridTooLarge;
    return Status::kSuccess;
  }

  // The workspace given for `needed` bytes: present, large enough, aligned, and overlapping none of
  // the operands (it is written while they are read).
  static Status check(void const* workspace, std::size_t given, std::size_t needed,
                      std::initializer_list<ByteRange> operands) noexcept {
    if (needed == 0) return Status::kSuccess;
    if (workspace == nullptr) return Status::kErrorWorkspaceNull;
    if (given < needed) return Status::kErrorWorkspaceTooSmall;
    if (reinterpret_cast<std::uintptr_t>(workspace) % kAlignment != 0) return Status::kErrorMisalignedOperand;
    ByteRange const w(workspace, ByteRange::Int128(needed), 1);
    if (!w.addressable()) return Status::kErrorIndexOverflow;
    for (ByteRange const& operand : operands) {
      if (w.overlaps(operand)) return Status::kErrorAliasedOperand;
    }
    return Status::kSuccess;
  }

  // Parallel: where the kernel writes the partial sums and the reduction reads them.
  static float* partials(void* workspace) noexcept { return static_cast<float*>(workspace); }

  // Serial: the semaphores and partial sums of `tiles` output tiles (all batches).
  static typename SerialSplitK::Params serial(void* workspace, std::int64_t tiles) noexcept {
    if (workspace == nullptr) return {};
    auto* const base = static_cast<std::byte*>(workspace);
    std::size_t const semaphore_bytes = round_up<std::size_t>(std::size_t(tiles) * sizeof(int), kSemaphoreAlignment);
    return {reinterpret_cast<int*>(base),
            reinterpret_cast<typename SerialSplitK::Element*>(base + semaphore_bytes)};
  }

  // Before each serial launch: every semaphore back to zero (a run cut short, or another operator
  // sharing the workspace, may have left them anywhere), in order on the launch's stream.
  static Status prepare(typename SerialSplitK::Params const& serial, std::int64_t tiles, int slices,
                        Stream stream) noexcept {
    if (!kSerial || slices == 1) return Status::kSuccess;
    return zero_memory_async(serial.semaphores, std::size_t(tiles) * sizeof(int), stream);
  }
};

}  // namespace hiptile::gemm::device
