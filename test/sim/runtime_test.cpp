// The simulator runtime: indices, barriers, LDS and the errors hardware would not report.
#include <catch2/catch.hpp>

#include <numeric>
#include <string>
#include <vector>

#include "hiptile/arch/lds_access.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using hiptile::Dim3;
using hiptile::LaunchConfig;
using hiptile::Status;

// Each thread writes its global coordinates; checks that every index function agrees with the
// launch shape.
struct WriteIndices {
  struct Params {
    unsigned* out;  // 9 values per thread
  };
  static constexpr int kMaxThreadsPerBlock = 1024;
  void operator()(Params const& p) const {
    using namespace hiptile;
    unsigned const block = block_idx_x() + grid_dim_x() * (block_idx_y() + grid_dim_y() * block_idx_z());
    unsigned const threads = block_dim_x() * block_dim_y() * block_dim_z();
    unsigned* o = p.out + 9 * (block * threads + thread_linear_idx());
    o[0] = thread_idx_x(), o[1] = thread_idx_y(), o[2] = thread_idx_z();
    o[3] = block_idx_x(), o[4] = block_idx_y(), o[5] = block_idx_z();
    o[6] = lane_idx(), o[7] = wave_idx(), o[8] = grid_dim_x() * 100 + block_dim_x();
  }
};

TEST_CASE("every simulated thread sees its own indices for a 3-D grid and workgroup") {
  Dim3 const grid{3, 2, 2};
  Dim3 const block{8, 4, 3};  // 96 threads: one full wave and one of 32 lanes
  std::vector<unsigned> out(9 * grid.volume() * block.volume(), ~0u);
  REQUIRE(hiptile::launch<WriteIndices>({grid, block}, {out.data()}) == Status::kSuccess);
  std::size_t i = 0;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx, i += 9) {
              unsigned const linear = tx + block.x * (ty + block.y * tz);
              std::vector<unsigned> const expect{tx, ty, tz, bx, by, bz, linear % 64, linear / 64, 308};
              REQUIRE(std::vector<unsigned>(out.begin() + i, out.begin() + i + 9) == expect);
            }
}

// Rotates each workgroup's values through LDS across `rounds` barriers: wrong if any thread
// reads LDS before every thread of the round has written it.
struct RotateThroughLds {
  struct Params {
    int const* in;
    int* out;
    int rounds;
  };
  static constexpr int kMaxThreadsPerBlock = 1024;
  void operator()(Params const& p) const {
    using namespace hiptile;
    int* lds = dynamic_lds_as<int>();
    unsigned const n = block_dim_x();
    unsigned const t = thread_idx_x();
    int value = p.in[block_idx_x() * n + t];
    for (int r = 0; r < p.rounds; ++r) {
      lds[t] = value;
      barrier();
      value = lds[(t + 1) % n];
      barrier();
    }
    p.out[block_idx_x() * n + t] = value;
  }
};

TEST_CASE("barriers order LDS writes before reads across the whole workgroup") {
  int const threads = GENERATE(64, 256, 1024, 100);
  int const groups = 5, rounds = 7;
  std::vector<int> in(groups * threads), out(groups * threads, -1);
  std::iota(in.begin(), in.end(), 1000);
  hiptile::sim::StreamState stream;
  LaunchConfig const config{{unsigned(groups)}, {unsigned(threads)}, threads * sizeof(int), &stream};
  REQUIRE(hiptile::launch<RotateThroughLds>(config, {in.data(), out.data(), rounds}) == Status::kSuccess);
  for (int g = 0; g < groups; ++g)
    for (int t = 0; t < threads; ++t) REQUIRE(out[g * threads + t] == in[g * threads + (t + rounds) % threads]);
  CHECK(hiptile::sim::counters(&stream).barriers == std::uint64_t(groups * rounds * 2));
  CHECK(hiptile::sim::counters(&stream).workgroups == std::uint64_t(groups));
}

TEST_CASE("results do not depend on how many host threads run the workgroups") {
  int const threads = 128, groups = 37;
  std::vector<int> in(groups * threads), one(groups * threads), many(groups * threads);
  std::iota(in.begin(), in.end(), -500);
  int const saved = hiptile::sim::host_threads();
  hiptile::sim::set_host_threads(1);
  REQUIRE(hiptile::launch<RotateThroughLds>({{groups}, {threads}, threads * 4}, {in.data(), one.data(), 3}) ==
          Status::kSuccess);
  hiptile::sim::set_host_threads(4);
  REQUIRE(hiptile::launch<RotateThroughLds>({{groups}, {threads}, threads * 4}, {in.data(), many.data(), 3}) ==
          Status::kSuccess);
  hiptile::sim::set_host_threads(saved);
  CHECK(one == many);
}

