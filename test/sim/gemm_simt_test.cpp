// The GEMM templates with the SIMT FMA atom instead of MFMA, on the simulator: the same loaders,
// LDS layout, mainloop and epilogue, one fp32 FMA per lane and k.
#include "gemm_test_support.hpp"

#include "hiptile/arch/simt_fma.hpp"

using namespace gemm_test;

namespace {
template <class E, class LA, class LB>
using SimtGemm = hiptile::gemm::device::Gemm<E, LA, E, LB, E, RowMajor, float, hiptile::arch::Gfx942,
                                             hiptile::GemmShape<128, 128, 32>, hiptile::GemmShape<64, 64, 32>,
                                             hiptile::arch::SimtFma<E, 64>, hiptile::epilogue::LinearCombination<E>,
                                             hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;
}  // namespace

TEMPLATE_TEST_CASE("the GEMM with SIMT FMA atoms matches a double-precision reference", "[gemm]",
                   (std::tuple<half_t, RowMajor, ColumnMajor>), (std::tuple<half_t, ColumnMajor, RowMajor>),
                   (std::tuple<bfloat16_t, RowMajor, RowMajor>)) {
  using E = std::tuple_element_t<0, TestType>;
  using LA = std::tuple_element_t<1, TestType>;
  using LB = std::tuple_element_t<2, TestType>;
  for (Shape const& s : {Shape{1, 1, 1, 0}, Shape{129, 127, 33, 0}, Shape{13, 257, 100, 24}, Shape{200, 61, 97, 40}}) {
    DYNAMIC_SECTION("M=" << s.m << " N=" << s.n << " K=" << s.k) {
      run_case<E, LA, E, LB, E, RowMajor, hiptile::epilogue::Identity, SimtGemm<E, LA, LB>>(
          s, Epilogue{-1.5f, 0.5f}, hiptile::epilogue::Identity{});
    }
  }
}
