// GEMM throughput on an NVIDIA GPU: hiptile's templates (mma.sync atoms, sm_90 build) beside cuBLAS
// in the same run, same shapes, same data, each hiptile measurement right after its cuBLAS one. GPU-timed with CUDA events (manual time); each timed
// iteration runs the operation several times so short problems are not dominated by event overhead.
// Counters: TFLOPS, and for hiptile the ratio to the cuBLAS run of the same shape (vs_cublas).
// D = A·B with A row-major (M×K), B column-major (K×N), D row-major, f16 in, f32 accumulate, f16 out.
// Environment: GEMM_SHAPES="MxNxK,..." adds shapes of one's own; GEMM_LD_ALIGN=E pads every row to
// a multiple of E elements (the row pitch's cost: docs/performance.md, "Short K and the row pitch").
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/platform.hpp"

#include "cuda_timing.hpp"

namespace {

using namespace hiptile;
using Gemm = gemm::device::DefaultGemmConfiguration<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t,
                                       layout::RowMajor, arch::Sm90>;

// Alternatives to the default, measured beside it to choose the default.
template <class Tile, class Wave, int Stages>
using Variant = gemm::device::Gemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor, float,
                                   arch::Sm90, Tile, Wave, arch::MmaSync16x8x16F16, epilogue::LinearCombination<half_t>,
                                   gemm::kernel::GroupedTileOrder<8>, Stages>;
using Tile128x128x64 = Variant<GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, 3>;    // 4 warps, 2 CTAs per SM
using Tile128x256x64 = Variant<GemmShape<128, 256, 64>, GemmShape<64, 64, 64>, 3>;    // 8 warps, 3 stages
using Tile256x128x64s3 = Variant<GemmShape<256, 128, 64>, GemmShape<64, 64, 64>, 3>;  // the default tile, 3 stages
using Tile256x128x32 = Variant<GemmShape<256, 128, 32>, GemmShape<64, 64, 32>, 4>;    // 8 warps, 4 stages
// Three quarters of the default's area: 3000 x 3000 makes 384 of them, 2.9 waves of the H100's 132
// SMs, where the default's 288 tiles are 2.2 waves (the third mostly idle).
using Tile192x128x64 = Variant<GemmShape<192, 128, 64>, GemmShape<48, 64, 64>, 4>;  // 8 warps, 4 stages
// Half the 128 x 128 tile: 1000 x 1000 makes 128 of them, about one per SM.
using Tile128x64x64 = Variant<GemmShape<128, 64, 64>, GemmShape<64, 32, 64>, 4>;    // 4 warps, 4 stages
// Warpgroup MMAs (wgmma, sm_90a): TileM × TileN tiles of 16 × TileN warps, four to a 64-row
// instruction; data-parallel, or with their K shared (stream-K, serial or parallel split-K: slices
// are the benchmark's 4th argument), with 4 stages or as many as fill shared memory: a skinny
// problem streams its operands from DRAM, whose latency takes more tiles in flight than one that
// hits in L2.
template <int TileM, int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone, int Stages = 4>
using WarpgroupTile =
    gemm::device::Gemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor, float,
                       arch::Sm90, GemmShape<TileM, TileN, 64>, GemmShape<16, TileN, 64>, arch::WarpgroupMma<half_t>,
                       epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, Stages, Mode>;
using Wgmma128x128 = WarpgroupTile<128, 128>;  // 8 warps
using Wgmma128x256 = WarpgroupTile<128, 256>;  // 8 warps, 192 KB
using Wgmma256x128 = WarpgroupTile<256, 128>;  // 16 warps
using StreamKWgmma128x256 = WarpgroupTile<128, 256, gemm::kernel::SplitKMode::kStreamK>;
using StreamKWgmma128x128 = WarpgroupTile<128, 128, gemm::kernel::SplitKMode::kStreamK>;
using StreamKWgmma128x128s7 = WarpgroupTile<128, 128, gemm::kernel::SplitKMode::kStreamK, 7>;
using StreamKWgmma64x128 = WarpgroupTile<64, 128, gemm::kernel::SplitKMode::kStreamK>;
using StreamKWgmma64x128s8 = WarpgroupTile<64, 128, gemm::kernel::SplitKMode::kStreamK, 8>;
using StreamKWgmma64x256s5 = WarpgroupTile<64, 256, gemm::kernel::SplitKMode::kStreamK, 5>;
using ParallelWgmma128x128 = WarpgroupTile<128, 128, gemm::kernel::SplitKMode::kParallel>;
using ParallelWgmma128x128s7 = WarpgroupTile<128, 128, gemm::kernel::SplitKMode::kParallel, 7>;
using ParallelWgmma64x128 = WarpgroupTile<64, 128, gemm::kernel::SplitKMode::kParallel>;
using ParallelWgmma64x128s8 = WarpgroupTile<64, 128, gemm::kernel::SplitKMode::kParallel, 8>;
using SerialWgmma64x128s8 = WarpgroupTile<64, 128, gemm::kernel::SplitKMode::kSerial, 8>;
using SerialWgmma64x256s5 = WarpgroupTile<64, 256, gemm::kernel::SplitKMode::kSerial, 5>;
using SerialWgmma128x128s7 = WarpgroupTile<128, 128, gemm::kernel::SplitKMode::kSerial, 7>;
using SerialWgmma128x256 = WarpgroupTile<128, 256, gemm::kernel::SplitKMode::kSerial>;
using Wgmma64x128s8 = WarpgroupTile<64, 128, gemm::kernel::SplitKMode::kNone, 8>;
using Wgmma128x128s7 = WarpgroupTile<128, 128, gemm::kernel::SplitKMode::kNone, 7>;
// Stream-K (a grid of the device's SMs sharing the tiles' K iterations): the default's
// configuration, and the 128 × 128 tile, whose smaller tiles quantise less.
using StreamK = gemm::device::Gemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor, float,
                                   arch::Sm90, Gemm::TileShapeType, Gemm::WaveShapeType, Gemm::MmaAtomType,
                                   Gemm::OutputOpType, Gemm::TileOrderType, Gemm::kStages,
                                   gemm::kernel::SplitKMode::kStreamK>;
using StreamK128x128x64 =
    gemm::device::Gemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor, float,
                       arch::Sm90, GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, arch::MmaSync16x8x16F16,
                       epilogue::LinearCombination<half_t>, gemm::kernel::GroupedTileOrder<8>, 3,
                       gemm::kernel::SplitKMode::kStreamK>;

// Small M (decode steps): tiles of 64, 32 and 16 rows with stream-K, so a 16-row problem does not
// compute 128 or 256 rows per tile and its K is shared among the SMs.
template <int TileM, int WaveM, int WaveN, int Stages = 4>
using SmallM = gemm::device::Gemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t, layout::RowMajor,
                                  float, arch::Sm90, GemmShape<TileM, 128, 64>, GemmShape<WaveM, WaveN, 64>,
                                  arch::MmaSync16x8x16F16, epilogue::LinearCombination<half_t>,
                                  gemm::kernel::GroupedTileOrder<8>, Stages, gemm::kernel::SplitKMode::kStreamK>;
using StreamK64x128 = SmallM<64, 32, 64>;
using StreamK32x128 = SmallM<32, 32, 32>;
using StreamK16x128 = SmallM<16, 16, 32>;
using StreamK32x128s8 = SmallM<32, 32, 32, 8>;
using StreamK16x128s8 = SmallM<16, 16, 32, 8>;

using bench::check;

// GEMM_LD_ALIGN=E: A's and B's rows (K long) and D's (N long) start E elements apart, rounded up
// from K and N (E = 64 f16 elements: every row begins on a 128-byte line); unset, they are packed.
int leading_dimension(int extent) {
  static int const align = [] {
    char const* text = std::getenv("GEMM_LD_ALIGN");
    return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : 1;
  }();
  return (extent + align - 1) / align * align;
}

// A × B → D of element E (A row-major M×K, B column-major K×N, D row-major), random in [-1, 1].
template <class E>
struct ProblemOf {
  int m, n, k;
  int ld_ab = leading_dimension(k), ld_d = leading_dimension(n);
  E* a = nullptr;
  E* b = nullptr;
  E* d = nullptr;
  ProblemOf(int m_, int n_, int k_) : m(m_), n(n_), k(k_) {
    std::mt19937 rng(m + n + k);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<E> host(std::size_t(std::max(m, n)) * ld_ab);
    for (auto& x : host) x = E(dist(rng));  // random data: zeros run faster than real inputs
    check(cudaMalloc(&a, std::size_t(m) * ld_ab * sizeof(E)), "cudaMalloc");
    check(cudaMalloc(&b, std::size_t(n) * ld_ab * sizeof(E)), "cudaMalloc");
    check(cudaMalloc(&d, std::size_t(m) * ld_d * sizeof(E)), "cudaMalloc");
    check(cudaMemcpy(a, host.data(), std::size_t(m) * ld_ab * sizeof(E), cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(b, host.data(), std::size_t(n) * ld_ab * sizeof(E), cudaMemcpyHostToDevice), "copy");
  }
  ~ProblemOf() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
  }
  double flops() const { return 2.0 * m * n * double(k); }
};
using Problem = ProblemOf<half_t>;

// cuBLAS's seconds per shape, for the ratio of the hiptile run that follows (per input type).
template <class E = half_t>
std::map<std::tuple<int, int, int>, double>& cublas_seconds() {
  static std::map<std::tuple<int, int, int>, double> times;
  return times;
}

// A problem's extents, for timing one whose buffers are not a Problem's.
struct Extent {
  int m, n, k;
  double flops() const { return 2.0 * m * n * double(k); }
};

// Times `run` with events: iterations × reps launches; reports seconds per launch. P: Problem or Extent.
template <class P, class Run>
void time_gpu(benchmark::State& state, P const& p, Run&& run) {
  bench::warm_up(run);
  int const reps = std::max(1, int(2e11 / p.flops()));  // about a millisecond of work or more
  bench::GpuTimer timer;
  double total = 0, host = 0;
  for (auto _ : state) {
    double enqueue = 0;
    double const seconds = timer.seconds_per_run(reps, run, &enqueue);
    state.SetIterationTime(seconds);
    total += seconds;
    host += enqueue;
  }
  double const seconds = total / state.iterations();
  state.counters["TFLOPS"] = p.flops() / seconds / 1e12;
  state.counters["reps"] = reps;
  // The host's time to enqueue one run: where it reaches the GPU time, the launches bound the run.
  state.counters["host_us"] = host / state.iterations() * 1e6;
  state.SetLabel(std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k));
}

