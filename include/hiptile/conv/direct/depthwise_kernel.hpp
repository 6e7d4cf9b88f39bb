#pragma once
// DepthwiseKernel: Fprop and Dgrad of a depthwise convolution (groups = C = K: every channel
// convolved with its own filter) as a direct convolution.
// (Over 400 lines: one kernel's staging, its window-sliding tap loop and its epilogue share the
// thread's run and channel vector; apart they would pass them all along.)
// As an implicit GEMM such a layer has one channel per group: its GEMM-K is the filter's taps and
// its N one column, so an MMA tile would be almost all padding. Here nothing is a GEMM; the layer
// is memory-bound, and the kernel reads each source element about once from memory:
//
//   a workgroup: one image's output plane z, a tile of tile_h x tile_w output positions
//     (at most kMaxPixels), kChannels channels;
//   for each filter plane t whose source plane exists: its halo (the source positions the tile
//     reads; zeros outside the tensor), as Staged elements, and the plane's filter taps, in fp32,
//     go to LDS, then every thread sums, for its channel vector and its output positions, tap x
//     source in fp32;
//   the output functor per element (bias per channel, C), 16-byte stores where aligned.
//
// Threads: kChannels / AccessElements channel vectors x kPixelLanes runs of kRun consecutive output
// positions; thread (lane, v) owns positions lane·kRun ... lane·kRun + kRun − 1 of the tile (row
// major) for channels c0 + v·AccessElements. A quarter-wave's LDS reads are then one position's
// 64 channels, contiguous 16-byte parts. Where a run lies in one tile row and the width axis has
// unit steps (Fprop: stride and dilation 1; Dgrad: dilation 1, stride 1), the run's sources for a
// filter row slide by one position per tap: each thread converts kRun + S − 1 sources for its
// kRun·S products (the window), where every other layer reads one source per product.
//
// Staged: the halo's type in LDS (DepthwiseWorkgroup). Element keeps the LDS small (gfx9: two workgroups
// a CU); float converts each source once, as it is staged, so the tap loop is loads and FMAs only.
//
// The source and the output are NDHWC (C channels), the filter C x T x R x S (one channel a group).
// Fprop: source x, output y. Dgrad: source dy, output dx (gather_axis.hpp has the positions).
// Peers with the same idea: CUTLASS's direct depthwise convolution (conv/kernel/direct_convolution.h,
// its example 46), which stages the activation's halo and the filter per thread block.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/float_convert.hpp"
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/conv/direct/gather_axis.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/opaque_value.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

