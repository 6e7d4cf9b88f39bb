// The GEMM epilogue on the simulator: alpha and beta other than 1 and 0, per-row and per-column
// bias, and every activation, against the activations' double-precision definitions.
#include "gemm_test_support.hpp"

using namespace gemm_test;
namespace ep = hiptile::epilogue;

namespace {
std::vector<Shape> const kEpilogueShapes = {{1, 1, 1, 0}, {129, 127, 33, 0}, {13, 257, 300, 24}, {200, 61, 97, 40}};

template <class EC, class LC, class Act>
void run_epilogue(Epilogue e, Act act) {
  for (Shape const& s : kEpilogueShapes) {
    DYNAMIC_SECTION(e.activation << " alpha=" << e.alpha << " beta=" << e.beta << " bias=" << ep::to_string(e.bias_mode)
                                 << " M=" << s.m << " N=" << s.n << " K=" << s.k) {
      run_case<half_t, RowMajor, half_t, ColumnMajor, EC, LC>(s, e, act);
    }
  }
}
}  // namespace

TEST_CASE("the GEMM epilogue scales by alpha and beta and adds per-row or per-column bias", "[gemm]") {
  run_epilogue<float, RowMajor>({-1.5f, 0.75f, BiasMode::kNone}, ep::Identity{});
  run_epilogue<half_t, RowMajor>({0.5f, -2.0f, BiasMode::kPerRow}, ep::Identity{});
  run_epilogue<half_t, ColumnMajor>({2.0f, 1.0f, BiasMode::kPerColumn}, ep::Identity{});
  run_epilogue<bfloat16_t, RowMajor>({1.0f, 0.0f, BiasMode::kPerColumn}, ep::Identity{});
}

TEST_CASE("the GEMM epilogue applies every activation as its definition says", "[gemm]") {
  run_epilogue<float, RowMajor>({1.0f, 0.5f, BiasMode::kPerRow, "relu"}, ep::ReLU{});
  run_epilogue<float, RowMajor>({1.0f, 0.5f, BiasMode::kPerColumn, "gelu_tanh"}, ep::GeluTanh{});
  run_epilogue<float, RowMajor>({1.0f, 0.0f, BiasMode::kPerRow, "gelu_erf"}, ep::GeluErf{});
  run_epilogue<half_t, RowMajor>({0.75f, 0.25f, BiasMode::kNone, "silu"}, ep::SiLU{});
  run_epilogue<half_t, ColumnMajor>({1.0f, 1.0f, BiasMode::kPerColumn, "clamp"}, ep::Clamp{-0.5f, 0.75f});
}
