// interleaved_medians (tune/interleaved_timing.hpp) against a simulated device clock: contenders of
// known times on a device whose speed drifts, jitters or fails, where the order of the batches is
// what decides whether the ranking is right.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "hiptile/tune/interleaved_timing.hpp"

namespace {

using hiptile::tune::interleaved_medians;
using hiptile::tune::InterleavedTiming;

// A device: contender i takes seconds[i] a run, times the clock's slowdown, which grows by `drift`
// with every run it executes (a device that heats up and throttles: the later a run, the slower).
struct DriftingDevice {
  std::vector<double> seconds;
  double drift;
  double slowdown = 1;
  std::vector<int> order;  // contender of each timed call

  DriftingDevice(std::vector<double> s, double d) : seconds(std::move(s)), drift(d) {}

  std::optional<double> operator()(int i, int runs) {
    order.push_back(i);
    double total = 0;
    for (int r = 0; r < runs; ++r) {
      total += seconds[std::size_t(i)] * slowdown;
      slowdown += drift;
    }
    return total;
  }
};

int fastest(std::vector<std::optional<double>> const& t) {
  int best = -1;
  for (int i = 0; i < int(t.size()); ++i) {
    if (t[std::size_t(i)] && (best < 0 || *t[std::size_t(i)] < *t[std::size_t(best)])) best = i;
  }
  return best;
}

TEST_CASE("interleaved timing ranks right on a drifting clock", "[tune][timing]") {
  // Contender 2 is the fastest by 10%; the device slows down as it works, so contender 0, timed
  // first, would win if each contender's runs went in a row.
  std::vector<double> const truth = {12e-6, 11e-6, 10e-6};
  InterleavedTiming const plan{3, 10, 2e-4, 200};
  // 0.1% slower a run: about 50% over the whole timing, 5% over one round (3 batches of ~17 runs).
  DriftingDevice device{truth, 1e-3};
  std::vector<std::optional<double>> const t = interleaved_medians(3, plan, device);
  REQUIRE(fastest(t) == 2);
  // The medians keep the true ratios within the drift of one round.
  CHECK(*t[0] / *t[2] == Approx(1.2).epsilon(0.04));
  CHECK(*t[1] / *t[2] == Approx(1.1).epsilon(0.04));

  // The same device timed one contender after the other, each its batches in a row (what find
  // mode did before): the drift ranks contender 0 first. (The property the interleaving buys.)
  DriftingDevice sequential{truth, 1e-3};
  std::vector<std::optional<double>> one_by_one(3);
  for (int i = 0; i < 3; ++i) {
    InterleavedTiming alone = plan;
    std::vector<std::optional<double>> const own =
        interleaved_medians(1, alone, [&](int, int runs) { return sequential(i, runs); });
    one_by_one[std::size_t(i)] = own[0];
  }
  CHECK(fastest(one_by_one) == 0);
}

TEST_CASE("interleaved timing rotates the order and sizes the batches", "[tune][timing]") {
  std::vector<double> const truth = {1e-6, 50e-6, 1e-3, 0.0};
  InterleavedTiming const plan{2, 4, 2e-4, 100};
  DriftingDevice device{truth, 0};
  std::vector<std::optional<double>> const t = interleaved_medians(4, plan, device);
  for (int i = 0; i < 4; ++i) CHECK(*t[std::size_t(i)] == Approx(truth[std::size_t(i)]).margin(1e-12));
  // Each contender: a warm-up batch and a one-run batch, in contender order; then 4 rounds of one
  // batch each, the first contender of round r being contender r.
  REQUIRE(device.order.size() == 4 * 2 + 4 * 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(device.order[std::size_t(2 * i)] == i);
    CHECK(device.order[std::size_t(2 * i + 1)] == i);
  }
  for (int round = 0; round < 4; ++round) {
    for (int k = 0; k < 4; ++k) CHECK(device.order[std::size_t(8 + 4 * round + k)] == (k + round) % 4);
  }
  // Batches: 1 us -> 200 runs (2e-4 s), capped at 100; 50 us -> 4 runs; 1 ms -> 1 run; a
  // contender that takes no time -> the cap. Counted from a second device that records the runs.
  std::vector<int> runs_of(4, 0);
  DriftingDevice counting{truth, 0};
  interleaved_medians(4, plan, [&](int i, int runs) {
    runs_of[std::size_t(i)] = runs;  // (the last call's: a round's batch)
    return counting(i, runs);
  });
  CHECK(runs_of == std::vector<int>{100, 4, 1, 100});
}

TEST_CASE("interleaved timing: outliers and failed launches", "[tune][timing]") {
  // One batch of contender 0 takes 10x (another process's burst): the median ignores it.
  std::vector<double> const truth = {10e-6, 11e-6};
  InterleavedTiming const plan{1, 9, 1e-4, 50};
  int call = 0;
  DriftingDevice device{truth, 0};
  std::vector<std::optional<double>> const t = interleaved_medians(2, plan, [&](int i, int runs) {
    std::optional<double> r = device(i, runs);
    if (++call == 7 && i == 0) *r *= 10;
    return r;
  });
  CHECK(fastest(t) == 0);
  CHECK(*t[0] == Approx(10e-6).epsilon(1e-9));

  // A contender whose launch fails, in its warm-up (call 1) or in the second round (call 12: the
  // six warm-up and one-run calls, then rounds 0 1 2 and 1 2 0), has no time; the others keep theirs.
  for (int failing_call : {1, 12}) {
    INFO("failing call " << failing_call);
    int calls = 0;
    DriftingDevice d{{10e-6, 9e-6, 12e-6}, 0};
    std::vector<std::optional<double>> const u =
        interleaved_medians(3, plan, [&](int i, int runs) -> std::optional<double> {
          if (++calls == failing_call) return std::nullopt;
          return d(i, runs);
        });
    REQUIRE(u.size() == 3);
    CHECK(!u[0]);
    REQUIRE(u[1]);
    REQUIRE(u[2]);
    CHECK(*u[1] == Approx(9e-6).epsilon(1e-9));
    CHECK(*u[2] == Approx(12e-6).epsilon(1e-9));
  }
  // No contenders: nothing to time.
  CHECK(interleaved_medians(0, plan, [](int, int) { return std::optional<double>(1.0); }).empty());
}

}  // namespace
