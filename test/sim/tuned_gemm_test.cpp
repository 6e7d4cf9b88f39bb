// TunedGemm (tune/tuned_gemm.hpp) over DefaultGemm's gfx942 f16 candidates: each find mode chooses
// as documented — the heuristic's pick, the database's entry, the fastest by the MI300 timing model
// (the simulator's stand-in for a clock) — remembers its choice per problem and device, and the
// chosen candidate computes D right. Each test has its own database file (the process reads a
// path once) and starts with an empty choice cache. HIPTILE_FIND_MODE is read once per process,
// so the modes are set through TuningOptions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hiptile/core/visit_index.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/sim/runtime.hpp"
#include "hiptile/sim/simulated_device.hpp"
#include "hiptile/sim/timing_model.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"
#include "hiptile/tune/model_timing.hpp"
#include "hiptile/tune/tuning_database.hpp"
#include "hiptile/version.hpp"
#include "../common/temporary_directory.hpp"

namespace {

using hiptile::GemmCoord;
using hiptile::Status;
using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace host = hiptile::host;
namespace tune = hiptile::tune;
namespace sim = hiptile::sim;
using hiptile::gemm::kernel::SplitKMode;
using tune::ChoiceSource;
using tune::FindMode;

using Tuned = tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
using Selecting =
    hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
using Arguments = Tuned::Arguments;
static_assert(Tuned::kCandidates == Selecting::kCandidates);

// A fresh database directory, an empty choice cache, and the simulated MI300X again at the end.
struct TuningScope {
  hiptile_test::TemporaryDirectory directory{"hiptile-tuned-test"};
  std::filesystem::path const& dir = directory.path;
  std::string database;
  TuningScope() {
    database = (directory.path / "tuning.db").string();
    Tuned::clear_cache();
  }
  ~TuningScope() {
    sim::set_device(sim::kMi300xDevice);
    Tuned::clear_cache();
  }
  tune::TuningOptions options(FindMode mode) const { return {.mode = mode, .database = database}; }
};

// D = A·B on random f16 data, A row-major and B column-major with leading dimensions padded to
// whole 16-byte vectors, in device memory (a GPU allocation covers the last element's vector,
// which the loads read; a host vector of the exact size would not).
struct Problem {
  GemmCoord shape;
  host::HostMatrix<half_t, RowMajor> a;
  host::HostMatrix<half_t, ColumnMajor> b;
  host::HostMatrix<half_t, RowMajor> d;
  host::DeviceBuffer<half_t> a_device, b_device, d_device;
  Arguments args;
  explicit Problem(GemmCoord s)
      : shape(s), a(s.m, s.k, (s.k + 7) / 8 * 8), b(s.k, s.n, (s.k + 7) / 8 * 8), d(s.m, s.n) {
    host::fill_random(a, 17, -1.0, 1.0);
    host::fill_random(b, 18, -1.0, 1.0);
    a_device = host::DeviceBuffer<half_t>(std::as_const(a).span());
    b_device = host::DeviceBuffer<half_t>(std::as_const(b).span());
    d_device = host::DeviceBuffer<half_t>(d.storage().size());
    args = {s, {a_device.data(), a.ld()}, {b_device.data(), b.ld()}, {}, {d_device.data(), d.ld()}, {1.0f, 0.0f}};
  }
};

hiptile::DeviceInfo const& current_device() {
  hiptile::DeviceInfo const* info = nullptr;
  REQUIRE(hiptile::current_device_info(info) == Status::kSuccess);
  return *info;
}

tune::TuningKey key_for(Arguments const& args, hiptile::DeviceInfo const& device) {
  return {device.name, device.compute_units, hiptile::kVersion, Tuned::candidate_list_id(),
          Tuned::problem_key_text(args)};
}

// Writes the database file with one entry naming `winner` for the problem on `device`.
void write_entry(std::string const& path, Arguments const& args, hiptile::DeviceInfo const& device,
                 std::string const& winner, int slices, double us) {
  std::ofstream out(path, std::ios::app);
  out << tune::format_entry({key_for(args, device), winner, slices, us}) << '\n';
}

tune::TunedChoice select(Tuned const& op, Arguments const& args) {
  tune::TunedChoice c;
  REQUIRE(op.select_preferred(args, c) == Status::kSuccess);
  std::ostringstream text;
  text << c;
  INFO(text.str());
  REQUIRE(c.candidate >= 0);
  REQUIRE(c.candidate < Tuned::kCandidates);
  CHECK(c.name == Tuned::candidate_name(c.candidate));
  return c;
}

hiptile::gemm::device::GemmChoice heuristic_choice(Arguments const& args) {
  hiptile::gemm::device::GemmChoice h;
  REQUIRE(Selecting::preferred(args, h) == Status::kSuccess);
  return h;
}

// The fastest (candidate, K slices) pair the MI300 timing model predicts for the problem on
// `device`, worked out here from the candidates' own can_implement and the model: a split-K
// candidate over 2, 4, ..., 64 slices, the others as the arguments say.
struct Fastest {
  int candidate = -1;
  int slices = 1;
  double seconds = std::numeric_limits<double>::infinity();
  int pairs = 0;  // pairs the model has a time for
};

// (fits_bytes: only pairs whose workspace is at most that many bytes; SIZE_MAX: any.)
template <int I>
void consider(Arguments const& args, hiptile::DeviceInfo const& device, Fastest& best, std::size_t fits_bytes) {
  using G = Tuned::Candidate<I>;
  bool const slices_free = (G::kSplitK == SplitKMode::kSerial || G::kSplitK == SplitKMode::kParallel) &&
                           args.split_k_slices == 1;
  std::vector<int> const tries = slices_free ? std::vector<int>{2, 4, 8, 16, 32, 64} : std::vector<int>{args.split_k_slices};
  for (int slices : tries) {
    Arguments a = args;
    a.split_k_slices = slices;
    a.workspace = nullptr;
    a.workspace_bytes = 0;
    Status const s = G::can_implement(a);
    if (!hiptile::ok(s) && s != Status::kErrorWorkspaceNull && s != Status::kErrorWorkspaceTooSmall) continue;
    if (G::get_workspace_size(a) > fits_bytes) continue;
    std::optional<sim::Prediction> const p =
        sim::predicted_time<G>({.problem = args.problem, .slices = slices}, tune::model_device(device));
    if (!p) continue;
    ++best.pairs;
    if (p->seconds < best.seconds) best = {I, slices, p->seconds, best.pairs};
  }
}

Fastest fastest(Arguments const& args, hiptile::DeviceInfo const& device, std::size_t fits_bytes = SIZE_MAX) {
  Fastest best;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (consider<I>(args, device, best, fits_bytes), ...);
  }(std::make_integer_sequence<int, Tuned::kCandidates>{});
  return best;
}