namespace hiptile::conv {

// A depthwise workgroup's shape: the output positions it covers at most (with 256 threads and 64
// channels, Positions / 32 · 8 / AccessElements a thread), the halo loads a thread issues before it
// stores one (held in registers), whether the halo is staged in fp32 (each source converted once)
// rather than as the element (half the LDS), and how the halo reaches LDS: HaloCopy void through
// registers, else a copy straight to LDS (conv/direct/nvidia/async_halo_copy.hpp: cp.async, every
// copy of a halo in flight at once, zeros filled by the copy; the element staged, in whole 16-byte
// vectors). Of the register-staged shapes, 128 positions with one load in flight was the fastest
// on the H100's depthwise layers (docs/performance.md): more loads in flight, fp32 staging and 32
// or 64 positions were all slower there (registers, and fewer workgroups an SM). Channels: the
// channels a workgroup covers (64, or 32: half the LDS a position takes, so that a larger filter's
// tile still fills the workgroup's positions where LDS is small).
template <int Positions = 128, int LoadsInFlight = 1, bool StageFp32 = false, class HaloCopy_ = void,
          int Channels = 64>
struct DepthwiseWorkgroup {
  static constexpr int kPositions = Positions;
  static constexpr int kChannels = Channels;
  static constexpr int kLoadsInFlight = LoadsInFlight;
  static constexpr bool kStageFp32 = StageFp32;
  using HaloCopy = HaloCopy_;
};

// DepthwiseConvolution's workgroup for an architecture family (arch/arch_tags.hpp) and operator;
// the NVIDIA family's is in conv/direct/nvidia/async_halo_copy.hpp.
template <class Family, ConvOperator Op = ConvOperator::kFprop>
struct DefaultDepthwiseWorkgroup {
  using type = DepthwiseWorkgroup<>;
};
// gfx9: 4 halo loads a thread in flight, the counterpart of NVIDIA's copies straight to LDS. With
// the tap loop unrolled for 3, 5 and 7 taps wide, clang 22 gives the gfx942 Fprop kernel 229 VGPRs
// for one load in flight, 243 for 4 and 256 and 2 AGPRs for 8 (one wave a SIMD): 4 keeps the 2
// waves a SIMD that a tile's LDS allows. Fprop and Dgrad cover 256 positions of 32 channels (the
// same 4 positions of 8 channels a thread): a position's halo and taps take half the LDS, so the 32
// KiB a workgroup may take hold tiles that fill it — on a 7x7 filter 6x28 positions where 64
// channels fit only 7x4, 28 of 128 (the MI300X timing model: 34 µs against 80 on ConvNeXt's 7x7,
// 44 against 50 on a 3x3; docs/timing_model.md, "Direct convolutions"). Predictions, not measured
// on an MI300.
template <ConvOperator Op>
struct DefaultDepthwiseWorkgroup<arch::Gfx9Family, Op> {
  using type = std::conditional_t<Op == ConvOperator::kWgrad, DepthwiseWorkgroup<128, 4>,
                                  DepthwiseWorkgroup<256, 4, false, void, 32>>;
};

// The output tiles of a launch, image-major, then output plane, tile row, tile column: the
// divisors that place a tile (DepthwiseKernel::place()), set on the host (make()).
struct TileGrid {
  FastDivmod tiles_w;  // tiles along the width
  FastDivmod tiles_h;  // tile rows of an output plane
  FastDivmod planes;   // output planes of an image (depth)

