// The convolution references every conv test stands on, checked against facts that do not come from
// them: values worked by hand, reference_gemm for 1×1 convolutions, the adjoint identities that
// make dgrad and wgrad the gradients of fprop, and the per-group decomposition. Also
// ConvProblemSize's check(), output() and implicit_gemm() against tables worked from their
// definitions.
#include <climits>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/half.hpp"

namespace {

using hiptile::bfloat16_t;
using hiptile::GemmCoord;
using hiptile::half_t;
using hiptile::Status;
using hiptile::conv::ConvMode;
using hiptile::conv::ConvOperator;
using hiptile::conv::ConvProblemSize;
using hiptile::conv::Spatial;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace host = hiptile::host;
using Matrix = host::HostMatrix<double, RowMajor>;

constexpr Spatial kZero{{0, 0, 0}};
constexpr Spatial kOne{{1, 1, 1}};

// A problem from every field (conv2d() and conv3d() only make symmetric padding).
ConvProblemSize make_problem(int n, Spatial input, int c, int k, Spatial filter, Spatial pad_before,
                             Spatial pad_after, Spatial stride, Spatial dilation, int groups = 1,
                             ConvMode mode = ConvMode::kCrossCorrelation) {
  ConvProblemSize p;
  p.n = n;
  p.c = c;
  p.k = k;
  p.input = input;
  p.filter = filter;
  p.pad_before = pad_before;
  p.pad_after = pad_after;
  p.stride = stride;
  p.dilation = dilation;
  p.groups = groups;
  p.mode = mode;
  return p;
}

// A 1-D problem along W: one image, one channel in and out, input W = 5, filter S = 3.
ConvProblemSize row_problem(int pad_before, int pad_after, int stride, int dilation,
                            ConvMode mode = ConvMode::kCrossCorrelation) {
  return make_problem(1, {{1, 1, 5}}, 1, 1, {{1, 1, 3}}, {{0, 0, pad_before}}, {{0, 0, pad_after}},
                      {{1, 1, stride}}, {{1, 1, dilation}}, 1, mode);
}

template <class T>
std::span<T const> as_span(std::vector<T> const& v) {
  return v;
}

// Integers in [-bound, bound] as T: exact in every element type for bound <= 256, and their
// products and test-sized sums are exact in double, so results can be compared with ==.
template <class T>
std::vector<T> random_integers(std::int64_t count, std::uint64_t seed, int bound) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> draw(-bound, bound);
  std::vector<T> v(static_cast<std::size_t>(count));
  for (T& e : v) e = host::from_double<T>(draw(engine));
  return v;
}

// A result matrix's elements in row-major order: its tensor in the dense layout.
std::vector<double> elements(Matrix const& m) {
  std::vector<double> v;
  v.reserve(static_cast<std::size_t>(m.rows() * m.columns()));
  for (std::int64_t i = 0; i < m.rows(); ++i)
    for (std::int64_t j = 0; j < m.columns(); ++j) v.push_back(m.at(i, j));
  return v;
}

