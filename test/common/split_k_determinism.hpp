#pragma once
// The split-K property GEMM and convolution share: for each slice count, the output is bitwise the
// same run after run, serial split-K's with one host thread (the slices of a tile run one after
// another) and with four (side by side), and serial equals parallel: both add the slices in one
// order (the last slice's sum, then the others in slice order). `run(mode, slices)` returns an output as a vector of trivially copyable elements, for
// mode std::integral_constant<SplitKMode, kSerial or kParallel>.
#include <catch2/catch.hpp>

#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/sim/runtime.hpp"

namespace test_support {

template <hiptile::gemm::kernel::SplitKMode Mode>
using SplitKModeTag = std::integral_constant<hiptile::gemm::kernel::SplitKMode, Mode>;

template <class T>
bool same_bits(std::vector<T> const& x, std::vector<T> const& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

template <class Run>
void check_split_k_bitwise(Run const& run, std::initializer_list<int> slice_counts) {
  using hiptile::gemm::kernel::SplitKMode;
  int const saved = hiptile::sim::host_threads();
  for (int slices : slice_counts) {
    INFO("slices " << slices);
    auto const parallel = run(SplitKModeTag<SplitKMode::kParallel>{}, slices);
    CHECK(same_bits(parallel, run(SplitKModeTag<SplitKMode::kParallel>{}, slices)));
    hiptile::sim::set_host_threads(1);
    auto const serial = run(SplitKModeTag<SplitKMode::kSerial>{}, slices);
    hiptile::sim::set_host_threads(4);
    CHECK(same_bits(serial, run(SplitKModeTag<SplitKMode::kSerial>{}, slices)));
    hiptile::sim::set_host_threads(saved);
    CHECK(same_bits(serial, parallel));
  }
}

}  // namespace test_support
