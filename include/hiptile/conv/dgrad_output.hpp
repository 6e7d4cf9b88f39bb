#pragma once
// DgradOutput: the OutputMapping (epilogue/output_mapping.hpp) of Dgrad's implicit GEMM. GEMM row m
// of row class `cls` is input pixel (n, d, h, w) with d = first_d + j_d·stride_d (and so on) for
// (n, j_d, j_h, j_w) = m split by the class's extents; column n is channel g·C/groups + n of dx
// (and of the source tensor C, shaped like dx). With unit stride the one class is dx in order.
//
// Splitting m divides by the class's rows per image and extents. CUTLASS's strided-dgrad epilogue
// does that with `/` and `%` in both its source load and its store (NVIDIA/cutlass issue 1436);
// here each is a template switch: RowDivision::kFast uses the FastDivmods the host built for the
// class (ConvGeometry::div_class_*), kPlain divides. The load (C's address) and the store (D's)
// choose separately, so a benchmark can compare none, load only, store only and both.
#include <cstdint>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

enum class RowDivision { kPlain, kFast };

template <class ElementC, RowDivision Load = RowDivision::kFast, RowDivision Store = RowDivision::kFast>
struct DgradOutput {
  using Element = ElementC;
  using Problem = ConvGeometry;  // kept once in the kernel's Params (gemm/shared_problem.hpp)
  static constexpr bool kContiguousColumns = true;
  static constexpr bool kDividesRows = true;  // (output_mapping.hpp)

  struct Params {
    ElementC const* c = nullptr;  // the source tensor, N × D × H × W × C like dx
    ElementC* d = nullptr;        // dx
    // Set by at_batch(), once per block, from the kernel's geometry: the few extents the rows
    // need, the block's group and row class, and the class's divisors picked from the geometry's
    // table (so no per-row code indexes that table). (Copied, not pointed to: through a pointer
    // the compiler shared their loads with the loaders' and held them across the K loop, 18 more
    // SGPRs on gfx942.)
    int cg = 0;        // C/groups
    int images = 0;    // N
    int channels = 0;  // C
    int input[3] = {};
    int stride[3] = {};
    int group = 0;
    ConvGeometry::DgradClass cls{};
    FastDivmod div_image, div_hw, div_w;
  };

  // Row m, and its pixel's element offset in D (-1 when m is past the class's rows).
  struct Row {
    int m;
    std::int64_t d;
  };

  // The divisor table is indexed in `g` (the kernel's parameters), not in a copy: a copy indexed
  // at run time would have to live in scratch memory.
  HIPTILE_HOST_DEVICE static Params at_batch(Params const& p, ConvGeometry const& g, int batch) {
    return at_class(p, g, g.group_of(batch), g.class_index_of(batch));
  }
  // The same for group `group`'s row class `cls` (of all classes: TaplessClassFill's blocks).
  HIPTILE_HOST_DEVICE static Params at_class(Params const& p, ConvGeometry const& g, int group, int cls) {
    Params b = p;
    b.cg = g.cg;
    b.images = g.problem.n;
    b.channels = g.problem.c;
    for (int i = 0; i < 3; ++i) {
      b.input[i] = g.problem.input[i];
      b.stride[i] = g.problem.stride[i];
    }
    b.group = group;
    b.cls = g.dgrad_class(cls);
    b.div_image = g.div_class_dhw[b.cls.bits];
    b.div_hw = g.div_class_hw[b.cls.bits & 3];
    b.div_w = g.div_class_w[b.cls.bits & 1];
    return b;
  }
  // The bias is per channel of dx: group g's starts at channel g·C/groups.
  HIPTILE_HOST_DEVICE static std::int64_t bias_offset(Params const& p, int /*batch*/) {
    return std::int64_t(p.group) * p.cg;
  }

  HIPTILE_HOST_DEVICE HIPTILE_INLINE static Row row(Params const& p, int m) { return {m, offset<Store == RowDivision::kFast>(p, m)}; }
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static bool exists(Params const& p, Row const& row, int n) {
    return row.d >= 0 && n < p.cg;
  }
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static ElementC* d(Params const& p, Row const& row, int n) { return p.d + (row.d + n); }
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static ElementC const* c(Params const& p, Row const& row, int n) {
    if constexpr (Load == Store) return p.c + (row.d + n);
    return p.c + (offset<Load == RowDivision::kFast>(p, row.m) + n);
  }
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static bool contains(Params const& p, int m0, int n0, int rows, int columns) {
    return m0 + rows <= p.images * p.cls.per_image && n0 + columns <= p.cg;
  }
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static bool rows_aligned(Params const& p, int bytes) {
    std::int64_t const first = std::int64_t(p.group) * p.cg;
    return reinterpret_cast<std::uintptr_t>(p.d + first) % bytes == 0 &&
           (std::int64_t(p.channels) * std::int64_t(sizeof(ElementC))) % bytes == 0;
  }

 private:
  // The element offset in dx of row m's channel 0 of its group, or -1 past the class's rows.
  template <bool kFast>
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static std::int64_t offset(Params const& p, int m) {
    ConvGeometry::DgradClass const& cls = p.cls;
    if (m >= p.images * cls.per_image) return -1;
    int j[3];
    int n;
    if constexpr (kFast) {
      auto const [image, dhw] = p.div_image.divmod(m);
      auto const [jd, hw] = p.div_hw.divmod(dhw);
      auto const [jh, jw] = p.div_w.divmod(hw);
      n = image;
      j[0] = jd;
      j[1] = jh;
      j[2] = jw;
    } else {
      n = ConvGeometry::dgrad_row_dividing(cls, m, j);
    }
    // The pixel index is an int (can_implement bounds N·D·H·W), and so is every partial sum of it.
    int pixel = n;
    for (int i = 0; i < 3; ++i) pixel = pixel * p.input[i] + cls.dim[i].first + j[i] * p.stride[i];
    return std::int64_t(pixel) * p.channels + std::int64_t(p.group) * p.cg;
  }
};

}  // namespace hiptile::conv