// Runs the operator (chosen with `options`) on the problem and compares D with the double reference.
void run_and_compare(tune::TuningOptions const& options, Problem& p) {
  host::poison(p.d);
  p.d_device.copy_from_host(std::as_const(p.d).span());
  Tuned op(options);
  Arguments args = p.args;
  args.workspace_bytes = op.get_workspace_size(args);
  host::DeviceBuffer<std::byte> workspace(std::max<std::size_t>(args.workspace_bytes, 1));
  args.workspace = args.workspace_bytes > 0 ? workspace.data() : nullptr;
  REQUIRE(op.initialize(args) == Status::kSuccess);
  Status const ran = op.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(ran == Status::kSuccess);
  p.d_device.copy_to_host(p.d.span());
  host::HostMatrix<double> reference, magnitude;
  host::reference_gemm(p.shape, 1.0, p.a, p.b, 0.0, host::HostMatrix<half_t>(), reference, &magnitude);
  host::Comparison const result =
      host::compare(p.d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(p.shape.k));
  INFO(host::to_string(result));
  CHECK(result.passed());
  CHECK(result.checked == std::int64_t(p.shape.m) * p.shape.n);
}

GemmCoord const kRagged{100, 70, 90};

// Arguments for choosing only, never run: A, B and D at far apart addresses no one touches (a
// choice reads the arguments, not the memory), so that large problems cost nothing.
Arguments unbacked(GemmCoord s) {
  Arguments args{};
  args.problem = s;
  args.a = {reinterpret_cast<half_t const*>(std::uintptr_t(1) << 40), (s.k + 7) / 8 * 8};
  args.b = {reinterpret_cast<half_t const*>(std::uintptr_t(2) << 40), (s.k + 7) / 8 * 8};
  args.d = {reinterpret_cast<half_t*>(std::uintptr_t(3) << 40), s.n};
  args.output_op = {1.0f, 0.0f};
  return args;
}

}  // namespace

