#pragma once
// Warpgroup MMA (wgmma.mma_async, NVIDIA sm_90a): four consecutive warps — a warpgroup, whose
// first warp index is a multiple of 4 — compute D(64 × N) += A(64 × K) · B(K × N) together, reading
// A and B straight from shared memory through 64-bit matrix descriptors, asynchronously: the
// instructions of a group are committed, and wait<N>() blocks until at most N groups are pending.
// Hopper's tensor cores reach their full rate only through it (HOPPER.md; mma.sync, the sm_80 form,
// ran hiptile's GEMM at about 0.63 of cuBLAS, docs/performance.md).
//
// Facts used (PTX ISA 8.x, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
//   - K per instruction is 32 bytes of each row: 16 for f16/bf16, 32 for the 8-bit formats.
//   - D's fragment: warp w of the group holds rows 16w .. 16w + 15; register 4i + j of a lane holds
//     row 16w + lane/4 + 8·(j/2), column 8i + 2·(lane % 4) + j % 2 — for every i < N/8 the layout of
//     an mma.sync m16n8 C fragment (arch/mma_sync.hpp), so the epilogues read it unchanged.
//   - Matrix descriptor: bits 0–13 the shared-memory address >> 4, 16–29 the leading-dimension
//     byte offset >> 4, 32–45 the stride-dimension byte offset >> 4, 62–63 the swizzle (1: 128 B).
//     A K-major operand with the 128-byte swizzle has rows of 128 bytes, 8-row groups 1024 bytes
//     apart (the stride offset), the 16-byte chunk c of row r stored at chunk c ^ (r % 8) of the
//     address's bits 7–9 — block/swizzled_lds_layout.hpp's layout for 128-byte rows — and a K
//     step further into the row is the start address plus its byte offset.
//   - Registers the instructions accumulate into are fenced from earlier accesses by wgmma.fence;
//     shared memory written through the generic proxy (cp.async, st.shared) must be made visible
//     to the async proxy by fence.proxy.async before the instructions read it.
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/arch/warpgroup_mma_instructions.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

// The element types wgmma multiplies, A and B of one type here: f16, bf16 and the OCP fp8 formats
// with f32 accumulation, int8 with int32 (exact; no .satfinite, so a sum past int32 wraps as
// mma.sync's does).
template <class Element>
inline constexpr bool kWarpgroupMmaElement =
    std::is_same_v<Element, half_t> || std::is_same_v<Element, bfloat16_t> ||
    std::is_same_v<Element, float8_e4m3fn> || std::is_same_v<Element, float8_e5m2> ||
    std::is_same_v<Element, std::int8_t>;

// Hopper's fp8 wgmma keeps about 14 bits of its sum (DeepSeek-V3 technical report, §3.3.2), so
// its partial sums are promoted into f32 registers every stage (wave/warpgroup_wave_mma.hpp);
// f16, bf16 and int8 accumulate in place.
template <class Element>
inline constexpr bool kWarpgroupPromotesPartialSums =
    kWarpgroupMmaElement<Element> && sizeof(Element) == 1 && !std::is_same_v<Element, std::int8_t>;

// The atom as the wave tiles see it: a warp's share of a warpgroup instruction is 16 rows, held
// as m16n8 fragments (kM × kN = 16 × 8 per fragment, mma.sync's C layout); kK is one instruction's
// K. The instruction's N is the wave tile's N (64, 128, 192 or 256).
template <class Element>
  requires kWarpgroupMmaElement<Element>
struct WarpgroupMma : Fragment16x8 {
  static constexpr bool kIsWarpgroupMma = true;  // the wgmma family: a warpgroup computes 64 × N
  using ElementA = Element;
  using ElementB = Element;
  using ElementC = std::conditional_t<std::is_same_v<Element, std::int8_t>, std::int32_t, float>;
  static constexpr int kK = 32 / static_cast<int>(sizeof(Element));
  static constexpr int kGroupM = 64;  // rows of one instruction: four warps of kM
  using FragmentC = Array<ElementC, 4>;

  // scripts/generate_warpgroup_mma writes the instruction of each of these N for each element type.
  template <int N>
  static constexpr bool kSupportedN = N == 64 || N == 128 || N == 192 || N == 256;

