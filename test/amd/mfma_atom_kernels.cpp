// One single-MFMA kernel per atom of arch/mfma.hpp (test/common/mfma_atom_kernel.hpp), compiled
// for gfx942 and gfx90a. mfma_atom_isa_test.py reads the ISA back and checks that each kernel
// issues exactly its atom's instruction (Atom::kMnemonic), and that every atom of the header has
// a kernel here: all of them on gfx942, those with kOnGfx90a on gfx90a.
//
// The explicit instantiations make the device pass emit exactly these kernels. The static_asserts
// tie the split below to the header's kOnGfx90a, so the two lists cannot drift apart.
#include "../common/mfma_atom_kernel.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/platform/launch.hpp"

namespace mfma_isa {

using namespace hiptile::arch;
template <class Atom>
using K = hiptile::test::MfmaAtomKernel<Atom>;

// The instructions gfx90a (MI200) has as well.
static_assert(Mfma32x32x8F16::kOnGfx90a && Mfma16x16x16F16::kOnGfx90a && Mfma32x32x8Bf16::kOnGfx90a &&
              Mfma16x16x16Bf16::kOnGfx90a && Mfma32x32x2F32::kOnGfx90a && Mfma16x16x4F32::kOnGfx90a);
// gfx940-942 only: xf32, fp8/bf8, and the K = 16/32 i8 forms.
static_assert(!Mfma16x16x8Xf32::kOnGfx90a && !Mfma32x32x4Xf32::kOnGfx90a && !Mfma16x16x32Fp8Fp8::kOnGfx90a &&
              !Mfma16x16x32Fp8Bf8::kOnGfx90a && !Mfma16x16x32Bf8Fp8::kOnGfx90a && !Mfma16x16x32Bf8Bf8::kOnGfx90a &&
              !Mfma32x32x16Fp8Fp8::kOnGfx90a && !Mfma32x32x16Fp8Bf8::kOnGfx90a && !Mfma32x32x16Bf8Fp8::kOnGfx90a &&
              !Mfma32x32x16Bf8Bf8::kOnGfx90a && !Mfma16x16x32I8::kOnGfx90a && !Mfma32x32x16I8::kOnGfx90a);

}  // namespace mfma_isa

using mfma_isa::K;
using namespace hiptile::arch;

template __global__ void hiptile::kernel_entry<K<Mfma32x32x8F16>>(K<Mfma32x32x8F16>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x16F16>>(K<Mfma16x16x16F16>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x8Bf16>>(K<Mfma32x32x8Bf16>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x16Bf16>>(K<Mfma16x16x16Bf16>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x2F32>>(K<Mfma32x32x2F32>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x4F32>>(K<Mfma16x16x4F32>::Params);

#if !defined(__gfx90a__)
template __global__ void hiptile::kernel_entry<K<Mfma16x16x8Xf32>>(K<Mfma16x16x8Xf32>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x4Xf32>>(K<Mfma32x32x4Xf32>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x32Fp8Fp8>>(K<Mfma16x16x32Fp8Fp8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x32Fp8Bf8>>(K<Mfma16x16x32Fp8Bf8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x32Bf8Fp8>>(K<Mfma16x16x32Bf8Fp8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x32Bf8Bf8>>(K<Mfma16x16x32Bf8Bf8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x16Fp8Fp8>>(K<Mfma32x32x16Fp8Fp8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x16Fp8Bf8>>(K<Mfma32x32x16Fp8Bf8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x16Bf8Fp8>>(K<Mfma32x32x16Bf8Fp8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x16Bf8Bf8>>(K<Mfma32x32x16Bf8Bf8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma16x16x32I8>>(K<Mfma16x16x32I8>::Params);
template __global__ void hiptile::kernel_entry<K<Mfma32x32x16I8>>(K<Mfma32x32x16I8>::Params);
#endif
