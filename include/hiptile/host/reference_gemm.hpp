#pragma once
// reference_gemm: D = alpha * A·B + beta * C on the host in double precision, the answer every
// GEMM test compares with. Products of two float-or-narrower elements are exact in double and
// the K-term sums carry 53 bits, so for test-sized K the reference is exact to far below any
// kernel's rounding.
//
// It can also give each element's magnitude
//   magnitude(i, j) = |alpha| * sum_k |a_ik b_kj| + |beta c_ij|,
// the scale of the rounding errors a kernel may make in that element (compare.hpp's
// GemmTolerance); where there is cancellation it is much larger than |D(i, j)|.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hiptile/core/coord.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/layout/matrix_layout.hpp"

namespace hiptile::host {

// A (m × k), B (k × n), C (m × n) in any element types and layouts. C is not read when beta is
// 0 (as in BLAS: NaNs in it do not reach D, and it may be an empty HostMatrix). d is reshaped
// to m × n row-major if it is not; so is *magnitude if given.
template <HostElement ElementA, class LayoutA, HostElement ElementB, class LayoutB, HostElement ElementC,
          class LayoutC>
void reference_gemm(GemmCoord problem, double alpha, HostMatrix<ElementA, LayoutA> const& a,
                    HostMatrix<ElementB, LayoutB> const& b, double beta, HostMatrix<ElementC, LayoutC> const& c,
                    HostMatrix<double, layout::RowMajor>& d,
                    HostMatrix<double, layout::RowMajor>* magnitude = nullptr) {
  std::int64_t const m = problem.m;
  std::int64_t const n = problem.n;
  std::int64_t const k = problem.k;
  auto const shape = [](std::int64_t r, std::int64_t cl) { return std::to_string(r) + " x " + std::to_string(cl); };
  if (m < 0 || n < 0 || k < 0) throw std::invalid_argument("hiptile::host::reference_gemm: negative problem size");
  if (a.rows() != m || a.columns() != k || b.rows() != k || b.columns() != n ||
      (beta != 0.0 && (c.rows() != m || c.columns() != n))) {
    throw std::invalid_argument("hiptile::host::reference_gemm: for problem " + std::to_string(m) + " x " +
                                std::to_string(n) + " x " + std::to_string(k) + ", A is " +
                                shape(a.rows(), a.columns()) + ", B " + shape(b.rows(), b.columns()) + ", C " +
                                shape(c.rows(), c.columns()) + " (A must be m x k, B k x n, C m x n)");
  }
  if (d.rows() != m || d.columns() != n) d = HostMatrix<double, layout::RowMajor>(m, n);
  if (magnitude != nullptr && (magnitude->rows() != m || magnitude->columns() != n)) {
    *magnitude = HostMatrix<double, layout::RowMajor>(m, n);
  }

  // B widened once into a dense row-major copy (and |B|), so the inner loop runs along
  // contiguous rows of B and D whatever the layouts: loop order i, k, j.
  std::vector<double> b_rows(static_cast<std::size_t>(k * n));
  std::vector<double> b_abs(magnitude != nullptr ? b_rows.size() : 0);
  for (std::int64_t kk = 0; kk < k; ++kk) {
    for (std::int64_t j = 0; j < n; ++j) {
      double const v = to_double(b.at(kk, j));
      b_rows[static_cast<std::size_t>(kk * n + j)] = v;
      if (magnitude != nullptr) b_abs[static_cast<std::size_t>(kk * n + j)] = std::fabs(v);
    }
  }

  std::vector<double> sum(static_cast<std::size_t>(n));
  std::vector<double> sum_abs(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < m; ++i) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(sum_abs.begin(), sum_abs.end(), 0.0);
    for (std::int64_t kk = 0; kk < k; ++kk) {
      double const aik = to_double(a.at(i, kk));
      double const* row = b_rows.data() + kk * n;
      for (std::int64_t j = 0; j < n; ++j) sum[j] += aik * row[j];
      if (magnitude != nullptr) {
        double const aik_abs = std::fabs(aik);
        double const* row_abs = b_abs.data() + kk * n;
        for (std::int64_t j = 0; j < n; ++j) sum_abs[j] += aik_abs * row_abs[j];
      }
    }
    for (std::int64_t j = 0; j < n; ++j) {
      double const source = beta != 0.0 ? beta * to_double(c.at(i, j)) : 0.0;
      d.at(i, j) = alpha * sum[j] + source;
      if (magnitude != nullptr) magnitude->at(i, j) = std::fabs(alpha) * sum_abs[j] + std::fabs(source);
    }
  }
}

}  // namespace hiptile::host
