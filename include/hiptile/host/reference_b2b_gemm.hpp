#pragma once
// reference_b2b_gemm: a back-to-back GEMM (gemm/device/b2b_gemm_arguments.hpp) on the host in double
// precision, with each element's error bound for a kernel that sums in fp32 and rounds P to its
// element type between the products, as hiptile's B2bGemm (and a chain of two GEMMs) does:
//
//   P[m][n] = act0(alpha0 · Σ_k A[m][k]·B0[k][n] + bias0[n])
//   D[m][j] = act1(alpha1 · Σ_n P[m][n]·B1[n][j] + beta1 · C[m][j] + bias1[j])
//
// The bound of D[m][j] is u_d·|D| + |alpha1| · Σ_n |B1[n][j]| · (u_p·|P[m][n]| + γ(K0)·|alpha0|·Σ_k |A·B0|
// + γ(N0)·|P[m][n]|) with γ(k) = 1.2·(k + 4)·2^-23 for an fp32 sum of k terms in any order, and the
// activations Lipschitz with constant 1 (identity, ReLU, clamp).
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "hiptile/gemm/device/b2b_gemm_arguments.hpp"

namespace hiptile::host {

struct B2bReferenceOps {
  double alpha0 = 1.0;
  std::function<double(double)> activation0 = [](double x) { return x; };
  double alpha1 = 1.0;
  double beta1 = 0.0;  // C is not read when 0
  std::function<double(double)> activation1 = [](double x) { return x; };
  double p_roundoff = 0.0;  // unit roundoff of P's element type (A's)
  double d_roundoff = 0.0;  // of D's
};

// d and tolerance: m × n1, row-major. a(i, k), b0(k, n), b1(n, j), c(i, j), bias0(n) and bias1(j)
// give the elements as doubles (bias0 / bias1 returning 0 for none).
template <class A, class B0, class B1, class C, class Bias0, class Bias1>
void reference_b2b_gemm(gemm::device::B2bGemmCoord p, A const& a, B0 const& b0, B1 const& b1, C const& c,
                        Bias0 const& bias0, Bias1 const& bias1, B2bReferenceOps const& ops, std::vector<double>& d,
                        std::vector<double>& tolerance) {
  auto const gamma = [](int k) { return 1.2 * (k + 4) * std::ldexp(1.0, -23); };
  d.assign(std::size_t(p.m) * p.n1, 0.0);
  tolerance.assign(d.size(), 0.0);
  std::vector<double> pm(p.n0), error0(p.n0);
  for (int i = 0; i < p.m; ++i) {
    for (int n = 0; n < p.n0; ++n) {
      double s = 0, magnitude = 0;
      for (int k = 0; k < p.k0; ++k) {
        double const x = a(i, k) * b0(k, n);
        s += x;
        magnitude += std::abs(x);
      }
      pm[n] = ops.activation0(ops.alpha0 * s + bias0(n));
      error0[n] = ops.p_roundoff * std::abs(pm[n]) + gamma(p.k0) * std::abs(ops.alpha0) * magnitude +
                  gamma(p.n0) * std::abs(pm[n]);
    }
    for (int j = 0; j < p.n1; ++j) {
      double s = 0, error = 0;
      for (int n = 0; n < p.n0; ++n) {
        double const w = b1(n, j);
        s += pm[n] * w;
        error += std::abs(w) * error0[n];
      }
      double const source = ops.beta1 != 0.0 ? ops.beta1 * c(i, j) : 0.0;
      double const value = ops.activation1(ops.alpha1 * s + source + bias1(j));
      std::size_t const at = std::size_t(i) * p.n1 + j;
      d[at] = value;
      tolerance[at] = ops.d_roundoff * std::abs(value) + std::abs(ops.alpha1) * error * (1 + ops.p_roundoff) + 1e-6;
    }
  }
}

}  // namespace hiptile::host
