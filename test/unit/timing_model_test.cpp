// The C++ cost function (hiptile/sim/timing_model.hpp) against scripts/timing_model: the golden
// table's every row (the Python's predictions for the shipped kernels) within its printed
// precision, the device view's edges by hand, and a kernel with no exported timing.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <optional>
#include <regex>
#include <string>

#include "hiptile/sim/timing_model.hpp"

namespace {

using hiptile::sim::Bound;
using hiptile::sim::kMi300x;
using hiptile::sim::TimingRun;

constexpr char const* kF16 = "f16; A row, B col, C row; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1";

// The usage docs/timing_model.md shows.
std::optional<double> predicted_microseconds() {
  auto t = hiptile::sim::predicted_time("f16; A row, B col, C row; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1",
                                        {.problem = {4096, 4096, 4096}}, hiptile::sim::kMi300x);
  if (!t) return std::nullopt;  // not modelled
  return t->seconds * 1e6;
}

// Whether x printed with the table's `digits` decimals could read `printed`: within half its last
// digit (and a rounding error of the last bit beyond).
bool prints_as(double x, std::string const& printed, int digits) {
  return std::abs(x - std::stod(printed)) <= 0.5 * std::pow(10.0, -digits) * (1 + 1e-9);
}

}  // namespace

TEST_CASE("the C++ predictions are the golden table's for every row, to its printed digits") {
  std::ifstream table(HIPTILE_TIMING_GOLDEN);
  REQUIRE(table.good());
  // | label | MxNxK[, S slices][, W workgroups][, G groups] | wg/CU | waves | L2 | MFMA | us | TFLOPS | bound |
  std::regex const row(
      R"(^\| (.+?) \| (\d+)x(\d+)x(\d+)((?:, \d+ \w+)*) \| (\d+) \| (\d+) \| (\d+)% \| (\d+)% \| ([\d.]+) \| (\d+) \| (.+) \|$)");
  std::regex const parameter(R"(, (\d+) (\w+))");
  int rows = 0;
  for (std::string line; std::getline(table, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    TimingRun run{.problem = {std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])}};
    std::string const parameters = m[5];
    for (std::sregex_iterator p(parameters.begin(), parameters.end(), parameter), end; p != end; ++p) {
      int const count = std::stoi((*p)[1]);
      std::string const what = (*p)[2];
      (what == "slices" ? run.slices : what == "workgroups" ? run.workgroups : run.groups) = count;
    }
    INFO(line);
    auto const k = hiptile::sim::kernel_timing(m[1].str());
    REQUIRE(k);
    auto const t = predicted_time(*k, run, kMi300x);
    // The same lines, interpolated alike, through the same formulas: every column as printed.
    CHECK(k->workgroups_per_cu == std::stoi(m[6]));
    CHECK(t.grid_waves == std::stoi(m[7]));
    CHECK(prints_as(100 * t.l2_hit, m[8], 0));
    CHECK(prints_as(100 * t.mfma_busy, m[9], 0));
    CHECK(prints_as(t.seconds * 1e6, m[10], 1));
    double const flops = 2.0 * run.problem.m * run.problem.n * run.problem.k * run.groups;
    CHECK(prints_as(flops / t.seconds / 1e12, m[11], 0));
    CHECK(std::string(to_string(t.bound)) == m[12].str());
    ++rows;
  }
  CHECK(rows >= 40);
}

TEST_CASE("one tile runs one workgroup on one CU, its loads from HBM") {
  auto const k = hiptile::sim::kernel_timing(kF16);
  REQUIRE(k);
  // 128 x 128 x 4096: 1 tile of 128 K tiles; nothing to reuse in the L2, and A and B's 2,097,152 B
  // are all first touches (more than requested beyond the L2): the load latency is HBM's, the last
  // replayed point. Time = one workgroup's line at 128 K tiles + the launch.
  auto const t = predicted_time(*k, {.problem = {128, 128, 4096}}, kMi300x);
  hiptile::sim::CuLine const line = hiptile::sim::kCuLines[k->first_line + 2];
  CHECK(t.l2_hit == 0.0);
  CHECK(t.seconds == Approx(line.cycles(128) / 2100e6 + 4e-6));
  CHECK(t.grid_waves == 1);
  CHECK(t.bound == Bound::kTileQuantisation);
}

