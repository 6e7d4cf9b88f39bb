// A user's program against an installed hiptile: a kernel that reverses each workgroup's values
// through dynamic LDS, launched with hiptile::launch and checked on the host; a small f16
// convolution (DefaultConvolution choosing per problem, on 16 and on 3 channels, a depthwise layer
// and a grouped one of 8 channels a group, and the default configuration as a persistent kernel), a stream-K GEMM on a grid sized from the device,
// DefaultGemm choosing its configuration by shape (one problem, and strided batches), DefaultTunedGemm
// choosing at run time as find mode says, an
// int8 GEMM dequantised to int8 with per-row and per-column scales, an fp8 GEMM with an amax, a
// grouped GEMM of three experts (one without tokens) and a back-to-back GEMM (DefaultB2bGemm, an
// MLP block), each checked against the installed host reference. The same source is a simulator
// program (hiptile::sim) and a HIP program (hiptile_add_hip_executable).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_b2b_gemm.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/platform/platform.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"

struct ReverseInWorkgroup {
  struct Params {
    int const* in;
    int* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    int* lds = hiptile::dynamic_lds_as<int>();
    unsigned const n = hiptile::block_dim_x();
    unsigned const t = hiptile::thread_idx_x();
    unsigned const base = hiptile::block_idx_x() * n;
    lds[t] = p.in[base + t];
    hiptile::barrier();
    p.out[base + t] = lds[n - 1 - t];
  }
};

using DefaultFprop = hiptile::conv::device::DefaultConvolution<hiptile::conv::ConvOperator::kFprop, hiptile::half_t,
                                                               hiptile::half_t, hiptile::arch::Gfx942>;
// Its default configuration as a persistent kernel: a grid of `workgroups` walking the tiles.
using PersistentFprop = hiptile::conv::device::DefaultConvolutionConfiguration<
    hiptile::conv::ConvOperator::kFprop, hiptile::half_t, hiptile::half_t,
    hiptile::arch::Gfx942>::WithSplitK<hiptile::gemm::kernel::SplitKMode::kPersistent>;

