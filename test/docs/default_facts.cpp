// default_facts: prints, one `key value` line each, what the shipped default configurations are —
// tile, wave tile, atom, threads, stages, LDS bytes and LDS layouts of DefaultGemmConfiguration,
// DefaultGemm's candidates and DefaultConvolutionConfiguration (and how many candidates
// DefaultConvolution has) on gfx942, gfx90a, Sm80 and Sm90 — read from the headers' own types, and what the simulator counts for one 256^3 launch of the gfx942 default.
// doc_numbers_test.py compares the numbers README.md and docs/ give with these lines, so a changed
// default fails that test until the docs say the same.
//
// Keys: gemm.<arch>.<types>.<A, B layouts: r/c>.<fact>; <that>.candidate<i>.<fact> for DefaultGemm's
// candidates; <that>.sim256.<counter>, <that>.stream_k.<problem>.<fact> and three_stages for
// docs/gemm.md's worked examples; conv.<arch>[.f32].<operator>.<fact>;
// depthwise.gfx9.<operator>.<fact>. A value is the rest of the line (one token but for `name` and
// `tile_text`).
#include <cxxabi.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/conv_log.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/direct/depthwise_kernel.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_mn_lds_layout.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/nvidia.hpp"  // the NVIDIA configurations, read on the host
#include "hiptile/platform/device_query.hpp"
#include "hiptile/sim/stream.hpp"
#include "hiptile/tune/tuned_operator.hpp"

