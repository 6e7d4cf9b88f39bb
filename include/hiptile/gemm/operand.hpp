#pragma once
// The two GEMM input operands seen the same way: as an MN × K matrix (A is M × K; B, which is
// K × N, is read as its N × K transpose). What differs is which index is contiguous in memory.
#include <cstdint>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm {

enum class Operand { kA, kB };

// kK: K is contiguous (A row-major, B column-major). kMN: M or N is (A column-major, B row-major).
enum class OperandMajor { kK, kMN };

template <Operand Op, class Layout>
inline constexpr OperandMajor kOperandMajor = ((Op == Operand::kA) == Layout::kRowMajor) ? OperandMajor::kK
                                                                                          : OperandMajor::kMN;

// One operand in global memory, as the matrix tile loaders read it (their Params). Built on the host.
template <class Element>
struct OperandView {
  Element const* data = nullptr;
  std::int64_t ld = 0;          // elements between consecutive rows (kK) or columns (kMN)
  int extent_mn = 0;            // M for A, N for B
  int extent_k = 0;             // K
  std::int64_t span_bytes = 0;  // bytes from data a load may read: past them it reads zeros
  std::int64_t batch_stride = 0;  // a batched GEMM: elements from one batch's matrix to the next's
};

}  // namespace hiptile::gemm
