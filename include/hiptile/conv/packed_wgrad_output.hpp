#pragma once
// PackedWgradOutput: the output mapping (epilogue/output_mapping.hpp) of Wgrad on packed groups
// (IteratorAlgorithm::kPackedGroups, conv_geometry.hpp). A GEMM batch of P groups computes every
// (k, c) pair of its P·K/groups filters and P·C/groups channels at every tap — row m = filter k of
// the batch, column n = tap · (P·C/groups) + c — and dw keeps the pairs of one group only: (m, n)
// exists where k's group is c's, and lands on element (batch's first filter + k, tap, c's channel
// within its group) of dw (K × taps × C/groups). The other pairs (the block-diagonal's zeros) are
// not stored.
//
// Columns of one group at one tap are contiguous in dw; two groups' are not, so rows_aligned(bytes)
// holds only where a group's channels are whole runs of `bytes` (a run never straddles two groups).
#include <cstdint>

#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

template <class ElementC>
struct PackedWgradOutput {
  using Element = ElementC;
  using Problem = ConvGeometry;  // kept once in the kernel's Params (gemm/shared_problem.hpp)
  static constexpr bool kContiguousColumns = true;

  struct Params {
    ElementC const* c = nullptr;  // the source tensor, shaped like dw
    ElementC* d = nullptr;        // dw: K × T·R·S × C/groups
    // Set by at_batch() from the kernel's geometry: the batch's filters (rows) and columns, the
    // elements of one filter, the batch's channels and one group's C and K (divisors).
    int extent_m = 0;
    int extent_n = 0;
    std::int64_t filter = 0;
    FastDivmod div_batch_c, div_group_c, div_group_k;
  };

  // Row m: its group within the batch and its filter's offset in dw (group -1 past the last row).
  struct Row {
    int m;
    int group;
    std::int64_t d;
  };

  HIPTILE_HOST_DEVICE static Params at_batch(Params p, ConvGeometry const& g, int batch) {
    p.extent_m = g.kg;
    p.extent_n = g.taps * g.cg;
    p.filter = g.filter_elements();
    p.div_batch_c = g.div_cg;
    p.div_group_c = g.div_group_c;
    p.div_group_k = g.div_group_k;
    std::int64_t const first = std::int64_t(g.group_of(batch)) * g.kg * p.filter;
    if (p.c != nullptr) p.c += first;
    p.d += first;
    return p;
  }
  // (Wgrad's bias is per filter: the batch's first filter's.)
  HIPTILE_HOST_DEVICE static std::int64_t bias_offset(Params const& p, int batch) {
    return std::int64_t(batch) * p.extent_m;
  }

  HIPTILE_HOST_DEVICE static Row row(Params const& p, int m) {
    return {m, m < p.extent_m ? p.div_group_k.div(m) : -1, m * p.filter};
  }
  HIPTILE_HOST_DEVICE static bool exists(Params const& p, Row const& row, int n) {
    return row.group >= 0 && n < p.extent_n && p.div_group_c.div(p.div_batch_c.mod(n)) == row.group;
  }
  HIPTILE_HOST_DEVICE static std::int64_t offset(Params const& p, Row const& row, int n) {
    auto const [tap, channel] = p.div_batch_c.divmod(n);
    return row.d + std::int64_t(tap) * p.div_group_c.divisor() + p.div_group_c.mod(channel);
  }
  HIPTILE_HOST_DEVICE static ElementC* d(Params const& p, Row const& row, int n) { return p.d + offset(p, row, n); }
  HIPTILE_HOST_DEVICE static ElementC const* c(Params const& p, Row const& row, int n) {
    return p.c + offset(p, row, n);
  }
  // (No rectangle of a batch with more than one group is all on its diagonal blocks.)
  HIPTILE_HOST_DEVICE static bool contains(Params const&, int, int, int, int) { return false; }
  HIPTILE_HOST_DEVICE static bool rows_aligned(Params const& p, int bytes) {
    return reinterpret_cast<std::uintptr_t>(p.d) % bytes == 0 &&
           p.filter * std::int64_t(sizeof(ElementC)) % bytes == 0 &&
           std::int64_t(p.div_group_c.divisor()) * std::int64_t(sizeof(ElementC)) % bytes == 0;
  }
};

}  // namespace hiptile::conv