double dot(std::vector<double> const& a, std::vector<double> const& b) {
  REQUIRE(a.size() == b.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

std::vector<double> absolute(std::vector<double> v) {
  for (double& e : v) e = std::fabs(e);
  return v;
}

struct ConvShape {
  char const* what;
  ConvProblemSize problem;
};

// Shapes for the identities: 2-D and 3-D, R and S in {1, 3, 5, 7}, strides 1 to 3 (different in H
// and W, and larger than the filter), padding 0 to 3 (asymmetric too), dilation 1 and 2, groups
// (depthwise too), odd extents, both modes. Small enough that all of them run in milliseconds.
std::vector<ConvShape> identity_shapes() {
  ConvMode const flip = ConvMode::kConvolution;
  ConvMode const xcorr = ConvMode::kCrossCorrelation;
  return {
      {"1x1, unit stride, unpadded", make_problem(2, {{1, 5, 7}}, 3, 4, kOne, kZero, kZero, kOne, kOne)},
      {"3x3, pad 1", make_problem(1, {{1, 8, 8}}, 4, 5, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, kOne, kOne)},
      {"3x3, pad 1, stride 2, odd H and W",
       make_problem(2, {{1, 9, 7}}, 3, 2, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, {{1, 2, 2}}, kOne)},
      {"5x5, pad 2", make_problem(1, {{1, 11, 9}}, 2, 3, {{1, 5, 5}}, {{0, 2, 2}}, {{0, 2, 2}}, kOne, kOne)},
      {"7x7, pad 3, stride 2",
       make_problem(1, {{1, 13, 15}}, 3, 4, {{1, 7, 7}}, {{0, 3, 3}}, {{0, 3, 3}}, {{1, 2, 2}}, kOne)},
      {"3x5, pad {1, 2}, stride_h 1, stride_w 2",
       make_problem(2, {{1, 7, 10}}, 2, 3, {{1, 3, 5}}, {{0, 1, 2}}, {{0, 1, 2}}, {{1, 1, 2}}, kOne)},
      {"5x3, stride_h 3, stride_w 1, unpadded",
       make_problem(1, {{1, 11, 6}}, 3, 2, {{1, 5, 3}}, kZero, kZero, {{1, 3, 1}}, kOne)},
      {"3x3, dilation 2, pad 2",
       make_problem(1, {{1, 9, 9}}, 2, 3, {{1, 3, 3}}, {{0, 2, 2}}, {{0, 2, 2}}, kOne, {{1, 2, 2}})},
      {"3x3, dilation 2, pad 1, stride 2",
       make_problem(2, {{1, 10, 9}}, 2, 2, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, {{1, 2, 2}}, {{1, 2, 2}})},
      {"5x5, dilation 2, pad 3, stride 3",
       make_problem(1, {{1, 14, 13}}, 2, 3, {{1, 5, 5}}, {{0, 3, 3}}, {{0, 3, 3}}, {{1, 3, 3}}, {{1, 2, 2}})},
      {"3x3, padding before only in H and after only in W",
       make_problem(1, {{1, 7, 8}}, 3, 2, {{1, 3, 3}}, {{0, 2, 0}}, {{0, 0, 2}}, kOne, kOne)},
      {"3x3, asymmetric padding, stride 2",
       make_problem(2, {{1, 9, 8}}, 2, 3, {{1, 3, 3}}, {{0, 0, 2}}, {{0, 2, 1}}, {{1, 2, 2}}, kOne)},
      {"1x1, stride 3 larger than the filter",
       make_problem(2, {{1, 7, 8}}, 3, 4, kOne, kZero, kZero, {{1, 3, 3}}, kOne)},
      {"3x3, stride_h 3, stride_w 2, unpadded",
       make_problem(1, {{1, 11, 9}}, 2, 3, {{1, 3, 3}}, kZero, kZero, {{1, 3, 2}}, kOne)},
      {"1x3, stride_h 2 > R, stride_w 3 = S, pad_w 1",
       make_problem(1, {{1, 7, 10}}, 2, 2, {{1, 1, 3}}, {{0, 0, 1}}, {{0, 0, 1}}, {{1, 2, 3}}, kOne)},
      {"groups 2, 3x3, pad 1",
       make_problem(1, {{1, 6, 7}}, 4, 6, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, kOne, kOne, 2)},
      {"depthwise (groups = C = K), stride 2",
       make_problem(2, {{1, 9, 9}}, 4, 4, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, {{1, 2, 2}}, kOne, 4)},
      {"depthwise with two filters per channel, 5x5, pad 2",
       make_problem(1, {{1, 8, 9}}, 3, 6, {{1, 5, 5}}, {{0, 2, 2}}, {{0, 2, 2}}, kOne, kOne, 3)},
      {"groups 3, stride_h 2, stride_w 1, dilation 2",
       make_problem(1, {{1, 10, 8}}, 6, 3, {{1, 3, 3}}, {{0, 2, 1}}, {{0, 2, 1}}, {{1, 2, 1}}, {{1, 2, 2}}, 3)},
      {"convolution mode, 3x3, pad 1",
       make_problem(1, {{1, 6, 6}}, 2, 3, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, kOne, kOne, 1, flip)},
      {"convolution mode, 5x3, stride_h 2, asymmetric padding",
       make_problem(2, {{1, 9, 7}}, 2, 2, {{1, 5, 3}}, {{0, 3, 0}}, {{0, 1, 2}}, {{1, 2, 1}}, kOne, 1, flip)},
      {"convolution mode, groups 2, dilation 2",
       make_problem(1, {{1, 9, 10}}, 4, 2, {{1, 3, 3}}, {{0, 1, 2}}, {{0, 1, 2}}, kOne, {{1, 2, 2}}, 2, flip)},
      {"a one-row image, 1x7, pad 3",
       make_problem(1, {{1, 1, 13}}, 2, 3, {{1, 1, 7}}, {{0, 0, 3}}, {{0, 0, 3}}, kOne, kOne, 1, xcorr)},
      {"7x7 filter covering a 7x7 image", make_problem(1, {{1, 7, 7}}, 2, 2, {{1, 7, 7}}, kZero, kZero, kOne, kOne)},
      {"7x7, pad 3, stride 3",
       make_problem(1, {{1, 10, 11}}, 2, 2, {{1, 7, 7}}, {{0, 3, 3}}, {{0, 3, 3}}, {{1, 3, 3}}, kOne)},
      {"3-D 3x3x3, pad 1", make_problem(1, {{4, 5, 6}}, 2, 3, {{3, 3, 3}}, kOne, kOne, kOne, kOne)},
      {"3-D 3x3x3, stride {2, 1, 2}, pad {1, 0, 1}",
       make_problem(2, {{5, 4, 5}}, 2, 2, {{3, 3, 3}}, {{1, 0, 1}}, {{1, 0, 1}}, {{2, 1, 2}}, kOne)},
      {"3-D 2x3x1, stride {1, 2, 3}, dilation {2, 1, 1}, asymmetric padding",
       make_problem(1, {{5, 6, 7}}, 2, 3, {{2, 3, 1}}, {{1, 2, 0}}, {{0, 1, 0}}, {{1, 2, 3}}, {{2, 1, 1}})},
      {"3-D, groups 2, convolution mode",
       make_problem(1, {{3, 5, 4}}, 4, 2, {{3, 3, 3}}, kOne, kOne, kOne, kOne, 2, flip)},
      {"3-D depthwise, stride 2, dilation 2, pad 2",
       make_problem(1, {{5, 6, 6}}, 3, 3, {{3, 3, 3}}, {{2, 2, 2}}, {{2, 2, 2}}, {{2, 2, 2}}, {{2, 2, 2}}, 3)},
      {"3-D 1x1x1, stride 2", make_problem(2, {{3, 4, 5}}, 3, 2, kOne, kZero, kZero, {{2, 2, 2}}, kOne)},
  };
}

// The three tensors of a problem, random integers.
struct ConvData {
  std::vector<double> x, w, dy;
};

ConvData random_tensors(ConvProblemSize const& p, std::uint64_t seed, int bound) {
  return {random_integers<double>(p.activation_elements(), seed, bound),
          random_integers<double>(p.filter_elements(), seed + 1, bound),
          random_integers<double>(p.output_elements(), seed + 2, bound)};
}

// 1×1, unit stride, unpadded, one group: fprop is the GEMM x (N·D·H·W × C) · wᵀ, dgrad is
// dy (N·D·H·W × K) · w (K × C) and wgrad dyᵀ · x. Each operand's storage is the tensor itself:
// w (KC) is a column-major C × K matrix with ld C, dy (NZPQK) a column-major K × N·D·H·W one
// with ld K.
template <class ElementX, class ElementW>
void check_1x1_against_gemm(ConvProblemSize const& p) {
  int const rows = static_cast<int>(p.activation_elements() / p.c);
  host::HostMatrix<ElementX, RowMajor> x(rows, p.c);
  host::HostMatrix<ElementW, ColumnMajor> w_ck(p.c, p.k);
  host::HostMatrix<ElementW, RowMajor> w_kc(p.k, p.c);
  host::HostMatrix<ElementX, RowMajor> dy(rows, p.k);
  host::HostMatrix<ElementX, ColumnMajor> dy_t(p.k, rows);
  x.storage() = random_integers<ElementX>(x.storage_size(), 11, 8);
  w_ck.storage() = random_integers<ElementW>(w_ck.storage_size(), 12, 8);
  w_kc.storage() = w_ck.storage();
  dy.storage() = random_integers<ElementX>(dy.storage_size(), 13, 8);
  dy_t.storage() = dy.storage();
  host::HostMatrix<float, RowMajor> const no_c;

  Matrix conv, conv_magnitude, gemm, gemm_magnitude;
  host::reference_conv_fprop(p, std::as_const(x).span(), std::as_const(w_ck).span(), conv, &conv_magnitude);
  host::reference_gemm(GemmCoord{rows, p.k, p.c}, 1.0, x, w_ck, 0.0, no_c, gemm, &gemm_magnitude);
  CHECK(elements(conv) == elements(gemm));
  CHECK(elements(conv_magnitude) == elements(gemm_magnitude));

  host::reference_conv_dgrad(p, std::as_const(dy).span(), std::as_const(w_kc).span(), conv, &conv_magnitude);
  host::reference_gemm(GemmCoord{rows, p.c, p.k}, 1.0, dy, w_kc, 0.0, no_c, gemm, &gemm_magnitude);
  CHECK(elements(conv) == elements(gemm));
  CHECK(elements(conv_magnitude) == elements(gemm_magnitude));

  host::reference_conv_wgrad(p, std::as_const(x).span(), std::as_const(dy).span(), conv, &conv_magnitude);
  host::reference_gemm(GemmCoord{p.k, p.c, rows}, 1.0, dy_t, x, 0.0, no_c, gemm, &gemm_magnitude);
  CHECK(elements(conv) == elements(gemm));
  CHECK(elements(conv_magnitude) == elements(gemm_magnitude));
}

// Each group of a grouped problem is a problem of its own with groups = 1 on the group's channel
// slices: x's channels g·C/groups..., w's rows (filters) g·K/groups... (contiguous in KTRSC), dy's
// channels g·K/groups....
void check_groups_independent(ConvProblemSize const& p) {
  REQUIRE(p.check() == Status::kSuccess);
  int const groups = p.groups;
  std::int64_t const cg = p.c_per_group(), kg = p.k_per_group();
  ConvData const data = random_tensors(p, 40, 9);
  Matrix y, dx, dw;
  host::reference_conv_fprop(p, as_span(data.x), as_span(data.w), y);
  host::reference_conv_dgrad(p, as_span(data.dy), as_span(data.w), dx);
  host::reference_conv_wgrad(p, as_span(data.x), as_span(data.dy), dw);

  ConvProblemSize one = p;
  one.c = static_cast<int>(cg);
  one.k = static_cast<int>(kg);
  one.groups = 1;
  std::int64_t const pixels = p.activation_elements() / p.c;   // N·D·H·W
  std::int64_t const outputs = p.output_elements() / p.k;      // N·Z·P·Q
  std::int64_t const filter_size = p.filter_elements() / p.k;  // T·R·S·C/groups
  for (int g = 0; g < groups; ++g) {
    INFO("group " << g);
    std::vector<double> x_g, dy_g;
    for (std::int64_t i = 0; i < pixels; ++i)
      for (std::int64_t c = 0; c < cg; ++c) x_g.push_back(data.x[static_cast<std::size_t>(i * p.c + g * cg + c)]);
    for (std::int64_t i = 0; i < outputs; ++i)
      for (std::int64_t k = 0; k < kg; ++k) dy_g.push_back(data.dy[static_cast<std::size_t>(i * p.k + g * kg + k)]);
    std::vector<double> const w_g(data.w.begin() + g * kg * filter_size, data.w.begin() + (g + 1) * kg * filter_size);

    Matrix y_g, dx_g, dw_g;
    host::reference_conv_fprop(one, as_span(x_g), as_span(w_g), y_g);
    host::reference_conv_dgrad(one, as_span(dy_g), as_span(w_g), dx_g);
    host::reference_conv_wgrad(one, as_span(x_g), as_span(dy_g), dw_g);
    for (std::int64_t i = 0; i < outputs; ++i)
      for (std::int64_t k = 0; k < kg; ++k) REQUIRE(y.at(i, g * kg + k) == y_g.at(i, k));
    for (std::int64_t i = 0; i < pixels; ++i)
      for (std::int64_t c = 0; c < cg; ++c) REQUIRE(dx.at(i, g * cg + c) == dx_g.at(i, c));
    for (std::int64_t k = 0; k < kg; ++k)
      for (std::int64_t j = 0; j < filter_size; ++j) REQUIRE(dw.at(g * kg + k, j) == dw_g.at(k, j));
  }
}

}  // namespace

TEST_CASE("reference_conv reproduces a strided, padded 1-D convolution worked by hand in all three operators") {
  // W = 5, S = 3, pad 1 on both sides, stride 2: Q = (5 + 2 - 3) / 2 + 1 = 3, and output q's tap s
  // reads x[2q - 1 + s]. Filter taps are powers of ten, so each output's digits show which input
  // each tap read. Narrow element types: these integers are exact in them.
  ConvProblemSize const p = row_problem(1, 1, 2, 1);
  std::vector<half_t> const x = {half_t(1.0f), half_t(2.0f), half_t(3.0f), half_t(4.0f), half_t(5.0f)};
  std::vector<bfloat16_t> const w = {bfloat16_t(1.0f), bfloat16_t(10.0f), bfloat16_t(100.0f)};
  std::vector<float> const dy = {1.0f, 2.0f, 3.0f};
  Matrix y, dx, dw;

  // q = 0: x[-1..1] = 0, 1, 2 -> 0·1 + 1·10 + 2·100 = 210
  // q = 1: x[1..3]  = 2, 3, 4 -> 2 + 30 + 400       = 432
  // q = 2: x[3..5]  = 4, 5, 0 -> 4 + 50 + 0         = 54
  host::reference_conv_fprop(p, as_span(x), as_span(w), y);
  CHECK(y.rows() == 3);
  CHECK(y.columns() == 1);
  CHECK(elements(y) == std::vector<double>{210, 432, 54});

  // dx[i] = sum of dy[q]·w[s] over 2q - 1 + s = i:
  // i = 0: (q 0, s 1) 1·10 = 10;  i = 1: (0, 2) 1·100 + (1, 0) 2·1 = 102;  i = 2: (1, 1) 2·10 = 20;
  // i = 3: (1, 2) 2·100 + (2, 0) 3·1 = 203;  i = 4: (2, 1) 3·10 = 30.
  host::reference_conv_dgrad(p, as_span(dy), as_span(w), dx);
  CHECK(dx.rows() == 5);
  CHECK(dx.columns() == 1);
  CHECK(elements(dx) == std::vector<double>{10, 102, 20, 203, 30});

  // dw[s] = sum over q of x[2q - 1 + s]·dy[q]:
  // s = 0: 0·1 + 2·2 + 4·3 = 16;  s = 1: 1·1 + 3·2 + 5·3 = 22;  s = 2: 2·1 + 4·2 + 0·3 = 10.
  host::reference_conv_wgrad(p, as_span(x), as_span(dy), dw);
  CHECK(dw.rows() == 1);
  CHECK(dw.columns() == 3);
  CHECK(elements(dw) == std::vector<double>{16, 22, 10});
}

TEST_CASE("convolution mode applies the filter flipped") {
  // The same problem in convolution mode: tap s is applied as tap 2 - s, reading x[2q - 1 + 2 - s].
  ConvProblemSize const p = row_problem(1, 1, 2, 1, ConvMode::kConvolution);
  std::vector<double> const x = {1, 2, 3, 4, 5};
  std::vector<double> const w = {1, 10, 100};
  std::vector<double> const dy = {1, 2, 3};
  Matrix y, dx, dw;
  // q = 0: s 0 reads x[1] = 2, s 1 x[0] = 1, s 2 x[-1] = 0 -> 2 + 10 + 0    = 12
  // q = 1: s 0 reads x[3] = 4, s 1 x[2] = 3, s 2 x[1] = 2  -> 4 + 30 + 200  = 234
  // q = 2: s 0 reads x[5] = 0, s 1 x[4] = 5, s 2 x[3] = 4  -> 0 + 50 + 400  = 450
  host::reference_conv_fprop(p, as_span(x), as_span(w), y);
  CHECK(elements(y) == std::vector<double>{12, 234, 450});
  // Flipping the filter flips dgrad's taps: dx[i] = sum of dy[q]·w[s] over 2q + 1 - s = i:
  // i = 0: (0, 1) 10;  i = 1: (0, 0) 1 + (1, 2) 200 = 201;  i = 2: (1, 1) 20;
  // i = 3: (1, 0) 2 + (2, 2) 300 = 302;  i = 4: (2, 1) 30.
  host::reference_conv_dgrad(p, as_span(dy), as_span(w), dx);
  CHECK(elements(dx) == std::vector<double>{10, 201, 20, 302, 30});
  // ... and wgrad's: dw[s] = sum over q of x[2q + 1 - s]·dy[q], the cross-correlation's reversed.
  host::reference_conv_wgrad(p, as_span(x), as_span(dy), dw);
  CHECK(elements(dw) == std::vector<double>{10, 22, 16});
}

TEST_CASE("dilation and asymmetric padding place the taps as the definition says") {
  std::vector<double> const x = {1, 2, 3, 4, 5};
  std::vector<double> const w = {1, 10, 100};
  Matrix y, dx;

  SECTION("dilation 2, pad 2") {
    // Dilated extent 2·(3 - 1) + 1 = 5; Q = (5 + 4 - 5) / 1 + 1 = 5; q reads x[q - 2 + 2s]:
    // q 0: x[-2, 0, 2] -> 0 + 10 + 300 = 310;  q 1: x[-1, 1, 3] -> 0 + 20 + 400 = 420;
    // q 2: x[0, 2, 4] -> 1 + 30 + 500 = 531;   q 3: x[1, 3, 5] -> 2 + 40 = 42;  q 4: x[2, 4, 6] -> 3 + 50 = 53.
    host::reference_conv_fprop(row_problem(2, 2, 1, 2), as_span(x), as_span(w), y);
    CHECK(elements(y) == std::vector<double>{310, 420, 531, 42, 53});
  }
  SECTION("dilation 2, pad 2, stride 2: dgrad reaches only the even inputs") {
    // Q = (5 + 4 - 5) / 2 + 1 = 3; q reads x[2q - 2 + 2s]: q 0 -> 310, q 1 -> 531, q 2 -> 53.
    ConvProblemSize const p = row_problem(2, 2, 2, 2);
    host::reference_conv_fprop(p, as_span(x), as_span(w), y);
    CHECK(elements(y) == std::vector<double>{310, 531, 53});
    // dx[i] = sum of dy[q]·w[s] over 2q - 2 + 2s = i, with dy = 1, 2, 3: no (q, s) reaches odd i;
    // i 0: (0, 1) 10 + (1, 0) 2 = 12;  i 2: (0, 2) 100 + (1, 1) 20 + (2, 0) 3 = 123;
    // i 4: (1, 2) 200 + (2, 1) 30 = 230 (q = 3 would be past Q).
    std::vector<double> const dy = {1, 2, 3};
    host::reference_conv_dgrad(p, as_span(dy), as_span(w), dx);
    CHECK(elements(dx) == std::vector<double>{12, 0, 123, 0, 230});
  }
  SECTION("padding 2 before and none after") {
    // Q = (5 + 2 - 3) + 1 = 5; q reads x[q - 2 + s]:
    // q 0: x[-2..0] -> 100;  q 1: x[-1..1] -> 10 + 200 = 210;  q 2: 1 + 20 + 300 = 321;
    // q 3: 2 + 30 + 400 = 432;  q 4: 3 + 40 + 500 = 543.
    host::reference_conv_fprop(row_problem(2, 0, 1, 1), as_span(x), as_span(w), y);
    CHECK(elements(y) == std::vector<double>{100, 210, 321, 432, 543});
  }
  SECTION("padding 2 after and none before") {
    // Q = 5; q reads x[q + s]: q 2: 3 + 40 + 500 = 543;  q 3: x[3..5] -> 4 + 50 = 54;  q 4: x[4..6] -> 5.
    host::reference_conv_fprop(row_problem(0, 2, 1, 1), as_span(x), as_span(w), y);
    CHECK(elements(y) == std::vector<double>{321, 432, 543, 54, 5});
  }
}

TEST_CASE("a 3-D convolution worked by hand reads every dimension, with padding in D") {
  // x: 2 × 2 × 2 (D, H, W), x(d, h, w) = 1 + (4d + 2h + w); w: 2 × 2 × 2, w(t, r, s) = 10^(4t + 2r + s).
  // Pad 1 in D: Z = (2 + 2 - 2) + 1 = 3, P = Q = 1; output z reads d = z - 1 + t, h = r, w = s.
  ConvProblemSize p = ConvProblemSize::conv3d(1, {{2, 2, 2}}, 1, 1, {{2, 2, 2}}, {{1, 0, 0}});
  std::vector<double> const x = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<double> const w = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7};
  Matrix y;
  // z 0: only t = 1 (d = 0): x 1..4 times w 1e4..1e7 = 43210000
  // z 1: every tap: the digits are x in order of w's index = 87654321
  // z 2: only t = 0 (d = 1): x 5..8 times w 1..1e3 = 8765
  host::reference_conv_fprop(p, as_span(x), as_span(w), y);
  CHECK(y.rows() == 3);
  CHECK(elements(y) == std::vector<double>{43210000, 87654321, 8765});

  // Convolution mode applies tap (t, r, s) as (1 - t, 1 - r, 1 - s): z reads d = z - t, h = 1 - r,
  // w = 1 - s, so w index j meets x index 7 - j where both exist:
  // z 0: t = 0 only (d = 0): w index j = 0..3 meets x value 4 - j -> 1234
  // z 1: all: w index j meets x value 8 - j -> 12345678
  // z 2: t = 1 only (d = 1): w index 4 + j meets x value 8 - j -> 56780000
  p.mode = ConvMode::kConvolution;
  host::reference_conv_fprop(p, as_span(x), as_span(w), y);
  CHECK(elements(y) == std::vector<double>{1234, 12345678, 56780000});
}

