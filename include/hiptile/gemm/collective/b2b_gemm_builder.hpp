#pragma once
// B2bGemmBuilder<Family, …>: the components of a back-to-back GEMM, D = op1(op0(A·B0)·B1, C), for
// one architecture family (arch_tags.hpp: Arch::Family) — the first product's mainloop, the
// chained second product and the wave MMA the epilogue stores from. One specialization per family:
//   gfx9/b2b_gemm_builder.hpp    MFMA: the first product transposed, so that its accumulators are
//                                the second's A operand lane for lane
//   nvidia/b2b_gemm_builder.hpp  mma.sync: the first product as it is (nvcc translation units only)
//
// Each gives FirstMainloop (a Mainloop), Chained (mainloop/chained_product.hpp), Consumer (the
// second product's wave MMA), kThreads and kWaveSize, from
//   Tile      B2bGemmShape: the block's rows kM, the first product's N tile kN0 (all of N0) and K
//             tile kK0, D's columns per step kN1
//   WaveM     rows of the block each wave (warp) holds: Tile::kM / WaveM waves
//   Atom      the MMA atom of both products; Op0 the first product's output functor (P's element)
//   Stages    the first mainloop's LDS stages
#include "hiptile/gemm/collective/b2b_gemm_builder_decl.hpp"
#include "hiptile/gemm/collective/gfx9/b2b_gemm_builder.hpp"
#include "hiptile/platform/backend.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/gemm/collective/nvidia/b2b_gemm_builder.hpp"
#endif
