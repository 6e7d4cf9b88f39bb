#pragma once
// A one-wave kernel that runs a single MFMA atom: it loads A (M×K), B (K×N) and C (M×N), all
// row-major in global memory, into the lanes through the atom's own layout functions, issues the
// atom and stores D the same way. Shared by the simulator test (which checks the numbers) and the
// gfx942 compile test (which checks the instruction in the ISA).
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::test {

template <class Atom>
struct MfmaAtomKernel {
  struct Params {
    typename Atom::ElementA const* a;
    typename Atom::ElementB const* b;
    typename Atom::ElementC const* c;
    typename Atom::ElementC* d;
  };
  static constexpr int kMaxThreadsPerBlock = 64;

  HIPTILE_DEVICE void operator()(Params const& p) const {
    constexpr int N = Atom::kN;
    constexpr int K = Atom::kK;
    int const lane = static_cast<int>(lane_idx());
    typename Atom::FragmentA a;
    typename Atom::FragmentB b;
    typename Atom::FragmentC c;
    for (int r = 0; r < Atom::kAPerLane; ++r) a[r] = arch::global_load(p.a + Atom::a_row(lane, r) * K + Atom::a_k(lane, r));
    for (int r = 0; r < Atom::kBPerLane; ++r) b[r] = arch::global_load(p.b + Atom::b_k(lane, r) * N + Atom::b_col(lane, r));
    for (int r = 0; r < Atom::kCPerLane; ++r) c[r] = arch::global_load(p.c + Atom::c_row(lane, r) * N + Atom::c_col(lane, r));
    Atom::mma(c, a, b, c);
    for (int r = 0; r < Atom::kCPerLane; ++r) arch::global_store(p.d + Atom::c_row(lane, r) * N + Atom::c_col(lane, r), c[r]);
  }
};

}  // namespace hiptile::test
