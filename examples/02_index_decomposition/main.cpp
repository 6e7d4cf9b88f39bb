// 02_index_decomposition: map the linear indices of an NHWC tensor back to (n, h, w, c) with
// FastDivmod, in a kernel run by hiptile's MI300 simulator.
//
// A kernel that walks a tensor by linear index splits each index into coordinates:
//   index = ((n·H + h)·W + w)·C + c
//   c = index % C,   w = (index / C) % W,   h = (index / (C·W)) % H,   n = index / (C·W·H)
// GPUs have no integer divide instruction, so each / or % by a runtime value becomes a long
// instruction sequence. FastDivmod computes a multiplier and a shift per divisor once, on the
// host; the kernel then pays one multiply-high and a shift per division. The divisors travel to
// the device in the kernel's Params, the way every hiptile kernel receives host precomputation.
//
// Run: the program prints a few decompositions and "PASSED", and exits non-zero on a mismatch.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

struct Extent {
  int n, h, w, c;
};

// One thread per tensor element writes the element's (n, h, w, c).
struct DecomposeNhwc {
  struct Params {
    hiptile::FastDivmod by_c;  // divides by C
    hiptile::FastDivmod by_w;  // divides by W
    hiptile::FastDivmod by_h;  // divides by H
    int elements;              // N·H·W·C, below 2^31 (FastDivmod's dividend domain)
    int* coords;               // 4 ints per element: n, h, w, c
  };
  static constexpr int kMaxThreadsPerBlock = 256;

  HIPTILE_DEVICE void operator()(Params const& p) const {
    using namespace hiptile;
    int const index = static_cast<int>(block_idx_x() * block_dim_x() + thread_idx_x());
    if (index >= p.elements) return;
    auto const [nhw, c] = p.by_c.divmod(index);  // index = nhw·C + c
    auto const [nh, w] = p.by_w.divmod(nhw);     // nhw = nh·W + w
    auto const [n, h] = p.by_h.divmod(nh);       // nh = n·H + h
    int* out = p.coords + 4 * static_cast<std::size_t>(index);
    out[0] = n, out[1] = h, out[2] = w, out[3] = c;
  }
};

// Host side, once per problem: validate the extents and build the divisors. Every invalid input
// comes back as a Status instead of reaching the kernel.
hiptile::Status make_params(Extent t, int* coords, DecomposeNhwc::Params& p) {
  using hiptile::FastDivmod;
  using hiptile::Status;
  if (t.n <= 0) return Status::kErrorInvalidProblem;
  if (Status const s = FastDivmod::make(t.c, p.by_c); !hiptile::ok(s)) return s;
  if (Status const s = FastDivmod::make(t.w, p.by_w); !hiptile::ok(s)) return s;
  if (Status const s = FastDivmod::make(t.h, p.by_h); !hiptile::ok(s)) return s;
  std::int64_t const elements = std::int64_t{t.n} * t.h * t.w * t.c;
  if (elements > FastDivmod::kMaxDividend) return Status::kErrorIndexOverflow;
  p.elements = static_cast<int>(elements);
  p.coords = coords;
  return Status::kSuccess;
}

}  // namespace

int main() {
  using hiptile::Status;
  Extent const t{3, 19, 23, 40};  // ragged on purpose: no extent is a power of two but C
  std::int64_t const elements = std::int64_t{t.n} * t.h * t.w * t.c;
  std::size_t const bytes = 4 * sizeof(int) * static_cast<std::size_t>(elements);

  void* coords = nullptr;
  if (hiptile::device_allocate(&coords, bytes) != Status::kSuccess) {
    std::fprintf(stderr, "device allocation of %zu bytes failed\n", bytes);
    return 1;
  }
  DecomposeNhwc::Params params{};
  if (Status const s = make_params(t, static_cast<int*>(coords), params); s != Status::kSuccess) {
    std::fprintf(stderr, "invalid extents: %s\n", hiptile::to_string(s));
    return 1;
  }

  unsigned const block = DecomposeNhwc::kMaxThreadsPerBlock;
  unsigned const grid = static_cast<unsigned>(hiptile::ceil_div<std::int64_t>(elements, block));
  if (Status const s = hiptile::launch<DecomposeNhwc>({{grid}, {block}}, params); s != Status::kSuccess) {
    std::fprintf(stderr, "launch failed: %s: %s\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return 1;
  }
  std::vector<int> host(4 * static_cast<std::size_t>(elements));
  Status const copied = hiptile::copy_memory(host.data(), coords, bytes, hiptile::CopyKind::kDeviceToHost);
  hiptile::device_free(coords);
  if (copied != Status::kSuccess) {
    std::fprintf(stderr, "copy to the host failed: %s\n", hiptile::to_string(copied));
    return 1;
  }

  // Check every element against the host's / and %.
  long long mismatches = 0;
  for (int index = 0; index < elements; ++index) {
    int const expect[4] = {index / (t.c * t.w * t.h), index / (t.c * t.w) % t.h, index / t.c % t.w, index % t.c};
    int const* got = &host[4 * static_cast<std::size_t>(index)];
    if (got[0] != expect[0] || got[1] != expect[1] || got[2] != expect[2] || got[3] != expect[3]) {
      if (++mismatches <= 5) {
        std::printf("MISMATCH index %d: got (%d, %d, %d, %d), expected (%d, %d, %d, %d)\n", index, got[0], got[1],
                    got[2], got[3], expect[0], expect[1], expect[2], expect[3]);
      }
    }
  }

  std::printf("NHWC tensor %dx%dx%dx%d: %lld linear indices decomposed with FastDivmod (%s backend)\n", t.n, t.h,
              t.w, t.c, static_cast<long long>(elements), hiptile::to_string(hiptile::kBackend));
  for (int index : {0, 12345, static_cast<int>(elements) - 1}) {
    int const* got = &host[4 * static_cast<std::size_t>(index)];
    std::printf("  index %6d -> (n=%d, h=%2d, w=%2d, c=%2d)\n", index, got[0], got[1], got[2], got[3]);
  }
  // An extent of 0 never reaches the kernel: building the divisor reports it.
  DecomposeNhwc::Params rejected{};
  std::printf("  W = 0 is rejected on the host: %s\n",
              hiptile::to_string(make_params({3, 19, 0, 40}, nullptr, rejected)));
  std::printf("checked %lld elements, %lld mismatches: %s\n", static_cast<long long>(elements), mismatches,
              mismatches == 0 ? "PASSED" : "FAILED");
  return mismatches == 0 ? 0 : 1;
}
