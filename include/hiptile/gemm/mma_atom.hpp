#pragma once
// The kinds of MMA atom, told apart by their tags, for the rules and builders that choose by kind
// without naming any atom (so that naming the kind needs no architecture's atom header):
//   MfmaAtom       gfx9's MFMA instructions (arch/mfma.hpp: kIsMfma)
//   MmaSyncAtom    NVIDIA's warp-wide mma.sync (arch/mma_sync.hpp: kIsMmaSync)
//   WarpgroupAtom  NVIDIA sm_90a's warpgroup wgmma (arch/warpgroup_mma.hpp: kIsWarpgroupMma)
//   SimtAtom       one FMA per lane on any architecture (arch/simt_fma.hpp: kIsSimt)

namespace hiptile::gemm {

template <class Atom>
concept MfmaAtom = requires { Atom::kIsMfma; };
template <class Atom>
concept MmaSyncAtom = requires { Atom::kIsMmaSync; };
template <class Atom>
concept WarpgroupAtom = requires { Atom::kIsWarpgroupMma; };
template <class Atom>
concept SimtAtom = requires { Atom::kIsSimt; };
template <class Atom>
concept MmaAtomType = MfmaAtom<Atom> || MmaSyncAtom<Atom> || WarpgroupAtom<Atom> || SimtAtom<Atom>;

}  // namespace hiptile::gemm
