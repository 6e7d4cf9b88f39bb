// Convolution on the simulator beyond the fixed shape list:
//  - channel counts that are not multiples of the 16-byte vector (C = 3, 5, 6, 12 ...), read by the
//    analytic iterators with narrower accesses (AccessElements 1, 2, 4), which the precomputed ones
//    refuse with kErrorChannelsNotAligned;
//  - a seeded random sweep over every field of the problem (2-D and 3-D, padding per side, stride,
//    dilation, groups, mode) for the three operators and both iterator families: a few hundred
//    cases by default, HIPTILE_CONV_SWEEP_CASES=N for more. Zero mismatches, unwritten included.
#include <cstdlib>
#include <random>

#include "conv_test_support.hpp"

namespace {

using namespace conv_test;
using hiptile::half_t;

TEST_CASE("conv: channel counts off the vector width, analytic narrow accesses", "[conv]") {
  using P = ConvProblemSize;
  std::vector<ConvProblemSize> const odd = {P::conv2d(2, 9, 9, 3, 8, 3, 3, 1, 1),         // RGB input
                                            P::conv2d(1, 7, 8, 5, 7, 3, 3, 1, 1, 2, 2),   // odd C and K
                                            P::conv2d(1, 6, 6, 1, 1, 5, 5, 2, 2)};        // one channel
  SECTION("AccessElements 1: every channel count") {
    for (ConvProblemSize const& p : odd) {
      CHECK(run_conv<Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic, 1>>(p).passed());
      CHECK(run_conv<Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic, 1>>(p).passed());
      CHECK(run_conv<Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic, 1>>(p).passed());
    }
  }
  SECTION("AccessElements 2 and 4") {
    ConvProblemSize const c6 = P::conv2d(1, 8, 9, 6, 10, 3, 3, 1, 1, 1, 2);
    ConvProblemSize const c12 = P::conv2d(2, 5, 7, 12, 20, 3, 1, 1, 0);
    CHECK(run_conv<Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic, 2>>(c6).passed());
    CHECK(run_conv<Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic, 2>>(c6).passed());
    CHECK(run_conv<Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic, 2>>(c6).passed());
    CHECK(run_conv<Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic, 4>>(c12).passed());
    CHECK(run_conv<Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic, 4>>(c12).passed());
    CHECK(run_conv<Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic, 4>>(c12).passed());
  }
  SECTION("the precomputed iterators refuse them, naming the analytic ones") {
    using Precomputed = Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kPrecomputed>;
    Precomputed::Arguments args{odd[0], reinterpret_cast<half_t const*>(0x1000), reinterpret_cast<half_t const*>(0x2000),
                                nullptr, reinterpret_cast<half_t*>(0x100000)};
    CHECK(Precomputed::can_implement(args) == Status::kErrorChannelsNotAligned);
    CHECK(std::string(hiptile::to_string(Status::kErrorChannelsNotAligned)).find("analytic") != std::string::npos);
  }
}

// A random problem whose tensors stay small enough to simulate quickly, with channels per group a
// multiple of 8 (both iterator families serve it).
ConvProblemSize random_problem(std::mt19937_64& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ConvProblemSize p;
  bool const three_d = pick(0, 3) == 0;
  p.n = pick(1, 3);
  p.groups = pick(0, 3) == 0 ? pick(2, 3) : 1;
  p.c = 8 * pick(1, 3) * p.groups;
  p.k = 8 * pick(1, 3) * p.groups;
  p.mode = pick(0, 1) == 0 ? ConvMode::kCrossCorrelation : ConvMode::kConvolution;
  for (int i = three_d ? 0 : 1; i < 3; ++i) {
    p.filter[i] = pick(1, three_d ? 3 : 7);
    p.stride[i] = pick(1, 3);
    p.dilation[i] = pick(0, 3) == 0 ? 2 : 1;
    int const span = p.dilation[i] * (p.filter[i] - 1) + 1;
    p.input[i] = pick(1, three_d ? 7 : 13);
    p.pad_before[i] = pick(0, std::min(3, span - 1));
    p.pad_after[i] = pick(0, std::min(3, span - 1));
  }
  return p;
}

bool dgrad_ok(ConvProblemSize const& p) {
  for (int i = 0; i < 3; ++i) {
    if (p.stride[i] > 1 && p.dilation[i] > 1) return false;
  }
  return true;
}

TEST_CASE("conv: seeded random sweep", "[conv][sweep]") {
  char const* env = std::getenv("HIPTILE_CONV_SWEEP_CASES");
  int const cases = env != nullptr ? std::atoi(env) : 480;
  std::mt19937_64 rng(20261123);
  int run = 0;
  for (int i = 0; run < cases && i < 50 * cases; ++i) {
    ConvProblemSize const p = random_problem(rng);
    if (p.check() != Status::kSuccess) continue;
    std::uint64_t const seed = 1000 + run;
    INFO("case " << run << ": " << describe(p));
    switch (run % 6) {
      case 0: CHECK(run_conv<Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kPrecomputed>>(p, {}, seed).passed()); break;
      case 1: CHECK(run_conv<Gfx942Conv<ConvOperator::kFprop, half_t, IteratorAlgorithm::kAnalytic>>(p, {}, seed).passed()); break;
      case 2:
        if (!dgrad_ok(p)) continue;
        CHECK(run_conv<Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kPrecomputed>>(p, {}, seed).passed());
        break;
      case 3:
        if (!dgrad_ok(p)) continue;
        CHECK(run_conv<Gfx942Conv<ConvOperator::kDgrad, half_t, IteratorAlgorithm::kAnalytic>>(p, {}, seed).passed());
        break;
      case 4: CHECK(run_conv<Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kPrecomputed>>(p, {}, seed).passed()); break;
      default: CHECK(run_conv<Gfx942Conv<ConvOperator::kWgrad, half_t, IteratorAlgorithm::kAnalytic>>(p, {}, seed).passed()); break;
    }
    ++run;
  }
  CHECK(run == cases);
}

}  // namespace