TEST_CASE("heuristic mode picks what SelectingGemm picks and never touches the database", "[sim][tune]") {
  TuningScope scope;
  for (GemmCoord const shape : {kRagged, GemmCoord{129, 100, 300}, GemmCoord{1300, 130, 33}, GemmCoord{1, 300, 260}}) {
    Problem p(shape);
    tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kHeuristic)), p.args);
    hiptile::gemm::device::GemmChoice const h = heuristic_choice(p.args);
    CHECK(c.source == ChoiceSource::kHeuristic);
    CHECK(c.mode == FindMode::kHeuristic);
    CHECK(c.candidate == h.candidate);
    CHECK(c.split_k_slices == h.split_k_slices);
    CHECK(c.reason == hiptile::gemm::device::to_string(h.reason));
    CHECK(c.timed_candidates == 0);
    CHECK_FALSE(c.cached);
  }
  CHECK(std::filesystem::is_empty(scope.dir));
  Problem p(kRagged);
  run_and_compare(scope.options(FindMode::kHeuristic), p);
}

TEST_CASE("db mode uses the database's entry for the problem on this device, and runs it right", "[sim][tune]") {
  TuningScope scope;
  Problem p(kRagged);
  int const heuristic = heuristic_choice(p.args).candidate;
  int const stored = heuristic == 0 ? 1 : 0;  // an entry the heuristic would not pick
  write_entry(scope.database, p.args, current_device(), Tuned::candidate_name(stored), 1, 42.5);
  tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kDatabase)), p.args);
  CHECK(c.source == ChoiceSource::kDatabase);
  CHECK(c.candidate == stored);
  CHECK(c.split_k_slices == 1);
  CHECK(c.microseconds == Approx(42.5));
  CHECK(c.timed_candidates == 0);
  run_and_compare(scope.options(FindMode::kDatabase), p);
}

TEST_CASE("db mode falls back to the heuristic on a miss, a stale key or an entry it cannot use", "[sim][tune]") {
  TuningScope scope;
  Problem p(kRagged);
  hiptile::gemm::device::GemmChoice const h = heuristic_choice(p.args);
  hiptile::DeviceInfo const& device = current_device();
  SECTION("no file: a miss, and db mode writes none") {}
  SECTION("an entry for another device") {
    hiptile::DeviceInfo other = device;
    other.name = "AMD Instinct MI300A (simulated)";
    write_entry(scope.database, p.args, other, Tuned::candidate_name(h.candidate == 0 ? 1 : 0), 1, 1.0);
  }
  SECTION("an entry for another CU count") {
    hiptile::DeviceInfo other = device;
    other.compute_units = 80;
    write_entry(scope.database, p.args, other, Tuned::candidate_name(h.candidate == 0 ? 1 : 0), 1, 1.0);
  }
  SECTION("an entry naming a configuration that is not in the list") {
    write_entry(scope.database, p.args, device, "f16, A row, B col, C row; tile 999x999x32, made up", 1, 1.0);
  }
  SECTION("an entry naming a candidate that cannot run it so (data-parallel over 4 K slices)") {
    write_entry(scope.database, p.args, device, Tuned::candidate_name(0), 4, 1.0);
  }
  bool const existed = std::filesystem::exists(scope.database);
  tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kDatabase)), p.args);
  CHECK(c.source == ChoiceSource::kHeuristic);
  CHECK(c.candidate == h.candidate);
  CHECK(c.split_k_slices == h.split_k_slices);
  CHECK(std::filesystem::exists(scope.database) == existed);  // db mode only reads
}

