// 11_conv2d_strided_dgrad: the data gradient dx of stride-2 convolutions, in half precision,
// checked against a double-precision host reference.
//
// Dgrad's implicit GEMM has one row per input pixel (M = N·H·W), one column per input channel
// (N = C) and K = R·S·K. With stride s, input row h is reached only by the filter taps r with
// h + pad ≡ r (mod s): the pixels fall into s_h·s_w row classes, and each class is its own GEMM
// over its own taps, so no product with a zero that the stride put between the outputs is ever
// computed. hiptile launches one grid row per class with taps (docs/conv.md, "Strided Dgrad").
//
// When the stride is larger than the filter, some classes have no taps at all: no output pixel
// reads them, so their dx is 0 (α·0 + β·C + bias with the epilogue's extras). Those classes have
// no GEMM, yet a second kernel (TaplessClassFill) writes every one of their elements through the
// epilogue's output functor. The second problem,
// a 1×1 stride-2 convolution (ResNet's downsampling shortcut), has three such classes out of four;
// the program checks each class separately, on an output first filled with NaN.
//
// Run: 11_conv2d_strided_dgrad (no arguments). It exits non-zero if dx is wrong anywhere.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <utility>
#include <vector>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/launch.hpp"

using hiptile::half_t;
using hiptile::conv::ConvGeometry;
using hiptile::conv::ConvOperator;
using hiptile::conv::ConvProblemSize;

// dx from dy and w: f16 in and out, fp32 accumulation, the default gfx942 configurations.
using Dgrad = hiptile::conv::device::DefaultConvolution<ConvOperator::kDgrad, half_t, half_t, hiptile::arch::Gfx942>;

