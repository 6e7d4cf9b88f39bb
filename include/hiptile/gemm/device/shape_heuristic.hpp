#pragma once
// ShapeHeuristic: which of several GEMM configurations to run for a problem, from the problem's
// shape, each configuration's tile and schedule, and how many of its workgroups the device holds
// at once. Host only, no device access: SelectingGemm gathers the facts and calls choose().
//
// The rules, in order (docs/gemm.md, "How DefaultGemm chooses"); "large" is the data-parallel
// candidate with the largest tile, its tiles counted over every batch, "slots" its workgroups
// resident on the whole device (compute units × resident per unit); a parallel split-K candidate
// is chosen by rule 2 only, a serial split-K one by rule S only (or either when the arguments'
// split_k_slices leave nothing else):
//
//   S. sliced fill  a serial split-K candidate (Sm90's 64 × 128 warpgroup tile, 8 stages), where
//                   M ≤ 128 or large's tiles fill less than half of its slots: its K split into
//                   slices = ⌊its slots / its tiles⌋ (at most 4 and at most half its K tiles), so
//                   its slices fill the device in one wave — if that is 2 or more, or M ≤ 128 (one
//                   slice: data-parallel). On the H100, 64-row tiles with 8 stages in flight
//                   streamed the skinny problems' operands fastest; slices that all fit at once
//                   hand their sums over without waiting on a later wave, and the last slice adds
//                   the others' one after another (64 × 2000 × 6000: 17.6 µs with 4 slices, 19.6
//                   with 8).
//   1. small M      M ≤ 128 and a stream-K candidate has a tile of fewer than 64 rows: the one
//                   with the fewest rows that cover min(M, 32) (the tallest if none does).
//   2. few tiles    large's tiles fill less than half of its slots: the stream-K candidate of
//                   64 rows or more with the smallest tile (more tiles to share) — unless each of
//                   its tiles would be shared by 8 or more workgroups (a long K over very few
//                   tiles), whose owner would add that many partial tiles one after another: then
//                   the parallel split-K candidate, with slices = its slots / its tiles, at most
//                   16 and at most half its K tiles (the slices' sums are added by a second kernel
//                   that reads them all at once).
//   W. least work   (where candidates are ranked by waves: Sm90's warpgroup-MMA tiles) checked
//                   in rule 2 before its stream-K choice, and again after rule 3: the ranked
//                   candidate whose launch does the least quantised work — whole waves times the
//                   area a wave covers, ceil(tiles / slots) · tile area · slots — if it saves at
//                   least 10% on large's. 3000³ runs 288 tiles of 128 × 256 on 132 SMs in 3 waves,
//                   the last a sixth full; 384 of 128 × 192 fill 3 waves.
//   3. short K      large's K loop runs at most 16 iterations and another data-parallel
//                   candidate, not one ranked by rule W, has more slots (more workgroups resident
//                   per compute unit): the largest such tile. A short loop leaves each
//                   workgroup's pipeline fill and epilogue a large share of its time; two
//                   workgroups on a unit overlap one's with the other's loop. (With warpgroup
//                   MMAs the 128 × 256 tile ran 4096 × 4096 × 512 at 0.87 of cuBLAS, the 64 × 128
//                   one, two per SM, at 0.73: rule W alone weighs those tiles.)
//   4. last wave    more tiles than slots and the last wave at most half full: the stream-K
//                   candidate with large's tile (its schedule shares only those tiles).
//   5. full waves   otherwise large, data-parallel.
//
// A rule whose candidate does not exist (or cannot take the problem) passes to the next. The
// thresholds are the H100's measured winners (docs/performance.md, "Choosing by shape"): decode
// shapes need a tile as tall as the problem and their K shared (16 rows for M ≤ 16, 32 above, up
// to M = 128); a grid under half the SMs gains most from the 128 × 128 tile shared by stream-K;
// sharing a last wave that was more than half full never paid; with K ≤ 1024 (f16) the 128 × 128
// tile, two per SM, beat the 256 × 128 one, one per SM, by 4–19%, and from K = 2048 on they were
// within 2%. On gfx942 the same rules stand in
// until the MI300X timing model (issue 11) can rank the candidates.
#include <algorithm>
#include <cstdint>
#include <ostream>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"

