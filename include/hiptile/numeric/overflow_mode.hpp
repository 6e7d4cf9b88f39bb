#pragma once
// OverflowMode: what a narrowing conversion does with a value too large for the target format.
// Rounding is always round-to-nearest-even; only the overflow rule differs.

namespace hiptile {

enum class OverflowMode {
  // IEEE 754 behaviour: a value whose correctly rounded result (with an unbounded exponent) lies
  // beyond the largest finite value becomes ±infinity, or NaN in formats without infinities
  // (e4m3fn, e4m3fnuz, e5m2fnuz). Infinities map to infinity, or to NaN where there is none.
  kNonSaturating,
  // Clamp to ±largest finite value; infinities clamp too; NaN stays NaN. The "saturation mode" of
  // the OCP 8-bit Floating Point Specification (OFP8) v1.0, and PTX cvt's .satfinite.
  kSaturating,
};

}  // namespace hiptile
