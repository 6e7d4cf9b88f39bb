// Convolution throughput on an NVIDIA GPU: hiptile's DefaultConvolution and the other
// configurations below (sm_90a build) on seven ResNet-50 layers, Fprop, Dgrad and Wgrad of each; benchmark/conv_cudnn.py times
// cuDNN on the same layers and scripts/device_conv.sh puts the two side by side.
// NHWC activations, KRSC filters, f16 in, f32 accumulate, f16 out, N = 32, random data (generated on
// the GPU). GPU-timed with CUDA events (manual time); each timed iteration runs the operation
// several times so short problems are not dominated by event overhead. Counters: TFLOPS
// (2·macs / the median iteration's time; conv_cudnn.py reports medians too), TBps (the operator's
// least DRAM traffic — its two inputs read and its output written once — over that time: what
// memory-bound layers such as depthwise ones are measured by), the launch's CTAs, reps. The label
// is the implicit GEMM's M × N × K.
//
// Names are conv/<layer>/<operator>/<variant>. Variant "default" is DefaultConvolution (its choice
// per layer, with the workspace it asks for), "configuration" DefaultConvolutionConfiguration, both
// with β = 0; variants t<M>x<N>x<K>_w<M>x<N>_s<stages> are other block tiles (Wgrad's with parallel split-K),
// from which the NVIDIA defaults were chosen (default_convolution.hpp); wgmma_t<M>x<N>x<K> are
// warpgroup-MMA tiles of 16-row warps for all three operators (Wgrad with parallel split-K, or
// serial with the _serial suffix; 128 x 64 x 64 is Sm90's default Fprop); tma_t<M>x<N>x<K> are
// the tensor-copy tiles (IteratorAlgorithm::kTensorCopy, with _split_k: parallel
// split-K, _serial: serial, _s<n>: n stages); a _persistent suffix (and variant "persistent": the
// default) is SplitKMode::kPersistent, a grid of the workgroups the device holds at once.
// For the strided layers' Dgrad the four RowDivision choices of the strided epilogue (C's load /
// D's store: plain / plain, fast / plain, plain / fast, fast / fast = the default) run twice:
// with β = 0, where C is never read and only the store's choice matters, and with β = 1 and a
// separate source tensor C, where both do. Wgrad also runs as "split_k" (parallel split-K).
// Variant "tuned" is DefaultTunedConvolution in find mode `search` (BM_ConvTuned), labelled with
// the configuration it chose. Depthwise layers (groups = C = K) run as "default", "tuned" and
// "depthwise" (DepthwiseConvolution, the direct convolution DefaultConvolution picks there; Wgrad
// over split_k_slices_for(problem, 2 x SMs) slices), and as depthwise_registers (the halo through
// registers, one load in flight), Fprop also as depthwise_p<positions>_l<loads in flight>[_f32]
// (the halo through registers: its other workgroup shapes; Wgrad depthwise_p128_l8) and
// depthwise_async_p64 (64 positions, the halo by cp.async).
#include <benchmark/benchmark.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/device/depthwise_convolution.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/platform/platform.hpp"
#include "hiptile/tune/default_tuned_convolution.hpp"

#include "cuda_timing.hpp"

