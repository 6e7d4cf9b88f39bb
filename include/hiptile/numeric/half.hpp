#pragma once
// half_t: IEEE 754 binary16 (1 sign, 5 exponent, 10 mantissa bits, bias 15; infinities and
// NaNs as in IEEE 754; largest finite 65504). The f16 operand type of gfx942's MFMA.
#include "hiptile/numeric/float_format.hpp"
#include "hiptile/numeric/narrow_float.hpp"

namespace hiptile {

struct FormatBinary16 : FloatFormat<5, 10, 15, NonFiniteEncoding::kIeee> {};

using half_t = NarrowFloat<FormatBinary16>;

}  // namespace hiptile