// cuBLAS on E inputs and output: f16 with fp32 compute, or f32 in its TF32 mode
// (CUBLAS_COMPUTE_32F_FAST_TF32), the counterpart of hiptile's tf32 atom.
template <class E>
void BM_CublasOf(benchmark::State& state) {
  ProblemOf<E> p(state.range(0), state.range(1), state.range(2));
  constexpr bool kTf32 = std::is_same_v<E, float>;
  constexpr cudaDataType kType = kTf32 ? CUDA_R_32F : CUDA_R_16F;
  constexpr cublasComputeType_t kCompute = kTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  cublasHandle_t handle;
  cublasCreate(&handle);
  float const alpha = 1.0f, beta = 0.0f;
  // Row-major D = A·B is column-major Dᵀ = Bᵀ·Aᵀ: B (column-major K×N) transposed, A as is.
  auto run = [&] {
    cublasStatus_t const s = cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, p.n, p.m, p.k, &alpha, p.b, kType, p.ld_ab,
                                          p.a, kType, p.ld_ab, &beta, p.d, kType, p.ld_d, kCompute, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) std::exit(2);
  };
  time_gpu(state, p, run);
  cublas_seconds<E>()[{p.m, p.n, p.k}] = p.flops() / (state.counters["TFLOPS"] * 1e12);
  cublasDestroy(handle);
}
void (*const BM_Cublas)(benchmark::State&) = BM_CublasOf<half_t>;