TEST_CASE("a 1x1 unit-stride unpadded convolution is a GEMM in all three operators") {
  SECTION("2-D, half_t activations and gradients, bfloat16_t filter") {
    check_1x1_against_gemm<half_t, bfloat16_t>(ConvProblemSize::conv2d(3, 5, 7, 6, 4, 1, 1));
  }
  SECTION("3-D, float and double") {
    check_1x1_against_gemm<float, double>(ConvProblemSize::conv3d(2, {{3, 4, 5}}, 5, 7, {{1, 1, 1}}));
  }
}

TEST_CASE("dgrad and wgrad are the exact adjoints of fprop in x and in w") {
  // <fprop(x, w), dy> = <x, dgrad(dy, w)> = <w, wgrad(x, dy)> for every x, w, dy: that is what makes
  // them the gradients. Random integers keep every sum exact, so the identities hold with ==.
  std::uint64_t seed = 100;
  for (ConvShape const& shape : identity_shapes()) {
    ConvProblemSize const& p = shape.problem;
    INFO(shape.what);
    REQUIRE(p.check() == Status::kSuccess);
    ConvData const data = random_tensors(p, seed, 32);
    seed += 3;
    Matrix y, dx, dw;
    host::reference_conv_fprop(p, as_span(data.x), as_span(data.w), y);
    host::reference_conv_dgrad(p, as_span(data.dy), as_span(data.w), dx);
    host::reference_conv_wgrad(p, as_span(data.x), as_span(data.dy), dw);
    double const fprop_dy = dot(elements(y), data.dy);
    INFO("<fprop(x, w), dy> = " << fprop_dy);
    REQUIRE(fprop_dy != 0.0);
    REQUIRE(dot(data.x, elements(dx)) == fprop_dy);
    REQUIRE(dot(data.w, elements(dw)) == fprop_dy);
  }
}

