// Probe kernels that take the NVIDIA GEMM main loop apart, to find what limits it: the same tile
// geometry as the default (256×128×32, eight 64×64 warps, cp.async stages, ldmatrix + mma.sync), with
// switches that drop the copies (math only), drop the math (copies only), or load the next step's
// fragments before the current step's mma (register double buffering across the barrier).
// A diagnostic: the numbers it prints steer the mainloop's design (docs/performance.md); its
// results are not checked (the correctness suite is test/nvidia/gemm_nvidia_test.cu).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"
#include "hiptile/gemm/wave/mma_sync_wave_mma.hpp"

#include "cuda_timing.hpp"

namespace {

using namespace hiptile;
using Atom = arch::MmaSync16x8x16F16;

enum class Mode { kFull, kMathOnly, kCopyOnly };
// How a 16-byte vector reaches shared memory: cp.async bypassing L1 (the library's), cp.async
// through L1, or a register round trip (ld.global.v4 then st.shared.v4).
enum class Copy { kAsyncGlobal, kAsyncL1, kRegisters };

template <int TileM, int TileN, int TileK, int Stages, Mode kMode, bool kDoubleBuffer, bool kSwizzled = true,
          Copy kCopy = Copy::kAsyncGlobal>
struct Probe {
  static constexpr int kWarpsM = TileM / 64;
  static constexpr int kWarpsN = TileN / 64;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  template <int Rows>
  using Layout = std::conditional_t<kSwizzled, gemm::block::SwizzledLdsLayout<half_t, Rows, TileK>,
                                    gemm::block::PackedLdsLayout<half_t, Rows, TileK>>;
  using LayoutA = Layout<TileM>;
  using LayoutB = Layout<TileN>;
  static constexpr int kLdsBytes = Stages * int(LayoutA::kBytes + LayoutB::kBytes);
  using Order = gemm::kernel::GroupedTileOrder<8>;

  // The library's warp-level MMA, so the probes time the same fragment loads and atoms.
  using Wave = gemm::wave::MmaSyncWaveMma<Atom, 64, 64, LayoutA, LayoutB>;
  using Fragments = typename Wave::Fragments;

  // One 16-byte copy per vector of a K-contiguous tile: thread t copies pack t % packs of rows
  // t / packs + i · rowstep.
  template <class Layout, int Rows>
  static __device__ __forceinline__ void copy(half_t* stage, half_t const* src, int ld, int k0, int thread) {
    constexpr int kPacks = Layout::kPacks;
    constexpr int kRowStep = kThreads / kPacks;
#pragma unroll
    for (int i = 0; i < Rows / kRowStep; ++i) {
      int const row = thread / kPacks + i * kRowStep;
      int const pack = thread % kPacks;
      half_t* dst = stage + Layout::offset(row, pack * 8);
      half_t const* from = src + std::size_t(row) * ld + k0 + pack * 8;
      if constexpr (kCopy == Copy::kAsyncGlobal) {
        arch::async_copy_16(dst, from, 16);
      } else if constexpr (kCopy == Copy::kAsyncL1) {
        auto const to = static_cast<std::uint32_t>(__cvta_generic_to_shared(dst));
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(from));
      } else {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<uint4 const*>(from);
      }
    }
  }

  struct Params {
    half_t const* a;
    half_t const* b;
    float* sink;
    int k;
    int ld;  // elements between rows of A and of B (>= k): a row not 128-byte aligned costs more
    Order::Params order;
  };