namespace hiptile::gemm::device {

// What the heuristic needs of one candidate.
struct GemmCandidateShape {
  int tile_m = 0, tile_n = 0, tile_k = 0;
  bool stream_k = false;
  bool split_k = false;    // parallel split-K: its slices are the heuristic's to choose
  bool eligible = false;   // its can_implement accepts the problem (workspace aside)
  std::int64_t slots = 0;  // its workgroups resident on the device at once
  bool ranked_by_waves = false;  // a data-parallel tile rule W compares (the warpgroup-MMA tiles)
  bool serial_split_k = false;   // serial split-K: its slices are rule S's to choose
};

enum class ChoiceReason {
  kNone,
  kSmallM,
  kFewTiles,
  kLongK,
  kShortK,
  kPartialLastWave,
  kFullWaves,
  kOnlyEligible,
  kLeastWork,
  kSlicedFill
};

constexpr char const* to_string(ChoiceReason r) noexcept {
  switch (r) {
    case ChoiceReason::kNone: return "none eligible";
    case ChoiceReason::kSmallM: return "small M: a tile as tall as the problem, K shared by stream-K";
    case ChoiceReason::kFewTiles: return "few tiles: under half the device, smaller tiles shared by stream-K";
    case ChoiceReason::kLongK: return "long K over very few tiles: K split into slices, summed by a second kernel";
    case ChoiceReason::kShortK: return "short K: a smaller tile, more workgroups per unit overlapping their fills and epilogues";
    case ChoiceReason::kPartialLastWave: return "last wave at most half full: its tiles shared by stream-K";
    case ChoiceReason::kFullWaves: return "data-parallel, the largest tile: full waves, or no other rule's candidate takes it";
    case ChoiceReason::kOnlyEligible: return "the first candidate that takes the problem";
    case ChoiceReason::kLeastWork: return "least quantised work: whole waves times their tiles' area";
    case ChoiceReason::kSlicedFill: return "small M or few tiles: K split into the slices that fill the device once";
  }
  return "unknown";
}

struct ShapeChoice {
  int candidate = -1;  // index into the candidate list, -1 when none is eligible
  ChoiceReason reason = ChoiceReason::kNone;
  int split_k_slices = 0;  // > 0: run the split-K candidate with this many slices
  std::int64_t large_tiles = 0;  // the large candidate's tiles (all batches) and slots, as rules 2–5 saw them
  std::int64_t large_slots = 0;
};

struct ShapeHeuristic {
  static constexpr int kSmallMLimit = 128;      // rule 1 applies up to this M
  static constexpr int kSmallTileRows = 64;     // tiles of fewer rows are small-M tiles
  static constexpr int kSmallMCoverRows = 32;   // a small-M tile need cover no more rows than this
  static constexpr int kSplitKPieces = 8;       // rule 2 splits K when stream-K would share a tile this much
  static constexpr int kMaxSlices = 16;
  static constexpr int kShortKTiles = 16;       // rule 3 applies to K loops this short or shorter
  static constexpr int kMaxSerialSlices = 4;    // rule S's slices