TEST_CASE("a grouped convolution is its groups' independent convolutions side by side") {
  SECTION("2-D, groups 2, stride 2") {
    check_groups_independent(
        make_problem(2, {{1, 7, 6}}, 4, 6, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, {{1, 2, 2}}, kOne, 2));
  }
  SECTION("depthwise, dilation in H, stride in W, convolution mode") {
    check_groups_independent(make_problem(1, {{1, 9, 8}}, 5, 5, {{1, 3, 5}}, {{0, 2, 2}}, {{0, 1, 2}},
                                          {{1, 1, 2}}, {{1, 2, 1}}, 5, ConvMode::kConvolution));
  }
  SECTION("depthwise with three filters per channel") {
    check_groups_independent(
        make_problem(1, {{1, 6, 6}}, 2, 6, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, kOne, kOne, 2));
  }
  SECTION("3-D, groups 3") {
    check_groups_independent(
        make_problem(2, {{3, 4, 5}}, 6, 3, {{3, 1, 3}}, {{1, 0, 0}}, {{0, 0, 2}}, {{1, 1, 2}}, kOne, 3));
  }
}

TEST_CASE("magnitude is the reference of the absolute values") {
  SECTION("worked by hand: x = 1, -2, 3, -4, 5 and w = 1, 10, 100, pad 1, stride 2") {
    // q 0: -2·100 + 1·10 = -190, magnitude 210;  q 1: -2·1 + 3·10 - 4·100 = -372, magnitude 432;
    // q 2: -4·1 + 5·10 = 46, magnitude 54.
    std::vector<double> const x = {1, -2, 3, -4, 5};
    std::vector<double> const w = {1, 10, 100};
    Matrix y, magnitude;
    host::reference_conv_fprop(row_problem(1, 1, 2, 1), as_span(x), as_span(w), y, &magnitude);
    CHECK(elements(y) == std::vector<double>{-190, -372, 46});
    CHECK(elements(magnitude) == std::vector<double>{210, 432, 54});
  }
  SECTION("random data on a grouped, strided, padded 2-D and 3-D problem, all three operators") {
    std::vector<ConvShape> const shapes = identity_shapes();
    for (std::size_t i : {2u, 18u, 21u, 29u}) {
      ConvProblemSize const& p = shapes[i].problem;
      INFO(shapes[i].what);
      ConvData const data = random_tensors(p, 200 + i, 20);
      ConvData const nonnegative = {absolute(data.x), absolute(data.w), absolute(data.dy)};
      Matrix value, magnitude, of_absolute, its_magnitude;
      host::reference_conv_fprop(p, as_span(data.x), as_span(data.w), value, &magnitude);
      host::reference_conv_fprop(p, as_span(nonnegative.x), as_span(nonnegative.w), of_absolute, &its_magnitude);
      CHECK(elements(magnitude) == elements(of_absolute));
      CHECK(elements(its_magnitude) == elements(of_absolute));  // nonnegative data: magnitude = value
      CHECK(elements(value) != elements(magnitude));     // and signed data cancels somewhere

      host::reference_conv_dgrad(p, as_span(data.dy), as_span(data.w), value, &magnitude);
      host::reference_conv_dgrad(p, as_span(nonnegative.dy), as_span(nonnegative.w), of_absolute, &its_magnitude);
      CHECK(elements(magnitude) == elements(of_absolute));
      CHECK(elements(its_magnitude) == elements(of_absolute));

      host::reference_conv_wgrad(p, as_span(data.x), as_span(data.dy), value, &magnitude);
      host::reference_conv_wgrad(p, as_span(nonnegative.x), as_span(nonnegative.dy), of_absolute, &its_magnitude);
      CHECK(elements(magnitude) == elements(of_absolute));
      CHECK(elements(its_magnitude) == elements(of_absolute));
    }
  }
}

