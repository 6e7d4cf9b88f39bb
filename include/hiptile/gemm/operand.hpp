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

// One operand in global memory, as the tile loaders read it. Built on the host.
template <class Element>
struct OperandView {
  Element const* data = nullptr;
  std::int64_t ld = 0;         // elements between consecutive rows (kK) or columns (kMN)
  int extent_mn = 0;           // M for A, N for B
  int extent_k = 0;            // K
  std::uint32_t num_bytes = 0; // bytes a buffer load may reach: past them it reads zeros
};

}  // namespace hiptile::gemm