  template <int N>
  static ShapeChoice choose(GemmCoord problem, int batch_count, GemmCandidateShape const (&c)[N]) noexcept {
    ShapeChoice choice;
    int large = -1;
    for (int i = 0; i < N; ++i) {
      if (c[i].eligible && !c[i].stream_k && !c[i].split_k && !c[i].serial_split_k &&
          (large < 0 || area(c[i]) > area(c[large]))) {
        large = i;
      }
    }
    std::int64_t const tiles = large >= 0 ? tiles_of(problem, c[large]) * batch_count : 0;
    std::int64_t const slots = large >= 0 && c[large].slots > 0 ? c[large].slots : 1;
    bool const small_m = problem.m <= kSmallMLimit;
    bool const few_tiles = large >= 0 && 2 * tiles < slots;
    // S. sliced fill (not when only split-K candidates take the problem: the arguments' own
    // slices then stand)
    for (int i = 0; i < N && large >= 0 && (small_m || few_tiles); ++i) {
      if (!c[i].eligible || !c[i].serial_split_k) continue;
      std::int64_t const its_tiles = tiles_of(problem, c[i]) * batch_count;
      std::int64_t const k_tiles = ceil_div<std::int64_t>(problem.k, c[i].tile_k);
      std::int64_t const slices =
          std::max<std::int64_t>(1, std::min<std::int64_t>({c[i].slots / its_tiles, kMaxSerialSlices, k_tiles / 2}));
      if (slices >= 2 || small_m) return {i, ChoiceReason::kSlicedFill, int(slices), tiles, slots};
    }
    // 1. small M
    if (small_m) {
      int const cover = problem.m < kSmallMCoverRows ? problem.m : kSmallMCoverRows;
      int best = -1;
      for (int i = 0; i < N; ++i) {
        if (!c[i].eligible || !c[i].stream_k || c[i].tile_m >= kSmallTileRows) continue;
        if (best < 0) {
          best = i;
          continue;
        }
        bool const covers = c[i].tile_m >= cover, best_covers = c[best].tile_m >= cover;
        if (covers != best_covers ? covers : (covers ? c[i].tile_m < c[best].tile_m : c[i].tile_m > c[best].tile_m)) {
          best = i;
        }
      }
      if (best >= 0) return {best, ChoiceReason::kSmallM};
    }
    if (large < 0) {  // only stream-K or split-K candidates (or none) take the problem
      for (int i = 0; i < N; ++i) {
        if (c[i].eligible) return {i, ChoiceReason::kOnlyEligible};
      }
      return choice;
    }
    choice = {large, ChoiceReason::kFullWaves, 0, tiles, slots};
    // 2. few tiles
    if (few_tiles) {
      int best = -1;
      for (int i = 0; i < N; ++i) {
        if (c[i].eligible && c[i].stream_k && c[i].tile_m >= kSmallTileRows && (best < 0 || area(c[i]) < area(c[best]))) {
          best = i;
        }
      }
      if (best >= 0) {
        std::int64_t const pieces = c[best].slots / tiles_of(problem, c[best]) / batch_count;
        for (int i = 0; i < N && pieces >= kSplitKPieces; ++i) {
          if (!c[i].eligible || !c[i].split_k) continue;
          std::int64_t const split_tiles = tiles_of(problem, c[i]) * batch_count;
          std::int64_t const k_tiles = ceil_div<std::int64_t>(problem.k, c[i].tile_k);
          std::int64_t const slices = std::min<std::int64_t>({c[i].slots / split_tiles, kMaxSlices, k_tiles / 2});
          if (slices >= 2) return {i, ChoiceReason::kLongK, int(slices), tiles, slots};
        }
        if (int const w = least_work(problem, batch_count, c, large); w >= 0) {
          return {w, ChoiceReason::kLeastWork, 0, tiles, slots};
        }
        return {best, ChoiceReason::kFewTiles, 0, tiles, slots};
      }
    }
    // 3. short K
    if (ceil_div<std::int64_t>(problem.k, c[large].tile_k) <= kShortKTiles) {
      int best = -1;
      for (int i = 0; i < N; ++i) {
        if (c[i].eligible && !c[i].stream_k && !c[i].split_k && !c[i].serial_split_k && !c[i].ranked_by_waves &&
            c[i].slots > slots && (best < 0 || area(c[i]) > area(c[best]))) {
          best = i;
        }
      }
      if (best >= 0) return {best, ChoiceReason::kShortK, 0, tiles, slots};
    }
    // W. least quantised work
    if (int const w = least_work(problem, batch_count, c, large); w >= 0) {
      return {w, ChoiceReason::kLeastWork, 0, tiles, slots};
    }
    // 4. last wave at most half full
    std::int64_t const last = tiles % slots;
    if (tiles > slots && last != 0 && 2 * last <= slots) {
      for (int i = 0; i < N; ++i) {
        if (c[i].eligible && c[i].stream_k && c[i].tile_m == c[large].tile_m && c[i].tile_n == c[large].tile_n &&
            c[i].tile_k == c[large].tile_k) {
          return {i, ChoiceReason::kPartialLastWave, 0, tiles, slots};
        }
      }
    }
    return choice;  // 5. full waves
  }

