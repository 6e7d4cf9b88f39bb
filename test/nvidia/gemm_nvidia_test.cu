// The GEMM templates built with nvcc for sm_90a (mma.sync and wgmma atoms) and run on an NVIDIA GPU: every
// input type × output type × A/B/C layout on ragged shapes against a double-precision host
// reference, D poisoned before each run. Prints "N passed, N failed" and exits non-zero on failure;
// arguments select some of the configurations (selected(), below).
// Run on the lent H100 by scripts/device_gemm.sh; CI has no GPU (label nvidia-run).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hiptile/arch/simt_fma.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using namespace hiptile;
using layout::ColumnMajor;
using layout::RowMajor;

struct Shape {
  int m, n, k, pad;
  int pad_d = 0;  // more elements in each row of D (and C) only: rows 2-, 4- or 8-byte aligned
};

// Which configurations run: those whose name contains the filter text (all when empty), and of
// those every shards-th from shard on, counted in the order main() names them — so that several
// processes can share the suite: gemm_nvidia_test [text [shard shards]].
std::string name_filter;
int shard = 0, shards = 1;
bool selected(char const* name) {
  static int index = 0;
  if (std::string_view(name).find(name_filter) == std::string_view::npos) return false;
  return index++ % shards == shard;
}

std::vector<Shape> const kShapes = {
    {1, 1, 1, 0},       {1, 131, 7, 0},     {67, 1, 40, 8},    {128, 128, 32, 0}, {129, 127, 33, 0},
    {13, 257, 300, 24}, {131, 67, 13, 0},   {200, 61, 97, 40}, {3, 5, 1000, 0},   {256, 130, 64, 1000},
    {1000, 1000, 1000, 0}, {777, 333, 2048, 8}, {200, 61, 97, 0, 1}, {131, 300, 70, 8, 2}, {257, 700, 130, 0, 4},
};
constexpr int kSplitKSlices = 3;  // for the split-K configurations
int stream_k_workgroups = 0;      // for the stream-K configuration: 0 sizes the grid to the device

template <class T>
struct Device {
  T* ptr = nullptr;
  explicit Device(std::vector<T> const& host) {
    void* p = nullptr;
    if (!ok(device_allocate(&p, host.size() * sizeof(T)))) std::abort();
    ptr = static_cast<T*>(p);
    copy_memory(ptr, host.data(), host.size() * sizeof(T), CopyKind::kHostToDevice);
  }
  ~Device() { device_free(ptr); }
  std::vector<T> read(std::size_t n) const {
    std::vector<T> out(n);
    copy_memory(out.data(), ptr, n * sizeof(T), CopyKind::kDeviceToHost);
    return out;
  }
};

std::int64_t padded_ld(std::int64_t min_ld, int pad) { return (min_ld + 7) / 8 * 8 + pad; }

// The relative error of each product from the atom's view of its inputs: tf32 reads 10 of f32's 23
// mantissa bits (truncated: each input within 2^-10, a product within 2·2^-10 + 2^-20); 0 for
// atoms that take their inputs exactly.
template <class Gemm>
constexpr double product_error() {
  if constexpr (requires { typename Gemm::MmaAtomType; }) {
    if constexpr (std::is_same_v<typename Gemm::MmaAtomType, arch::MmaSync16x8x8Tf32>) {
      return 2 * 0x1p-10 + 0x1p-20;
    }
  }
  return 0.0;
}

// The relative error, against the magnitude sum |a·b|, of an 8-bit warpgroup MMA's sum of one
// stage: Hopper's fp8 wgmma keeps about 14 bits of its running sum (DeepSeek-V3 technical report,
// §3.3.2), so one stage's partial sum carries up to 2^-13 of its magnitude before the warp adds it
// into f32 (warpgroup_wave_mma.hpp). Measured here: 3.2e-4 at a magnitude of about 46 (K = 32),
// 2^-17.
template <class Gemm>
constexpr double tensor_core_accumulation_error() {
  if constexpr (requires { Gemm::MmaAtomType::kIsWarpgroupMma; }) {
    if constexpr (sizeof(typename Gemm::ElementA) == 1) return 0x1p-13;
  }
  return 0.0;
}

template <class EA, class LA, class LB, class EC, class LC,
          class Gemm = gemm::device::DefaultGemmConfiguration<EA, LA, EA, LB, EC, LC, arch::Sm90, epilogue::LinearCombination<EC>>>
