#pragma once
// HostMatrix<T, Layout>: a rows × columns matrix in host memory with a leading dimension, for
// tests, examples and benchmarks. Its storage is exactly what the layout and ld span (no padding
// after the last row or column), so a device copy of it is as large as a user's allocation and a
// kernel reading past the matrix is caught (AddressSanitizer in the simulator).
//
// Also the element types the host helpers handle (HostElement) and their exact value as a double.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/layout/tensor_ref.hpp"
#include "hiptile/numeric/conversion.hpp"

namespace hiptile::host {

// Built-in arithmetic types (not bool) and hiptile's floating-point types (half_t, bfloat16_t,
// the fp8 types).
template <class T>
concept HostElement =
    (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) || ConvertibleFloat<T>;

// The element's value: exact for floating-point types (narrow ones widen exactly through float)
// and for integers up to 2^53 in magnitude.
template <HostElement T>
constexpr double to_double(T x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<double>(x);
  } else {
    return static_cast<double>(static_cast<float>(x));
  }
}

// The element nearest to x, for making test data: floating-point types round to nearest even
// (narrow ones through float, which may round twice; harmless for test data); integers round to
// nearest even and saturate at their limits (NaN gives the lowest value).
template <HostElement T>
T from_double(double x) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(x);
  } else if constexpr (std::is_arithmetic_v<T>) {
    // Both limits are powers of two (or one less), so their doubles are exact or round up: any
    // x below hi converts without overflow.
    double const lo = static_cast<double>(std::numeric_limits<T>::lowest());
    double const hi = static_cast<double>(std::numeric_limits<T>::max());
    if (std::isnan(x) || x <= lo) return std::numeric_limits<T>::lowest();
    if (x >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(std::nearbyint(x));
  } else {
    return T(static_cast<float>(x));
  }
}

// T: the element type. Layout: layout::RowMajor or layout::ColumnMajor.
template <HostElement T, layout::MatrixLayout Layout_ = layout::RowMajor>
class HostMatrix {
 public:
  using Element = T;
  using Layout = Layout_;

  HostMatrix() = default;

  // ld = 0 picks the smallest valid leading dimension. Elements start as zero (value
  // initialised), padding between rows (or columns) included; see fill.hpp's poison().
  HostMatrix(std::int64_t rows, std::int64_t columns, std::int64_t ld = 0)
      : rows_(rows), columns_(columns), ld_(ld == 0 ? Layout::min_leading_dimension(rows, columns) : ld) {
    if (rows < 0 || columns < 0) {
      throw std::invalid_argument("hiptile::host::HostMatrix: negative extent " + std::to_string(rows) +
                                  " x " + std::to_string(columns));
    }
    if (ld_ < Layout::min_leading_dimension(rows, columns)) {
      throw std::invalid_argument("hiptile::host::HostMatrix: leading dimension " + std::to_string(ld_) +
                                  " is below the minimum " +
                                  std::to_string(Layout::min_leading_dimension(rows, columns)) + " for " +
                                  std::to_string(rows) + " x " + std::to_string(columns));
    }
    storage_.resize(static_cast<std::size_t>(Layout::storage_size(rows, columns, ld_)));
  }

  std::int64_t rows() const { return rows_; }
  std::int64_t columns() const { return columns_; }
  std::int64_t ld() const { return ld_; }
  // Elements of storage, padding included.
  std::int64_t storage_size() const { return static_cast<std::int64_t>(storage_.size()); }

  bool contains(std::int64_t row, std::int64_t column) const {
    return row >= 0 && row < rows_ && column >= 0 && column < columns_;
  }
  std::int64_t offset(std::int64_t row, std::int64_t column) const { return Layout::offset(row, column, ld_); }

  // Bounds-checked: these are test helpers, and a wrong index should say so.
  T& at(std::int64_t row, std::int64_t column) {
    check(row, column);
    return storage_[static_cast<std::size_t>(offset(row, column))];
  }
  T const& at(std::int64_t row, std::int64_t column) const {
    check(row, column);
    return storage_[static_cast<std::size_t>(offset(row, column))];
  }

  T* data() { return storage_.data(); }
  T const* data() const { return storage_.data(); }
  std::vector<T>& storage() { return storage_; }
  std::vector<T> const& storage() const { return storage_; }
  std::span<T> span() { return storage_; }
  std::span<T const> span() const { return storage_; }

  layout::TensorRef<T, Layout> ref() { return {data(), ld_}; }
  layout::TensorRef<T const, Layout> ref() const { return {data(), ld_}; }
  layout::TensorView<T, Layout> view() { return {ref(), rows_, columns_}; }
  layout::TensorView<T const, Layout> view() const { return {ref(), rows_, columns_}; }

 private:
  void check(std::int64_t row, std::int64_t column) const {
    if (!contains(row, column)) {
      throw std::out_of_range("hiptile::host::HostMatrix: (" + std::to_string(row) + ", " + std::to_string(column) +
                              ") is outside " + std::to_string(rows_) + " x " + std::to_string(columns_));
    }
  }

  std::int64_t rows_ = 0;
  std::int64_t columns_ = 0;
  std::int64_t ld_ = 1;
  std::vector<T> storage_;
};

}  // namespace hiptile::host