  // A launch's time in units of one tile's K step on one workgroup, counting only how the work is
  // quantised over `slots` resident workgroups: data-parallel tiles in whole waves; stream-K's K
  // steps shared evenly; split-K's slices of ⌈K steps / slices⌉ in whole waves. What the workspace
  // hint predicts a preferred candidate gains with (fills and epilogues not counted).
  static double wave_time(GemmCoord problem, int batch_count, GemmCoord tile, kernel::SplitKMode schedule, int slices,
                          std::int64_t slots) noexcept {
    std::int64_t const tiles = ceil_div<std::int64_t>(problem.m, tile.m) * ceil_div<std::int64_t>(problem.n, tile.n) *
                               std::max(1, batch_count);
    std::int64_t const k_steps = std::max<std::int64_t>(1, ceil_div<std::int64_t>(problem.k, tile.k));
    std::int64_t const s = std::max<std::int64_t>(1, slots);
    double const area = double(tile.m) * tile.n * tile.k;
    switch (schedule) {
      case kernel::SplitKMode::kStreamK:
        return double(ceil_div<std::int64_t>(tiles * k_steps, s)) * area;
      case kernel::SplitKMode::kSerial:
      case kernel::SplitKMode::kParallel: {
        std::int64_t const pieces = std::max(1, slices);
        return double(ceil_div<std::int64_t>(tiles * pieces, s)) * double(ceil_div<std::int64_t>(k_steps, pieces)) * area;
      }
      case kernel::SplitKMode::kNone:
      case kernel::SplitKMode::kPersistent:  // whole tiles, as many at once as there are slots
        break;
    }
    return double(ceil_div<std::int64_t>(tiles, s)) * double(k_steps) * area;
  }

 private:
  static constexpr std::int64_t area(GemmCandidateShape const& c) noexcept { return std::int64_t(c.tile_m) * c.tile_n; }

  // Rule W: the ranked candidate with the least quantised work, if it saves 10% on large's (which
  // must be ranked too); -1 otherwise.
  template <int N>
  static int least_work(GemmCoord problem, int batch_count, GemmCandidateShape const (&c)[N], int large) noexcept {
    auto const work = [&](GemmCandidateShape const& x) {
      std::int64_t const slots = x.slots > 0 ? x.slots : 1;
      return ceil_div<std::int64_t>(tiles_of(problem, x) * batch_count, slots) * area(x) * slots;
    };
    if (!c[large].ranked_by_waves) return -1;
    int best = large;
    std::int64_t const large_work = work(c[large]);
    std::int64_t best_work = large_work;
    for (int i = 0; i < N; ++i) {
      if (!c[i].eligible || !c[i].ranked_by_waves || i == large) continue;
      std::int64_t const w = work(c[i]);
      if (w < best_work || (w == best_work && area(c[i]) > area(c[best]))) best = i, best_work = w;
    }
    return best != large && 10 * best_work <= 9 * large_work ? best : -1;
  }
  static constexpr std::int64_t tiles_of(GemmCoord p, GemmCandidateShape const& c) noexcept {
    return ceil_div<std::int64_t>(p.m, c.tile_m) * ceil_div<std::int64_t>(p.n, c.tile_n);
  }
};

inline std::ostream& operator<<(std::ostream& os, ChoiceReason r) { return os << to_string(r); }

}  // namespace hiptile::gemm::device