TEST_CASE("reference_conv rejects a problem check() rejects and spans of the wrong size") {
  using Catch::Matchers::Contains;
  ConvProblemSize const p = ConvProblemSize::conv2d(1, 4, 4, 2, 3, 3, 3, 1, 1);  // x 32, w 54, y 48 elements
  std::vector<double> const x(32), w(54), dy(48), short_x(31), long_w(55), short_dy(47);
  Matrix out;
  CHECK_NOTHROW(host::reference_conv_fprop(p, as_span(x), as_span(w), out));
  CHECK_NOTHROW(host::reference_conv_dgrad(p, as_span(dy), as_span(w), out));
  CHECK_NOTHROW(host::reference_conv_wgrad(p, as_span(x), as_span(dy), out));

  CHECK_THROWS_WITH(host::reference_conv_fprop(p, as_span(short_x), as_span(w), out),
                    Contains("reference_conv_fprop") && Contains("x has 31 elements, the problem needs 32"));
  CHECK_THROWS_WITH(host::reference_conv_fprop(p, as_span(x), as_span(long_w), out),
                    Contains("w has 55 elements, the problem needs 54"));
  CHECK_THROWS_WITH(host::reference_conv_dgrad(p, as_span(short_dy), as_span(w), out),
                    Contains("reference_conv_dgrad") && Contains("dy has 47 elements, the problem needs 48"));
  CHECK_THROWS_AS(host::reference_conv_dgrad(p, as_span(dy), as_span(long_w), out), std::invalid_argument);
  CHECK_THROWS_AS(host::reference_conv_wgrad(p, as_span(short_x), as_span(dy), out), std::invalid_argument);
  CHECK_THROWS_WITH(host::reference_conv_wgrad(p, as_span(x), as_span(short_dy), out),
                    Contains("reference_conv_wgrad") && Contains("dy has 47 elements"));

  ConvProblemSize ungrouped = p;
  ungrouped.groups = 2;  // does not divide K = 3
  CHECK_THROWS_WITH(host::reference_conv_fprop(ungrouped, as_span(x), as_span(w), out),
                    Contains("check() rejects") && Contains(hiptile::to_string(Status::kErrorGroupsNotDividing)));
  ConvProblemSize empty = p;
  empty.n = 0;
  CHECK_THROWS_AS(host::reference_conv_dgrad(empty, as_span(dy), as_span(w), out), std::invalid_argument);
  CHECK_THROWS_AS(host::reference_conv_wgrad(empty, as_span(x), as_span(dy), out), std::invalid_argument);
}

