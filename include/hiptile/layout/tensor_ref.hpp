#pragma once
// TensorRef: a pointer to a matrix's first element and its leading dimension; TensorView adds the
// extent. Both are plain aggregates, trivially copyable, so they pass to kernels by value:
//
//   layout::TensorRef<half_t const, layout::RowMajor> a{ptr, lda};
//   half_t x = a.at(row, column);
#include <cstdint>
#include <type_traits>

#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::layout {

// Element: the stored type, const-qualified for read-only operands. Layout: RowMajor, ColumnMajor.
template <class Element_, MatrixLayout Layout_>
struct TensorRef {
  using Element = Element_;
  using Layout = Layout_;

  Element* data = nullptr;
  std::int64_t ld = 0;

  HIPTILE_HOST_DEVICE constexpr std::int64_t offset(std::int64_t row, std::int64_t column) const {
    return Layout::offset(row, column, ld);
  }
  HIPTILE_HOST_DEVICE constexpr Element* ptr(std::int64_t row, std::int64_t column) const {
    return data + offset(row, column);
  }
  HIPTILE_HOST_DEVICE constexpr Element& at(std::int64_t row, std::int64_t column) const {
    return data[offset(row, column)];
  }

  // A writable ref is also a read-only one. (A template, so that TensorRef<T const> declares no
  // conversion to itself, which nvcc warns about.)
  template <class ConstElement>
    requires(std::is_same_v<ConstElement, Element const> && !std::is_const_v<Element>)
  HIPTILE_HOST_DEVICE constexpr operator TensorRef<ConstElement, Layout>() const {
    return {data, ld};
  }
};

// A TensorRef with its extent: rows × columns elements.
template <class Element_, MatrixLayout Layout_>
struct TensorView {
  using Element = Element_;
  using Layout = Layout_;
  using Ref = TensorRef<Element, Layout>;

  Ref ref;
  std::int64_t rows = 0;
  std::int64_t columns = 0;

  HIPTILE_HOST_DEVICE constexpr bool contains(std::int64_t row, std::int64_t column) const {
    return row >= 0 && row < rows && column >= 0 && column < columns;
  }
  HIPTILE_HOST_DEVICE constexpr Element& at(std::int64_t row, std::int64_t column) const {
    return ref.at(row, column);
  }
  // Elements spanned from the first to one past the last (what an allocation must hold).
  HIPTILE_HOST_DEVICE constexpr std::int64_t storage_size() const {
    return Layout::storage_size(rows, columns, ref.ld);
  }
  // ld is at least the layout's minimum for this extent.
  HIPTILE_HOST_DEVICE constexpr bool has_valid_leading_dimension() const {
    return ref.ld >= Layout::min_leading_dimension(rows, columns);
  }

  template <class ConstElement>
    requires(std::is_same_v<ConstElement, Element const> && !std::is_const_v<Element>)
  HIPTILE_HOST_DEVICE constexpr operator TensorView<ConstElement, Layout>() const {
    return {ref, rows, columns};
  }
};

}  // namespace hiptile::layout
