#pragma once
// The whole platform layer: everything kernels and operators need to know about where they run.
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/device_flag.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/platform/dim3.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/stream.hpp"
#include "hiptile/platform/wave_size.hpp"