namespace {

using namespace hiptile;
using conv::ConvOperator;
using conv::ConvProblemSize;
using conv::RowDivision;

template <ConvOperator Op>
using Conv = conv::device::DefaultConvolutionConfiguration<Op, half_t, half_t, arch::Sm90>;

// DefaultConvolutionConfiguration's Dgrad with the strided epilogue's row division chosen for C's load and D's
// store separately; DgradDivision<kFast, kFast> is Conv<kDgrad>.
template <RowDivision Load, RowDivision Store>
using DgradDivision = conv::device::ImplicitGemmConvolution<
    ConvOperator::kDgrad, half_t, half_t, float, arch::Sm90, conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::TileShape,
    conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::WaveShape,
    conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::MmaAtom<half_t>,
    epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kPrecomputed, 8,
    conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::kStages, Load, Store>;
static_assert(std::is_same_v<DgradDivision<RowDivision::kFast, RowDivision::kFast>, Conv<ConvOperator::kDgrad>>);

// DefaultConvolutionConfiguration's Wgrad with split-K: its K is all N·P·Q output pixels, while its M × N
// (filters × taps·channels) is a few tiles; the slices come from split_k_slices_for() with two
// workgroups per SM as the target. "split_k" is parallel, "split_k_serial" serial.
template <gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kParallel>
using WgradSplitK = conv::device::ImplicitGemmConvolution<
    ConvOperator::kWgrad, half_t, half_t, float, arch::Sm90, conv::device::DefaultConvTile<ConvOperator::kWgrad, arch::Sm90>::TileShape,
    conv::device::DefaultConvTile<ConvOperator::kWgrad, arch::Sm90>::WaveShape,
    conv::device::DefaultConvTile<ConvOperator::kWgrad, arch::Sm90>::MmaAtom<half_t>,
    epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kPrecomputed, 8,
    conv::device::DefaultConvTile<ConvOperator::kWgrad, arch::Sm90>::kStages, RowDivision::kFast, RowDivision::kFast,
    Mode>;

// Other block tiles (TileShape, WaveShape, stages), precomputed iterators, β = 0; Wgrad with
// parallel split-K. Variant names say the tile: t<M>x<N>x<K>_w<M>x<N>_s<stages>.
template <ConvOperator Op, class TileShape, class WaveShape, int Stages>
using Tiled = conv::device::ImplicitGemmConvolution<
    Op, half_t, half_t, float, arch::Sm90, TileShape, WaveShape, gemm::device::DefaultMmaAtom<half_t, half_t, arch::Sm90>::type,
    epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kPrecomputed, 8, Stages, RowDivision::kFast,
    RowDivision::kFast,
    Op == ConvOperator::kWgrad ? gemm::kernel::SplitKMode::kParallel : gemm::kernel::SplitKMode::kNone>;

// Warpgroup MMAs (wgmma, sm_90a): 16-row warps, four to a 64-row instruction; Dgrad's filter and
// Wgrad's operands (channel-contiguous) read with the transpose bit. Wgrad with split-K as Tiled's
// (parallel) or serial.
template <ConvOperator Op, class TileShape, class WaveShape,
          gemm::kernel::SplitKMode SplitK = Op == ConvOperator::kWgrad ? gemm::kernel::SplitKMode::kParallel
                                                                       : gemm::kernel::SplitKMode::kNone>
using Warpgroup = conv::device::ImplicitGemmConvolution<
    Op, half_t, half_t, float, arch::Sm90, TileShape, WaveShape, arch::WarpgroupMma<half_t>,
    epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kPrecomputed, 8, 4, RowDivision::kFast,
    RowDivision::kFast, SplitK>;

// Convolutions through the copy engine (IteratorAlgorithm::kTensorCopy; Fprop: x by im2col copies,
// w by tensor copies; Dgrad: dy by im2col copies, w by tensor copies; Wgrad: dy by tensor copies, x
// by im2col copies), warpgroup MMAs as Warpgroup's.
template <ConvOperator Op, class TileShape, gemm::kernel::SplitKMode SplitK = gemm::kernel::SplitKMode::kNone,
          int Stages = 4>
using TensorCopy = conv::device::ImplicitGemmConvolution<
    Op, half_t, half_t, float, arch::Sm90, TileShape, GemmShape<16, TileShape::kN, 64>,
    arch::WarpgroupMma<half_t>, epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kTensorCopy, 8, Stages,
    RowDivision::kFast, RowDivision::kFast, SplitK>;
// The direct convolution of depthwise layers, with a workgroup shape (conv/direct/depthwise_kernel.hpp).
template <ConvOperator Op, class Workgroup = typename conv::DefaultDepthwiseWorkgroup<arch::NvidiaFamily, Op>::type>
using Depthwise = conv::device::DepthwiseConvolution<Op, half_t, half_t, arch::Sm90, epilogue::LinearCombination<half_t>,
                                                     8, Workgroup>;
// Fprop on packed taps (few channels: conv/few_channel_fprop_loaders.hpp), one-channel accesses,
// mma.sync through registers: DefaultConvolution's candidate, and other tiles.
template <class TileShape, class WaveShape, int Stages = 4>
using FewChannel = conv::device::ImplicitGemmConvolution<
    ConvOperator::kFprop, half_t, half_t, float, arch::Sm90, TileShape, WaveShape,
    gemm::device::DefaultMmaAtom<half_t, half_t, arch::Sm80>::type, epilogue::LinearCombination<half_t>,
    conv::IteratorAlgorithm::kFewChannels, 1, Stages>;
// Several groups a GEMM batch with a block-diagonal filter (IteratorAlgorithm::kPackedGroups):
// DefaultConvolution's candidate (warpgroup MMAs), and mma.sync tiles, among them a 32-wide one
// (fewer zeros in the block-diagonal filter; Fprop only: Dgrad's channel-contiguous filter tile
// needs N of 64).
template <ConvOperator Op, class TileShape, class WaveShape, int Stages = 4>
using PackedGroups = conv::device::ImplicitGemmConvolution<
    Op, half_t, half_t, float, arch::Sm90, TileShape, WaveShape,
    gemm::device::DefaultMmaAtom<half_t, half_t, arch::Sm80>::type, epilogue::LinearCombination<half_t>,
    conv::IteratorAlgorithm::kPackedGroups, 8, Stages>;
// DefaultConvolutionConfiguration as a persistent kernel.
template <ConvOperator Op>
using Persistent = typename Conv<Op>::template WithSplitK<gemm::kernel::SplitKMode::kPersistent>;
template <class TileShape, gemm::kernel::SplitKMode SplitK = gemm::kernel::SplitKMode::kNone>
using WgradTensorCopy = TensorCopy<ConvOperator::kWgrad, TileShape, SplitK>;
template <class TileShape, gemm::kernel::SplitKMode SplitK = gemm::kernel::SplitKMode::kNone>
using DgradTensorCopy = TensorCopy<ConvOperator::kDgrad, TileShape, SplitK>;

// ResNet-50 layers, then layers with channel counts off the 64 grid; square images and filters,
// N = 32. conv_cudnn.py has the same list and names.
struct Layer {
  char const* name;
  int hw, c, k, rs, stride, pad;
  int groups = 1;
};
constexpr int kBatch = 32;
constexpr Layer kLayers[] = {
    {"L1_3x3_64to64_56", 56, 64, 64, 3, 1, 1},
    {"L2_1x1s2_256to128_56", 56, 256, 128, 1, 2, 0},
    {"L3_3x3_128to128_28", 28, 128, 128, 3, 1, 1},
    {"L4_3x3s2_256to256_28", 28, 256, 256, 3, 2, 1},
    {"L5_3x3_512to512_14", 14, 512, 512, 3, 1, 1},
    {"L6_1x1s2_1024to2048_14", 14, 1024, 2048, 1, 2, 0},
    {"L7_3x3s2_64to64_224", 224, 64, 64, 3, 2, 1},
    // Channel counts off the 64 grid (issue 35): only DefaultConvolution, find mode, the fixed
    // configuration and the precomputed warpgroup tiles run on these.
    {"X1_3x3_96to96_56", 56, 96, 96, 3, 1, 1},
    {"X2_5x5_160to160_28", 28, 160, 160, 5, 1, 2},
    {"X3_3x3s2_224to224_28", 28, 224, 224, 3, 2, 1},
    {"X4_3x3_320to320_14", 14, 320, 320, 3, 1, 1},
    // Depthwise (groups = C = K): MobileNetV2's 3x3 and 3x3/s2 on 144 channels, EfficientNet's 5x5
    // on 240, ConvNeXt's 7x7 on 192.
    {"D1_dw3x3_144_56", 56, 144, 144, 3, 1, 1, 144},
    {"D2_dw3x3s2_144_56", 56, 144, 144, 3, 2, 1, 144},
    {"D3_dw5x5_240_28", 28, 240, 240, 5, 1, 2, 240},
    {"D4_dw7x7_192_28", 28, 192, 192, 7, 1, 3, 192},
    // RGB stems and patchify layers (3 channels): ResNet's 7x7/2, MobileNet's and EfficientNet's
    // 3x3/2, ConvNeXt's 4x4/4, ViT-B/16's 16x16/16.
    {"S1_7x7s2_3to64_224", 224, 3, 64, 7, 2, 3},
    {"S2_3x3s2_3to32_224", 224, 3, 32, 3, 2, 1},
    {"S3_4x4s4_3to96_224", 224, 3, 96, 4, 4, 0},
    {"S4_16x16s16_3to768_224", 224, 3, 768, 16, 16, 0},
    // Grouped 3x3 layers of ResNeXt-50 (32x4d): 4, 8 (and 8 strided), 16 and 32 channels a group.
    {"G1_3x3_128g32_56", 56, 128, 128, 3, 1, 1, 32},
    {"G2_3x3_256g32_28", 28, 256, 256, 3, 1, 1, 32},
    {"G3_3x3s2_256g32_56", 56, 256, 256, 3, 2, 1, 32},
    {"G4_3x3_512g32_14", 14, 512, 512, 3, 1, 1, 32},
    {"G5_3x3_1024g32_7", 7, 1024, 1024, 3, 1, 1, 32},
};
constexpr int kResNetLayers = 7;  // the first seven: every variant runs on them
constexpr int kFirstDepthwiseLayer = 11;
constexpr int kFirstStemLayer = 15;
constexpr int kFirstGroupedLayer = 19;

ConvProblemSize problem_of(Layer const& l) {
  return ConvProblemSize::conv2d(kBatch, l.hw, l.hw, l.c, l.k, l.rs, l.rs, l.pad, l.pad, l.stride, l.stride, 1, 1,
                                 l.groups);
}

using bench::check;

int sm_count() {
  int device = 0, count = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device), "SM count");
  return count;
}

