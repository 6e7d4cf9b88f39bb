// The back-to-back GEMM built with nvcc (mma.sync atoms; the first product's accumulators are the
// second's A fragments lane for lane) and run on an NVIDIA GPU: f16 and bf16, every layout of A,
// B0, B1 and D, ragged M, N0, K0 and N1, op0 with a bias and ReLU, op1 with C and a bias, batches,
// against a double-precision host reference (host/reference_b2b_gemm.hpp), D poisoned before each
// run. Prints "N passed, N failed" and exits non-zero on a failure.
// Run on the lent H100 by scripts/device_b2b.sh; CI only builds it (label nvidia-run).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/reference_b2b_gemm.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using namespace hiptile;
using layout::ColumnMajor;
using layout::RowMajor;

struct Problem {
  int m, n0, k0, n1, pad;
  int batches = 1;
  bool bias = false;
  float beta1 = 0.0f;
};

std::vector<Problem> const kProblems = {
    {1, 64, 32, 1, 0},    {129, 64, 40, 64, 8},        {37, 13, 7, 130, 0},  {200, 40, 97, 65, 24, 1, true},
    {64, 1, 1, 8, 0},     {1000, 64, 512, 256, 8, 3, true, 0.5f}, {333, 48, 1000, 100, 0, 2, false, -1.0f},
};

int passed = 0, failed = 0;

template <class T>
double unit_roundoff() {
  return std::ldexp(1.0, -numeric_limits<T>::digits);
}

template <class Layout>
std::int64_t padded_ld(int rows, int cols, int pad) {
  return (Layout::min_leading_dimension(rows, cols) + 7) / 8 * 8 + pad;
}

// One matrix of every batch, stacked one 16-byte vector apart.
template <class T, class Layout>
struct Stacked {
  int rows, cols;
  std::int64_t ld, stride;
  std::vector<T> host;
  Stacked(int r, int c, int pad, int batches, std::mt19937& rng, bool poison = false)
      : rows(r), cols(c), ld(padded_ld<Layout>(r, c, pad)) {
    stride = (Layout::kRowMajor ? std::int64_t(r) : c) * ld + 16 / std::int64_t(sizeof(T));
    host.resize(std::size_t(stride * batches));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& x : host) x = poison ? T(NAN) : T(dist(rng));
  }
  double at(int batch, int r, int c) const { return double(float(host[std::size_t(batch * stride + Layout::offset(r, c, ld))])); }
};

template <class E, class LA, class LB0, class LB1, class ED, class LD>
void run(char const* name, Problem const& p) {
  using B = gemm::device::DefaultB2bGemm<E, LA, E, LB0, E, LB1, ED, LD, arch::Sm90,
                                         epilogue::LinearCombination<E, epilogue::ReLU>>;
  std::mt19937 rng(p.m * 7919 + p.n0 * 31 + p.k0 * 7 + p.n1);
  Stacked<E, LA> a(p.m, p.k0, p.pad, p.batches, rng);
  Stacked<E, LB0> b0(p.k0, p.n0, p.pad, p.batches, rng);
  Stacked<E, LB1> b1(p.n0, p.n1, p.pad, p.batches, rng);
  Stacked<ED, LD> c(p.m, p.n1, p.pad, p.batches, rng), d(p.m, p.n1, p.pad, p.batches, rng, true);
  std::vector<E> bias0(p.n0);
  std::vector<ED> bias1(p.n1);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  for (auto& x : bias0) x = E(dist(rng));
  for (auto& x : bias1) x = ED(dist(rng));
  host::DeviceBuffer<E> da{std::span<E const>(a.host)}, db0{std::span<E const>(b0.host)},
      db1{std::span<E const>(b1.host)}, dbias0{std::span<E const>(bias0)};
  host::DeviceBuffer<ED> dc{std::span<ED const>(c.host)}, dd{std::span<ED const>(d.host)},
      dbias1{std::span<ED const>(bias1)};

  typename B::Arguments args;
  args.problem = {p.m, p.n0, p.k0, p.n1};
  args.a = {da.data(), a.ld};
  args.b0 = {db0.data(), b0.ld};
  args.b1 = {db1.data(), b1.ld};
  args.c = {dc.data(), c.ld};
  args.d = {dd.data(), d.ld};
  args.bias0 = p.bias ? dbias0.data() : nullptr;
  args.bias1 = p.bias ? dbias1.data() : nullptr;
  args.op1.beta = p.beta1;
  args.batch_count = p.batches;
  args.batch_stride_a = a.stride;
  args.batch_stride_b0 = b0.stride;
  args.batch_stride_b1 = b1.stride;
  args.batch_stride_c = c.stride;
  args.batch_stride_d = d.stride;
  B op;
  Status const s = op(args);
  Status const sync = device_synchronize();
  std::vector<ED> got = dd.copy_to_host();
  int wrong = 0, untouched_bad = 0;
  std::vector<bool> owned(got.size(), false);
  for (int batch = 0; batch < p.batches && ok(s) && ok(sync); ++batch) {
    host::B2bReferenceOps ops;
    ops.activation0 = [](double x) { return x > 0 ? x : 0.0; };
    ops.beta1 = p.beta1;
    ops.p_roundoff = unit_roundoff<E>();
    ops.d_roundoff = unit_roundoff<ED>();
    std::vector<double> ref, tol;
    host::reference_b2b_gemm(
        args.problem, [&](int i, int k) { return a.at(batch, i, k); }, [&](int k, int n) { return b0.at(batch, k, n); },
        [&](int n, int j) { return b1.at(batch, n, j); }, [&](int i, int j) { return c.at(batch, i, j); },
        [&](int n) { return p.bias ? double(float(bias0[n])) : 0.0; },
        [&](int j) { return p.bias ? double(float(bias1[j])) : 0.0; }, ops, ref, tol);
    for (int i = 0; i < p.m; ++i) {
      for (int j = 0; j < p.n1; ++j) {
        std::size_t const at = std::size_t(batch * d.stride + LD::offset(i, j, d.ld));
        owned[at] = true;
        std::size_t const e = std::size_t(i) * p.n1 + j;
        double const v = double(float(got[at]));
        if (!(std::abs(v - ref[e]) <= tol[e]) && ++wrong <= 3) {
          std::printf("  %s: batch %d D[%d][%d] = %g, reference %g +- %g\n", name, batch, i, j, v, ref[e], tol[e]);
        }
      }
    }
  }
  for (std::size_t e = 0; e < got.size(); ++e) untouched_bad += !owned[e] && !std::isnan(float(got[e]));
  bool const good = ok(s) && ok(sync) && wrong == 0 && untouched_bad == 0;
  (good ? passed : failed)++;
  if (!good) {
    std::printf("FAIL %s %dx%dx%d -> %d, batches %d: %s / %s, %d wrong, %d written outside D\n", name, p.m, p.n0,
                p.k0, p.n1, p.batches, to_string(s), to_string(sync), wrong, untouched_bad);
  }
}

}  // namespace

int main() {
  for (Problem const& p : kProblems) {
    run<half_t, RowMajor, ColumnMajor, RowMajor, half_t, RowMajor>("f16 rcrr", p);
    run<half_t, ColumnMajor, RowMajor, ColumnMajor, half_t, ColumnMajor>("f16 crcc", p);
    run<half_t, RowMajor, RowMajor, RowMajor, float, RowMajor>("f16->f32 rrrr", p);
    run<bfloat16_t, RowMajor, ColumnMajor, RowMajor, bfloat16_t, RowMajor>("bf16 rcrr", p);
  }
  std::printf("b2b_gemm_nvidia_test: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
