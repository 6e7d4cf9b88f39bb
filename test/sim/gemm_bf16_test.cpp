// The gfx942 GEMM on the simulator with bf16 inputs: every output type and A/B/C layout.
#include "gemm_test_support.hpp"

using namespace gemm_test;

TEMPLATE_TEST_CASE("the bf16 GEMM matches a double-precision reference for every output type and layout", "[gemm]",
                   (std::tuple<bfloat16_t, bfloat16_t, RowMajor, ColumnMajor, RowMajor>),
                   (std::tuple<bfloat16_t, bfloat16_t, RowMajor, RowMajor, RowMajor>),
                   (std::tuple<bfloat16_t, bfloat16_t, ColumnMajor, ColumnMajor, RowMajor>),
                   (std::tuple<bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, RowMajor>),
                   (std::tuple<bfloat16_t, float, RowMajor, ColumnMajor, RowMajor>),
                   (std::tuple<bfloat16_t, float, RowMajor, RowMajor, RowMajor>),
                   (std::tuple<bfloat16_t, half_t, ColumnMajor, ColumnMajor, RowMajor>),
                   (std::tuple<bfloat16_t, half_t, ColumnMajor, RowMajor, RowMajor>),
                   (std::tuple<bfloat16_t, bfloat16_t, ColumnMajor, RowMajor, ColumnMajor>)) {
  run_all_shapes<TestType>();
}
