#pragma once
// mma.sync atoms for NVIDIA sm_80+ (one warp of 32 lanes computes D = A·B + C), so the block,
// mainloop and epilogue templates also build and run with nvcc: m16n8k16 for f16/bf16, m16n8k32
// for 8-bit inputs (s8 with s32 accumulation, sm_80+; OCP e4m3/e5m2 with f32, sm_89+), m16n8k8
// for f32 inputs multiplied as tf32 (sm_80+).
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"), with
// g = lane / 4 and t = lane % 4:
//   A (16×16, row): element i of 8 at row g + 8·((i/2) mod 2), k = 2t + (i mod 2) + 8·(i/4)
//   B (16×8, col):  element i of 4 at k = 2t + (i mod 2) + 8·(i/2), column g
//   C/D (16×8):     element i of 4 at row g + 8·(i/2), column 2t + (i mod 2)
// and for m16n8k32 with 8-bit types ("... mma.m16n8k32"):
//   A (16×32, row): element i of 16 at row g + 8·((i/4) mod 2), k = 4t + (i mod 4) + 16·(i/8)
//   B (32×8, col):  element i of 8 at k = 4t + (i mod 4) + 16·(i/4), column g
//   C/D: as above.
// and for m16n8k8 with tf32 ("... mma.m16n8k8", .tf32):
//   A (16×8, row):  element i of 4 at row g + 8·(i mod 2), k = t + 4·(i/2)
//   B (8×8, col):   element i of 2 at k = t + 4·i, column g
// In bytes all three A layouts are the same: register r of a lane holds bytes 4t..4t+3 of the 16-byte
// half (r / 2) of row g + 8·(r mod 2) — so one ldmatrix.x4 scheme loads both (wave/mma_sync_wave_mma.hpp).
#include <cstdint>
#include <type_traits>

#include "hiptile/core/array.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

// What every m16n8 mma.sync shape shares: the warp computes a 16 × 8 tile of C, each lane holding
// four elements, two neighbouring columns of two rows 8 apart, and B's column is lane / 4 (PTX ISA,
// "Matrix Fragments for mma.m16n8k16" and "mma.m16n8k32"). A warp's share of a warpgroup MMA's D
// has the same layout (arch/warpgroup_mma.hpp).
struct Fragment16x8 {
  static constexpr int kM = 16;
  static constexpr int kN = 8;
  static constexpr int kCPerLane = 4;
  HIPTILE_HOST_DEVICE static constexpr int b_col(int lane, int) { return lane / 4; }
  HIPTILE_HOST_DEVICE static constexpr int c_row(int lane, int i) { return lane / 4 + 8 * (i / 2); }
  HIPTILE_HOST_DEVICE static constexpr int c_col(int lane, int i) { return 2 * (lane % 4) + i % 2; }
};

struct MmaSync16x8 : Fragment16x8 {
  static constexpr bool kIsMmaSync = true;  // the mma.sync family: one warp computes the atom
};

template <class Element>
struct MmaSync16x8x16 : MmaSync16x8 {
  using ElementA = Element;
  using ElementB = Element;
  using ElementC = float;
  static constexpr int kK = 16;
  static constexpr int kAPerLane = 8;
  static constexpr int kBPerLane = 4;
  using FragmentA = Array<Element, 8>;
  using FragmentB = Array<Element, 4>;
  using FragmentC = Array<float, 4>;

  HIPTILE_HOST_DEVICE static constexpr int a_row(int lane, int i) { return lane / 4 + 8 * ((i / 2) % 2); }
  HIPTILE_HOST_DEVICE static constexpr int a_k(int lane, int i) { return 2 * (lane % 4) + i % 2 + 8 * (i / 4); }
  HIPTILE_HOST_DEVICE static constexpr int b_k(int lane, int i) { return 2 * (lane % 4) + i % 2 + 8 * (i / 2); }

  // D = A·B + C for the whole warp; every lane of the warp must call it (d may alias c).
  HIPTILE_DEVICE HIPTILE_INLINE static void mma(FragmentC& d, FragmentA const& a, FragmentB const& b,
                                                FragmentC const& c) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
    // Accumulate in place ("+f"): with separate output and input operands the compiler copies the
    // accumulators around every mma, and each copy waits for the previous mma's result.
    d = c;
    auto const* pa = reinterpret_cast<std::uint32_t const*>(a.data());
    auto const* pb = reinterpret_cast<std::uint32_t const*>(b.data());
    if constexpr (std::is_same_v<Element, half_t>) {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    } else {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    }
#elif HIPTILE_BACKEND_NVIDIA
    (void)d, (void)a, (void)b, (void)c;  // host pass of nvcc: never called
#else
    (void)d, (void)a, (void)b, (void)c;
    static_assert(sizeof(Element) == 0, "mma.sync atoms run on NVIDIA GPUs only; on gfx942 and the simulator use MFMA atoms");
#endif
  }
};

using MmaSync16x8x16F16 = MmaSync16x8x16<half_t>;
using MmaSync16x8x16Bf16 = MmaSync16x8x16<bfloat16_t>;

// m16n8k32 with 8-bit A and B: int8 (int32 accumulators) or the OCP fp8 formats (fp32).
template <class ElementA_, class ElementB_>
struct MmaSync16x8x32 : MmaSync16x8 {
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  static constexpr bool kInteger = std::is_same_v<ElementA, std::int8_t>;
  static_assert(kInteger == std::is_same_v<ElementB, std::int8_t>, "m16n8k32: both operands int8, or both fp8");
  using ElementC = std::conditional_t<kInteger, std::int32_t, float>;
  static constexpr int kK = 32;
  static constexpr int kAPerLane = 16;
  static constexpr int kBPerLane = 8;
  using FragmentA = Array<ElementA, 16>;
  using FragmentB = Array<ElementB, 8>;
  using FragmentC = Array<ElementC, 4>;

