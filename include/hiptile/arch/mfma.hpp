#pragma once
// MFMA atoms: one type per gfx942 matrix instruction D = A·B + C, computed by one wave of 64 lanes.
//
// Each atom carries its operand fragments (what one lane holds) and the lane/register layout of
// A, B and C/D as constexpr functions. Kernels place data with these functions; nothing else in
// hiptile hard-codes MFMA lane math. Atom::mma(d, a, b, c) is the clang builtin on gfx942 and the
// simulator's lane-exact emulation on the sim backend.
//
// Layouts (docs/mi300_facts.md, "MFMA instructions": AMD matrix instruction calculator `-a CDNA3`,
// cross-checked with ck_tile's warp_gemm_attribute_mfma_impl.hpp). A is M×K, B is K×N, each lane
// holds P = M·K/64 elements:
//   A[i][k] at lane i + M·(k / P), register k mod P;   B[k][j] at lane j + N·(k / P), register k mod P.
// C/D, 32×32 ops (16 values per lane): lane j + 32·((i/4) mod 2), register 4·(i/8) + (i mod 4).
// C/D, 16×16 ops (4 values per lane):  lane j + 16·(i/4),         register i mod 4.
//
// Emulation arithmetic (docs/mi300_facts.md, "MFMA instructions", summarises what is known of the
// hardware's rounding, which is not bit-exact to reproduce): f16/bf16/fp8/xf32 products are exact
// in double and summed in double, then C + sum is rounded once to fp32 — never less accurate than
// the hardware's grouped accumulation; f32 ops are sequential fp32 FMAs over k, as measured on
// hardware; i8 ops are exact int32 with wrap-around. xf32 inputs are first rounded to 10 mantissa
// bits (round to nearest even) — (?) the exact xf32 input rounding is unconfirmed.
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "hiptile/core/array.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/wave_collective.hpp"
#endif

namespace hiptile::arch {

// What every MFMA atom shares: shapes, fragments and layout functions.
template <class Atom, class ElementA_, class ElementB_, class ElementC_, int M, int N, int K>
struct MfmaAtomBase {
  static_assert(M == N && (M == 32 || M == 16), "gfx942 single-block MFMA tiles are 32x32 or 16x16");
  static constexpr bool kIsMfma = true;  // the MFMA family: one wave64 computes the atom
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using ElementC = ElementC_;  // the accumulator: float, or int32_t for i8
  static constexpr int kM = M;
  static constexpr int kN = N;
  static constexpr int kK = K;
  static constexpr int kAPerLane = M * K / 64;
  static constexpr int kBPerLane = N * K / 64;
  static constexpr int kCPerLane = M * N / 64;
  using FragmentA = Array<ElementA, kAPerLane>;
  using FragmentB = Array<ElementB, kBPerLane>;
  using FragmentC = Array<ElementC, kCPerLane>;

  // A[i][k]
  HIPTILE_HOST_DEVICE static constexpr int a_lane(int i, int k) { return i + kM * (k / kAPerLane); }
  HIPTILE_HOST_DEVICE static constexpr int a_reg(int, int k) { return k % kAPerLane; }
  HIPTILE_HOST_DEVICE static constexpr int a_row(int lane, int) { return lane % kM; }
  HIPTILE_HOST_DEVICE static constexpr int a_k(int lane, int reg) { return (lane / kM) * kAPerLane + reg; }
  // B[k][j]
  HIPTILE_HOST_DEVICE static constexpr int b_lane(int k, int j) { return j + kN * (k / kBPerLane); }
  HIPTILE_HOST_DEVICE static constexpr int b_reg(int k, int) { return k % kBPerLane; }
  HIPTILE_HOST_DEVICE static constexpr int b_col(int lane, int) { return lane % kN; }
  HIPTILE_HOST_DEVICE static constexpr int b_k(int lane, int reg) { return (lane / kN) * kBPerLane + reg; }
  // C[i][j] and D[i][j]
  HIPTILE_HOST_DEVICE static constexpr int c_lane(int i, int j) { return kM == 32 ? j + 32 * ((i / 4) % 2) : j + 16 * (i / 4); }
  HIPTILE_HOST_DEVICE static constexpr int c_reg(int i, int) { return kM == 32 ? 4 * (i / 8) + i % 4 : i % 4; }
  HIPTILE_HOST_DEVICE static constexpr int c_row(int lane, int reg) {
    return kM == 32 ? 8 * (reg / 4) + 4 * (lane / 32) + reg % 4 : 4 * (lane / 16) + reg;
  }
  HIPTILE_HOST_DEVICE static constexpr int c_col(int lane, int) { return lane % kN; }

