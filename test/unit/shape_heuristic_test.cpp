// ShapeHeuristic against what the H100 measured (docs/performance.md, "NVIDIA H100: stream-K",
// "Edge tiles through the staged epilogue", "Small M"): for each shape, DefaultGemm's NVIDIA
// candidates that ran within 5% of the fastest of them (the runs vary by about ±3%), and the
// heuristic's choice must be one of those. Then the rules' edges on hand-made candidate lists.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <set>

#include "hiptile/gemm/device/shape_heuristic.hpp"

namespace {

using hiptile::GemmCoord;
using hiptile::gemm::device::ChoiceReason;
using hiptile::gemm::device::GemmCandidateShape;
using hiptile::gemm::device::ShapeChoice;
using hiptile::gemm::device::ShapeHeuristic;

constexpr int kSms = 132;  // the H100 SXM's

// DefaultGemm's Sm90 f16 candidates: the 256×128×64 default (192 KB of shared memory: one CTA per
// SM) data-parallel and with stream-K, 128×128×64 (two per SM), 32×128 and 16×128 with stream-K,
// 128×128×64 with parallel split-K, 128×128×64 data-parallel.
enum H100 { kLarge, kLargeStreamK, kTile128StreamK, kRows32StreamK, kRows16StreamK, kTile128SplitK, kTile128 };
GemmCandidateShape const kH100[] = {{256, 128, 64, false, false, true, kSms},    {256, 128, 64, true, false, true, kSms},
                                    {128, 128, 64, true, false, true, 2 * kSms}, {32, 128, 64, true, false, true, 4 * kSms},
                                    {16, 128, 64, true, false, true, 4 * kSms},  {128, 128, 64, false, true, true, 2 * kSms},
                                    {128, 128, 64, false, false, true, 2 * kSms}};

struct Measured {
  GemmCoord problem;
  std::set<int> within_5_percent;  // of the fastest candidate, in the same run
};

TEST_CASE("ShapeHeuristic picks one of the H100's measured fastest candidates for each shape", "[unit]") {
  // µs or TFLOPS as docs/performance.md gives them; the candidates within 5% of the best.
  Measured const table[] = {
      {{1, 4096, 4096}, {kRows16StreamK}},                        // 16.6 µs; 32 rows 17.5
      {{16, 4096, 4096}, {kRows16StreamK}},                       // 16.8; 17.8
      {{32, 11008, 4096}, {kRows32StreamK}},                      // 44.6; 16 rows 56.2
      {{64, 4096, 4096}, {kRows32StreamK}},                       // 22.7; 16 rows 28.3
      {{128, 4096, 4096}, {kRows32StreamK, kRows16StreamK}},      // 27.0, 26.9; 128² 35.6
      {{512, 512, 8192}, {kTile128SplitK}},                       // 16 slices 35.4 µs; 128² stream-K 38.6
      {{1000, 1000, 1000}, {kTile128StreamK}},                    // 21.8 µs; default 25.5
      {{1024, 1024, 1024}, {kTile128StreamK, kLargeStreamK}},     // 110.0, 106.2 TFLOPS; default 98.6
      {{3000, 3000, 3000}, {kLargeStreamK}},                      // 164 µs; default 198
      {{4096, 11008, 4096}, {kLargeStreamK, kLarge}},             // 457.1, 453.3 TFLOPS
      {{1496, 2504, 3496}, {kLarge}},                             // 238.2; stream-K loop 214.8
      {{2048, 2048, 2048}, {kLarge, kLargeStreamK, kTile128StreamK}},  // 416.2, 405.0, 410.3
      {{4096, 4096, 4096}, {kLarge, kLargeStreamK, kTile128StreamK}},  // 448.6, 439.0, 433.7
      {{8192, 8192, 8192}, {kLarge, kLargeStreamK}},              // 474.8, 454.6
      // Short K ("Short K and the row pitch", µs): the 128² tile data-parallel, stream-K, the default.
      {{4096, 4096, 256}, {kTile128}},                            // 29.7; 33.9, 34.6
      {{4096, 4096, 512}, {kTile128}},                            // 46.7; 50.8, 52.2
      {{2048, 2048, 512}, {kTile128}},                            // 13.5; 14.5, 14.2
      {{3072, 3072, 768}, {kTile128}},                            // 41.0; 48.9, 49.9
      {{8192, 8192, 512}, {kTile128}},                            // 173.9; 188.1, 202.2
      {{8192, 8192, 1024}, {kTile128}},                           // 318.4; 335.8, 338.2
      {{4096, 11008, 512}, {kTile128}},                           // 120.0; 140.9, 142.5
      {{4096, 4096, 2048}, {kTile128, kTile128StreamK, kLarge}},  // 156.6; 163.6, 159.1
      {{8192, 8192, 2048}, {kTile128, kTile128StreamK, kLarge}},  // 607.2; 632.4, 613.2
  };
  for (Measured const& m : table) {
    ShapeChoice const c = ShapeHeuristic::choose(m.problem, 1, kH100);
    INFO(m.problem.m << "x" << m.problem.n << "x" << m.problem.k << ": candidate " << c.candidate << " ("
                     << to_string(c.reason) << ")");
    CHECK(m.within_5_percent.count(c.candidate) == 1);
  }
}

TEST_CASE("ShapeHeuristic's rules at their edges", "[unit]") {
  GemmCandidateShape c[] = {{128, 128, 32, false, false, true, 8},  // large, data-parallel
                            {128, 128, 32, true, false, true, 8},   // the same tile, stream-K
                            {32, 128, 64, true, false, true, 16},
                            {16, 128, 64, true, false, true, 16},
                            {128, 128, 32, false, true, true, 8}};  // the same tile, parallel split-K
  auto pick = [&](int m, int n, int batches = 1) { return ShapeHeuristic::choose({m, n, 64}, batches, c); };

  SECTION("small M: the fewest rows covering min(M, 32), up to M = 128") {
    CHECK(pick(1, 4096).candidate == 3);
    CHECK(pick(16, 4096).candidate == 3);
    CHECK(pick(17, 4096).candidate == 2);
    CHECK(pick(128, 4096).candidate == 2);
    CHECK(pick(128, 4096).reason == ChoiceReason::kSmallM);
    CHECK(pick(129, 4096).reason != ChoiceReason::kSmallM);
    c[3].eligible = false;  // without the 16-row tile, M = 1 takes the 32-row one
    CHECK(pick(1, 4096).candidate == 2);
    c[2].eligible = false;  // without either, the rules for large tiles
    CHECK(pick(1, 256).reason == ChoiceReason::kFewTiles);  // 2 large tiles on 8 slots
  }
  SECTION("few tiles: under half the slots") {
    // 3 tiles on 8 slots: stream-K; 4 (exactly half) is not fewer.
    CHECK(pick(384, 128).reason == ChoiceReason::kFewTiles);
    CHECK(pick(384, 128).candidate == 1);
    CHECK(pick(512, 128).reason == ChoiceReason::kFullWaves);
    CHECK(pick(512, 128).candidate == 0);
  }
  SECTION("a long K over very few tiles: split-K when stream-K would share each tile 8 ways or more") {
    auto long_k = [&](int m, int n, int k) { return ShapeHeuristic::choose({m, n, k}, 1, c); };
    // One tile on 8 slots: 8 ways; slices min(8 slots / 1 tile, 16, K tiles / 2).
    ShapeChoice const one = long_k(200, 100, 4096);
    CHECK(one.candidate == 1);  // M > 128 but 2 tiles: 4 ways, stream-K
    c[0].slots = c[1].slots = c[4].slots = 16;
    ShapeChoice const split = long_k(200, 100, 4096);  // 2 tiles on 16 slots: 8 ways
    CHECK(split.candidate == 4);
    CHECK(split.reason == ChoiceReason::kLongK);
    CHECK(split.split_k_slices == 8);
    CHECK(long_k(200, 100, 320).split_k_slices == 5);  // 10 K tiles: at most 5 slices
    CHECK(long_k(200, 100, 64).candidate == 1);        // 2 K tiles: one slice each is no split
    c[0].slots = c[1].slots = c[4].slots = 64;
    CHECK(long_k(200, 100, 4096).split_k_slices == 16);  // 32 per tile, at most 16
    c[4].eligible = false;
    CHECK(long_k(200, 100, 4096).candidate == 1);  // without the split-K candidate: stream-K
    for (auto& x : c) x.eligible = false;
    c[4].eligible = true;
    CHECK(long_k(200, 100, 4096).candidate == 4);  // only split-K takes it (slices > 1 given)
    CHECK(long_k(200, 100, 4096).split_k_slices == 0);  // the arguments' slices stand
  }
  SECTION("a last wave at most half full, only past the first wave") {
    CHECK(pick(1024, 128).candidate == 0);             // 8 tiles: one full wave
    CHECK(pick(1152, 128).reason == ChoiceReason::kPartialLastWave);  // 9: a last wave of 1
    CHECK(pick(1152, 128).candidate == 1);
    CHECK(pick(1536, 128).candidate == 1);             // 12: 4 of 8, half full
    CHECK(pick(1664, 128).candidate == 0);             // 13: 5 of 8
    CHECK(pick(768, 128).candidate == 0);              // 6 of 8 in the only wave
    CHECK(pick(1152, 128).large_tiles == 9);
    CHECK(pick(1152, 128).large_slots == 8);
  }
  SECTION("batches count as tiles and exclude stream-K") {
    c[1].eligible = c[2].eligible = c[3].eligible = false;  // (stream-K refuses batch_count > 1)
    ShapeChoice const b = pick(128, 128, 9);
    CHECK(b.candidate == 0);
    CHECK(b.large_tiles == 9);
  }
  SECTION("short K: a data-parallel tile with more slots, while large's loop is at most 16 iterations") {
    GemmCandidateShape const more[] = {c[0], c[1], {64, 128, 32, false, false, true, 16},
                                       {32, 128, 32, false, false, true, 32}};
    auto short_k = [&](int m, int k) { return ShapeHeuristic::choose({m, 128, k}, 1, more); };
    CHECK(short_k(2048, 512).candidate == 2);  // 16 K tiles of 32; the larger of the two
    CHECK(short_k(2048, 512).reason == ChoiceReason::kShortK);
    CHECK(short_k(2048, 544).candidate == 0);  // 17: full waves
    CHECK(short_k(1152, 64).candidate == 2);   // before the last-wave rule
    CHECK(short_k(384, 64).reason == ChoiceReason::kFewTiles);  // after the few-tiles rule
    c[0].slots = 16;                           // no candidate with more slots than large
    CHECK(ShapeHeuristic::choose({2048, 128, 512}, 1, c).reason == ChoiceReason::kFullWaves);
  }
  SECTION("least work among the warpgroup tiles: whole waves times the area they cover, 10% to win") {
    // Sm90's DefaultGemm with 132 SMs: 128 x 256 (one per SM), the mma.sync stream-K and split-K
    // tiles, 128 x 192 (one per SM) and 64 x 128 (two per SM); only the warpgroup tiles are ranked.
    GemmCandidateShape const w[] = {{128, 256, 64, false, false, true, 132, true},
                                    {128, 128, 64, true, false, true, 264},
                                    {128, 128, 64, false, true, true, 132},
                                    {128, 192, 64, false, false, true, 132, true},
                                    {64, 128, 64, false, false, true, 264, true}};
    auto choose = [&](int m, int n, int k) { return ShapeHeuristic::choose({m, n, k}, 1, w); };
    // 3000³: 288 tiles in 3 waves (work 3·32768·132); 128 x 192: 384 in 3 (3·24576·132, 25% less);
    // 64 x 128: 1128 in 5 (5·8192·264: more than 128 x 192's).
    CHECK(choose(3000, 3000, 3000).candidate == 3);
    CHECK(choose(3000, 3000, 3000).reason == ChoiceReason::kLeastWork);
    // 4096³: 512 tiles in 4 waves; 128 x 192 needs 6 waves of 704 (12% more): large stays.
    CHECK(choose(4096, 4096, 4096).candidate == 0);
    CHECK(choose(4096, 4096, 4096).reason == ChoiceReason::kFullWaves);
    // 8192³: 128 x 192 saves 1.6%, under the 10% it must: large.
    CHECK(choose(8192, 8192, 8192).candidate == 0);
    // 1000³: 32 large tiles, under half the slots, stream-K would share each 4 ways (no split-K):
    // 64 x 128's 128 tiles in one wave (work 8192·264, half of large's) before stream-K.
    CHECK(choose(1000, 1000, 1000).candidate == 4);
    CHECK(choose(1000, 1000, 1000).reason == ChoiceReason::kLeastWork);
    // A short K: rule 3 leaves the ranked 64 x 128 tile (two per SM) to rule W, a tie here: large.
    CHECK(choose(4096, 4096, 512).candidate == 0);
    CHECK(choose(2048, 2048, 256).candidate == 0);
    // A long K over very few tiles still splits K first.
    CHECK(choose(256, 256, 8192).reason == ChoiceReason::kLongK);
    // With no ranked tile but large (mma.sync configurations), the rule stays out of the way.
    GemmCandidateShape unranked[] = {w[0], w[1], w[2]};
    unranked[0].ranked_by_waves = false;
    CHECK(ShapeHeuristic::choose({3000, 3000, 3000}, 1, unranked).reason != ChoiceReason::kLeastWork);
  }
  SECTION("sliced fill: a serial split-K tile for small M and few tiles, slices filling the slots once") {
    // Sm90's f16 DefaultGemm with 132 SMs: 128 x 256, the mma.sync 128 x 128 stream-K tile, the
    // 64 x 128 serial split-K tile (one per SM), 128 x 192 and 64 x 128 data-parallel.
    GemmCandidateShape const w[] = {{128, 256, 64, false, false, true, 132, true},
                                    {128, 128, 64, true, false, true, 264},
                                    {64, 128, 64, false, false, true, 132, false, true},
                                    {128, 192, 64, false, false, true, 132, true},
                                    {64, 128, 64, false, false, true, 264, true}};
    auto choose = [&](int m, int n, int k) { return ShapeHeuristic::choose({m, n, k}, 1, w); };
    // 128 x 4096 x 4096: 64 tiles of 64 x 128 on 132 slots, 2 slices.
    CHECK(choose(128, 4096, 4096).candidate == 2);
    CHECK(choose(128, 4096, 4096).reason == ChoiceReason::kSlicedFill);
    CHECK(choose(128, 4096, 4096).split_k_slices == 2);
    // 16 x 4096: 32 tiles, 132 / 32 = 4 slices; 64 x 2000: 16 tiles, 8 that fit, at most 4.
    CHECK(choose(16, 4096, 4096).split_k_slices == 4);
    CHECK(choose(64, 2000, 6000).split_k_slices == 4);
    // At most half the K tiles: K = 192 is 3 tiles, one slice.
    CHECK(choose(16, 4096, 192).split_k_slices == 1);
    // M ≤ 128 with more tiles than slots: one slice (data-parallel 64 x 128, 8 stages).
    CHECK(choose(32, 11008, 4096).candidate == 2);
    CHECK(choose(32, 11008, 4096).split_k_slices == 1);
    // Few tiles past M = 128: 512 x 512 x 8192 has 8 large tiles, 32 of 64 x 128, 4 slices.
    CHECK(choose(512, 512, 8192).candidate == 2);
    CHECK(choose(512, 512, 8192).split_k_slices == 4);
    // Few large tiles (32 of 132 slots), but 128 of 64 x 128 leave one slice: the next rules
    // (1000³: rule W's 64 x 128 tile, two per SM).
    CHECK(choose(1000, 1000, 1000).reason == ChoiceReason::kLeastWork);
    CHECK(choose(1000, 1000, 1000).candidate == 4);
    // Neither small M nor few tiles: rule S stays out of the way.
    CHECK(choose(4096, 4096, 4096).candidate == 0);
    CHECK(choose(3000, 3000, 3000).candidate == 3);
    // Only the split-K tile eligible (the arguments asked for slices): theirs stand.
    GemmCandidateShape only_split[] = {w[0], w[1], w[2], w[3], w[4]};
    for (auto& x : only_split) x.eligible = false;
    only_split[2].eligible = true;
    ShapeChoice const forced = ShapeHeuristic::choose({16, 4096, 4096}, 1, only_split);
    CHECK(forced.candidate == 2);
    CHECK(forced.reason == ChoiceReason::kOnlyEligible);
    CHECK(forced.split_k_slices == 0);
  }
  SECTION("no data-parallel candidate, or none at all") {
    c[0].eligible = false;
    CHECK(pick(4096, 4096).candidate == 1);
    CHECK(pick(4096, 4096).reason == ChoiceReason::kOnlyEligible);
    for (auto& x : c) x.eligible = false;
    CHECK(pick(4096, 4096).candidate == -1);
  }
}

}  // namespace
