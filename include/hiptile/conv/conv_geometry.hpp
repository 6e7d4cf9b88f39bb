#pragma once
// ConvGeometry: what every convolution loader and output mapping knows of the problem, built once
// on the host (make()) and passed to the kernel by value: the problem itself, the derived extents,
// and the FastDivmod divisors the precomputed iterators and the dgrad row mapping divide by.
//
// The implicit GEMM's K is ordered channel block outermost, filter tap innermost: K tile kt is
// channel block kt / taps (channels kt / taps · TileK ...) of filter tap kt % taps (taps in
// T, R, S lexicographic order). So each K tile reads one tap of every row, whatever the channel
// count: channels past C/groups (or K/groups for dgrad) read zero, and a tile never straddles two
// taps — the vector loads stay contiguous. (Wgrad's K is output pixels; its taps are in N.)
//
// Launches have one workgroup row (grid y) per batch: batch b is group b / tap_classes, and dgrad
// row class class_index_of(b) (one class but for strided dgrad). Only the classes with filter taps
// are batches of the GEMM: the others (a stride larger than the filter) have no K, and
// TaplessClassFill writes their rows.
//
// Packed groups (IteratorAlgorithm::kPackedGroups): a batch holds `pack` consecutive groups, whose
// channels are contiguous in x, dy, y and dx, so the geometry is that of the problem with
// groups / pack groups — C/groups and K/groups `pack` times the problem's — and only the filter's
// loaders see the packing: its GEMM operand is block-diagonal, element (k, c) of a batch nonzero
// where channel k's and channel c's groups are one (div_group_k, div_group_c: the problem's own
// channels per group).
#include <algorithm>
#include <cstdint>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

// One dimension of a dgrad row class: input positions first, first + stride, ... (count of them)
// take filter taps residue, residue + stride, ... (taps of them); position first + j·stride with
// tap residue + a·stride reads output position base + j − a·dilation.
struct DgradClassDim {
  int first;
  int count;
  int residue;
  int taps;
  int base;
};

struct ConvGeometry {
  static constexpr std::int64_t kMaxBatches = (std::int64_t{1} << 31) - 1;
  ConvProblemSize problem;
  Spatial out;       // Z, P, Q
  int taps = 1;      // T·R·S
  int cg = 1;        // C / groups
  int kg = 1;        // K / groups
  int classes = 1;   // dgrad row classes (stride_d·stride_h·stride_w for strided dgrad, else 1)
  // The row classes with filter taps: those whose residue is below the filter extent in every
  // dimension, a grid of min(stride, filter) residues per dimension (div_tap_residues).
  int tap_classes = 1;
  bool flip = false; // convolution (not cross-correlation): filter tap f reads data tap F − 1 − f
  // Divisors (precomputed iterators, dgrad mapping): output pixels per image (Z·P·Q), P·Q, Q;
  // input pixels per image (D·H·W), H·W, W; taps, R·S, S; C/groups.
  FastDivmod div_zpq, div_pq, div_q, div_dhw, div_hw, div_w, div_taps, div_rs, div_s, div_cg;
  // Dgrad row classes: a class's extent in dimension i is the input extent over the stride rounded
  // up or down (class_dim), so its rows per image (cD·cH·cW), cH·cW and cW take at most 8, 4 and 2
  // values. Their divisors, indexed by which dimensions round up (bit 2: D, bit 1: H, bit 0: W).
  FastDivmod div_class_dhw[8], div_class_hw[4], div_class_w[2];
  // What the kernel needs to find a batch's group and row class without dividing (each workgroup
  // does it in its loaders and output mapping; with `/` and `%` that setup cost a strided Dgrad
  // more than its math, docs/performance.md): batch = group · classes + class, a class index's
  // residues and a class's extents in units of the stride, pad_before mod stride, and the
  // class extents rounded up (ceil(input / stride)).
  FastDivmod div_classes, div_stride[3];
  FastDivmod div_tap_classes, div_tap_residues[3];
  int pad_residue[3] = {0, 0, 0};
  int class_extent_up[3] = {1, 1, 1};
  // Groups packed into a batch, and one group's C and K as the problem has them (cg and kg when
  // pack is 1).
  int pack = 1;
  FastDivmod div_group_c, div_group_k;

