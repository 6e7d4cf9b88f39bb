// 20_find_mode: how DefaultTunedGemm picks a configuration per problem in each find mode, with a
// tuning database (docs/tuning.md), then one GEMM run with the stored winner and checked against a
// double-precision host reference.
//
// DefaultTunedGemm holds DefaultGemm's configurations (the 128 × 128 tile data-parallel and with
// stream-K, the small-M stream-K tiles, parallel split-K). For a problem it has not seen in this
// process it chooses as its find mode says:
//   heuristic  DefaultGemm's rule on the shape, nothing timed
//   db         the tuning database's winner, else the heuristic (the default mode)
//   hybrid     the database's winner; on a miss every candidate is timed and the fastest stored
//   search     every candidate timed and the fastest stored, whatever the database holds
// and keeps the choice for the rest of the process. This program asks each mode in turn about three
// shapes, so its output shows a database filling up and then being read.
//
// The same source builds two ways (see CMakeLists.txt):
//   20_find_mode         host C++ in hiptile's MI300 simulator, where "timing" is the MI300 timing
//                        model's predicted time on the simulated MI300X (no device clock to read);
//   20_find_mode_gfx942  clang -x hip --offload-arch=gfx942: timing runs each candidate on the MI300.
//
// The database is a temporary file given through TuningOptions, removed at the end; with
// HIPTILE_TUNING_DB set, that file is used (and kept) instead. HIPTILE_FIND_MODE plays no part here:
// each operator names its mode. Run with HIPTILE_LOG_MASK=8 (info) or 64 (profile) to see the
// selection's reasons and each candidate's time in the log (docs/logging.md).
//
// Run: 20_find_mode   (no arguments). Exits non-zero if a selection fails or D is wrong.
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace tune = hiptile::tune;
namespace host = hiptile::host;

using Gemm = tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;

namespace {

struct Shape {
  char const* what;
  hiptile::GemmCoord problem;
  bool run;  // run and check it (the large one is only selected: the simulator would take minutes)
};

// A problem's operands: host matrices (random, for the check) and their device copies. Packed
// leading dimensions, each a multiple of 8 halves as the 16-byte loads need.
struct Operands {
  host::HostMatrix<half_t, RowMajor> a;
  host::HostMatrix<half_t, ColumnMajor> b;
  host::HostMatrix<half_t, RowMajor> c;
  host::HostMatrix<half_t, RowMajor> d;
  host::DeviceBuffer<half_t> a_device, b_device, c_device, d_device;

  explicit Operands(hiptile::GemmCoord p) : a(p.m, p.k), b(p.k, p.n), c(p.m, p.n), d(p.m, p.n) {
    host::fill_random(a, /*seed=*/1, -1.0, 1.0);
    host::fill_random(b, /*seed=*/2, -1.0, 1.0);
    host::fill_random(c, /*seed=*/3, -1.0, 1.0);
    host::poison(d);  // a value no kernel computes: an unwritten element shows up in the check
    a_device = host::DeviceBuffer<half_t>(a.span());
    b_device = host::DeviceBuffer<half_t>(b.span());
    c_device = host::DeviceBuffer<half_t>(c.span());
    d_device = host::DeviceBuffer<half_t>(d.span());
  }