TEST_CASE("hybrid mode on a miss times every eligible candidate, takes the fastest and stores it", "[sim][tune]") {
  TuningScope scope;
  hiptile::DeviceInfo const& device = current_device();
  // Shapes the model ranks differently (on the simulated MI300X): the small-M stream-K tile, the
  // data-parallel 128 x 128 tile, the 16-row stream-K tile, the 128 x 128 stream-K tile.
  GemmCoord const shapes[] = {kRagged, {4096, 4096, 4096}, {128, 128, 16384}, {8000, 8000, 8000}};
  std::set<int> winners;
  for (GemmCoord const shape : shapes) winners.insert(fastest(unbacked(shape), device).candidate);
  CHECK(winners.size() >= 3);  // the shapes tell a tuner that always picks one candidate apart
  for (GemmCoord const shape : shapes) {
    DYNAMIC_SECTION(shape.m << "x" << shape.n << "x" << shape.k) {
      Arguments const args = unbacked(shape);
      Fastest const best = fastest(args, device);
      REQUIRE(best.pairs > 1);  // a real race
      tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kHybrid)), args);
      CHECK(c.source == ChoiceSource::kTimed);
      CHECK(c.predicted);
      CHECK(c.candidate == best.candidate);
      CHECK(c.split_k_slices == best.slices);
      CHECK(c.microseconds == Approx(best.seconds * 1e6));
      CHECK(c.timed_candidates == best.pairs);

      std::optional<tune::TuningEntry> const e = tune::TuningDatabase(scope.database).find(key_for(args, device));
      REQUIRE(e);
      CHECK(e->winner == Tuned::candidate_name(best.candidate));
      CHECK(e->split_k_slices == best.slices);
      CHECK(e->microseconds == Approx(c.microseconds).margin(1e-6));
    }
  }
  Problem p(kRagged);
  run_and_compare(scope.options(FindMode::kHybrid), p);
}

// The workspace is an input to the choice: the timed race is run once per problem, and a smaller
// workspace takes the fastest pair that fits it; get_workspace_size stays the first choice's need.
TEST_CASE("search mode without a workspace runs the fastest candidate that needs none, and says what more would buy",
          "[sim][tune]") {
  TuningScope scope;
  hiptile::DeviceInfo const& device = current_device();
  Arguments args = unbacked({128, 128, 16384});  // the model's fastest: split-K over many slices
  Fastest const best = fastest(args, device);
  Fastest const best_free = fastest(args, device, 0);
  REQUIRE(best.candidate >= 0);
  REQUIRE(best_free.candidate >= 0);
  REQUIRE(best_free.candidate != best.candidate);
  Tuned const op(scope.options(FindMode::kSearch));
  std::size_t const bytes = op.get_workspace_size(args);
  REQUIRE(bytes > 0);
  tune::TunedChoice without;
  REQUIRE(op.select(args, without) == Status::kSuccess);
  CHECK(without.source == ChoiceSource::kTimed);
  CHECK(without.candidate == best_free.candidate);
  CHECK(without.split_k_slices == best_free.slices);
  CHECK(without.microseconds == Approx(best_free.seconds * 1e6));
  CHECK(without.cached);  // get_workspace_size timed the race; this call reads it
  CHECK(without.preferred == best.candidate);
  CHECK(without.preferred_workspace_bytes == bytes);
  CHECK(without.preferred_microseconds == Approx(best.seconds * 1e6));
  CHECK(without.name == Tuned::candidate_name(without.candidate));
  {  // initialize() logs the size and both times, as the model predicts them in the simulator
    std::filesystem::path const log_file = scope.dir / "hints.txt";
    struct LogOff {
      ~LogOff() { hiptile::logging::configure({}); }
    } log_off;
    hiptile::logging::configure({.mask = unsigned(hiptile::logging::Category::kHints), .file = log_file.string()});
    Tuned run_op(scope.options(FindMode::kSearch));
    REQUIRE(run_op.initialize(args) == Status::kSuccess);
    hiptile::logging::configure({});
    std::ifstream in(log_file);
    std::string const log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(log);
    CHECK(log.find("TunedGemm: a workspace of " + std::to_string(bytes) + " bytes (0 given) would run candidate " +
                   std::to_string(best.candidate)) != std::string::npos);
    CHECK(log.find("us, predicted by the MI300 timing model") != std::string::npos);
  }
  // With the workspace asked for: the first choice.
  args.workspace = reinterpret_cast<void*>(std::uintptr_t{1} << 44);
  args.workspace_bytes = bytes;
  tune::TunedChoice with;
  REQUIRE(op.select(args, with) == Status::kSuccess);
  CHECK(with.candidate == best.candidate);
  CHECK(with.split_k_slices == best.slices);
  CHECK(with.preferred == -1);
}