TEST_CASE("ConvProblemSize::check accepts valid problems and output() is (in + pads - dil·(F - 1) - 1) / stride + 1") {
  constexpr int kMax = INT_MAX;
  constexpr int k2p20 = 1 << 20;
  struct Row {
    char const* what;
    ConvProblemSize problem;
    Spatial output;
  };
  Row const rows[] = {
      // (224 + 6 - 6 - 1) / 2 + 1 = 112
      {"7x7, pad 3, stride 2", ConvProblemSize::conv2d(1, 224, 224, 3, 64, 7, 7, 3, 3, 2, 2), {{1, 112, 112}}},
      // (56 + 2 - 2 - 1) / 1 + 1 = 56
      {"3x3, pad 1", ConvProblemSize::conv2d(1, 56, 56, 64, 64, 3, 3, 1, 1), {{1, 56, 56}}},
      // P = (7 - 2 - 1) / 2 + 1 = 3, Q = (9 - 4 - 1) / 3 + 1 = 2
      {"3x5, strides 2 and 3, unpadded", ConvProblemSize::conv2d(1, 7, 9, 1, 1, 3, 5, 0, 0, 2, 3), {{1, 3, 2}}},
      // (10 + 4 - 4 - 1) / 1 + 1 = 10
      {"3x3, dilation 2, pad 2", ConvProblemSize::conv2d(1, 10, 10, 1, 1, 3, 3, 2, 2, 1, 1, 2, 2), {{1, 10, 10}}},
      // (10 + 4 - 4 - 1) / 3 + 1 = 4
      {"3x3, dilation 2, pad 2, stride 3", ConvProblemSize::conv2d(1, 10, 10, 1, 1, 3, 3, 2, 2, 3, 3, 2, 2),
       {{1, 4, 4}}},
      // P = (6 + 2 + 1 - 3 - 1) / 1 + 1 = 6, Q = (6 + 1 + 2 - 3 - 1) / 2 + 1 = 3
      {"4x4, asymmetric padding, stride_w 2",
       make_problem(1, {{1, 6, 6}}, 1, 1, {{1, 4, 4}}, {{0, 2, 1}}, {{0, 1, 2}}, {{1, 1, 2}}, kOne), {{1, 6, 3}}},
      // Z = (16 + 2 - 2 - 1) / 2 + 1 = 8, P = Q = (32 + 2 - 2 - 1) / 2 + 1 = 16
      {"3-D 3x3x3, pad 1, stride 2", ConvProblemSize::conv3d(1, {{16, 32, 32}}, 1, 1, {{3, 3, 3}}, kOne, {{2, 2, 2}}),
       {{8, 16, 16}}},
      // (10 - 0 - 1) / 4 + 1 = 3
      {"1x1, stride 4", ConvProblemSize::conv2d(1, 10, 10, 1, 1, 1, 1, 0, 0, 4, 4), {{1, 3, 3}}},
      // (5 - 4 - 1) + 1 = 1
      {"filter as large as the input", ConvProblemSize::conv2d(1, 5, 5, 1, 1, 5, 5), {{1, 1, 1}}},
      // (2 + 2 + 1 - 4 - 1) + 1 = 1: the dilated filter exactly fits the padded input
      {"5-wide filter over 2 inputs padded 2 + 1",
       make_problem(1, {{1, 1, 2}}, 1, 1, {{1, 1, 5}}, {{0, 0, 2}}, {{0, 0, 1}}, kOne, kOne), {{1, 1, 1}}},
      // padding 4 = dilated extent 5 - 1 is allowed: (5 + 8 - 4 - 1) + 1 = 9
      {"padding one less than the dilated filter",
       make_problem(1, {{1, 1, 5}}, 1, 1, {{1, 1, 3}}, {{0, 0, 4}}, {{0, 0, 4}}, kOne, {{1, 1, 2}}), {{1, 1, 9}}},
      {"the largest output extent, 2^31 - 1", make_problem(1, {{1, 1, kMax}}, 1, 1, kOne, kZero, kZero, kOne, kOne),
       {{1, 1, kMax}}},
      // 7·2^60 < 2^63 elements in x
      {"an activation of 7·2^60 elements",
       make_problem(1, {{k2p20, k2p20, k2p20}}, 7, 1, kOne, kZero, kZero, kOne, kOne), {{k2p20, k2p20, k2p20}}},
      // 7·2^60 elements in w; Z = P = Q = 1
      {"a filter of 7·2^60 elements",
       make_problem(1, {{k2p20, k2p20, k2p20}}, 1, 7, {{k2p20, k2p20, k2p20}}, kZero, kZero, kOne, kOne),
       {{1, 1, 1}}},
  };
  for (Row const& row : rows) {
    INFO(row.what);
    CHECK(row.problem.check() == Status::kSuccess);
    CHECK(row.problem.output() == row.output);
  }
}

