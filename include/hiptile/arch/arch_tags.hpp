#pragma once
// Architecture tags: template arguments that say which GPU a configuration targets.
//
// xcds(compute_units): the dies with their own L2 that workgroups are dealt round-robin over, for
// schedules that keep related work on one (stream-K); 1 where the L2 is shared.
namespace hiptile::arch {

struct Gfx942 {  // MI300 (CDNA3)
  static constexpr int kWaveSize = 64;
  static constexpr int kLdsBytesPerWorkgroup = 64 * 1024;
  static constexpr char const* kName = "gfx942";
  // 38 active CUs per XCD: MI300X 8 × 38 = 304, MI300A 6 × 38 = 228, a CPX partition one XCD
  // (FACTS.md). Any other count is read as one L2.
  static constexpr int xcds(int compute_units) { return compute_units % 38 == 0 ? compute_units / 38 : 1; }
};
struct Gfx90a {  // MI200 (CDNA2): one L2 per GCD, and HIP sees each GCD as a device
  static constexpr int kWaveSize = 64;
  static constexpr int kLdsBytesPerWorkgroup = 64 * 1024;
  static constexpr char const* kName = "gfx90a";
  static constexpr int xcds(int) { return 1; }
};
struct Sm80 {  // A100
  static constexpr int kWaveSize = 32;
  static constexpr int kLdsBytesPerWorkgroup = 163 * 1024;
  static constexpr char const* kName = "sm_80";
  static constexpr int xcds(int) { return 1; }
};
struct Sm90 {  // H100
  static constexpr int kWaveSize = 32;
  static constexpr int kLdsBytesPerWorkgroup = 227 * 1024;
  static constexpr char const* kName = "sm_90";
  static constexpr int xcds(int) { return 1; }
};

}  // namespace hiptile::arch
