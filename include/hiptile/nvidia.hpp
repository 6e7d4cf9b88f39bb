#pragma once
// Everything NVIDIA-only that hiptile's builders choose from (gemm/collective/builder.hpp): the
// NVIDIA builders, their defaults for GEMM and convolution, and the convolutions' tensor-copy
// loaders. nvcc translation units get these through the headers that need them; host code that
// reasons about NVIDIA configurations without compiling them for a GPU (the simulator's tests, the
// docs' facts, tools) includes this header. An MI300 build never does.
#include "hiptile/conv/collective/nvidia/default_conv_tiles.hpp"
#include "hiptile/conv/collective/nvidia/tensor_copy_loaders.hpp"
#include "hiptile/gemm/collective/nvidia/builder.hpp"
#include "hiptile/gemm/collective/nvidia/default_configurations.hpp"