  static Status make(GatherAxis const (&axis)[3], TileGrid& grid) noexcept {
    Status s = FastDivmod::make(ceil_div(axis[2].output, axis[2].tile), grid.tiles_w);
    if (ok(s)) s = FastDivmod::make(ceil_div(axis[1].output, axis[1].tile), grid.tiles_h);
    if (ok(s)) s = FastDivmod::make(axis[0].output, grid.planes);
    return s;
  }
};

// A DepthwiseKernel's parameters, the same for each of its tap loops (kWindowWidth).
template <class Element, class ElementC, class OutputOp>
struct DepthwiseParams {
  Element const* source = nullptr;  // x (Fprop) or dy (Dgrad)
  Element const* filter = nullptr;  // C x T x R x S
  ElementC const* c = nullptr;      // shaped like the output; read when the functor needs it
  ElementC* d = nullptr;            // y (Fprop) or dx (Dgrad)
  ElementC const* bias = nullptr;   // one per channel, or none
  typename OutputOp::Params op{};
  int images = 1;
  int channels = 1;
  GatherAxis axis[3];       // depth (a tile of one plane), height, width
  TileGrid grid;
  bool flip = false;           // ConvMode::kConvolution: tap f multiplies filter element F − 1 − f
  bool window = false;         // window_fits(): the tap loop slides a window along the width
  bool vector_output = false;  // c and d aligned to whole output vectors
  FastDivmod div_tile_w;    // output positions: row, column of the tile
  FastDivmod div_halo_w;    // halo positions: row, column
  FastDivmod div_plane_taps;  // a filter plane's taps, R·S: a tap item's channel, tap
};

// WindowWidth: 0 for the kernel that takes every layer (its tap loop chosen at run time: the
// window over any width, the plain loop or Dgrad's exact divisions), or 3, 5 or 7 for a kernel whose
// only tap loop is the window unrolled for filters that wide (MobileNet's, EfficientNet's and
// ConvNeXt's), launched where window_fits() and S is that width. Apart, each kernel's registers
// are its own loop's: one kernel with all four took the largest unrolled window's registers
// everywhere, its scalars spilled into vector lanes and its sums moved between the loops' registers.
template <class Element, class ElementC, class OutputOp, int AccessElements, std::size_t LdsBytes,
          class Workgroup = DepthwiseWorkgroup<>, int WindowWidth = 0>
  requires(WindowWidth == 0 || WindowWidth == 3 || WindowWidth == 5 || WindowWidth == 7)
struct DepthwiseKernel {
  static constexpr int kMaxThreadsPerBlock = 256;
  static constexpr int kWindowWidth = WindowWidth;
  static constexpr std::size_t kLdsBytes = LdsBytes;  // the most a launch takes (its tile decides)
  static constexpr int kChannels = Workgroup::kChannels;  // channels a workgroup covers
  static constexpr int kVectors = kChannels / AccessElements;
  static constexpr int kPixelLanes = kMaxThreadsPerBlock / kVectors;
  static constexpr int kMaxPixels = Workgroup::kPositions;  // output positions a workgroup covers, at most
  static constexpr int kRun = kMaxPixels / kPixelLanes;  // consecutive output positions a thread owns
  static constexpr int kLoadsInFlight = Workgroup::kLoadsInFlight;
  using Staged = std::conditional_t<Workgroup::kStageFp32, float, Element>;
  static_assert(kChannels % AccessElements == 0 && kMaxThreadsPerBlock % kVectors == 0 &&
                kMaxPixels % kPixelLanes == 0);
  using Vector = Array<Element, AccessElements>;
  using OutputVector = Array<ElementC, AccessElements>;
  // The halo in LDS: each position's channel vectors as 16-byte parts, part-major, so that the
  // threads of one position read contiguous bytes.
  static constexpr int kPartElements = AccessElements * int(sizeof(Staged)) > 16 ? 16 / int(sizeof(Staged))
                                                                                  : AccessElements;
  static constexpr int kParts = AccessElements / kPartElements;
  using Part = Array<Staged, kPartElements>;
  static constexpr int kPositionBytes = kParts * kVectors * int(sizeof(Part));
  using Sums = Array<float, AccessElements>;
  // The filter taps in LDS, in fp32 (each converted once, as it is staged: the tap loop reads two
  // 16-byte parts where it read one and converted 8 elements), as 16-byte parts, part-major.
  static constexpr int kTapPartElements = AccessElements < 4 ? AccessElements : 4;
  static constexpr int kTapParts = AccessElements / kTapPartElements;
  using TapPart = Array<float, kTapPartElements>;
  using HaloCopy = typename Workgroup::HaloCopy;
  static constexpr bool kStraightToLds = !std::is_void_v<HaloCopy>;
  static_assert(!kStraightToLds || (std::is_same_v<Staged, Element> && sizeof(Vector) == 16),
                "DepthwiseWorkgroup: a HaloCopy stages the element itself, in whole 16-byte vectors");

  using Params = DepthwiseParams<Element, ElementC, OutputOp>;

  // LDS a launch with these axes takes: the halo of one source plane and a position of zeros (what
  // a tap reads where its division is not exact), then the filter taps of one plane (fp32).
  static constexpr std::int64_t lds_bytes(GatherAxis const& h, GatherAxis const& w) noexcept {
    return (std::int64_t(h.halo) * w.halo + 1) * kPositionBytes +
           std::int64_t(h.taps) * w.taps * kVectors * std::int64_t(sizeof(Sums));
  }
  // Whether the window applies: unit steps along the width with no division, and whole runs in a
  // tile row.
  static constexpr bool window_fits(GatherAxis const& h, GatherAxis const& w) noexcept {
    return h.divisor == 1 && w.divisor == 1 && w.out_step == 1 && (w.tap_step == 1 || w.tap_step == -1) &&
           w.tile % kRun == 0;
  }
  // The width of the kernel unrolled for this layer's window (kWindowWidth), or 0: the kernel for
  // any filter.
  static constexpr int unrolled_width(GatherAxis const& h, GatherAxis const& w) noexcept {
    return window_fits(h, w) && (w.taps == 3 || w.taps == 5 || w.taps == 7) ? w.taps : 0;
  }