bool run_case(Shape s, float alpha, float beta) {
  using OutputOp = typename Gemm::OutputOpType;
  std::mt19937 rng(s.m * 7919 + s.n * 31 + s.k);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::int64_t const lda = padded_ld(LA::min_leading_dimension(s.m, s.k), s.pad);
  std::int64_t const ldb = padded_ld(LB::min_leading_dimension(s.k, s.n), s.pad);
  std::int64_t const ldc = padded_ld(LC::min_leading_dimension(s.m, s.n), s.pad) + s.pad_d;
  std::vector<EA> a((LA::kRowMajor ? s.m : s.k) * lda), b((LB::kRowMajor ? s.k : s.n) * ldb);
  std::vector<EC> c((LC::kRowMajor ? s.m : s.n) * ldc), d(c.size(), EC(NAN));
  for (auto& x : a) x = EA(dist(rng));
  for (auto& x : b) x = EA(dist(rng));
  for (auto& x : c) x = EC(dist(rng));
  Device<EA> da(a), db(b);
  Device<EC> dc(c), dd(d);
  typename Gemm::Arguments args{{s.m, s.n, s.k}, {da.ptr, lda}, {db.ptr, ldb}, {dc.ptr, ldc}, {dd.ptr, ldc},
                                typename OutputOp::Params{alpha, beta}};
  host::DeviceBuffer<std::byte> workspace;
  constexpr bool kSelecting = requires(gemm::device::GemmChoice& choice) { Gemm::select(args, choice); };
  if constexpr (kSelecting) {  // DefaultGemm: whatever workspace its choice needs
    args.workspace_bytes = Gemm::get_workspace_size(args);
    workspace = host::DeviceBuffer<std::byte>(args.workspace_bytes);
    args.workspace = workspace.data();
  } else if constexpr (Gemm::kSplitK != gemm::kernel::SplitKMode::kNone) {
    if constexpr (Gemm::kStreamK) {
      args.stream_k_workgroups = stream_k_workgroups;
    } else {
      args.split_k_slices = kSplitKSlices;
    }
    args.workspace_bytes = Gemm::get_workspace_size(args);
    workspace = host::DeviceBuffer<std::byte>(args.workspace_bytes);
    args.workspace = workspace.data();
  }
  Gemm gemm;
  if (Status st = gemm.initialize(args); !ok(st)) {
    std::printf("  initialize: %s\n", to_string(st));
    return false;
  }
  if (Status st = gemm.run(); !ok(st) || !ok(device_synchronize())) {
    std::printf("  run failed: %s\n", last_launch_error().c_str());
    return false;
  }
  d = dd.read(d.size());
  double const u = std::ldexp(1.0, -numeric_limits<EC>::digits);
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      double acc = 0, magnitude = 0;
      for (int k = 0; k < s.k; ++k) {
        double const p = double(float(a[LA::offset(i, k, lda)])) * double(float(b[LB::offset(k, j, ldb)]));
        acc += p;
        magnitude += std::abs(p);
      }
      double const cij = double(float(c[LC::offset(i, j, ldc)]));
      double const ref = alpha * acc + beta * cij;
      magnitude = std::abs(alpha) * magnitude + std::abs(beta * cij);
      double const tol = u * std::abs(ref) + ((s.k + 4) * std::ldexp(1.0, -23) + product_error<Gemm>()) * magnitude +
                         1e-30;
      double const got = double(float(d[LC::offset(i, j, ldc)]));
      if (!(std::abs(got - ref) <= tol)) {
        std::printf("  D[%d][%d] = %g, reference %g, tolerance %g\n", i, j, got, ref, tol);
        return false;
      }
    }
  }
  for (std::size_t idx = 0; idx < d.size(); ++idx) {
    std::int64_t const outer = idx / ldc, inner = idx % ldc;
    bool const inside = LC::kRowMajor ? (outer < s.m && inner < s.n) : (outer < s.n && inner < s.m);
    if (!inside && !std::isnan(float(d[idx]))) {
      std::printf("  wrote outside the problem at %zu\n", idx);
      return false;
    }
  }
  return true;
}

int passed = 0, failed = 0;

