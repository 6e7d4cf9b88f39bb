// The epilogue hands each element its place and its row's value (epilogue.hpp, functor_concept.hpp):
// a PositionalFunctor sees the element's GEMM row and column and the per-row value its mainloop
// handed over (RowValues), through DirectStoreEpilogue in a one-wave kernel with known accumulators,
// and through a whole GEMM (a lower-triangle mask, as a causal attention mask is) against the
// double-precision reference.
#include "gemm_test_support.hpp"

#include <cmath>
#include <vector>

#include "hiptile/arch/mfma.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/gemm/block/register_staged_lds_layout.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/wave/mfma_wave_mma.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"

using namespace gemm_test;
namespace ep = hiptile::epilogue;

namespace {

// D = acc + 1000 · row_value + m − n / 1024: every part of the context shows in the value.
struct Context {
  using ElementOutput = float;
  struct Params {};
  static constexpr bool kNeedsSource = false;
  Context() = default;
  HIPTILE_HOST_DEVICE explicit Context(Params const&) {}
  HIPTILE_HOST_DEVICE bool is_source_needed() const { return false; }
  HIPTILE_HOST_DEVICE float operator()(float acc, float, float, ep::ElementContext const& at) const {
    return acc + 1000.0f * at.row_value + float(at.m) - float(at.n) / 1024.0f;
  }
};
static_assert(ep::EpilogueFunctor<Context> && ep::PositionalFunctor<Context>);

using Atom = hiptile::arch::Mfma32x32x8F16;
using Layout = hiptile::gemm::block::RegisterStagedLdsLayout<half_t, hiptile::gemm::OperandMajor::kK, 64, 32>;
using Wave = hiptile::gemm::wave::MfmaWaveMma<Atom, 64, 64, Layout, Layout>;
using Epilogue = ep::DirectStoreEpilogue<Wave, ep::MatrixOutput<float, RowMajor>, Context>;

// The value of each accumulator row a lane holds: row · 0.25 (what a mainloop would hand over).
struct RowTimesQuarter {
  int lane;
  HIPTILE_HOST_DEVICE float value(int atom_m, int reg) const {
    return 0.25f * float(Wave::accumulator_row(lane, atom_m, reg));
  }
};

// One wave: every accumulator holds 2, stored through the epilogue at block (8, 16) of D.
struct OneWaveKernel {
  struct Params {
    Epilogue::Params epilogue;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    int const lane = static_cast<int>(hiptile::lane_idx());
    Wave::Accumulators acc;
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(2.0f);
    Epilogue::run(acc, p.epilogue, hiptile::gemm::NoProblem{}, hiptile::gemm::TileWork{8, 16, 0}, 0, 0, lane, nullptr, RowTimesQuarter{lane});
  }
};

}  // namespace

TEST_CASE("a positional functor sees each element's row, column and the row value its mainloop handed over",
          "[sim][epilogue]") {
  int const m = 72, n = 80;  // the wave tile at (8, 16) reaches past both edges
  std::vector<float> d(std::size_t(m) * n, NAN);
  OneWaveKernel::Params params{};
  params.epilogue.output = {nullptr, 0, d.data(), n, m, n, 0, 0};
  REQUIRE(hiptile::launch<OneWaveKernel>({{1}, {64}}, params) == Status::kSuccess);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      bool const inside = i >= 8 && i < 8 + 64 && j >= 16 && j < 16 + 64;
      float const want = 2.0f + 1000.0f * 0.25f * float(i - 8) + float(i) - float(j) / 1024.0f;
      INFO("D[" << i << "][" << j << "]");
      if (inside) {
        REQUIRE(d[std::size_t(i) * n + j] == want);
      } else {
        REQUIRE(std::isnan(d[std::size_t(i) * n + j]));
      }
    }
  }
}

namespace {

// D = acc where n ≤ m, else 0: a lower-triangle mask from the element's place.
struct LowerTriangle {
  using ElementOutput = half_t;
  struct Params {};
  static constexpr bool kNeedsSource = false;
  LowerTriangle() = default;
  HIPTILE_HOST_DEVICE explicit LowerTriangle(Params const&) {}
  HIPTILE_HOST_DEVICE bool is_source_needed() const { return false; }
  HIPTILE_HOST_DEVICE half_t operator()(float acc, float, float, ep::ElementContext const& at) const {
    return half_t(at.n <= at.m ? acc : 0.0f);
  }
};

}  // namespace

TEST_CASE("a GEMM with a positional functor masks by the element's place, on every configuration of DefaultGemm",
          "[sim][epilogue]") {
  using Gemm = hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                  hiptile::arch::Gfx942, LowerTriangle>;
  for (Shape s : {Shape{200, 150, 70, 0}, Shape{1, 300, 2000, 0}, Shape{131, 129, 33, 8}}) {
    INFO("M=" << s.m << " N=" << s.n << " K=" << s.k);
    std::mt19937 rng(s.m + s.n);
    Matrix<half_t, RowMajor> a(s.m, s.k, s.pad), d(s.m, s.n, s.pad);
    Matrix<half_t, ColumnMajor> b(s.k, s.n, s.pad);
    fill(a, rng, -1.0f, 1.0f);
    fill(b, rng, -1.0f, 1.0f);
    for (auto& x : d.data) x = half_t(NAN);
    Gemm::Arguments args{{s.m, s.n, s.k}, a.cref(), b.cref(), {}, d.ref(), {}};
    std::vector<std::byte> workspace(Gemm::get_workspace_size(args) + 16);
    args.workspace = workspace.data() + (16 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 16) % 16;
    args.workspace_bytes = Gemm::get_workspace_size(args);
    Gemm op;
    REQUIRE(op(args) == Status::kSuccess);
    INFO(op.choice());
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) {
        double ref = 0, magnitude = 0;
        for (int k = 0; k < s.k; ++k) {
          double const p = double(float(a.at(i, k))) * double(float(b.at(k, j)));
          ref += p;
          magnitude += std::abs(p);
        }
        if (j > i) ref = 0, magnitude = 0;
        double const tol = std::ldexp(1.0, -11) * std::abs(ref) + (s.k + 4) * std::ldexp(1.0, -23) * magnitude;
        double const got = double(float(d.at(i, j)));
        if (!(std::abs(got - ref) <= tol)) FAIL("D[" << i << "][" << j << "] = " << got << ", reference " << ref);
      }
    }
  }
}