// NN (A column-major, B row-major, D row-major) on square problems, whose leading dimensions are
// all the size, so ProblemOf's buffers serve as they are. Column-major, Dᵀ = Bᵀ·Aᵀ: B (row-major
// K×N) as is, A (column-major M×K) transposed.
void BM_CublasNN(benchmark::State& state) {
  ProblemOf<half_t> p(state.range(0), state.range(1), state.range(2));
  cublasHandle_t handle;
  cublasCreate(&handle);
  float const alpha = 1.0f, beta = 0.0f;
  auto run = [&] {
    cublasStatus_t const s = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_T, p.n, p.m, p.k, &alpha, p.b, CUDA_R_16F, p.n,
                                          p.a, CUDA_R_16F, p.m, &beta, p.d, CUDA_R_16F, p.ld_d, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) std::exit(2);
  };
  time_gpu(state, p, run);
  cublas_seconds<half_t>()[{p.m, p.n, p.k}] = p.flops() / (state.counters["TFLOPS"] * 1e12);
  cublasDestroy(handle);
}

// hiptile's G: a Gemm configuration, or DefaultGemm (a SelectingGemm: the configuration its
// heuristic picks for the shape, with the candidate index and rule as counters and the
// configuration in the label).
template <class G>
void BM_Hiptile(benchmark::State& state) {
  constexpr bool kSelecting = requires(G const& g) { g.choice(); };
  Problem p(state.range(0), state.range(1), state.range(2));
  typename G::Arguments args{{p.m, p.n, p.k}, {p.a, p.ld_ab}, {p.b, p.ld_ab}, {p.d, p.ld_d}, {p.d, p.ld_d}, {1.0f, 0.0f}};
  if constexpr (!kSelecting) {
    if constexpr (G::kStreamK) args.stream_k_workgroups = static_cast<int>(state.range(3));  // 0: the device's
    if constexpr (G::kSplitK == gemm::kernel::SplitKMode::kSerial || G::kParallelSplitK) {
      args.split_k_slices = std::max(1, static_cast<int>(state.range(3)));
    }
  }
  void* workspace = nullptr;
  args.workspace_bytes = G::get_workspace_size(args);
  if (args.workspace_bytes > 0) check(cudaMalloc(&workspace, args.workspace_bytes), "cudaMalloc");
  args.workspace = workspace;
  G gemm;
  if (Status s = gemm.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
    cudaFree(workspace);
    return;
  }
  time_gpu(state, p, [&] {
    if (!ok(gemm.run())) std::exit(3);
  });
  if constexpr (kSelecting) {
    gemm::device::GemmChoice const& c = gemm.choice();
    state.counters["candidate"] = c.candidate;
    state.counters["rule"] = static_cast<int>(c.reason);
    state.SetLabel(std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) + " " +
                   std::to_string(c.tile_m) + "x" + std::to_string(c.tile_n) + "x" + std::to_string(c.tile_k) + " " +
                   gemm::kernel::to_string(c.schedule) +
                   (c.split_k_slices > 1 ? " /" + std::to_string(c.split_k_slices) : std::string()));
  } else if constexpr (G::kStreamK) {  // what the schedule chose
    state.counters["dp_tiles"] = gemm.stream_k().dp_tiles;
    state.counters["sk_tiles"] = gemm.stream_k().sk_tiles;
    state.counters["units"] = gemm.stream_k().units;
  }
  auto const it = cublas_seconds().find({p.m, p.n, p.k});
  if (it != cublas_seconds().end()) {
    state.counters["vs_cublas"] = it->second / (p.flops() / (state.counters["TFLOPS"] * 1e12));
  }
  cudaFree(workspace);
}

using Default = gemm::device::DefaultGemm<half_t, layout::RowMajor, half_t, layout::ColumnMajor, half_t,
                                          layout::RowMajor, arch::Sm90>;

