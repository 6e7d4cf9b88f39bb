#pragma once
// What the ISA of an AMD test kernel cannot show about its launch, for test/amd's kernel sources.
//
// LaunchBudget<Operator> checks at compile time that the dynamic LDS the operator launches with
// fits one workgroup (64 KiB on gfx942 and gfx90a) and that the kernel's launch bound (the block
// size the compiler budgets registers for) is the block size the operator launches. It also
// writes that LDS into the device assembly as the constant launch_lds_bytes<Kernel>, which
// scripts/timing_model reads: the ISA's metadata holds only static LDS, 0 for every hiptile kernel.
#include <cstddef>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::test {

template <class Kernel>
HIPTILE_DEVICE __attribute__((used)) constexpr unsigned launch_lds_bytes = static_cast<unsigned>(Kernel::kLdsBytes);

template <class Operator>
struct LaunchBudget {
  static_assert(Operator::kLdsBytes <= 64 * 1024, "the operator's dynamic LDS exceeds 64 KiB per workgroup");
  static_assert(Operator::Kernel::kLdsBytes == Operator::kLdsBytes, "the kernel and the operator disagree on LDS bytes");
  static_assert(Operator::Kernel::kMaxThreadsPerBlock == Operator::kThreads,
                "the kernel's launch bound is not the block size the operator launches");
  // Instantiates (and so emits) the kernel's LDS record.
  static constexpr unsigned const* kLdsRecord = &launch_lds_bytes<typename Operator::Kernel>;
};

}  // namespace hiptile::test