TEST_CASE("ConvProblemSize::check returns each error status where its condition holds") {
  constexpr int kMax = INT_MAX;
  constexpr int k2p20 = 1 << 20;
  ConvProblemSize const valid = ConvProblemSize::conv2d(2, 8, 8, 4, 6, 3, 3, 1, 1);
  REQUIRE(valid.check() == Status::kSuccess);
  auto const with = [&](auto change) {
    ConvProblemSize p = valid;
    change(p);
    return p;
  };
  struct Row {
    char const* what;
    ConvProblemSize problem;
    Status status;
  };
  Row const rows[] = {
      {"N = 0", with([](ConvProblemSize& p) { p.n = 0; }), Status::kErrorInvalidProblem},
      {"C = 0", with([](ConvProblemSize& p) { p.c = 0; }), Status::kErrorInvalidProblem},
      {"K = -1", with([](ConvProblemSize& p) { p.k = -1; }), Status::kErrorInvalidProblem},
      {"groups = 0", with([](ConvProblemSize& p) { p.groups = 0; }), Status::kErrorInvalidProblem},
      {"H = 0", with([](ConvProblemSize& p) { p.input[1] = 0; }), Status::kErrorInvalidProblem},
      {"D = 0", with([](ConvProblemSize& p) { p.input[0] = 0; }), Status::kErrorInvalidProblem},
      {"S = 0", with([](ConvProblemSize& p) { p.filter[2] = 0; }), Status::kErrorInvalidProblem},
      {"stride_w = 0", with([](ConvProblemSize& p) { p.stride[2] = 0; }), Status::kErrorInvalidProblem},
      {"dilation_d = 0", with([](ConvProblemSize& p) { p.dilation[0] = 0; }), Status::kErrorInvalidProblem},
      {"pad_before_h = -1", with([](ConvProblemSize& p) { p.pad_before[1] = -1; }), Status::kErrorInvalidProblem},
      {"pad_after_w = -1", with([](ConvProblemSize& p) { p.pad_after[2] = -1; }), Status::kErrorInvalidProblem},
      {"mode not a ConvMode", with([](ConvProblemSize& p) { p.mode = static_cast<ConvMode>(2); }),
       Status::kErrorInvalidEnum},
      {"groups 3 divides K = 6, not C = 4", with([](ConvProblemSize& p) { p.groups = 3; }),
       Status::kErrorGroupsNotDividing},
      {"groups 4 divides C = 4, not K = 6", with([](ConvProblemSize& p) { p.groups = 4; }),
       Status::kErrorGroupsNotDividing},
      {"groups 8 > C", with([](ConvProblemSize& p) { p.groups = 8; }), Status::kErrorGroupsNotDividing},
      // dilated extent of a 3-tap filter: 3
      {"pad_before_h = 3 = R", with([](ConvProblemSize& p) { p.pad_before[1] = 3; }), Status::kErrorPaddingTooLarge},
      {"pad_after_w = 3 = S", with([](ConvProblemSize& p) { p.pad_after[2] = 3; }), Status::kErrorPaddingTooLarge},
      // dilated extent 2·2 + 1 = 5
      {"pad 5 with dilation 2",
       with([](ConvProblemSize& p) {
         p.dilation[2] = 2;
         p.pad_before[2] = 5;
       }),
       Status::kErrorPaddingTooLarge},
      {"pad 1 in D with T = 1", with([](ConvProblemSize& p) { p.pad_after[0] = 1; }), Status::kErrorPaddingTooLarge},
      // 2 - 5 < 0
      {"5-wide filter over 2 inputs", ConvProblemSize::conv2d(1, 8, 2, 1, 1, 1, 5), Status::kErrorEmptyOutput},
      // 2 + 2 - 5 = -1 < 0; truncating (-1) / 2 + 1 would wrongly give 1
      {"5-wide filter over 2 inputs padded 1 + 1, stride 2", ConvProblemSize::conv2d(1, 8, 2, 1, 1, 1, 5, 0, 1, 1, 2),
       Status::kErrorEmptyOutput},
      // dilated extent 5 > 4
      {"3-wide filter, dilation 2, over 4 inputs", ConvProblemSize::conv2d(1, 4, 4, 1, 1, 3, 1, 0, 0, 1, 1, 2, 1),
       Status::kErrorEmptyOutput},
      {"T = 2 over D = 1", ConvProblemSize::conv3d(1, {{1, 4, 4}}, 1, 1, {{2, 1, 1}}), Status::kErrorEmptyOutput},
      // (2^31 - 1 + 2 - 1 - 1) / 1 + 1 = 2^31
      {"an output extent of 2^31",
       make_problem(1, {{1, 1, kMax}}, 1, 1, {{1, 1, 2}}, {{0, 0, 1}}, {{0, 0, 1}}, kOne, kOne),
       Status::kErrorIndexOverflow},
      {"an activation of 2^63 elements",
       make_problem(1, {{k2p20, k2p20, k2p20}}, 8, 1, kOne, kZero, kZero, kOne, kOne), Status::kErrorIndexOverflow},
      {"an output of 2^63 elements", make_problem(1, {{k2p20, k2p20, k2p20}}, 1, 8, kOne, kZero, kZero, kOne, kOne),
       Status::kErrorIndexOverflow},
      {"a filter of 2^63 elements",
       make_problem(1, {{k2p20, k2p20, k2p20}}, 1, 8, {{k2p20, k2p20, k2p20}}, kZero, kZero, kOne, kOne),
       Status::kErrorIndexOverflow},
      // 2^30 · 2^90 · 2^7 = 2^127 and 2^30 · 2^90 · 2^8 = 2^128: past 128 bits if multiplied out
      {"an activation of 2^127 elements",
       make_problem(1 << 30, {{1 << 30, 1 << 30, 1 << 30}}, 128, 128, kOne, kZero, kZero, kOne, kOne),
       Status::kErrorIndexOverflow},
      {"an activation of 2^128 elements",
       make_problem(1 << 30, {{1 << 30, 1 << 30, 1 << 30}}, 256, 256, kOne, kZero, kZero, kOne, kOne),
       Status::kErrorIndexOverflow},
  };
  for (Row const& row : rows) {
    INFO(row.what);
    CHECK(row.problem.check() == row.status);
  }
}

