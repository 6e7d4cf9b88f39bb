#pragma once
// compare: a kernel's output against the double-precision reference, element by element, with a
// tolerance per element; the Comparison says how far off the worst element is, how many are
// wrong, and how many were never written (still poison, see fill.hpp).
//
// gemm_tolerance gives the tolerance a GEMM's output deserves, from the element types and K:
//
//   tolerance(ref, mag) = u_out |ref| + (1 + u_out) gamma mag + absolute
//   gamma = gamma_K(u_acc) + gamma_4(2^-24),  gamma_n(u) = n u / (1 - n u)
//
// with ref the exact result and mag = |alpha| sum_k |a_ik b_kj| + |beta c_ij| (+ |bias| when
// there is one): reference_gemm's magnitude. gamma_K(u_acc) bounds the error of a K-term dot
// product in the accumulator type, in any summation order, products rounded or not (Higham,
// "Accuracy and Stability of Numerical Algorithms", 2nd ed., eq. 3.4 and section 3.1); it is 0 for
// integer accumulators, which are exact. gamma_4(2^-24) covers the fp32 epilogue: the accumulator
// converted to float, alpha * acc, beta * c, and the two additions (bias included). u_out |ref|
// is the final rounding to the output type, and `absolute` the rounding of results in its
// subnormal range (half its smallest subnormal) plus (K + 4) 2^-126 for hardware that flushes
// fp32 subnormals while accumulating. An activation's own error and its effect are not included:
// scale the tolerance or compare the pre-activation values.
#include <cmath>
#include <cstdio>
#include <concepts>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/numeric/numeric_limits.hpp"

namespace hiptile::host {

struct Comparison {
  std::int64_t checked = 0;     // elements compared
  std::int64_t mismatches = 0;  // written elements outside their tolerance (NaN where none is due included)
  std::int64_t unwritten = 0;   // elements still holding the poison value where the reference differs
  double max_abs_error = 0.0;   // over written, finite elements
  double max_rel_error = 0.0;   // the same, relative to |reference|, where the reference is not 0
  // The element furthest outside (or least inside) its tolerance: largest error / tolerance,
  // unwritten and NaN elements counting as infinitely far. -1 when nothing was compared.
  std::int64_t worst_row = -1;
  std::int64_t worst_col = -1;
  double worst_result = 0.0;
  double worst_reference = 0.0;
  double worst_tolerance = 0.0;