// Uniform values in [-1, 1) from a hash of the index: random data, since zeros run faster than
// real inputs, made on the GPU because the largest layer's tensors hold 10^8 elements.
__global__ void fill_uniform(__half* p, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::uint32_t h = std::uint32_t(i) * 0x9e3779b9u ^ std::uint32_t(i >> 32) ^ seed;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    p[i] = __float2half_rn(float(h >> 8) * 0x1p-23f - 1.0f);
  }
}

// One layer's tensors, made once and shared by its benchmarks: x and dx (NHWC), w and dw (KRSC),
// y and dy (NPQK), and dx_source, the C that Dgrad's β = 1 runs read.
struct Tensors {
  ConvProblemSize problem;
  half_t *x = nullptr, *w = nullptr, *y = nullptr, *dy = nullptr, *dx = nullptr, *dw = nullptr, *dx_source = nullptr;

  explicit Tensors(ConvProblemSize const& p) : problem(p) {
    std::uint32_t seed = 1;
    auto make = [&](half_t*& ptr, std::int64_t n, bool random) {
      check(cudaMalloc(&ptr, std::size_t(n) * sizeof(half_t)), "cudaMalloc");
      if (random) {
        fill_uniform<<<1024, 256>>>(reinterpret_cast<__half*>(ptr), n, seed++ * 0x27d4eb2du);
      } else {
        check(cudaMemset(ptr, 0, std::size_t(n) * sizeof(half_t)), "cudaMemset");
      }
    };
    make(x, p.activation_elements(), true);
    make(w, p.filter_elements(), true);
    make(dy, p.output_elements(), true);
    make(dx_source, p.activation_elements(), true);
    make(y, p.output_elements(), false);
    make(dx, p.activation_elements(), false);
    make(dw, p.filter_elements(), false);
    check(cudaDeviceSynchronize(), "fill");
  }
  ~Tensors() {
    for (half_t* ptr : {x, w, y, dy, dx, dw, dx_source}) cudaFree(ptr);
  }
  Tensors(Tensors const&) = delete;
  Tensors& operator=(Tensors const&) = delete;
};

