// Find mode on an NVIDIA GPU: for each shape, DefaultTunedGemm's candidates (f16, A row, B col, D
// row, sm_90) timed exhaustively — every candidate, a split-K one with 2, 4, ..., 64 slices, each
// the median of 25 runs after 5 warm-ups, with CUDA events — beside what find mode's `search`
// chose (its own timing, stored in a temporary tuning database) and what the heuristic chose.
// The sweep's winner, the tuned choice and the heuristic's are then re-timed in 7 interleaved
// rounds (the median of each's round medians), so that clock drift between the sweep and the
// choices does not enter the ratios; a choice that is the sweep's winner is timed twice, which
// shows the spread. The GPU is warmed for about a second first (it idles at a low clock).
// Counters: the best candidate's TFLOPS, and tuned_vs_best / heuristic_vs_best = the best time over
// that choice's time (1 = the best, within the spread).
// The same for DefaultTunedConvolution's Fprop, Dgrad and Wgrad on the ResNet-50 layers of
// benchmark/conv_nvidia.cu (split-K candidates with 2, 4, ..., 64 slices).
// Run by scripts/device_tune.sh; docs/performance.md ("Find mode on the H100") has the figures.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "hiptile/platform/event_timer.hpp"
#include "hiptile/platform/platform.hpp"
#include "hiptile/tune/default_tuned_convolution.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"

#include "cuda_timing.hpp"

namespace {

using namespace hiptile;
using Tuned = tune::DefaultTunedGemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor,
                                     arch::Sm90>;
using Arguments = Tuned::Arguments;
constexpr int kWarmup = 5, kRepetitions = 25;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

using bench::check;

struct Problem {
  int m, n, k;
};

// Candidate G's median time with `slices` K slices, the exhaustive way (infinity when it does not take the problem).
template <class G, class Arguments_>
double time_candidate(Arguments_ args, int slices, void* workspace, std::size_t workspace_bytes) {
  args.split_k_slices = slices;
  args.workspace = workspace;
  args.workspace_bytes = workspace_bytes;
  if (G::get_workspace_size(args) > workspace_bytes) return kInfinity;
  G op;
  if (!ok(op.initialize(args))) return kInfinity;
  double seconds = 0;
  if (!ok(time_launches(nullptr, [&] { return op.run(nullptr); }, kWarmup, kRepetitions, seconds))) return kInfinity;
  return seconds;
}

// Candidate `candidate` of tuned operator T with `slices`.
template <class T, int I = 0>
double time_choice(typename T::Arguments const& args, int candidate, int slices, void* workspace, std::size_t bytes) {
  if constexpr (I == T::kCandidates) {
    return kInfinity;
  } else {
    using G = std::tuple_element_t<I, typename T::CandidateList>;
    if (candidate == I) return time_candidate<G>(args, slices, workspace, bytes);
    return time_choice<T, I + 1>(args, candidate, slices, workspace, bytes);
  }
}

struct Timed {
  double seconds = kInfinity;
  int candidate = -1, slices = 1;
};

// The best of every candidate of T (a split-K one with 2, 4, ..., 64 slices).
template <class T, int I = 0>
Timed best_of_sweep(typename T::Arguments const& args, void* workspace, std::size_t bytes) {
  if constexpr (I == T::kCandidates) {
    return {};
  } else {
    using G = std::tuple_element_t<I, typename T::CandidateList>;
    Timed best = best_of_sweep<T, I + 1>(args, workspace, bytes);
    std::vector<int> slices{1};
    if constexpr (G::kSplitK == gemm::kernel::SplitKMode::kParallel || G::kSplitK == gemm::kernel::SplitKMode::kSerial) {
      slices = {2, 4, 8, 16, 32, 64};
    }
    for (int s : slices) {
      double const t = time_candidate<G>(args, s, workspace, bytes);
      if (t < best.seconds) best = {t, I, s};
    }
    return best;
  }
}

// The median over `rounds` interleaved rounds of each choice's time.
template <class T>
std::vector<double> interleaved(typename T::Arguments const& args, std::vector<Timed> const& choices, void* workspace,
                                std::size_t bytes, int rounds = 7) {
  std::vector<std::vector<double>> times(choices.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < choices.size(); ++i) {
      times[i].push_back(time_choice<T>(args, choices[i].candidate, choices[i].slices, workspace, bytes));
    }
  }
  std::vector<double> medians;
  for (std::vector<double>& t : times) {
    std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    medians.push_back(t[t.size() / 2]);
  }
  return medians;
}