// Threads with odd index skip the barrier: hardware would hang or mis-synchronise.
struct DivergentBarrier {
  struct Params {
    int* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  void operator()(Params const& p) const {
    unsigned const t = hiptile::thread_idx_x();
    hiptile::barrier();
    if (t % 2 == 0) hiptile::barrier();
    p.out[t] = 1;
  }
};

TEST_CASE("a barrier that some threads never reach is a launch error naming kernel, workgroup and barrier") {
  std::vector<int> out(256);
  Status const s = hiptile::launch<DivergentBarrier>({{2}, {256}}, {out.data()});
  CHECK(s == Status::kErrorDivergentBarrier);
  std::string const msg = hiptile::last_launch_error();
  CHECK_THAT(msg, Catch::Contains("DivergentBarrier"));
  CHECK_THAT(msg, Catch::Contains("workgroup (0,0,0)") || Catch::Contains("workgroup (1,0,0)"));
  CHECK_THAT(msg, Catch::Contains("barrier 2 was reached by 128 of 256 threads"));
}

// Wave 1 returns before the barrier the rest wait at.
struct EarlyReturn {
  struct Params {
    int* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  void operator()(Params const& p) const {
    if (hiptile::wave_idx() == 1) return;
    hiptile::barrier();
    p.out[hiptile::thread_idx_x()] = 1;
  }
};

TEST_CASE("an early return before a barrier is a launch error") {
  std::vector<int> out(256);
  CHECK(hiptile::launch<EarlyReturn>({{1}, {256}}, {out.data()}) == Status::kErrorDivergentBarrier);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("192 of 256 threads; 64 returned"));
}

// A relay through global flags: workgroup g waits until flag g - 1 is set, appends its index to a
// log that only the flag's holder writes, then sets flag g. Right only if every wait ends after the
// previous workgroup's writes, whatever host threads run them.
struct FlagRelay {
  struct Params {
    int* flags;  // one per workgroup, zero
    int* log;    // one per workgroup
    int* next;   // the log's length
  };
  static constexpr int kMaxThreadsPerBlock = 128;
  void operator()(Params const& p) const {
    using namespace hiptile;
    int const g = static_cast<int>(block_idx_x());
    int const thread = static_cast<int>(thread_idx_x());
    if (g > 0) {
      if (thread == 0) flag_wait_until_equal(p.flags + g - 1, 1);
      barrier();
      device_fence_acquire();
    }
    if (thread == 0) p.log[(*p.next)++] = g;
    device_fence_release();
    barrier();
    if (thread == 0) flag_store_release(p.flags + g, 1);
  }
};

TEST_CASE("flag_wait_until_equal orders one workgroup's writes before the next one's reads") {
  int const saved = hiptile::sim::host_threads();
  for (int threads : {1, 2, 4}) {
    hiptile::sim::set_host_threads(threads);
    int const groups = 40;
    std::vector<int> flags(groups, 0), log(groups, -1);
    int next = 0;
    INFO("host threads " << threads);
    REQUIRE(hiptile::launch<FlagRelay>({{unsigned(groups)}, {128}}, {flags.data(), log.data(), &next}) ==
            Status::kSuccess);
    std::vector<int> in_order(groups);
    std::iota(in_order.begin(), in_order.end(), 0);
    CHECK(log == in_order);
    CHECK(next == groups);
  }
  hiptile::sim::set_host_threads(saved);
}

// Workgroup 0 waits for workgroup 1: on hardware it may never be dispatched beside it.
struct WaitsForLater {
  struct Params {
    int* flags;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const {
    using namespace hiptile;
    if (block_idx_x() == 0) flag_wait_until_equal(p.flags + 1, 1);
    barrier();
    if (thread_idx_x() == 0) flag_store_release(p.flags + block_idx_x(), 1);
  }
};

// Every workgroup waits for a flag nobody sets.
struct WaitsForever {
  struct Params {
    int* flag;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const { hiptile::flag_wait_until_equal(p.flag, 1); }
};

TEST_CASE("a wait no other workgroup can end is a deadlock error, not a hang") {
  int const saved = hiptile::sim::host_threads();
  for (int threads : {1, 3}) {
    hiptile::sim::set_host_threads(threads);
    std::vector<int> flags(2, 0);
    // One host thread: workgroup 1 cannot start while workgroup 0 waits. More: it runs beside it
    // and sets the flag.
    Status const s = hiptile::launch<WaitsForLater>({{2}, {64}}, {flags.data()});
    if (threads == 1) {
      CHECK(s == Status::kErrorDeadlock);
      CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("workgroup (0,0,0)") && Catch::Contains("flag"));
    } else {
      CHECK(s == Status::kSuccess);
    }
  }
  // Nobody ever sets the flag: a deadlock however many host threads there are.
  for (int threads : {1, 4}) {
    hiptile::sim::set_host_threads(threads);
    int flag = 0;
    CHECK(hiptile::launch<WaitsForever>({{6}, {64}}, {&flag}) == Status::kErrorDeadlock);
  }
  hiptile::sim::set_host_threads(saved);
}

TEST_CASE("launch shapes outside gfx942's limits are rejected before anything runs") {
  std::vector<int> out(2048);
  CHECK(hiptile::launch<EarlyReturn>({{1}, {256}, 64 * 1024 + 4}, {out.data()}) == Status::kErrorLdsOverflow);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("65540 bytes of LDS"));
  CHECK(hiptile::launch<EarlyReturn>({{0}, {256}}, {out.data()}) == Status::kErrorInvalidLaunch);
  // More threads than the kernel's launch bound.
  CHECK(hiptile::launch<EarlyReturn>({{1}, {512}}, {out.data()}) == Status::kErrorInvalidLaunch);
}

// Two waves hand a value over through LDS, in the order `how` says, through the arch layer's LDS
// accesses (the ones the simulator tracks).
enum class HandOff {
  kStoreThenReadNoBarrier,
  kStoreBarrierRead,
  kReadThenStoreNoBarrier,
  kByteStoreWordRead,
  kSameWaveAndSharedReads,
};

struct LdsHandOff {
  struct Params {
    HandOff how;
    int* out;
  };
  static constexpr int kMaxThreadsPerBlock = 128;
  void operator()(Params const& p) const {
    using namespace hiptile;
    auto* lds = reinterpret_cast<int*>(dynamic_lds());
    bool const first = wave_idx() == 0;
    bool const lead = thread_idx_x() % 64 == 0;
    switch (p.how) {
      case HandOff::kStoreThenReadNoBarrier:
        if (first && lead) arch::lds_store(lds, 7);
        if (!first && lead) p.out[0] = arch::lds_load(lds);
        break;
      case HandOff::kStoreBarrierRead:
        if (first && lead) arch::lds_store(lds, 7);
        barrier();
        if (!first && lead) p.out[0] = arch::lds_load(lds);
        break;
      case HandOff::kReadThenStoreNoBarrier:
        if (first && lead) p.out[0] = arch::lds_load(lds);
        if (!first && lead) arch::lds_store(lds, 7);
        break;
      case HandOff::kByteStoreWordRead:  // different bytes of one 4-byte word
        if (first && lead) arch::lds_store(reinterpret_cast<char*>(lds) + 3, char{1});
        if (!first && lead) p.out[0] = arch::lds_load(lds);
        break;
      case HandOff::kSameWaveAndSharedReads:  // a wave reads its own store; both waves read one word
        if (first && lead) {
          arch::lds_store(lds + 1, 5);
          p.out[0] = arch::lds_load(lds + 1);
        }
        if (lead) p.out[1 + wave_idx()] = arch::lds_load(lds + 2);
        break;
    }
  }
};

TEST_CASE("two waves touching one LDS word between barriers, one storing, is a launch error naming both") {
  std::vector<int> out(4, -1);
  auto const run = [&](HandOff how) { return hiptile::launch<LdsHandOff>({{1}, {128}, 64}, {how, out.data()}); };
  CHECK(run(HandOff::kStoreThenReadNoBarrier) == Status::kErrorLdsRace);
  CHECK_THAT(hiptile::last_launch_error(),
             Catch::Contains("(wave 1) reads 4 bytes at LDS byte 0 after a store by wave 0 to byte 0"));
  CHECK(run(HandOff::kReadThenStoreNoBarrier) == Status::kErrorLdsRace);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("(wave 1) stores 4 bytes at LDS byte 0 after a read by wave 0"));
  CHECK(run(HandOff::kByteStoreWordRead) == Status::kErrorLdsRace);
  out.assign(4, -1);
  CHECK(run(HandOff::kStoreBarrierRead) == Status::kSuccess);
  CHECK(out[0] == 7);
  CHECK(run(HandOff::kSameWaveAndSharedReads) == Status::kSuccess);
  CHECK(out[0] == 5);
}

// Reports the LDS size the simulator allocated and the alignment of its start.
struct LdsExtent {
  struct Params {
    std::size_t* out;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const {
    if (hiptile::thread_idx_x() == 0) {
      *p.out = hiptile::sim::this_lane().group->lds_bytes();
      p.out[1] = reinterpret_cast<std::uintptr_t>(hiptile::dynamic_lds()) % 16;
    }
  }
};

TEST_CASE("a simulated workgroup's LDS is exactly the requested size") {
  std::size_t out[2] = {0, 99};
  REQUIRE(hiptile::launch<LdsExtent>({{1}, {64}, 1000}, {out}) == Status::kSuccess);
  CHECK(out[0] == 1000);
  CHECK(out[1] == 0);
}

}  // namespace
