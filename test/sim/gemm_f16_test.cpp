// The gfx942 GEMM on the simulator with f16 inputs: every output type and A/B/C layout.
#include "gemm_test_support.hpp"

using namespace gemm_test;

TEMPLATE_TEST_CASE("the f16 GEMM matches a double-precision reference for every output type and layout", "[gemm]",
                   (std::tuple<half_t, half_t, RowMajor, ColumnMajor, RowMajor>),
                   (std::tuple<half_t, half_t, RowMajor, RowMajor, RowMajor>),
                   (std::tuple<half_t, half_t, ColumnMajor, ColumnMajor, RowMajor>),
                   (std::tuple<half_t, half_t, ColumnMajor, RowMajor, RowMajor>),
                   (std::tuple<half_t, float, RowMajor, ColumnMajor, RowMajor>),
                   (std::tuple<half_t, float, ColumnMajor, RowMajor, RowMajor>),
                   (std::tuple<half_t, bfloat16_t, RowMajor, RowMajor, RowMajor>),
                   (std::tuple<half_t, bfloat16_t, ColumnMajor, ColumnMajor, RowMajor>),
                   (std::tuple<half_t, half_t, RowMajor, ColumnMajor, ColumnMajor>),
                   (std::tuple<half_t, float, ColumnMajor, RowMajor, ColumnMajor>)) {
  run_all_shapes<TestType>();
}