  // Host: the geometry of a problem check() accepted; `dgrad` splits the rows into classes (one
  // class with unit stride); `pack` (a divisor of its groups) groups a batch.
  static Status make(ConvProblemSize const& problem, bool dgrad, ConvGeometry& g, int pack = 1) noexcept {
    if (pack < 1 || problem.groups % pack != 0) return Status::kErrorInvalidProblem;
    ConvProblemSize p = problem;
    p.groups /= pack;
    g = ConvGeometry{};
    g.problem = p;
    g.pack = pack;
    if (Status const s = FastDivmod::make(problem.c_per_group(), g.div_group_c); !ok(s)) return s;
    if (Status const s = FastDivmod::make(problem.k_per_group(), g.div_group_k); !ok(s)) return s;
    // A dimension with one filter tap never moves by the dilation: 1 keeps its steps small.
    for (int i = 0; i < 3; ++i) {
      if (p.filter[i] == 1) g.problem.dilation[i] = 1;
    }
    g.out = p.output();
    std::int64_t const taps = std::int64_t(p.filter[0]) * p.filter[1] * p.filter[2];
    if (taps > FastDivmod::kMaxDivisor) return Status::kErrorIndexOverflow;
    g.taps = static_cast<int>(taps);
    g.cg = p.c / p.groups;
    g.kg = p.k / p.groups;
    // Batches (groups × classes) are indexed in int.
    std::int64_t const classes = dgrad ? std::int64_t(p.stride[0]) * p.stride[1] * p.stride[2] : 1;
    if (classes * p.groups > kMaxBatches) return Status::kErrorGridTooLarge;
    g.classes = static_cast<int>(classes);
    // class_dim's divisions by the stride need non-negative dividends: with stride > 1 the
    // dilation is 1 (a dilated strided Dgrad is refused).
    for (int i = 0; i < 3; ++i) {
      if (dgrad && p.stride[i] > 1 && p.dilation[i] > 1) return Status::kErrorDilatedStridedDgrad;
    }
    g.flip = p.mode == ConvMode::kConvolution;
    std::int64_t const divisors[] = {std::int64_t(g.out[0]) * g.out[1] * g.out[2],
                                     std::int64_t(g.out[1]) * g.out[2],
                                     g.out[2],
                                     std::int64_t(p.input[0]) * p.input[1] * p.input[2],
                                     std::int64_t(p.input[1]) * p.input[2],
                                     p.input[2],
                                     g.taps,
                                     std::int64_t(p.filter[1]) * p.filter[2],
                                     p.filter[2],
                                     g.cg};
    FastDivmod* const targets[] = {&g.div_zpq, &g.div_pq, &g.div_q,    &g.div_dhw, &g.div_hw,
                                   &g.div_w,   &g.div_taps, &g.div_rs, &g.div_s, &g.div_cg};
    for (int i = 0; i < 10; ++i) {
      if (Status const s = FastDivmod::make(divisors[i], *targets[i]); !ok(s)) return s;
    }
    std::int64_t extents[3][2];  // [dimension][rounded up]
    for (int i = 0; i < 3; ++i) {
      extents[i][0] = p.input[i] / p.stride[i];
      extents[i][1] = (std::int64_t(p.input[i]) + p.stride[i] - 1) / p.stride[i];
      g.pad_residue[i] = p.pad_before[i] % p.stride[i];
      g.class_extent_up[i] = static_cast<int>(extents[i][1]);
      if (Status const s = FastDivmod::make(p.stride[i], g.div_stride[i]); !ok(s)) return s;
    }
    if (Status const s = FastDivmod::make(classes, g.div_classes); !ok(s)) return s;
    // (A dimension's residues below its filter extent are its classes with taps; with unit stride
    // the one residue, 0.)
    g.tap_classes = 1;
    for (int i = 0; i < 3; ++i) {
      int const tap_residues = dgrad ? std::min(p.stride[i], p.filter[i]) : 1;
      g.tap_classes *= tap_residues;
      if (Status const s = FastDivmod::make(tap_residues, g.div_tap_residues[i]); !ok(s)) return s;
    }
    if (Status const s = FastDivmod::make(g.tap_classes, g.div_tap_classes); !ok(s)) return s;
    // An empty class has no rows to divide: its divisor stays 1.
    auto const make_positive = [](std::int64_t d, FastDivmod& out) {
      return d > 0 ? FastDivmod::make(d, out) : Status::kSuccess;
    };
    for (int bits = 0; bits < 8; ++bits) {
      std::int64_t const w = extents[2][bits & 1];
      std::int64_t const hw = extents[1][(bits >> 1) & 1] * w;
      Status s = make_positive(extents[0][bits >> 2] * hw, g.div_class_dhw[bits]);
      if (ok(s) && bits < 4) s = make_positive(hw, g.div_class_hw[bits]);
      if (ok(s) && bits < 2) s = make_positive(w, g.div_class_w[bits]);
      if (!ok(s)) return s;
    }
    return Status::kSuccess;
  }

