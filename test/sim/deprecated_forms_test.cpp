// 0.1's calls that took the workspace as a pointer beside the arguments still work, one minor
// version behind [[deprecated]] (gemm/device/workspace_pointer_forms.hpp, CHANGELOG.md): each gives
// the bits of today's call with args.workspace set, on a stream-K GEMM that needs a workspace, on
// DefaultGemm and on a split-K convolution. DefaultGemm's deprecated configuration names are the
// first candidate's. (Built with -Wno-deprecated-declarations: the warnings are the point
// elsewhere, in the install_upgrade test.)
#include "gemm_test_support.hpp"

#include <cstring>
#include <type_traits>
#include <vector>

#include "conv_test_support.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"

namespace {

using namespace gemm_test;
namespace device = hiptile::gemm::device;
using hiptile::gemm::kernel::SplitKMode;
using StreamK = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kStreamK>;
using Default = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;

template <class G>
std::vector<half_t> today(FixedProblem<G>& problem) {
  std::fill(problem.d.data.begin(), problem.d.data.end(), half_t(NAN));
  G op;
  REQUIRE(op(problem.args) == Status::kSuccess);
  return problem.d.data;
}

bool same_bits(std::vector<half_t> const& x, std::vector<half_t> const& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(half_t)) == 0;
}

}  // namespace

TEST_CASE("0.1's workspace-pointer calls give today's result", "[sim][gemm]") {
  auto const configure = [](auto&) {};
  SECTION("stream-K Gemm: initialize(args, workspace), operator()(args, workspace[, stream])") {
    FixedProblem<StreamK> p(configure);
    REQUIRE(p.args.workspace_bytes > 0);  // the schedule shares tiles: a workspace is needed
    std::vector<half_t> const expected = today(p);
    void* const workspace = p.args.workspace;
    StreamK::Arguments old = p.args;
    old.workspace = nullptr;
    old.workspace_bytes = 0;
    CHECK(StreamK::can_implement(old) == Status::kErrorWorkspaceNull);
    StreamK op;
    std::fill(p.d.data.begin(), p.d.data.end(), half_t(NAN));
    REQUIRE(op.initialize(old, workspace) == Status::kSuccess);
    REQUIRE(op.run() == Status::kSuccess);
    CHECK(same_bits(p.d.data, expected));
    std::fill(p.d.data.begin(), p.d.data.end(), half_t(NAN));
    REQUIRE(StreamK{}(old, workspace, nullptr) == Status::kSuccess);
    CHECK(same_bits(p.d.data, expected));
    std::fill(p.d.data.begin(), p.d.data.end(), half_t(NAN));
    REQUIRE(StreamK{}(old, workspace) == Status::kSuccess);
    CHECK(same_bits(p.d.data, expected));
    CHECK(StreamK{}(old, nullptr, nullptr) == Status::kErrorWorkspaceNull);  // a null pointer gives none
  }
  SECTION("DefaultGemm: the same forms, and its configuration names are the first candidate's") {
    static_assert(std::is_same_v<Default::TileShapeType, Default::Candidate<0>::TileShapeType>);
    static_assert(std::is_same_v<Default::WaveShapeType, Default::Candidate<0>::WaveShapeType>);
    static_assert(std::is_same_v<Default::MmaAtomType, Default::Candidate<0>::MmaAtomType>);
    static_assert(std::is_same_v<Default::TileOrderType, Default::Candidate<0>::TileOrderType>);
    static_assert(Default::kStages == Default::Candidate<0>::kStages);
    FixedProblem<Default> p(configure);
    std::vector<half_t> const expected = today(p);
    void* const workspace = p.args.workspace;
    Default::Arguments old = p.args;
    old.workspace = nullptr;
    old.workspace_bytes = 0;
    std::fill(p.d.data.begin(), p.d.data.end(), half_t(NAN));
    Default op;
    REQUIRE(op.initialize(old, workspace) == Status::kSuccess);
    REQUIRE(op.run() == Status::kSuccess);
    CHECK(same_bits(p.d.data, expected));
    std::fill(p.d.data.begin(), p.d.data.end(), half_t(NAN));
    REQUIRE(Default{}(old, workspace, nullptr) == Status::kSuccess);
    CHECK(same_bits(p.d.data, expected));
  }
}

TEST_CASE("0.1's workspace-pointer calls on a convolution give today's result", "[sim][conv]") {
  using conv_test::ConvOperator;
  using conv_test::ConvProblemSize;
  using Conv = conv_test::Gfx942Conv<ConvOperator::kWgrad, half_t, conv_test::IteratorAlgorithm::kPrecomputed, 8,
                                     half_t, hiptile::conv::RowDivision::kFast, hiptile::conv::RowDivision::kFast,
                                     SplitKMode::kParallel>;
  ConvProblemSize const p = ConvProblemSize::conv2d(2, 9, 9, 16, 24, 3, 3, 1, 1);
  conv_test::TensorShapes const s = conv_test::tensor_shapes(p);
  hiptile::host::HostMatrix<half_t, RowMajor> dy(s.y_rows, s.y_cols), x(s.x_rows, s.x_cols);
  hiptile::host::fill_random(dy, 1, -1.0, 1.0);
  hiptile::host::fill_random(x, 2, -1.0, 1.0);
  std::vector<half_t> dw(std::size_t(s.w_rows * s.w_cols), half_t(NAN));
  Conv::Arguments args{p, dy.data(), x.data(), nullptr, dw.data(), {1.0f, 0.0f}};
  args.split_k_slices = 3;
  std::size_t const bytes = Conv::get_workspace_size(args);
  REQUIRE(bytes > 0);
  std::vector<float> workspace(bytes / sizeof(float) + 4);
  Conv::Arguments now = args;
  now.workspace = workspace.data();
  now.workspace_bytes = bytes;
  REQUIRE(Conv{}(now) == Status::kSuccess);
  std::vector<half_t> const expected = dw;
  std::fill(dw.begin(), dw.end(), half_t(NAN));
  REQUIRE(Conv{}(args, static_cast<void*>(workspace.data()), nullptr) == Status::kSuccess);
  CHECK(same_bits(dw, expected));
  std::fill(dw.begin(), dw.end(), half_t(NAN));
  Conv op;
  REQUIRE(op.initialize(args, workspace.data()) == Status::kSuccess);
  REQUIRE(op.run() == Status::kSuccess);
  CHECK(same_bits(dw, expected));
}
