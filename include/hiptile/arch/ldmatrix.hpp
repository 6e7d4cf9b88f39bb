#pragma once
// ldmatrix (sm_75+): a warp loads four 8×8 matrices of 16-bit elements from shared memory. Lane l
// gives the address of row l % 8 of matrix l / 8 (16 contiguous bytes); each lane receives, per
// matrix, the two elements at row lane / 4, columns 2·(lane % 4) and +1 — the mma.sync fragment order.
// In bytes: bytes 4·(lane % 4) .. +3 of row lane / 4, which is also the m16n8k32 8-bit order.
#include <cstdint>

#include "hiptile/core/array.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

namespace detail {
template <bool kTranspose, class Element>
HIPTILE_DEVICE HIPTILE_INLINE Array<std::uint32_t, 4> ldmatrix_x4(Element const* row_address) {
  // Untransposed, it moves bytes: 8-bit and 32-bit elements arrive in the same 4-byte pieces.
  static_assert(!kTranspose || sizeof(Element) == 2, "ldmatrix.trans moves 16-bit elements");
  Array<std::uint32_t, 4> r{};
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  auto const shared = static_cast<std::uint32_t>(__cvta_generic_to_shared(row_address));
  if constexpr (kTranspose) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared));
  }
#elif HIPTILE_BACKEND_NVIDIA
  (void)row_address;  // host pass of nvcc: never called
#else
  (void)row_address;
  static_assert(sizeof(Element) == 0, "ldmatrix exists on NVIDIA GPUs only");
#endif
  return r;
}
}  // namespace detail

template <class Element>
HIPTILE_DEVICE HIPTILE_INLINE Array<std::uint32_t, 4> ldmatrix_x4(Element const* row_address) {
  return detail::ldmatrix_x4<false>(row_address);
}

// The same with each 8×8 matrix transposed on the way: the 16 bytes a lane points at are a column
// of its matrix, so a tile stored MN-contiguous arrives in the fragment order of a K-contiguous one.
template <class Element>
HIPTILE_DEVICE HIPTILE_INLINE Array<std::uint32_t, 4> ldmatrix_x4_trans(Element const* column_address) {
  return detail::ldmatrix_x4<true>(column_address);
}

}  // namespace hiptile::arch
