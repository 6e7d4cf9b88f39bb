// The GEMM main loop's LDS traffic is free of bank conflicts under the simulator's bank model, for
// every A/B layout combination of the default f16 and bf16 configurations (the epilogue does not
// touch LDS, so the launch's counters are the main loop's).
#include "gemm_test_support.hpp"

using namespace gemm_test;

TEMPLATE_TEST_CASE("the default GEMM's main loop has no LDS bank conflicts for any layout", "[gemm]",
                   (std::tuple<half_t, RowMajor, ColumnMajor>), (std::tuple<half_t, RowMajor, RowMajor>),
                   (std::tuple<half_t, ColumnMajor, ColumnMajor>), (std::tuple<half_t, ColumnMajor, RowMajor>),
                   (std::tuple<bfloat16_t, RowMajor, ColumnMajor>), (std::tuple<bfloat16_t, ColumnMajor, RowMajor>)) {
  using E = std::tuple_element_t<0, TestType>;
  using LA = std::tuple_element_t<1, TestType>;
  using LB = std::tuple_element_t<2, TestType>;
  using Gemm = hiptile::gemm::device::DefaultGemmConfiguration<E, LA, E, LB, E, RowMajor, hiptile::arch::Gfx942>;
  int const m = 256, n = 256, k = 256;
  std::mt19937 rng(5);
  Matrix<E, LA> a(m, k, 0);
  Matrix<E, LB> b(k, n, 0);
  Matrix<E, RowMajor> d(m, n, 0);
  fill(a, rng, -1.0f, 1.0f);
  fill(b, rng, -1.0f, 1.0f);
  typename Gemm::Arguments args{GemmCoord{m, n, k}, a.cref(), b.cref(), d.cref(), d.ref(), {1.0f, 0.0f}};
  hiptile::sim::StreamState stream;
  Gemm gemm;
  REQUIRE(gemm.initialize(args) == Status::kSuccess);
  REQUIRE(gemm.run(&stream) == Status::kSuccess);
  auto const& c = hiptile::sim::counters(&stream);
  // 4 workgroups × 8 K-tiles × 4 waves: every wave reads 8 packs per K-tile, and the two stage
  // writes of A and B are 2 ds_write_b128 each (K-contiguous) or 8 ds_write_b32 each (MN-contiguous).
  CHECK(c.mfma == 4 * 8 * 4 * 16);
  CHECK(c.lds_instructions > 0);
  CHECK(c.lds_conflict_cycles == 0);
}
