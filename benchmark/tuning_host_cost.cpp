// The host cost of choosing a configuration (TunedGemm::select, tune/tuned_gemm.hpp) and of the
// log's test when logging is off (log/logger.hpp), in the simulator build; docs/tuning.md and
// docs/logging.md quote the figures.
//
//   SelectHeuristicFirstCall  heuristic mode, the process cache emptied before each call: the key,
//                             every candidate's can_implement, the device's slots, the rule
//   SelectCached              the same call again: the key and a lookup under a shared lock
//   SelectDatabaseFirstCall   db mode, cache emptied, the problem's entry in the database: the key,
//                             its text, a lookup in the database as this process read it, the
//                             winner's eligibility (the file itself is read once per process)
//   SelectDatabaseMiss        db mode, cache emptied, no entry: the above, then the heuristic
//   PauseResumeOnly           the PauseTiming/ResumeTiming pair the first-call loops pay: subtract it
//   LogOffEnabled             logging::enabled(kTrace) with the mask 0
//   LogOtherCategoryEnabled   logging::enabled(kTrace) with only errors logged
//
// Run: tuning_host_cost --benchmark_min_time=0.2   (Google Benchmark 1.7 takes seconds as a number)
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>

#include "hiptile/host/device_buffer.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"

namespace {

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace tune = hiptile::tune;

using Gemm = tune::DefaultTunedGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;

// One 4096 × 4096 × 4096 problem on real (simulator) allocations: the key holds the pointers'
// alignment and can_implement refuses null ones. Nothing reads the memory.
struct Problem {
  static constexpr int kSize = 4096;
  hiptile::host::DeviceBuffer<half_t> a{std::size_t(kSize) * kSize}, b{std::size_t(kSize) * kSize},
      d{std::size_t(kSize) * kSize};
  Gemm::Arguments args{.problem = {kSize, kSize, kSize},
                       .a = {a.data(), kSize},
                       .b = {b.data(), kSize},
                       .c = {d.data(), kSize},
                       .d = {d.data(), kSize},
                       .output_op = {1.0f, 0.0f}};
};

Problem& problem() {
  static Problem p;
  return p;
}

// A database holding this problem's entry, written once by a search-mode choice.
std::string const& database_with_entry() {
  static std::string const path = [] {
    std::string p =
        (std::filesystem::temp_directory_path() / ("hiptile_tuning_host_cost." + std::to_string(::getpid()) + ".db"))
            .string();
    tune::TunedChoice choice;
    Gemm({.mode = tune::FindMode::kSearch, .database = p}).select(problem().args, choice);
    return p;
  }();
  return path;
}

void report_failure(benchmark::State& state, hiptile::Status s) {
  if (!hiptile::ok(s)) state.SkipWithError(hiptile::to_string(s));
}

// Selects `args` with an emptied cache each iteration (the emptying untimed); the last choice.
tune::TunedChoice first_calls(benchmark::State& state, Gemm const& op, Gemm::Arguments const& args) {
  tune::TunedChoice choice;
  hiptile::Status s = hiptile::Status::kSuccess;
  for (auto _ : state) {
    state.PauseTiming();
    Gemm::clear_cache();
    state.ResumeTiming();
    s = op.select(args, choice);
    benchmark::DoNotOptimize(choice.candidate);
  }
  report_failure(state, s);
  return choice;
}

void SelectHeuristicFirstCall(benchmark::State& state) {
  Gemm const op({.mode = tune::FindMode::kHeuristic, .database = std::string()});
  first_calls(state, op, problem().args);
}
BENCHMARK(SelectHeuristicFirstCall);

void SelectCached(benchmark::State& state) {
  Gemm const op({.mode = tune::FindMode::kHeuristic, .database = std::string()});
  tune::TunedChoice choice;
  hiptile::Status s = op.select(problem().args, choice);
  for (auto _ : state) {
    s = op.select(problem().args, choice);
    benchmark::DoNotOptimize(choice.candidate);
  }
  if (!choice.cached) state.SkipWithError("the repeated call was not a cache hit");
  report_failure(state, s);
}
BENCHMARK(SelectCached);

void SelectDatabaseFirstCall(benchmark::State& state) {
  Gemm const op({.mode = tune::FindMode::kDatabase, .database = database_with_entry()});
  if (first_calls(state, op, problem().args).source != tune::ChoiceSource::kDatabase) {
    state.SkipWithError("the choice did not come from the database");
  }
}
BENCHMARK(SelectDatabaseFirstCall);

void SelectDatabaseMiss(benchmark::State& state) {
  Gemm const op({.mode = tune::FindMode::kDatabase, .database = database_with_entry()});
  Gemm::Arguments args = problem().args;
  args.problem.k = Problem::kSize / 2;  // a problem the database has no entry for
  if (first_calls(state, op, args).source != tune::ChoiceSource::kHeuristic) state.SkipWithError("the database had an entry");
}
BENCHMARK(SelectDatabaseMiss);

void PauseResumeOnly(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    state.ResumeTiming();
  }
}
BENCHMARK(PauseResumeOnly);

void LogOffEnabled(benchmark::State& state) {
  hiptile::logging::configure({.mask = 0});
  for (auto _ : state) benchmark::DoNotOptimize(hiptile::logging::enabled(hiptile::logging::Category::kTrace));
}
BENCHMARK(LogOffEnabled);

void LogOtherCategoryEnabled(benchmark::State& state) {
  hiptile::logging::configure({.mask = unsigned(hiptile::logging::Category::kError)});
  for (auto _ : state) benchmark::DoNotOptimize(hiptile::logging::enabled(hiptile::logging::Category::kTrace));
  hiptile::logging::configure({.mask = 0});
}
BENCHMARK(LogOtherCategoryEnabled);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  hiptile::logging::configure({.mask = 0});  // whatever HIPTILE_LOG_* say: nothing written while measuring
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ignored;
  std::filesystem::remove(database_with_entry(), ignored);
  std::filesystem::remove(database_with_entry() + ".lock", ignored);
  return 0;
}
