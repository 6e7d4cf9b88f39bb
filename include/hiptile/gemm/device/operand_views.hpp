#pragma once
// What a GEMM-like operator's host side computes of a matrix operand before its loaders may read
// it: the elements their loads may touch, the OperandView the loaders take, and the loaders' own
// parameters. Shared by Gemm and B2bGemm (and GroupedGemm through Gemm). Host only.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/operand.hpp"

namespace hiptile::gemm::device {

inline bool aligned(void const* p, std::size_t bytes) noexcept {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

// The elements an operand's loads may touch: up to the end of the `vector`-element vector that
// holds its last element, which every GPU allocation covers (the buffer reads zeros past it).
inline ByteRange::Int128 operand_elements(std::int64_t ld, int extent_mn, int extent_k, OperandMajor major,
                                          int vector) noexcept {
  std::int64_t const outer = major == OperandMajor::kK ? extent_mn : extent_k;
  std::int64_t const inner = major == OperandMajor::kK ? extent_k : extent_mn;
  return ByteRange::span(outer, ld, round_up<std::int64_t>(inner, vector));
}

// What the loaders read of an MN × K operand (16-byte vectors); span_bytes fits once the operand's
// range was found addressable.
template <class Element>
OperandView<Element> operand_view(Element const* data, std::int64_t ld, int extent_mn, int extent_k,
                                  OperandMajor major, std::int64_t batch_stride) noexcept {
  ByteRange::Int128 const elements = operand_elements(ld, extent_mn, extent_k, major, 16 / int(sizeof(Element)));
  return {data, ld, extent_mn, extent_k, static_cast<std::int64_t>(elements * ByteRange::Int128(sizeof(Element))),
          batch_stride};
}

// A loader's parameters for `view`: the view itself, or, for a loader that needs them (the tensor
// copies' map), built from the view and the launch's batch count.
template <class Loader, class Element>
typename Loader::Params loader_params(OperandView<Element> const& view, int batches) noexcept {
  if constexpr (std::is_constructible_v<typename Loader::Params, OperandView<Element> const&, int>) {
    return typename Loader::Params(view, batches);
  } else {
    return view;
  }
}

// An output's batches write disjoint elements: each batch's m × n lies past the last one's
// (stacked), or the batches sit side by side within one row (row-major; a column when
// column-major) of its leading dimension. (Extents and ld whose span was found addressable.)
inline bool output_batches_disjoint(bool row_major, int m, int n, std::int64_t ld, std::int64_t stride,
                                    int batch_count) noexcept {
  if (batch_count <= 1) return true;
  std::int64_t const outer = row_major ? m : n;
  std::int64_t const inner = row_major ? n : m;
  ByteRange::Int128 const s = stride;
  if (s >= ByteRange::span(outer, ld, inner)) return true;
  return s >= inner && s * (batch_count - 1) + inner <= ld;
}

}  // namespace hiptile::gemm::device
