// hiptile/sim/timing_label.hpp: the timing model's label of every shipped gfx942 configuration,
// built from its type, names its exported timing, and every exported timing is named by one of
// these types. The configurations are those whose ISA test/amd/gemm_kernels.cpp,
// gemm_type_kernels.cpp and conv_kernels.cpp compile (scripts/timing_model exports them).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/sim/timing_label.hpp"
#include "hiptile/sim/timing_model.hpp"

namespace {

using hiptile::bfloat16_t;
using hiptile::float8_e4m3fnuz;
using hiptile::float8_e5m2fnuz;
using hiptile::half_t;
using hiptile::arch::Gfx942;
using hiptile::conv::ConvOperator;
using hiptile::conv::RowDivision;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace device = hiptile::gemm::device;

// gemm_kernels.cpp: the f16 and bf16 defaults in every layout of A and B.
template <class Element, class LayoutA, class LayoutB>
using Default = device::DefaultGemmConfiguration<Element, LayoutA, Element, LayoutB, Element, RowMajor, Gfx942>;

// gemm_type_kernels.cpp: the other element types, DefaultGemm's candidates and the schedules.
template <class EA, class EB, class EC>
using DefaultTn = device::DefaultGemmConfiguration<EA, RowMajor, EB, ColumnMajor, EC, RowMajor, Gfx942>;
using F16 = DefaultTn<half_t, half_t, half_t>;
using F32 = DefaultTn<float, float, float>;
using Xf32 = device::Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor, float, Gfx942, F32::TileShapeType,
                          F32::WaveShapeType, hiptile::arch::Mfma32x32x4Xf32, F32::OutputOpType, F32::TileOrderType,
                          F32::kStages>;
using SelectingF16 = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, Gfx942>;
using SerialSplitK128 =
    device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, Gfx942, F16::TileShapeType,
                 F16::WaveShapeType, F16::MmaAtomType, F16::OutputOpType, F16::TileOrderType, F16::kStages,
                 hiptile::gemm::kernel::SplitKMode::kSerial>;

// conv_kernels.cpp: the defaults, the analytic iterators and dgrad's row divisions.
template <ConvOperator Op, class Element>
using Conv = hiptile::conv::device::DefaultConvolutionConfiguration<Op, Element, Element, Gfx942>;
template <ConvOperator Op>
using Analytic = hiptile::conv::device::DefaultAnalyticConvolution<Op, half_t, half_t, Gfx942>;
using F16Dgrad = Conv<ConvOperator::kDgrad, half_t>;
template <RowDivision Load, RowDivision Store>
using DgradDivision = hiptile::conv::device::ImplicitGemmConvolution<
    ConvOperator::kDgrad, half_t, half_t, float, Gfx942, F16Dgrad::TileShapeType, F16Dgrad::WaveShapeType,
    F16Dgrad::MmaAtomType, F16Dgrad::OutputOpType, hiptile::conv::IteratorAlgorithm::kPrecomputed, 8, F16Dgrad::kStages,
    Load, Store>;
// conv_persistent_kernels.cpp: the f16 Fprop and Dgrad defaults as persistent kernels.
template <ConvOperator Op>
using Persistent = typename Conv<Op, half_t>::template WithSplitK<hiptile::gemm::kernel::SplitKMode::kPersistent>;

// conv_kernels.cpp: the few-channel Fprop (packed taps), one- and four-channel accesses.
template <class Element, int Access = 1>
using FewChannel = hiptile::conv::device::FewChannelConvolution<Element, Element, Gfx942,
                                                                 hiptile::epilogue::LinearCombination<Element>, Access>;

// conv_kernels.cpp: packed groups (a block-diagonal filter), f16 Fprop and Dgrad, bf16 Fprop, and
// f16 Fprop and Dgrad with half-vector filter accesses, f16 Wgrad.
template <ConvOperator Op, class Element, int Access = 8>
using PackedGroups = hiptile::conv::device::PackedGroupConvolution<Op, Element, Element, Gfx942,
                                                                   hiptile::epilogue::LinearCombination<Element>, Access>;

template <class... Configs>
std::vector<std::string> labels() {
  return {hiptile::sim::timing_label<Configs>()...};
}

std::vector<std::string> shipped_labels() {
  std::vector<std::string> out = labels<
      Default<half_t, RowMajor, RowMajor>, Default<half_t, RowMajor, ColumnMajor>, Default<half_t, ColumnMajor, RowMajor>,
      Default<half_t, ColumnMajor, ColumnMajor>, Default<bfloat16_t, RowMajor, RowMajor>,
      Default<bfloat16_t, RowMajor, ColumnMajor>, Default<bfloat16_t, ColumnMajor, RowMajor>,
      Default<bfloat16_t, ColumnMajor, ColumnMajor>>();
  for (std::string const& label : labels<
           F32, Xf32, DefaultTn<std::int8_t, std::int8_t, std::int32_t>, DefaultTn<std::int8_t, std::int8_t, std::int8_t>,
           device::DefaultGemmConfiguration<float, ColumnMajor, float, RowMajor, float, RowMajor, Gfx942>,
           device::DefaultGemmConfiguration<std::int8_t, ColumnMajor, std::int8_t, RowMajor, std::int32_t, RowMajor, Gfx942>,
           DefaultTn<float8_e4m3fnuz, float8_e4m3fnuz, half_t>, DefaultTn<float8_e4m3fnuz, float8_e5m2fnuz, half_t>,
           DefaultTn<float8_e5m2fnuz, float8_e4m3fnuz, float>, DefaultTn<float8_e5m2fnuz, float8_e5m2fnuz, float8_e4m3fnuz>,
           SelectingF16::Candidate<1>, SelectingF16::Candidate<2>, SelectingF16::Candidate<3>, SelectingF16::Candidate<4>,
           SerialSplitK128, device::GroupedGemmOf<F16>>()) {
    out.push_back(label);
  }
  for (std::string const& label : labels<
           Conv<ConvOperator::kFprop, half_t>, F16Dgrad, Conv<ConvOperator::kWgrad, half_t>,
           Conv<ConvOperator::kFprop, bfloat16_t>, Conv<ConvOperator::kDgrad, bfloat16_t>,
           Conv<ConvOperator::kWgrad, bfloat16_t>, Analytic<ConvOperator::kFprop>, Analytic<ConvOperator::kDgrad>,
           Analytic<ConvOperator::kWgrad>, DgradDivision<RowDivision::kPlain, RowDivision::kPlain>,
           DgradDivision<RowDivision::kFast, RowDivision::kPlain>, DgradDivision<RowDivision::kPlain, RowDivision::kFast>,
           Persistent<ConvOperator::kFprop>, Persistent<ConvOperator::kDgrad>, FewChannel<half_t>,
           FewChannel<bfloat16_t>, FewChannel<half_t, 4>, PackedGroups<ConvOperator::kFprop, half_t>,
           PackedGroups<ConvOperator::kDgrad, half_t>, PackedGroups<ConvOperator::kFprop, bfloat16_t>,
           PackedGroups<ConvOperator::kFprop, half_t, 4>, PackedGroups<ConvOperator::kDgrad, half_t, 4>,
           PackedGroups<ConvOperator::kWgrad, half_t>>()) {
    out.push_back(label);
  }
  return out;
}

}  // namespace