// NN: DefaultGemm (warpgroup MMAs reading the MN-contiguous stages with their transpose bit) and
// the mma.sync configuration that was NN's default before (256×128 of eight 64×64 warps, operands
// transposed through registers).
using DefaultNN = gemm::device::DefaultGemm<half_t, layout::ColumnMajor, half_t, layout::RowMajor, half_t,
                                            layout::RowMajor, arch::Sm90>;
using MmaSyncNN = gemm::device::Gemm<half_t, layout::ColumnMajor, half_t, layout::RowMajor, half_t, layout::RowMajor,
                                     float, arch::Sm90, GemmShape<256, 128, 64>, GemmShape<64, 64, 64>,
                                     arch::MmaSync16x8x16F16, epilogue::LinearCombination<half_t>,
                                     gemm::kernel::GroupedTileOrder<8>, 4>;

// 8-bit GEMMs (DefaultGemmConfiguration: warpgroup MMAs, fp8 128×128, int8 128×256): A row-major,
// B column-major, D row-major, random inputs. Their baselines are PyTorch's (torch._scaled_mm,
// torch._int_mm), timed the same way by benchmark/gemm_torch.py in the same device run. Int8MmaSync
// is int8's default before warpgroup MMAs took int8 (256×128 of eight 64×64 warps, m16n8k32).
using Fp8Gemm = gemm::device::DefaultGemmConfiguration<float8_e4m3fn, layout::RowMajor, float8_e4m3fn, layout::ColumnMajor,
                                          half_t, layout::RowMajor, arch::Sm90>;
using Int8Gemm = gemm::device::DefaultGemmConfiguration<std::int8_t, layout::RowMajor, std::int8_t, layout::ColumnMajor,
                                           std::int32_t, layout::RowMajor, arch::Sm90>;
using Int8DefaultGemm = gemm::device::DefaultGemm<std::int8_t, layout::RowMajor, std::int8_t, layout::ColumnMajor,
                                                  std::int32_t, layout::RowMajor, arch::Sm90>;
using Int8MmaSync = gemm::device::Gemm<std::int8_t, layout::RowMajor, std::int8_t, layout::ColumnMajor, std::int32_t,
                                       layout::RowMajor, std::int32_t, arch::Sm90, GemmShape<256, 128, 128>,
                                       GemmShape<64, 64, 128>, arch::MmaSync16x8x32S8,
                                       epilogue::IntegerOutput<std::int32_t>, gemm::kernel::GroupedTileOrder<8>, 4>;
// int8 warpgroup tiles beside the default's 128 × 256 × 128 of 4 stages: 3 stages, and 128 × 128 of
// 3 stages (96 KB, two per SM: one's int32 epilogue, twice f16's bytes, under the other's K loop).
template <int TileN, int Stages>
using Int8Warpgroup = gemm::device::Gemm<std::int8_t, layout::RowMajor, std::int8_t, layout::ColumnMajor, std::int32_t,
                                         layout::RowMajor, std::int32_t, arch::Sm90, GemmShape<128, TileN, 128>,
                                         GemmShape<16, TileN, 128>, arch::WarpgroupMma<std::int8_t>,
                                         epilogue::IntegerOutput<std::int32_t>, gemm::kernel::GroupedTileOrder<8>, Stages>;
using Int8Wgmma128x256s3 = Int8Warpgroup<256, 3>;
using Int8Wgmma128x128s3 = Int8Warpgroup<128, 3>;
using Int8Wgmma128x128s4 = Int8Warpgroup<128, 4>;

