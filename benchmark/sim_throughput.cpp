// How fast the simulator runs MI300 kernels on one host core, in simulated wave-instructions per
// second (Counters::wave_instructions over wall time). Three loops isolate the three costs:
// wave-collective MFMAs (every lane suspends), workgroup barriers, and LDS traffic (costed by the
// bank model, no suspension).
#include <benchmark/benchmark.h>

#include <vector>

#include "hiptile/arch/lds_access.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using hiptile::arch::Mfma32x32x8F16;

struct MfmaLoop {
  struct Params {
    int iterations;
    float* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  void operator()(Params const& p) const {
    Mfma32x32x8F16::FragmentA a;
    Mfma32x32x8F16::FragmentB b;
    a.fill(hiptile::half_t(0.5f));
    b.fill(hiptile::half_t(0.25f));
    Mfma32x32x8F16::FragmentC c{};
    for (int i = 0; i < p.iterations; ++i) Mfma32x32x8F16::mma(c, a, b, c);
    p.out[hiptile::block_idx_x() * 256 + hiptile::thread_idx_x()] = c[0];
  }
};

struct BarrierLoop {
  struct Params {
    int iterations;
    float* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  void operator()(Params const& p) const {
    for (int i = 0; i < p.iterations; ++i) hiptile::barrier();
    p.out[hiptile::block_idx_x() * 256 + hiptile::thread_idx_x()] = 1.0f;
  }
};

struct LdsLoop {
  struct Params {
    int iterations;
    float* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  void operator()(Params const& p) const {
    float* lds = hiptile::dynamic_lds_as<float>();
    unsigned const t = hiptile::thread_idx_x();
    float sum = 0;
    for (int i = 0; i < p.iterations; ++i) {
      hiptile::arch::lds_store(lds + t, float(i));
      sum += hiptile::arch::lds_load(lds + (t ^ 1));
    }
    p.out[hiptile::block_idx_x() * 256 + t] = sum;
  }
};

template <class Kernel>
void run(benchmark::State& state, std::size_t lds_bytes) {
  hiptile::sim::set_host_threads(1);
  int const groups = 4;
  std::vector<float> out(groups * 256);
  hiptile::sim::StreamState stream;
  for (auto _ : state) {
    if (hiptile::launch<Kernel>({{groups}, {256}, lds_bytes, &stream}, {int(state.range(0)), out.data()}) !=
        hiptile::Status::kSuccess) {
      state.SkipWithError(hiptile::last_launch_error().c_str());
      return;
    }
  }
  auto const& c = hiptile::sim::counters(&stream);
  state.counters["wave_instr_per_s"] = benchmark::Counter(double(c.wave_instructions), benchmark::Counter::kIsRate);
  state.counters["mfma_per_s"] = benchmark::Counter(double(c.mfma), benchmark::Counter::kIsRate);
}

void BM_MfmaLoop(benchmark::State& state) { run<MfmaLoop>(state, 0); }
void BM_BarrierLoop(benchmark::State& state) { run<BarrierLoop>(state, 0); }
void BM_LdsLoop(benchmark::State& state) { run<LdsLoop>(state, 256 * sizeof(float)); }

BENCHMARK(BM_MfmaLoop)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BarrierLoop)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LdsLoop)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