TEST_CASE("a configuration's type names the label the timing model gives its kernel") {
  CHECK(hiptile::sim::timing_label<Default<half_t, RowMajor, ColumnMajor>>() ==
        "f16; A row, B col, C row; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1");
  CHECK(hiptile::sim::timing_label<SelectingF16::Candidate<4>>() ==
        "f16*f16->f32; A row, B col, C row, parallel split-K; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1");
  CHECK(hiptile::sim::timing_label<DefaultTn<float8_e5m2fnuz, float8_e5m2fnuz, float8_e4m3fnuz>>() ==
        "E5M2FNUZ*E5M2FNUZ->E4M3FNUZ; A row, B col, C row; 128x128x64 / 64x64x64 / Mfma32x32x16Bf8Bf8 / 1");
  CHECK(hiptile::sim::timing_label<device::GroupedGemmOf<F16>>() ==
        "f16; A row, B col, C row, grouped; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1");
  CHECK(hiptile::sim::timing_label<DgradDivision<RowDivision::kPlain, RowDivision::kFast>>() ==
        "Binary16; conv dgrad, precomputed (rows: load plain, store fast); 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1");
  CHECK(hiptile::sim::timing_label<Persistent<ConvOperator::kFprop>>() ==
        "Binary16; conv fprop, precomputed, persistent; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1");
  CHECK(hiptile::sim::timing_label<PackedGroups<ConvOperator::kDgrad, half_t>>() ==
        "Binary16; conv dgrad, packed-group (rows: load fast, store fast); 128x64x64 / 64x32x64 / Mfma32x32x8F16 / 1");
  // The kernel type itself names the same.
  CHECK(hiptile::sim::timing_label<F16::Kernel>() == hiptile::sim::timing_label<F16>());
}

TEST_CASE("every shipped configuration finds its exported timing by type, and every exported timing is named") {
  std::set<std::string> named;
  for (std::string const& label : shipped_labels()) {
    INFO(label);
    CHECK(hiptile::sim::kernel_timing(label));
    named.insert(label);
  }
  for (hiptile::sim::KernelTiming const& k : hiptile::sim::kKernelTimings) {
    INFO(k.label);
    CHECK(named.count(std::string(k.label)) == 1);
  }
  CHECK(hiptile::sim::predicted_time<F16>({.problem = {4096, 4096, 4096}}, hiptile::sim::kMi300x)->seconds ==
        hiptile::sim::predicted_time(hiptile::sim::timing_label<F16>(), {.problem = {4096, 4096, 4096}},
                                     hiptile::sim::kMi300x)
            ->seconds);
}

TEST_CASE("a configuration without exported timings is not modelled") {
  // Two LDS stages of the f16 default: a valid configuration the ISA tests do not compile.
  using TwoStages = device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, Gfx942,
                                 F16::TileShapeType, F16::WaveShapeType, F16::MmaAtomType, F16::OutputOpType,
                                 F16::TileOrderType, 2>;
  CHECK(hiptile::sim::timing_label<TwoStages>() == "f16; A row, B col, C row; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 2");
  CHECK_FALSE(hiptile::sim::kernel_timing<TwoStages>());
  CHECK_FALSE(hiptile::sim::predicted_time<TwoStages>({.problem = {4096, 4096, 4096}}, hiptile::sim::kMi300x));
  // A type the model cannot read (no kernel) names nothing.
  CHECK(hiptile::sim::timing_label<int>() == "?; ?; ? / ? / ? / ?");
  CHECK_FALSE(hiptile::sim::kernel_timing<int>());
}
