#pragma once
// reference_conv: the three convolution operators of a ConvProblemSize on the host in double
// precision, the answers every convolution test compares with. Each is written from the
// definition (conv_problem_size.hpp): a loop over the element it computes and, inside, over the
// terms that contribute to it, with no implicit GEMM in between, so a kernel is never checked
// against its own index mapping.
//
//   fprop  y  = conv(x, w)   (N·Z·P·Q) × K             row ((n·Z + z)·P + p)·Q + q
//   dgrad  dx from dy and w  (N·D·H·W) × C             row ((n·D + d)·H + h)·W + w
//   wgrad  dw from x and dy  K × (T·R·S·C/groups)      column ((t·R + r)·S + s)·C/groups + c
//
// Each result matrix is its tensor's dense layout (NZPQK, NDHWC, KTRSC) seen as a matrix. Dgrad
// and Wgrad are the adjoints of Fprop in x and in w: <fprop(x, w), dy> = <x, dgrad(dy, w)> =
// <w, wgrad(x, dy)>. As in reference_gemm, products of float-or-narrower elements are exact in
// double, and magnitude (if given) gets each element's sum of |products|, the scale of a kernel's
// rounding errors in it.
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/layout/matrix_layout.hpp"

namespace hiptile::host {

namespace detail {

// Throws unless check() accepts p and each span holds exactly its tensor's elements.
inline void check_conv_operands(char const* function, conv::ConvProblemSize const& p, char const* first_name,
                                std::size_t first_size, std::int64_t first_expected, char const* second_name,
                                std::size_t second_size, std::int64_t second_expected) {
  Status const status = p.check();
  if (status != Status::kSuccess) {
    throw std::invalid_argument(std::string("hiptile::host::") + function +
                                ": ConvProblemSize::check() rejects the problem: " + to_string(status));
  }
  auto const check_size = [&](char const* name, std::size_t size, std::int64_t expected) {
    if (static_cast<std::int64_t>(size) != expected) {
      throw std::invalid_argument(std::string("hiptile::host::") + function + ": " + name + " has " +
                                  std::to_string(size) + " elements, the problem needs " + std::to_string(expected));
    }
  };
  check_size(first_name, first_size, first_expected);
  check_size(second_name, second_size, second_expected);
}

inline void reshape(HostMatrix<double, layout::RowMajor>& m, std::int64_t rows, std::int64_t columns) {
  if (m.rows() != rows || m.columns() != columns) m = HostMatrix<double, layout::RowMajor>(rows, columns);
}

// The input position that output position o and filter tap f of dimension dim read; outside
// [0, input[dim]) it is padding.
inline std::int64_t conv_input_position(conv::ConvProblemSize const& p, int dim, std::int64_t o, int f) {
  // Convolution mode flips the filter: tap f is applied as tap F − 1 − f.
  int const applied = p.mode == conv::ConvMode::kConvolution ? p.filter[dim] - 1 - f : f;
  return o * p.stride[dim] - p.pad_before[dim] + std::int64_t(applied) * p.dilation[dim];
}

// The output position o whose tap f reads input position i in dimension dim
// (o·stride − pad_before + f'·dilation = i), or −1 if there is none.
inline std::int64_t conv_output_position(conv::ConvProblemSize const& p, int dim, std::int64_t i, int f,
                                         std::int64_t output_extent) {
  std::int64_t const shifted = i - conv_input_position(p, dim, 0, f);  // = o·stride
  if (shifted < 0 || shifted % p.stride[dim] != 0) return -1;
  std::int64_t const o = shifted / p.stride[dim];
  return o < output_extent ? o : -1;
}

}  // namespace detail

// y = conv(x, w): x is the N × D × H × W × C activation (NDHWC), w the K × T × R × S × C/groups
// filter (KTRSC). y is reshaped to (N·Z·P·Q) × K if it is not; so is *magnitude if given.
template <HostElement ElementX, HostElement ElementW>
void reference_conv_fprop(conv::ConvProblemSize const& p, std::span<ElementX const> x, std::span<ElementW const> w,
                          HostMatrix<double, layout::RowMajor>& y,
                          HostMatrix<double, layout::RowMajor>* magnitude = nullptr) {
  detail::check_conv_operands("reference_conv_fprop", p, "x", x.size(), p.activation_elements(), "w", w.size(),
                              p.filter_elements());
  conv::Spatial const out = p.output();
  std::int64_t const cg = p.c_per_group();
  std::int64_t const kg = p.k_per_group();
  detail::reshape(y, std::int64_t(p.n) * out[0] * out[1] * out[2], p.k);
  if (magnitude != nullptr) detail::reshape(*magnitude, y.rows(), y.columns());

  for (std::int64_t n = 0; n < p.n; ++n) {
    for (std::int64_t out_z = 0; out_z < out[0]; ++out_z) {
      for (std::int64_t out_p = 0; out_p < out[1]; ++out_p) {
        for (std::int64_t out_q = 0; out_q < out[2]; ++out_q) {
          std::int64_t const row = ((n * out[0] + out_z) * out[1] + out_p) * out[2] + out_q;
          for (std::int64_t k = 0; k < p.k; ++k) {
            std::int64_t const group = k / kg;
            double sum = 0.0;
            double sum_abs = 0.0;
            for (int t = 0; t < p.filter[0]; ++t) {
              std::int64_t const in_d = detail::conv_input_position(p, 0, out_z, t);
              if (in_d < 0 || in_d >= p.input[0]) continue;
              for (int r = 0; r < p.filter[1]; ++r) {
                std::int64_t const in_h = detail::conv_input_position(p, 1, out_p, r);
                if (in_h < 0 || in_h >= p.input[1]) continue;
                for (int s = 0; s < p.filter[2]; ++s) {
                  std::int64_t const in_w = detail::conv_input_position(p, 2, out_q, s);
                  if (in_w < 0 || in_w >= p.input[2]) continue;
                  std::int64_t const x_base =
                      (((n * p.input[0] + in_d) * p.input[1] + in_h) * p.input[2] + in_w) * p.c + group * cg;
                  std::int64_t const w_base =
                      (((k * p.filter[0] + t) * p.filter[1] + r) * std::int64_t(p.filter[2]) + s) * cg;
                  for (std::int64_t c = 0; c < cg; ++c) {
                    double const product = to_double(x[static_cast<std::size_t>(x_base + c)]) *
                                           to_double(w[static_cast<std::size_t>(w_base + c)]);
                    sum += product;
                    sum_abs += std::fabs(product);
                  }
                }
              }
            }
            y.at(row, k) = sum;
            if (magnitude != nullptr) magnitude->at(row, k) = sum_abs;
          }
        }
      }
    }
  }
}

// dx = the gradient of fprop's output with respect to x, given dy (N × Z × P × Q × K, NZPQK) and
// w: dx(n, d, h, w, c) = sum of dy(n, z, p, q, k) · w(k, t, r, s, c mod C/groups) over the k of
// c's group and the taps (t, r, s) with an output position (z, p, q) that reads (d, h, w). dx is
// reshaped to (N·D·H·W) × C if it is not; so is *magnitude if given.
template <HostElement ElementDy, HostElement ElementW>
void reference_conv_dgrad(conv::ConvProblemSize const& p, std::span<ElementDy const> dy,
                          std::span<ElementW const> w, HostMatrix<double, layout::RowMajor>& dx,
                          HostMatrix<double, layout::RowMajor>* magnitude = nullptr) {
  detail::check_conv_operands("reference_conv_dgrad", p, "dy", dy.size(), p.output_elements(), "w", w.size(),
                              p.filter_elements());
  conv::Spatial const out = p.output();
  std::int64_t const cg = p.c_per_group();
  std::int64_t const kg = p.k_per_group();
  detail::reshape(dx, std::int64_t(p.n) * p.input[0] * p.input[1] * p.input[2], p.c);
  if (magnitude != nullptr) detail::reshape(*magnitude, dx.rows(), dx.columns());

  for (std::int64_t n = 0; n < p.n; ++n) {
    for (std::int64_t in_d = 0; in_d < p.input[0]; ++in_d) {
      for (std::int64_t in_h = 0; in_h < p.input[1]; ++in_h) {
        for (std::int64_t in_w = 0; in_w < p.input[2]; ++in_w) {
          std::int64_t const row = ((n * p.input[0] + in_d) * p.input[1] + in_h) * p.input[2] + in_w;
          for (std::int64_t channel = 0; channel < p.c; ++channel) {
            std::int64_t const group = channel / cg;
            std::int64_t const c = channel % cg;  // the channel within its group: w's last index
            double sum = 0.0;
            double sum_abs = 0.0;
            for (std::int64_t k = group * kg; k < (group + 1) * kg; ++k) {
              for (int t = 0; t < p.filter[0]; ++t) {
                std::int64_t const out_z = detail::conv_output_position(p, 0, in_d, t, out[0]);
                if (out_z < 0) continue;
                for (int r = 0; r < p.filter[1]; ++r) {
                  std::int64_t const out_p = detail::conv_output_position(p, 1, in_h, r, out[1]);
                  if (out_p < 0) continue;
                  for (int s = 0; s < p.filter[2]; ++s) {
                    std::int64_t const out_q = detail::conv_output_position(p, 2, in_w, s, out[2]);
                    if (out_q < 0) continue;
                    std::int64_t const dy_index = (((n * out[0] + out_z) * out[1] + out_p) * out[2] + out_q) * p.k + k;
                    std::int64_t const w_index =
                        (((k * p.filter[0] + t) * p.filter[1] + r) * std::int64_t(p.filter[2]) + s) * cg + c;
                    double const product = to_double(dy[static_cast<std::size_t>(dy_index)]) *
                                           to_double(w[static_cast<std::size_t>(w_index)]);
                    sum += product;
                    sum_abs += std::fabs(product);
                  }
                }
              }
            }
            dx.at(row, channel) = sum;
            if (magnitude != nullptr) magnitude->at(row, channel) = sum_abs;
          }
        }
      }
    }
  }
}

// dw = the gradient of fprop's output with respect to w, given x and dy: dw(k, t, r, s, c) = sum
// over every output position (n, z, p, q) of dy(n, z, p, q, k) times the x element that tap
// (t, r, s) reads there, in channel c of k's group. dw is reshaped to K × (T·R·S·C/groups) if it
// is not; so is *magnitude if given.
template <HostElement ElementX, HostElement ElementDy>
void reference_conv_wgrad(conv::ConvProblemSize const& p, std::span<ElementX const> x,
                          std::span<ElementDy const> dy, HostMatrix<double, layout::RowMajor>& dw,
                          HostMatrix<double, layout::RowMajor>* magnitude = nullptr) {
  detail::check_conv_operands("reference_conv_wgrad", p, "x", x.size(), p.activation_elements(), "dy", dy.size(),
                              p.output_elements());
  conv::Spatial const out = p.output();
  std::int64_t const cg = p.c_per_group();
  std::int64_t const kg = p.k_per_group();
  detail::reshape(dw, p.k, std::int64_t(p.filter[0]) * p.filter[1] * p.filter[2] * cg);
  if (magnitude != nullptr) detail::reshape(*magnitude, dw.rows(), dw.columns());

  for (std::int64_t k = 0; k < p.k; ++k) {
    std::int64_t const group = k / kg;
    for (int t = 0; t < p.filter[0]; ++t) {
      for (int r = 0; r < p.filter[1]; ++r) {
        for (int s = 0; s < p.filter[2]; ++s) {
          for (std::int64_t c = 0; c < cg; ++c) {
            std::int64_t const column = ((std::int64_t(t) * p.filter[1] + r) * p.filter[2] + s) * cg + c;
            double sum = 0.0;
            double sum_abs = 0.0;
            for (std::int64_t n = 0; n < p.n; ++n) {
              for (std::int64_t out_z = 0; out_z < out[0]; ++out_z) {
                std::int64_t const in_d = detail::conv_input_position(p, 0, out_z, t);
                if (in_d < 0 || in_d >= p.input[0]) continue;
                for (std::int64_t out_p = 0; out_p < out[1]; ++out_p) {
                  std::int64_t const in_h = detail::conv_input_position(p, 1, out_p, r);
                  if (in_h < 0 || in_h >= p.input[1]) continue;
                  for (std::int64_t out_q = 0; out_q < out[2]; ++out_q) {
                    std::int64_t const in_w = detail::conv_input_position(p, 2, out_q, s);
                    if (in_w < 0 || in_w >= p.input[2]) continue;
                    std::int64_t const x_index =
                        (((n * p.input[0] + in_d) * p.input[1] + in_h) * p.input[2] + in_w) * p.c + group * cg + c;
                    std::int64_t const dy_index = (((n * out[0] + out_z) * out[1] + out_p) * out[2] + out_q) * p.k + k;
                    double const product = to_double(x[static_cast<std::size_t>(x_index)]) *
                                           to_double(dy[static_cast<std::size_t>(dy_index)]);
                    sum += product;
                    sum_abs += std::fabs(product);
                  }
                }
              }
            }
            dw.at(k, column) = sum;
            if (magnitude != nullptr) magnitude->at(k, column) = sum_abs;
          }
        }
      }
    }
  }
}

}  // namespace hiptile::host
