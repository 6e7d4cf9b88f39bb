#pragma once
// What the NVIDIA benchmarks share: check(), which ends the program on a CUDA error, warm_up(),
// and GpuTimer, a pair of CUDA events around a batch of runs on the default stream.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace bench {

inline void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Runs `run` three times and waits for it: module load, handle creation, clocks.
template <class Run>
void warm_up(Run&& run) {
  for (int i = 0; i < 3; ++i) run();
  check(cudaDeviceSynchronize(), "warm-up");
}

class GpuTimer {
 public:
  GpuTimer() {
    check(cudaEventCreate(&start_), "event");
    check(cudaEventCreate(&stop_), "event");
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  GpuTimer(GpuTimer const&) = delete;
  GpuTimer& operator=(GpuTimer const&) = delete;

  // The GPU's seconds per run of `reps` runs back to back; with `enqueue_seconds`, also the
  // host's seconds per run to enqueue them (where it reaches the GPU's, the launches bound a run).
  template <class Run>
  double seconds_per_run(int reps, Run&& run, double* enqueue_seconds = nullptr) {
    cudaEventRecord(start_);
    auto const enqueue = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) run();
    if (enqueue_seconds != nullptr) {
      *enqueue_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - enqueue).count() / reps;
    }
    cudaEventRecord(stop_);
    check(cudaEventSynchronize(stop_), "kernel");
    float ms = 0;
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms / 1e3 / reps;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

}  // namespace bench