TEST_CASE("tiles run in waves of 1216 slots, the last with the workgroups per CU it needs") {
  auto const k = hiptile::sim::kernel_timing(kF16);
  REQUIRE(k);
  REQUIRE(k->workgroups_per_cu == 4);  // one LDS stage of A and B, 16 KiB: four per 64 KiB
  // The lines of g workgroups on a CU at the L2's and the Infinity Cache's latency (240, 500).
  auto const at = [&](int g, int latency) { return hiptile::sim::kCuLines[k->first_line + (g - 1) * 3 + latency]; };
  auto const between = [&](int g, double latency) {
    double const t = (latency - 240) / 260;
    hiptile::sim::CuLine const a = at(g, 0), b = at(g, 1);
    return (a.fixed + t * (b.fixed - a.fixed)) + 128 * (a.per_tile + t * (b.per_tile - a.per_tile));
  };
  SECTION("4096^3: 1,024 tiles, fewer than the slots: one wave, 4 workgroups on the busiest CU") {
    // 1024 = 3 x 304 + 112. Per XCD 128 resident tiles in bands of 8 rows x 16 columns: 24 panels
    // of 128 fetched for 256 loaded, hit 1 - 3072/32768 = 0.90625. HBM: 100,663,296 B unique of
    // 2^31 x 3072/32768 B requested beyond the L2: half; the load latency 0.90625 x 240 +
    // 0.09375 x (800 + 500) / 2 = 278.4375 cycles.
    auto const t = predicted_time(*k, {.problem = {4096, 4096, 4096}}, kMi300x);
    CHECK(t.l2_hit == Approx(0.90625));
    CHECK(t.grid_waves == 1);
    CHECK(t.compute_seconds == Approx(between(4, 278.4375) / 2100e6));
  }
  SECTION("8192 x 4096 x 4096: 2,048 tiles, a full wave of 1,216, then 832: 3 on a CU") {
    // Per XCD 152 resident tiles: 8 rows x 19 columns, 27 panels fetched for 304 loaded, hit
    // 1 - 3456/38912. HBM: 167,772,160 B unique of 2^32 x 3456/38912 requested beyond the L2.
    auto const t = predicted_time(*k, {.problem = {8192, 4096, 4096}}, kMi300x);
    double const hit = 1 - 3456.0 / 38912;
    double const hbm = 167772160.0 / (4294967296.0 * (1 - hit));
    double const latency = hit * 240 + (1 - hit) * (hbm * 800 + (1 - hbm) * 500);
    CHECK(t.l2_hit == Approx(hit));
    CHECK(t.grid_waves == 2);
    CHECK(t.compute_seconds == Approx((between(4, latency) + between(3, latency)) / 2100e6));
  }
}

TEST_CASE("a shape that must move more bytes than it computes is HBM-bound") {
  auto const t = hiptile::sim::predicted_time("Binary16; conv fprop, precomputed; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1",
                                              {.problem = {100352, 64, 576}}, kMi300x);
  REQUIRE(t);
  // (100352 + 64) x 576 x 2 B of operands + 100352 x 64 x 2 B of D = 128,524,288 B at 5.3 TB/s x 0.8.
  CHECK(t->bound == Bound::kHbm);
  CHECK(t->seconds == Approx(128524288.0 / 4.24e12 + 4e-6));
}

TEST_CASE("a kernel without exported timings is not modelled") {
  CHECK_FALSE(hiptile::sim::predicted_time("f16; A row, B col, C row; 256x256x64 / 64x64x64 / Mfma32x32x8F16 / 3",
                                           {.problem = {4096, 4096, 4096}}, kMi300x));
  CHECK_FALSE(hiptile::sim::kernel_timing(""));
}

TEST_CASE("the documented usage compiles and predicts") {
  auto const us = predicted_microseconds();
  REQUIRE(us);
  CHECK(*us > 100);
}