  // D += A·B (D = A·B where `accumulate` is 0) for the warpgroup, A and B the 64 × kK and kK × N
  // tiles the descriptors describe; d is this lane's N/2 accumulators. Every thread of the
  // warpgroup calls it with the same descriptors. Asynchronous: read d only after commit() and wait().
  // kTransA / kTransB: the operand is MN-major (warpgroup_descriptor_sw128), which the 16-bit
  // forms alone take.
  template <int N, bool kTransA = false, bool kTransB = false>
    requires kSupportedN<N> && (sizeof(Element) == 2 || !(kTransA || kTransB))
  HIPTILE_DEVICE HIPTILE_INLINE static void mma_async(ElementC* d, std::uint64_t desc_a, std::uint64_t desc_b,
                                                      int accumulate = 1) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // The instructions, with their operand lists written out, are in warpgroup_mma_instructions.hpp.
    if constexpr (std::is_same_v<Element, half_t> && N == 64) {
      wgmma::mma_async_m64n64k16_f32_f16_f16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, half_t> && N == 128) {
      wgmma::mma_async_m64n128k16_f32_f16_f16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, half_t> && N == 192) {
      wgmma::mma_async_m64n192k16_f32_f16_f16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, half_t> && N == 256) {
      wgmma::mma_async_m64n256k16_f32_f16_f16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, bfloat16_t> && N == 64) {
      wgmma::mma_async_m64n64k16_f32_bf16_bf16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, bfloat16_t> && N == 128) {
      wgmma::mma_async_m64n128k16_f32_bf16_bf16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, bfloat16_t> && N == 192) {
      wgmma::mma_async_m64n192k16_f32_bf16_bf16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, bfloat16_t> && N == 256) {
      wgmma::mma_async_m64n256k16_f32_bf16_bf16<kTransA, kTransB>(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e4m3fn> && N == 64) {
      wgmma::mma_async_m64n64k32_f32_e4m3_e4m3(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e4m3fn> && N == 128) {
      wgmma::mma_async_m64n128k32_f32_e4m3_e4m3(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e4m3fn> && N == 192) {
      wgmma::mma_async_m64n192k32_f32_e4m3_e4m3(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e4m3fn> && N == 256) {
      wgmma::mma_async_m64n256k32_f32_e4m3_e4m3(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e5m2> && N == 64) {
      wgmma::mma_async_m64n64k32_f32_e5m2_e5m2(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e5m2> && N == 128) {
      wgmma::mma_async_m64n128k32_f32_e5m2_e5m2(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e5m2> && N == 192) {
      wgmma::mma_async_m64n192k32_f32_e5m2_e5m2(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, float8_e5m2> && N == 256) {
      wgmma::mma_async_m64n256k32_f32_e5m2_e5m2(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, std::int8_t> && N == 64) {
      wgmma::mma_async_m64n64k32_s32_s8_s8(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, std::int8_t> && N == 128) {
      wgmma::mma_async_m64n128k32_s32_s8_s8(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, std::int8_t> && N == 192) {
      wgmma::mma_async_m64n192k32_s32_s8_s8(d, desc_a, desc_b, accumulate);
    } else if constexpr (std::is_same_v<Element, std::int8_t> && N == 256) {
      wgmma::mma_async_m64n256k32_s32_s8_s8(d, desc_a, desc_b, accumulate);
    } else {
      static_assert(N == 0, "no wgmma form for this element type and N");
    }
#elif HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
    (void)d, (void)desc_a, (void)desc_b, (void)accumulate;
    __trap();  // wgmma needs the sm_90a target (CMAKE_CUDA_ARCHITECTURES 90a)
#elif HIPTILE_BACKEND_NVIDIA
    (void)d, (void)desc_a, (void)desc_b, (void)accumulate;  // host pass of nvcc: never called
#else
    (void)d, (void)desc_a, (void)desc_b, (void)accumulate;
    static_assert(sizeof(Element) == 0, "wgmma runs on NVIDIA sm_90a only; on gfx942 and the simulator use MFMA atoms");
#endif
  }
};

// A shared-memory operand in the 128-byte swizzle, starting at `start` (1024-byte aligned groups
// of 8 rows of 128 bytes, the stride offset between them). K-major: rows of 128 bytes of K from
// `start`; the leading offset is unused (16 bytes). MN-major (16-bit elements, the instruction's
// transpose bit): blocks of 64 MN-contiguous elements, each a column of K rows of 128 bytes (K row
// r's 16-byte chunk c at chunk c ^ (r % 8); block/swizzled_mn_lds_layout.hpp), `leading_bytes`
// apart — PTX ISA, "Matrix Descriptor Format": for MN-major swizzled layouts the leading offset is
// the distance between those blocks.
HIPTILE_DEVICE HIPTILE_INLINE std::uint64_t warpgroup_descriptor_sw128(void const* start,
                                                                       std::uint32_t leading_bytes = 16) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  auto const address = static_cast<std::uint32_t>(__cvta_generic_to_shared(start));
  std::uint64_t const leading = leading_bytes >> 4;
  std::uint64_t const stride = 1024 >> 4;  // one 8-row group
  std::uint64_t const swizzle_128b = 1;
  return std::uint64_t((address & 0x3FFFF) >> 4) | (leading << 16) | (stride << 32) | (swizzle_128b << 62);
#else
  (void)start, (void)leading_bytes;
  return 0;
#endif
}

// Orders this thread's earlier register accesses before the warpgroup's next mma_async.
HIPTILE_DEVICE HIPTILE_INLINE void warpgroup_fence() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

// Closes the group of the mma_async calls issued since the last commit.
HIPTILE_DEVICE HIPTILE_INLINE void warpgroup_commit() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

// Waits until at most N of this warpgroup's committed groups are still running.
template <int N>
HIPTILE_DEVICE HIPTILE_INLINE void warpgroup_wait() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

// Makes this thread's generic-proxy writes to shared memory (cp.async's, once waited for) visible
// to the async proxy that wgmma reads through.
HIPTILE_DEVICE HIPTILE_INLINE void fence_async_shared() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

}  // namespace hiptile::arch