namespace {

namespace host = hiptile::host;

struct Epilogue {
  float alpha = 1.0f;
  float beta = 0.0f;
  bool bias = false;
};

// The row classes of a strided Dgrad as ConvGeometry (the host-side precomputation every
// convolution's initialize() does) sees them: which input rows and columns each holds and which
// filter taps it visits. 2-D problems: dimension 1 is H, dimension 2 is W.
void print_row_classes(ConvProblemSize const& p, ConvGeometry const& g) {
  std::printf("  %d row classes (stride %d×%d):\n", g.classes, p.stride[1], p.stride[2]);
  for (int cls = 0; cls < g.classes; ++cls) {
    ConvGeometry::DgradClass const c = g.dgrad_class(cls);
    hiptile::conv::DgradClassDim const& h = c.dim[1];
    hiptile::conv::DgradClassDim const& w = c.dim[2];
    std::printf("    class %d: h = %d, %d, ... (%d rows) × w = %d, %d, ... (%d columns); taps: ", cls, h.first,
                h.first + p.stride[1], h.count, w.first, w.first + p.stride[2], w.count);
    if (c.taps == 0) {
      std::printf("none\n");
      continue;
    }
    std::printf("r in {");
    for (int a = 0; a < h.taps; ++a) std::printf(a ? ", %d" : "%d", h.residue + a * p.stride[1]);
    std::printf("} × s in {");
    for (int a = 0; a < w.taps; ++a) std::printf(a ? ", %d" : "%d", w.residue + a * p.stride[2]);
    std::printf("}\n");
  }
}

// Runs Dgrad on p and checks dx, class by class. Returns whether everything passed.
bool run(char const* title, ConvProblemSize const& p, Epilogue const e) {
  hiptile::conv::Spatial const out = p.output();
  std::int64_t const pixels_in = std::int64_t(p.n) * p.input[1] * p.input[2];
  std::int64_t const pixels_out = std::int64_t(p.n) * out[1] * out[2];
  std::int64_t const filter_size = std::int64_t(p.filter[1]) * p.filter[2] * p.c_per_group();
  std::printf("%s: dy %dx%dx%dx%d, w %dx%dx%dx%d, stride %d, padding %d -> dx %dx%dx%dx%d\n", title, p.n, out[1],
              out[2], p.k, p.k, p.filter[1], p.filter[2], p.c_per_group(), p.stride[1], p.pad_before[1], p.n,
              p.input[1], p.input[2], p.c);
  ConvGeometry g;
  if (hiptile::Status const s = ConvGeometry::make(p, /*strided_dgrad=*/true, g); !hiptile::ok(s)) {
    std::printf("  ConvGeometry::make: %s\n", hiptile::to_string(s));
    return false;
  }
  print_row_classes(p, g);

  // Host tensors as matrices: dy (N·P·Q) × K, w K × (R·S·C), dx and the source C (N·H·W) × C.
  host::HostMatrix<half_t> dy(pixels_out, p.k);
  host::HostMatrix<half_t> w(p.k, filter_size);
  host::HostMatrix<half_t> source(pixels_in, p.c);
  host::HostMatrix<half_t> bias(1, p.c);
  host::HostMatrix<half_t> dx(pixels_in, p.c);
  host::fill_random(dy, /*seed=*/1, -1.0, 1.0);
  host::fill_random(w, /*seed=*/2, -1.0, 1.0);
  host::fill_random(source, /*seed=*/3, -1.0, 1.0);
  host::fill_random(bias, /*seed=*/4, -1.0, 1.0);
  host::poison(dx);  // every element the kernel does not write stays NaN and is counted

  host::DeviceBuffer<half_t> dy_device(std::as_const(dy).span());
  host::DeviceBuffer<half_t> w_device(std::as_const(w).span());
  host::DeviceBuffer<half_t> source_device(std::as_const(source).span());
  host::DeviceBuffer<half_t> bias_device(std::as_const(bias).span());
  host::DeviceBuffer<half_t> dx_device(std::as_const(dx).span());

  // For Dgrad a = dy, b = w, d = dx; C and the bias are shaped like dx and its channels.
  Dgrad::Arguments const args{
      .problem = p,
      .a = dy_device.data(),
      .b = w_device.data(),
      .c = e.beta != 0.0f ? source_device.data() : nullptr,
      .d = dx_device.data(),
      .output_op = {.alpha = e.alpha, .beta = e.beta},
      .bias = e.bias ? bias_device.data() : nullptr,
  };
  Dgrad dgrad;
  hiptile::Status status = dgrad.initialize(args);  // runs can_implement first
  if (hiptile::ok(status)) status = dgrad.run();
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  if (!hiptile::ok(status)) {
    std::printf("  Dgrad: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return false;
  }
  dx_device.copy_to_host(dx.span());
  dgrad.visit_chosen([](auto const& chosen) {  // the configuration DefaultConvolution picked
    std::printf("  launch: %lld workgroups in %d grid rows (groups × row classes)\n",
                static_cast<long long>(chosen.workgroups()), chosen.batches());
  });

  // The reference from the definition, then α, β·C and the bias.
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_conv_dgrad(p, std::as_const(dy).span(), std::as_const(w).span(), reference, &magnitude);
  for (std::int64_t i = 0; i < pixels_in; ++i) {
    for (std::int64_t c = 0; c < p.c; ++c) {
      double const source_term = e.beta * host::to_double(source.at(i, c));
      double const bias_term = e.bias ? host::to_double(bias.at(0, c)) : 0.0;
      reference.at(i, c) = e.alpha * reference.at(i, c) + source_term + bias_term;
      magnitude.at(i, c) = std::fabs(e.alpha) * magnitude.at(i, c) + std::fabs(source_term) + std::fabs(bias_term);
    }
  }
  host::GemmTolerance const tolerance = host::gemm_tolerance<half_t, half_t>(p.implicit_gemm(ConvOperator::kDgrad).k);

  // Each class's pixels gathered into their own matrices and compared: pixel (n, h, w) is in class
  // ((h + pad_h) mod s_h)·s_w + (w + pad_w) mod s_w.
  int const classes = p.stride[1] * p.stride[2];
  bool passed = true;
  for (int cls = 0; cls < classes; ++cls) {
    std::vector<std::int64_t> pixels;  // rows of dx
    for (int n = 0; n < p.n; ++n) {
      for (int h = 0; h < p.input[1]; ++h) {
        for (int x = 0; x < p.input[2]; ++x) {
          int const residue_h = (h + p.pad_before[1]) % p.stride[1];
          int const residue_w = (x + p.pad_before[2]) % p.stride[2];
          if (residue_h * p.stride[2] + residue_w != cls) continue;
          pixels.push_back((std::int64_t(n) * p.input[1] + h) * p.input[2] + x);
        }
      }
    }
    std::int64_t const rows = std::int64_t(pixels.size());
    host::HostMatrix<half_t> got(rows, p.c);
    host::HostMatrix<double> want(rows, p.c);
    host::HostMatrix<double> scale(rows, p.c);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (int c = 0; c < p.c; ++c) {
        got.at(r, c) = dx.at(pixels[r], c);
        want.at(r, c) = reference.at(pixels[r], c);
        scale.at(r, c) = magnitude.at(pixels[r], c);
      }
    }
    host::Comparison const result = host::compare(got, want, scale, tolerance);
    std::printf("  class %d: %lld elements checked, %lld mismatches, %lld unwritten\n", cls,
                static_cast<long long>(result.checked), static_cast<long long>(result.mismatches),
                static_cast<long long>(result.unwritten));
    if (g.dgrad_class(cls).taps == 0 && rows > 0) {  // written by TaplessClassFill
      std::int64_t const pixel = pixels[0];
      std::printf("    no taps, yet written: dx at n=%lld h=%lld w=%lld, channel 0 = %.5f; β·C + bias = %.5f\n",
                  static_cast<long long>(pixel / (p.input[1] * p.input[2])),
                  static_cast<long long>(pixel / p.input[2] % p.input[1]), static_cast<long long>(pixel % p.input[2]),
                  host::to_double(got.at(0, 0)), want.at(0, 0));
    }
    if (!result.passed()) {
      std::printf("    %s\n", host::to_string(result).c_str());
      passed = false;
    }
  }
  return passed;
}

int run_all() {
  std::printf("hiptile 11_conv2d_strided_dgrad (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  // A 3×3 stride-2 layer (ResNet-50's first conv4_x 3×3), scaled down, with odd W so that the
  // classes differ in size. Every class has taps: two or one per dimension.
  ConvProblemSize const strided_3x3 = ConvProblemSize::conv2d(/*n=*/2, /*h=*/14, /*w=*/13, /*c=*/64, /*k=*/32,
                                                              /*r=*/3, /*s=*/3, /*pad_h=*/1, /*pad_w=*/1,
                                                              /*stride_h=*/2, /*stride_w=*/2);
  // ResNet's 1×1 stride-2 shortcut: the stride is larger than the filter, so only the class of even
  // h and even w has a tap; with β = 0.5 and a bias the others hold β·C + bias.
  ConvProblemSize const strided_1x1 = ConvProblemSize::conv2d(/*n=*/2, /*h=*/9, /*w=*/10, /*c=*/32, /*k=*/48,
                                                              /*r=*/1, /*s=*/1, /*pad_h=*/0, /*pad_w=*/0,
                                                              /*stride_h=*/2, /*stride_w=*/2);
  bool passed = run("3×3 stride 2", strided_3x3, {.alpha = 1.0f, .beta = 0.0f, .bias = false});
  passed = run("1×1 stride 2", strided_1x1, {.alpha = 1.0f, .beta = 0.5f, .bias = true}) && passed;

  // Dgrad with stride > 1 and dilation > 1 in the same dimension is refused before anything is
  // read (its classes would need the dilation too): can_implement names the reason.
  ConvProblemSize const dilated = ConvProblemSize::conv2d(1, 14, 14, 64, 64, 3, 3, 2, 2, 2, 2, /*dilation_h=*/2,
                                                          /*dilation_w=*/2);
  hiptile::Status const refused = Dgrad::can_implement({.problem = dilated});
  std::printf("a 3×3 stride-2 dilation-2 Dgrad: can_implement says \"%s\"\n", hiptile::to_string(refused));
  passed = passed && refused == hiptile::Status::kErrorDilatedStridedDgrad;

  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 1) {
    std::printf("usage: %s   (no arguments)\n", argv[0]);
    return 2;
  }
  try {
    return run_all();
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