// DefaultGemm on the H100 (132 SMs): each shape reaches one rule of shape_heuristic.hpp, whose
// candidate (DefaultGemmCandidates' order) is given; the choice must be it and D right.
void run_default_selection() {
  using Default = gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Sm90>;
  struct Expected {
    Shape shape;
    int candidate;
  };
  // Its candidates on Sm90 for f16 TN (default_gemm.hpp): 0 the 128 × 256 warpgroup-MMA tile,
  // 1 128 × 128 stream-K, 2 the 64 × 128 warpgroup-MMA tile with 8 stages and serial split-K
  // (rule S), 3 and 4 the 128 × 192 and 64 × 128 warpgroup-MMA tiles of rule W (least quantised
  // work). Rules 1 (small M), 3 (short K) and 4 (last wave) have no candidate there.
  Expected const table[] = {
      {{1, 4096, 1000, 0}, 2},     // M ≤ 128: 32 tiles of 64 × 128, 4 slices
      {{48, 1000, 3000, 8}, 2},    // 8 tiles, 16 slices
      {{100, 11008, 512, 0}, 2},   // 172 tiles: one slice (data-parallel)
      {{1000, 1000, 512, 0}, 4},   // 32 large tiles, under half of 132, but 128 of 64 × 128: one wave, rule W
      {{256, 256, 8192, 0}, 2},    // 2 large tiles: 8 of 64 × 128, 16 slices
      {{3000, 1500, 256, 0}, 3},   // 144 large tiles in 2 waves, 192 of 128 × 192 in 2: a quarter less work
      {{3000, 1500, 1088, 8}, 3},  // the same with K of 17 tiles and padded rows
      {{1536, 1536, 1040, 0}, 3},  // 72 large tiles in one wave, 96 of 128 × 192 in one
      {{2048, 2048, 256, 0}, 0},   // 128 large tiles in one wave: 128 × 192 would take 2
  };
  for (Expected const& e : table) {
    Shape const& s = e.shape;
    std::int64_t const lda = padded_ld(s.k, s.pad), ldb = lda, ldd = padded_ld(s.n, s.pad);
    Default::Arguments args{{s.m, s.n, s.k}, {reinterpret_cast<half_t const*>(64), lda},
                            {reinterpret_cast<half_t const*>(64 + 16 * lda * s.m), ldb}, {},
                            {reinterpret_cast<half_t*>(64 + 16 * (lda * s.m + ldb * s.n)), ldd}, {1.0f, 0.0f}};
    gemm::device::GemmChoice choice;  // (select() checks the arguments, never reads them)
    bool good = ok(Default::preferred(args, choice)) && choice.candidate == e.candidate;
    if (!good) std::printf("  DefaultGemm chose candidate %d, not %d\n", choice.candidate, e.candidate);
    good = run_case<half_t, RowMajor, ColumnMajor, half_t, RowMajor, Default>(s, 1.0f, 0.5f) && good;
    (good ? passed : failed)++;
    std::printf("%s DefaultGemm M=%d N=%d K=%d: %dx%dx%d %s\n", good ? "passed" : "FAILED", s.m, s.n, s.k,
                choice.tile_m, choice.tile_n, choice.tile_k, to_string(choice.reason));
  }
}

template <class EA, class LA, class LB, class EC, class LC,
          class Gemm = gemm::device::DefaultGemmConfiguration<EA, LA, EA, LB, EC, LC, arch::Sm90, epilogue::LinearCombination<EC>>>
void run_config(char const* name) {
  if (!selected(name)) return;
  for (Shape const& s : kShapes) {
    for (auto [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{-1.5f, 0.75f}}) {
      bool const good = run_case<EA, LA, LB, EC, LC, Gemm>(s, alpha, beta);
      (good ? passed : failed)++;
      if (!good) {
        std::printf("FAILED %s M=%d N=%d K=%d pad=%d pad_d=%d alpha=%g beta=%g\n", name, s.m, s.n, s.k, s.pad, s.pad_d,
                    alpha, beta);
      }
    }
  }
}

// An 8-bit GEMM (A row-major, B column-major, D row-major) on shape s: A and B random over
// [-range, range] of their types, D = alpha · A·B against host::reference_gemm with the tolerance
// of the types (exact for an int32 D), D poisoned first.
template <class Gemm>
void run_type_config(char const* name, double range, float alpha) {
  if (!selected(name)) return;
  using EA = typename Gemm::ElementA;
  using EB = typename Gemm::ElementB;
  using EC = typename Gemm::ElementC;
  for (Shape const& s : kShapes) {
    auto const ld = [&](std::int64_t min, int bytes) {
      std::int64_t const v = 16 / bytes;
      return (min + v - 1) / v * v + (s.pad + v - 1) / v * v;
    };
    host::HostMatrix<EA, RowMajor> a(s.m, s.k, ld(s.k, sizeof(EA)));
    host::HostMatrix<EB, ColumnMajor> b(s.k, s.n, ld(s.k, sizeof(EB)));
    host::HostMatrix<EC, RowMajor> d(s.m, s.n, ld(s.n, sizeof(EC)));
    host::fill_random(a, s.m * 31 + s.k, -range, range);
    host::fill_random(b, s.n * 17 + s.k, -range, range);
    host::poison(d);
    host::DeviceBuffer<EA> da(std::span<EA const>(a.span()));
    host::DeviceBuffer<EB> db(std::span<EB const>(b.span()));
    host::DeviceBuffer<EC> dd(std::span<EC const>(d.span()));
    typename Gemm::Arguments args{{s.m, s.n, s.k}, {da.data(), a.ld()}, {db.data(), b.ld()}, {}, {dd.data(), d.ld()}};
    if constexpr (requires { args.output_op.alpha; }) args.output_op.alpha = alpha;
    double const reference_alpha = std::is_integral_v<EC> ? 1.0 : alpha;
    Gemm gemm;
    bool good = ok(gemm.initialize(args)) && ok(gemm.run()) && ok(device_synchronize());
    if (good) {
      dd.copy_to_host(d.span());
      host::HostMatrix<double> reference, magnitude;
      host::reference_gemm({s.m, s.n, s.k}, reference_alpha, a, b, 0.0, host::HostMatrix<EC, RowMajor>{}, reference,
                           &magnitude);
      // An int32 D from IntegerOutput must be exact (no fp32 step in between): within 0.5.
      host::GemmTolerance tolerance =
          std::is_integral_v<EC> ? host::GemmTolerance{0.0, 0.0, 0.5} : host::gemm_tolerance<EA, EC>(s.k);
      tolerance.accumulation_relative += tensor_core_accumulation_error<Gemm>();
      host::Comparison const c = host::compare(d, reference, magnitude, tolerance);
      good = c.passed();
      if (!good) std::printf("  %s\n", host::to_string(c).c_str());
    } else {
      std::printf("  run failed: %s\n", last_launch_error().c_str());
    }
    (good ? passed : failed)++;
    if (!good) std::printf("FAILED %s M=%d N=%d K=%d pad=%d\n", name, s.m, s.n, s.k, s.pad);
  }
}

}  // namespace

