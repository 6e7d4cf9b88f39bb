#pragma once
// MatrixOutput: the matrix model of OutputMapping (output_mapping.hpp). GEMM coordinate (m, n) is
// element (m, n) of an extent_m × extent_n matrix D in LayoutC (and of C, with its own ld).
#include <cstdint>

#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

template <class ElementC, layout::MatrixLayout LayoutC>
struct MatrixOutput {
  using Element = ElementC;
  static constexpr bool kContiguousColumns = LayoutC::kRowMajor;

  struct Params {
    ElementC const* c = nullptr;  // read only when the output functor needs its source
    std::int64_t ldc = 0;
    ElementC* d = nullptr;
    std::int64_t ldd = 0;
    int extent_m = 0;
    int extent_n = 0;
    // A batched launch (a strided batched GEMM, a convolution's groups): elements between
    // consecutive batches' matrices of D, between their bias vectors, and between their matrices
    // of C (0 broadcasts one C to every batch).
    std::int64_t batch_stride = 0;
    std::int64_t bias_batch_stride = 0;
    std::int64_t c_batch_stride = 0;
  };

  // Row m, and the offset of its column 0 in D. C's offset is formed only when C is read: its
  // leading dimension is not checked when it is not (beta = 0), so it may be any value.
  struct Row {
    int m;
    std::int64_t d;
  };

  HIPTILE_HOST_DEVICE static Params at_batch(Params p, gemm::NoProblem, int batch) {
    if (p.c != nullptr) p.c += batch * p.c_batch_stride;
    p.d += batch * p.batch_stride;
    return p;
  }
  HIPTILE_HOST_DEVICE static std::int64_t bias_offset(Params const& p, int batch) { return batch * p.bias_batch_stride; }

  HIPTILE_HOST_DEVICE static Row row(Params const& p, int m) { return {m, LayoutC::offset(m, 0, p.ldd)}; }
  HIPTILE_HOST_DEVICE static bool exists(Params const& p, Row const& row, int n) {
    return row.m < p.extent_m && n < p.extent_n;
  }
  HIPTILE_HOST_DEVICE static ElementC* d(Params const& p, Row const& row, int n) {
    return p.d + (row.d + LayoutC::offset(0, n, p.ldd));
  }
  HIPTILE_HOST_DEVICE static ElementC const* c(Params const& p, Row const& row, int n) {
    return p.c + LayoutC::offset(row.m, n, p.ldc);
  }
  HIPTILE_HOST_DEVICE static bool contains(Params const& p, int m0, int n0, int rows, int columns) {
    return m0 + rows <= p.extent_m && n0 + columns <= p.extent_n;
  }
  HIPTILE_HOST_DEVICE static bool rows_aligned(Params const& p, int bytes) {
    return reinterpret_cast<std::uintptr_t>(p.d) % bytes == 0 && (p.ldd * std::int64_t(sizeof(ElementC))) % bytes == 0;
  }
};

}  // namespace hiptile::epilogue
