// Split-K kernels compiled for one AMD arch so that their ISA can be checked
// (test/amd/CMakeLists.txt): DefaultGemmConfiguration f16 TN with serial split-K (per-tile semaphores: the
// device-scope fences and flag spin of platform/device_flag.hpp) and with parallel split-K, its
// reduction kernel, and DefaultConvolutionConfiguration's f16 Wgrad with serial split-K; the same GEMM with
// stream-K (its partial tiles' flags, and a loop over the unit's pieces around the K loop).
// HIPTILE_SPLIT_K_ARCH is the arch tag; the build sets it to match --offload-arch.
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/platform/launch.hpp"

#ifndef HIPTILE_SPLIT_K_ARCH
#error "define HIPTILE_SPLIT_K_ARCH to the arch tag, e.g. -DHIPTILE_SPLIT_K_ARCH=hiptile::arch::Gfx942"
#endif

namespace split_k_isa {

using Arch = HIPTILE_SPLIT_K_ARCH;
using hiptile::half_t;
using hiptile::gemm::kernel::SplitKMode;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

using Base = hiptile::gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, Arch>;
template <SplitKMode Mode>
using SplitGemm = hiptile::gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, Arch,
                                              Base::TileShapeType, Base::WaveShapeType, Base::MmaAtomType,
                                              Base::OutputOpType, Base::TileOrderType, Base::kStages, Mode>;
using SerialGemm = SplitGemm<SplitKMode::kSerial>;
using ParallelGemm = SplitGemm<SplitKMode::kParallel>;
using StreamKGemm = SplitGemm<SplitKMode::kStreamK>;

using Wgrad = hiptile::conv::device::DefaultConvolutionConfiguration<hiptile::conv::ConvOperator::kWgrad, half_t, half_t, Arch>;
using SerialWgrad = hiptile::conv::device::ImplicitGemmConvolution<
    hiptile::conv::ConvOperator::kWgrad, half_t, half_t, float, Arch, Wgrad::TileShapeType, Wgrad::WaveShapeType,
    Wgrad::MmaAtomType, Wgrad::OutputOpType, Wgrad::kAlgorithm, Wgrad::kAccessElements, Wgrad::kStages,
    Wgrad::kLoadDivision, Wgrad::kStoreDivision, SplitKMode::kSerial>;

}  // namespace split_k_isa

template __global__ void hiptile::kernel_entry<split_k_isa::SerialGemm::Kernel>(split_k_isa::SerialGemm::Kernel::Params);
template __global__ void hiptile::kernel_entry<split_k_isa::ParallelGemm::Kernel>(
    split_k_isa::ParallelGemm::Kernel::Params);
template __global__ void hiptile::kernel_entry<split_k_isa::ParallelGemm::Reduction>(
    split_k_isa::ParallelGemm::Reduction::Params);
template __global__ void hiptile::kernel_entry<split_k_isa::SerialWgrad::Kernel>(
    split_k_isa::SerialWgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<split_k_isa::StreamKGemm::Kernel>(
    split_k_isa::StreamKGemm::Kernel::Params);
