#pragma once
// time_launches(stream, launch, warmup, repetitions, seconds): the median time of `launch` on the
// device, measured with the runtime's events around each repetition after `warmup` untimed ones
// (find-mode tuning, tune/tuned_operator.hpp). launch() returns a Status; the first failure ends
// the timing with it. The simulator has no device clock to read: there it returns
// kErrorNotSupported, and the tuner asks the MI300 timing model instead.
#include <algorithm>
#include <vector>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/runtime_api.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile {

template <class Launch>
Status time_launches(Stream stream, Launch&& launch, int warmup, int repetitions, double& seconds) noexcept {
  if (repetitions < 1 || warmup < 0) return Status::kErrorInvalidProblem;
#if HIPTILE_BACKEND_SIM
  (void)stream;
  (void)launch;
  (void)seconds;
  return Status::kErrorNotSupported;
#else
#if HIPTILE_BACKEND_AMD
  using Event = hipEvent_t;
  auto create = [](Event* e) { return hipEventCreate(e) == hipSuccess; };
  auto record = [&](Event e) { return hipEventRecord(e, stream) == hipSuccess; };
  auto elapsed_ms = [](float* ms, Event a, Event b) {
    return hipEventSynchronize(b) == hipSuccess && hipEventElapsedTime(ms, a, b) == hipSuccess;
  };
  auto destroy = [](Event e) { (void)hipEventDestroy(e); };
#else
  using Event = cudaEvent_t;
  auto create = [](Event* e) { return cudaEventCreate(e) == cudaSuccess; };
  auto record = [&](Event e) { return cudaEventRecord(e, stream) == cudaSuccess; };
  auto elapsed_ms = [](float* ms, Event a, Event b) {
    return cudaEventSynchronize(b) == cudaSuccess && cudaEventElapsedTime(ms, a, b) == cudaSuccess;
  };
  auto destroy = [](Event e) { (void)cudaEventDestroy(e); };
#endif
  Event start{}, stop{};
  if (!create(&start)) return Status::kErrorLaunchFailed;
  if (!create(&stop)) {
    destroy(start);
    return Status::kErrorLaunchFailed;
  }
  Status s = Status::kSuccess;
  for (int i = 0; i < warmup && ok(s); ++i) s = launch();
  std::vector<float> times;
  for (int i = 0; i < repetitions && ok(s); ++i) {
    float ms = 0;
    if (!record(start)) s = Status::kErrorLaunchFailed;
    if (ok(s)) s = launch();
    if (ok(s) && (!record(stop) || !elapsed_ms(&ms, start, stop))) s = Status::kErrorLaunchFailed;
    if (ok(s)) times.push_back(ms);
  }
  destroy(start);
  destroy(stop);
  if (!ok(s)) return s;
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  seconds = double(times[times.size() / 2]) * 1e-3;
  return Status::kSuccess;
#endif
}

}  // namespace hiptile
