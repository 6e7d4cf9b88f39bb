// Back-to-back GEMM on an NVIDIA GPU: hiptile's B2bGemm (mma.sync atoms, the first product kept in
// registers) beside the same computation as two cuBLAS GEMMs (P = A·B0 written to memory in f16,
// then D = P·B1), same shapes and data, each hiptile measurement right after its cuBLAS one.
// GPU-timed with CUDA events (manual time), each timed iteration several runs long.
// A row-major (M × K0), B0 column-major (K0 × N0: a linear layer's weights), B1 and D row-major;
// f16 in, fp32 sums, f16 out; op0 and op1 the identity. Counters: TFLOPS (both products' flops),
// and for hiptile the ratio of its speed to the cuBLAS pair's (vs_cublas).
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/platform/platform.hpp"

#include "cuda_timing.hpp"

namespace {

using namespace hiptile;
using B2b = gemm::device::DefaultB2bGemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t,
                                         layout::RowMajor, half_t, layout::RowMajor, arch::Sm90>;
// Alternatives to the default, measured beside it to choose it: rows per workgroup and per warp,
// the first product's K tile, stages.
template <int TileM, int K0, int WaveM, int Stages>
using Variant = gemm::device::B2bGemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor,
                                      half_t, layout::RowMajor, arch::Sm90, gemm::B2bGemmShape<TileM, 64, K0, 64>, WaveM,
                                      arch::MmaSync16x8x16F16, epilogue::LinearCombination<half_t>,
                                      epilogue::LinearCombination<half_t>, Stages>;

using bench::check;

// The operands of one shape, random in [-1, 1]; P is the cuBLAS pair's intermediate.
struct Problem {
  int m, k0, n0, n1;
  half_t *a = nullptr, *b0 = nullptr, *b1 = nullptr, *p = nullptr, *d = nullptr;
  Problem(int m_, int k0_, int n0_, int n1_) : m(m_), k0(k0_), n0(n0_), n1(n1_) {
    std::mt19937 rng(m + k0 + n0 + n1);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    auto upload = [&](half_t*& to, std::size_t count) {
      std::vector<half_t> host(count);
      for (auto& x : host) x = half_t(dist(rng));  // random data: zeros run faster than real inputs
      check(cudaMalloc(&to, count * sizeof(half_t)), "cudaMalloc");
      check(cudaMemcpy(to, host.data(), count * sizeof(half_t), cudaMemcpyHostToDevice), "copy");
    };
    upload(a, std::size_t(m) * k0);
    upload(b0, std::size_t(k0) * n0);
    upload(b1, std::size_t(n0) * n1);
    upload(p, std::size_t(m) * n0);
    upload(d, std::size_t(m) * n1);
  }
  ~Problem() {
    for (half_t* x : {a, b0, b1, p, d}) cudaFree(x);
  }
  double flops() const { return 2.0 * m * n0 * (double(k0) + n1); }
};

std::map<std::tuple<int, int, int, int>, double>& cublas_seconds() {
  static std::map<std::tuple<int, int, int, int>, double> times;
  return times;
}

// Times `run` with events: iterations × reps launches; reports seconds per run.
template <class Run>
double time_gpu(benchmark::State& state, Problem const& p, Run&& run) {
  bench::warm_up(run);
  int const reps = std::max(1, int(2e10 / p.flops()));  // about a tenth of a millisecond or more
  bench::GpuTimer timer;
  double total = 0;
  for (auto _ : state) {
    double const seconds = timer.seconds_per_run(reps, run);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  double const seconds = total / state.iterations();
  state.counters["TFLOPS"] = p.flops() / seconds / 1e12;
  state.SetLabel(std::to_string(p.m) + "x" + std::to_string(p.k0) + "->" + std::to_string(p.n0) + "->" +
                 std::to_string(p.n1));
  return seconds;
}

void BM_CublasPair(benchmark::State& state) {
  Problem p(state.range(0), state.range(1), state.range(2), state.range(3));
  cublasHandle_t handle;
  cublasCreate(&handle);
  float const one = 1.0f, zero = 0.0f;
  // Row-major X = Y·Z as column-major Xᵀ = Zᵀ·Yᵀ.
  auto run = [&] {
    cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, p.n0, p.m, p.k0, &one, p.b0, CUDA_R_16F, p.k0, p.a, CUDA_R_16F,
                 p.k0, &zero, p.p, CUDA_R_16F, p.n0, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, p.n1, p.m, p.n0, &one, p.b1, CUDA_R_16F, p.n1, p.p, CUDA_R_16F,
                 p.n0, &zero, p.d, CUDA_R_16F, p.n1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  cublas_seconds()[{p.m, p.k0, p.n0, p.n1}] = time_gpu(state, p, run);
  cublasDestroy(handle);
}

template <class B = B2b>
void BM_HiptileB2b(benchmark::State& state) {
  Problem p(state.range(0), state.range(1), state.range(2), state.range(3));
  typename B::Arguments args;
  args.problem = {p.m, p.n0, p.k0, p.n1};
  args.a = {p.a, p.k0};
  args.b0 = {p.b0, p.k0};
  args.b1 = {p.b1, p.n1};
  args.d = {p.d, p.n1};
  B op;
  if (op.initialize(args) != Status::kSuccess) {
    state.SkipWithError("B2bGemm refused the problem");
    return;
  }
  double const seconds = time_gpu(state, p, [&] { (void)op.run(); });
  auto const vendor = cublas_seconds().find({p.m, p.k0, p.n0, p.n1});
  if (vendor != cublas_seconds().end()) state.counters["vs_cublas"] = vendor->second / seconds;
}

// (M, K0, N0, N1): CUTLASS's b2b example (M = 128·640, K0 = 576, N0 = 64, N1 = 128); MLP blocks
// with a 64-wide hidden layer; a narrow one. Each shape's cuBLAS pair right before hiptile's.
void Register() {
  for (auto const& s : std::vector<std::vector<std::int64_t>>{
           {81920, 576, 64, 128}, {16384, 1024, 64, 1024}, {65536, 256, 64, 256}, {32768, 128, 32, 64}}) {
    benchmark::RegisterBenchmark("cublas_pair", BM_CublasPair)->Args(s)->UseManualTime();
    benchmark::RegisterBenchmark("hiptile_b2b", BM_HiptileB2b<>)->Args(s)->UseManualTime();
    benchmark::RegisterBenchmark("hiptile_b2b_128x32_w32_s3", BM_HiptileB2b<Variant<128, 32, 32, 3>>)
        ->Args(s)
        ->UseManualTime();
    benchmark::RegisterBenchmark("hiptile_b2b_128x64_w32_s3", BM_HiptileB2b<Variant<128, 64, 32, 3>>)
        ->Args(s)
        ->UseManualTime();
    benchmark::RegisterBenchmark("hiptile_b2b_64x64_w16_s4", BM_HiptileB2b<Variant<64, 64, 16, 4>>)
        ->Args(s)
        ->UseManualTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
