// The simulator's memory instructions: LDS bank-conflict costs, LDS bounds, buffer loads with
// out-of-range zeros, and cross-lane operations.
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/arch/cross_lane.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/platform/platform.hpp"
#include "hiptile/sim/lds_bank_model.hpp"

namespace {

using hiptile::Status;
using hiptile::sim::LdsWaveAccess;

LdsWaveAccess strided(int bytes_per_lane, std::uint32_t stride_bytes) {
  LdsWaveAccess a;
  a.bytes_per_lane = bytes_per_lane;
  a.active_mask = ~std::uint64_t(0);
  for (int l = 0; l < 64; ++l) a.offset[l] = l * stride_bytes;
  return a;
}

// Expected costs worked out by hand from the model: 32 banks of 4 bytes, phases of 128 bytes.
TEST_CASE("the LDS bank model costs strided accesses as the documented phases predict") {
  using hiptile::sim::lds_conflict_cycles;
  // Consecutive words: each phase of 32 lanes touches 32 different banks.
  CHECK(lds_conflict_cycles(strided(4, 4)) == 0);
  // A stride of 32 words puts all 32 lanes of a phase in bank 0 at distinct addresses:
  // 32 cycles instead of 1, in each of the 2 phases.
  CHECK(lds_conflict_cycles(strided(4, 128)) == 2 * 31);
  // Padding the stride to 33 words spreads the lanes over all banks again.
  CHECK(lds_conflict_cycles(strided(4, 132)) == 0);
  // A stride of 2 words: 16 banks used twice per phase.
  CHECK(lds_conflict_cycles(strided(4, 8)) == 2 * 1);
  // Every lane reading one word is a broadcast.
  CHECK(lds_conflict_cycles(strided(4, 0)) == 0);
  // 128-bit accesses: 8 lanes per phase; consecutive 16-byte vectors fill the 32 banks exactly.
  CHECK(lds_conflict_cycles(strided(16, 16)) == 0);
  // 128-bit accesses 128 bytes apart: the 8 lanes of each of the 8 phases all use banks 0-3.
  CHECK(lds_conflict_cycles(strided(16, 128)) == 8 * 7);
  // ...and padded by 16 bytes they are conflict-free.
  CHECK(lds_conflict_cycles(strided(16, 144)) == 0);
  // 64-bit accesses: 16 lanes per phase.
  CHECK(lds_conflict_cycles(strided(8, 8)) == 0);
  CHECK(lds_conflict_cycles(strided(8, 256)) == 4 * 15);
  // 16-bit accesses: lanes sharing a word broadcast.
  CHECK(lds_conflict_cycles(strided(2, 2)) == 0);
  // Inactive lanes cost nothing.
  LdsWaveAccess half = strided(4, 128);
  half.active_mask = 0xffffffffull;  // lanes 0..31 only: one conflicted phase
  CHECK(lds_conflict_cycles(half) == 31);
}

// Each thread writes then reads one LDS word at `stride_words` * lane (within its wave's region).
struct StridedLds {
  struct Params {
    int stride_words;
    std::uint32_t* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  void operator()(Params const& p) const {
    using namespace hiptile;
    auto* lds = dynamic_lds_as<std::uint32_t>();
    unsigned const lane = lane_idx(), wave = wave_idx();
    std::uint32_t* mine = lds + wave * 64 * p.stride_words + lane * p.stride_words;
    arch::lds_store(mine, std::uint32_t(thread_idx_x() * 3));
    barrier();
    p.out[thread_idx_x()] = arch::lds_load(mine);
  }
};

TEST_CASE("simulated LDS instructions report their bank-conflict cycles in the launch counters") {
  auto const [stride, expected_per_instruction] =
      GENERATE(std::pair{1, 0}, std::pair{32, 62}, std::pair{33, 0}, std::pair{2, 2});
  hiptile::sim::StreamState stream;
  std::vector<std::uint32_t> out(256);
  std::size_t const lds = 4 * 64 * 4 * stride;
  REQUIRE(hiptile::launch<StridedLds>({{2}, {256}, lds, &stream}, {stride, out.data()}) == Status::kSuccess);
  for (unsigned t = 0; t < 256; ++t) REQUIRE(out[t] == t * 3);
  auto const& c = hiptile::sim::counters(&stream);
  // 2 workgroups x 4 waves x (one store + one load).
  CHECK(c.lds_instructions == 16);
  CHECK(c.lds_conflict_cycles == std::uint64_t(16 * expected_per_instruction));
}

struct LdsOutOfBounds {
  struct Params {
    unsigned index;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const {
    auto* lds = hiptile::dynamic_lds_as<float>();
    hiptile::arch::lds_store(lds + (hiptile::thread_idx_x() == 5 ? p.index : 0), 1.0f);
  }
};

TEST_CASE("an LDS access outside the requested size is a launch error") {
  CHECK(hiptile::launch<LdsOutOfBounds>({{1}, {64}, 256}, {63}) == Status::kSuccess);
  CHECK(hiptile::launch<LdsOutOfBounds>({{1}, {64}, 256}, {64}) == Status::kErrorOutOfBoundsAccess);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("offset 256") && Catch::Contains("thread 5") &&
                                               Catch::Contains("256 bytes of LDS"));
}

// Each thread loads 16 bytes at 16 * thread from a buffer of `bytes` bytes and stores them back
// through a second buffer of the same size.
struct BufferCopy {
  struct Params {
    std::uint32_t const* in;
    std::uint32_t* out;
    std::uint32_t bytes;
    std::uint32_t stride;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const {
    using namespace hiptile::arch;
    struct alignas(16) Vec {
      std::uint32_t v[4];
    };
    BufferResource const in = make_buffer_resource(p.in, p.bytes);
    BufferResource const out = make_buffer_resource(p.out, p.bytes);
    std::uint32_t const offset = hiptile::thread_idx_x() * p.stride;
    buffer_store(out, offset, buffer_load<Vec>(in, offset));
  }
};

TEST_CASE("buffer loads past the end of the buffer read zeros and stores there are dropped") {
  std::vector<std::uint32_t> in(64 * 4), out(64 * 4 + 4, 0xdeadbeef);
  std::iota(in.begin(), in.end(), 1u);
  hiptile::sim::StreamState stream;
  // The buffers claim 40 vectors: threads 40..63 read zeros and their stores are dropped.
  REQUIRE(hiptile::launch<BufferCopy>({{1}, {64}, 0, &stream}, {in.data(), out.data(), 40 * 16, 16}) ==
          Status::kSuccess);
  for (int i = 0; i < 40 * 4; ++i) REQUIRE(out[i] == in[i]);
  for (std::size_t i = 40 * 4; i < out.size(); ++i) REQUIRE(out[i] == 0xdeadbeef);
  CHECK(hiptile::sim::counters(&stream).global_bytes_read == 64 * 16);
  CHECK(hiptile::sim::counters(&stream).global_instructions == 2);
  // A 16-byte access that starts 8 bytes before the end straddles it: undefined on hardware.
  CHECK(hiptile::launch<BufferCopy>({{1}, {64}, 0}, {in.data(), out.data(), 40 * 16 + 8, 16}) ==
        Status::kErrorOutOfBoundsAccess);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("straddles the end of a 648-byte buffer"));
}

struct CrossLane {
  struct Params {
    std::uint32_t* first;
    std::uint32_t* shuffled;
  };
  static constexpr int kMaxThreadsPerBlock = 128;
  void operator()(Params const& p) const {
    using namespace hiptile;
    unsigned const t = thread_idx_x();
    p.first[t] = arch::readfirstlane(1000 + t);
    p.shuffled[t] = arch::shuffle(t * t, 63 - static_cast<int>(lane_idx()));
  }
};

TEST_CASE("readfirstlane and shuffle move values between the lanes of each wave") {
  std::vector<std::uint32_t> first(128), shuffled(128);
  hiptile::sim::StreamState stream;
  REQUIRE(hiptile::launch<CrossLane>({{1}, {128}, 0, &stream}, {first.data(), shuffled.data()}) == Status::kSuccess);
  for (unsigned t = 0; t < 128; ++t) {
    unsigned const wave_base = t / 64 * 64;
    REQUIRE(first[t] == 1000 + wave_base);
    unsigned const source = wave_base + 63 - t % 64;
    REQUIRE(shuffled[t] == source * source);
  }
  CHECK(hiptile::sim::counters(&stream).cross_lane == 4);
}

}  // namespace