template <class G>
void BM_HiptileTyped(benchmark::State& state) {
  using EA = typename G::ElementA;
  using EC = typename G::ElementC;
  int const m = state.range(0), n = state.range(1), k = state.range(2);
  std::mt19937 rng(m + n + k);
  std::uniform_int_distribution<int> bits(0, 255);
  std::vector<EA> host(std::size_t(std::max(m, n)) * k);
  for (auto& x : host) {  // random bytes, NaN codes excluded: ±(small) values of either type
    std::uint8_t byte = std::uint8_t(bits(rng)) & 0xbf;
    std::memcpy(&x, &byte, 1);
  }
  EA *a = nullptr, *b = nullptr;
  EC* d = nullptr;
  check(cudaMalloc(&a, std::size_t(m) * k), "cudaMalloc");
  check(cudaMalloc(&b, std::size_t(n) * k), "cudaMalloc");
  check(cudaMalloc(&d, std::size_t(m) * n * sizeof(EC)), "cudaMalloc");
  check(cudaMemcpy(a, host.data(), std::size_t(m) * k, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(b, host.data(), std::size_t(n) * k, cudaMemcpyHostToDevice), "copy");
  typename G::Arguments args{{m, n, k}, {a, k}, {b, k}, {}, {d, n}};
  G gemm;
  if (Status s = gemm.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
  } else {
    time_gpu(state, Extent{m, n, k}, [&] {
      if (!ok(gemm.run())) std::exit(3);
    });
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(d);
}

// f32 inputs multiplied as tf32 (mma.sync m16n8k8) beside cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32
// (BM_CublasOf<float>): f32 A, B and D, fp32 accumulation.
using Tf32Gemm = gemm::device::Gemm<float, layout::RowMajor, float, layout::ColumnMajor, float, layout::RowMajor, float,
                                    arch::Sm90, GemmShape<256, 128, 32>, GemmShape<64, 64, 32>,
                                    arch::MmaSync16x8x8Tf32, epilogue::LinearCombination<float>,
                                    gemm::kernel::GroupedTileOrder<8>, 4>;


void BM_HiptileTf32(benchmark::State& state) {
  ProblemOf<float> p(state.range(0), state.range(1), state.range(2));
  Tf32Gemm::Arguments args{{p.m, p.n, p.k}, {p.a, p.ld_ab}, {p.b, p.ld_ab}, {}, {p.d, p.ld_d}, {1.0f, 0.0f}};
  Tf32Gemm gemm;
  if (Status s = gemm.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
    return;
  }
  time_gpu(state, p, [&] {
    if (!ok(gemm.run())) std::exit(3);
  });
  auto const it = cublas_seconds<float>().find({p.m, p.n, p.k});
  if (it != cublas_seconds<float>().end()) {
    state.counters["vs_cublas"] = it->second / (p.flops() / (state.counters["TFLOPS"] * 1e12));
  }
}

// A mixture-of-experts layer: `tokens` rows of A (K = 2048) sorted by expert, expert e's rows times
// its own weights B_e (N = 4096 × K, column-major), into its rows of D. Equal token counts, or
// uneven ones (a fixed skewed split, every expert with some). Beside it, in the same run, the loop
// of one cuBLAS call per expert that a framework without a grouped kernel makes.
struct MixtureOfExperts {
  static constexpr int kTokens = 16384, kN = 4096, kK = 2048;
  std::vector<int> counts;
  half_t* a = nullptr;
  half_t* b = nullptr;  // experts × N × K
  half_t* d = nullptr;
  MixtureOfExperts(int experts, bool uneven) : counts(experts, kTokens / experts) {
    if (uneven) {  // weights 1..16 in a fixed scrambled order: counts from about 1/4 to 2.5 of the mean
      std::vector<double> w(experts);
      double total = 0;
      for (int e = 0; e < experts; ++e) total += w[e] = 1 + (e * 7) % 16;
      int given = 0;
      for (int e = 0; e < experts; ++e) given += counts[e] = int(kTokens * w[e] / total);
      counts[0] += kTokens - given;
    }
    std::mt19937 rng(experts);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<half_t> host(std::size_t(kN) * kK * std::max(experts, kTokens / kN));
    for (auto& x : host) x = half_t(dist(rng));
    check(cudaMalloc(&a, std::size_t(kTokens) * kK * 2), "cudaMalloc");
    check(cudaMalloc(&b, std::size_t(experts) * kN * kK * 2), "cudaMalloc");
    check(cudaMalloc(&d, std::size_t(kTokens) * kN * 2), "cudaMalloc");
    check(cudaMemcpy(a, host.data(), std::size_t(kTokens) * kK * 2, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(b, host.data(), std::size_t(experts) * kN * kK * 2, cudaMemcpyHostToDevice), "copy");
  }
  ~MixtureOfExperts() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
  }
  Extent extent() const { return {kTokens, kN, kK}; }  // the FLOPs of all experts together
};

std::map<std::pair<int, int>, double>& cublas_loop_seconds() {
  static std::map<std::pair<int, int>, double> times;
  return times;
}

void BM_CublasExpertLoop(benchmark::State& state) {
  MixtureOfExperts moe(int(state.range(0)), state.range(1) != 0);
  cublasHandle_t handle;
  cublasCreate(&handle);
  float const alpha = 1.0f, beta = 0.0f;
  time_gpu(state, moe.extent(), [&] {
    std::int64_t first = 0;
    for (std::size_t e = 0; e < moe.counts.size(); ++e) {
      int const m = moe.counts[e], n = MixtureOfExperts::kN, k = MixtureOfExperts::kK;
      cublasStatus_t const s = cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha,
                                            moe.b + std::int64_t(e) * n * k, CUDA_R_16F, k, moe.a + first * k,
                                            CUDA_R_16F, k, &beta, moe.d + first * n, CUDA_R_16F, n,
                                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      if (s != CUBLAS_STATUS_SUCCESS) std::exit(2);
      first += m;
    }
  });
  cublas_loop_seconds()[{int(state.range(0)), int(state.range(1))}] =
      moe.extent().flops() / (state.counters["TFLOPS"] * 1e12);
  state.SetLabel(std::to_string(moe.counts.size()) + (state.range(1) ? " experts, uneven" : " experts, equal"));
  cublasDestroy(handle);
}

template <class G>
void BM_HiptileGrouped(benchmark::State& state) {
  using Grouped = gemm::device::GroupedGemmOf<G>;
  MixtureOfExperts moe(int(state.range(0)), state.range(1) != 0);
  int const n = MixtureOfExperts::kN, k = MixtureOfExperts::kK;
  std::vector<typename Grouped::GroupArguments> groups;
  std::int64_t first = 0;
  for (std::size_t e = 0; e < moe.counts.size(); ++e) {
    groups.push_back({{moe.counts[e], n, k},
                      {moe.a + first * k, k},
                      {moe.b + std::int64_t(e) * n * k, k},
                      {},
                      {moe.d + first * n, n},
                      {1.0f, 0.0f}});
    first += moe.counts[e];
  }
  typename Grouped::Arguments args{int(groups.size()), groups.data()};
  args.workspace_bytes = Grouped::get_workspace_size(args);
  check(cudaMalloc(&args.workspace, args.workspace_bytes), "cudaMalloc");
  Grouped op;
  if (Status s = op.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
  } else {
    time_gpu(state, moe.extent(), [&] {
      if (!ok(op.run())) std::exit(3);
    });
    state.counters["workgroups"] = op.workgroups();
    state.counters["tiles"] = op.tiles();
    auto const it = cublas_loop_seconds().find({int(state.range(0)), int(state.range(1))});
    if (it != cublas_loop_seconds().end()) {
      state.counters["vs_cublas_loop"] = it->second / (moe.extent().flops() / (state.counters["TFLOPS"] * 1e12));
    }
    state.SetLabel(std::to_string(moe.counts.size()) + (state.range(1) ? " experts, uneven" : " experts, equal"));
  }
  cudaFree(args.workspace);
}

// The equal split as one strided batched GEMM (experts × (tokens / experts) × N × K), what
// torch.bmm runs through cuBLAS: hiptile's batched default beside cublasGemmStridedBatchedEx.
template <class G>
void BM_HiptileBatched(benchmark::State& state) {
  MixtureOfExperts moe(int(state.range(0)), false);
  int const experts = int(state.range(0)), m = MixtureOfExperts::kTokens / experts;
  int const n = MixtureOfExperts::kN, k = MixtureOfExperts::kK;
  typename G::Arguments args{{m, n, k}, {moe.a, k}, {moe.b, k}, {moe.d, n}, {moe.d, n}, {1.0f, 0.0f}};
  args.batch_count = experts;
  args.batch_stride_a = std::int64_t(m) * k;
  args.batch_stride_b = std::int64_t(n) * k;
  args.batch_stride_c = args.batch_stride_d = std::int64_t(m) * n;
  G gemm;
  if (Status s = gemm.initialize(args); !ok(s)) {
    state.SkipWithError(to_string(s));
    return;
  }
  time_gpu(state, moe.extent(), [&] {
    if (!ok(gemm.run())) std::exit(3);
  });
  state.SetLabel(std::to_string(experts) + " batches of " + std::to_string(m) + "x4096x2048");
}

void BM_CublasStridedBatched(benchmark::State& state) {
  MixtureOfExperts moe(int(state.range(0)), false);
  int const experts = int(state.range(0)), m = MixtureOfExperts::kTokens / experts;
  int const n = MixtureOfExperts::kN, k = MixtureOfExperts::kK;
  cublasHandle_t handle;
  cublasCreate(&handle);
  float const alpha = 1.0f, beta = 0.0f;
  time_gpu(state, moe.extent(), [&] {
    cublasStatus_t const s = cublasGemmStridedBatchedEx(
        handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, moe.b, CUDA_R_16F, k, std::int64_t(n) * k, moe.a,
        CUDA_R_16F, k, std::int64_t(m) * k, &beta, moe.d, CUDA_R_16F, n, std::int64_t(m) * n, experts,
        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) std::exit(2);
  });
  state.SetLabel(std::to_string(experts) + " batches of " + std::to_string(m) + "x4096x2048");
  cublasDestroy(handle);
}

// `fourth`: a stream-K configuration's grid (0: the device's), a split-K one's slices.
template <class Function>
void add(char const* name, Function function, int m, int n, int k, int fourth = 0) {
  benchmark::RegisterBenchmark(name, function)
      ->Args({m, n, k, fourth})
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

// Shapes of one's own, from GEMM_SHAPES="MxNxK,MxNxK,...": cuBLAS, DefaultGemm and the fixed
// configurations on each, registered before the built-in list (select them with --benchmark_filter).
void add_shapes_from_environment() {
  char const* list = std::getenv("GEMM_SHAPES");
  for (char const* p = list; p != nullptr && *p != '\0';) {
    int m = 0, n = 0, k = 0, used = 0;
    if (std::sscanf(p, "%dx%dx%d%n", &m, &n, &k, &used) != 3 || m < 1 || n < 1 || k < 1) {
      std::fprintf(stderr, "GEMM_SHAPES: expected MxNxK[,MxNxK...], read \"%s\"\n", p);
      std::exit(1);
    }
    add("BM_Cublas", BM_Cublas, m, n, k);
    add("BM_HiptileDefault", BM_Hiptile<Default>, m, n, k);
    add("BM_Hiptile<Gemm>", BM_Hiptile<Gemm>, m, n, k);
    add("BM_Hiptile<StreamK>", BM_Hiptile<StreamK>, m, n, k);
    add("BM_Hiptile<StreamK128x128x64>", BM_Hiptile<StreamK128x128x64>, m, n, k);
    add("BM_Hiptile<Tile128x128x64>", BM_Hiptile<Tile128x128x64>, m, n, k);
    add("BM_Hiptile<Tile128x256x64>", BM_Hiptile<Tile128x256x64>, m, n, k);
    add("BM_Hiptile<Tile192x128x64>", BM_Hiptile<Tile192x128x64>, m, n, k);
    add("BM_Hiptile<Tile128x64x64>", BM_Hiptile<Tile128x64x64>, m, n, k);
    add("BM_Hiptile<Wgmma128x128>", BM_Hiptile<Wgmma128x128>, m, n, k);
    add("BM_Hiptile<Wgmma128x256>", BM_Hiptile<Wgmma128x256>, m, n, k);
    add("BM_Hiptile<Wgmma256x128>", BM_Hiptile<Wgmma256x128>, m, n, k);
    add("BM_Hiptile<StreamKWgmma128x256>", BM_Hiptile<StreamKWgmma128x256>, m, n, k);
    add("BM_Hiptile<StreamKWgmma128x128>", BM_Hiptile<StreamKWgmma128x128>, m, n, k);
    add("BM_Hiptile<StreamKWgmma128x128s7>", BM_Hiptile<StreamKWgmma128x128s7>, m, n, k);
    add("BM_Hiptile<StreamKWgmma64x128>", BM_Hiptile<StreamKWgmma64x128>, m, n, k);
    add("BM_Hiptile<StreamKWgmma64x128s8>", BM_Hiptile<StreamKWgmma64x128s8>, m, n, k);
    add("BM_Hiptile<StreamKWgmma64x256s5>", BM_Hiptile<StreamKWgmma64x256s5>, m, n, k);
    add("BM_Hiptile<StreamK32x128s8>", BM_Hiptile<StreamK32x128s8>, m, n, k);
    add("BM_Hiptile<StreamK16x128s8>", BM_Hiptile<StreamK16x128s8>, m, n, k);
    add("BM_Hiptile<Wgmma64x128s8>", BM_Hiptile<Wgmma64x128s8>, m, n, k);
    add("BM_Hiptile<Wgmma128x128s7>", BM_Hiptile<Wgmma128x128s7>, m, n, k);
    for (int slices : {2, 3, 4, 6, 8}) {
      add("BM_Hiptile<SerialWgmma64x128s8>", BM_Hiptile<SerialWgmma64x128s8>, m, n, k, slices);
      add("BM_Hiptile<SerialWgmma64x256s5>", BM_Hiptile<SerialWgmma64x256s5>, m, n, k, slices);
      add("BM_Hiptile<SerialWgmma128x128s7>", BM_Hiptile<SerialWgmma128x128s7>, m, n, k, slices);
      add("BM_Hiptile<SerialWgmma128x256>", BM_Hiptile<SerialWgmma128x256>, m, n, k, slices);
    }
    for (int slices : {2, 4, 8}) {
      add("BM_Hiptile<ParallelWgmma128x128>", BM_Hiptile<ParallelWgmma128x128>, m, n, k, slices);
      add("BM_Hiptile<ParallelWgmma128x128s7>", BM_Hiptile<ParallelWgmma128x128s7>, m, n, k, slices);
      add("BM_Hiptile<ParallelWgmma64x128>", BM_Hiptile<ParallelWgmma64x128>, m, n, k, slices);
      add("BM_Hiptile<ParallelWgmma64x128s8>", BM_Hiptile<ParallelWgmma64x128s8>, m, n, k, slices);
    }
    p += used;
    if (*p == ',') ++p;
  }
}

// Each shape runs cuBLAS and then hiptile back to back, so both meet the GPU in the same state
// (clocks fall as it warms; a long series measured later reads a few percent slower).
int main(int argc, char** argv) {
  add_shapes_from_environment();
  int const shapes[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
                           {4096, 4096, 512},  {512, 512, 8192},   {16, 4096, 4096},   {3000, 3000, 3000},
                           {1000, 1000, 1000}, {128, 4096, 4096},  {4096, 11008, 4096}, {1496, 2504, 3496},
                           {257, 4097, 1000},  {5000, 700, 1496},  {64, 2000, 6000}};
  for (auto const& s : shapes) {
    add("BM_Cublas", BM_Cublas, s[0], s[1], s[2]);
    add("BM_HiptileDefault", BM_Hiptile<Default>, s[0], s[1], s[2]);
    add("BM_Hiptile<Gemm>", BM_Hiptile<Gemm>, s[0], s[1], s[2]);
    add("BM_Hiptile<StreamK>", BM_Hiptile<StreamK>, s[0], s[1], s[2]);
    add("BM_Hiptile<StreamK128x128x64>", BM_Hiptile<StreamK128x128x64>, s[0], s[1], s[2]);
  }
  // Stream-K on other grids than the device's, to see what the schedule costs: a grid that divides
  // the tiles (no sharing, the data-parallel kernel's work through the stream-K loop) and others.
  for (int workgroups : {144, 96, 100, 66}) {
    add("BM_Hiptile<StreamK>", BM_Hiptile<StreamK>, 3000, 3000, 3000, workgroups);
  }
  for (int workgroups : {32, 64, 128}) {
    add("BM_Hiptile<StreamK>", BM_Hiptile<StreamK>, 1000, 1000, 1000, workgroups);
    add("BM_Hiptile<StreamK>", BM_Hiptile<StreamK>, 1024, 1024, 1024, workgroups);
  }
  // Which edge costs a ragged shape its speed: M, N or K one short of a multiple of the tile.
  for (auto const& s : {std::array{1000, 1024, 1024}, std::array{1024, 1000, 1024}, std::array{1024, 1024, 1000}}) {
    add("BM_Cublas", BM_Cublas, s[0], s[1], s[2]);
    add("BM_Hiptile<Gemm>", BM_Hiptile<Gemm>, s[0], s[1], s[2]);
  }
  // Decode-step shapes: M of 1 to 128 against the small-M tiles.
  for (auto const& s : {std::array{1, 4096, 4096}, std::array{16, 4096, 4096}, std::array{32, 11008, 4096},
                        std::array{64, 4096, 4096}, std::array{128, 4096, 4096}}) {
    add("BM_Cublas", BM_Cublas, s[0], s[1], s[2]);
    add("BM_HiptileDefault", BM_Hiptile<Default>, s[0], s[1], s[2]);
    add("BM_Hiptile<StreamK128x128x64>", BM_Hiptile<StreamK128x128x64>, s[0], s[1], s[2]);
    add("BM_Hiptile<StreamK64x128>", BM_Hiptile<StreamK64x128>, s[0], s[1], s[2]);
    add("BM_Hiptile<StreamK32x128>", BM_Hiptile<StreamK32x128>, s[0], s[1], s[2]);
    add("BM_Hiptile<StreamK16x128>", BM_Hiptile<StreamK16x128>, s[0], s[1], s[2]);
  }
  // 8-bit: fp8 (e4m3, f16 out) and int8 (int32 out); their baselines come from gemm_torch.py.
  for (auto const& s : {std::array{8192, 8192, 8192}, std::array{4096, 14336, 4096}}) {
    add("BM_HiptileTyped<Fp8Gemm>", BM_HiptileTyped<Fp8Gemm>, s[0], s[1], s[2]);
  }
  // tf32 (f32 in and out) beside cuBLAS's TF32 mode.
  for (auto const& s : {std::array{4096, 4096, 4096}, std::array{8192, 8192, 8192}, std::array{3000, 3000, 3000}}) {
    add("BM_CublasTf32", BM_CublasOf<float>, s[0], s[1], s[2]);
    add("BM_HiptileTf32", BM_HiptileTf32, s[0], s[1], s[2]);
  }
  // Grouped GEMM: 16,384 tokens over 8 and 64 experts, equal and uneven counts.
  for (int experts : {8, 64}) {
    for (int uneven : {0, 1}) {
      using Function = void (*)(benchmark::State&);
      for (auto [name, function] : {std::pair<char const*, Function>{"BM_CublasExpertLoop", BM_CublasExpertLoop},
                                    {"BM_HiptileGrouped<Gemm>", BM_HiptileGrouped<Gemm>},
                                    {"BM_HiptileGrouped<Tile128x128x64>", BM_HiptileGrouped<Tile128x128x64>}}) {
        benchmark::RegisterBenchmark(name, function)
            ->Args({experts, uneven})
            ->UseManualTime()
            ->Iterations(20)
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
  for (int experts : {8, 64}) {
    using Function = void (*)(benchmark::State&);
    for (auto [name, function] : {std::pair<char const*, Function>{"BM_CublasStridedBatched", BM_CublasStridedBatched},
                                  {"BM_HiptileBatched<Gemm>", BM_HiptileBatched<Gemm>},
                                  {"BM_HiptileBatched<Tile128x128x64>", BM_HiptileBatched<Tile128x128x64>}}) {
      benchmark::RegisterBenchmark(name, function)->Args({experts})->UseManualTime()->Iterations(20)->Unit(benchmark::kMicrosecond);
    }
  }
  for (int size : {4096, 8192}) {
    add("BM_HiptileTyped<Int8Gemm>", BM_HiptileTyped<Int8Gemm>, size, size, size);
    add("BM_HiptileTyped<Int8MmaSync>", BM_HiptileTyped<Int8MmaSync>, size, size, size);
    add("BM_HiptileTyped<Int8Wgmma128x256s3>", BM_HiptileTyped<Int8Wgmma128x256s3>, size, size, size);
    add("BM_HiptileTyped<Int8Wgmma128x128s3>", BM_HiptileTyped<Int8Wgmma128x128s3>, size, size, size);
    add("BM_HiptileTyped<Int8Wgmma128x128s4>", BM_HiptileTyped<Int8Wgmma128x128s4>, size, size, size);
  }
  for (int size : {2048, 3072, 4096, 8192}) {
    add("BM_CublasNN", BM_CublasNN, size, size, size);
    add("BM_Hiptile<DefaultNN>", BM_Hiptile<DefaultNN>, size, size, size);
    add("BM_Hiptile<MmaSyncNN>", BM_Hiptile<MmaSyncNN>, size, size, size);
  }
  // K = 3008: int8 rows must start on 16 bytes (the copies' vectors).
  for (auto const& s : {std::array{4096, 4096, 4096}, std::array{3000, 3000, 3008}, std::array{128, 4096, 4096}}) {
    add("BM_HiptileTyped<Int8DefaultGemm>", BM_HiptileTyped<Int8DefaultGemm>, s[0], s[1], s[2]);
  }
  for (int size : {4096, 8192}) {
    add("BM_Cublas", BM_Cublas, size, size, size);
    add("BM_Hiptile<Tile128x128x64>", BM_Hiptile<Tile128x128x64>, size, size, size);
    add("BM_Hiptile<Tile128x256x64>", BM_Hiptile<Tile128x256x64>, size, size, size);
    add("BM_Hiptile<Tile256x128x64s3>", BM_Hiptile<Tile256x128x64s3>, size, size, size);
    add("BM_Hiptile<Tile256x128x32>", BM_Hiptile<Tile256x128x32>, size, size, size);
    add("BM_Hiptile<Wgmma128x256>", BM_Hiptile<Wgmma128x256>, size, size, size);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
