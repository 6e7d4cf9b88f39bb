// The device facts operators read (platform/device_info.hpp) for each simulated device
// (sim/simulated_device.hpp), the check every operator makes before launching
// (arch/device_check.hpp), and stream-K's grid sized to the device it finds.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/device_check.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/sim/runtime.hpp"
#include "hiptile/sim/simulated_device.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"
#include "../common/temporary_directory.hpp"

namespace {

using hiptile::DeviceInfo;
using hiptile::GemmCoord;
using hiptile::Status;
using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace arch = hiptile::arch;
namespace host = hiptile::host;
namespace sim = hiptile::sim;
namespace device = hiptile::gemm::device;

// The simulated MI300X again when the test ends, however it ends.
struct RestoreMi300x {
  ~RestoreMi300x() { sim::set_device(sim::kMi300xDevice); }
};

DeviceInfo const& current() {
  DeviceInfo const* info = nullptr;
  REQUIRE(hiptile::current_device_info(info) == Status::kSuccess);
  REQUIRE(info != nullptr);
  return *info;
}

struct Expected {
  sim::SimulatedDevice device;
  int compute_units;
  int xcds;
};

using Config = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
using Selecting = device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
using StreamK = Selecting::Candidate<1>;  // the default tile with stream-K
static_assert(StreamK::kStreamK);

}  // namespace

TEST_CASE("each simulated device reports its CUs, XCDs, wave size and LDS", "[sim][device]") {
  RestoreMi300x restore;
  // docs/mi300_facts.md, "Devices": MI300X 8 XCDs x 38 CUs, MI300A 6 x 38, MI308X 4 x 20; gfx942
  // waves of 64, 64 KiB of LDS per workgroup.
  for (Expected const e : {Expected{sim::kMi300xDevice, 304, 8}, Expected{sim::kMi300aDevice, 228, 6},
                           Expected{sim::kMi308xDevice, 80, 4}}) {
    DYNAMIC_SECTION(e.device.name) {
      sim::set_device(e.device);
      DeviceInfo const& d = current();
      CHECK(d.name == e.device.name);
      CHECK(d.arch == "gfx942");
      CHECK(d.compute_units == e.compute_units);
      CHECK(d.xcds == e.xcds);
      CHECK(d.wave_size == 64);
      CHECK(d.lds_per_workgroup == 64 * 1024);
      CHECK(d.max_threads_per_workgroup == 1024);
      CHECK(d.clock_mhz == 2100);
      CHECK(d.memory_bytes == e.device.memory_bytes);
      DeviceInfo queried;
      REQUIRE(hiptile::query_device_info(0, queried) == Status::kSuccess);
      CHECK(queried.compute_units == e.compute_units);
      CHECK(queried.xcds == e.xcds);
      int units = 0;
      REQUIRE(hiptile::query_compute_units(units) == Status::kSuccess);
      CHECK(units == e.compute_units);
      std::ostringstream text;
      text << d;
      CHECK(text.str().find(std::to_string(e.compute_units) + " CUs in " + std::to_string(e.xcds) + " XCDs") !=
            std::string::npos);
      CHECK(text.str().find("wave64") != std::string::npos);
    }
  }
}

TEST_CASE("a device fact read before the device changed stays valid; the next read sees the new device",
          "[sim][device]") {
  RestoreMi300x restore;
  DeviceInfo const* before = nullptr;
  REQUIRE(hiptile::current_device_info(before) == Status::kSuccess);
  REQUIRE(before->compute_units == 304);
  sim::set_device(sim::kMi308xDevice);
  DeviceInfo const* after = nullptr;
  REQUIRE(hiptile::current_device_info(after) == Status::kSuccess);
  CHECK(after != before);
  CHECK(after->compute_units == 80);
  CHECK(before->compute_units == 304);  // the older reading is kept
  DeviceInfo const* again = nullptr;
  REQUIRE(hiptile::current_device_info(again) == Status::kSuccess);
  CHECK(again == after);  // read once per setting

  SECTION("set_compute_units counts gfx942's XCDs from the CUs") {
    sim::set_compute_units(76);
    CHECK(current().compute_units == 76);
    CHECK(current().xcds == 2);
    CHECK(current().name == sim::kMi308xDevice.name);
    sim::set_compute_units(100);  // 5 XCDs of 20, as on MI308X
    CHECK(current().xcds == 5);
    sim::set_compute_units(101);  // neither 38 nor 20 CUs per XCD: one
    CHECK(current().xcds == 1);
    sim::set_compute_units(0);  // taken as 1
    CHECK(current().compute_units == 1);
  }
}