TEST_CASE("heuristic and database modes without a workspace run a candidate that needs none", "[sim][tune]") {
  TuningScope scope;
  hiptile::DeviceInfo const& device = current_device();
  Problem p({1, 300, 2000});  // small M: the rules prefer the 16-row stream-K tile, which shares K
  for (FindMode mode : {FindMode::kHeuristic, FindMode::kDatabase}) {
    DYNAMIC_SECTION(tune::to_string(mode)) {
      if (mode == FindMode::kDatabase) {  // an entry naming the rules' choice, which needs a workspace
        write_entry(scope.database, p.args, device, Tuned::candidate_name(heuristic_choice(p.args).candidate), 1, 3.0);
      }
      Tuned const op(scope.options(mode));
      tune::TunedChoice first;
      REQUIRE(op.select_preferred(p.args, first) == Status::kSuccess);
      std::size_t const bytes = op.get_workspace_size(p.args);
      REQUIRE(bytes > 0);
      tune::TunedChoice without;
      REQUIRE(op.select(p.args, without) == Status::kSuccess);
      CHECK(without.source == ChoiceSource::kHeuristic);
      CHECK(without.candidate != first.candidate);
      CHECK(without.preferred == first.candidate);
      CHECK(without.preferred_workspace_bytes == bytes);
      CHECK(hiptile::visit_index<Tuned::kCandidates>(without.candidate, [&]<int I>() {
        return Tuned::Candidate<I>::get_workspace_size(p.args) == 0 ? Status::kSuccess : Status::kErrorInternal;
      }) == Status::kSuccess);
      // The run, with no workspace, is right.
      host::poison(p.d);
      p.d_device.copy_from_host(std::as_const(p.d).span());
      Tuned run_op(scope.options(mode));
      REQUIRE(run_op.initialize(p.args) == Status::kSuccess);
      REQUIRE(run_op.run() == Status::kSuccess);
      p.d_device.copy_to_host(p.d.span());
      host::HostMatrix<double> reference, magnitude;
      host::reference_gemm(p.shape, 1.0, p.a, p.b, 0.0, host::HostMatrix<half_t>(), reference, &magnitude);
      host::Comparison const result =
          host::compare(p.d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(p.shape.k));
      INFO(host::to_string(result));
      CHECK(result.passed());
    }
  }
}

TEST_CASE("hybrid mode on a hit takes the database's entry without timing", "[sim][tune]") {
  TuningScope scope;
  Problem p(kRagged);
  tune::TunedChoice const timed = select(Tuned(scope.options(FindMode::kHybrid)), p.args);
  REQUIRE(timed.source == ChoiceSource::kTimed);
  Tuned::clear_cache();  // as a new process would start
  tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kHybrid)), p.args);
  CHECK(c.source == ChoiceSource::kDatabase);
  CHECK(c.candidate == timed.candidate);
  CHECK(c.split_k_slices == timed.split_k_slices);
  CHECK(c.timed_candidates == 0);
  CHECK_FALSE(c.cached);
}

TEST_CASE("search mode times even when the database has an entry, and overwrites it", "[sim][tune]") {
  TuningScope scope;
  Problem p(kRagged);
  hiptile::DeviceInfo const& device = current_device();
  Fastest const best = fastest(p.args, device);
  int const planted = best.candidate == 0 ? 1 : 0;  // not the fastest
  write_entry(scope.database, p.args, device, Tuned::candidate_name(planted), 1, 0.001);
  tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kSearch)), p.args);
  CHECK(c.source == ChoiceSource::kTimed);
  CHECK(c.candidate == best.candidate);
  CHECK(c.split_k_slices == best.slices);
  tune::TuningDatabase const db(scope.database);
  CHECK(db.entries().size() == 1);
  std::optional<tune::TuningEntry> const e = db.find(key_for(p.args, device));
  REQUIRE(e);
  CHECK(e->winner == Tuned::candidate_name(best.candidate));
  CHECK(e->microseconds == Approx(best.seconds * 1e6).margin(1e-6));
}