namespace {

namespace arch = hiptile::arch;
namespace block = hiptile::gemm::block;
namespace device = hiptile::gemm::device;
using hiptile::bfloat16_t;
using hiptile::float8_e4m3fn;
using hiptile::float8_e4m3fnuz;
using hiptile::half_t;
using hiptile::conv::ConvOperator;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

// The name of an LDS layout template, as the docs spell it. A layout this does not know stops the
// build here: add it, and to the docs' table if they describe it.
template <class Layout>
struct LdsLayoutName {
  static_assert(sizeof(Layout) == 0, "default_facts.cpp: name this LDS layout in LdsLayoutName");
};
template <class E, int MN, int K>
struct LdsLayoutName<block::PackedLdsLayout<E, MN, K>> {
  static constexpr char const* kName = "PackedLdsLayout";
};
template <class E, int MN, int K>
struct LdsLayoutName<block::SwizzledLdsLayout<E, MN, K>> {
  static constexpr char const* kName = "SwizzledLdsLayout";
};
template <class E, int MN, int K>
struct LdsLayoutName<block::SwizzledMnLdsLayout<E, MN, K>> {
  static constexpr char const* kName = "SwizzledMnLdsLayout";
};

// The name of a tile order, as the docs spell it.
template <class Order>
struct TileOrderName {
  static std::string name() { return "RowMajorTileOrder"; }
  static_assert(std::is_same_v<Order, hiptile::gemm::kernel::RowMajorTileOrder>,
                "default_facts.cpp: name this tile order in TileOrderName");
};
template <int G>
struct TileOrderName<hiptile::gemm::kernel::GroupedTileOrder<G>> {
  static std::string name() { return "GroupedTileOrder<" + std::to_string(G) + ">"; }
};
template <class Inner, int X>
struct TileOrderName<hiptile::gemm::kernel::XcdRemap<Inner, X>> {
  static std::string name() { return "XcdRemap<" + TileOrderName<Inner>::name() + ", " + std::to_string(X) + ">"; }
};

// A type's name as the docs spell it: unqualified, without template arguments
// ("Mfma32x32x8F16", "WarpgroupMma").
template <class T>
std::string type_name() {
  int status = 0;
  char* demangled = abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status);
  std::string name = status == 0 && demangled ? demangled : typeid(T).name();
  std::free(demangled);
  name = name.substr(0, name.find('<'));
  std::size_t const colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

template <class Shape>
std::string shape_text() {
  return std::to_string(Shape::kM) + "x" + std::to_string(Shape::kN) + "x" + std::to_string(Shape::kK);
}

void print(std::string const& key, std::string const& value) { std::printf("%s %s\n", key.c_str(), value.c_str()); }
void print(std::string const& key, long long value) { print(key, std::to_string(value)); }

// What a GEMM or convolution configuration C is, under `key`. lds_bytes is what the kernel launches
// with: the larger of the mainloop's (stage_lds_bytes: the stages and, on NVIDIA, their barriers)
// and the epilogue's staging, which reuses it (kernel/kernel_lds.hpp); stages_bytes is the stages
// alone.
template <class C>
void print_configuration(std::string const& key) {
  using Arch = typename C::ArchTag;
  print(key + ".tile", shape_text<typename C::TileShapeType>());
  print(key + ".wave", shape_text<typename C::WaveShapeType>());
  print(key + ".atom", device::detail::atom_text<typename C::MmaAtomType>());
  print(key + ".atom_type", type_name<typename C::MmaAtomType>());
  print(key + ".threads", C::kThreads);
  print(key + ".waves", C::kThreads / Arch::kWaveSize);
  print(key + ".stages", C::kStages);
  print(key + ".lds_bytes", static_cast<long long>(C::kLdsBytes));
  print(key + ".stage_lds_bytes", static_cast<long long>(C::Mainloop::kLdsBytes));
  print(key + ".params_bytes", static_cast<long long>(sizeof(typename C::Kernel::Params)));  // the kernel's arguments
  using LayoutA = typename C::LoaderA::LdsLayout;
  using LayoutB = typename C::LoaderB::LdsLayout;
  print(key + ".lds_layout_a", LdsLayoutName<LayoutA>::kName);
  print(key + ".lds_layout_b", LdsLayoutName<LayoutB>::kName);
  print(key + ".lds_layout_a_bytes", static_cast<long long>(LayoutA::kBytes));
  print(key + ".lds_layout_b_bytes", static_cast<long long>(LayoutB::kBytes));
  print(key + ".stage_bytes", static_cast<long long>(LayoutA::kBytes + LayoutB::kBytes));
  print(key + ".stages_bytes", static_cast<long long>(C::kStages * (LayoutA::kBytes + LayoutB::kBytes)));
  // Workgroups one compute unit holds (the simulator's count: 32 waves, 64 KiB of LDS; sizes
  // stream-K's grid and DefaultGemm's slots). Only for wave64 (gfx9) configurations.
  if constexpr (Arch::kWaveSize == 64) {
    int resident = 0;
    if (hiptile::ok(hiptile::query_resident_workgroups<typename C::Kernel>(unsigned(C::kThreads), C::kLdsBytes,
                                                                           resident))) {
      print(key + ".resident_per_cu", resident);
    }
    std::int64_t slots = 0;  // on the simulated MI300X's 304 CUs
    if (hiptile::ok(hiptile::query_device_workgroups<typename C::Kernel>(unsigned(C::kThreads), C::kLdsBytes, slots))) {
      print(key + ".slots", static_cast<long long>(slots));
    }
  }
}

template <class G>
void print_gemm(std::string const& key) {
  print_configuration<G>(key);
  print(key + ".tile_order", TileOrderName<typename G::TileOrderType>::name());
  print(key + ".schedule", hiptile::gemm::kernel::to_string(G::kSplitK));
  print(key + ".name", device::configuration_name<G>());
  print(key + ".tile_text", device::tile_text<G>());
}

// DefaultGemmConfiguration<EA, LA, EB, LB, EC, RowMajor, Arch> under gemm.<arch>.<types>.<layouts>.
template <class EA, class LA, class EB, class LB, class EC, class Arch>
void print_default_gemm(std::string const& key) {
  print_gemm<device::DefaultGemmConfiguration<EA, LA, EB, LB, EC, RowMajor, Arch>>(key);
}

// DefaultGemm's candidates, under <key>.candidate<i>.
template <class Selecting, std::size_t... I>
void print_candidates(std::string const& key, std::index_sequence<I...>) {
  print(key + ".candidates", Selecting::kCandidates);
  (print_gemm<typename Selecting::template Candidate<int(I)>>(key + ".candidate" + std::to_string(I)), ...);
}
template <class EA, class LA, class EB, class LB, class EC, class Arch>
void print_default_gemm_candidates(std::string const& key) {
  using Selecting = device::DefaultGemm<EA, LA, EB, LB, EC, RowMajor, Arch>;
  print_candidates<Selecting>(key, std::make_index_sequence<std::size_t(Selecting::kCandidates)>{});
}

template <ConvOperator Op, class Element, class Arch>
void print_default_conv(std::string const& key) {
  using C = hiptile::conv::device::DefaultConvolutionConfiguration<Op, Element, Element, Arch>;
  print_configuration<C>(key);
  print(key + ".candidates", hiptile::conv::device::DefaultConvolution<Op, Element, Element, Arch>::kCandidates);
  print(key + ".name", hiptile::conv::device::conv_configuration_name<C>());
  print(key + ".tile_text", device::tile_text<C>());
}

template <class Element, class Arch>
void print_default_convs(std::string const& key) {
  print_default_conv<ConvOperator::kFprop, Element, Arch>(key + ".fprop");
  print_default_conv<ConvOperator::kDgrad, Element, Arch>(key + ".dgrad");
  print_default_conv<ConvOperator::kWgrad, Element, Arch>(key + ".wgrad");
}

// What the simulator counts for one launch of Gemm on M = N = K = 256 (A row-major, B
// column-major), under <key>.sim256.<counter>: docs/gemm.md's counter table and the figures
// examples/00_basic_gemm prints. Returns false if the launch fails.
template <class Gemm>
bool print_counters(std::string const& key) {
  int const n = 256;
  hiptile::host::DeviceBuffer<half_t> a(std::size_t(n) * n), b(std::size_t(n) * n), d(std::size_t(n) * n);
  typename Gemm::Arguments args{.problem = {n, n, n},
                                .a = {a.data(), n},
                                .b = {b.data(), n},
                                .c = {},
                                .d = {d.data(), n},
                                .output_op = {1.0f, 0.0f}};
  args.workspace_bytes = Gemm::get_workspace_size(args);
  hiptile::host::DeviceBuffer<std::byte> workspace(args.workspace_bytes > 0 ? args.workspace_bytes : 1);
  args.workspace = workspace.data();
  hiptile::sim::StreamState stream;
  Gemm gemm;
  hiptile::Status status = gemm.initialize(args);
  if (hiptile::ok(status)) status = gemm.run(&stream);
  if (!hiptile::ok(status)) {
    std::fprintf(stderr, "default_facts: %s on 256^3: %s\n", key.c_str(), hiptile::to_string(status));
    return false;
  }
  hiptile::sim::Counters const& c = hiptile::sim::counters(&stream);
  print(key + ".sim256.workgroups", static_cast<long long>(c.workgroups));
  print(key + ".sim256.mfma", static_cast<long long>(c.mfma));
  print(key + ".sim256.lds_instructions", static_cast<long long>(c.lds_instructions));
  print(key + ".sim256.lds_conflict_cycles", static_cast<long long>(c.lds_conflict_cycles));
  print(key + ".sim256.barriers", static_cast<long long>(c.barriers));
  return true;
}

// The stream-K schedule Gemm (a stream-K configuration) makes for an M × N × K problem on the
// simulated MI300X, under <key>.<fact>: docs/gemm.md's worked examples.
template <class Gemm>
void print_stream_k(std::string const& key, int m, int n, int k) {
  typename Gemm::Arguments args{};
  args.problem = {m, n, k};
  hiptile::gemm::kernel::StreamKSchedule schedule;
  if (!hiptile::ok(Gemm::stream_k_schedule(args, schedule))) return;
  print(key + ".tiles", schedule.dp_tiles + schedule.sk_tiles);
  print(key + ".k_tiles", schedule.k_tiles);
  print(key + ".dp_tiles", schedule.dp_tiles);
  print(key + ".sk_tiles", schedule.sk_tiles);
  print(key + ".units", schedule.units);
  print(key + ".partitions", schedule.partitions);
  print(key + ".workspace_bytes", static_cast<long long>(Gemm::get_workspace_size(args)));
}

}  // namespace