// A 3×3 padded convolution of n images of h×w pixels, `channels` -> 24 channels (grouped:
// `channels` -> `channels` in `groups` groups; groups = channels is depthwise), through Conv: every
// output element against the double-precision reference. Returns the number of wrong elements (or
// -1 on a Status error).
template <class Conv>
long long convolution_mismatches(int n, int h, int w_pixels, int workgroups = 0, int channels = 16, int groups = 1) {
  namespace host = hiptile::host;
  using hiptile::half_t;
  auto const p = hiptile::conv::ConvProblemSize::conv2d(n, h, w_pixels, /*c=*/channels, /*k=*/groups > 1 ? channels : 24,
                                                        /*r=*/3, /*s=*/3, /*pad_h=*/1, /*pad_w=*/1)
                     .with_groups(groups);
  auto const gemm = p.implicit_gemm(hiptile::conv::ConvOperator::kFprop);
  host::HostMatrix<half_t> x(std::int64_t(p.n) * p.input[1] * p.input[2], p.c);
  host::HostMatrix<half_t> w(p.k, std::int64_t(p.filter[1]) * p.filter[2] * p.c_per_group());
  host::HostMatrix<half_t> y(gemm.m, p.k);
  host::fill_random(x, 1, -1.0, 1.0);
  host::fill_random(w, 2, -1.0, 1.0);
  host::poison(y);
  host::DeviceBuffer<half_t> x_device(std::as_const(x).span());
  host::DeviceBuffer<half_t> w_device(std::as_const(w).span());
  host::DeviceBuffer<half_t> y_device(std::as_const(y).span());
  Conv conv;
  hiptile::Status s = conv.initialize(
      {.problem = p, .a = x_device.data(), .b = w_device.data(), .d = y_device.data(), .workgroups = workgroups});
  if (hiptile::ok(s)) s = conv.run();
  if (hiptile::ok(s)) s = hiptile::device_synchronize();
  if (!hiptile::ok(s)) {
    std::printf("convolution failed: %s %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return -1;
  }
  y_device.copy_to_host(y.span());
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_conv_fprop(p, std::as_const(x).span(), std::as_const(w).span(), reference, &magnitude);
  host::Comparison const c = host::compare(y, reference, magnitude, host::gemm_tolerance<half_t, half_t>(gemm.k));
  return c.mismatches + c.unwritten;
}

// An f16 GEMM D = A·B through operator Gemm with the workspace it asks for, as `batches` strided
// batches sharing B (A and D stacked: together one (batches · M) × N × K product, which is the
// reference): every element against the double-precision reference. Wrong elements, or -1.
template <class Gemm>
long long gemm_mismatches(int m, int n, int k, int batches = 1) {  // K · 2 bytes: whole 16-byte rows
  namespace host = hiptile::host;
  using hiptile::half_t;
  using hiptile::layout::ColumnMajor;
  using hiptile::layout::RowMajor;
  host::HostMatrix<half_t, RowMajor> a(m * batches, k);
  host::HostMatrix<half_t, ColumnMajor> b(k, n);
  host::HostMatrix<half_t, RowMajor> d(m * batches, n);
  host::fill_random(a, 3, -1.0, 1.0);
  host::fill_random(b, 4, -1.0, 1.0);
  host::poison(d);
  host::DeviceBuffer<half_t> a_device(std::as_const(a).span());
  host::DeviceBuffer<half_t> b_device(std::as_const(b).span());
  host::DeviceBuffer<half_t> d_device(std::as_const(d).span());
  typename Gemm::Arguments args{.problem = {m, n, k}, .a = {a_device.data(), a.ld()}, .b = {b_device.data(), b.ld()},
                                .d = {d_device.data(), d.ld()}, .output_op = {1.0f, 0.0f}};
  if (batches > 1) {
    args.batch_count = batches;
    args.batch_stride_a = m * a.ld();  // batch i: rows i·M … of A and D; B the same for all
    args.batch_stride_d = m * d.ld();
  }
  Gemm gemm;
  args.workspace_bytes = gemm.get_workspace_size(args);  // (TunedGemm chooses here; Gemm's is static)
  host::DeviceBuffer<std::byte> workspace(args.workspace_bytes);
  args.workspace = workspace.data();
  hiptile::Status s = gemm.initialize(args);
  if (hiptile::ok(s)) s = gemm.run();
  if (hiptile::ok(s)) s = hiptile::device_synchronize();
  if (!hiptile::ok(s)) {
    std::printf("GEMM failed: %s %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return -1;
  }
  d_device.copy_to_host(d.span());
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_gemm({m * batches, n, k}, 1.0, a, b, 0.0, host::HostMatrix<half_t, RowMajor>{}, reference,
                       &magnitude);
  host::Comparison const c = host::compare(d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(k));
  if constexpr (requires { gemm.choice().source; }) {
    std::printf("hiptile consumer: DefaultTunedGemm, %dx%dx%d, chose %s by %s\n", m, n, k, gemm.choice().name.c_str(),
                hiptile::tune::to_string(gemm.choice().source));
  } else if constexpr (requires { gemm.choice(); }) {
    hiptile::gemm::device::GemmChoice const& choice = gemm.choice();
    std::printf("hiptile consumer: DefaultGemm, %d batch(es) of %dx%dx%d, chose a %dx%dx%d tile (%s)\n", batches, m,
                n, k, choice.tile_m, choice.tile_n, choice.tile_k, hiptile::gemm::device::to_string(choice.reason));
  } else {
    std::printf("hiptile consumer: stream-K GEMM on %d workgroups (%d tiles shared among %d units)\n",
                gemm.workgroups(), gemm.stream_k().sk_tiles, gemm.stream_k().units);
  }
  return c.mismatches + c.unwritten;
}

// DefaultGemmConfiguration with stream-K on the device's workgroups (queried), and DefaultGemm,
// which picks its configuration by shape: a decode-size M, and three strided batches.
long long f16_gemm_mismatches() {
  using hiptile::half_t;
  using hiptile::layout::ColumnMajor;
  using hiptile::layout::RowMajor;
  namespace device = hiptile::gemm::device;
  using Base = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                hiptile::arch::Gfx942>;
  using StreamK = device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, hiptile::arch::Gfx942,
                               Base::TileShapeType, Base::WaveShapeType, Base::MmaAtomType, Base::OutputOpType,
                               Base::TileOrderType, Base::kStages, hiptile::gemm::kernel::SplitKMode::kStreamK>;
  using Default = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
  long long const stream_k = gemm_mismatches<StreamK>(300, 200, 520);
  long long const selected = gemm_mismatches<Default>(24, 200, 520);
  long long const batched = gemm_mismatches<Default>(40, 200, 520, 3);
  // Run-time selection as find mode says (HIPTILE_FIND_MODE, default db: the tuning database's
  // winner, else the heuristic).
  using Tuned = hiptile::tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                hiptile::arch::Gfx942>;
  long long const tuned = gemm_mismatches<Tuned>(72, 136, 264);
  return stream_k < 0 || selected < 0 || batched < 0 || tuned < 0 ? -1 : stream_k + selected + batched + tuned;
}

// A 130 × 70 × 200 int8 GEMM with an int8 D: D = saturate(round(A·B · row[m] · column[n])) with
// power-of-two scales (exact in fp32), every element exactly; and a 96 × 64 × 128 e4m3fnuz GEMM to
// f32 with scale_a = 0.5 and amax, checked against the reference and max |D|. Wrong values, or -1.
long long quantised_gemm_mismatches() {
  namespace host = hiptile::host;
  using hiptile::layout::ColumnMajor;
  using hiptile::layout::RowMajor;
  using Int8 = hiptile::gemm::device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int8_t,
                                                  RowMajor, hiptile::arch::Gfx942>;
  using Fp8 = hiptile::gemm::device::DefaultGemmConfiguration<hiptile::float8_e4m3fnuz, RowMajor, hiptile::float8_e4m3fnuz,
                                                 ColumnMajor, float, RowMajor, hiptile::arch::Gfx942>;
  long long wrong = 0;
  {
    int const m = 130, n = 70, k = 200;
    host::HostMatrix<std::int8_t, RowMajor> a(m, k, 208);
    host::HostMatrix<std::int8_t, ColumnMajor> b(k, n, 208);
    host::HostMatrix<std::int8_t, RowMajor> d(m, n);
    host::fill_random(a, 5, -127.0, 127.0);
    host::fill_random(b, 6, -127.0, 127.0);
    std::vector<float> row(m), column(n);
    for (int i = 0; i < m; ++i) row[i] = i % 2 ? 0x1p-9f : 0x1p-10f;
    for (int j = 0; j < n; ++j) column[j] = j % 3 ? 0.5f : 1.0f;
    host::DeviceBuffer<std::int8_t> a_device(std::as_const(a).span()), b_device(std::as_const(b).span());
    host::DeviceBuffer<std::int8_t> d_device(std::as_const(d).span());
    host::DeviceBuffer<float> row_device{std::span<float const>(row)};
    host::DeviceBuffer<float> column_device{std::span<float const>(column)};
    Int8::Arguments args{.problem = {m, n, k}, .a = {a_device.data(), a.ld()}, .b = {b_device.data(), b.ld()},
                         .d = {d_device.data(), d.ld()}};
    args.row_scale = row_device.data();
    args.column_scale = column_device.data();
    Int8 gemm;
    hiptile::Status s = gemm.initialize(args);
    if (hiptile::ok(s)) s = gemm.run();
    if (hiptile::ok(s)) s = hiptile::device_synchronize();
    if (!hiptile::ok(s)) return -1;
    d_device.copy_to_host(d.span());
    host::HostMatrix<double> exact;
    host::reference_gemm({m, n, k}, 1.0, a, b, 0.0, host::HostMatrix<std::int8_t, RowMajor>{}, exact);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double const want = std::clamp(std::nearbyint(exact.at(i, j) * row[i] * column[j]), -128.0, 127.0);
        if (double(d.at(i, j)) != want) ++wrong;
      }
    }
  }
  {
    int const m = 96, n = 64, k = 128;
    host::HostMatrix<hiptile::float8_e4m3fnuz, RowMajor> a(m, k);
    host::HostMatrix<hiptile::float8_e4m3fnuz, ColumnMajor> b(k, n);
    host::HostMatrix<float, RowMajor> d(m, n);
    host::fill_random(a, 7, -4.0, 4.0);
    host::fill_random(b, 8, -4.0, 4.0);
    float const scale_a = 0.5f;
    host::DeviceBuffer<hiptile::float8_e4m3fnuz> a_device(std::as_const(a).span()), b_device(std::as_const(b).span());
    host::DeviceBuffer<float> d_device(std::as_const(d).span());
    host::DeviceBuffer<float> scale_device{std::span<float const>(&scale_a, 1)};
    host::DeviceBuffer<float> amax_device(1);
    Fp8::Arguments args{.problem = {m, n, k}, .a = {a_device.data(), a.ld()}, .b = {b_device.data(), b.ld()},
                        .d = {d_device.data(), d.ld()}};
    args.output_op.scale_a = scale_device.data();
    args.output_op.amax = amax_device.data();
    Fp8 gemm;
    hiptile::Status s = gemm.initialize(args);
    if (hiptile::ok(s)) s = gemm.run();
    if (hiptile::ok(s)) s = hiptile::device_synchronize();
    if (!hiptile::ok(s)) return -1;
    d_device.copy_to_host(d.span());
    host::HostMatrix<double> reference;
    host::HostMatrix<double> magnitude;
    host::reference_gemm({m, n, k}, scale_a, a, b, 0.0, host::HostMatrix<float, RowMajor>{}, reference, &magnitude);
    host::Comparison const c = host::compare(d, reference, magnitude,
                                             host::gemm_tolerance<hiptile::float8_e4m3fnuz, float>(k));
    float largest = 0.0f;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) largest = std::max(largest, std::fabs(d.at(i, j)));
    }
    wrong += c.mismatches + c.unwritten + (amax_device.copy_to_host()[0] != largest ? 1 : 0);
  }
  std::printf("hiptile consumer: int8 GEMM with dequantisation scales, fp8 GEMM with amax\n");
  return wrong;
}

