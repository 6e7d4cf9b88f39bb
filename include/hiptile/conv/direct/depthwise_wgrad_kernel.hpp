#pragma once
// DepthwiseWgradKernel: Wgrad of a depthwise convolution (groups = C = K) as a direct convolution,
// dw[c][t, r, s] = sum over every output position o of dy[o][c] · x[source(o, (t, r, s))][c]:
// a reduction over N·Z·P·Q, split into slices of output tiles.
//
//   a workgroup: slice `block x` of the output tiles (each a tile of one image's output plane, as
//     DepthwiseKernel's), 64 channels (block y);
//   for each of its tiles: dy's tile to LDS (zeros past the output), then for each filter plane
//     whose source plane exists, x's halo of it (DepthwiseKernel's staging and Fprop's positions);
//     each thread sums dy · x over the tile's positions for its taps and channel vector in fp32;
//   at the end the workgroup's groups of positions are added in LDS, and its sums go to the
//     workspace (slice s of a C x taps fp32 matrix: SplitKReduction adds the slices in order and
//     applies the output functor) or, with one slice, through the output functor to dw.
//
// Threads: kVectors channel vectors x kTapLanes lanes. With at most kTapLanes taps (T·R·S), lane l
// owns tap l mod taps for the positions o = l / taps (mod the lanes' groups); with more, up to
// kMaxTapsPerThread taps l, l + kTapLanes, ... for every position. In convolution mode the sums of
// tap f go to filter element F − 1 − f of each axis.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/float_convert.hpp"
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/conv/direct/depthwise_kernel.hpp"
#include "hiptile/conv/direct/gather_axis.hpp"
#include "hiptile/core/array.hpp"
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
  static constexpr int kMaxTapsPerThread = 4;
  static constexpr int kMaxTaps = kTapLanes * kMaxTapsPerThread;  // T·R·S at most
  // A lane's sums of one tap move through LDS in 16-byte parts.
  static constexpr int kSumPartElements = AccessElements < 4 ? AccessElements : 4;
  static constexpr int kSumParts = AccessElements / kSumPartElements;

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
    int groups = 1;           // lanes' groups of positions (taps at most kTapLanes), else 1
    bool flip = false;
    FastDivmod div_tile_w;
    FastDivmod div_halo_w;
  };

  // LDS a launch with these axes takes: dy's tile, then x's halo of one plane; at the end the
  // groups' sums reuse it.
  static constexpr std::int64_t lds_bytes(GatherAxis const& h, GatherAxis const& w) noexcept {
    std::int64_t const staged = (std::int64_t(h.tile) * w.tile + std::int64_t(h.halo) * w.halo) * Forward::kPositionBytes;
    std::int64_t const sums = std::int64_t(kTapLanes) * kVectors * std::int64_t(sizeof(Sums));
    return staged > sums ? staged : sums;
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    GatherAxis const& ad = p.axis[0];
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    int const slice = int(block_idx_x());
    int const c0 = int(block_idx_y()) * kChannels;
    int const thread = int(thread_idx_x());
    int const v = thread % kVectors;
    int const lane = thread / kVectors;
    int const tile_pixels = ah.tile * aw.tile;
    int const rs = ah.taps * aw.taps;
    // This lane's taps (flattened (t, r, s)) and its group of positions.
    bool const grouped = p.taps <= kTapLanes;
    int const group = grouped ? lane / p.taps : 0;
    bool const active = !grouped || group < p.groups;
    // Each tap's plane t (-1: none) and its halo offset from a position's tap (0, 0), found once.
    int tap[kMaxTapsPerThread], tap_plane[kMaxTapsPerThread], tap_offset[kMaxTapsPerThread];
    HIPTILE_UNROLL
    for (int j = 0; j < kMaxTapsPerThread; ++j) {
      int const f = grouped ? (j == 0 ? lane % p.taps : p.taps) : lane + j * kTapLanes;
      tap[j] = active && f < p.taps ? f : -1;
      int const r = f % rs / aw.taps, s = f % aw.taps;
      tap_plane[j] = tap[j] < 0 ? -1 : f / rs;
      tap_offset[j] = r * ah.tap_step * aw.halo + s * aw.tap_step;
    }

    Part* const dy_tile = dynamic_lds_as<Part>();
    Part* const halo = dy_tile + tile_pixels * Forward::kParts * kVectors;
    Sums acc[kMaxTapsPerThread];
    HIPTILE_UNROLL
    for (int j = 0; j < kMaxTapsPerThread; ++j) acc[j].fill(0.0f);

    int const first_tile = slice * p.tiles_per_slice;
    int const last_tile = first_tile + p.tiles_per_slice < p.tiles ? first_tile + p.tiles_per_slice : p.tiles;
    for (int tile = first_tile; tile < last_tile; ++tile) {
      auto const [image, z, h0, w0] = Forward::place(tile, p.grid, p.axis);
      barrier();  // the previous tile's reads are done
      Forward::stage_rectangle(p.dy, p.channels, (std::int64_t(image) * ad.output + z) * ah.output, ah.output,
                               aw.output, h0, w0, tile_pixels, p.div_tile_w, c0, thread, dy_tile);
      int const origin_h = ah.origin(h0), origin_w = aw.origin(w0);
      bool staged = false;  // whether a plane's halo is in LDS (and must be read before the next)
      for (int t = 0; t < ad.taps; ++t) {
        int const plane = z * ad.out_step + t * ad.tap_step + ad.offset;  // (Fprop: no division)
        if (plane < 0 || plane >= ad.source) continue;  // (uniform)
        if (staged) barrier();
        Forward::stage_rectangle(p.x, p.channels, (std::int64_t(image) * ad.source + plane) * ah.source, ah.source,
                                 aw.source, origin_h, origin_w, ah.halo * aw.halo, p.div_halo_w, c0, thread, halo);
        staged = true;
        Forward::wait_staged();
        barrier();
        for (int o = group; o < tile_pixels; o += p.groups) {
          auto const [oh, ow] = p.div_tile_w.divmod(o);
          int const position = oh * ah.out_step * aw.halo + ow * aw.out_step;
          float dy[AccessElements];
          Forward::read_source(dy_tile, o, v, dy);
          HIPTILE_UNROLL
          for (int j = 0; j < kMaxTapsPerThread; ++j) {
            if (tap_plane[j] != t) continue;
            float x[AccessElements];
            Forward::read_source(halo, position + tap_offset[j], v, x);
            Forward::multiply_add(acc[j], dy, x);
          }
        }
      }
    }

    // The groups' sums to LDS (in 16-byte parts), added by group 0 in group order.
    barrier();
    using SumPart = Array<float, kSumPartElements>;
    SumPart* const sums = dynamic_lds_as<SumPart>();
    if (grouped && p.groups > 1 && active) {
      HIPTILE_UNROLL
      for (int h = 0; h < kSumParts; ++h) {
        SumPart part;
        HIPTILE_UNROLL
        for (int e = 0; e < kSumPartElements; ++e) part[e] = acc[0][h * kSumPartElements + e];
        arch::lds_store(sums + (lane * kSumParts + h) * kVectors + v, part);
      }
    }
    barrier();
    if (grouped && p.groups > 1 && group == 0) {
      for (int g = 1; g < p.groups; ++g) {
        HIPTILE_UNROLL
        for (int h = 0; h < kSumParts; ++h) {
          SumPart const other = arch::lds_load(sums + ((g * p.taps + lane) * kSumParts + h) * kVectors + v);
          HIPTILE_UNROLL
          for (int e = 0; e < kSumPartElements; ++e) acc[0][h * kSumPartElements + e] += other[e];
        }
      }
    }

    int const channel = c0 + v * AccessElements;
    bool const writes = active && group == 0 && channel < p.channels;
    OutputOp const op = epilogue::functor_on_device<OutputOp>(p.op);
    bool const source_needed = op.is_source_needed();
    HIPTILE_UNROLL
    for (int j = 0; j < kMaxTapsPerThread; ++j) {
      if (!writes || tap[j] < 0) continue;
      int const f = p.flip ? p.taps - 1 - tap[j] : tap[j];  // (each axis reversed: the flattened index)
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
