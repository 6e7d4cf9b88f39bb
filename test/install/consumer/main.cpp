// A user's program against an installed hiptile: a kernel that reverses each workgroup's values
// through dynamic LDS, launched with hiptile::launch and checked on the host. The same source
// is a simulator program (hiptile::sim) and a HIP program (hiptile_add_hip_executable).
#include <cstdio>
#include <vector>

#include "hiptile/platform/platform.hpp"

struct ReverseInWorkgroup {
  struct Params {
    int const* in;
    int* out;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    int* lds = hiptile::dynamic_lds_as<int>();
    unsigned const n = hiptile::block_dim_x();
    unsigned const t = hiptile::thread_idx_x();
    unsigned const base = hiptile::block_idx_x() * n;
    lds[t] = p.in[base + t];
    hiptile::barrier();
    p.out[base + t] = lds[n - 1 - t];
  }
};

int main() {
  unsigned const groups = 3, threads = 192;
  std::size_t const count = groups * threads, bytes = count * sizeof(int);
  std::vector<int> in(count), out(count, 0);
  for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<int>(i * 31 + 7);

  void* d_in = nullptr;
  void* d_out = nullptr;
  if (!hiptile::ok(hiptile::device_allocate(&d_in, bytes)) || !hiptile::ok(hiptile::device_allocate(&d_out, bytes)) ||
      !hiptile::ok(hiptile::copy_memory(d_in, in.data(), bytes, hiptile::CopyKind::kHostToDevice))) {
    std::printf("device memory failed\n");
    return 1;
  }
  hiptile::Status const s = hiptile::launch<ReverseInWorkgroup>(
      {{groups}, {threads}, threads * sizeof(int)}, {static_cast<int const*>(d_in), static_cast<int*>(d_out)});
  if (!hiptile::ok(s) || !hiptile::ok(hiptile::device_synchronize()) ||
      !hiptile::ok(hiptile::copy_memory(out.data(), d_out, bytes, hiptile::CopyKind::kDeviceToHost))) {
    std::printf("launch failed: %s %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return 1;
  }
  hiptile::device_free(d_in);
  hiptile::device_free(d_out);

  int wrong = 0;
  for (unsigned g = 0; g < groups; ++g)
    for (unsigned t = 0; t < threads; ++t)
      if (out[g * threads + t] != in[g * threads + threads - 1 - t]) ++wrong;
  std::printf("hiptile consumer (%s backend): %d of %zu values wrong\n", hiptile::to_string(hiptile::kBackend), wrong,
              count);
  return wrong == 0 ? 0 : 1;
}