TEST_CASE("a choice is remembered per problem and device: cached until the simulated device changes",
          "[sim][tune]") {
  TuningScope scope;
  Problem p(kRagged);
  Tuned const op(scope.options(FindMode::kHybrid));
  tune::TunedChoice const first = select(op, p.args);
  CHECK_FALSE(first.cached);
  tune::TunedChoice const again = select(op, p.args);
  CHECK(again.cached);
  CHECK(again.candidate == first.candidate);
  CHECK(again.source == first.source);
  CHECK(select(Tuned(scope.options(FindMode::kHybrid)), p.args).cached);  // the cache is the list's, not the object's

  Problem other(GemmCoord{101, 70, 90});
  CHECK_FALSE(select(op, other.args).cached);  // another problem

  hiptile::DeviceInfo const mi300x = current_device();
  sim::set_device(sim::kMi300aDevice);
  hiptile::DeviceInfo const& mi300a = current_device();
  REQUIRE(mi300a.name == sim::kMi300aDevice.name);
  REQUIRE(mi300a.compute_units == 228);
  tune::TunedChoice const moved = select(op, p.args);
  CHECK_FALSE(moved.cached);
  CHECK(moved.source == ChoiceSource::kTimed);  // the MI300X's entry is not the MI300A's
  Fastest const best = fastest(p.args, mi300a);
  CHECK(moved.candidate == best.candidate);
  CHECK(moved.split_k_slices == best.slices);
  tune::TuningDatabase const db(scope.database);
  std::optional<tune::TuningEntry> const on_a = db.find(key_for(p.args, mi300a));
  REQUIRE(on_a);
  CHECK(on_a->winner == Tuned::candidate_name(best.candidate));
  CHECK(db.find(key_for(p.args, mi300x)));  // the MI300X's stays
  run_and_compare(scope.options(FindMode::kHybrid), p);
}

TEST_CASE("a choice refused for the problem is an error Status, not a candidate", "[sim][tune]") {
  TuningScope scope;
  Problem p(kRagged);
  Arguments bad = p.args;
  bad.problem.m = 0;
  for (FindMode mode : {FindMode::kHeuristic, FindMode::kDatabase, FindMode::kHybrid, FindMode::kSearch}) {
    Tuned op(scope.options(mode));
    tune::TunedChoice c;
    CHECK(op.select(bad, c) == Status::kErrorInvalidProblem);
    CHECK(op.initialize(bad) == Status::kErrorInvalidProblem);
    CHECK(op.run() == Status::kErrorNotInitialized);
    CHECK(op.get_workspace_size(bad) == 0);
    std::size_t bytes = 1;
    CHECK(op.get_workspace_size(bad, bytes) == Status::kErrorInvalidProblem);  // the reason, with 0 bytes
    CHECK(bytes == 0);
  }
  Tuned op(scope.options(FindMode::kHeuristic));
  std::size_t bytes = 1;
  REQUIRE(op.get_workspace_size(p.args, bytes) == Status::kSuccess);
  CHECK(bytes == op.get_workspace_size(p.args));
  CHECK_FALSE(std::filesystem::exists(scope.database));  // nothing timed, nothing stored
}

TEST_CASE("hybrid mode times stream-K grids given more workgroups than the device holds", "[sim][tune]") {
  // Found by the argument fuzzing suite: the timing model read past its table of CU lines (a crash
  // for INT_MAX workgroups) when stream_k_workgroups exceeded the device's slots.
  TuningScope scope;
  struct Given {
    GemmCoord shape;
    int workgroups;
  };
  // (The last: 47 million units, a CU line index of 157,000 where the table has a few.)
  for (Given const g : {Given{{4096, 4096, 4096}, 4 * 1216}, Given{{4096, 4096, 4096}, 1 << 20},
                        Given{{65536, 65536, 1 << 20}, std::numeric_limits<int>::max()}}) {
    Arguments args = unbacked(g.shape);
    args.stream_k_workgroups = g.workgroups;
    Tuned::clear_cache();
    tune::TunedChoice const c = select(Tuned(scope.options(FindMode::kHybrid)), args);
    CHECK(Tuned::candidate_name(c.candidate).find("stream-K") != std::string::npos);  // only those take it
    if (c.source == ChoiceSource::kTimed) {
      CHECK(std::isfinite(c.microseconds));
      CHECK(c.microseconds > 0);
    }
  }
}
