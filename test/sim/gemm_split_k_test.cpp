// GEMM with split-K, serial and parallel, on the simulator: every split count gives the reference's
// answer on ragged shapes with the whole epilogue (α, β, bias, activation) for all three layouts of
// D's operands; results are bitwise the same run to run, with one host thread or several, and the
// same in both modes (both add the slices in one order); the flags between runs are zero; the
// workspace is sized and checked.

#include "../common/split_k_determinism.hpp"
#include "gemm_test_support.hpp"
#include "hiptile/gemm/device/flag_reset.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/host/device_buffer.hpp"

namespace {

using namespace gemm_test;
using hiptile::gemm::kernel::SplitKMode;
namespace ep = hiptile::epilogue;

std::vector<Shape> const kSplitShapes = {
    {1, 1, 1, 0}, {129, 127, 33, 0}, {3, 5, 1000, 0}, {200, 61, 297, 40}, {256, 130, 640, 8},
};

template <SplitKMode Mode, class LA, class LB, class LC>
void check_split_counts(char const* layouts) {
  for (int slices : {1, 2, 3, 7}) {
    for (Shape const& s : kSplitShapes) {
      DYNAMIC_SECTION(layouts << ", slices " << slices << ": M=" << s.m << " N=" << s.n << " K=" << s.k) {
        Epilogue e{0.75f, 0.5f, BiasMode::kPerColumn, "gelu_erf", slices};
        run_case<half_t, LA, half_t, LB, half_t, LC, ep::GeluErf,
                 SplitGemm<LA, LB, LC, Mode, ep::GeluErf>>(s, e, ep::GeluErf{});
      }
    }
  }
}

TEST_CASE("gemm: serial split-K gives the reference's answer for every split count", "[gemm][split_k]") {
  check_split_counts<SplitKMode::kSerial, RowMajor, ColumnMajor, RowMajor>("A row, B column, D row");
  check_split_counts<SplitKMode::kSerial, ColumnMajor, RowMajor, ColumnMajor>("A column, B row, D column");
}

TEST_CASE("gemm: parallel split-K gives the reference's answer for every split count", "[gemm][split_k]") {
  check_split_counts<SplitKMode::kParallel, RowMajor, ColumnMajor, RowMajor>("A row, B column, D row");
  check_split_counts<SplitKMode::kParallel, ColumnMajor, RowMajor, ColumnMajor>("A column, B row, D column");
}

// D of the fixed problem with `slices` slices.
template <SplitKMode Mode>
std::vector<half_t> split_output(int slices) {
  return fixed_problem_output<SplitGemm<RowMajor, ColumnMajor, RowMajor, Mode>>(
      [&](auto& args) { args.split_k_slices = slices; });
}

TEST_CASE("gemm: split-K is bitwise deterministic, and the same serial and parallel", "[gemm][split_k]") {
  test_support::check_split_k_bitwise([](auto mode, int slices) { return split_output<decltype(mode)::value>(slices); }, {2, 6});
}

TEST_CASE("gemm: serial split-K's flags are zeroed before the first run after initialize(), and left zero by each run",
          "[gemm][split_k]") {
  using Serial = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kSerial>;
  using Tile = Serial::TileShapeType;
  using Problem = FixedProblem<Serial>;
  std::int64_t const tiles = hiptile::ceil_div(Problem::kM, Tile::kM) * hiptile::ceil_div(Problem::kN, Tile::kN);
  for (int slices : {2, 5}) {
    INFO("slices " << slices);
    check_flags_left_zero<Serial>([&](auto& args) { args.split_k_slices = slices; }, tiles * (slices - 1));
  }
}

TEST_CASE("gemm: the flags are zeroed before the first launch after initialize() and after a failed one, only then",
          "[gemm][split_k]") {
  std::vector<int> flags(6, 7);
  hiptile::gemm::device::FlagReset const reset(flags.data(), 5);
  REQUIRE(reset.before_launch(nullptr) == Status::kSuccess);
  CHECK(flags == std::vector<int>{0, 0, 0, 0, 0, 7});  // its 5 slots, nothing past them
  reset.after_launch(Status::kSuccess);
  std::fill(flags.begin(), flags.end(), 7);
  REQUIRE(reset.before_launch(nullptr) == Status::kSuccess);
  CHECK(flags == std::vector<int>(6, 7));  // a launch that completed left them zero: not zeroed again
  reset.after_launch(Status::kErrorLaunchFailed);
  REQUIRE(reset.before_launch(nullptr) == Status::kSuccess);
  CHECK(flags == std::vector<int>{0, 0, 0, 0, 0, 7});
  hiptile::gemm::device::FlagReset const none(flags.data(), 0);
  std::fill(flags.begin(), flags.end(), 7);
  none.after_launch(Status::kErrorLaunchFailed);
  REQUIRE(none.before_launch(nullptr) == Status::kSuccess);
  CHECK(flags == std::vector<int>(6, 7));
}

TEST_CASE("gemm: split-K workspace sizes and checks", "[gemm][split_k]") {
  using Serial = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kSerial>;
  using Parallel = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kParallel>;
  using Unsplit = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kNone>;
  // Operands at addresses far apart: can_implement reads no memory.
  auto const* a = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 20);
  auto const* b = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 30);
  auto* d = reinterpret_cast<half_t*>(std::uintptr_t(1) << 36);
  GemmCoord const p{300, 200, 4096};  // 3 × 2 tiles of 128 × 128
  auto args_for = [&](auto g, int slices) {
    typename decltype(g)::Arguments args{p, {a, p.k}, {b, p.k}, {}, {d, p.n}, {1.0f, 0.0f}};
    args.split_k_slices = slices;
    return args;
  };

  auto serial = args_for(Serial{}, 1);
  CHECK(Serial::get_workspace_size(serial) == 0);  // one slice: nothing to hand on
  serial.split_k_slices = 4;
  std::size_t const serial_bytes = Serial::get_workspace_size(serial);
  // 6 tiles × 3 slots (every slice but the last hands its sum over): 18 flags in 256 bytes.
  CHECK(serial_bytes == 256 + std::size_t(6) * 3 * 128 * 128 * sizeof(float));
  auto parallel = args_for(Parallel{}, 4);
  std::size_t const parallel_bytes = Parallel::get_workspace_size(parallel);
  CHECK(parallel_bytes == std::size_t(4) * 300 * 200 * sizeof(float));

  CHECK(Serial::can_implement(serial) == Status::kErrorWorkspaceNull);
  serial.workspace = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  serial.workspace_bytes = serial_bytes - 1;
  CHECK(Serial::can_implement(serial) == Status::kErrorWorkspaceTooSmall);
  serial.workspace_bytes = serial_bytes;
  CHECK(Serial::can_implement(serial) == Status::kSuccess);
  serial.workspace = reinterpret_cast<void*>((std::uintptr_t(1) << 40) + 4);
  CHECK(Serial::can_implement(serial) == Status::kErrorMisalignedOperand);
  serial.workspace = d;
  CHECK(Serial::can_implement(serial) == Status::kErrorAliasedOperand);
  serial.workspace = const_cast<half_t*>(a);
  CHECK(Serial::can_implement(serial) == Status::kErrorAliasedOperand);
  serial.split_k_slices = 0;
  CHECK(Serial::can_implement(serial) == Status::kErrorInvalidProblem);
  CHECK(Serial::get_workspace_size(serial) == 0);

  parallel.workspace = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  parallel.workspace_bytes = parallel_bytes;
  CHECK(Parallel::can_implement(parallel) == Status::kSuccess);
  parallel.split_k_slices = 5;  // more slices, more partial matrices
  CHECK(Parallel::can_implement(parallel) == Status::kErrorWorkspaceTooSmall);

  auto unsplit = args_for(Unsplit{}, 2);
  CHECK(Unsplit::can_implement(unsplit) == Status::kErrorNotSupported);
  CHECK(Unsplit::get_workspace_size(unsplit) == 0);
}

TEST_CASE("gemm: an operator initialised for split-K launches one workgroup per tile and slice", "[gemm][split_k]") {
  using Serial = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kSerial>;
  std::vector<half_t> a(300 * 64), b(200 * 64), d(300 * 200);
  Serial::Arguments args{{300, 200, 64}, {a.data(), 64}, {b.data(), 64}, {}, {d.data(), 200}, {1.0f, 0.0f}};
  args.split_k_slices = 3;  // more slices than the two K tiles: the third adds nothing
  args.workspace_bytes = Serial::get_workspace_size(args);
  hiptile::host::DeviceBuffer<std::byte> workspace(args.workspace_bytes);
  args.workspace = workspace.data();
  Serial gemm;
  REQUIRE(gemm.initialize(args) == Status::kSuccess);
  CHECK(gemm.workgroups() == 6);
  CHECK(gemm.split_k_slices() == 3);
}

}  // namespace
