#pragma once
// DepthwiseKernel: Fprop and Dgrad of a depthwise convolution (groups = C = K: every channel
// convolved with its own filter) as a direct convolution. As an implicit GEMM such a layer has one
// channel per group: its GEMM-K is the filter's taps and its N one column, so an MMA tile would be
// almost all padding. Here nothing is a GEMM; the layer is memory-bound, and the kernel reads each
// source element about once from memory:
//
//   a workgroup: one image's output plane z, a tile of tile_h x tile_w output positions
//     (at most kMaxPixels), kChannels channels;
//   for each filter plane t whose source plane exists: its halo (the source positions the tile
//     reads; zeros outside the tensor) and the plane's filter taps go to LDS, then every thread
//     sums, for its channel vector and its output positions, tap x source in fp32;
//   the output functor per element (bias per channel, C), 16-byte stores where aligned.
//
// Threads: kChannels / AccessElements channel vectors x kPixelLanes positions; thread (lane, v)
// owns positions lane, lane + kPixelLanes, ... of the tile for channels c0 + v·AccessElements, so a
// wave's LDS reads are whole 16-byte vectors of consecutive positions.
//
// The source and the output are NDHWC (C channels), the filter C x T x R x S (one channel a group).
// Fprop: source x, output y. Dgrad: source dy, output dx (gather_axis.hpp has the positions).
// Peers with the same idea: CUTLASS's direct depthwise convolution (conv/kernel/direct_convolution.h,
// its example 46), which stages the activation's halo and the filter per thread block.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/float_convert.hpp"
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
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

template <class Element, class ElementC, class OutputOp, int AccessElements, std::size_t LdsBytes>
struct DepthwiseKernel {
  static constexpr int kMaxThreadsPerBlock = 256;
  static constexpr std::size_t kLdsBytes = LdsBytes;  // the most a launch takes (its tile decides)
  static constexpr int kChannels = 64;  // channels a workgroup covers
  static constexpr int kVectors = kChannels / AccessElements;
  static constexpr int kPixelLanes = kMaxThreadsPerBlock / kVectors;
  static constexpr int kMaxPixels = 128;  // output positions a workgroup covers, at most
  static constexpr int kPixelsPerThread = kMaxPixels / kPixelLanes;
  static_assert(kChannels % AccessElements == 0 && kMaxThreadsPerBlock % kVectors == 0 &&
                kMaxPixels % kPixelLanes == 0);
  using Vector = Array<Element, AccessElements>;
  using OutputVector = Array<ElementC, AccessElements>;
  static constexpr int kVectorBytes = int(sizeof(Vector));

  struct Params {
    Element const* source = nullptr;  // x (Fprop) or dy (Dgrad)
    Element const* filter = nullptr;  // C x T x R x S
    ElementC const* c = nullptr;      // shaped like the output; read when the functor needs it
    ElementC* d = nullptr;            // y (Fprop) or dx (Dgrad)
    ElementC const* bias = nullptr;   // one per channel, or none
    typename OutputOp::Params op{};
    int images = 1;
    int channels = 1;
    GatherAxis axis[3];       // depth (a tile of one plane), height, width
    int tiles_h = 1, tiles_w = 1;
    bool flip = false;        // ConvMode::kConvolution: tap f multiplies filter element F − 1 − f
    bool vector_output = false;  // c and d aligned to whole output vectors
    FastDivmod div_tile_w;    // output positions: row, column of the tile
    FastDivmod div_halo_w;    // halo positions: row, column
  };

  // LDS a launch with these axes takes: the halo of one source plane, the filter taps of one plane
  // and a row of zero vectors (what a tap reads where its division is not exact).
  static constexpr std::int64_t lds_bytes(GatherAxis const& h, GatherAxis const& w) noexcept {
    return (std::int64_t(h.halo) * w.halo + std::int64_t(h.taps) * w.taps + 1) * kVectors * kVectorBytes;
  }

  // A numerator n > −divisor as divisor · quotient + remainder, remainder in [0, divisor).
  struct Split {
    int quotient, remainder;
    HIPTILE_DEVICE HIPTILE_INLINE static Split of(int n, int divisor) {
      int const q = n >= 0 ? n / divisor : -1;
      return {q, n - q * divisor};
    }
  };
  // One output position: its halo offset (in vectors) at tap 0 of each axis, and its numerators'
  // remainders (Dgrad's strides: tap (r, s) reads it only where they are the tap's).
  struct PixelTaps {
    int offset, remainder_h, remainder_w;
  };
  // What tap f of an axis does to a position's numerator, f·tap_step: the remainder a position
  // needs for the division to be exact, (−f·tap_step) mod divisor, and how far its quotient then
  // moves, (that remainder + f·tap_step) / divisor. Without strides (kExact false) no division.
  template <bool kExact>
  struct TapMove {
    int remainder, quotient;
    HIPTILE_DEVICE HIPTILE_INLINE static TapMove of(int step, int divisor) {
      if constexpr (!kExact) {
        return {0, step};
      } else {
        int const m = -step % divisor;
        int const need = m < 0 ? m + divisor : m;
        return {need, (need + step) / divisor};
      }
    }
  };