  static __device__ void run(Params const& p) {
    extern __shared__ __align__(16) unsigned char lds[];
    auto* stage_a = reinterpret_cast<half_t*>(lds);
    auto* stage_b = reinterpret_cast<half_t*>(lds + Stages * LayoutA::kBytes);
    int const thread = threadIdx.x;
    int const lane = thread % 32;
    int const warp = thread / 32;
    auto const tile = Order::tile(p.order, blockIdx.x);
    half_t const* ga = p.a + std::size_t(tile.m) * TileM * p.ld;
    half_t const* gb = p.b + std::size_t(tile.n) * TileN * p.ld;
    int const wm = (warp % kWarpsM) * 64;
    int const wn = (warp / kWarpsM) * 64;
    auto load = [&](Fragments& f, int stage, int step) {
      hiptile::gemm::wave::load_fragments<Wave>(f, stage_a + stage * LayoutA::kElements,
                                                stage_b + stage * LayoutB::kElements, wm, wn, lane, step);
    };

    typename Wave::Accumulators acc;
#pragma unroll
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(0.0f);
    int const k_tiles = p.k / TileK;
    auto issue = [&](int t) {
      if constexpr (kMode != Mode::kMathOnly) {
        int const s = t % Stages;
        if (t < k_tiles) {
          copy<LayoutA, TileM>(stage_a + s * LayoutA::kElements, ga, p.ld, t * TileK, thread);
          copy<LayoutB, TileN>(stage_b + s * LayoutB::kElements, gb, p.ld, t * TileK, thread);
        }
        arch::async_copy_commit();
      }
    };
    for (int t = 0; t < Stages - 1; ++t) issue(t);
    if constexpr (kMode == Mode::kMathOnly) {
      // Random operands: the tensor cores run cooler (and faster) on zeros or stale repeats.
      auto* words = reinterpret_cast<std::uint32_t*>(lds);
      for (int i = thread; i < kLdsBytes / 4; i += kThreads) {
        std::uint32_t h = (i + blockIdx.x * 7919u) * 2654435761u;
        h ^= h >> 13;
        words[i] = (h & 0x3bff3bffu);  // two halves below 1 in magnitude, either sign
      }
      __syncthreads();
    }

    if constexpr (!kDoubleBuffer) {
      for (int kt = 0; kt < k_tiles; ++kt) {
        arch::async_copy_wait<Stages - 2>();
        __syncthreads();
        issue(kt + Stages - 1);
        if constexpr (kMode != Mode::kCopyOnly) {
          int const s = kt % Stages;
#pragma unroll
          for (int step = 0; step < Wave::kSteps; ++step) {
            Fragments f;
            load(f, s, step);
            Wave::multiply(acc, f);
          }
        }
      }
    } else {
      // The next step's fragments load while this step's mma run; the barrier sits before the
      // last step's mma, so the tensor pipe has queued work while the warps wait there.
      Fragments f[2];
      arch::async_copy_wait<Stages - 2>();
      __syncthreads();
      load(f[0], 0, 0);
      for (int kt = 0; kt < k_tiles; ++kt) {
        int s = kt % Stages;
#pragma unroll
        for (int step = 0; step < Wave::kSteps; ++step) {
          if (step == Wave::kSteps - 1) {
            arch::async_copy_wait<Stages - 2>();
            __syncthreads();
            s = (kt + 1) % Stages;
          }
          load(f[(step + 1) % 2], s, (step + 1) % Wave::kSteps);
          if (step == 0) issue(kt + Stages - 1);
          Wave::multiply(acc, f[step % 2]);
        }
      }
    }
    arch::async_copy_wait<0>();
    float sum = 0;
#pragma unroll
    for (int i = 0; i < acc.size(); ++i) sum += acc[i][0] + acc[i][1] + acc[i][2] + acc[i][3];
    p.sink[blockIdx.x * kThreads + thread] = sum;
  }
};

template <class P>
__global__ void __launch_bounds__(P::kThreads, 1) probe_kernel(typename P::Params p) {
  P::run(p);
}

using bench::check;

template <class P>
void measure(char const* name, int size, int ld, half_t const* a, half_t const* b, float* sink) {
  int const tiles_m = size / (P::kWarpsM * 64), tiles_n = size / (P::kWarpsN * 64);
  typename P::Params p{a, b, sink, size, ld, {}};
  if (P::Order::make_params(tiles_m, tiles_n, p.order) != hiptile::Status::kSuccess) {
    std::fprintf(stderr, "%s: no tile order for %d x %d tiles\n", name, tiles_m, tiles_n);
    std::exit(1);
  }
  check(cudaFuncSetAttribute(probe_kernel<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, P::kLdsBytes), "attr");
  auto launch = [&] { probe_kernel<P><<<tiles_m * tiles_n, P::kThreads, P::kLdsBytes>>>(p); };
  bench::warm_up(launch);
  int const reps = size >= 8192 ? 10 : 50;
  double const seconds = bench::GpuTimer().seconds_per_run(reps, launch);
  std::printf("%-40s %5d^3 ld %5d  %8.1f us  %6.1f TFLOPS-equivalent\n", name, size, ld, seconds * 1e6,
              2.0 * size * double(size) * size / seconds / 1e12);
}

}  // namespace