  // Where output tile `tile` lies: its image, output plane and first row and column (place()).
  struct Place {
    int image, z, h0, w0;
  };
  HIPTILE_DEVICE HIPTILE_INLINE static Place place(int tile, TileGrid const& grid, GatherAxis const (&axis)[3]) {
    auto const [rows, tw] = grid.tiles_w.divmod(tile);
    auto const [planes, th] = grid.tiles_h.divmod(rows);
    auto const [image, z] = grid.planes.divmod(planes);
    return {image, z, th * axis[1].tile, tw * axis[2].tile};
  }

  // A numerator n > −divisor as divisor · quotient + remainder, remainder in [0, divisor). (A
  // divisor of 1, every Fprop's, divides nothing: integer division is a long sequence on GPUs.)
  struct Split {
    int quotient, remainder;
    HIPTILE_DEVICE HIPTILE_INLINE static Split of(int n, int divisor) {
      if (divisor == 1) return {n, 0};
      int const q = n >= 0 ? n / divisor : -1;
      return {q, n - q * divisor};
    }
  };
  // One output position: its halo position at tap 0 of each axis, and its numerators' remainders
  // (Dgrad's strides: tap (r, s) reads it only where they are the tap's).
  struct PixelTaps {
    int position, remainder_h, remainder_w;
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

  // The positions of a rectangle one thread stages, in order: every kStep-th from thread / kVectors,
  // for the thread's channel vector. A step moves the same rows and columns each time (one row
  // more where the column wraps), so each position's row, column and tensor offset are sums: no
  // division and no 64-bit product per load.
  struct RectangleWalk {
    static constexpr int kStep = kMaxThreadsPerBlock / kVectors;
    int position, h, column;     // in the rectangle; h: the tensor row, row0 + the rectangle's row
    int rows, columns, width;    // a step's rows and columns; the rectangle's width
    std::int64_t offset;         // of (h, column0 + column, the channel vector) in the tensor
    std::int64_t move, wrapped;  // what a step adds to offset: without, with the wrap

    HIPTILE_DEVICE HIPTILE_INLINE RectangleWalk(std::int64_t plane_row, int tensor_width, int channels, int row0,
                                                int column0, FastDivmod const& rectangle_columns, int channel,
                                                int thread) {
      auto const [first_row, first_column] = rectangle_columns.divmod(thread / kVectors);
      auto const [step_rows, step_columns] = rectangle_columns.divmod(kStep);
      position = thread / kVectors, h = row0 + first_row, column = first_column;
      rows = step_rows, columns = step_columns, width = rectangle_columns.divisor();
      offset = ((plane_row + h) * tensor_width + column0 + column) * channels + channel;
      move = opaque_uniform((std::int64_t(rows) * tensor_width + columns) * channels);
      wrapped = opaque_uniform(move + std::int64_t(tensor_width - width) * channels);
    }
    HIPTILE_DEVICE HIPTILE_INLINE void advance() {
      position += kStep, h += rows, column += columns;
      bool const wrap = column >= width;
      if (wrap) column -= width, ++h;
      offset += wrap ? wrapped : move;
    }
  };