TEST_CASE("device_verdict: architecture, wave size, LDS and threads, each with its own Status", "[sim][device]") {
  DeviceInfo gfx942{.name = "test", .arch = "gfx942", .compute_units = 304, .xcds = 8, .wave_size = 64,
                    .lds_per_workgroup = 64 * 1024, .max_threads_per_workgroup = 1024};
  CHECK(arch::device_verdict<arch::Gfx942>(gfx942, 256, 16 * 1024) == Status::kSuccess);
  CHECK(arch::device_verdict<arch::Gfx942>(gfx942, 256, 64 * 1024) == Status::kSuccess);  // the limit itself
  CHECK(arch::device_verdict<arch::Gfx942>(gfx942, 256, 64 * 1024 + 1) == Status::kErrorLdsOverflow);
  CHECK(arch::device_verdict<arch::Gfx942>(gfx942, 1025, 0) == Status::kErrorInvalidLaunch);
  CHECK(arch::device_verdict<arch::Gfx90a>(gfx942, 256, 0) == Status::kErrorArchMismatch);

  DeviceInfo wave32 = gfx942;
  wave32.wave_size = 32;
  CHECK(arch::device_verdict<arch::Gfx942>(wave32, 256, 0) == Status::kErrorWaveSizeMismatch);

  DeviceInfo small_lds = gfx942;
  small_lds.lds_per_workgroup = 32 * 1024;
  CHECK(arch::device_verdict<arch::Gfx942>(small_lds, 256, 40 * 1024) == Status::kErrorLdsOverflow);

  DeviceInfo gfx941 = gfx942;
  gfx941.arch = "gfx941";
  CHECK(arch::device_verdict<arch::Gfx942>(gfx941, 256, 0) == Status::kSuccess);  // the same instruction set
  DeviceInfo gfx90a = gfx942;
  gfx90a.arch = "gfx90a";
  CHECK(arch::device_verdict<arch::Gfx942>(gfx90a, 256, 0) == Status::kErrorArchMismatch);
  CHECK(arch::device_verdict<arch::Gfx90a>(gfx90a, 256, 0) == Status::kSuccess);

  DeviceInfo sm90{.name = "H100", .arch = "sm_90", .compute_units = 132, .wave_size = 32,
                  .lds_per_workgroup = 227 * 1024, .max_threads_per_workgroup = 1024};
  CHECK(arch::device_verdict<arch::Sm80>(sm90, 128, 100 * 1024) == Status::kSuccess);  // a later capability
  CHECK(arch::device_verdict<arch::Sm90>(sm90, 128, 0) == Status::kSuccess);
  CHECK(arch::device_verdict<arch::Gfx942>(sm90, 128, 0) == Status::kErrorArchMismatch);
  DeviceInfo sm75 = sm90;
  sm75.arch = "sm_75";
  CHECK(arch::device_verdict<arch::Sm80>(sm75, 128, 0) == Status::kErrorArchMismatch);
  DeviceInfo sm100 = sm90;
  sm100.arch = "sm_100";
  CHECK(arch::device_verdict<arch::Sm90>(sm100, 128, 0) == Status::kSuccess);
  DeviceInfo odd = sm90;
  odd.arch = "sm_9a";
  CHECK(arch::device_verdict<arch::Sm80>(odd, 128, 0) == Status::kErrorArchMismatch);
}

