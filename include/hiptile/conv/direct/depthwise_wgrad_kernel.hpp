#pragma once
// DepthwiseWgradKernel: Wgrad of a depthwise convolution (groups = C = K) as a direct convolution,
// dw[c][t, r, s] = sum over every output position o of dy[o][c] · x[source(o, (t, r, s))][c]:
// a reduction over N·Z·P·Q, split into slices of output tiles.
//
//   a workgroup: slice `block x` of the output tiles (each a tile of one image's output plane, as
//     DepthwiseKernel's), 64 channels (block y);
//   for each of its tiles and each filter plane whose source plane exists (a step): dy's tile (zeros
//     past the output) and x's halo of the plane (DepthwiseKernel's staging and Fprop's positions)
//     to LDS; each thread sums dy · x over its positions of the tile for its taps and channel
//     vector in fp32. Where the halo is copied straight to LDS (a HaloCopy), the next step's copies
//     are in flight while the threads work on this one's (two buffers of each);
//   at the end the workgroup's groups of positions are added in LDS, and its sums go to the
//     workspace (slice s of a C x taps fp32 matrix: SplitKReduction adds the slices in order and
//     applies the output functor) or, with one slice, through the output functor to dw.
//
// Threads: kVectors channel vectors x kTapLanes lanes. A lane owns a strip of taps: kWidth
// consecutive filter columns of one filter row (t, r) (a row wider than 8 taps is split into
// strips of equal width; taps past the row are summed and never stored), and a run of the tile's
// positions (the lanes to spare split the positions into groups, one run each). It reads a
// position's dy once for all its taps: where a lane owned one tap, the conversions of dy and x
// and the loop's bookkeeping were most of the kernel's instructions (H200, Nsight Compute). In
// convolution mode the sums of tap f go to filter element F − 1 − f of each axis.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/float_convert.hpp"
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/conv/direct/depthwise_kernel.hpp"
#include "hiptile/conv/direct/gather_axis.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

namespace hiptile::conv {

template <class Element, class ElementC, class OutputOp, int AccessElements, std::size_t LdsBytes,
          class Workgroup = DepthwiseWorkgroup<>>
struct DepthwiseWgradKernel {
  // DepthwiseKernel's channel vectors, LDS parts and staging.
  using Forward = DepthwiseKernel<Element, ElementC, OutputOp, AccessElements, LdsBytes, Workgroup>;
  using Part = typename Forward::Part;
  using Sums = typename Forward::Sums;
  static constexpr int kMaxThreadsPerBlock = Forward::kMaxThreadsPerBlock;
  static constexpr std::size_t kLdsBytes = LdsBytes;
  static constexpr int kChannels = Forward::kChannels;
  static constexpr int kVectors = Forward::kVectors;
  static constexpr int kMaxPixels = Forward::kMaxPixels;
  static constexpr int kTapLanes = kMaxThreadsPerBlock / kVectors;
  static constexpr int kMaxStripTaps = 8;  // a 7-wide (ConvNeXt) filter row is one strip
  // Buffers of dy's tile and x's halo: two where the copies run while the threads work.
  static constexpr int kBuffers = Forward::kStraightToLds ? 2 : 1;
  // A lane's sums of one tap move through LDS in 16-byte parts.
  static constexpr int kSumPartElements = AccessElements < 4 ? AccessElements : 4;
  static constexpr int kSumParts = AccessElements / kSumPartElements;

  // How the lanes split a filter of t x r x s taps: rows of ceil(s / 8) strips of equal width,
  // rounded up to a width the kernel is compiled for (1, 3, 5, 7, 8: the others' rows get dead
  // taps); count strips in all, each a lane of every group.
  struct Strips {
    int width = 1, per_row = 1;
    std::int64_t count = 1;
    static constexpr Strips of(int t, int r, int s) noexcept {
      int const pieces = ceil_div(s, kMaxStripTaps);
      int const even = ceil_div(s, pieces);
      int const width = even <= 1 ? 1 : even <= 3 ? 3 : even <= 5 ? 5 : even <= 7 ? 7 : kMaxStripTaps;
      int const per_row = ceil_div(s, width);
      return {width, per_row, std::int64_t(t) * r * per_row};
    }
    // Whether every strip has a lane.
    constexpr bool fit() const noexcept { return count <= kTapLanes; }
  };

  struct Params {
    Element const* x = nullptr;
    Element const* dy = nullptr;
    float* partials = nullptr;    // slices x C x taps, when there are several slices
    ElementC const* c = nullptr;  // shaped like dw; read when the functor needs it (one slice)
    ElementC* d = nullptr;        // dw: C x T x R x S
    ElementC const* bias = nullptr;
    typename OutputOp::Params op{};
    int images = 1;
    int channels = 1;
    GatherAxis axis[3];  // Fprop's: x from the output positions; output = dy's extents
    TileGrid grid;
    int tiles = 1;            // output tiles in all: images x output planes x tile rows x tile columns
    int tiles_per_slice = 1;
    int taps = 1;             // T·R·S
    int strip_width = 1;      // Strips::of(T, R, S)
    int strips_per_row = 1;
    int strips = 1;
    int groups = 1;           // lanes' groups of positions: kTapLanes / strips
    bool flip = false;
    FastDivmod div_tile_w;
    FastDivmod div_halo_w;
  };