  // D = A·B + C for the whole wave; every lane of the wave must call it (d may alias c).
  HIPTILE_DEVICE static void mma(FragmentC& d, FragmentA const& a, FragmentB const& b, FragmentC const& c);
};

// The instructions. kCycles: issue cycles per the calculator (docs/mi300_facts.md); kOnGfx90a:
// whether gfx90a (MI200) has the instruction — fp8/bf8 and xf32 exist on gfx940-942 only. The
// 32x32x16 and 16x16x32 i8 forms are gfx940+ too (gfx90a has 32x32x8/16x16x16 i8 instead).
struct Mfma32x32x8F16 : MfmaAtomBase<Mfma32x32x8F16, half_t, half_t, float, 32, 32, 8> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x8_f16";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = true;
};
struct Mfma16x16x16F16 : MfmaAtomBase<Mfma16x16x16F16, half_t, half_t, float, 16, 16, 16> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x16_f16";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = true;
};
struct Mfma32x32x8Bf16 : MfmaAtomBase<Mfma32x32x8Bf16, bfloat16_t, bfloat16_t, float, 32, 32, 8> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x8_bf16";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = true;
};
struct Mfma16x16x16Bf16 : MfmaAtomBase<Mfma16x16x16Bf16, bfloat16_t, bfloat16_t, float, 16, 16, 16> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x16_bf16";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = true;
};
struct Mfma32x32x2F32 : MfmaAtomBase<Mfma32x32x2F32, float, float, float, 32, 32, 2> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x2_f32";
  static constexpr int kCycles = 64;
  static constexpr bool kOnGfx90a = true;
};
struct Mfma16x16x4F32 : MfmaAtomBase<Mfma16x16x4F32, float, float, float, 16, 16, 4> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x4_f32";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = true;
};
struct Mfma16x16x8Xf32 : MfmaAtomBase<Mfma16x16x8Xf32, float, float, float, 16, 16, 8> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x8_xf32";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma32x32x4Xf32 : MfmaAtomBase<Mfma32x32x4Xf32, float, float, float, 32, 32, 4> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x4_xf32";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma16x16x32Fp8Fp8 : MfmaAtomBase<Mfma16x16x32Fp8Fp8, float8_e4m3fnuz, float8_e4m3fnuz, float, 16, 16, 32> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x32_fp8_fp8";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma16x16x32Fp8Bf8 : MfmaAtomBase<Mfma16x16x32Fp8Bf8, float8_e4m3fnuz, float8_e5m2fnuz, float, 16, 16, 32> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x32_fp8_bf8";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma16x16x32Bf8Fp8 : MfmaAtomBase<Mfma16x16x32Bf8Fp8, float8_e5m2fnuz, float8_e4m3fnuz, float, 16, 16, 32> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x32_bf8_fp8";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma16x16x32Bf8Bf8 : MfmaAtomBase<Mfma16x16x32Bf8Bf8, float8_e5m2fnuz, float8_e5m2fnuz, float, 16, 16, 32> {
  static constexpr char const* kMnemonic = "v_mfma_f32_16x16x32_bf8_bf8";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma32x32x16Fp8Fp8 : MfmaAtomBase<Mfma32x32x16Fp8Fp8, float8_e4m3fnuz, float8_e4m3fnuz, float, 32, 32, 16> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x16_fp8_fp8";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma32x32x16Fp8Bf8 : MfmaAtomBase<Mfma32x32x16Fp8Bf8, float8_e4m3fnuz, float8_e5m2fnuz, float, 32, 32, 16> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x16_fp8_bf8";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma32x32x16Bf8Fp8 : MfmaAtomBase<Mfma32x32x16Bf8Fp8, float8_e5m2fnuz, float8_e4m3fnuz, float, 32, 32, 16> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x16_bf8_fp8";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma32x32x16Bf8Bf8 : MfmaAtomBase<Mfma32x32x16Bf8Bf8, float8_e5m2fnuz, float8_e5m2fnuz, float, 32, 32, 16> {
  static constexpr char const* kMnemonic = "v_mfma_f32_32x32x16_bf8_bf8";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma16x16x32I8 : MfmaAtomBase<Mfma16x16x32I8, std::int8_t, std::int8_t, std::int32_t, 16, 16, 32> {
  static constexpr char const* kMnemonic = "v_mfma_i32_16x16x32_i8";
  static constexpr int kCycles = 16;
  static constexpr bool kOnGfx90a = false;
};
struct Mfma32x32x16I8 : MfmaAtomBase<Mfma32x32x16I8, std::int8_t, std::int8_t, std::int32_t, 32, 32, 16> {
  static constexpr char const* kMnemonic = "v_mfma_i32_32x32x16_i8";
  static constexpr int kCycles = 32;
  static constexpr bool kOnGfx90a = false;
};

