#pragma once
// The builders: from an architecture family (Arch::Family, arch/arch_tags.hpp) and a
// configuration's parameters, the components a kernel is assembled from. GEMM's and the
// convolutions' configurations (gemm/device/gemm_configuration.hpp, conv/device/conv_configuration.hpp)
// and the back-to-back GEMM call the same builders; each family writes its choices once:
//
//   GemmLoaderBuilder<Family, ElementA, MajorA, ElementB, MajorB, MmaAtom, TileShape, Threads>
//       a matrix GEMM's loaders of A and B (LoaderA, LoaderB: their LDS layouts come with them)
//   MainloopBuilder<Family, MmaAtom, LoaderA, LoaderB, TileShape, WaveShape, Stages>
//       the wave MMA of the atom over the loaders' stages (WaveMma) and the K loop (Mainloop)
//   EpilogueBuilder<Family, WaveMma, TileShape, Output, OutputOp, kScales, kContiguousRows>
//       the epilogue storing the accumulators through the output mapping (Epilogue)
//   KernelBuilder<Family, TileShape, WaveShape, Mainloop, Epilogue, Scheduler>
//       the kernel running them under the tile scheduler (Kernel): GemmKernel, or NVIDIA's
//       warp-specialised kernel for a persistent walk over tensor copies
//   B2bGemmBuilder<Family, …>  the back-to-back GEMM's two products (b2b builders' headers)
//
// The families:
//   gfx9/builder.hpp    MFMA (and SIMT) wave MMAs, register-staged loaders, the pipelined
//                       mainloop, epilogues that store from the registers
//   nvidia/builder.hpp  mma.sync, wgmma, cp.async and tensor copies, staged row stores. Included
//                       here only when nvcc compiles: an MI300 build never reads NVIDIA code. Host
//                       code that reasons about NVIDIA configurations (tests, tools) includes
//                       hiptile/nvidia.hpp.
#include "hiptile/gemm/collective/builder_decl.hpp"
#include "hiptile/gemm/collective/gfx9/builder.hpp"
#include "hiptile/platform/backend.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/gemm/collective/nvidia/builder.hpp"
#endif