  // acc += tap x source over one plane's taps. A tap that does not divide a position exactly reads
  // the zero vectors past the filter instead (a select, no branch).
  template <bool kExact>
  HIPTILE_DEVICE HIPTILE_INLINE static void accumulate(Params const& p, Vector const* halo, Vector const* taps,
                                                       PixelTaps const (&at)[kPixelsPerThread],
                                                       Array<float, AccessElements> (&acc)[kPixelsPerThread], int v) {
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    int const zero = int(taps - halo) + ah.taps * aw.taps * kVectors + v;  // (in vectors from the halo)
    for (int r = 0; r < ah.taps; ++r) {
      TapMove<kExact> const mh = TapMove<kExact>::of(r * ah.tap_step, ah.divisor);
      for (int s = 0; s < aw.taps; ++s) {
        TapMove<kExact> const mw = TapMove<kExact>::of(s * aw.tap_step, aw.divisor);
        int const move = (mh.quotient * aw.halo + mw.quotient) * kVectors;
        Vector const wv = arch::lds_load(taps + (r * aw.taps + s) * kVectors + v);
        float w[AccessElements];
        HIPTILE_UNROLL
        for (int e = 0; e < AccessElements; ++e) w[e] = arch::to_float(wv[e]);
        HIPTILE_UNROLL
        for (int i = 0; i < kPixelsPerThread; ++i) {
          int index = at[i].offset + move;
          if constexpr (kExact) {
            if (at[i].remainder_h != mh.remainder || at[i].remainder_w != mw.remainder) index = zero;
          }
          Vector const xv = arch::lds_load(halo + index);
          HIPTILE_UNROLL
          for (int e = 0; e < AccessElements; ++e) acc[i][e] += arch::to_float(xv[e]) * w[e];
        }
      }
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    GatherAxis const& ad = p.axis[0];
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    // Workgroup: x = ((image · output depth + z) · tiles_h + tile row) · tiles_w + tile column;
    // y = channel block.
    int rest = int(block_idx_x());
    int const tw = rest % p.tiles_w;
    rest /= p.tiles_w;
    int const th = rest % p.tiles_h;
    rest /= p.tiles_h;
    int const z = rest % ad.output;
    int const image = rest / ad.output;
    int const h0 = th * ah.tile, w0 = tw * aw.tile;
    int const c0 = int(block_idx_y()) * kChannels;
    int const thread = int(thread_idx_x());
    int const v = thread % kVectors;
    int const lane = thread / kVectors;
    int const channel = c0 + v * AccessElements;
    bool const channel_in = channel < p.channels;  // (C is a multiple of AccessElements)

    Vector* const halo = dynamic_lds_as<Vector>();
    Vector* const taps = halo + ah.halo * aw.halo * kVectors;
    int const origin_h = ah.origin(h0), origin_w = aw.origin(w0);
    int const base_h = ah.base(h0), base_w = aw.base(w0);
    int const tile_pixels = ah.tile * aw.tile;
    int const halo_items = ah.halo * aw.halo * kVectors;
    int const tap_items = ah.taps * aw.taps * kVectors;
    std::int64_t const filter_taps = std::int64_t(ad.taps) * ah.taps * aw.taps;

    if (thread < kVectors) {
      Vector zero;
      zero.fill(Element{});
      arch::lds_store(taps + tap_items + thread, zero);  // (ordered before its reads by the first plane's barrier)
    }
    Array<float, AccessElements> acc[kPixelsPerThread];
    HIPTILE_UNROLL
    for (int i = 0; i < kPixelsPerThread; ++i) acc[i].fill(0.0f);
    // Where each of this thread's positions reads at tap (0, 0) (positions past the tile repeat its
    // last, and are never stored: no branch in the tap loop).
    PixelTaps at[kPixelsPerThread];
    HIPTILE_UNROLL
    for (int i = 0; i < kPixelsPerThread; ++i) {
      int const pixel = lane + i * kPixelLanes;
      auto const [oh, ow] = p.div_tile_w.divmod(pixel < tile_pixels ? pixel : tile_pixels - 1);
      Split const h = Split::of(oh * ah.out_step + base_h, ah.divisor);
      Split const w = Split::of(ow * aw.out_step + base_w, aw.divisor);
      at[i] = {(h.quotient * aw.halo + w.quotient) * kVectors + v, h.remainder, w.remainder};
    }

    for (int t = 0; t < ad.taps; ++t) {
      int const numerator = z * ad.out_step + t * ad.tap_step + ad.offset;
      int const plane = numerator / ad.divisor;
      if (numerator < 0 || numerator % ad.divisor != 0 || plane >= ad.source) continue;  // (uniform)
      barrier();  // the previous plane's reads are done
      // The halo of source plane `plane`, zeros outside the tensor and past C.
      std::int64_t const plane_row = (std::int64_t(image) * ad.source + plane) * ah.source;
      for (int i = thread; i < halo_items; i += kMaxThreadsPerBlock) {
        int const iv = i % kVectors;
        auto const [row, column] = p.div_halo_w.divmod(i / kVectors);
        int const sh = origin_h + row, sw = origin_w + column;
        int const ic = c0 + iv * AccessElements;
        Vector value;
        value.fill(Element{});
        if (sh >= 0 && sh < ah.source && sw >= 0 && sw < aw.source && ic < p.channels) {
          value = arch::global_load(reinterpret_cast<Vector const*>(
              p.source + ((plane_row + sh) * aw.source + sw) * p.channels + ic));
        }
        arch::lds_store(halo + i, value);
      }
      // The plane's taps, channel-innermost: element (r, s) of each channel's filter.
      int const filter_t = p.flip ? ad.taps - 1 - t : t;
      for (int i = thread; i < tap_items; i += kMaxThreadsPerBlock) {
        int const iv = i % kVectors;
        int const rs = i / kVectors;
        int r = rs / aw.taps, s = rs % aw.taps;
        if (p.flip) r = ah.taps - 1 - r, s = aw.taps - 1 - s;
        int const ic = c0 + iv * AccessElements;
        Vector value;
        HIPTILE_UNROLL
        for (int e = 0; e < AccessElements; ++e) {
          std::int64_t const tap = (std::int64_t(filter_t) * ah.taps + r) * aw.taps + s;
          value[e] = ic + e < p.channels ? arch::global_load(p.filter + (ic + e) * filter_taps + tap) : Element{};
        }
        arch::lds_store(taps + i, value);
      }
      barrier();
      // Dgrad's strides: only the taps whose division is exact add (a uniform branch between the two).
      if (ah.divisor == 1 && aw.divisor == 1) {
        accumulate<false>(p, halo, taps, at, acc, v);
      } else {
        accumulate<true>(p, halo, taps, at, acc, v);
      }
    }
    // The epilogue: op(acc, C, bias) per element.
    OutputOp const op = epilogue::functor_on_device<OutputOp>(p.op);
    bool const source_needed = op.is_source_needed();
    float bias[AccessElements];
    HIPTILE_UNROLL
    for (int e = 0; e < AccessElements; ++e) {
      bias[e] = p.bias != nullptr && channel_in ? arch::to_float(arch::global_load(p.bias + channel + e)) : 0.0f;
    }
    HIPTILE_UNROLL
    for (int i = 0; i < kPixelsPerThread; ++i) {
      int const pixel = lane + i * kPixelLanes;
      auto const [oh, ow] = p.div_tile_w.divmod(pixel < tile_pixels ? pixel : 0);
      int const h = h0 + oh, w = w0 + ow;
      if (pixel >= tile_pixels || h >= ah.output || w >= aw.output || !channel_in) continue;
      std::int64_t const position = ((std::int64_t(image) * ad.output + z) * ah.output + h) * aw.output + w;
      std::int64_t const at = position * p.channels + channel;
      OutputVector out;
      HIPTILE_UNROLL
      for (int e = 0; e < AccessElements; ++e) {
        float const source = source_needed ? arch::to_float(arch::global_load(p.c + at + e)) : 0.0f;
        out[e] = epilogue::apply_functor(op, acc[i][e], source, bias[e],
                                         epilogue::ElementContext{int(position), channel + e, 0.0f});
      }
      if (p.vector_output) {
        arch::global_store(reinterpret_cast<OutputVector*>(p.d + at), out);
      } else {
        HIPTILE_UNROLL
        for (int e = 0; e < AccessElements; ++e) arch::global_store(p.d + at + e, out[e]);
      }
    }
    epilogue::finish_wave(op, thread % kWaveSize);
  }
};

}  // namespace hiptile::conv