  // LDS a launch with these axes takes: dy's tile and x's halo of one plane, kBuffers of each; at
  // the end the groups' sums of one tap reuse it.
  static constexpr std::int64_t lds_bytes(GatherAxis const& h, GatherAxis const& w) noexcept {
    std::int64_t const staged = (std::int64_t(h.tile) * w.tile + std::int64_t(h.halo) * w.halo) * Forward::kPositionBytes;
    std::int64_t const sums = std::int64_t(kTapLanes) * kVectors * std::int64_t(sizeof(Sums));
    return kBuffers * staged > sums ? kBuffers * staged : sums;
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    switch (p.strip_width) {  // (uniform)
      case 1: return reduce<1>(p);
      case 3: return reduce<3>(p);
      case 5: return reduce<5>(p);
      case 7: return reduce<7>(p);
      default: return reduce<kMaxStripTaps>(p);
    }
  }

 private:
  // One step of a workgroup's walk: an output tile and a filter plane whose source plane exists;
  // tile == the slice's end: none.
  struct Step {
    int tile, t;
  };
  // The first step at or after `s`, in order (tiles, then planes).
  HIPTILE_DEVICE HIPTILE_INLINE static Step step_from(Params const& p, Step s, int last_tile) {
    GatherAxis const& ad = p.axis[0];
    for (; s.tile < last_tile; ++s.tile, s.t = 0) {
      int const z = Forward::place(s.tile, p.grid, p.axis).z;
      for (; s.t < ad.taps; ++s.t) {
        int const plane = z * ad.out_step + s.t * ad.tap_step + ad.offset;  // (Fprop: no division)
        if (plane >= 0 && plane < ad.source) return s;
      }
    }
    return s;
  }

  // Step s's copies, one group: dy's tile (at the first step of a tile) and x's halo of its plane.
  HIPTILE_DEVICE HIPTILE_INLINE static void stage(Params const& p, Step s, bool new_tile, Part* dy_tile, Part* halo,
                                                  int c0, int thread) {
    GatherAxis const& ad = p.axis[0];
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    auto const [image, z, h0, w0] = Forward::place(s.tile, p.grid, p.axis);
    if (new_tile) {
      Forward::stage_rectangle(p.dy, p.channels, (std::int64_t(image) * ad.output + z) * ah.output, ah.output,
                               aw.output, h0, w0, ah.tile * aw.tile, p.div_tile_w, c0, thread, dy_tile);
    }
    int const plane = z * ad.out_step + s.t * ad.tap_step + ad.offset;
    Forward::stage_rectangle(p.x, p.channels, (std::int64_t(image) * ad.source + plane) * ah.source, ah.source,
                             aw.source, ah.origin(h0), aw.origin(w0), ah.halo * aw.halo, p.div_halo_w, c0, thread,
                             halo);
    Forward::commit_staged();
  }