// Three experts over 150 tokens (100, 0 and 50 of them), N = 40, K = 72, in one grouped launch:
// each expert's rows of D against the reference of its rows of A times its own B. Wrong elements,
// or -1.
long long grouped_gemm_mismatches() {
  namespace host = hiptile::host;
  using hiptile::half_t;
  using hiptile::layout::ColumnMajor;
  using hiptile::layout::RowMajor;
  using Grouped = hiptile::gemm::device::GroupedGemmOf<
      hiptile::gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>>;
  int const counts[] = {100, 0, 50};
  int const n = 40, k = 72;
  host::HostMatrix<half_t, RowMajor> a(150, k), d(150, n);
  host::fill_random(a, 9, -1.0, 1.0);
  host::poison(d);
  host::DeviceBuffer<half_t> a_device(std::as_const(a).span()), d_device(std::as_const(d).span());
  std::vector<host::HostMatrix<half_t, ColumnMajor>> b;
  std::vector<host::DeviceBuffer<half_t>> b_device;
  std::vector<Grouped::GroupArguments> groups;
  for (int e = 0, first = 0; e < 3; first += counts[e], ++e) {
    b.emplace_back(k, n);
    host::fill_random(b.back(), 10 + e, -1.0, 1.0);
    b_device.emplace_back(std::as_const(b.back()).span());
    groups.push_back({.problem = {counts[e], n, k}, .a = {a_device.data() + first * a.ld(), a.ld()},
                      .b = {b_device.back().data(), b.back().ld()}, .d = {d_device.data() + first * d.ld(), d.ld()},
                      .output_op = {1.0f, 0.0f}});
  }
  Grouped::Arguments args{.group_count = 3, .groups = groups.data()};
  host::DeviceBuffer<std::byte> workspace(Grouped::get_workspace_size(args));
  args.workspace = workspace.data();
  args.workspace_bytes = workspace.size();
  Grouped op;
  hiptile::Status s = op.initialize(args);
  if (hiptile::ok(s)) s = op.run();
  if (hiptile::ok(s)) s = hiptile::device_synchronize();
  if (!hiptile::ok(s)) return -1;
  d_device.copy_to_host(d.span());
  long long wrong = 0;
  for (int e = 0, first = 0; e < 3; first += counts[e], ++e) {
    host::HostMatrix<half_t, RowMajor> rows(counts[e], k), part(counts[e], n);
    for (int t = 0; t < counts[e]; ++t) {
      for (int j = 0; j < k; ++j) rows.at(t, j) = a.at(first + t, j);
      for (int j = 0; j < n; ++j) part.at(t, j) = d.at(first + t, j);
    }
    host::HostMatrix<double> reference, magnitude;
    host::reference_gemm({counts[e], n, k}, 1.0, rows, b[e], 0.0, host::HostMatrix<half_t, RowMajor>{}, reference,
                         &magnitude);
    host::Comparison const c = host::compare(part, reference, magnitude, host::gemm_tolerance<half_t, half_t>(k));
    wrong += c.mismatches + c.unwritten;
  }
  return wrong;
}

