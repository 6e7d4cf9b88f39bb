#pragma once
// The GPU runtime header of the backend, included in one place. The simulator needs none.
#include "hiptile/platform/backend.hpp"

#if HIPTILE_BACKEND_AMD
#include <hip/hip_runtime.h>
#elif HIPTILE_BACKEND_NVIDIA
#include <cuda_runtime.h>
#endif