Tensors& tensors(int layer) {
  static std::map<int, std::unique_ptr<Tensors>> cache;
  auto& t = cache[layer];
  if (!t) t = std::make_unique<Tensors>(problem_of(kLayers[layer]));
  return *t;
}

// Times `run` with events: iterations × reps launches; each iteration reports seconds per launch.
// The least DRAM traffic of operator op: its two inputs read and its output written once, f16.
double least_bytes(ConvProblemSize const& p, ConvOperator op) {
  double const x = double(p.activation_elements()), w = double(p.filter_elements()), y = double(p.output_elements());
  return 2.0 * (op == ConvOperator::kFprop ? x + w + y : op == ConvOperator::kDgrad ? y + w + x : x + y + w);
}

template <class Run>
void time_gpu(benchmark::State& state, ConvProblemSize const& p, ConvOperator op, Run&& run) {
  double const flops = 2.0 * double(p.macs());
  bench::warm_up(run);
  int const reps = std::max(1, int(2e11 / flops));  // about a millisecond of work or more
  bench::GpuTimer timer;
  std::vector<double> seconds;
  for (auto _ : state) {
    seconds.push_back(timer.seconds_per_run(reps, run));
    state.SetIterationTime(seconds.back());
  }
  std::sort(seconds.begin(), seconds.end());
  std::size_t const n = seconds.size();
  double const median = n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  state.counters["TFLOPS"] = flops / median / 1e12;
  state.counters["TBps"] = least_bytes(p, op) / median / 1e12;
  state.counters["reps"] = reps;
}

// The layer's tensors in operator Op's roles (ConvArguments, shared by every configuration of it);
// with β ≠ 0 Dgrad reads a separate source tensor.
template <ConvOperator Op, class Arguments>
Arguments arguments_of(Tensors& t, float beta) {
  Arguments args{t.problem, nullptr, nullptr, nullptr, nullptr, {1.0f, beta}};
  if constexpr (Op == ConvOperator::kFprop) {
    args.a = t.x;
    args.b = t.w;
    args.d = t.y;
  } else if constexpr (Op == ConvOperator::kDgrad) {
    args.a = t.dy;
    args.b = t.w;
    args.c = beta != 0.0f ? t.dx_source : nullptr;
    args.d = t.dx;
  } else {
    args.a = t.dy;
    args.b = t.x;
    args.d = t.dw;
  }
  return args;
}

// A launch inside the timed loop: a failure ends the program (the timing would mean nothing).
void run_or_exit(Status s) {
  if (!ok(s)) {
    std::fprintf(stderr, "launch failed: %s\n", last_launch_error().c_str());
    std::exit(3);
  }
}

