#pragma once
// Stream: where launches and copies are ordered. A null Stream is the default stream.
#include "hiptile/core/status.hpp"
#include "hiptile/platform/runtime_api.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/stream.hpp"
#endif

namespace hiptile {

#if HIPTILE_BACKEND_AMD
using Stream = hipStream_t;
#elif HIPTILE_BACKEND_NVIDIA
using Stream = cudaStream_t;
#else
using Stream = sim::StreamState*;  // simulated launches are synchronous; the state holds counters
#endif

// Wait until everything queued on `stream` has finished.
inline Status stream_synchronize(Stream stream) {
#if HIPTILE_BACKEND_AMD
  return hipStreamSynchronize(stream) == hipSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#elif HIPTILE_BACKEND_NVIDIA
  return cudaStreamSynchronize(stream) == cudaSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#else
  (void)stream;
  return Status::kSuccess;
#endif
}

}  // namespace hiptile