// A back-to-back GEMM, D = 0.5·C + bias1 + ReLU(A·B0 + bias0)·B1, with M = 150, K0 = 72, N0 = 40 and
// N1 = 100 (ragged against the default tile's 128 rows, 64-wide N0 and 64 columns of D per step):
// every element of D against the installed double reference's per-element bound, and a hidden
// layer wider than the tile refused with kErrorNotSupported. Wrong elements, or -1.
long long b2b_gemm_mismatches() {
  namespace host = hiptile::host;
  using hiptile::half_t;
  using hiptile::layout::ColumnMajor;
  using hiptile::layout::RowMajor;
  namespace epilogue = hiptile::epilogue;
  using B2b = hiptile::gemm::device::DefaultB2bGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, half_t,
                                                    RowMajor, hiptile::arch::Gfx942,
                                                    epilogue::LinearCombination<half_t, epilogue::ReLU>>;
  int const m = 150, k0 = 72, n0 = 40, n1 = 100;
  host::HostMatrix<half_t, RowMajor> a(m, k0), c(m, n1), d(m, n1), bias1(1, n1);  // K0 · 2 bytes: whole vectors
  host::HostMatrix<half_t, ColumnMajor> b0(k0, n0);
  host::HostMatrix<half_t, RowMajor> b1(n0, n1, 104), bias0(1, n0);  // B1's rows padded to 16-byte vectors
  host::fill_random(a, 11, -1.0, 1.0);
  host::fill_random(b0, 12, -0.5, 0.5);
  host::fill_random(b1, 13, -0.5, 0.5);
  host::fill_random(c, 14, -1.0, 1.0);
  host::fill_random(bias0, 15, -0.5, 0.5);
  host::fill_random(bias1, 16, -0.5, 0.5);
  host::poison(d);
  host::DeviceBuffer<half_t> a_device(std::as_const(a).span()), b0_device(std::as_const(b0).span());
  host::DeviceBuffer<half_t> b1_device(std::as_const(b1).span()), c_device(std::as_const(c).span());
  host::DeviceBuffer<half_t> bias0_device(std::as_const(bias0).span()), bias1_device(std::as_const(bias1).span());
  host::DeviceBuffer<half_t> d_device(std::as_const(d).span());
  B2b::Arguments args{.problem = {.m = m, .n0 = n0, .k0 = k0, .n1 = n1},
                      .a = {a_device.data(), a.ld()},
                      .b0 = {b0_device.data(), b0.ld()},
                      .b1 = {b1_device.data(), b1.ld()},
                      .c = {c_device.data(), c.ld()},
                      .d = {d_device.data(), d.ld()},
                      .op0 = {1.0f, 0.0f},
                      .bias0 = bias0_device.data(),
                      .op1 = {1.0f, 0.5f},
                      .bias1 = bias1_device.data()};
  B2b::Arguments wide = args;
  wide.problem.n0 = B2b::TileShapeType::kN0 + 8;  // P must be one tile: refused before any pointer is read
  if (B2b::can_implement(wide) != hiptile::Status::kErrorNotSupported) {
    std::printf("b2b GEMM: N0 = %d was not refused with kErrorNotSupported\n", wide.problem.n0);
    return -1;
  }
  B2b op;
  hiptile::Status s = op.initialize(args);
  if (hiptile::ok(s)) s = op.run();
  if (hiptile::ok(s)) s = hiptile::device_synchronize();
  if (!hiptile::ok(s)) {
    std::printf("b2b GEMM failed: %s %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return -1;
  }
  d_device.copy_to_host(d.span());
  host::B2bReferenceOps ops;
  ops.activation0 = [](double x) { return x > 0.0 ? x : 0.0; };
  ops.beta1 = 0.5;
  ops.p_roundoff = ops.d_roundoff = host::unit_roundoff<half_t>();
  std::vector<double> reference, tolerance;
  host::reference_b2b_gemm(
      args.problem, [&](int i, int k) { return host::to_double(a.at(i, k)); },
      [&](int k, int n) { return host::to_double(b0.at(k, n)); },
      [&](int n, int j) { return host::to_double(b1.at(n, j)); },
      [&](int i, int j) { return host::to_double(c.at(i, j)); }, [&](int n) { return host::to_double(bias0.at(0, n)); },
      [&](int j) { return host::to_double(bias1.at(0, j)); }, ops, reference, tolerance);
  long long wrong = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n1; ++j) {
      std::size_t const e = std::size_t(i) * n1 + j;
      if (!(std::fabs(host::to_double(d.at(i, j)) - reference[e]) <= tolerance[e])) ++wrong;
    }
  }
  std::printf("hiptile consumer: b2b GEMM %dx%d -> %d -> %d on a %dx%dx%d -> %d tile\n", m, k0, n0, n1,
              B2b::TileShapeType::kM, B2b::TileShapeType::kN0, B2b::TileShapeType::kK0, B2b::TileShapeType::kN1);
  return wrong;
}

