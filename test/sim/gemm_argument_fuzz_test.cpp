// The argument-fuzzing suite (test/common/argument_fuzz.hpp) on device::Gemm: every field of
// Gemm::Arguments at its extremes, alone and in seeded combinations, on several gfx942
// configurations run in the simulator. HIPTILE_FUZZ_CASES sets the random cases per configuration.
#include <string>

#include "gemm_fuzz_subject.hpp"
#include "hiptile/arch/simt_fma.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"

namespace {

using namespace gemm_fuzz;


template <class Gemm, class Op = Gemm>
void fuzz_gemm(char const* label, std::uint64_t seed) {
  fuzz::Report const report = fuzz::run<GemmSubject<Gemm, Op>>(seed, fuzz::random_cases());
  WARN(report.summary(label));  // the counts, for the log
  CHECK(report.ran > 0);
  CHECK(report.geometry_only > 0);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorGridTooLarge)) == 1);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorOperandTooLarge)) == 1);
  CHECK(report.refused.size() >= 8);
  if constexpr (Gemm::kSplitK != SplitKMode::kNone && std::is_same_v<Gemm, Op>) {
    CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorWorkspaceNull)) == 1);
    CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorWorkspaceTooSmall)) == 1);
  }
  // slices > 1 (a SelectingGemm with a split-K candidate takes them)
  if constexpr ((Gemm::kSplitK == SplitKMode::kNone || Gemm::kSplitK == SplitKMode::kStreamK) &&
                std::is_same_v<Gemm, Op>) {
    CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorNotSupported)) == 1);
  }
  if constexpr (Gemm::kSplitK == SplitKMode::kStreamK && std::is_same_v<Gemm, Op>) {  // (shared by the configuration run)
    std::int64_t const shared = GemmSubject<Gemm, Op>::shared_tile_checks;
    WARN(label << ": " << shared << " output checks of runs with shared tiles");
    CHECK(shared > 0);
  }
}

using I8ToI32 = device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor, arch::Gfx942>;
using I8ToF16 = device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
using Fp8ToF16 = device::DefaultGemmConfiguration<hiptile::float8_e4m3fnuz, RowMajor, hiptile::float8_e5m2fnuz, ColumnMajor, half_t,
                                     RowMajor, arch::Gfx942>;
using F32TN = device::DefaultGemmConfiguration<float, RowMajor, float, ColumnMajor, float, RowMajor, arch::Gfx942>;
using F16TN = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
using F16NTColumnMajorF32 = device::DefaultGemmConfiguration<half_t, ColumnMajor, half_t, RowMajor, float, ColumnMajor, arch::Gfx942>;
using Bf16NN = device::DefaultGemmConfiguration<bfloat16_t, RowMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor, arch::Gfx942>;
using F16Small16x16 =
    device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942,
                 hiptile::GemmShape<64, 64, 32>, hiptile::GemmShape<32, 32, 32>, arch::Mfma16x16x16F16,
                 hiptile::epilogue::LinearCombination<half_t>, hiptile::gemm::kernel::RowMajorTileOrder, 3>;
using F32Simt = device::Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor, float, arch::Gfx942,
                             hiptile::GemmShape<128, 128, 16>, hiptile::GemmShape<64, 64, 16>, arch::SimtFma<float, 64>,
                             hiptile::epilogue::LinearCombination<float>, hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;
template <SplitKMode Mode>
using F16TNSplitK = device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942,
                                 F16TN::TileShapeType, F16TN::WaveShapeType, F16TN::MmaAtomType,
                                 F16TN::OutputOpType, F16TN::TileOrderType, F16TN::kStages, Mode>;

TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f16 TN default", "[fuzz]") {
  fuzz_gemm<F16TN>("f16 TN (DefaultGemmConfiguration)", 1);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f16 NT, column-major f32 D", "[fuzz]") {
  fuzz_gemm<F16NTColumnMajorF32>("f16 NT, f32 column-major D", 2);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: bf16 NN", "[fuzz]") {
  fuzz_gemm<Bf16NN>("bf16 NN", 3);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: 16x16 MFMA, 3 stages, row-major order",
          "[fuzz]") {
  fuzz_gemm<F16Small16x16>("f16 16x16x16, 64x64 tile, 3 stages", 4);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f32 SIMT", "[fuzz]") {
  fuzz_gemm<F32Simt>("f32 SIMT FMA", 5);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f16 TN, serial split-K", "[fuzz][split_k]") {
  fuzz_gemm<F16TNSplitK<SplitKMode::kSerial>>("f16 TN, serial split-K", 6);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f16 TN, parallel split-K",
          "[fuzz][split_k]") {
  fuzz_gemm<F16TNSplitK<SplitKMode::kParallel>>("f16 TN, parallel split-K", 7);
}
// DefaultGemm: each case runs the configuration its shape selects (the cases are shaped by the
// stream-K configuration's rules: workspace and stream-K fields included).
using F16TNSelecting = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
TEST_CASE("DefaultGemm (a configuration per shape) gives every extreme argument a Status or a right answer",
          "[fuzz][stream_k]") {
  fuzz_gemm<F16TNSplitK<SplitKMode::kStreamK>, F16TNSelecting>("f16 TN, DefaultGemm's choice per shape", 13);
}
using F16TNTuned = hiptile::tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
// The workspace is an input to DefaultGemm's choice: with none given (and no K slices asked for),
// every case the suite makes runs or is refused for what is wrong with it, never for the workspace.
TEST_CASE("DefaultGemm without a workspace gives every extreme argument a Status or a right answer, never a "
          "workspace refusal",
          "[fuzz][stream_k]") {
  using Subject = GemmSubject<F16TNSplitK<SplitKMode::kStreamK>, F16TNSelecting, /*NoWorkspace=*/true>;
  fuzz::Report const report = fuzz::run<Subject>(16, fuzz::random_cases());
  WARN(report.summary("f16 TN, DefaultGemm with no workspace"));
  CHECK(report.ran > 0);
  CHECK(report.geometry_only > 0);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorWorkspaceNull)) == 0);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorWorkspaceTooSmall)) == 0);
  CHECK(report.refused.size() >= 8);
}
TEST_CASE("TunedGemm in heuristic mode without a workspace never refuses for the workspace", "[fuzz][tune]") {
  F16TNTuned::clear_cache();
  using Subject = GemmSubject<F16TNSplitK<SplitKMode::kStreamK>,
                              fuzz::TunedOperator<F16TNTuned, fuzz::HeuristicTuning>, /*NoWorkspace=*/true>;
  fuzz::Report const report = fuzz::run<Subject>(17, fuzz::random_cases());
  WARN(report.summary("f16 TN, TunedGemm (heuristic) with no workspace"));
  CHECK(report.ran > 0);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorWorkspaceNull)) == 0);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorWorkspaceTooSmall)) == 0);
}
// TunedGemm over the same candidates (fuzz::TunedOperator, test/common/tuned_operator.hpp): in
// heuristic mode (DefaultGemm's choice, no database), and in hybrid mode with a database of its own,
// where each new problem's candidate is the one the MI300 timing model predicts fastest, stored and
// then read back.
TEST_CASE("TunedGemm in heuristic mode gives every extreme argument a Status or a right answer", "[fuzz][tune]") {
  F16TNTuned::clear_cache();
  fuzz_gemm<F16TNSplitK<SplitKMode::kStreamK>, fuzz::TunedOperator<F16TNTuned, fuzz::HeuristicTuning>>(
      "f16 TN, TunedGemm (heuristic)", 14);
}
// (fuzz_gemm's counts of workspace refusals assume the heuristic's stream-K picks for the small
// baselines; the timing model often prefers the data-parallel tile there, which needs none.)
TEST_CASE("TunedGemm in hybrid mode gives every extreme argument a Status or a right answer", "[fuzz][tune]") {
  F16TNTuned::clear_cache();
  using Subject = GemmSubject<F16TNSplitK<SplitKMode::kStreamK>, fuzz::TunedOperator<F16TNTuned, fuzz::HybridTuning>>;
  fuzz::Report const report = fuzz::run<Subject>(15, fuzz::random_cases());
  WARN(report.summary("f16 TN, TunedGemm (hybrid, timing model)"));
  CHECK(report.ran > 0);
  CHECK(report.geometry_only > 0);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorGridTooLarge)) == 1);
  CHECK(report.refused.count(hiptile::to_string(hiptile::Status::kErrorOperandTooLarge)) == 1);
  CHECK(report.refused.size() >= 8);
  std::size_t const stored = hiptile::tune::TuningDatabase(fuzz::HybridTuning::database()).entries().size();
  WARN("hybrid: " << stored << " problems timed and stored");
  CHECK(stored > 0);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f16 TN, stream-K", "[fuzz][stream_k]") {
  fuzz_gemm<F16TNSplitK<SplitKMode::kStreamK>>("f16 TN, stream-K", 8);
}

}  // namespace
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: int8 -> int32", "[fuzz][types]") {
  fuzz_gemm<I8ToI32>("i8 x i8 -> i32 (IntegerOutput)", 9);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: int8 -> f16", "[fuzz][types]") {
  fuzz_gemm<I8ToF16>("i8 x i8 -> f16", 10);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: fp8 e4m3 x e5m2 -> f16", "[fuzz][types]") {
  fuzz_gemm<Fp8ToF16>("e4m3fnuz x e5m2fnuz -> f16 (ScaledLinearCombination)", 11);
}
TEST_CASE("Gemm gives every extreme argument a Status or a right answer: f32 MFMA", "[fuzz][types]") {
  fuzz_gemm<F32TN>("f32 (32x32x2 MFMA)", 12);
}