// gemm_probe SIZE [LD]: SIZE³ with rows LD elements apart (default SIZE). With LD, only the
// copy-path probes run (does a row that is not 128-byte aligned cost the copies or the math?).
int main(int argc, char** argv) {
  int const size = argc > 1 ? std::atoi(argv[1]) : 8192;
  int const ld = argc > 2 ? std::atoi(argv[2]) : size;
  if (ld < size || ld % 8 != 0) {
    std::fprintf(stderr, "LD must be at least SIZE and a multiple of 8 (16-byte rows)\n");
    return 1;
  }
  std::size_t const elements = std::size_t(size) * ld;
  std::vector<half_t> host(elements);
  for (std::size_t i = 0; i < elements; ++i) host[i] = half_t(float((i * 2654435761u) % 1000) / 1000.0f - 0.5f);
  half_t *a, *b;
  float* sink;
  check(cudaMalloc(&a, elements * 2), "malloc");
  check(cudaMalloc(&b, elements * 2), "malloc");
  check(cudaMalloc(&sink, std::size_t(size / 64) * (size / 64) * 256 * 4), "malloc");
  if (argc > 2) {
    using enum Copy;
    measure<Probe<256, 128, 64, 4, Mode::kFull, true, true, kAsyncGlobal>>("256x128x64 s4 full, cp.async.cg", size, ld, a, b, sink);
    measure<Probe<256, 128, 64, 4, Mode::kFull, true, true, kAsyncL1>>("256x128x64 s4 full, cp.async.ca", size, ld, a, b, sink);
    measure<Probe<256, 128, 64, 4, Mode::kCopyOnly, true, true, kAsyncGlobal>>("256x128x64 s4 copy, cp.async.cg", size, ld, a, b, sink);
    measure<Probe<256, 128, 64, 4, Mode::kCopyOnly, true, true, kAsyncL1>>("256x128x64 s4 copy, cp.async.ca", size, ld, a, b, sink);
    measure<Probe<256, 128, 64, 4, Mode::kCopyOnly, true, true, kRegisters>>("256x128x64 s4 copy, registers", size, ld, a, b, sink);
    measure<Probe<256, 128, 128, 2, Mode::kFull, true, true, kAsyncGlobal>>("256x128x128 s2 full, cp.async.cg", size, ld, a, b, sink);
    measure<Probe<128, 128, 128, 3, Mode::kFull, true, true, kAsyncGlobal>>("128x128x128 s3 full, cp.async.cg", size, ld, a, b, sink);
    measure<Probe<128, 128, 64, 3, Mode::kFull, true, true, kAsyncGlobal>>("128x128x64 s3 full, cp.async.cg", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kFull, true, true, kAsyncGlobal>>("256x128x32 s4 full, cp.async.cg", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kCopyOnly, true, true, kAsyncGlobal>>("256x128x32 s4 copy, cp.async.cg", size, ld, a, b, sink);
  } else {
  check(cudaMemcpy(a, host.data(), elements * 2, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(b, host.data(), elements * 2, cudaMemcpyHostToDevice), "copy");
    measure<Probe<256, 128, 32, 4, Mode::kFull, false, false>>("256x128x32 s4 full, packed layout", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kCopyOnly, false, false>>("256x128x32 s4 copy only, packed", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kCopyOnly, false>>("256x128x32 s4 copy only", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kFull, false>>("256x128x32 s4 full", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kFull, true>>("256x128x32 s4 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 3, Mode::kFull, true>>("256x128x32 s3 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<256, 128, 64, 3, Mode::kFull, true>>("256x128x64 s3 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<128, 256, 32, 4, Mode::kFull, true>>("128x256x32 s4 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<128, 256, 64, 3, Mode::kFull, true>>("128x256x64 s3 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<128, 128, 32, 4, Mode::kFull, true>>("128x128x32 s4 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<128, 128, 64, 3, Mode::kFull, true>>("128x128x64 s3 full, double-buffered", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kMathOnly, true>>("256x128x32 s4 math only, double-buffered", size, ld, a, b, sink);
    measure<Probe<256, 128, 32, 4, Mode::kMathOnly, true, false>>("256x128x32 s4 math only, db, packed", size, ld, a, b, sink);
    measure<Probe<256, 128, 64, 3, Mode::kMathOnly, true>>("256x128x64 s3 math only, double-buffered", size, ld, a, b, sink);
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(sink);
  return 0;
}