// GroupedGemmOf<G>: every shape of kShapes as one group of a single launch, with empty groups
// (M = 0, N = 0) between them, on `workgroups` persistent workgroups (0: the device's); each
// group's D against the reference (A row-major, B column-major, D row-major, f16).
template <class G>
void run_grouped_config(char const* name, int workgroups) {
  if (!selected(name)) return;
  using Grouped = gemm::device::GroupedGemmOf<G>;
  using EC = typename G::ElementC;
  float const alpha = -1.5f, beta = 0.75f;
  struct Group {
    Shape s;
    std::int64_t lda, ldb, ldd;
    std::vector<half_t> a, b;
    std::vector<EC> c, d;
    host::DeviceBuffer<half_t> da, db;
    host::DeviceBuffer<EC> dc, dd;
  };
  std::vector<Shape> shapes;
  for (Shape const& s : kShapes) {
    shapes.push_back(s);
    shapes.push_back(shapes.size() % 4 == 1 ? Shape{0, 64, 32, 0} : Shape{16, 0, 8, 0});
  }
  std::vector<Group> groups(shapes.size());
  std::vector<typename Grouped::GroupArguments> arguments;
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (std::size_t g = 0; g < shapes.size(); ++g) {
    Group& x = groups[g];
    x.s = shapes[g];
    x.lda = padded_ld(x.s.k, x.s.pad);
    x.ldb = padded_ld(x.s.k, x.s.pad);
    x.ldd = padded_ld(x.s.n, x.s.pad);
    x.a.resize(std::size_t(x.s.m) * x.lda);
    x.b.resize(std::size_t(x.s.n) * x.ldb);
    x.c.resize(std::size_t(x.s.m) * x.ldd);
    x.d.assign(x.c.size(), EC(NAN));
    for (auto* v : {&x.a, &x.b}) {
      for (auto& e : *v) e = half_t(dist(rng));
    }
    for (auto& e : x.c) e = EC(dist(rng));
    x.da = host::DeviceBuffer<half_t>(std::span<half_t const>(x.a));
    x.db = host::DeviceBuffer<half_t>(std::span<half_t const>(x.b));
    x.dc = host::DeviceBuffer<EC>(std::span<EC const>(x.c));
    x.dd = host::DeviceBuffer<EC>(std::span<EC const>(x.d));
    arguments.push_back({{x.s.m, x.s.n, x.s.k}, {x.da.data(), x.lda}, {x.db.data(), x.ldb}, {x.dc.data(), x.ldd},
                         {x.dd.data(), x.ldd}, {alpha, beta}});
  }
  typename Grouped::Arguments args{int(arguments.size()), arguments.data(), workgroups};
  host::DeviceBuffer<std::byte> workspace(Grouped::get_workspace_size(args));
  args.workspace = workspace.data();
  args.workspace_bytes = workspace.size();
  Grouped op;
  Status st = op.initialize(args);
  if (ok(st)) st = op.run();
  if (!ok(st) || !ok(device_synchronize())) {
    std::printf("FAILED %s: %s %s\n", name, to_string(st), last_launch_error().c_str());
    ++failed;
    return;
  }
  double const u = std::ldexp(1.0, -numeric_limits<EC>::digits);
  for (Group& x : groups) {
    Shape const s = x.s;
    if (x.dd.size() > 0) x.d = x.dd.copy_to_host();
    bool good = true;
    for (int i = 0; i < s.m && good; ++i) {
      for (int j = 0; j < s.n && good; ++j) {
        double acc = 0, magnitude = 0;
        for (int k = 0; k < s.k; ++k) {
          double const p = double(float(x.a[i * x.lda + k])) * double(float(x.b[j * x.ldb + k]));
          acc += p;
          magnitude += std::abs(p);
        }
        double const cij = double(float(x.c[i * x.ldd + j]));
        double const ref = alpha * acc + beta * cij;
        double const tol = u * std::abs(ref) + (s.k + 4) * std::ldexp(1.0, -23) * (std::abs(alpha) * magnitude + std::abs(beta * cij));
        double const got = double(float(x.d[i * x.ldd + j]));
        if (!(std::abs(got - ref) <= tol)) {
          std::printf("  D[%d][%d] = %g, reference %g\n", i, j, got, ref);
          good = false;
        }
      }
    }
    for (std::size_t idx = 0; idx < x.d.size() && good; ++idx) {
      if (std::int64_t(idx % x.ldd) >= s.n && !std::isnan(float(x.d[idx]))) good = false;
    }
    (good ? passed : failed)++;
    if (!good) std::printf("FAILED %s group M=%d N=%d K=%d\n", name, s.m, s.n, s.k);
  }
}

