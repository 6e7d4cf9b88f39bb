#pragma once
// Coordinates: a matrix position (row, column) and a GEMM problem/tile extent (m, n, k).
#include <cstdint>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

struct MatrixCoord {
  int row = 0;
  int column = 0;
  friend constexpr bool operator==(MatrixCoord, MatrixCoord) = default;
  HIPTILE_HOST_DEVICE constexpr MatrixCoord operator+(MatrixCoord o) const {
    return {row + o.row, column + o.column};
  }
};

struct GemmCoord {
  int m = 0;
  int n = 0;
  int k = 0;
  friend constexpr bool operator==(GemmCoord, GemmCoord) = default;
  // Multiply-adds of the problem, in 64 bits so 2^31-sized problems do not overflow.
  HIPTILE_HOST_DEVICE constexpr std::int64_t mnk() const {
    return std::int64_t(m) * std::int64_t(n) * std::int64_t(k);
  }
};

// A compile-time extent, used for tile and wave shapes: GemmShape<128, 128, 32>.
template <int M, int N, int K>
struct GemmShape {
  static constexpr int kM = M;
  static constexpr int kN = N;
  static constexpr int kK = K;
  static constexpr int kMN = M * N;
  static constexpr int kMNK = M * N * K;
  HIPTILE_HOST_DEVICE static constexpr GemmCoord coord() { return {M, N, K}; }
};

}  // namespace hiptile
