// An xf32 MFMA (gfx940-942 only, kOnGfx90a = false) compiled for gfx90a: arch/mfma.hpp must stop it
// with its own message rather than let clang reach a builtin the target lacks.
// expect-error: this MFMA instruction does not exist on gfx90a (MI200): build for gfx942
#include "../common/mfma_atom_kernel.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/platform/launch.hpp"

using Kernel = hiptile::test::MfmaAtomKernel<hiptile::arch::Mfma16x16x8Xf32>;
template __global__ void hiptile::kernel_entry<Kernel>(Kernel::Params);