TEST_CASE("implicit_gemm extents and element counts follow CUTLASS's implicit GEMM mapping") {
  SECTION("3-D, groups 3, strided and padded") {
    // Z = (3 - 2) / 1 + 1 = 2, P = (10 + 2 - 3) / 2 + 1 = 5, Q = (11 + 4 - 5) / 3 + 1 = 4: N·Z·P·Q = 80;
    // N·D·H·W = 660, T·R·S = 30, C/groups = 4, K/groups = 6.
    ConvProblemSize const p =
        make_problem(2, {{3, 10, 11}}, 12, 18, {{2, 3, 5}}, {{0, 1, 2}}, {{0, 1, 2}}, {{1, 2, 3}}, kOne, 3);
    REQUIRE(p.check() == Status::kSuccess);
    CHECK(p.output() == Spatial{{2, 5, 4}});
    auto const fprop = p.implicit_gemm(ConvOperator::kFprop);  // M = N·Z·P·Q, N = K/g, K = T·R·S·C/g
    CHECK(fprop.m == 80);
    CHECK(fprop.n == 6);
    CHECK(fprop.k == 120);
    auto const dgrad = p.implicit_gemm(ConvOperator::kDgrad);  // M = N·D·H·W, N = C/g, K = T·R·S·K/g
    CHECK(dgrad.m == 660);
    CHECK(dgrad.n == 4);
    CHECK(dgrad.k == 180);
    auto const wgrad = p.implicit_gemm(ConvOperator::kWgrad);  // M = K/g, N = T·R·S·C/g, K = N·Z·P·Q
    CHECK(wgrad.m == 6);
    CHECK(wgrad.n == 120);
    CHECK(wgrad.k == 80);
    CHECK(p.activation_elements() == 660 * 12);
    CHECK(p.filter_elements() == 18 * 30 * 4);
    CHECK(p.output_elements() == 80 * 18);
    CHECK(p.macs() == 80 * 18 * 30 * 4);
  }
  SECTION("2-D, one group") {
    // P = Q = 14: N·P·Q = 784, R·S = 9.
    ConvProblemSize const p = ConvProblemSize::conv2d(4, 14, 14, 32, 64, 3, 3, 1, 1);
    auto const fprop = p.implicit_gemm(ConvOperator::kFprop);
    auto const dgrad = p.implicit_gemm(ConvOperator::kDgrad);
    auto const wgrad = p.implicit_gemm(ConvOperator::kWgrad);
    CHECK((fprop.m == 784 && fprop.n == 64 && fprop.k == 288));
    CHECK((dgrad.m == 784 && dgrad.n == 32 && dgrad.k == 576));
    CHECK((wgrad.m == 64 && wgrad.n == 288 && wgrad.k == 784));
  }
}

namespace {

bool same_problem(ConvProblemSize const& a, ConvProblemSize const& b) {
  return a.n == b.n && a.c == b.c && a.k == b.k && a.input == b.input && a.filter == b.filter &&
         a.pad_before == b.pad_before && a.pad_after == b.pad_after && a.stride == b.stride &&
         a.dilation == b.dilation && a.groups == b.groups && a.mode == b.mode;
}

}  // namespace

TEST_CASE("conv2d, conv3d and with_groups set the groups", "[conv][problem]") {
  // Against the problem built field by field.
  ConvProblemSize const depthwise2d = ConvProblemSize::conv2d(2, 14, 15, 96, 96, 3, 3, 1, 1, 2, 2, 1, 1, 96);
  CHECK(same_problem(depthwise2d, make_problem(2, {{1, 14, 15}}, 96, 96, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}},
                                               {{1, 2, 2}}, kOne, 96)));
  ConvProblemSize const grouped3d =
      ConvProblemSize::conv3d(1, {{4, 8, 8}}, 64, 128, {{3, 3, 3}}, kOne, {{1, 2, 2}}, kOne, 32);
  CHECK(same_problem(grouped3d, make_problem(1, {{4, 8, 8}}, 64, 128, {{3, 3, 3}}, kOne, kOne, {{1, 2, 2}}, kOne, 32)));
  ConvProblemSize const plain = ConvProblemSize::conv2d(1, 8, 8, 64, 64, 3, 3, 1, 1);
  CHECK(plain.groups == 1);
  CHECK(ConvProblemSize::conv3d(1, {{2, 8, 8}}, 8, 8, kOne).groups == 1);
  ConvProblemSize const resnext = plain.with_groups(8);
  CHECK(same_problem(resnext, make_problem(1, {{1, 8, 8}}, 64, 64, {{1, 3, 3}}, {{0, 1, 1}}, {{0, 1, 1}}, kOne,
                                           kOne, 8)));
  CHECK(resnext.c_per_group() == 8);
  CHECK(resnext.check() == hiptile::Status::kSuccess);
  CHECK(plain.with_groups(5).check() == hiptile::Status::kErrorGroupsNotDividing);
}