template <class C>
void BM_Conv(benchmark::State& state, int layer, float beta) {
  Tensors& t = tensors(layer);
  ConvProblemSize const& p = t.problem;
  auto args = arguments_of<C::kOperator, typename C::Arguments>(t, beta);
  void* workspace = nullptr;
  if constexpr (gemm::kernel::splits_k(C::kSplitK)) {
    args.split_k_slices = C::split_k_slices_for(p, 2 * sm_count());
    args.workspace_bytes = C::get_workspace_size(args);
    check(cudaMalloc(&workspace, args.workspace_bytes), "cudaMalloc workspace");
    args.workspace = workspace;
    state.counters["slices"] = args.split_k_slices;
  }
  C conv;
  if (Status s = conv.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
    return;
  }
  time_gpu(state, p, C::kOperator, [&] { run_or_exit(conv.run()); });
  state.counters["CTAs"] = double(conv.workgroups());
  if (workspace != nullptr) cudaFree(workspace);
  auto const g = p.implicit_gemm(C::kOperator);
  state.SetLabel("gemm " + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k));
}

// An operator that chooses its configuration at initialize() (DefaultConvolution by its rules,
// DefaultTunedConvolution by find mode): the workspace its choice asks for, then the chosen
// configuration runs as every other variant does, labelled with it.
template <ConvOperator Op, class Chooser>
void time_chosen(benchmark::State& state, Tensors& t, Chooser& op, typename Chooser::Arguments args) {
  void* workspace = nullptr;
  args.workspace_bytes = op.get_workspace_size(args);
  if (args.workspace_bytes > 0) check(cudaMalloc(&workspace, args.workspace_bytes), "cudaMalloc workspace");
  args.workspace = workspace;
  if (Status s = op.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
    return;
  }
  time_gpu(state, t.problem, Op, [&] { run_or_exit(op.run()); });
  state.counters["candidate"] = op.choice().candidate;
  state.counters["slices"] = op.choice().split_k_slices;
  state.SetLabel(Chooser::candidate_name(op.choice().candidate));
  if (workspace != nullptr) cudaFree(workspace);
}

// DefaultConvolution: what a user who copies the first example gets.
template <ConvOperator Op>
void BM_ConvDefault(benchmark::State& state, int layer) {
  using D = conv::device::DefaultConvolution<Op, half_t, half_t, arch::Sm90>;
  Tensors& t = tensors(layer);
  D op;
  time_chosen<Op>(state, t, op, arguments_of<Op, typename D::Arguments>(t, 0.0f));
}

// DefaultTunedConvolution in find mode `search` (a database of its own in /tmp): initialize()
// times the candidates. What a user who turns find mode on gets.
template <ConvOperator Op>
void BM_ConvTuned(benchmark::State& state, int layer) {
  using T = tune::DefaultTunedConvolution<Op, half_t, half_t, arch::Sm90>;
  Tensors& t = tensors(layer);
  static std::string const database = "/tmp/hiptile_conv_nvidia_" + std::to_string(long(getpid())) + ".db";
  T tuned({.mode = tune::FindMode::kSearch, .database = database});
  time_chosen<Op>(state, t, tuned, arguments_of<Op, typename T::Arguments>(t, 0.0f));
}

template <ConvOperator Op>
void add_choosers(int layer, char const* op) {
  std::string const name = std::string("conv/") + kLayers[layer].name + "/" + op + "/";
  benchmark::RegisterBenchmark((name + "default").c_str(),
                               [=](benchmark::State& state) { BM_ConvDefault<Op>(state, layer); })
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark((name + "tuned").c_str(), [=](benchmark::State& state) { BM_ConvTuned<Op>(state, layer); })
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMicrosecond);
}

template <class C>
void add(int layer, char const* op, char const* variant, float beta = 0.0f) {
  std::string const name = std::string("conv/") + kLayers[layer].name + "/" + op + "/" + variant;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) { BM_Conv<C>(state, layer, beta); })
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMicrosecond);
}

template <RowDivision Load, RowDivision Store>
void add_division(int layer, char const* division) {
  for (float beta : {0.0f, 1.0f}) {
    std::string const variant = std::string(division) + (beta == 0.0f ? "_beta0" : "_beta1");
    add<DgradDivision<Load, Store>>(layer, "dgrad", variant.c_str(), beta);
  }
}

template <class TileShape, class WaveShape, int Stages>
void add_tiles(int layer, char const* variant) {
  add<Tiled<ConvOperator::kFprop, TileShape, WaveShape, Stages>>(layer, "fprop", variant);
  add<Tiled<ConvOperator::kDgrad, TileShape, WaveShape, Stages>>(layer, "dgrad", variant);
  add<Tiled<ConvOperator::kWgrad, TileShape, WaveShape, Stages>>(layer, "wgrad", variant);
}

template <int TileM, int TileN>
void add_warpgroup_tiles(int layer, char const* variant) {
  using Tile = GemmShape<TileM, TileN, 64>;
  using Wave = GemmShape<16, TileN, 64>;
  add<Warpgroup<ConvOperator::kFprop, Tile, Wave>>(layer, "fprop", variant);
  add<Warpgroup<ConvOperator::kDgrad, Tile, Wave>>(layer, "dgrad", variant);
  add<Warpgroup<ConvOperator::kWgrad, Tile, Wave>>(layer, "wgrad", variant);
}

}  // namespace

