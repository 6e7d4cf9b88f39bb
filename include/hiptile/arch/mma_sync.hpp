#pragma once
// mma.sync atoms for NVIDIA sm_80+ (one warp of 32 lanes computes D = A·B + C, m16n8k16), so the
// block, mainloop and epilogue templates also build and run with nvcc.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"), with
// g = lane / 4 and t = lane % 4:
//   A (16×16, row): element i of 8 at row g + 8·((i/2) mod 2), k = 2t + (i mod 2) + 8·(i/4)
//   B (16×8, col):  element i of 4 at k = 2t + (i mod 2) + 8·(i/2), column g
//   C/D (16×8):     element i of 4 at row g + 8·(i/2), column 2t + (i mod 2)
#include <cstdint>

#include "hiptile/core/array.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

template <class Element>
struct MmaSync16x8x16 {
  static constexpr bool kIsMmaSync = true;  // the mma.sync family: one warp computes the atom
  using ElementA = Element;
  using ElementB = Element;
  using ElementC = float;
  static constexpr int kM = 16;
  static constexpr int kN = 8;
  static constexpr int kK = 16;
  static constexpr int kAPerLane = 8;
  static constexpr int kBPerLane = 4;
  static constexpr int kCPerLane = 4;
  using FragmentA = Array<Element, 8>;
  using FragmentB = Array<Element, 4>;
  using FragmentC = Array<float, 4>;

  HIPTILE_HOST_DEVICE static constexpr int a_row(int lane, int i) { return lane / 4 + 8 * ((i / 2) % 2); }
  HIPTILE_HOST_DEVICE static constexpr int a_k(int lane, int i) { return 2 * (lane % 4) + i % 2 + 8 * (i / 4); }
  HIPTILE_HOST_DEVICE static constexpr int b_k(int lane, int i) { return 2 * (lane % 4) + i % 2 + 8 * (i / 2); }
  HIPTILE_HOST_DEVICE static constexpr int b_col(int lane, int) { return lane / 4; }
  HIPTILE_HOST_DEVICE static constexpr int c_row(int lane, int i) { return lane / 4 + 8 * (i / 2); }
  HIPTILE_HOST_DEVICE static constexpr int c_col(int lane, int i) { return 2 * (lane % 4) + i % 2; }

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

}  // namespace hiptile::arch