  // Host: the elements of one image of x with its padding, and of dy widened by the dilated filter
  // on both sides (less one tap). The loaders' intermediate positions (a row's corner, a tap's step) stay within
  // these, so a reach check on them keeps every intermediate offset an int.
  ByteRange::Int128 padded_activation_image() const {
    ByteRange::Int128 e = problem.c;
    for (int i = 0; i < 3; ++i) e *= std::int64_t(problem.input[i]) + problem.pad_before[i] + problem.pad_after[i];
    return e;
  }
  ByteRange::Int128 padded_gradient_image() const {
    ByteRange::Int128 e = problem.k;
    for (int i = 0; i < 3; ++i) e *= out[i] + 2 * (problem.dilated_filter(i) - 1);
    return e;
  }

  // Output pixels per image (Z·P·Q, a FastDivmod divisor, so an int) and in all (N·Z·P·Q, an int
  // for a problem can_implement accepted); the elements of one image of x and of dy.
  HIPTILE_HOST_DEVICE int output_pixels_per_image() const { return out[0] * out[1] * out[2]; }
  HIPTILE_HOST_DEVICE int output_pixels() const { return problem.n * output_pixels_per_image(); }
  HIPTILE_HOST_DEVICE std::int64_t activation_image() const {
    return std::int64_t(problem.input[0]) * problem.input[1] * problem.input[2] * problem.c;
  }
  HIPTILE_HOST_DEVICE std::int64_t gradient_image() const { return std::int64_t(output_pixels_per_image()) * problem.k; }