int main(int argc, char** argv) {
  for (int layer = 0; layer < int(std::size(kLayers)); ++layer) {
    if (layer >= kFirstGroupedLayer) {  // DefaultConvolution, find mode, packed groups, the fixed configuration
      add_choosers<ConvOperator::kFprop>(layer, "fprop");
      add_choosers<ConvOperator::kDgrad>(layer, "dgrad");
      add_choosers<ConvOperator::kWgrad>(layer, "wgrad");
      add<conv::device::PackedGroupConvolution<ConvOperator::kFprop, half_t, half_t, arch::Sm90>>(layer, "fprop",
                                                                                                 "packed");
      add<conv::device::PackedGroupConvolution<ConvOperator::kDgrad, half_t, half_t, arch::Sm90>>(layer, "dgrad",
                                                                                                 "packed");
      add<PackedGroups<ConvOperator::kFprop, GemmShape<128, 64, 64>, GemmShape<64, 32, 64>>>(layer, "fprop",
                                                                                             "packed_mma_t128x64x64");
      add<PackedGroups<ConvOperator::kDgrad, GemmShape<128, 64, 64>, GemmShape<64, 32, 64>>>(layer, "dgrad",
                                                                                             "packed_mma_t128x64x64");
      add<PackedGroups<ConvOperator::kFprop, GemmShape<256, 32, 64>, GemmShape<64, 32, 64>>>(layer, "fprop",
                                                                                             "packed_mma_t256x32x64");
      add<PackedGroups<ConvOperator::kFprop, GemmShape<128, 32, 64>, GemmShape<32, 32, 64>>>(layer, "fprop",
                                                                                             "packed_mma_t128x32x64");
      // Half-vector filter accesses (4-channel groups), through registers with mma.sync.
      add<conv::device::PackedGroupConvolution<ConvOperator::kFprop, half_t, half_t, arch::Sm90,
                                               epilogue::LinearCombination<half_t>, 4>>(layer, "fprop", "packed_half");
      add<conv::device::PackedGroupConvolution<ConvOperator::kDgrad, half_t, half_t, arch::Sm90,
                                               epilogue::LinearCombination<half_t>, 4>>(layer, "dgrad", "packed_half");
      // Wgrad on packed groups (a batch's diagonal blocks stored), data-parallel and split.
      using PackedWgrad = conv::device::PackedGroupConvolution<ConvOperator::kWgrad, half_t, half_t, arch::Sm90>;
      add<PackedWgrad>(layer, "wgrad", "packed");
      add<PackedWgrad::WithSplitK<gemm::kernel::SplitKMode::kParallel>>(layer, "wgrad", "packed_split_k");
      add<Conv<ConvOperator::kFprop>>(layer, "fprop", "configuration");
      add<Conv<ConvOperator::kDgrad>>(layer, "dgrad", "configuration");
      continue;
    }
    if (layer >= kFirstStemLayer) {  // DefaultConvolution, find mode, the few-channel tiles, the analytic one
      add_choosers<ConvOperator::kFprop>(layer, "fprop");
      add_choosers<ConvOperator::kWgrad>(layer, "wgrad");
      add<conv::device::FewChannelConvolution<half_t, half_t, arch::Sm90>>(layer, "fprop", "few_channel");
      add<FewChannel<GemmShape<128, 64, 32>, GemmShape<64, 32, 32>>>(layer, "fprop", "few_channel_t128x64x32");
      add<FewChannel<GemmShape<128, 128, 32>, GemmShape<64, 64, 32>>>(layer, "fprop", "few_channel_t128x128x32");
      add<FewChannel<GemmShape<256, 64, 32>, GemmShape<64, 32, 32>>>(layer, "fprop", "few_channel_t256x64x32");
      // Fewer registers a thread (164 with four 64 x 32 warps, 3 workgroups an SM): eight 32 x 32
      // warps, and two stages.
      add<FewChannel<GemmShape<128, 64, 32>, GemmShape<32, 32, 32>>>(layer, "fprop", "few_channel_t128x64x32_w32x32");
      add<FewChannel<GemmShape<128, 64, 32>, GemmShape<64, 32, 32>, 2>>(layer, "fprop", "few_channel_t128x64x32_s2");
      add<FewChannel<GemmShape<128, 128, 32>, GemmShape<32, 64, 32>>>(layer, "fprop", "few_channel_t128x128x32_w32x64");
      add<conv::device::DefaultAnalyticConvolution<ConvOperator::kFprop, half_t, half_t, arch::Sm90>>(layer, "fprop",
                                                                                                      "analytic");
      continue;
    }
    if (layer >= kFirstDepthwiseLayer) {  // DefaultConvolution, find mode and the direct convolution
      add_choosers<ConvOperator::kFprop>(layer, "fprop");
      add_choosers<ConvOperator::kDgrad>(layer, "dgrad");
      add_choosers<ConvOperator::kWgrad>(layer, "wgrad");
      add<Depthwise<ConvOperator::kFprop>>(layer, "fprop", "depthwise");
      add<Depthwise<ConvOperator::kDgrad>>(layer, "dgrad", "depthwise");
      add<Depthwise<ConvOperator::kWgrad>>(layer, "wgrad", "depthwise");
      // Other workgroup shapes: the halo through registers (positions, loads in flight, fp32 halo),
      // or copied straight to shared memory with fewer positions.
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<>>>(layer, "fprop", "depthwise_registers");
      add<Depthwise<ConvOperator::kDgrad, conv::DepthwiseWorkgroup<>>>(layer, "dgrad", "depthwise_registers");
      add<Depthwise<ConvOperator::kWgrad, conv::DepthwiseWorkgroup<>>>(layer, "wgrad", "depthwise_registers");
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<64, 1, false, conv::AsyncHaloCopy>>>(
          layer, "fprop", "depthwise_async_p64");
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<128, 8, true>>>(layer, "fprop", "depthwise_p128_l8_f32");
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<128, 1, true>>>(layer, "fprop", "depthwise_p128_l1_f32");
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<64, 4>>>(layer, "fprop", "depthwise_p64_l4");
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<128, 8>>>(layer, "fprop", "depthwise_p128_l8");
      add<Depthwise<ConvOperator::kWgrad, conv::DepthwiseWorkgroup<128, 8>>>(layer, "wgrad", "depthwise_p128_l8");
      add<Depthwise<ConvOperator::kFprop, conv::DepthwiseWorkgroup<64, 1>>>(layer, "fprop", "depthwise_p64_l1");
      add<Depthwise<ConvOperator::kDgrad, conv::DepthwiseWorkgroup<64, 1>>>(layer, "dgrad", "depthwise_p64_l1");
      continue;
    }
    add_choosers<ConvOperator::kFprop>(layer, "fprop");
    add_choosers<ConvOperator::kDgrad>(layer, "dgrad");
    add_choosers<ConvOperator::kWgrad>(layer, "wgrad");
    add<Conv<ConvOperator::kFprop>>(layer, "fprop", "configuration");
    add<Conv<ConvOperator::kDgrad>>(layer, "dgrad", "configuration");
    add<Conv<ConvOperator::kWgrad>>(layer, "wgrad", "configuration");
    if (layer >= kResNetLayers) {  // and the precomputed warpgroup tiles, these layers' fast path before
      add_warpgroup_tiles<128, 64>(layer, "wgmma_t128x64x64");
      add_warpgroup_tiles<128, 128>(layer, "wgmma_t128x128x64");
      add_warpgroup_tiles<128, 256>(layer, "wgmma_t128x256x64");
      continue;
    }
    add<WgradSplitK<>>(layer, "wgrad", "split_k");
    add<WgradSplitK<gemm::kernel::SplitKMode::kSerial>>(layer, "wgrad", "split_k_serial");
    add_tiles<GemmShape<128, 128, 64>, GemmShape<64, 32, 64>, 4>(layer, "t128x128x64_w64x32_s4");
    add_tiles<GemmShape<256, 128, 64>, GemmShape<64, 64, 64>, 4>(layer, "t256x128x64_w64x64_s4");
    add_tiles<GemmShape<128, 128, 32>, GemmShape<64, 32, 32>, 3>(layer, "t128x128x32_w64x32_s3");
    add_tiles<GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, 4>(layer, "t128x128x32_w64x64_s4");
    add_warpgroup_tiles<128, 64>(layer, "wgmma_t128x64x64");
    add_warpgroup_tiles<128, 128>(layer, "wgmma_t128x128x64");
    add_warpgroup_tiles<128, 256>(layer, "wgmma_t128x256x64");
    add_warpgroup_tiles<64, 128>(layer, "wgmma_t64x128x64");
    add<Warpgroup<ConvOperator::kWgrad, GemmShape<128, 128, 64>, GemmShape<16, 128, 64>,
                  gemm::kernel::SplitKMode::kSerial>>(layer, "wgrad", "wgmma_t128x128x64_serial");
    add<Warpgroup<ConvOperator::kWgrad, GemmShape<64, 128, 64>, GemmShape<16, 128, 64>,
                  gemm::kernel::SplitKMode::kSerial>>(layer, "wgrad", "wgmma_t64x128x64_serial");
    using gemm::kernel::SplitKMode;
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 64, 64>>>(layer, "fprop", "tma_t128x64x64");
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 128, 64>>>(layer, "fprop", "tma_t128x128x64");
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 128, 64>, SplitKMode::kNone, 3>>(layer, "fprop",
                                                                                          "tma_t128x128x64_s3");
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 256, 64>>>(layer, "fprop", "tma_t128x256x64");
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 64, 64>, SplitKMode::kNone, 3>>(layer, "fprop",
                                                                                         "tma_t128x64x64_s3");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<128, 64, 64>, SplitKMode::kNone, 3>>(layer, "dgrad",
                                                                                         "tma_t128x64x64_s3");
    add<DgradTensorCopy<GemmShape<128, 64, 64>>>(layer, "dgrad", "tma_t128x64x64");
    add<DgradTensorCopy<GemmShape<128, 128, 64>>>(layer, "dgrad", "tma_t128x128x64");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<128, 128, 64>, SplitKMode::kNone, 3>>(layer, "dgrad",
                                                                                          "tma_t128x128x64_s3");
    add<DgradTensorCopy<GemmShape<128, 256, 64>>>(layer, "dgrad", "tma_t128x256x64");
    add<DgradTensorCopy<GemmShape<128, 128, 64>, SplitKMode::kParallel>>(layer, "dgrad", "tma_t128x128x64_split_k");
    add<DgradTensorCopy<GemmShape<128, 128, 64>, SplitKMode::kSerial>>(layer, "dgrad", "tma_t128x128x64_serial");
    add<WgradTensorCopy<GemmShape<128, 128, 64>>>(layer, "wgrad", "tma_t128x128x64");
    add<WgradTensorCopy<GemmShape<128, 256, 64>>>(layer, "wgrad", "tma_t128x256x64");
    add<WgradTensorCopy<GemmShape<128, 128, 64>, SplitKMode::kParallel>>(layer, "wgrad", "tma_t128x128x64_split_k");
    add<WgradTensorCopy<GemmShape<128, 256, 64>, SplitKMode::kParallel>>(layer, "wgrad", "tma_t128x256x64_split_k");
    add<WgradTensorCopy<GemmShape<128, 192, 64>>>(layer, "wgrad", "tma_t128x192x64");
    add<WgradTensorCopy<GemmShape<128, 192, 64>, SplitKMode::kParallel>>(layer, "wgrad", "tma_t128x192x64_split_k");
    add<WgradTensorCopy<GemmShape<64, 128, 64>, SplitKMode::kParallel>>(layer, "wgrad", "tma_t64x128x64_split_k");
    add<WgradTensorCopy<GemmShape<64, 256, 64>, SplitKMode::kParallel>>(layer, "wgrad", "tma_t64x256x64_split_k");
    // Persistent: the default tiles and the 3-stage tensor-copy tiles of the tuned lists.
    add<Persistent<ConvOperator::kFprop>>(layer, "fprop", "persistent");
    add<Persistent<ConvOperator::kDgrad>>(layer, "dgrad", "persistent");
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 64, 64>, SplitKMode::kPersistent, 3>>(
        layer, "fprop", "tma_t128x64x64_s3_persistent");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<128, 64, 64>, SplitKMode::kPersistent, 3>>(
        layer, "dgrad", "tma_t128x64x64_s3_persistent");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<128, 128, 64>, SplitKMode::kPersistent, 3>>(
        layer, "dgrad", "tma_t128x128x64_s3_persistent");
    // The 4-stage tensor-copy tile as a persistent kernel; 6 stages; cuDNN's 256 x 64 tile (4
    // consumer warpgroups). Persistent tensor-copy kernels are warp-specialised.
    add<TensorCopy<ConvOperator::kFprop, GemmShape<128, 64, 64>, SplitKMode::kPersistent>>(
        layer, "fprop", "tma_t128x64x64_persistent");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<128, 64, 64>, SplitKMode::kPersistent>>(
        layer, "dgrad", "tma_t128x64x64_persistent");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<128, 64, 64>, SplitKMode::kPersistent, 6>>(
        layer, "dgrad", "tma_t128x64x64_s6_persistent");
    add<TensorCopy<ConvOperator::kFprop, GemmShape<256, 64, 64>, SplitKMode::kPersistent>>(
        layer, "fprop", "tma_t256x64x64_persistent");
    add<TensorCopy<ConvOperator::kDgrad, GemmShape<256, 64, 64>, SplitKMode::kPersistent>>(
        layer, "dgrad", "tma_t256x64x64_persistent");
    if (kLayers[layer].stride > 1) {
      add_division<RowDivision::kPlain, RowDivision::kPlain>(layer, "load_plain_store_plain");
      add_division<RowDivision::kFast, RowDivision::kPlain>(layer, "load_fast_store_plain");
      add_division<RowDivision::kPlain, RowDivision::kFast>(layer, "load_plain_store_fast");
      add_division<RowDivision::kFast, RowDivision::kFast>(layer, "load_fast_store_fast");
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
