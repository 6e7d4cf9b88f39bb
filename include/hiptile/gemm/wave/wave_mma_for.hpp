#pragma once
// WaveMmaFor: the wave MMA that runs an MMA atom over a WaveM × WaveN wave tile read from the LDS
// layouts LayoutA and LayoutB: MfmaWaveMma for MFMA atoms, MmaSyncWaveMma for mma.sync atoms,
// WarpgroupWaveMma for warpgroup (wgmma) atoms, SimtWaveMma for SimtFma. The atom kinds are told
// apart by their tags (kIsMfma, kIsMmaSync, kIsWarpgroupMma, kIsSimt).
#include <type_traits>

#include "hiptile/gemm/wave/mfma_wave_mma.hpp"
#include "hiptile/gemm/wave/mma_sync_wave_mma.hpp"
#include "hiptile/gemm/wave/simt_wave_mma.hpp"
#include "hiptile/gemm/wave/warpgroup_wave_mma.hpp"

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

namespace wave {
namespace detail {
template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB, bool kMfma = MfmaAtom<Atom>,
          bool kMmaSync = MmaSyncAtom<Atom>, bool kWarpgroup = WarpgroupAtom<Atom>>
struct WaveMmaFor : std::type_identity<SimtWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>> {};
template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct WaveMmaFor<Atom, WaveM, WaveN, LayoutA, LayoutB, false, false, true>
    : std::type_identity<WarpgroupWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>> {};
template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB, bool kMmaSync, bool kWarpgroup>
struct WaveMmaFor<Atom, WaveM, WaveN, LayoutA, LayoutB, true, kMmaSync, kWarpgroup>
    : std::type_identity<MfmaWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>> {};
template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct WaveMmaFor<Atom, WaveM, WaveN, LayoutA, LayoutB, false, true, false>
    : std::type_identity<MmaSyncWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>> {};
}  // namespace detail

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
using WaveMmaFor = typename detail::WaveMmaFor<Atom, WaveM, WaveN, LayoutA, LayoutB>::type;

}  // namespace wave
}  // namespace hiptile::gemm