// A depthwise workgroup's shape: positions, channels, halo loads in flight.
template <class Workgroup>
void print_depthwise(std::string const& key) {
  print(key + ".positions", Workgroup::kPositions);
  print(key + ".channels", Workgroup::kChannels);
  print(key + ".loads_in_flight", Workgroup::kLoadsInFlight);
}

int main() {
  // Find mode's device timing (docs/tuning.md's TuningOptions table).
  hiptile::tune::TuningOptions const tuning;
  print("tune.warmup", tuning.warmup);
  print("tune.repetitions", tuning.repetitions);
  print("tune.min_batch_microseconds", (long long)tuning.min_batch_microseconds);
  print("tune.max_batch_runs", tuning.max_batch_runs);
  // gfx942: f16 and bf16 in every layout of A and B, and the other element types TN.
  print_default_gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Gfx942>("gemm.gfx942.f16.rc");
  print_default_gemm<half_t, RowMajor, half_t, RowMajor, half_t, arch::Gfx942>("gemm.gfx942.f16.rr");
  print_default_gemm<half_t, ColumnMajor, half_t, ColumnMajor, half_t, arch::Gfx942>("gemm.gfx942.f16.cc");
  print_default_gemm<half_t, ColumnMajor, half_t, RowMajor, half_t, arch::Gfx942>("gemm.gfx942.f16.cr");
  print_default_gemm<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, arch::Gfx942>("gemm.gfx942.bf16.rc");
  print_default_gemm<float, RowMajor, float, ColumnMajor, float, arch::Gfx942>("gemm.gfx942.f32.rc");
  print_default_gemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, arch::Gfx942>("gemm.gfx942.i8.rc");
  print_default_gemm<float8_e4m3fnuz, RowMajor, float8_e4m3fnuz, ColumnMajor, half_t, arch::Gfx942>(
      "gemm.gfx942.e4m3fnuz.rc");
  print_default_gemm_candidates<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Gfx942>("gemm.gfx942.f16.rc");

  // docs/gemm.md's examples built from the default: three LDS stages, and the stream-K schedules.
  {
    using F16 = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
    using ThreeStages = device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942,
                                     F16::TileShapeType, F16::WaveShapeType, F16::MmaAtomType, F16::OutputOpType,
                                     F16::TileOrderType, 3>;
    print("gemm.gfx942.f16.rc.three_stages.lds_bytes", static_cast<long long>(ThreeStages::kLdsBytes));
    using StreamK = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                        arch::Gfx942>::Candidate<1>;
    static_assert(StreamK::kSplitK == hiptile::gemm::kernel::SplitKMode::kStreamK);
    print_stream_k<StreamK>("gemm.gfx942.f16.rc.stream_k.3840x6400x4096", 3840, 6400, 4096);
    print_stream_k<StreamK>("gemm.gfx942.f16.rc.stream_k.1000x700x1500", 1000, 700, 1500);
  }

  // gfx90a: the types it has.
  print_default_gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Gfx90a>("gemm.gfx90a.f16.rc");
  print_default_gemm<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, arch::Gfx90a>("gemm.gfx90a.bf16.rc");
  print_default_gemm<float, RowMajor, float, ColumnMajor, float, arch::Gfx90a>("gemm.gfx90a.f32.rc");

  // Sm90: warpgroup MMAs for f16 (any layout), K-contiguous int8 and OCP fp8; mma.sync otherwise.
  print_default_gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Sm90>("gemm.sm90.f16.rc");
  print_default_gemm<half_t, RowMajor, half_t, RowMajor, half_t, arch::Sm90>("gemm.sm90.f16.rr");
  print_default_gemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, arch::Sm90>("gemm.sm90.i8.rc");
  print_default_gemm<std::int8_t, RowMajor, std::int8_t, RowMajor, std::int32_t, arch::Sm90>("gemm.sm90.i8.rr");
  print_default_gemm<float8_e4m3fn, RowMajor, float8_e4m3fn, ColumnMajor, half_t, arch::Sm90>("gemm.sm90.e4m3fn.rc");

  print_default_gemm_candidates<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Sm90>("gemm.sm90.f16.rc");

  // Sm80: mma.sync.
  print_default_gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Sm80>("gemm.sm80.f16.rc");
  print_default_gemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, arch::Sm80>("gemm.sm80.i8.rc");
  print_default_gemm_candidates<half_t, RowMajor, half_t, ColumnMajor, half_t, arch::Sm80>("gemm.sm80.f16.rc");

  // The simulator's counters of the default configuration and of DefaultGemm (which picks its
  // candidate for 256^3), as examples/00_basic_gemm runs it.
  bool const ran =
      print_counters<device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                      arch::Gfx942>>("gemm.gfx942.f16.rc") &&
      print_counters<device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>>(
          "gemm.gfx942.f16.rc.selecting");

  // DefaultConvolutionConfiguration, each operator.
  print_default_convs<half_t, arch::Gfx942>("conv.gfx942");
  print_default_convs<half_t, arch::Gfx90a>("conv.gfx90a");
  print_default_convs<half_t, arch::Sm80>("conv.sm80");
  print_default_convs<half_t, arch::Sm90>("conv.sm90");
  print_default_convs<float, arch::Gfx942>("conv.gfx942.f32");
  // DefaultConvolution's warp-specialised Sm90 candidate (docs/conv.md, "Persistent kernels").
  using PersistentDgrad = hiptile::conv::device::TensorCopyConvolution<
      ConvOperator::kDgrad, half_t, half_t, arch::Sm90, hiptile::epilogue::LinearCombination<half_t>, 256, 64,
      hiptile::gemm::kernel::SplitKMode::kPersistent>;
  print("conv.sm90.dgrad.persistent.threads", PersistentDgrad::kThreads);
  print("conv.sm90.dgrad.persistent.lds_bytes", static_cast<long long>(PersistentDgrad::kLdsBytes));
  // DepthwiseConvolution's gfx9 workgroups (docs/conv.md, "Depthwise convolution").
  print_depthwise<hiptile::conv::DefaultDepthwiseWorkgroup<arch::Gfx9Family, ConvOperator::kFprop>::type>(
      "depthwise.gfx9.fprop");
  print_depthwise<hiptile::conv::DefaultDepthwiseWorkgroup<arch::Gfx9Family, ConvOperator::kDgrad>::type>(
      "depthwise.gfx9.dgrad");
  print_depthwise<hiptile::conv::DefaultDepthwiseWorkgroup<arch::Gfx9Family, ConvOperator::kWgrad>::type>(
      "depthwise.gfx9.wgrad");
  return ran ? 0 : 1;
}
