#pragma once
// EventTimer: the device time of a batch of launches, measured with the runtime's events around it
// (find mode's interleaved timing, tune/interleaved_timing.hpp). time_launches(stream, launch,
// warmup, repetitions, seconds): the median time of one launch, an event pair around each of
// `repetitions` after `warmup` untimed ones (the benchmarks' exhaustive sweeps). launch() returns a
// Status; the first failure ends the timing with it. The simulator has no device clock to read:
// there both return kErrorNotSupported, and the tuner asks the MI300 timing model instead.
#include <algorithm>
#include <vector>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/runtime_api.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile {

class EventTimer {
 public:
  EventTimer() noexcept {
#if !HIPTILE_BACKEND_SIM
    ready_ = create(&start_) && create(&stop_);
#endif
  }
  ~EventTimer() {
#if HIPTILE_BACKEND_AMD
    if (start_ != nullptr) (void)hipEventDestroy(start_);
    if (stop_ != nullptr) (void)hipEventDestroy(stop_);
#elif HIPTILE_BACKEND_NVIDIA
    if (start_ != nullptr) (void)cudaEventDestroy(start_);
    if (stop_ != nullptr) (void)cudaEventDestroy(stop_);
#endif
  }
  EventTimer(EventTimer const&) = delete;
  EventTimer& operator=(EventTimer const&) = delete;

  // `runs` launches back to back on `stream`; `seconds` their device time in all.
  template <class Launch>
  Status time(Stream stream, Launch&& launch, int runs, double& seconds) noexcept {
    if (runs < 1) return Status::kErrorInvalidProblem;
#if HIPTILE_BACKEND_SIM
    (void)stream, (void)launch, (void)seconds;
    return Status::kErrorNotSupported;
#else
    if (!ready_) return Status::kErrorLaunchFailed;
    if (!record(start_, stream)) return Status::kErrorLaunchFailed;
    for (int i = 0; i < runs; ++i) {
      if (Status const s = launch(); !ok(s)) return s;
    }
    float ms = 0;
    if (!record(stop_, stream) || !elapsed_ms(&ms)) return Status::kErrorLaunchFailed;
    seconds = double(ms) * 1e-3;
    return Status::kSuccess;
#endif
  }

 private:
#if HIPTILE_BACKEND_AMD
  using Event = hipEvent_t;
  static bool create(Event* e) { return hipEventCreate(e) == hipSuccess; }
  static bool record(Event e, Stream s) { return hipEventRecord(e, s) == hipSuccess; }
  bool elapsed_ms(float* ms) const {
    return hipEventSynchronize(stop_) == hipSuccess && hipEventElapsedTime(ms, start_, stop_) == hipSuccess;
  }
#elif HIPTILE_BACKEND_NVIDIA
  using Event = cudaEvent_t;
  static bool create(Event* e) { return cudaEventCreate(e) == cudaSuccess; }
  static bool record(Event e, Stream s) { return cudaEventRecord(e, s) == cudaSuccess; }
  bool elapsed_ms(float* ms) const {
    return cudaEventSynchronize(stop_) == cudaSuccess && cudaEventElapsedTime(ms, start_, stop_) == cudaSuccess;
  }
#endif
#if !HIPTILE_BACKEND_SIM
  Event start_{};
  Event stop_{};
  bool ready_ = false;
#endif
};

template <class Launch>
Status time_launches(Stream stream, Launch&& launch, int warmup, int repetitions, double& seconds) noexcept {
  if (repetitions < 1 || warmup < 0) return Status::kErrorInvalidProblem;
  if constexpr (HIPTILE_BACKEND_SIM) return Status::kErrorNotSupported;  // (no launch to waste)
  EventTimer timer;
  for (int i = 0; i < warmup; ++i) {
    if (Status const s = launch(); !ok(s)) return s;
  }
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    double t = 0;
    if (Status const s = timer.time(stream, launch, 1, t); !ok(s)) return s;
    times.push_back(t);
  }
  std::nth_element(times.begin(), times.begin() + std::ptrdiff_t(times.size() / 2), times.end());
  seconds = times[times.size() / 2];
  return Status::kSuccess;
}

}  // namespace hiptile