  template <int kWidth>
  HIPTILE_DEVICE HIPTILE_INLINE static void reduce(Params const& p) {
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    int const slice = int(block_idx_x());
    int const c0 = int(block_idx_y()) * kChannels;
    int const thread = int(thread_idx_x());
    int const v = thread % kVectors;
    int const lane = thread / kVectors;
    int const tile_pixels = ah.tile * aw.tile;
    // This lane's strip: filter plane t, row r, columns s0 ... s0 + kWidth − 1 (those past S read
    // tap s0's source and are not stored); and its group's run of the tile's positions.
    int const group = lane / p.strips;
    int const strip = lane % p.strips;
    bool const active = group < p.groups;
    int const row = strip / p.strips_per_row;
    int const s0 = strip % p.strips_per_row * kWidth;
    int const t = row / ah.taps, r = row % ah.taps;
    int offset[kWidth];  // each tap's halo position from a position's tap (0, 0)
    HIPTILE_UNROLL
    for (int j = 0; j < kWidth; ++j) {
      offset[j] = r * ah.tap_step * aw.halo + (s0 + j < aw.taps ? s0 + j : s0) * aw.tap_step;
    }
    int const run = ceil_div(tile_pixels, p.groups);
    int const first = group * run < tile_pixels ? group * run : tile_pixels;
    int const last = first + run < tile_pixels ? first + run : tile_pixels;
    auto const [first_h, first_w] = p.div_tile_w.divmod(first);
    // Halo positions from one output row to the next: inside the LDS halo when the tile has two rows
    // or more; a one-row tile never steps (its stride may be as large as an int holds).
    int const row_step = ah.tile > 1 ? ah.out_step * aw.halo : 0;

    int const dy_parts = tile_pixels * Forward::kParts * kVectors;
    int const halo_parts = ah.halo * aw.halo * Forward::kParts * kVectors;
    Part* const dy_tiles = dynamic_lds_as<Part>();
    Part* const halos = dy_tiles + kBuffers * dy_parts;
    Sums acc[kWidth];
    HIPTILE_UNROLL
    for (int j = 0; j < kWidth; ++j) acc[j].fill(0.0f);

    int const first_tile = slice * p.tiles_per_slice;
    int const last_tile = first_tile + p.tiles_per_slice < p.tiles ? first_tile + p.tiles_per_slice : p.tiles;
    Step step = step_from(p, {first_tile, 0}, last_tile);
    if (step.tile < last_tile) stage(p, step, true, dy_tiles, halos, c0, thread);
    // Step k uses halo buffer k mod kBuffers and the dy buffer of its tile's parity.
    for (int k = 0, tile_parity = 0; step.tile < last_tile; ++k) {
      Step const next = step_from(p, {step.tile, step.t + 1}, last_tile);
      bool const more = next.tile < last_tile;
      bool const next_tile = next.tile != step.tile;
      int const next_parity = next_tile ? (tile_parity + 1) % kBuffers : tile_parity;
      if (kBuffers == 2 && more) {  // (into the buffers no thread reads now: step k − 1's)
        stage(p, next, next_tile, dy_tiles + next_parity * dy_parts, halos + (k + 1) % kBuffers * halo_parts, c0,
              thread);
        Forward::template wait_staged<1>();  // (all but the next step's copies: this step's have landed)
      } else {
        Forward::template wait_staged<0>();
      }
      barrier();
      if (active && t == step.t) {
        Part const* const dy_tile = dy_tiles + tile_parity * dy_parts;
        Part const* const halo = halos + k % kBuffers * halo_parts;
        int ow = first_w, row_position = first_h * row_step;
        for (int o = first; o < last; ++o) {
          int const position = row_position + ow * aw.out_step;
          float dy[AccessElements];
          Forward::read_source(dy_tile, o, v, dy);
          HIPTILE_UNROLL
          for (int j = 0; j < kWidth; ++j) {
            float x[AccessElements];
            Forward::read_source(halo, position + offset[j], v, x);
            Forward::multiply_add(acc[j], dy, x);
          }
          if (++ow == aw.tile) {
            ow = 0;
            row_position += row_step;
          }
        }
      }
      barrier();  // this step's buffers are read: the copies of the step after next may fill them
      if (kBuffers == 1 && more) stage(p, next, next_tile, dy_tiles, halos, c0, thread);
      step = next;
      tile_parity = next_parity;
    }

    // Tap by tap, the groups' sums to LDS (in 16-byte parts), added by group 0 in group order, and
    // written by it.
    using SumPart = Array<float, kSumPartElements>;
    SumPart* const sums = dynamic_lds_as<SumPart>();
    int const channel = c0 + v * AccessElements;
    bool const writes = active && group == 0 && channel < p.channels;
    OutputOp const op = epilogue::functor_on_device<OutputOp>(p.op);
    bool const source_needed = op.is_source_needed();
    HIPTILE_UNROLL
    for (int j = 0; j < kWidth; ++j) {
      if (p.groups > 1) {  // (uniform)
        if (active) {
          HIPTILE_UNROLL
          for (int h = 0; h < kSumParts; ++h) {
            SumPart part;
            HIPTILE_UNROLL
            for (int e = 0; e < kSumPartElements; ++e) part[e] = acc[j][h * kSumPartElements + e];
            arch::lds_store(sums + (lane * kSumParts + h) * kVectors + v, part);
          }
        }
        barrier();
        if (active && group == 0) {
          for (int g = 1; g < p.groups; ++g) {
            HIPTILE_UNROLL
            for (int h = 0; h < kSumParts; ++h) {
              SumPart const other = arch::lds_load(sums + ((g * p.strips + lane) * kSumParts + h) * kVectors + v);
              HIPTILE_UNROLL
              for (int e = 0; e < kSumPartElements; ++e) acc[j][h * kSumPartElements + e] += other[e];
            }
          }
        }
        barrier();  // (the next tap's sums overwrite these)
      }
      if (!writes || s0 + j >= aw.taps) continue;
      int const tap = (t * ah.taps + r) * aw.taps + s0 + j;
      int const f = p.flip ? p.taps - 1 - tap : tap;  // (each axis reversed: the flattened index)
      HIPTILE_UNROLL
      for (int e = 0; e < AccessElements; ++e) {
        std::int64_t const at = std::int64_t(channel + e) * p.taps + f;
        if (p.partials != nullptr) {
          arch::global_store(p.partials + std::int64_t(slice) * p.channels * p.taps + at, acc[j][e]);
        } else {
          float const source = source_needed ? arch::to_float(arch::global_load(p.c + at)) : 0.0f;
          float const bias = p.bias != nullptr ? arch::to_float(arch::global_load(p.bias + channel + e)) : 0.0f;
          arch::global_store(p.d + at, epilogue::apply_functor(op, acc[j][e], source, bias,
                                                               epilogue::ElementContext{channel + e, f, 0.0f}));
        }
      }
    }
    epilogue::finish_wave(op, thread % kWaveSize);
  }
};

}  // namespace hiptile::conv