  Gemm::Arguments arguments(hiptile::GemmCoord p, float alpha, float beta) const {
    return {.problem = p,
            .a = {a_device.data(), a.ld()},
            .b = {b_device.data(), b.ld()},
            .c = {c_device.data(), c.ld()},
            .d = {d_device.data(), d.ld()},
            .output_op = {alpha, beta}};
  }
};

// Chooses for `args` with an operator in `mode`, as a user's code does: the workspace size first
// (this is where the choice is made, and may be timed), then initialize. Returns the operator's
// workspace through `workspace`; false when the choice or initialize fails.
bool choose(Gemm& op, Gemm::Arguments& args, host::DeviceBuffer<std::byte>& workspace) {
  args.workspace_bytes = op.get_workspace_size(args);
  workspace = args.workspace_bytes > 0 ? host::DeviceBuffer<std::byte>(args.workspace_bytes)
                                       : host::DeviceBuffer<std::byte>();
  args.workspace = workspace.data();
  hiptile::Status const s = op.initialize(args);
  if (!hiptile::ok(s)) {
    std::printf("  initialize: %s\n", hiptile::to_string(s));
    return false;
  }
  return true;
}

// Runs the initialised operator and compares D with the host reference.
bool run_and_check(Gemm const& op, Operands& x, hiptile::GemmCoord p, float alpha, float beta) {
  hiptile::Status s = op.run();
  if (hiptile::ok(s)) s = hiptile::device_synchronize();
  if (!hiptile::ok(s)) {
    std::printf("  run: %s\n", hiptile::to_string(s));
    return false;
  }
  x.d_device.copy_to_host(x.d.span());
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_gemm(p, alpha, x.a, x.b, beta, x.c, reference, &magnitude);
  host::Comparison const result = host::compare(x.d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(p.k));
  std::fputs(host::report(result).c_str(), stdout);
  return result.passed();
}

int run() {
  hiptile::DeviceInfo const* device = nullptr;
  if (!hiptile::ok(hiptile::current_device_info(device))) {
    std::printf("the runtime could not report the device\n");
    return 1;
  }
  // The database: HIPTILE_TUNING_DB's file when set (TuningOptions::database left unset reads it),
  // else a temporary file named here.
  bool const from_environment = std::getenv("HIPTILE_TUNING_DB") != nullptr;
  std::optional<std::string> database;
  if (!from_environment) {
    database = (std::filesystem::temp_directory_path() / ("hiptile_20_find_mode." + std::to_string(::getpid()) + ".db"))
                   .string();
  }
  std::printf("hiptile 20_find_mode (%s backend) on %s\n", hiptile::to_string(hiptile::kBackend),
              device->name.c_str());
  std::printf("  tuning database: %s%s\n", database ? database->c_str() : tune::default_database_path().c_str(),
              database ? " (temporary)" : " (HIPTILE_TUNING_DB)");

  Shape const shapes[] = {
      {"ragged: no side a multiple of the 128 x 128 tile", {300, 200, 136}, true},
      {"small M: decode-sized, 8 rows", {8, 1024, 512}, true},
      {"large: selection only", {4096, 4096, 4096}, false},
  };
  float const alpha = 1.0f, beta = 0.5f;
  bool passed = true;
  for (Shape const& shape : shapes) {
    hiptile::GemmCoord const p = shape.problem;
    std::printf("\n%dx%dx%d, %s\n", p.m, p.n, p.k, shape.what);
    Operands x(p);
    Gemm::Arguments args = x.arguments(p, alpha, beta);
    host::DeviceBuffer<std::byte> workspace;
    // Each mode in turn. The first db call finds no entry (the heuristic decides); hybrid times the
    // candidates and stores the fastest; search times them again whatever the database says. Every
    // line ends in "[cached]": get_workspace_size made the choice (and timed, in hybrid and search),
    // then initialize found it in the process's cache, as any later call with these arguments will.
    for (tune::FindMode mode : {tune::FindMode::kHeuristic, tune::FindMode::kDatabase, tune::FindMode::kHybrid,
                                tune::FindMode::kSearch}) {
      Gemm op({.mode = mode, .database = database});
      if (!choose(op, args, workspace)) return 1;
      std::cout << "  " << tune::to_string(mode) << ": " << op.choice() << "\n";
    }
    // Forget this process's choices: db mode now reads the winner that hybrid and search stored, as
    // a new process would.
    Gemm::clear_cache();
    Gemm op({.mode = tune::FindMode::kDatabase, .database = database});
    if (!choose(op, args, workspace)) return 1;
    std::cout << "  db after clear_cache(): " << op.choice() << "\n";
    if (shape.run) passed = run_and_check(op, x, p, alpha, beta) && passed;
  }

  // What hybrid and search stored: one line per problem (the format is in docs/tuning.md).
  std::string const path = database ? *database : tune::default_database_path();
  std::printf("\n%s:\n", path.c_str());
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) std::printf("  %s\n", line.c_str());
  if (database) {
    std::filesystem::remove(*database);
    std::filesystem::remove(*database + ".lock");
  }
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