  HIPTILE_HOST_DEVICE static constexpr int a_row(int lane, int i) { return lane / 4 + 8 * ((i / 4) % 2); }
  HIPTILE_HOST_DEVICE static constexpr int a_k(int lane, int i) { return 4 * (lane % 4) + i % 4 + 16 * (i / 8); }
  HIPTILE_HOST_DEVICE static constexpr int b_k(int lane, int i) { return 4 * (lane % 4) + i % 4 + 16 * (i / 4); }

  HIPTILE_DEVICE HIPTILE_INLINE static void mma(FragmentC& d, FragmentA const& a, FragmentB const& b,
                                                FragmentC const& c) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
    d = c;
    auto const* pa = reinterpret_cast<std::uint32_t const*>(a.data());
    auto const* pb = reinterpret_cast<std::uint32_t const*>(b.data());
    if constexpr (kInteger) {
      auto* pd = reinterpret_cast<int*>(d.data());
      asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+r"(pd[0]), "+r"(pd[1]), "+r"(pd[2]), "+r"(pd[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    } else {
      fp8_mma(d, pa, pb);
    }
#elif HIPTILE_BACKEND_NVIDIA
    (void)d, (void)a, (void)b, (void)c;
#else
    (void)d, (void)a, (void)b, (void)c;
    static_assert(sizeof(ElementA) == 0, "mma.sync atoms run on NVIDIA GPUs only; on gfx942 and the simulator use MFMA atoms");
#endif
  }

 private:
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  // The fp8 forms (sm_89+): the PTX type names of A and B.
  HIPTILE_DEVICE HIPTILE_INLINE static void fp8_mma(FragmentC& d, std::uint32_t const* pa, std::uint32_t const* pb) {
    constexpr bool kA4 = std::is_same_v<ElementA, float8_e4m3fn>;
    constexpr bool kB4 = std::is_same_v<ElementB, float8_e4m3fn>;
    static_assert((kA4 || std::is_same_v<ElementA, float8_e5m2>) && (kB4 || std::is_same_v<ElementB, float8_e5m2>),
                  "NVIDIA's fp8 mma.sync takes the OCP formats float8_e4m3fn and float8_e5m2");
    if constexpr (kA4 && kB4) {
      asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    } else if constexpr (kA4) {
      asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    } else if constexpr (kB4) {
      asm("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    } else {
      asm("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
          : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
    }
  }
#endif
};

// m16n8k8 with f32 A and B multiplied as tf32 (sm_80+; the counterpart of gfx942's xf32 MFMA):
// the tensor cores read the top 19 bits of each f32 — sign, exponent and 10 mantissa bits — and
// ignore the other 13 (PTX ISA, "Alternate floating-point data formats"), so each input carries a
// relative error below 2^-10; products and sums are fp32. A choice made by naming this atom: no
// default turns an f32 GEMM into tf32.
struct MmaSync16x8x8Tf32 : MmaSync16x8 {
  using ElementA = float;
  using ElementB = float;
  using ElementC = float;
  static constexpr int kK = 8;
  static constexpr int kAPerLane = 4;
  static constexpr int kBPerLane = 2;
  using FragmentA = Array<float, 4>;
  using FragmentB = Array<float, 2>;
  using FragmentC = Array<float, 4>;

  HIPTILE_HOST_DEVICE static constexpr int a_row(int lane, int i) { return lane / 4 + 8 * (i % 2); }
  HIPTILE_HOST_DEVICE static constexpr int a_k(int lane, int i) { return lane % 4 + 4 * (i / 2); }
  HIPTILE_HOST_DEVICE static constexpr int b_k(int lane, int i) { return lane % 4 + 4 * i; }

  // (A template, so that the static_assert below fires only where another backend calls it.)
  template <class Fragment = FragmentC>
  HIPTILE_DEVICE HIPTILE_INLINE static void mma(Fragment& d, FragmentA const& a, FragmentB const& b,
                                                Fragment const& c) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
    d = c;
    auto const* pa = reinterpret_cast<std::uint32_t const*>(a.data());
    auto const* pb = reinterpret_cast<std::uint32_t const*>(b.data());
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(pa[0]), "r"(pa[1]), "r"(pa[2]), "r"(pa[3]), "r"(pb[0]), "r"(pb[1]));
#elif HIPTILE_BACKEND_NVIDIA
    (void)d, (void)a, (void)b, (void)c;
#else
    (void)d, (void)a, (void)b, (void)c;
    static_assert(sizeof(Fragment) == 0, "mma.sync atoms run on NVIDIA GPUs only; on gfx942 and the simulator use MFMA atoms");
#endif
  }
};

using MmaSync16x8x32S8 = MmaSync16x8x32<std::int8_t, std::int8_t>;
using MmaSync16x8x32E4m3 = MmaSync16x8x32<float8_e4m3fn, float8_e4m3fn>;
using MmaSync16x8x32E4m3E5m2 = MmaSync16x8x32<float8_e4m3fn, float8_e5m2>;
using MmaSync16x8x32E5m2E4m3 = MmaSync16x8x32<float8_e5m2, float8_e4m3fn>;
using MmaSync16x8x32E5m2 = MmaSync16x8x32<float8_e5m2, float8_e5m2>;

}  // namespace hiptile::arch