namespace detail {

template <class Atom>
inline constexpr bool kIsF32Atom = std::is_same_v<Atom, Mfma32x32x2F32> || std::is_same_v<Atom, Mfma16x16x4F32>;
template <class Atom>
inline constexpr bool kIsXf32Atom = std::is_same_v<Atom, Mfma16x16x8Xf32> || std::is_same_v<Atom, Mfma32x32x4Xf32>;

#if HIPTILE_BACKEND_AMD
// The builtins' operand types (clang BuiltinsAMDGPU.def): bf16 travels as shorts, fp8/i8 as one
// 64-bit integer per lane.
typedef _Float16 Half4 __attribute__((ext_vector_type(4)));
typedef short Short4 __attribute__((ext_vector_type(4)));
typedef float Float2 __attribute__((ext_vector_type(2)));
typedef float Float4 __attribute__((ext_vector_type(4)));
typedef float Float16 __attribute__((ext_vector_type(16)));
typedef int Int4 __attribute__((ext_vector_type(4)));
typedef int Int16 __attribute__((ext_vector_type(16)));

template <class Atom>
HIPTILE_DEVICE HIPTILE_INLINE void mfma_hardware(typename Atom::FragmentC& d, typename Atom::FragmentA const& a,
                                                 typename Atom::FragmentB const& b,
                                                 typename Atom::FragmentC const& c) {
  using FC = typename Atom::FragmentC;
  using VC = std::conditional_t<std::is_same_v<typename Atom::ElementC, float>,
                                std::conditional_t<Atom::kCPerLane == 16, Float16, Float4>,
                                std::conditional_t<Atom::kCPerLane == 16, Int16, Int4>>;
  VC const vc = __builtin_bit_cast(VC, c);
#if defined(__gfx90a__)
  static_assert(Atom::kOnGfx90a, "this MFMA instruction does not exist on gfx90a (MI200): build for gfx942");
#endif
  if constexpr (std::is_same_v<Atom, Mfma32x32x8F16>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x8f16(__builtin_bit_cast(Half4, a),
                                                                     __builtin_bit_cast(Half4, b), vc, 0, 0, 0));
  } else if constexpr (std::is_same_v<Atom, Mfma16x16x16F16>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(Half4, a),
                                                                      __builtin_bit_cast(Half4, b), vc, 0, 0, 0));
  } else if constexpr (std::is_same_v<Atom, Mfma32x32x8Bf16>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(__builtin_bit_cast(Short4, a),
                                                                         __builtin_bit_cast(Short4, b), vc, 0, 0, 0));
  } else if constexpr (std::is_same_v<Atom, Mfma16x16x16Bf16>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(Short4, a),
                                                                          __builtin_bit_cast(Short4, b), vc, 0, 0, 0));
  } else if constexpr (std::is_same_v<Atom, Mfma32x32x2F32>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x2f32(a[0], b[0], vc, 0, 0, 0));
  } else if constexpr (std::is_same_v<Atom, Mfma16x16x4F32>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x4f32(a[0], b[0], vc, 0, 0, 0));
  }
#if !defined(__gfx90a__)
  else if constexpr (std::is_same_v<Atom, Mfma16x16x8Xf32>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x8_xf32(__builtin_bit_cast(Float2, a),
                                                                       __builtin_bit_cast(Float2, b), vc, 0, 0, 0));
  } else if constexpr (std::is_same_v<Atom, Mfma32x32x4Xf32>) {
    d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x4_xf32(__builtin_bit_cast(Float2, a),
                                                                       __builtin_bit_cast(Float2, b), vc, 0, 0, 0));
  } else {
    long const va = __builtin_bit_cast(long, a);
    long const vb = __builtin_bit_cast(long, b);
    if constexpr (std::is_same_v<Atom, Mfma16x16x32Fp8Fp8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma16x16x32Fp8Bf8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma16x16x32Bf8Fp8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma16x16x32Bf8Bf8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma32x32x16Fp8Fp8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma32x32x16Fp8Bf8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma32x32x16Bf8Fp8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma32x32x16Bf8Bf8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma16x16x32I8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_i32_16x16x32_i8(va, vb, vc, 0, 0, 0));
    } else if constexpr (std::is_same_v<Atom, Mfma32x32x16I8>) {
      d = __builtin_bit_cast(FC, __builtin_amdgcn_mfma_i32_32x32x16_i8(va, vb, vc, 0, 0, 0));
    }
  }
