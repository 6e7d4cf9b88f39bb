// DefaultGemm picks one of its configurations per problem (SelectingGemm, ShapeHeuristic) and that
// configuration computes D right. The simulated device has 2 compute units here, so that each rule
// of shape_heuristic.hpp is reached by problems small enough to simulate; the expected choices are
// the rules worked by hand for DefaultGemm's gfx942 candidates (default_gemm.hpp):
//   0  128×128×32 data-parallel (four workgroups per compute unit, 16 KiB of LDS each: 8 slots)
//   1  128×128×32 stream-K      2  32×128×64 stream-K      3  16×128×64 stream-K
//   4  128×128×32 parallel split-K
#include <catch2/catch.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gemm_test_support.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/sim/runtime.hpp"
#include "../common/temporary_directory.hpp"

namespace {

using namespace gemm_test;
namespace device = hiptile::gemm::device;
using hiptile::gemm::kernel::SplitKMode;
using device::ChoiceReason;

using TN = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
// A column-major: an M-contiguous A needs tiles of 64 rows or more, so no small-M candidates.
using NT = device::DefaultGemm<half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
static_assert(TN::kCandidates == 5 && NT::kCandidates == 3);
static_assert(std::is_same_v<TN::Candidate<0>, device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor,
                                                                                  half_t, RowMajor, hiptile::arch::Gfx942>>);

constexpr int kUnits = 2;

struct DeviceOfUnits {
  int saved = hiptile::sim::compute_units();
  explicit DeviceOfUnits(int units) { hiptile::sim::set_compute_units(units); }
  ~DeviceOfUnits() { hiptile::sim::set_compute_units(saved); }
};

struct Expected {
  Shape shape;
  int candidate;
  ChoiceReason reason;
};

// The arguments of an f16 problem D = A·B (beta 0) on real matrices, and Gemm's choice for them.
template <class Gemm>
struct Problem {
  Matrix<half_t, typename Gemm::LayoutA> a;
  Matrix<half_t, typename Gemm::LayoutB> b;
  Matrix<half_t, RowMajor> d;
  typename Gemm::Arguments args;
  explicit Problem(Shape s, int batch_count = 1)
      : a(s.m, s.k * batch_count, 0), b(s.k, s.n * batch_count, 0), d(s.m * batch_count, s.n, 0) {
    args = {{s.m, s.n, s.k}, a.cref(), b.cref(), {}, d.ref(), {1.0f, 0.0f}};
    if (batch_count == 1) return;
    args.batch_count = batch_count;
    args.batch_stride_a = Gemm::LayoutA::kRowMajor ? s.k : std::int64_t(s.k) * a.ld;
    args.batch_stride_b = Gemm::LayoutB::kRowMajor ? s.n : std::int64_t(s.n) * b.ld;
    args.batch_stride_d = std::int64_t(s.m) * d.ld;
  }
  device::GemmChoice choice() const {
    device::GemmChoice c;
    REQUIRE(Gemm::preferred(args, c) == Status::kSuccess);
    return c;
  }
};

TEST_CASE("DefaultGemm's choice follows its rules, and the chosen configuration computes D right", "[sim][gemm]") {
  DeviceOfUnits device_of(kUnits);
  int resident = 0;
  REQUIRE(hiptile::query_resident_workgroups<TN::Candidate<0>::Kernel>(TN::Candidate<0>::kThreads,
                                                                       TN::Candidate<0>::kLdsBytes, resident) ==
          Status::kSuccess);
  REQUIRE(resident == 4);  // the expectations below count 8 slots for the 128 × 128 tile
  Expected const table[] = {
      {{1, 300, 260, 0}, 3, ChoiceReason::kSmallM},            // M ≤ 16: 16 rows
      {{16, 129, 100, 8}, 3, ChoiceReason::kSmallM},
      {{17, 200, 300, 0}, 2, ChoiceReason::kSmallM},           // 17 ≤ M ≤ 128: 32 rows
      {{128, 256, 200, 0}, 2, ChoiceReason::kSmallM},
      {{129, 100, 300, 0}, 1, ChoiceReason::kFewTiles},        // 2 tiles on 8 slots
      {{200, 200, 70, 0}, 0, ChoiceReason::kFullWaves},        // 4 tiles: half the slots
      {{1152, 128, 64, 0}, 1, ChoiceReason::kPartialLastWave}, // 9 tiles: a last wave of 1
      {{1024, 200, 40, 0}, 0, ChoiceReason::kFullWaves},       // 16 tiles: two full waves
      {{1300, 130, 33, 0}, 0, ChoiceReason::kFullWaves},       // 22 tiles: a last wave of 6
  };
  for (Expected const& e : table) {
    Shape const& s = e.shape;
    DYNAMIC_SECTION("M=" << s.m << " N=" << s.n << " K=" << s.k) {
      device::GemmChoice const c = Problem<TN>(s).choice();
      std::ostringstream text;
      text << c;
      INFO(text.str());
      CHECK(c.candidate == e.candidate);
      CHECK(c.reason == e.reason);
      CHECK(c.schedule == (e.candidate == 0 ? SplitKMode::kNone : SplitKMode::kStreamK));
      CHECK(text.str().find(e.candidate == 0 ? "data-parallel" : "stream-K") != std::string::npos);
      run_case<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::epilogue::Identity, TN>(
          s, Epilogue{0.5f, 0.0f, BiasMode::kPerColumn}, hiptile::epilogue::Identity{});
    }
  }
  SECTION("a long K over two tiles on 4 compute units (16 slots): split into 8 slices") {
    DeviceOfUnits sixteen_slots(4);
    Shape const s{200, 100, 2000, 8};
    device::GemmChoice const c = Problem<TN>(s).choice();
    CHECK(c.candidate == 4);  // stream-K would share each of 2 tiles among 8 of the 16 slots
    CHECK(c.reason == ChoiceReason::kLongK);
    CHECK(c.schedule == SplitKMode::kParallel);
    CHECK(c.split_k_slices == 8);  // 16 slots / 2 tiles
    run_case<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::epilogue::Identity, TN>(
        s, Epilogue{0.5f, 0.0f, BiasMode::kPerRow}, hiptile::epilogue::Identity{});
  }
  SECTION("without small-M candidates (A column-major), M = 1 falls to the large tiles' rules") {
    Shape const s{1, 200, 300, 0};
    device::GemmChoice const c = Problem<NT>(s).choice();
    CHECK(c.candidate == 1);  // 2 tiles on 8 slots
    CHECK(c.reason == ChoiceReason::kFewTiles);
    run_case<half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor, hiptile::epilogue::Identity, NT>(
        s, Epilogue{}, hiptile::epilogue::Identity{});
  }
}

TEST_CASE("DefaultGemm: the candidates' own rules decide who may run", "[sim][gemm]") {
  DeviceOfUnits device_of(kUnits);
  SECTION("batches exclude stream-K: the small-M problem runs data-parallel, as the configuration itself would") {
    Problem<TN> p({16, 300, 64, 0}, 3);
    CHECK(p.choice().candidate == 0);
    TN op;
    REQUIRE(op.initialize(p.args) == Status::kSuccess);
    REQUIRE(op.run() == Status::kSuccess);
    std::vector<half_t> const selected = p.d.data;
    TN::Candidate<0> configuration;
    REQUIRE(configuration(p.args) == Status::kSuccess);
    CHECK(p.d.data == selected);  // bitwise: the same kernel ran
  }
  SECTION("stream_k_workgroups leaves only stream-K candidates") {
    Problem<TN> p({1024, 200, 40, 0});
    p.args.stream_k_workgroups = 3;
    device::GemmChoice const c = p.choice();
    CHECK(c.candidate == 1);
    CHECK(c.reason == ChoiceReason::kOnlyEligible);
  }
  SECTION("a stream-K choice asks for its workspace; without it the rules pick among the candidates that fit") {
    DeviceOfUnits eight(8);  // 8 slots of the 16-row tile (36 KiB of LDS: one per compute unit)
    Problem<TN> p({1, 300, 2000, 0});  // small M, 3 tiles on 8 slots, K shared: partial sums handed on
    device::GemmChoice preferred;
    REQUIRE(TN::preferred(p.args, preferred) == Status::kSuccess);
    REQUIRE(preferred.candidate == 3);
    std::size_t const bytes = TN::get_workspace_size(p.args);
    CHECK(bytes == TN::Candidate<3>::get_workspace_size(p.args));
    CHECK(bytes > 0);
    std::size_t with_status = 0;
    CHECK(TN::get_workspace_size(p.args, with_status) == Status::kSuccess);
    CHECK(with_status == bytes);
    auto refused = p.args;
    refused.problem.k = -1;  // no candidate takes it: the reason, and 0 bytes
    with_status = 1;
    CHECK(TN::get_workspace_size(refused, with_status) == TN::can_implement(refused));
    CHECK(TN::can_implement(refused) != Status::kSuccess);
    CHECK(with_status == 0);
    // No workspace: a candidate that needs none runs, and says which one would have run.
    device::GemmChoice none;
    REQUIRE(TN::select(p.args, none) == Status::kSuccess);
    CHECK(none.candidate != 3);
    CHECK(none.preferred == 3);
    CHECK(none.preferred_workspace_bytes == bytes);
    CHECK(none.preferred_speedup > 1);  // 3 tiles on 8 slots: sharing K was predicted faster
    CHECK(hiptile::visit_index<TN::kCandidates>(none.candidate, [&]<int I>() {
      return TN::Candidate<I>::get_workspace_size(p.args) == 0 ? Status::kSuccess : Status::kErrorInternal;
    }) == Status::kSuccess);
    CHECK(TN::can_implement(p.args) == Status::kSuccess);
    std::ostringstream text;
    text << none;
    CHECK(text.str().find("candidate 3 would run with " + std::to_string(bytes) + " bytes of workspace") !=
          std::string::npos);
    // One byte short: a candidate whose workspace fits, never the preferred one.
    std::vector<std::byte> workspace(bytes + 16);
    p.args.workspace = workspace.data() + (16 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 16) % 16;
    p.args.workspace_bytes = bytes - 1;
    device::GemmChoice shorter;
    REQUIRE(TN::select(p.args, shorter) == Status::kSuccess);
    CHECK(shorter.candidate != 3);
    CHECK(shorter.preferred == 3);
    CHECK(TN::can_implement(p.args) == Status::kSuccess);
    // Enough: the preferred candidate, with no word of another.
    p.args.workspace_bytes = bytes;
    device::GemmChoice exact;
    REQUIRE(TN::select(p.args, exact) == Status::kSuccess);
    CHECK(exact.candidate == 3);
    CHECK(exact.preferred == -1);
    CHECK(TN::can_implement(p.args) == Status::kSuccess);
    // initialize() without one logs a hint naming the size and the predicted gain.
    {
      hiptile_test::TemporaryDirectory const directory("hiptile-selection-hint");
      std::filesystem::path const log_file = directory.path / "log.txt";
      struct LogOff {
        ~LogOff() { hiptile::logging::configure({}); }
      } log_off;
      hiptile::logging::configure({.mask = unsigned(hiptile::logging::Category::kHints), .file = log_file.string()});
      Problem<TN> q({1, 300, 2000, 0});
      TN op;
      REQUIRE(op.initialize(q.args) == Status::kSuccess);
      CHECK(op.choice().candidate == none.candidate);
      hiptile::logging::configure({});
      std::ifstream in(log_file);
      std::string const log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      INFO(log);
      CHECK(log.find("a workspace of " + std::to_string(bytes) + " bytes (0 given) would run candidate 3") !=
            std::string::npos);
      CHECK(log.find("x as fast by its tile waves") != std::string::npos);
    }
    // A workspace that fits but is misaligned is refused, not passed over.
    p.args.workspace = static_cast<std::byte*>(p.args.workspace) + 4;
    CHECK(TN::can_implement(p.args) == Status::kErrorMisalignedOperand);
  }
  SECTION("split_k_slices with no workspace: only split-K candidates take them, and none fits") {
    Problem<TN> p({300, 200, 1000, 0});
    p.args.split_k_slices = 3;
    CHECK(TN::get_workspace_size(p.args) > 0);
    CHECK(TN::can_implement(p.args) == Status::kErrorWorkspaceNull);
    TN op;
    CHECK(op.initialize(p.args) == Status::kErrorWorkspaceNull);
    CHECK_FALSE(op.initialized());
  }
  SECTION("split_k_slices leaves only the split-K candidate, with the slices given") {
    Problem<TN> p({300, 200, 1000, 0});
    p.args.split_k_slices = 3;
    device::GemmChoice const c = p.choice();
    CHECK(c.candidate == 4);
    CHECK(c.reason == ChoiceReason::kOnlyEligible);
    CHECK(c.split_k_slices == 3);
  }
  SECTION("no candidate takes it: the first candidate's Status, and nothing runs") {
    Problem<TN> p({64, 64, 64, 0});
    p.args.a.data += 1;  // misaligned for every candidate
    CHECK(TN::can_implement(p.args) == Status::kErrorMisalignedOperand);
    TN op;
    CHECK(op.initialize(p.args) == Status::kErrorMisalignedOperand);
    CHECK_FALSE(op.initialized());
    CHECK(op.choice().candidate == -1);
    CHECK(op.run() == Status::kErrorNotInitialized);
  }
}

// The workspace is an input to the choice: given none, DefaultGemm runs every problem one of its
// data-parallel candidates takes; given get_workspace_size(args) bytes, it runs the candidate the
// rules prefer. Random shapes (the among them) on a 2-unit device, where the rules prefer
// stream-K or split-K often, and on the default simulated MI300X.
TEST_CASE("DefaultGemm without a workspace runs every shape; with one, the preferred candidate", "[sim][gemm]") {
  std::vector<Shape> shapes = {{200, 150, 64, 0}, {127, 385, 237, 0}, {1, 300, 2000, 0}, {200, 100, 2000, 8}};
  std::mt19937 rng(39);
  for (int i = 0; i < 60; ++i) {
    std::uniform_int_distribution<int> extent(1, 400), depth(1, 3000);
    shapes.push_back({extent(rng), extent(rng), depth(rng), 0});
  }
  for (int units : {kUnits, 0}) {
    DeviceOfUnits device_of(units == 0 ? hiptile::sim::compute_units() : units);
    int fell_back = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      Shape const& s = shapes[i];
      INFO("units " << hiptile::sim::compute_units() << ", M=" << s.m << " N=" << s.n << " K=" << s.k);
      Problem<TN> p(s);
      device::GemmChoice preferred, without, with;
      REQUIRE(TN::preferred(p.args, preferred) == Status::kSuccess);
      REQUIRE(TN::select(p.args, without) == Status::kSuccess);
      CHECK(TN::can_implement(p.args) == Status::kSuccess);
      std::size_t const bytes = TN::get_workspace_size(p.args);
      if (bytes == 0) {
        CHECK(without.candidate == preferred.candidate);
        CHECK(without.preferred == -1);
      } else {
        ++fell_back;
        CHECK(without.preferred == preferred.candidate);
        CHECK(without.preferred_workspace_bytes == bytes);
      }
      std::vector<std::byte> workspace(bytes + 16);
      p.args.workspace = workspace.data() + (16 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 16) % 16;
      p.args.workspace_bytes = bytes;
      REQUIRE(TN::select(p.args, with) == Status::kSuccess);
      CHECK(with.candidate == preferred.candidate);
      CHECK(with.split_k_slices == preferred.split_k_slices);
      CHECK(with.preferred == -1);
      if (i < 12 && units == kUnits) {  // the first few run without a workspace, checked against the reference
        run_case<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::epilogue::Identity, TN>(
            s, Epilogue{.alpha = 1.0f, .beta = 0.0f, .workspace = false}, hiptile::epilogue::Identity{});
      }
    }
    INFO("units " << hiptile::sim::compute_units());
    CHECK(fell_back > 0);  // the sweep reaches the candidates that need a workspace
  }
}

}  // namespace