  bool passed() const { return mismatches == 0 && unwritten == 0; }
};

// One line for a test's failure message.
inline std::string to_string(Comparison const& c) {
  std::ostringstream s;
  s.precision(9);
  s << (c.passed() ? "passed" : "FAILED") << ": " << c.checked << " checked, " << c.mismatches << " mismatches, "
    << c.unwritten << " unwritten; max abs error " << c.max_abs_error << ", max rel error " << c.max_rel_error;
  if (c.worst_row >= 0) {
    s << "; worst at (" << c.worst_row << ", " << c.worst_col << "): result " << c.worst_result << ", reference "
      << c.worst_reference << ", tolerance " << c.worst_tolerance;
  }
  return s.str();
}

// What an example prints about a comparison: the counts, the largest error and how close the
// worst element came to its tolerance, and on a failure the one line of to_string.
inline std::string report(Comparison const& c) {
  char line[256];
  std::snprintf(line, sizeof line,
                "  check against the double reference: %lld elements, %lld mismatches, %lld unwritten\n"
                "  max error %.3g absolute; the worst element is at %.0f%% of its tolerance\n",
                static_cast<long long>(c.checked), static_cast<long long>(c.mismatches),
                static_cast<long long>(c.unwritten), c.max_abs_error,
                100.0 * std::fabs(c.worst_result - c.worst_reference) / c.worst_tolerance);
  std::string text = line;
  if (!c.passed()) text += "  " + to_string(c) + "\n";
  return text;
}

// A per-element tolerance: the largest |result - reference| accepted at (row, column).
template <class F>
concept ElementTolerance = std::is_invocable_r_v<double, F const&, std::int64_t, std::int64_t, double>;

// result and reference must have the same extent; tolerance(row, column, reference_value).
// Where the reference is NaN a NaN result is correct; where it is infinite only the same
// infinity is.
template <HostElement T, class LayoutResult, class LayoutReference, ElementTolerance Tolerance>
Comparison compare(HostMatrix<T, LayoutResult> const& result, HostMatrix<double, LayoutReference> const& reference,
                   Tolerance const& tolerance) {
  if (result.rows() != reference.rows() || result.columns() != reference.columns()) {
    throw std::invalid_argument("hiptile::host::compare: result is " + std::to_string(result.rows()) + " x " +
                                std::to_string(result.columns()) + ", reference " +
                                std::to_string(reference.rows()) + " x " + std::to_string(reference.columns()));
  }
  Comparison out;
  double worst_ratio = -1.0;
  for (std::int64_t r = 0; r < result.rows(); ++r) {
    for (std::int64_t c = 0; c < result.columns(); ++c) {
      T const x = result.at(r, c);
      double const got = to_double(x);
      double const want = reference.at(r, c);
      double const tol = tolerance(r, c, want);
      ++out.checked;
      double ratio = 0.0;
      if (std::isnan(want)) {
        if (!std::isnan(got)) {
          ++out.mismatches;
          ratio = std::numeric_limits<double>::infinity();
        }
      } else if (std::isinf(want) || std::isinf(got)) {
        if (got != want) {
          if (is_poison(x)) {
            ++out.unwritten;
          } else {
            ++out.mismatches;
          }
          ratio = std::numeric_limits<double>::infinity();
        }
      } else {
        double const error = std::fabs(got - want);  // NaN if got is
        if (!(error <= tol)) {
          if (is_poison(x)) {
            ++out.unwritten;
          } else {
            ++out.mismatches;
          }
        }
        if (std::isnan(error)) {
          ratio = std::numeric_limits<double>::infinity();
        } else {
          if (error > out.max_abs_error) out.max_abs_error = error;
          if (want != 0.0 && error / std::fabs(want) > out.max_rel_error) out.max_rel_error = error / std::fabs(want);
          ratio = error == 0.0 ? 0.0 : (tol > 0.0 ? error / tol : std::numeric_limits<double>::infinity());
        }
      }
      if (ratio > worst_ratio) {
        worst_ratio = ratio;
        out.worst_row = r;
        out.worst_col = c;
        out.worst_result = got;
        out.worst_reference = want;
        out.worst_tolerance = tol;
      }
    }
  }
  return out;
}

// |result - reference| <= absolute + relative * |reference| everywhere.
template <HostElement T, class LayoutResult, class LayoutReference>
Comparison compare(HostMatrix<T, LayoutResult> const& result, HostMatrix<double, LayoutReference> const& reference,
                   double absolute, double relative) {
  return compare(result, reference,
                 [=](std::int64_t, std::int64_t, double want) { return absolute + relative * std::fabs(want); });
}

// Unit roundoff of T: half the distance from 1 to the next value (2^-24 for float, 2^-11 for
// half_t, 2^-8 for bfloat16_t); 0 for integers, whose arithmetic is exact.
template <HostElement T>
constexpr double unit_roundoff() {
  if constexpr (std::is_integral_v<T>) {
    return 0.0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(std::numeric_limits<T>::epsilon()) / 2.0;
  } else {
    return static_cast<double>(static_cast<float>(hiptile::numeric_limits<T>::epsilon())) / 2.0;
  }
}

// Largest rounding error of a result near 0 in T: half its smallest subnormal; 0.5 for integers
// (round to nearest).
template <HostElement T>
constexpr double underflow_error() {
  if constexpr (std::is_integral_v<T>) {
    return 0.5;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(std::numeric_limits<T>::denorm_min()) / 2.0;
  } else {
    return static_cast<double>(static_cast<float>(hiptile::numeric_limits<T>::denorm_min())) / 2.0;
  }
}

struct GemmTolerance {
  double output_relative = 0.0;        // u_out
  double accumulation_relative = 0.0;  // gamma
  double absolute = 0.0;

  // The largest |D - reference| accepted for an element whose exact value is reference and
  // whose magnitude (reference_gemm) is magnitude.
  double operator()(double reference, double magnitude) const {
    return output_relative * std::fabs(reference) + (1.0 + output_relative) * accumulation_relative * magnitude +
           absolute;
  }
};

// ElementInput: A's and B's type; ElementOutput: D's; ElementAccumulator: what the kernel sums
// in (int32_t for integer inputs, float otherwise, unless given). k: the problem's K.
template <HostElement ElementInput, HostElement ElementOutput,
          HostElement ElementAccumulator = std::conditional_t<std::is_integral_v<ElementInput>, std::int32_t, float>>
GemmTolerance gemm_tolerance(std::int64_t k) {
  auto const gamma = [](double n, double u) { return n * u / (1.0 - n * u); };
  constexpr double kFloatUnitRoundoff = 0x1p-24;
  constexpr double kFloatMinNormal = 0x1p-126;
  GemmTolerance t;
  t.output_relative = unit_roundoff<ElementOutput>();
  t.accumulation_relative =
      gamma(static_cast<double>(k), unit_roundoff<ElementAccumulator>()) + gamma(4.0, kFloatUnitRoundoff);
  t.absolute = underflow_error<ElementOutput>() + static_cast<double>(k + 4) * kFloatMinNormal;
  return t;
}

// D against the reference with a GEMM tolerance: magnitude is reference_gemm's.
template <HostElement T, class LayoutResult, class LayoutReference, class LayoutMagnitude>
Comparison compare(HostMatrix<T, LayoutResult> const& result, HostMatrix<double, LayoutReference> const& reference,
                   HostMatrix<double, LayoutMagnitude> const& magnitude, GemmTolerance const& tolerance) {
  if (magnitude.rows() != reference.rows() || magnitude.columns() != reference.columns()) {
    throw std::invalid_argument("hiptile::host::compare: magnitude and reference differ in extent");
  }
  return compare(result, reference, [&](std::int64_t r, std::int64_t c, double want) {
    return tolerance(want, magnitude.at(r, c));
  });
}

}  // namespace hiptile::host