  // A rectangle of one plane of an NDHWC tensor (`height` x `width` positions from row plane_row of
  // its rows, C channels) to LDS: `positions` positions from (row0, column0), `columns` wide, the
  // workgroup's channels from c0, as Parts, zeros outside the tensor and past C; kLoadsInFlight
  // loads a thread before it stores them, or (kStraightToLds) copies that commit_staged() makes a
  // group of and wait_staged() completes.
  HIPTILE_DEVICE HIPTILE_INLINE static void stage_rectangle(Element const* tensor, int channels, std::int64_t plane_row,
                                                            int height, int width, int row0, int column0, int positions,
                                                            FastDivmod const& columns, int c0, int thread, Part* dst) {
    int const v = thread % kVectors;
    int const channel = c0 + v * AccessElements;
    bool const channel_in = channel < channels;
    RectangleWalk at(plane_row, width, channels, row0, column0, columns, channel, thread);
    // (One predicate, no short circuit: one branch or select a load.)
    auto const inside = [&] {
      return channel_in & (unsigned(at.h) < unsigned(height)) & (unsigned(column0 + at.column) < unsigned(width));
    };
    if constexpr (kStraightToLds) {
      for (; at.position < positions; at.advance()) {
        bool const in = inside();
        Element const* const src = in ? tensor + at.offset : tensor;
        HaloCopy::copy(reinterpret_cast<Vector*>(dst + at.position * kVectors + v), reinterpret_cast<Vector const*>(src),
                       in ? 16 : 0);
      }
    } else {
      while (at.position < positions) {
        int const first = at.position;
        Vector value[kLoadsInFlight];
        HIPTILE_UNROLL
        for (int j = 0; j < kLoadsInFlight; ++j, at.advance()) {
          // (Every load issued, from the tensor's first vector outside it: no branch, so that the
          // loads are in flight together.)
          bool const in = (at.position < positions) & inside();
          Vector const x = arch::global_load(reinterpret_cast<Vector const*>(in ? tensor + at.offset : tensor));
          HIPTILE_UNROLL
          for (int e = 0; e < AccessElements; ++e) value[j][e] = in ? x[e] : Element{};
        }
        HIPTILE_UNROLL
        for (int j = 0; j < kLoadsInFlight; ++j) {
          int const position = first + j * RectangleWalk::kStep;
          if (position >= positions) break;
          HIPTILE_UNROLL
          for (int h = 0; h < kParts; ++h) {
            Part part;
            HIPTILE_UNROLL
            for (int e = 0; e < kPartElements; ++e) part[e] = stage(value[j][h * kPartElements + e]);
            arch::lds_store(dst + (position * kParts + h) * kVectors + v, part);
          }
        }
      }
    }
  }

  // The filter taps of plane filter_t (flipped in ConvMode::kConvolution) to LDS in fp32, as
  // read_tap reads them, zeros past C: a thread's loads run over (channel, tap) with the taps
  // innermost, so that neighbouring lanes read neighbouring elements of one channel's filter (C x T
  // x R x S: a plane's R·S taps are contiguous); kLoadsInFlight loads before they are stored.
  HIPTILE_DEVICE HIPTILE_INLINE static void stage_taps(Params const& p, int filter_t, int c0, int thread,
                                                       TapPart* taps) {
    int const plane_taps = p.div_plane_taps.divisor();
    int const items = kChannels * plane_taps;
    std::int64_t const filter_taps = std::int64_t(p.axis[0].taps) * plane_taps;
    float* const out = reinterpret_cast<float*>(taps);
    for (int first = thread; first < items; first += kLoadsInFlight * kMaxThreadsPerBlock) {
      float value[kLoadsInFlight];
      int at[kLoadsInFlight];
      HIPTILE_UNROLL
      for (int j = 0; j < kLoadsInFlight; ++j) {
        int const i = first + j * kMaxThreadsPerBlock;
        auto const [channel, rs] = p.div_plane_taps.divmod(i < items ? i : 0);
        unsigned const cc = unsigned(channel);  // (unsigned: its parts below are shifts and masks)
        // (cc's tap part, element of it and vector: read_tap's layout)
        at[j] = int(((unsigned(rs) * kTapParts + cc % AccessElements / kTapPartElements) * kVectors +
                     cc / AccessElements) * kTapPartElements + cc % kTapPartElements);
        int const tap = filter_t * plane_taps + (p.flip ? plane_taps - 1 - rs : rs);
        // (Every load issued, from the filter's first element where there is no tap: no branch, so
        // that the loads are in flight together.)
        bool const in = i < items && c0 + channel < p.channels;
        float const x = arch::to_float(arch::global_load(in ? p.filter + (c0 + channel) * filter_taps + tap : p.filter));
        value[j] = in ? x : 0.0f;
      }
      HIPTILE_UNROLL
      for (int j = 0; j < kLoadsInFlight; ++j) {
        if (first + j * kMaxThreadsPerBlock >= items) break;
        arch::lds_store(out + at[j], value[j]);
      }
    }
  }