#endif
}
#endif  // HIPTILE_BACKEND_AMD

#if HIPTILE_BACKEND_SIM
// Rounds an fp32 value to xf32's 10 explicit mantissa bits, to nearest even. (?) unconfirmed.
inline float round_to_xf32(float x) {
  std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  if ((bits & 0x7f800000u) == 0x7f800000u) return x;  // inf and NaN pass through
  std::uint32_t const dropped = 13;
  std::uint32_t const half = 1u << (dropped - 1);
  std::uint32_t const lsb = (bits >> dropped) & 1u;
  bits = (bits + half - 1 + lsb) & ~((1u << dropped) - 1);
  return std::bit_cast<float>(bits);
}

template <class Atom, class T>
double mfma_input(T x) {
  if constexpr (kIsXf32Atom<Atom>) {
    return round_to_xf32(x);
  } else {
    return static_cast<double>(static_cast<float>(x));
  }
}

template <class Atom>
void mfma_emulate(typename Atom::FragmentC& d, typename Atom::FragmentA const& a, typename Atom::FragmentB const& b,
                  typename Atom::FragmentC const& c) {
  struct Slot {
    typename Atom::FragmentA const* a;
    typename Atom::FragmentB const* b;
    typename Atom::FragmentC const* c;
    typename Atom::FragmentC* d;
  };
  Slot mine{&a, &b, &c, &d};
  sim::wave_collective<Atom>(Atom::kMnemonic, &sim::Counters::mfma, mine, [](std::array<Slot*, 64> const& lanes) {
    constexpr int M = Atom::kM, N = Atom::kN, K = Atom::kK;
    using ElementC = typename Atom::ElementC;
    // Gather the whole of A, B and C before any D is written: d may alias c.
    std::array<double, M * K> A{};
    std::array<double, K * N> B{};
    std::array<ElementC, M * N> C{};
    for (int l = 0; l < 64; ++l) {
      for (int r = 0; r < Atom::kAPerLane; ++r) A[Atom::a_row(l, r) * K + Atom::a_k(l, r)] = mfma_input<Atom>((*lanes[l]->a)[r]);
      for (int r = 0; r < Atom::kBPerLane; ++r) B[Atom::b_k(l, r) * N + Atom::b_col(l, r)] = mfma_input<Atom>((*lanes[l]->b)[r]);
      for (int r = 0; r < Atom::kCPerLane; ++r) C[Atom::c_row(l, r) * N + Atom::c_col(l, r)] = (*lanes[l]->c)[r];
    }
    std::array<ElementC, M * N> D{};
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j) {
        if constexpr (std::is_same_v<ElementC, std::int32_t>) {
          std::int64_t sum = C[i * N + j];
          for (int k = 0; k < K; ++k) sum += std::int64_t(A[i * K + k]) * std::int64_t(B[k * N + j]);
          D[i * N + j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
        } else if constexpr (kIsF32Atom<Atom>) {
          float acc = C[i * N + j];
          for (int k = 0; k < K; ++k) acc = std::fma(float(A[i * K + k]), float(B[k * N + j]), acc);
          D[i * N + j] = acc;
        } else {
          double sum = 0;
          for (int k = 0; k < K; ++k) sum += A[i * K + k] * B[k * N + j];
          D[i * N + j] = static_cast<float>(double(C[i * N + j]) + sum);
        }
      }
    }
    for (int l = 0; l < 64; ++l) {
      for (int r = 0; r < Atom::kCPerLane; ++r) (*lanes[l]->d)[r] = D[Atom::c_row(l, r) * N + Atom::c_col(l, r)];
    }
  });
}
#endif  // HIPTILE_BACKEND_SIM

template <class>
inline constexpr bool kAlwaysFalse = false;

}  // namespace detail

template <class Atom, class ElementA_, class ElementB_, class ElementC_, int M, int N, int K>
HIPTILE_DEVICE HIPTILE_INLINE void MfmaAtomBase<Atom, ElementA_, ElementB_, ElementC_, M, N, K>::mma(
    FragmentC& d, FragmentA const& a, FragmentB const& b, FragmentC const& c) {
#if HIPTILE_BACKEND_AMD
  detail::mfma_hardware<Atom>(d, a, b, c);
#elif HIPTILE_BACKEND_SIM
  detail::mfma_emulate<Atom>(d, a, b, c);
#else
  static_assert(detail::kAlwaysFalse<Atom>, "MFMA atoms run on AMD GPUs and in the simulator; on NVIDIA use the mma.sync atoms");
#endif
}

}  // namespace hiptile::arch
