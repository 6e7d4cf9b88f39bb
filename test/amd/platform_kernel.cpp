// The platform layer end to end, one source for every backend: thread/workgroup/grid indices,
// lane and wave numbers, workgroup barriers, dynamic LDS and launch.
//
//   test/amd     compiles it as HIP for gfx942 and gfx90a: its ISA is checked by
//                scripts/isa_report, and a linked HIP program proves it links (not run here)
//   test/nvidia  compiles it with nvcc for sm_90 and runs it on an NVIDIA GPU
//   sim          the same program runs in hiptile's simulator
//
// The program exits 0 when every launch returned the expected values, 1 otherwise.
#include <cstdio>
#include <vector>

#include "hiptile/platform/platform.hpp"

namespace platform_test {

// Each workgroup passes its values around a ring held in dynamic LDS. In every round thread t
// writes its value, waits at a barrier and takes the value of thread (t + 1) mod n, then waits
// again before the slot is overwritten; after `rounds` rounds thread t holds the input of thread
// (t + rounds) mod n. A missing barrier, a wrong LDS base or a wrong index changes the result.
// Every thread also records where the platform says it is, to check the index functions.
struct LdsRotateKernel {
  struct Params {
    int const* in;       // grid.x * block.x values
    int* out;            // grid.x * block.x rotated values
    unsigned* position;  // grid.x * block.x values: see kPosition below
    int rounds;
  };
  static constexpr int kMaxThreadsPerBlock = 1024;

  // What each thread records: its linear index rebuilt from wave and lane, and the grid width.
  HIPTILE_HOST_DEVICE static constexpr unsigned position(unsigned linear, unsigned grid_x) {
    return linear + 4096u * grid_x;
  }

  HIPTILE_DEVICE void operator()(Params const& p) const {
    int* ring = hiptile::dynamic_lds_as<int>();
    unsigned const n = hiptile::block_dim_x();
    unsigned const t = hiptile::thread_idx_x();
    unsigned const i = hiptile::block_idx_x() * n + t;
    int value = p.in[i];
    for (int r = 0; r < p.rounds; ++r) {
      ring[t] = value;
      hiptile::barrier();
      value = ring[(t + 1) % n];
      hiptile::barrier();
    }
    p.out[i] = value;
    unsigned const linear = hiptile::wave_idx() * hiptile::kWaveSize + hiptile::lane_idx();
    p.position[i] = position(linear, hiptile::grid_dim_x());
  }
};

}  // namespace platform_test

namespace {

using platform_test::LdsRotateKernel;

// Device memory for `count` values of T, freed on scope exit.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : bytes_(count * sizeof(T)) {
    void* p = nullptr;
    status_ = hiptile::device_allocate(&p, bytes_);
    ptr_ = static_cast<T*>(p);
  }
  ~DeviceArray() { hiptile::device_free(ptr_); }
  DeviceArray(DeviceArray const&) = delete;
  DeviceArray& operator=(DeviceArray const&) = delete;
  T* get() const { return ptr_; }
  hiptile::Status status() const { return status_; }
  hiptile::Status upload(std::vector<T> const& host) const {
    return hiptile::copy_memory(ptr_, host.data(), bytes_, hiptile::CopyKind::kHostToDevice);
  }
  hiptile::Status download(std::vector<T>& host) const {
    return hiptile::copy_memory(host.data(), ptr_, bytes_, hiptile::CopyKind::kDeviceToHost);
  }

 private:
  std::size_t bytes_;
  T* ptr_ = nullptr;
  hiptile::Status status_;
};

bool fail(char const* what, hiptile::Status s) {
  std::printf("  %s failed: %s\n", what, hiptile::to_string(s));
  return false;
}

// One launch of `groups` workgroups of `threads` threads; true if every value is right.
bool run_case(unsigned groups, unsigned threads, int rounds) {
  std::printf("%u workgroups x %u threads, %d rounds\n", groups, threads, rounds);
  std::size_t const count = std::size_t(groups) * threads;
  std::vector<int> in(count), out(count, -1);
  std::vector<unsigned> position(count, ~0u);
  for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<int>(i * 7919 % 100003) - 50000;

  DeviceArray<int> d_in(count), d_out(count);
  DeviceArray<unsigned> d_position(count);
  for (hiptile::Status s : {d_in.status(), d_out.status(), d_position.status()}) {
    if (!hiptile::ok(s)) return fail("device_allocate", s);
  }
  if (hiptile::Status s = d_in.upload(in); !hiptile::ok(s)) return fail("upload", s);
  if (hiptile::Status s = d_out.upload(out); !hiptile::ok(s)) return fail("upload", s);

  hiptile::LaunchConfig const config{{groups}, {threads}, threads * sizeof(int)};
  hiptile::Status s = hiptile::launch<LdsRotateKernel>(config, {d_in.get(), d_out.get(), d_position.get(), rounds});
  if (!hiptile::ok(s)) {
    std::printf("  launch failed: %s: %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return false;
  }
  if (s = hiptile::device_synchronize(); !hiptile::ok(s)) return fail("device_synchronize", s);
  if (s = d_out.download(out); !hiptile::ok(s)) return fail("download", s);
  if (s = d_position.download(position); !hiptile::ok(s)) return fail("download", s);

  int mismatches = 0;
  for (unsigned g = 0; g < groups; ++g) {
    for (unsigned t = 0; t < threads; ++t) {
      std::size_t const i = std::size_t(g) * threads + t;
      int const want = in[g * threads + (t + unsigned(rounds)) % threads];
      unsigned const want_position = LdsRotateKernel::position(t, groups);
      if (out[i] == want && position[i] == want_position) continue;
      if (++mismatches <= 5) {
        std::printf("  workgroup %u thread %u: value %d (want %d), position %u (want %u)\n", g, t, out[i], want,
                    position[i], want_position);
      }
    }
  }
  if (mismatches > 0) std::printf("  %d threads wrong\n", mismatches);
  return mismatches == 0;
}

}  // namespace

int main() {
  struct Case {
    unsigned groups, threads;
    int rounds;
  };
  // Whole waves, a partial last wave, and the largest workgroup.
  Case const cases[] = {{5, 64, 7}, {3, 256, 3}, {2, 1000, 11}, {4, 1024, 2}, {1, 1, 3}};
  int passed = 0, failed = 0;
  std::printf("platform_kernel on the %s backend (wave size %d)\n", hiptile::to_string(hiptile::kBackend),
              hiptile::kWaveSize);
  for (Case const& c : cases) (run_case(c.groups, c.threads, c.rounds) ? passed : failed) += 1;
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