void tuned_vs_exhaustive(benchmark::State& state, Problem p, std::string database) {
  half_t *a = nullptr, *b = nullptr, *d = nullptr;
  check(cudaMalloc(&a, std::size_t(p.m) * p.k * 2), "cudaMalloc");
  check(cudaMalloc(&b, std::size_t(p.n) * p.k * 2), "cudaMalloc");
  check(cudaMalloc(&d, std::size_t(p.m) * p.n * 2), "cudaMalloc");
  std::vector<half_t> host(std::size_t(std::max(p.m, p.n)) * p.k);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (half_t& x : host) x = half_t(u(rng));
  check(cudaMemcpy(a, host.data(), std::size_t(p.m) * p.k * 2, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(b, host.data(), std::size_t(p.n) * p.k * 2, cudaMemcpyHostToDevice), "copy");
  Arguments args{.problem = {p.m, p.n, p.k}, .a = {a, p.k}, .b = {b, p.k}, .d = {d, p.n},
                        .output_op = {1.0f, 0.0f}};
  std::size_t const bytes = std::size_t(64) << 20;  // more than any candidate asks for these shapes
  void* workspace = nullptr;
  check(cudaMalloc(&workspace, bytes), "cudaMalloc");

  Timed const sweep = best_of_sweep<Tuned>(args, workspace, bytes);  // the exhaustive sweep

  // Find mode's choice (search: times every candidate, stores the winner) and the heuristic's.
  Tuned searched({.mode = tune::FindMode::kSearch, .database = database});
  Tuned heuristic({.mode = tune::FindMode::kHeuristic, .database = std::string()});
  tune::TunedChoice found, guessed;
  if (!ok(searched.select_preferred(args, found)) || !ok(heuristic.select_preferred(args, guessed))) {
    state.SkipWithError("select failed");
    return;
  }
  std::vector<double> const t = interleaved<Tuned>(
      args, {sweep, {0, found.candidate, found.split_k_slices}, {0, guessed.candidate, guessed.split_k_slices}},
      workspace, bytes);
  double const best = t[0], tuned_time = t[1], heuristic_time = t[2];
  for (auto _ : state) state.SetIterationTime(tuned_time);
  double const flop = 2.0 * p.m * p.n * p.k;
  state.counters["best_TFLOPS"] = flop / best * 1e-12;
  state.counters["tuned_TFLOPS"] = flop / tuned_time * 1e-12;
  state.counters["tuned_vs_best"] = best / tuned_time;
  state.counters["heuristic_vs_best"] = best / heuristic_time;
  state.counters["tuned_candidate"] = found.candidate;
  state.counters["tuned_slices"] = found.split_k_slices;
  state.counters["heuristic_candidate"] = guessed.candidate;
  state.counters["best_candidate"] = sweep.candidate;
  state.counters["best_slices"] = sweep.slices;
  std::printf("%dx%dx%d: tuned %s; heuristic %s\n", p.m, p.n, p.k, found.name.c_str(), guessed.name.c_str());
  cudaFree(workspace);
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
}

// Convolution: DefaultTunedConvolution of each operator on the ResNet-50 layers of
// benchmark/conv_nvidia.cu (N = 32), the same way.
template <conv::ConvOperator Op>
using TunedConv = tune::DefaultTunedConvolution<Op, half_t, half_t, arch::Sm90>;

struct Layer {
  char const* name;
  int hw, c, k, rs, stride, pad;
};
constexpr Layer kLayers[] = {
    {"L1_3x3_64to64_56", 56, 64, 64, 3, 1, 1},         {"L2_1x1s2_256to128_56", 56, 256, 128, 1, 2, 0},
    {"L3_3x3_128to128_28", 28, 128, 128, 3, 1, 1},     {"L4_3x3s2_256to256_28", 28, 256, 256, 3, 2, 1},
    {"L5_3x3_512to512_14", 14, 512, 512, 3, 1, 1},     {"L6_1x1s2_1024to2048_14", 14, 1024, 2048, 1, 2, 0},
    {"L7_3x3s2_64to64_224", 224, 64, 64, 3, 2, 1},
};

template <conv::ConvOperator Op>
void conv_tuned_vs_exhaustive(benchmark::State& state, Layer l, std::string database) {
  using T = TunedConv<Op>;
  conv::ConvProblemSize const p = conv::ConvProblemSize::conv2d(32, l.hw, l.hw, l.c, l.k, l.rs, l.rs, l.pad, l.pad,
                                                                l.stride, l.stride);
  std::int64_t const x = p.activation_elements(), w = p.filter_elements(), y = p.output_elements();
  std::int64_t const a_elements = Op == conv::ConvOperator::kFprop ? x : y;
  std::int64_t const b_elements = Op == conv::ConvOperator::kWgrad ? x : w;
  std::int64_t const d_elements = Op == conv::ConvOperator::kFprop ? y : Op == conv::ConvOperator::kDgrad ? x : w;
  half_t *a = nullptr, *b = nullptr, *d = nullptr;
  check(cudaMalloc(&a, std::size_t(a_elements) * 2), "cudaMalloc");
  check(cudaMalloc(&b, std::size_t(b_elements) * 2), "cudaMalloc");
  check(cudaMalloc(&d, std::size_t(d_elements) * 2), "cudaMalloc");
  std::vector<half_t> host(std::size_t(std::max(a_elements, b_elements)));
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  for (half_t& v : host) v = half_t(u(rng));
  check(cudaMemcpy(a, host.data(), std::size_t(a_elements) * 2, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(b, host.data(), std::size_t(b_elements) * 2, cudaMemcpyHostToDevice), "copy");
  typename T::Arguments args{p, a, b, nullptr, d, {1.0f, 0.0f}};
  std::size_t const bytes = std::size_t(256) << 20;  // parallel split-K's partial sums of Wgrad's largest layer
  void* workspace = nullptr;
  check(cudaMalloc(&workspace, bytes), "cudaMalloc");
  Timed const sweep = best_of_sweep<T>(args, workspace, bytes);
  T searched({.mode = tune::FindMode::kSearch, .database = database});
  T heuristic({.mode = tune::FindMode::kHeuristic, .database = std::string()});
  tune::TunedChoice found, guessed;
  if (!ok(searched.select_preferred(args, found)) || !ok(heuristic.select_preferred(args, guessed))) {
    state.SkipWithError("select failed");
    return;
  }
  std::vector<Timed> const choices = {sweep, {0, found.candidate, found.split_k_slices},
                                      {0, guessed.candidate, guessed.split_k_slices}};
  std::vector<double> const t = interleaved<T>(args, choices, workspace, bytes);
  for (auto _ : state) state.SetIterationTime(t[1]);
  double const flop = 2.0 * double(p.macs());
  state.counters["best_TFLOPS"] = flop / t[0] * 1e-12;
  state.counters["tuned_vs_best"] = t[0] / t[1];
  state.counters["heuristic_vs_best"] = t[0] / t[2];
  state.counters["best_candidate"] = sweep.candidate;
  state.counters["best_slices"] = sweep.slices;
  state.counters["tuned_candidate"] = found.candidate;
  state.counters["tuned_slices"] = found.split_k_slices;
  state.counters["heuristic_candidate"] = guessed.candidate;
  state.counters["heuristic_slices"] = guessed.split_k_slices;
  cudaFree(workspace);
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
}

}  // namespace

int main(int argc, char** argv) {
  std::string const database = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                               "/hiptile_tuned_nvidia_" + std::to_string(long(getpid())) + ".db";
  Problem const shapes[] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 11008, 4096}, {3000, 3000, 3000},
                            {1000, 1000, 1000}, {512, 512, 8192},   {4096, 4096, 512},   {128, 4096, 4096},
                            {16, 4096, 4096},   {1, 4096, 4096}};
  for (Problem const& p : shapes) {
    std::string const name = "tuned_vs_exhaustive/" + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                             std::to_string(p.k);
    benchmark::RegisterBenchmark(name.c_str(), tuned_vs_exhaustive, p, database)->UseManualTime()->Iterations(1);
  }
  {  // about a second of the largest shape first: the GPU idles at a low clock
    Problem const warm{8192, 8192, 8192};
    half_t *a = nullptr, *b = nullptr, *d = nullptr;
    check(cudaMalloc(&a, std::size_t(warm.m) * warm.k * 2), "cudaMalloc");
    check(cudaMalloc(&b, std::size_t(warm.n) * warm.k * 2), "cudaMalloc");
    check(cudaMalloc(&d, std::size_t(warm.m) * warm.n * 2), "cudaMalloc");
    Arguments args{.problem = {warm.m, warm.n, warm.k}, .a = {a, warm.k}, .b = {b, warm.k}, .d = {d, warm.n},
                   .output_op = {1.0f, 0.0f}};
    using Large = std::tuple_element_t<0, Tuned::CandidateList>;
    Large op;
    if (ok(op.initialize(args))) {
      for (int i = 0; i < 400; ++i) (void)op.run(nullptr);
    }
    check(cudaDeviceSynchronize(), "warm-up");
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
  }
  for (Layer const& l : kLayers) {
    std::string const base = std::string("conv_tuned_vs_exhaustive/") + l.name;
    benchmark::RegisterBenchmark((base + "/fprop").c_str(), conv_tuned_vs_exhaustive<conv::ConvOperator::kFprop>, l,
                                 database)
        ->UseManualTime()
        ->Iterations(1);
    benchmark::RegisterBenchmark((base + "/dgrad").c_str(), conv_tuned_vs_exhaustive<conv::ConvOperator::kDgrad>, l,
                                 database)
        ->UseManualTime()
        ->Iterations(1);
    benchmark::RegisterBenchmark((base + "/wgrad").c_str(), conv_tuned_vs_exhaustive<conv::ConvOperator::kWgrad>, l,
                                 database)
        ->UseManualTime()
        ->Iterations(1);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::remove(database.c_str());
  return 0;
}