  // The pixel of x at position x (D, H, W; possibly outside, for a corner) of image `image`,
  // counted from a base image: ((image·D + x_d)·H + x_h)·W + x_w.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE int activation_pixel(int image, int const (&x)[3]) const {
    return ((image * problem.input[0] + x[0]) * problem.input[1] + x[1]) * problem.input[2] + x[2];
  }

  // The group and the row class (its index among all classes, as class_dim takes it) of GEMM batch
  // `batch` = group · tap_classes + the class's index among the classes with taps.
  HIPTILE_HOST_DEVICE int group_of(int batch) const { return div_tap_classes.div(batch); }

  // One filter of the problem's: its taps · C/groups elements (the group's, not the batch's; in 64
  // bits: the host's reach checks take it before anything bounds it).
  HIPTILE_HOST_DEVICE std::int64_t filter_elements() const { return std::int64_t(taps) * div_group_c.divisor(); }
  // Element (k, c) of filter tap `tap` in a batch's block-diagonal filter (k, c: its output and
  // input channels), from the batch's first filter; -1 off the diagonal blocks.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE int packed_filter_element(int k, int c, int tap) const {
    auto const [group, channel] = div_group_c.divmod(c);
    if (div_group_k.div(k) != group) return -1;
    return (k * taps + tap) * div_group_c.divisor() + channel;
  }
  HIPTILE_HOST_DEVICE int class_index_of(int batch) const {
    if (tap_classes == 1) return 0;  // residues (0, 0, 0)
    auto const [rest, rho_w] = div_tap_residues[2].divmod(div_tap_classes.mod(batch));
    auto const [rho_d, rho_h] = div_tap_residues[1].divmod(rest);
    return (rho_d * problem.stride[1] + rho_h) * problem.stride[2] + rho_w;
  }
  // Whether row class `cls` (of all classes) has filter taps: a batch of the GEMM.
  HIPTILE_HOST_DEVICE bool class_has_taps(int cls) const {
    ClassResidues const rho = class_residues(cls);
    for (int i = 0; i < 3; ++i) {
      if (rho.of[i] >= div_tap_residues[i].divisor()) return false;
    }
    return true;
  }
  // Row class `cls`'s residue in each dimension (cls = (ρd·sh + ρh)·sw + ρw).
  struct ClassResidues {
    int of[3] = {0, 0, 0};
  };
  HIPTILE_HOST_DEVICE HIPTILE_INLINE ClassResidues class_residues(int cls) const {
    if (classes == 1) return {};
    auto const [rest, rho_w] = div_stride[2].divmod(cls);
    auto const [rho_d, rho_h] = div_stride[1].divmod(rest);
    return {{rho_d, rho_h, rho_w}};
  }

  // Filter tap index f in dimension i as read from the data: F − 1 − f in convolution mode.
  HIPTILE_HOST_DEVICE int data_tap(int i, int f) const { return flip ? problem.filter[i] - 1 - f : f; }

  // Dimension i of dgrad row class `cls` (cls = (ρd·sh + ρh)·sw + ρw). With unit stride the one
  // class holds every position and every tap. Every division is by the stride, through div_stride,
  // of a non-negative dividend.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE DgradClassDim class_dim(int cls, int i) const {
    int const residue = class_residues(cls).of[i];
    int const s = problem.stride[i];
    int const extent = problem.input[i];
    int const filter = problem.filter[i];
    // The first position whose (position + pad) is congruent to the residue.
    int const shifted = residue - pad_residue[i];  // in (−s, s)
    int const first = shifted < 0 ? shifted + s : shifted;
    DgradClassDim d;
    d.first = first;
    d.count = first < extent ? div_stride[i].div(extent - 1 - first) + 1 : 0;
    d.residue = residue;
    d.taps = residue < filter ? div_stride[i].div(filter - 1 - residue) + 1 : 0;
    // first + pad − residue·dilation is a non-negative multiple of the stride by the choice of
    // first (the dilation is 1 when the stride is not; with unit stride it is the padding).
    d.base = div_stride[i].div(first + problem.pad_before[i] - residue * problem.dilation[i]);
    return d;
  }

  // Dgrad row class `cls` as a whole: its three dimensions, rows per image, taps, and which of
  // its extents round up (the index of its divisors).
  struct DgradClass {
    DgradClassDim dim[3];
    int per_image;
    int taps;
    int bits;
  };
  HIPTILE_HOST_DEVICE HIPTILE_INLINE DgradClass dgrad_class(int cls) const {
    DgradClass c;
    c.per_image = 1;
    c.taps = 1;
    c.bits = 0;
    for (int i = 0; i < 3; ++i) {
      c.dim[i] = class_dim(cls, i);
      c.per_image *= c.dim[i].count;
      c.taps *= c.dim[i].taps;
      c.bits = 2 * c.bits + (c.dim[i].count == class_extent_up[i] ? 1 : 0);
    }
    return c;
  }

  // Row m of class c (m < N·c.per_image): its image and position index j in each dimension (input
  // position dim[i].first + j[i]·stride[i]), by FastDivmod (kFast) or by `/` and `%`.
  template <bool kFast>
  HIPTILE_HOST_DEVICE HIPTILE_INLINE int dgrad_row(DgradClass const& c, int m, int (&j)[3]) const {
    if constexpr (kFast) {
      auto const [n, dhw] = div_class_dhw[c.bits].divmod(m);
      auto const [jd, hw] = div_class_hw[c.bits & 3].divmod(dhw);
      auto const [jh, jw] = div_class_w[c.bits & 1].divmod(hw);
      j[0] = jd;
      j[1] = jh;
      j[2] = jw;
      return n;
    } else {
      return dgrad_row_dividing(c, m, j);
    }
  }
  // The same with `/` and `%`: the class's extents are all it needs.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static int dgrad_row_dividing(DgradClass const& c, int m, int (&j)[3]) {
    int const w = c.dim[2].count;
    int const hw = c.dim[1].count * w;
    j[2] = m % w;
    j[1] = (m / w) % c.dim[1].count;
    j[0] = (m / hw) % c.dim[0].count;
    return m / c.per_image;
  }
};

}  // namespace hiptile::conv
