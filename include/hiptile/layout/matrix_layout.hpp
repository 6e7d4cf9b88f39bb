#pragma once
// Layout tags of a 2-D matrix: where element (row, column) lives relative to the first one, given
// the leading dimension ld (elements between the starts of consecutive rows for RowMajor, of
// consecutive columns for ColumnMajor; BLAS's lda). Tags are empty types: the layout is a
// template parameter, ld a runtime value carried by TensorRef.
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::layout {

struct RowMajor {
  static constexpr bool kRowMajor = true;

  HIPTILE_HOST_DEVICE static constexpr std::int64_t offset(std::int64_t row, std::int64_t column,
                                                           std::int64_t ld) {
    return row * ld + column;
  }
  // A row must fit between two row starts. At least 1, as BLAS asks, so an empty matrix has a
  // valid ld.
  HIPTILE_HOST_DEVICE static constexpr std::int64_t min_leading_dimension(std::int64_t /*rows*/,
                                                                          std::int64_t columns) {
    return columns > 1 ? columns : 1;
  }
  // Elements from the first to one past the last: the last row ends at its last column, so an
  // allocation of this size has no padding after the matrix.
  HIPTILE_HOST_DEVICE static constexpr std::int64_t storage_size(std::int64_t rows, std::int64_t columns,
                                                                 std::int64_t ld) {
    return rows <= 0 || columns <= 0 ? 0 : (rows - 1) * ld + columns;
  }
};

struct ColumnMajor {
  static constexpr bool kRowMajor = false;

  HIPTILE_HOST_DEVICE static constexpr std::int64_t offset(std::int64_t row, std::int64_t column,
                                                           std::int64_t ld) {
    return column * ld + row;
  }
  HIPTILE_HOST_DEVICE static constexpr std::int64_t min_leading_dimension(std::int64_t rows,
                                                                          std::int64_t /*columns*/) {
    return rows > 1 ? rows : 1;
  }
  HIPTILE_HOST_DEVICE static constexpr std::int64_t storage_size(std::int64_t rows, std::int64_t columns,
                                                                 std::int64_t ld) {
    return rows <= 0 || columns <= 0 ? 0 : (columns - 1) * ld + rows;
  }
};

// A matrix layout: RowMajor, ColumnMajor, or a user type with the same static members.
// (Type traits on decltype rather than std::convertible_to: its std::declval is host-only in
// HIP's device pass.)
template <class L>
concept MatrixLayout =
    std::is_same_v<std::remove_cv_t<decltype(L::kRowMajor)>, bool> &&
    requires(std::int64_t i) {
      { L::offset(i, i, i) } -> std::same_as<std::int64_t>;
      { L::min_leading_dimension(i, i) } -> std::same_as<std::int64_t>;
      { L::storage_size(i, i, i) } -> std::same_as<std::int64_t>;
    };

// The layout of the transpose: a RowMajor M×N matrix is a ColumnMajor N×M one with the same ld.
template <MatrixLayout L>
using Transposed = std::conditional_t<L::kRowMajor, ColumnMajor, RowMajor>;

}  // namespace hiptile::layout