  // After the stage_rectangle calls of one step: their copies are a group (kStraightToLds).
  HIPTILE_DEVICE HIPTILE_INLINE static void commit_staged() {
    if constexpr (kStraightToLds) HaloCopy::commit();
  }
  // Before the barrier after stage_rectangle: this thread's copies have landed (kStraightToLds),
  // all but those of its last kPending groups.
  template <int kPending = 0>
  HIPTILE_DEVICE HIPTILE_INLINE static void wait_staged() {
    if constexpr (kStraightToLds) HaloCopy::template wait<kPending>();
  }

  // Halo position `position`'s channels of vector v, in fp32.
  HIPTILE_DEVICE HIPTILE_INLINE static void read_source(Part const* halo, int position, int v, float (&x)[AccessElements]) {
    HIPTILE_UNROLL
    for (int h = 0; h < kParts; ++h) {
      Part const part = arch::lds_load(halo + (position * kParts + h) * kVectors + v);
      HIPTILE_UNROLL
      for (int e = 0; e < kPartElements; ++e) x[h * kPartElements + e] = arch::to_float(part[e]);
    }
  }
  // Filter tap (r, s) of the plane's, for vector v.
  HIPTILE_DEVICE HIPTILE_INLINE static void read_tap(TapPart const* taps, int tap, int v, float (&w)[AccessElements]) {
    HIPTILE_UNROLL
    for (int h = 0; h < kTapParts; ++h) {
      TapPart const part = arch::lds_load(taps + (tap * kTapParts + h) * kVectors + v);
      HIPTILE_UNROLL
      for (int e = 0; e < kTapPartElements; ++e) w[h * kTapPartElements + e] = part[e];
    }
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void multiply_add(Sums& acc, float const (&x)[AccessElements],
                                                         float const (&w)[AccessElements]) {
    HIPTILE_UNROLL
    for (int e = 0; e < AccessElements; ++e) acc[e] += x[e] * w[e];
  }

  // acc += tap x source over one plane's taps, a source read per product. A tap that does not
  // divide a position exactly reads the zero position past the halo instead (a select, no branch).
  template <bool kExact>
  HIPTILE_DEVICE HIPTILE_INLINE static void accumulate(Params const& p, Part const* halo, TapPart const* taps,
                                                       PixelTaps const (&at)[kRun], Sums (&acc)[kRun], int v) {
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    int const zero = ah.halo * aw.halo;
    for (int r = 0; r < ah.taps; ++r) {
      TapMove<kExact> const mh = TapMove<kExact>::of(r * ah.tap_step, ah.divisor);
      for (int s = 0; s < aw.taps; ++s) {
        TapMove<kExact> const mw = TapMove<kExact>::of(s * aw.tap_step, aw.divisor);
        int const move = mh.quotient * aw.halo + mw.quotient;
        float w[AccessElements];
        read_tap(taps, r * aw.taps + s, v, w);
        HIPTILE_UNROLL
        for (int i = 0; i < kRun; ++i) {
          int position = at[i].position + move;
          if constexpr (kExact) {
            if (at[i].remainder_h != mh.remainder || at[i].remainder_w != mw.remainder) position = zero;
          }
          float x[AccessElements];
          read_source(halo, position, v, x);
          multiply_add(acc[i], x, w);
        }
      }
    }
  }

  // The same where window_fits(): for each filter row, the run's sources slide along the width by
  // one position per tap (Fprop's taps in order; Dgrad's, whose tap step is −1, backwards), so the
  // window of kRun converted sources moves by one read per tap. kWidth: the filter's width where
  // the loop over it is unrolled (its window's moves then register renames), else 0.
  template <int kWidth>
  HIPTILE_DEVICE HIPTILE_INLINE static void accumulate_window(Params const& p, Part const* halo, TapPart const* taps,
                                                              PixelTaps const (&at)[kRun], Sums (&acc)[kRun], int v) {
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    int const width = kWidth > 0 ? kWidth : aw.taps;
    bool const backwards = aw.tap_step < 0;
    for (int r = 0; r < ah.taps; ++r) {
      // The run's first position at the row's first tap in window order.
      int const first = at[0].position + r * ah.tap_step * aw.halo + (backwards ? -(width - 1) : 0);
      float window[kRun][AccessElements];
      HIPTILE_UNROLL
      for (int i = 0; i < kRun; ++i) read_source(halo, first + i, v, window[i]);
      HIPTILE_UNROLL
      for (int k = 0; k < (kWidth > 0 ? kWidth : width); ++k) {
        float w[AccessElements];
        read_tap(taps, r * width + (backwards ? width - 1 - k : k), v, w);
        HIPTILE_UNROLL
        for (int i = 0; i < kRun; ++i) multiply_add(acc[i], window[i], w);
        if (k + 1 == width) break;
        HIPTILE_UNROLL
        for (int i = 0; i + 1 < kRun; ++i) {
          HIPTILE_UNROLL
          for (int e = 0; e < AccessElements; ++e) window[i][e] = window[i + 1][e];
        }
        read_source(halo, first + k + kRun, v, window[kRun - 1]);
      }
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    GatherAxis const& ad = p.axis[0];
    GatherAxis const& ah = p.axis[1];
    GatherAxis const& aw = p.axis[2];
    // Workgroup: x = the output tile (place()), y = the channel block.
    auto const [image, z, h0, w0] = place(int(block_idx_x()), p.grid, p.axis);
    int const c0 = int(block_idx_y()) * kChannels;
    int const thread = int(thread_idx_x());
    int const v = thread % kVectors;
    int const lane = thread / kVectors;
    int const channel = c0 + v * AccessElements;
    bool const channel_in = channel < p.channels;  // (C is a multiple of AccessElements)

    int const halo_positions = ah.halo * aw.halo;
    Part* const halo = dynamic_lds_as<Part>();
    TapPart* const taps = reinterpret_cast<TapPart*>(dynamic_lds() + (halo_positions + 1) * kPositionBytes);
    int const origin_h = ah.origin(h0), origin_w = aw.origin(w0);
    int const base_h = ah.base(h0), base_w = aw.base(w0);
    int const tile_pixels = ah.tile * aw.tile;

    if (thread < kParts * kVectors) {  // the zero position
      Part zero;
      zero.fill(Staged{});
      arch::lds_store(halo + halo_positions * kParts * kVectors + thread, zero);  // (before the first plane's barrier)
    }
    Sums acc[kRun];
    HIPTILE_UNROLL
    for (int i = 0; i < kRun; ++i) acc[i].fill(0.0f);
    // Where each of this thread's positions reads at tap (0, 0). A run past the tile repeats the
    // first (a partial run its last position), never stored: no branch in the tap loop, and the
    // window's reads stay in the halo.
    PixelTaps at[kRun];
    int const run = lane * kRun < tile_pixels ? lane * kRun : 0;
    HIPTILE_UNROLL
    for (int i = 0; i < kRun; ++i) {
      int const pixel = run + i;
      auto const [oh, ow] = p.div_tile_w.divmod(pixel < tile_pixels ? pixel : tile_pixels - 1);
      Split const h = Split::of(oh * ah.out_step + base_h, ah.divisor);
      Split const w = Split::of(ow * aw.out_step + base_w, aw.divisor);
      at[i] = {h.quotient * aw.halo + w.quotient, h.remainder, w.remainder};
    }

    for (int t = 0; t < ad.taps; ++t) {
      Split const plane_split = Split::of(z * ad.out_step + t * ad.tap_step + ad.offset, ad.divisor);
      int const plane = plane_split.quotient;
      if (plane < 0 || plane_split.remainder != 0 || plane >= ad.source) continue;  // (uniform)
      barrier();  // the previous plane's reads are done
      // The halo of source plane `plane`, zeros outside the tensor and past C.
      std::int64_t const plane_row = (std::int64_t(image) * ad.source + plane) * ah.source;
      stage_rectangle(p.source, p.channels, plane_row, ah.source, aw.source, origin_h, origin_w, halo_positions,
                      p.div_halo_w, c0, thread, halo);
      stage_taps(p, p.flip ? ad.taps - 1 - t : t, c0, thread, taps);
      commit_staged();
      wait_staged();
      barrier();
      if constexpr (kWindowWidth > 0) {
        accumulate_window<kWindowWidth>(p, halo, taps, at, acc, v);
      } else if (p.window) {  // (uniform: the window, the plain loop, or Dgrad's strides' exact divisions)
        accumulate_window<0>(p, halo, taps, at, acc, v);
      } else if (ah.divisor == 1 && aw.divisor == 1) {
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
    // The run's positions follow its first along the tile's rows: each one's row, column and
    // offsets are the previous one's plus a step (one row more where the column wraps).
    int const first = lane * kRun;
    auto [oh, ow] = p.div_tile_w.divmod(first < tile_pixels ? first : 0);
    std::int64_t position = ((std::int64_t(image) * ad.output + z) * ah.output + h0 + oh) * aw.output + w0 + ow;
    std::int64_t offset = position * p.channels + channel;
    int const wrap = aw.output - aw.tile + 1;  // the next row's first position after a row's last
    std::int64_t const wrap_elements = std::int64_t(wrap) * p.channels;
    HIPTILE_UNROLL
    for (int i = 0; i < kRun; ++i) {
      if (i > 0) {
        bool const wraps = ++ow == aw.tile;
        if (wraps) ow = 0, ++oh;
        position += wraps ? wrap : 1;
        offset += wraps ? wrap_elements : p.channels;
      }
      if (first + i >= tile_pixels || h0 + oh >= ah.output || w0 + ow >= aw.output || !channel_in) continue;
      // (The functor with C and without it apart: with one path through both, the compiler split
      // the output vector's store into three.)
      auto const store = [&](OutputVector const& source) {
        OutputVector out;
        HIPTILE_UNROLL
        for (int e = 0; e < AccessElements; ++e) {
          out[e] = epilogue::apply_functor(op, acc[i][e], arch::to_float(source[e]), bias[e],
                                           epilogue::ElementContext{int(position), channel + e, 0.0f});
        }
        if (p.vector_output) {
          arch::global_store(reinterpret_cast<OutputVector*>(p.d + offset), out);
        } else {
          HIPTILE_UNROLL
          for (int e = 0; e < AccessElements; ++e) arch::global_store(p.d + offset + e, out[e]);
        }
      };
      if (!source_needed) {  // (uniform)
        OutputVector zero;
        zero.fill(ElementC{});
        store(zero);
      } else if (p.vector_output) {
        store(arch::global_load(reinterpret_cast<OutputVector const*>(p.c + offset)));
      } else {
        OutputVector source;
        HIPTILE_UNROLL
        for (int e = 0; e < AccessElements; ++e) source[e] = arch::global_load(p.c + offset + e);
        store(source);
      }
    }
    epilogue::finish_wave(op, thread % kWaveSize);
  }

  HIPTILE_DEVICE HIPTILE_INLINE static Staged stage(Element x) {
    if constexpr (std::is_same_v<Staged, Element>) {
      return x;
    } else {
      return arch::to_float(x);
    }
  }
};

}  // namespace hiptile::conv