int main() {
  unsigned const groups = 3, threads = 192;
  std::size_t const count = groups * threads, bytes = count * sizeof(int);
  std::vector<int> in(count), out(count, 0);
  for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<int>(i * 31 + 7);

  void* d_in = nullptr;
  void* d_out = nullptr;
  if (!hiptile::ok(hiptile::device_allocate(&d_in, bytes)) || !hiptile::ok(hiptile::device_allocate(&d_out, bytes)) ||
      !hiptile::ok(hiptile::copy_memory(d_in, in.data(), bytes, hiptile::CopyKind::kHostToDevice))) {
    std::printf("device memory failed\n");
    return 1;
  }
  hiptile::Status const s = hiptile::launch<ReverseInWorkgroup>(
      {{groups}, {threads}, threads * sizeof(int)}, {static_cast<int const*>(d_in), static_cast<int*>(d_out)});
  if (!hiptile::ok(s) || !hiptile::ok(hiptile::device_synchronize()) ||
      !hiptile::ok(hiptile::copy_memory(out.data(), d_out, bytes, hiptile::CopyKind::kDeviceToHost))) {
    std::printf("launch failed: %s %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return 1;
  }
  hiptile::device_free(d_in);
  hiptile::device_free(d_out);

  int wrong = 0;
  for (unsigned g = 0; g < groups; ++g)
    for (unsigned t = 0; t < threads; ++t)
      if (out[g * threads + t] != in[g * threads + threads - 1 - t]) ++wrong;
  std::printf("hiptile consumer (%s backend): %d of %zu values wrong\n", hiptile::to_string(hiptile::kBackend), wrong,
              count);
  // One tile; an RGB input (3 channels: the few-channel candidate, packed taps); then 4·12·11 = 528 rows, five
  // tiles walked by a persistent grid of two.
  long long const one_shot = convolution_mismatches<DefaultFprop>(2, 6, 7);
  long long const rgb = convolution_mismatches<DefaultFprop>(1, 9, 8, 0, 3);
  long long const persistent = convolution_mismatches<PersistentFprop>(4, 12, 11, 2);
  long long const depthwise = convolution_mismatches<DefaultFprop>(2, 9, 10, 0, 16, 16);  // the direct kernel
  long long const grouped = convolution_mismatches<DefaultFprop>(1, 8, 9, 0, 64, 8);  // packed groups
  long long const conv_wrong = one_shot < 0 || rgb < 0 || persistent < 0 || depthwise < 0 || grouped < 0
                                   ? -1
                                   : one_shot + rgb + persistent + depthwise + grouped;
  std::printf("hiptile consumer (%s backend): convolution (DefaultConvolution on 16 and 3 channels, depthwise and "
              "grouped, persistent), %lld elements wrong\n",
              hiptile::to_string(hiptile::kBackend), conv_wrong);
  long long const gemm_wrong = f16_gemm_mismatches();
  std::printf("hiptile consumer (%s backend): stream-K GEMM, DefaultGemm and DefaultTunedGemm, %lld elements wrong\n",
              hiptile::to_string(hiptile::kBackend), gemm_wrong);
  long long const quantised_wrong = quantised_gemm_mismatches();
  std::printf("hiptile consumer (%s backend): int8 and fp8 GEMMs, %lld values wrong\n",
              hiptile::to_string(hiptile::kBackend), quantised_wrong);
  long long const grouped_wrong = grouped_gemm_mismatches();
  std::printf("hiptile consumer (%s backend): grouped GEMM, %lld elements wrong\n",
              hiptile::to_string(hiptile::kBackend), grouped_wrong);
  long long const b2b_wrong = b2b_gemm_mismatches();
  std::printf("hiptile consumer (%s backend): back-to-back GEMM, %lld elements wrong\n",
              hiptile::to_string(hiptile::kBackend), b2b_wrong);
  return wrong == 0 && conv_wrong == 0 && gemm_wrong == 0 && quantised_wrong == 0 && grouped_wrong == 0 &&
                 b2b_wrong == 0
             ? 0
             : 1;
}
