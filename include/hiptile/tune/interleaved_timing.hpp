#pragma once
// interleaved_medians: how find mode times its contenders (a candidate with one slice count each)
// so that their ranking holds from one run to the next. Timing them one after the other, each its
// runs in a row, let a clock that drifts while it works (boost clocks settling, power and thermal
// limits, another process's load) favour whoever went first, and a single event pair around one
// run of a 10-microsecond kernel measured mostly the launch: on an H100, find mode search changed
// its choice between identical runs of the same layer in 6 of 42 cases. Instead:
//
//   1. each contender runs one batch of `warmup` runs whose time is discarded, then one timed run,
//      which sets its batch: as many runs back to back as last at least `min_batch_seconds` (at
//      most `max_batch_runs`), so that a batch's time is the kernels' and not the events';
//   2. `rounds` rounds, each timing one batch of every contender, the order rotated by one a round
//      (no contender always first or last): a drift of the clock reaches every contender alike;
//   3. a contender's time is the median over the rounds of its batch's time per run.
//
// time_batch(i, runs) launches contender i `runs` times and returns their seconds in all, or
// nothing when a launch failed (the contender is then left out: its time is nothing). It is a
// callable so that the order of the calls, which this decides, is testable without a device
// (test/unit/interleaved_timing_test.cpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

namespace hiptile::tune {

struct InterleavedTiming {
  int warmup = 3;                   // runs per contender before its first batch, their time discarded
  int rounds = 10;                  // timed batches per contender (their median counts)
  double min_batch_seconds = 2e-4;  // a batch lasts at least this long ...
  int max_batch_runs = 200;         // ... in at most this many runs
};

// Each contender's seconds per run (nothing for one whose launch failed), timed as above.
template <class TimeBatch>
std::vector<std::optional<double>> interleaved_medians(int contenders, InterleavedTiming const& plan,
                                                       TimeBatch&& time_batch) {
  std::vector<std::optional<double>> seconds(std::size_t(std::max(contenders, 0)));
  std::vector<int> runs(seconds.size(), 0);  // a contender's batch; 0: left out
  for (int i = 0; i < contenders; ++i) {
    if (plan.warmup > 0 && !time_batch(i, plan.warmup)) continue;
    std::optional<double> const once = time_batch(i, 1);
    if (!once) continue;
    double const wanted = *once > 0 ? std::ceil(plan.min_batch_seconds / *once) : double(plan.max_batch_runs);
    runs[std::size_t(i)] = int(std::clamp(wanted, 1.0, double(std::max(plan.max_batch_runs, 1))));
  }
  std::vector<std::vector<double>> per_run(seconds.size());
  for (int round = 0; round < plan.rounds; ++round) {
    for (int k = 0; k < contenders; ++k) {
      int const i = (k + round) % contenders;
      int const n = runs[std::size_t(i)];
      if (n == 0) continue;
      std::optional<double> const t = time_batch(i, n);
      if (!t) {
        runs[std::size_t(i)] = 0;
        per_run[std::size_t(i)].clear();
        continue;
      }
      per_run[std::size_t(i)].push_back(*t / n);
    }
  }
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    std::vector<double>& t = per_run[i];
    if (runs[i] == 0 || t.empty()) continue;
    std::nth_element(t.begin(), t.begin() + std::ptrdiff_t(t.size() / 2), t.end());
    seconds[i] = t[t.size() / 2];
  }
  return seconds;
}

}  // namespace hiptile::tune
