#pragma once
// Architecture tags: template arguments that say which GPU a configuration targets.
namespace hiptile::arch {

struct Gfx942 {  // MI300 (CDNA3)
  static constexpr int kWaveSize = 64;
  static constexpr int kLdsBytesPerWorkgroup = 64 * 1024;
  static constexpr char const* kName = "gfx942";
};
struct Gfx90a {  // MI200 (CDNA2)
  static constexpr int kWaveSize = 64;
  static constexpr int kLdsBytesPerWorkgroup = 64 * 1024;
  static constexpr char const* kName = "gfx90a";
};
struct Sm80 {  // A100
  static constexpr int kWaveSize = 32;
  static constexpr int kLdsBytesPerWorkgroup = 163 * 1024;
  static constexpr char const* kName = "sm_80";
};
struct Sm90 {  // H100
  static constexpr int kWaveSize = 32;
  static constexpr int kLdsBytesPerWorkgroup = 227 * 1024;
  static constexpr char const* kName = "sm_90";
};

}  // namespace hiptile::arch
