// A user's program against an installed hiptile: a kernel that reverses each workgroup's values
// through dynamic LDS, launched with hiptile::launch and checked on the host; and a small f16
// convolution (DefaultConvolution, Fprop) checked against the installed host reference. The same
// source is a simulator program (hiptile::sim) and a HIP program (hiptile_add_hip_executable).
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/platform/platform.hpp"

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

// A 3×3 padded convolution, 6×7 pixels, 16 -> 24 channels: every output element against the
// double-precision reference. Returns the number of wrong elements (or -1 on a Status error).
long long convolution_mismatches() {
  namespace host = hiptile::host;
  using hiptile::half_t;
  using Conv = hiptile::conv::device::DefaultConvolution<hiptile::conv::ConvOperator::kFprop, half_t, half_t,
                                                         hiptile::arch::Gfx942>;
  auto const p = hiptile::conv::ConvProblemSize::conv2d(/*n=*/2, /*h=*/6, /*w=*/7, /*c=*/16, /*k=*/24, /*r=*/3,
                                                        /*s=*/3, /*pad_h=*/1, /*pad_w=*/1);
  auto const gemm = p.implicit_gemm(hiptile::conv::ConvOperator::kFprop);
  host::HostMatrix<half_t> x(std::int64_t(p.n) * p.input[1] * p.input[2], p.c);
  host::HostMatrix<half_t> w(p.k, std::int64_t(p.filter[1]) * p.filter[2] * p.c);
  host::HostMatrix<half_t> y(gemm.m, p.k);
  host::fill_random(x, 1, -1.0, 1.0);
  host::fill_random(w, 2, -1.0, 1.0);
  host::poison(y);
  host::DeviceBuffer<half_t> x_device(std::as_const(x).span());
  host::DeviceBuffer<half_t> w_device(std::as_const(w).span());
  host::DeviceBuffer<half_t> y_device(std::as_const(y).span());
  Conv conv;
  hiptile::Status s = conv.initialize({.problem = p, .a = x_device.data(), .b = w_device.data(), .d = y_device.data()});
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
  long long const conv_wrong = convolution_mismatches();
  std::printf("hiptile consumer (%s backend): convolution, %lld elements wrong\n",
              hiptile::to_string(hiptile::kBackend), conv_wrong);
  return wrong == 0 && conv_wrong == 0 ? 0 : 1;
}