TEST_CASE("a gfx942 GEMM on a gfx90a device refuses to initialise, launches nothing and logs why",
          "[sim][device]") {
  RestoreMi300x restore;
  hiptile_test::TemporaryDirectory const directory("hiptile-device-test");
  std::filesystem::path const& dir = directory.path;
  struct LogOff {
    ~LogOff() { hiptile::logging::configure({}); }
  } log_off;
  std::filesystem::path const log_file = dir / "log.txt";
  hiptile::logging::configure({.mask = unsigned(hiptile::logging::Category::kError), .file = log_file.string()});

  int const m = 64, n = 48, k = 40;
  host::HostMatrix<half_t, RowMajor> a(m, k);
  host::HostMatrix<half_t, ColumnMajor> b(k, n);
  host::HostMatrix<half_t, RowMajor> d(m, n);
  host::fill_random(a, 1, -1.0, 1.0);
  host::fill_random(b, 2, -1.0, 1.0);
  Config::Arguments args{{m, n, k}, std::as_const(a).ref(), std::as_const(b).ref(), {}, d.ref(), {1.0f, 0.0f}};
  Config op;
  REQUIRE(op.initialize(args) == Status::kSuccess);  // on the MI300X: a ready operator, then the device changes

  half_t const sentinel(3.5f);
  host::fill_constant(d, 3.5);
  sim::SimulatedDevice mi250 = sim::kMi300xDevice;
  mi250.name = "AMD Instinct MI250X (simulated)";
  mi250.arch = "gfx90a";
  mi250.compute_units = 110;
  mi250.xcds = 1;
  sim::set_device(mi250);

  CHECK(op.initialize(args) == Status::kErrorArchMismatch);
  CHECK_FALSE(op.initialized());
  CHECK(op.run() == Status::kErrorNotInitialized);
  CHECK(Config()(args) == Status::kErrorArchMismatch);
  Selecting selecting;
  CHECK(selecting.initialize(args) == Status::kErrorArchMismatch);
  CHECK(selecting.run() == Status::kErrorNotInitialized);
  hiptile::tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942> tuned(
      {.mode = hiptile::tune::FindMode::kHeuristic, .database = ""});
  CHECK(tuned.initialize(args) == Status::kErrorArchMismatch);
  CHECK(tuned.run() == Status::kErrorNotInitialized);
  for (half_t const x : d.storage()) {
    if (float(x) != float(sentinel)) FAIL("D was written although nothing may launch");
  }

  std::ifstream in(log_file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE_FALSE(lines.empty());
  std::string const head = "hiptile[" + std::to_string(long(::getpid())) + "] error: ";
  bool mismatch_line = false;
  for (std::string const& l : lines) {
    CHECK(l.starts_with(head));
    if (l.find(hiptile::to_string(Status::kErrorArchMismatch)) != std::string::npos &&
        l.find("gfx942") != std::string::npos && l.find("gfx90a") != std::string::npos &&
        l.find("nothing launched") != std::string::npos) {
      mismatch_line = true;
    }
  }
  CHECK(mismatch_line);

  SECTION("back on a gfx942 device the same arguments run") {
    sim::set_device(sim::kMi300xDevice);
    REQUIRE(op.initialize(args) == Status::kSuccess);
    REQUIRE(op.run() == Status::kSuccess);
    CHECK(float(d.at(0, 0)) != float(sentinel));
  }
}

TEST_CASE("stream-K's grid is sized to each simulated device: its XCDs as partitions, at most its slots",
          "[sim][device][stream_k]") {
  RestoreMi300x restore;
  for (Expected const e : {Expected{sim::kMi300xDevice, 304, 8}, Expected{sim::kMi300aDevice, 228, 6},
                           Expected{sim::kMi308xDevice, 80, 4}}) {
    DYNAMIC_SECTION(e.device.name) {
      sim::set_device(e.device);
      int resident = 0;
      REQUIRE(hiptile::query_resident_workgroups<StreamK::Kernel>(StreamK::kThreads, StreamK::kLdsBytes, resident) ==
              Status::kSuccess);
      REQUIRE(resident >= 1);
      std::int64_t slots = 0;
      REQUIRE(hiptile::query_device_workgroups<StreamK::Kernel>(StreamK::kThreads, StreamK::kLdsBytes, slots) ==
              Status::kSuccess);
      CHECK(slots == std::int64_t(e.compute_units) * resident);

      // Arguments only for the schedule (it reads the problem and the device, no memory).
      auto schedule_for = [](GemmCoord p) {
        StreamK::Arguments args{};
        args.problem = p;
        hiptile::gemm::kernel::StreamKSchedule s;
        REQUIRE(StreamK::stream_k_schedule(args, s) == Status::kSuccess);
        return s;
      };
      int const tile_m = StreamK::TileShapeType::kM, tile_n = StreamK::TileShapeType::kN;
      // One tile more than the device holds: a full wave and a last wave of one, all shared.
      auto const many = schedule_for({int(slots + 1) * tile_m, tile_n, 4 * StreamK::TileShapeType::kK});
      CHECK(many.partitions == e.xcds);
      CHECK(many.units == slots);
      CHECK(many.workgroups() <= slots);
      CHECK(many.dp_tiles + many.sk_tiles == slots + 1);
      // Two tiles with a long K: shared among units, never more workgroups than slots.
      auto const few = schedule_for({2 * tile_m, tile_n, 2000});
      CHECK(few.units > 0);
      CHECK(few.workgroups() <= slots);
      // Ten full waves and one tile: more tiles than the device holds run data-parallel.
      auto const full = schedule_for({int(10 * slots + slots / 2 + 1) * tile_m, tile_n, 64});
      CHECK(full.units == 0);
      CHECK(full.workgroups() == 10 * slots + slots / 2 + 1);
    }
  }
}
