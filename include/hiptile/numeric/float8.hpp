#pragma once
// The four 8-bit floating-point formats. gfx942 (MI300) computes only on the FNUZ pair
// (HIP's "FP8 Numbers"; docs/mi300_facts.md, "FP8 on gfx942"); the OCP pair is what gfx950 and
// NVIDIA sm_89+ use, and what model checkpoints are usually stored in.
//
//   type             bias  infinities  NaN codes              -0    largest  smallest subnormal
//   float8_e4m3fnuz  8     none        0x80 only              none  240      2^-10
//   float8_e5m2fnuz  16    none        0x80 only              none  57344    2^-17
//   float8_e4m3fn    7     none        0x7F, 0xFF             yes   448      2^-9
//   float8_e5m2      15    0x7C, 0xFC  0x7D-0x7F, 0xFD-0xFF   yes   57344    2^-16
//
// Sources: LLVM APFloat (Float8E4M3FNUZ, Float8E5M2FNUZ, Float8E4M3FN, Float8E5M2); OCP 8-bit
// Floating Point Specification (OFP8) v1.0 for E4M3 and E5M2; AMD HIP "FP8 numbers" docs.
#include "hiptile/numeric/float_format.hpp"
#include "hiptile/numeric/narrow_float.hpp"

namespace hiptile {

struct FormatE4M3FNUZ : FloatFormat<4, 3, 8, NonFiniteEncoding::kNegativeZeroNan> {};
struct FormatE5M2FNUZ : FloatFormat<5, 2, 16, NonFiniteEncoding::kNegativeZeroNan> {};
struct FormatE4M3FN : FloatFormat<4, 3, 7, NonFiniteEncoding::kAllOnesNan> {};
struct FormatE5M2 : FloatFormat<5, 2, 15, NonFiniteEncoding::kIeee> {};

// gfx942 "fp8" and "bf8" (the MFMA *_fp8_* and *_bf8_* operands).
using float8_e4m3fnuz = NarrowFloat<FormatE4M3FNUZ>;
using float8_e5m2fnuz = NarrowFloat<FormatE5M2FNUZ>;
// OCP OFP8 E4M3 and E5M2.
using float8_e4m3fn = NarrowFloat<FormatE4M3FN>;
using float8_e5m2 = NarrowFloat<FormatE5M2>;

}  // namespace hiptile