// Strided batched G (A row-major, B column-major, D row-major, f16): 3 batches of each shape of
// kShapes, stacked with gaps between batches, B broadcast on every other shape and D's batches side
// by side within its leading dimension on the others; every batch against the reference.
template <class G>
void run_batched_config(char const* name) {
  if (!selected(name)) return;
  using EC = typename G::ElementC;
  float const alpha = 1.25f, beta = -0.5f;
  int const batches = 3;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (std::size_t index = 0; index < kShapes.size(); ++index) {
    Shape const s = kShapes[index];
    bool const broadcast_b = index % 2 == 0;
    std::int64_t const lda = padded_ld(s.k, s.pad), ldb = padded_ld(s.k, s.pad), ldc = padded_ld(s.n, s.pad);
    std::int64_t const ldd = broadcast_b ? ldc : batches * std::int64_t(s.n) + 8;
    std::int64_t const stride_a = s.m * lda + 8, stride_b = broadcast_b ? 0 : s.n * ldb + 8, stride_c = s.m * ldc + 1;
    std::int64_t const stride_d = broadcast_b ? s.m * ldd + 3 : s.n;
    std::vector<half_t> a(stride_a * batches), b(broadcast_b ? s.n * ldb : stride_b * batches);
    std::vector<EC> c(stride_c * batches), d(broadcast_b ? stride_d * batches : s.m * ldd, EC(NAN));
    for (auto& x : a) x = half_t(dist(rng));
    for (auto& x : b) x = half_t(dist(rng));
    for (auto& x : c) x = EC(dist(rng));
    Device<half_t> da(a), db(b);
    Device<EC> dc(c), dd(d);
    typename G::Arguments args{{s.m, s.n, s.k}, {da.ptr, lda}, {db.ptr, ldb}, {dc.ptr, ldc}, {dd.ptr, ldd},
                               {alpha, beta}};
    args.batch_count = batches;
    args.batch_stride_a = stride_a;
    args.batch_stride_b = stride_b;
    args.batch_stride_c = stride_c;
    args.batch_stride_d = stride_d;
    host::DeviceBuffer<std::byte> workspace;
    if constexpr (G::kParallelSplitK) {
      args.split_k_slices = kSplitKSlices;
      workspace = host::DeviceBuffer<std::byte>(G::get_workspace_size(args));
      args.workspace = workspace.data();
      args.workspace_bytes = workspace.size();
    }
    G gemm;
    Status st = gemm.initialize(args);
    if (ok(st)) st = gemm.run();
    if (!ok(st) || !ok(device_synchronize())) {
      std::printf("FAILED %s M=%d N=%d K=%d: %s %s\n", name, s.m, s.n, s.k, to_string(st), last_launch_error().c_str());
      ++failed;
      continue;
    }
    d = dd.read(d.size());
    std::vector<bool> owned(d.size(), false);
    double const u = std::ldexp(1.0, -numeric_limits<EC>::digits);
    bool good = true;
    for (int batch = 0; batch < batches && good; ++batch) {
      for (int i = 0; i < s.m && good; ++i) {
        for (int j = 0; j < s.n && good; ++j) {
          double acc = 0, magnitude = 0;
          for (int k = 0; k < s.k; ++k) {
            double const p = double(float(a[batch * stride_a + i * lda + k])) * double(float(b[batch * stride_b + j * ldb + k]));
            acc += p;
            magnitude += std::abs(p);
          }
          double const cij = double(float(c[batch * stride_c + i * ldc + j]));
          double const ref = alpha * acc + beta * cij;
          double const tol = u * std::abs(ref) + (s.k + 4) * std::ldexp(1.0, -23) * (std::abs(alpha) * magnitude + std::abs(beta * cij));
          std::int64_t const at = batch * stride_d + i * ldd + j;
          owned[at] = true;
          double const got = double(float(d[at]));
          if (!(std::abs(got - ref) <= tol)) {
            std::printf("  batch %d D[%d][%d] = %g, reference %g\n", batch, i, j, got, ref);
            good = false;
          }
        }
      }
    }
    for (std::size_t i = 0; i < d.size() && good; ++i) good = owned[i] || std::isnan(float(d[i]));
    (good ? passed : failed)++;
    if (!good) std::printf("FAILED %s M=%d N=%d K=%d pad=%d\n", name, s.m, s.n, s.k, s.pad);
  }
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines survive a run that is stopped
  if (argc > 1) name_filter = argv[1];
  if (argc > 3) shard = std::atoi(argv[2]), shards = std::max(1, std::atoi(argv[3]));
  if (selected("default selection")) run_default_selection();
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor>("f16 TN -> f16");
  run_config<half_t, RowMajor, RowMajor, half_t, RowMajor>("f16 TT -> f16");
  run_config<half_t, ColumnMajor, ColumnMajor, float, RowMajor>("f16 NN -> f32");
  run_config<half_t, ColumnMajor, RowMajor, half_t, ColumnMajor>("f16 NT -> f16 col");
  run_config<bfloat16_t, RowMajor, ColumnMajor, bfloat16_t, RowMajor>("bf16 TN -> bf16");
  run_config<bfloat16_t, ColumnMajor, RowMajor, float, RowMajor>("bf16 NT -> f32");
  // The layouts above take warpgroup MMAs by default (MN-contiguous stages read with the transpose
  // bit); also through DefaultGemm's choice, on the 64-row tile, and as mma.sync transposing
  // through registers.
  run_config<half_t, ColumnMajor, RowMajor, half_t, RowMajor,
             gemm::device::DefaultGemm<half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor, arch::Sm90>>(
      "f16 NN -> f16, DefaultGemm");
  run_config<half_t, ColumnMajor, ColumnMajor, half_t, RowMajor,
             gemm::device::Gemm<half_t, ColumnMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                GemmShape<64, 128, 64>, GemmShape<16, 128, 64>, arch::WarpgroupMma<half_t>,
                                epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4>>(
      "f16 A col, B col -> f16, wgmma 64x128");
  run_config<half_t, ColumnMajor, RowMajor, half_t, RowMajor,
             gemm::device::Gemm<half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor, float, arch::Sm90,
                                GemmShape<256, 128, 64>, GemmShape<64, 64, 64>, arch::MmaSync16x8x16F16,
                                epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4>>(
      "f16 NN -> f16, mma.sync 256x128");
  // The same templates with the SIMT FMA atom (one fp32 FMA per lane) instead of mma.sync.
  using SimtGemm = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                      GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, arch::SimtFma<half_t, 32>,
                                      epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 3>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, SimtGemm>("f16 TN -> f16, SIMT FMA atom");
  // f32 inputs multiplied as tf32 (mma.sync m16n8k8), K-contiguous A and B, f32 and f16 D.
  using Tf32Gemm = gemm::device::Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor, float, arch::Sm90,
                                      GemmShape<256, 128, 32>, GemmShape<64, 64, 32>, arch::MmaSync16x8x8Tf32,
                                      epilogue::LinearCombination<float>, gemm::kernel::GroupedTileOrder<8>, 4>;
  run_config<float, RowMajor, ColumnMajor, float, RowMajor, Tf32Gemm>("f32 TN -> f32, tf32 mma.sync");
  using Tf32ToF16 = gemm::device::Gemm<float, RowMajor, float, ColumnMajor, half_t, ColumnMajor, float, arch::Sm90,
                                       GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, arch::MmaSync16x8x8Tf32,
                                       epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 3>;
  run_config<float, RowMajor, ColumnMajor, half_t, ColumnMajor, Tf32ToF16>("f32 TN -> f16 col, tf32 mma.sync, 128x128");
  // MN-contiguous f32 operands: the transposing register-staged loader, one k per shared-memory word.
  using Tf32NT = gemm::device::Gemm<float, ColumnMajor, float, RowMajor, float, RowMajor, float, arch::Sm90,
                                    GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, arch::MmaSync16x8x8Tf32,
                                    epilogue::LinearCombination<float>, gemm::kernel::GroupedTileOrder<8>, 3>;
  run_config<float, ColumnMajor, RowMajor, float, RowMajor, Tf32NT>("f32 NT -> f32, tf32 mma.sync");
  // A second cp.async configuration: K tiles of 32 (two m16n8k16 steps, the least the fragment
  // double-buffering takes), 4 warps, 3 stages, f32 output through the staged epilogue.
  using SmallTileGemm = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, float, RowMajor, float, arch::Sm90,
                                           GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, arch::MmaSync16x8x16F16,
                                           epilogue::LinearCombination<float>, gemm::kernel::GroupedTileOrder<8>, 3>;
  run_config<half_t, RowMajor, ColumnMajor, float, RowMajor, SmallTileGemm>("f16 TN -> f32, 128x128x32 tile");
  // A tile of three quarters of the default's area (benchmark/gemm_nvidia.cu), 8 warps of 48 x 64.
  using Tile192x128 = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                         GemmShape<192, 128, 64>, GemmShape<48, 64, 64>, arch::MmaSync16x8x16F16,
                                         epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, Tile192x128>("f16 TN -> f16, 192x128 tile");
  // Warpgroup MMAs (wgmma): 128 x 128 and 128 x 256 tiles of 16-row warps, four per instruction.
  using Wgmma128x128 = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                          GemmShape<128, 128, 64>, GemmShape<16, 128, 64>, arch::WarpgroupMma<half_t>,
                                          epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4>;
  using Wgmma128x256 = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                          GemmShape<128, 256, 64>, GemmShape<16, 256, 64>, arch::WarpgroupMma<half_t>,
                                          epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4>;
  using WgmmaBf16 = gemm::device::Gemm<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, float, RowMajor, float,
                                       arch::Sm90, GemmShape<256, 128, 64>, GemmShape<16, 128, 64>,
                                       arch::WarpgroupMma<bfloat16_t>, epilogue::LinearCombination<float>,
                                       gemm::kernel::GroupedTileOrder<8>, 4>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, Wgmma128x128>("f16 TN -> f16, wgmma 128x128");
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, Wgmma128x256>("f16 TN -> f16, wgmma 128x256");
  run_config<bfloat16_t, RowMajor, ColumnMajor, float, RowMajor, WgmmaBf16>("bf16 TN -> f32, wgmma 256x128");
  // DefaultGemmConfiguration with split-K over kSplitKSlices slices: serial (semaphores) and parallel (reduction).
  using Base = gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Sm90,
                                         epilogue::LinearCombination<half_t>>;
  using gemm::kernel::SplitKMode;
  using SerialGemm = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                        Base::TileShapeType, Base::WaveShapeType, Base::MmaAtomType,
                                        Base::OutputOpType, Base::TileOrderType, Base::kStages, SplitKMode::kSerial>;
  using ParallelGemm = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                          Base::TileShapeType, Base::WaveShapeType, Base::MmaAtomType,
                                          Base::OutputOpType, Base::TileOrderType, Base::kStages,
                                          SplitKMode::kParallel>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, SerialGemm>("f16 TN -> f16, serial split-K");
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, ParallelGemm>("f16 TN -> f16, parallel split-K");
  // DefaultGemm's rule-S tile: 64 × 128, one warpgroup, 8 stages, serial split-K.
  using SlicedGemm = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                        GemmShape<64, 128, 64>, GemmShape<16, 128, 64>, arch::WarpgroupMma<half_t>,
                                        epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 8,
                                        SplitKMode::kSerial>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, SlicedGemm>("f16 TN -> f16, wgmma 64x128, serial split-K");
  // Stream-K on the H100's SMs (queried), then on 7 workgroups so that the small shapes share tiles too.
  using StreamKGemm = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                         Base::TileShapeType, Base::WaveShapeType, Base::MmaAtomType,
                                         Base::OutputOpType, Base::TileOrderType, Base::kStages, SplitKMode::kStreamK>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, StreamKGemm>("f16 TN -> f16, stream-K on the device");
  stream_k_workgroups = 7;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, StreamKGemm>("f16 TN -> f16, stream-K on 7 workgroups");
  // The small-M tiles of benchmark/gemm_nvidia.cu (16 and 32 rows, 4 warps), stream-K on the device.
  stream_k_workgroups = 0;
  using SmallM16 = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                      GemmShape<16, 128, 64>, GemmShape<16, 32, 64>, arch::MmaSync16x8x16F16,
                                      epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4,
                                      SplitKMode::kStreamK>;
  using SmallM32 = gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90,
                                      GemmShape<32, 128, 64>, GemmShape<32, 32, 64>, arch::MmaSync16x8x16F16,
                                      epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 4,
                                      SplitKMode::kStreamK>;
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, SmallM16>("f16 TN -> f16, 16x128 tile, stream-K");
  run_config<half_t, RowMajor, ColumnMajor, half_t, RowMajor, SmallM32>("f16 TN -> f16, 32x128 tile, stream-K");
  // 8-bit inputs with warpgroup MMAs (DefaultGemmConfiguration: int8 128×256×128, fp8 128×128×128):
  // int8 → int32 exactly (sums past 2^24 on the long-K shapes), int8 → f16, and the OCP fp8 formats
  // into f16, f32 and e4m3. int8 also on the 64-row warpgroup tile (cp.async loaders), through
  // DefaultGemm's choice, and with the m16n8k32 mma.sync atoms it takes where an operand is
  // MN-contiguous.
  run_type_config<gemm::device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor,
                                            arch::Sm90>>("i8 x i8 -> i32 (IntegerOutput)", 127.0, 1.0f);
  run_type_config<gemm::device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, half_t, RowMajor,
                                            arch::Sm90>>("i8 x i8 -> f16", 127.0, 0.001f);
  run_type_config<gemm::device::Gemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor, std::int32_t,
                                     arch::Sm90, GemmShape<64, 128, 128>, GemmShape<16, 128, 128>,
                                     arch::WarpgroupMma<std::int8_t>, epilogue::IntegerOutput<std::int32_t>,
                                     gemm::kernel::GroupedTileOrder<8>, 4>>("i8 x i8 -> i32, wgmma 64x128", 127.0, 1.0f);
  run_type_config<gemm::device::DefaultGemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor,
                                            arch::Sm90>>("i8 x i8 -> i32, DefaultGemm", 127.0, 1.0f);
  run_type_config<gemm::device::Gemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor, std::int32_t,
                                     arch::Sm90, GemmShape<256, 128, 128>, GemmShape<64, 64, 128>, arch::MmaSync16x8x32S8,
                                     epilogue::IntegerOutput<std::int32_t>, gemm::kernel::GroupedTileOrder<8>, 4>>(
      "i8 x i8 -> i32, mma.sync 256x128", 127.0, 1.0f);
  run_type_config<gemm::device::DefaultGemmConfiguration<float8_e4m3fn, RowMajor, float8_e4m3fn, ColumnMajor, half_t, RowMajor,
                                            arch::Sm90>>("e4m3 x e4m3 -> f16 (ScaledLinearCombination)", 2.0, 1.5f);
  run_type_config<gemm::device::DefaultGemmConfiguration<float8_e4m3fn, RowMajor, float8_e5m2, ColumnMajor, float, RowMajor,
                                            arch::Sm90>>("e4m3 x e5m2 -> f32", 2.0, -0.5f);
  run_type_config<gemm::device::DefaultGemmConfiguration<float8_e5m2, RowMajor, float8_e5m2, ColumnMajor, float8_e4m3fn,
                                            RowMajor, arch::Sm90>>("e5m2 x e5m2 -> e4m3", 0.5, 0.25f);
  // Grouped GEMM: the default configuration and the 4-warp 128 x 128 tile, on the device's
  // workgroups and on 5, so that each workgroup walks many groups.
  run_grouped_config<Base>("f16 TN -> f16, grouped", 0);
  run_grouped_config<Base>("f16 TN -> f16, grouped on 5 workgroups", 5);
  run_grouped_config<SmallTileGemm>("f16 TN -> f32, 128x128x32 tile, grouped", 0);
  // Strided batched: the default (cp.async loaders, staged epilogue), the 4-warp tile with an f32
  // D, and parallel split-K (its reduction runs per batch).
  run_batched_config<Base>("f16 TN -> f16, batched");
  run_batched_config<SmallTileGemm>("f16 TN -> f32, 128x128x32 tile, batched");
  run_batched_config<ParallelGemm>("f16 TN -> f16, parallel split-K, batched");
  // The default's tensor copies (cuTensorMapEncodeTiled) take strides below 2^40 bytes: the row
  // pitch, and for one batch the rows' span (the map's third stride). A of M rows one pitch apart,
  // either side of each limit. can_implement reads no memory, so the pointers are addresses only,
  // far enough apart that no operand overlaps another.
  if (selected("f16 TN -> f16, tensor copies: stride limits")) {
    auto const at = [](int shift) { return reinterpret_cast<half_t*>(std::uintptr_t{1} << shift); };
    struct Limit {
      int m;
      std::int64_t ld;
      Status expected;
    };
    for (Limit const limit : {Limit{1, (std::int64_t{1} << 39) - 8, Status::kSuccess},
                              Limit{1, std::int64_t{1} << 39, Status::kErrorOperandTooLarge},
                              Limit{2, (std::int64_t{1} << 38) - 8, Status::kSuccess},
                              Limit{2, std::int64_t{1} << 38, Status::kErrorOperandTooLarge}}) {
      Base::Arguments args{{limit.m, 64, 64}, {at(20), limit.ld}, {at(44), 64}, {}, {at(45), 64}};
      Status const got = Base::can_implement(args);
      bool const good = got == limit.expected;
      (good ? passed : failed)++;
      if (!good) {
        std::printf("FAILED tensor copies, M = %d, ld = %lld: %s\n", limit.m, static_cast<long long>(limit.ld),
                    to_string(got));
      }
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
