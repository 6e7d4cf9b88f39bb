// The GEMM element types beyond f16/bf16 (gfx942), compiled so that their ISA can be checked
// (test/amd/CMakeLists.txt): f32 and xf32, int8 with an int32 and an int8 D, and the four FNUZ fp8
// mixes with ScaledLinearCombination (scales, saturation, amax); f32 and int8 with MN-contiguous
// operands; DefaultGemm's small-M candidates, its 128 × 128 stream-K and parallel split-K
// candidates and the f16 default with serial split-K (the timing model's schedules).
// One kernel per configuration, each an explicit instantiation of the __global__ entry Gemm::run()
// launches.
#include <cstddef>
#include <cstdint>

#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/launch.hpp"
#include "../common/launch_budget.hpp"

namespace gemm_type_isa {

using hiptile::float8_e4m3fnuz;
using hiptile::float8_e5m2fnuz;
using hiptile::half_t;
using hiptile::arch::Gfx942;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace device = hiptile::gemm::device;

template <class EA, class EB, class EC>
using Default = device::DefaultGemmConfiguration<EA, RowMajor, EB, ColumnMajor, EC, RowMajor, Gfx942>;

using F32 = Default<float, float, float>;
using Xf32 = device::Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor, float, Gfx942, F32::TileShapeType,
                          F32::WaveShapeType, hiptile::arch::Mfma32x32x4Xf32, F32::OutputOpType, F32::TileOrderType,
                          F32::kStages>;
using I8ToI32 = Default<std::int8_t, std::int8_t, std::int32_t>;
using I8ToI8 = Default<std::int8_t, std::int8_t, std::int8_t>;
// MN-contiguous operands of 4- and 1-byte types (the transposing loader's one- and two-k words).
using F32NN = device::DefaultGemmConfiguration<float, ColumnMajor, float, RowMajor, float, RowMajor, Gfx942>;
using I8NT = device::DefaultGemmConfiguration<std::int8_t, ColumnMajor, std::int8_t, RowMajor, std::int32_t, RowMajor,
                                              Gfx942>;
using Fp8Fp8 = Default<float8_e4m3fnuz, float8_e4m3fnuz, half_t>;
using Fp8Bf8 = Default<float8_e4m3fnuz, float8_e5m2fnuz, half_t>;
using Bf8Fp8 = Default<float8_e5m2fnuz, float8_e4m3fnuz, float>;
using Bf8Bf8 = Default<float8_e5m2fnuz, float8_e5m2fnuz, float8_e4m3fnuz>;
// DefaultGemm's small-M candidates for f16 TN: 32 × 128 (four 32×32 waves) and 16 × 128 (two 16×64
// waves of 16×16×16 MFMAs), 64 K per stage, stream-K.
using SelectingF16 = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, Gfx942>;
using SmallM32 = SelectingF16::Candidate<2>;
using SmallM16 = SelectingF16::Candidate<3>;
static_assert(SmallM32::TileShapeType::kM == 32 && SmallM16::TileShapeType::kM == 16 && SmallM16::kStreamK);
// The default tile shared by stream-K (rules 2 and 3) and split into parallel slices (a long K).
using StreamK128 = SelectingF16::Candidate<1>;
using ParallelSplitK128 = SelectingF16::Candidate<4>;
static_assert(StreamK128::kStreamK && StreamK128::TileShapeType::kM == 128 && ParallelSplitK128::kParallelSplitK);
// The f16 default with serial split-K: the slices of a tile hand their sums to its last slice.
using F16 = Default<half_t, half_t, half_t>;
using SerialSplitK128 =
    device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, Gfx942, F16::TileShapeType,
                 F16::WaveShapeType, F16::MmaAtomType, F16::OutputOpType, F16::TileOrderType, F16::kStages,
                 hiptile::gemm::kernel::SplitKMode::kSerial>;
// The grouped GEMM's persistent kernel around the f16 default's mainloop and epilogue.
using GroupedF16 = device::GroupedGemmOf<Default<half_t, half_t, half_t>>;


}  // namespace gemm_type_isa

// What the ISA cannot show (the LDS budget and launch bound), checked and recorded
// (test/common/launch_budget.hpp).
template struct hiptile::test::LaunchBudget<gemm_type_isa::F32>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::Xf32>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::I8ToI32>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::I8ToI8>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::Fp8Fp8>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::Fp8Bf8>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::Bf8Fp8>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::Bf8Bf8>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::GroupedF16>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::SmallM32>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::F32NN>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::I8NT>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::SmallM16>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::StreamK128>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::ParallelSplitK128>;
template struct hiptile::test::LaunchBudget<gemm_type_isa::SerialSplitK128>;

template __global__ void hiptile::kernel_entry<gemm_type_isa::F32::Kernel>(gemm_type_isa::F32::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::Xf32::Kernel>(gemm_type_isa::Xf32::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::I8ToI32::Kernel>(gemm_type_isa::I8ToI32::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::I8ToI8::Kernel>(gemm_type_isa::I8ToI8::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::Fp8Fp8::Kernel>(gemm_type_isa::Fp8Fp8::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::Fp8Bf8::Kernel>(gemm_type_isa::Fp8Bf8::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::Bf8Fp8::Kernel>(gemm_type_isa::Bf8Fp8::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::Bf8Bf8::Kernel>(gemm_type_isa::Bf8Bf8::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::GroupedF16::Kernel>(
    gemm_type_isa::GroupedF16::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::SmallM32::Kernel>(gemm_type_isa::SmallM32::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::SmallM16::Kernel>(gemm_type_isa::SmallM16::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::StreamK128::Kernel>(
    gemm_type_isa::StreamK128::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::ParallelSplitK128::Kernel>(
    gemm_type_isa::ParallelSplitK128::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::SerialSplitK128::Kernel>(
    gemm_type_isa::SerialSplitK128::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::F32NN::Kernel>(gemm_type_isa::F32NN::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_type_isa::I8NT::Kernel>(gemm_type_isa::I8NT::Kernel::Params);
