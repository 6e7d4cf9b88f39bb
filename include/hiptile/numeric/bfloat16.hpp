#pragma once
// bfloat16_t: the top 16 bits of an IEEE 754 binary32 (1 sign, 8 exponent, 7 mantissa bits,
// bias 127; float's range and special values, 8 significant bits). The bf16 operand type of
// gfx942's MFMA. Narrowing rounds to nearest even (not truncation); NaNs stay quiet NaNs.
#include "hiptile/numeric/float_format.hpp"
#include "hiptile/numeric/narrow_float.hpp"

namespace hiptile {

struct FormatBFloat16 : FloatFormat<8, 7, 127, NonFiniteEncoding::kIeee> {};

using bfloat16_t = NarrowFloat<FormatBFloat16>;

}  // namespace hiptile
