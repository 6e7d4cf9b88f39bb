#pragma once
// Filling a HostMatrix: random values, sequences, constants, and poison (a value no kernel
// writes) to make unwritten output elements visible. Fills draw and write in row-major order of
// (row, column) whatever the layout, so one seed gives the same matrix in either layout; they
// write only the rows × columns elements and leave the padding between rows as it was.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>

#include "hiptile/host/host_matrix.hpp"
#include "hiptile/numeric/numeric_limits.hpp"

namespace hiptile::host {

// Uniform random values in [lo, hi]. Floating-point types draw a real number in [lo, hi)
// (53 random bits) and round it to T; integer types draw an integer in [ceil(lo), floor(hi)] with every value
// equally likely. std::mt19937_64's sequence is fixed by the standard, so results are the same
// with every standard library.
template <HostElement T, class Layout>
void fill_random(HostMatrix<T, Layout>& m, std::uint64_t seed, double lo, double hi) {
  if (!(lo <= hi)) throw std::invalid_argument("hiptile::host::fill_random: lo > hi");
  std::mt19937_64 engine(seed);
  if constexpr (std::is_integral_v<T>) {
    double const first = std::ceil(lo);
    double const last = std::floor(hi);
    if (first > last) throw std::invalid_argument("hiptile::host::fill_random: no integer in [lo, hi]");
    if (first < static_cast<double>(std::numeric_limits<T>::lowest()) ||
        last > static_cast<double>(std::numeric_limits<T>::max())) {
      throw std::invalid_argument("hiptile::host::fill_random: [lo, hi] exceeds the integer type's range");
    }
    static_assert(sizeof(T) <= 4, "fill_random draws integers of at most 32 bits");
    auto const base = static_cast<std::int64_t>(first);
    auto const count = static_cast<std::uint64_t>(static_cast<std::int64_t>(last) - base) + 1;  // <= 2^32
    // Rejection sampling: accept draws below the largest multiple of count, so there is no
    // modulo bias.
    std::uint64_t const limit = std::numeric_limits<std::uint64_t>::max() -
                                std::numeric_limits<std::uint64_t>::max() % count;
    for (std::int64_t r = 0; r < m.rows(); ++r) {
      for (std::int64_t c = 0; c < m.columns(); ++c) {
        std::uint64_t draw = engine();
        while (draw >= limit) draw = engine();
        m.at(r, c) = static_cast<T>(base + static_cast<std::int64_t>(draw % count));
      }
    }
  } else {
    for (std::int64_t r = 0; r < m.rows(); ++r) {
      for (std::int64_t c = 0; c < m.columns(); ++c) {
        double const unit = static_cast<double>(engine() >> 11) * 0x1p-53;  // [0, 1)
        m.at(r, c) = from_double<T>(lo + (hi - lo) * unit);
      }
    }
  }
}

// Element (r, c) = start + step * (i mod period), with i = r * columns + c its row-major index
// (period 0: no wrap). A wrap keeps values exactly representable in narrow types: half_t holds
// the integers up to 2048 exactly, bfloat16_t up to 256, fp8 e4m3 up to 16.
template <HostElement T, class Layout>
void fill_sequence(HostMatrix<T, Layout>& m, double start = 0.0, double step = 1.0, std::int64_t period = 0) {
  if (period < 0) throw std::invalid_argument("hiptile::host::fill_sequence: negative period");
  for (std::int64_t r = 0; r < m.rows(); ++r) {
    for (std::int64_t c = 0; c < m.columns(); ++c) {
      std::int64_t const i = r * m.columns() + c;
      m.at(r, c) = from_double<T>(start + step * static_cast<double>(period == 0 ? i : i % period));
    }
  }
}

// Every element = value.
template <HostElement T, class Layout>
void fill_constant(HostMatrix<T, Layout>& m, double value) {
  T const v = from_double<T>(value);
  for (std::int64_t r = 0; r < m.rows(); ++r) {
    for (std::int64_t c = 0; c < m.columns(); ++c) m.at(r, c) = v;
  }
}

// The poison value of T: a NaN with a payload arithmetic does not produce (0x7fc5a5a5 for
// float), so a NaN computed by a kernel can be told from an element it never wrote. Formats with
// a single NaN code (the fp8 e4m3fn and FNUZ types) use it, and there the two cannot be told
// apart. Integers have no such value: the signed minimum or the unsigned maximum serves, which
// is also a legal value (compare() counts it unwritten only where it is also wrong).
template <HostElement T>
T poison_value() {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(std::uint32_t{0x7fc5a5a5u});
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(std::uint64_t{0x7ff8a5a5a5a5a5a5u});
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();
  } else if constexpr (std::is_integral_v<T>) {
    return std::is_signed_v<T> ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  } else {
    using Format = typename T::Format;
    if constexpr (Format::kNonFinite == NonFiniteEncoding::kIeee) {
      // The canonical quiet NaN with the payload bits below the quiet bit alternating 1010...
      std::uint32_t const payload = 0xaaaau & (Format::kMantissaMask >> 1);
      return T::from_bits(static_cast<typename Format::Storage>(Format::kQuietNanCode | (payload ? payload : 1u)));
    } else {
      return hiptile::numeric_limits<T>::quiet_NaN();
    }
  }
}

// x is T's poison value (bit for bit; integers by value).
template <HostElement T>
bool is_poison(T x) {
  T const p = poison_value<T>();
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(p);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(p);
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(x);
  } else if constexpr (std::is_integral_v<T>) {
    return x == p;
  } else {
    return x.bits() == p.bits();
  }
}

// Every element of the storage = poison_value<T>(), the padding between rows (or columns)
// included, so a kernel that writes nothing, or writes into the padding, shows up.
template <HostElement T, class Layout>
void poison(HostMatrix<T, Layout>& m) {
  T const p = poison_value<T>();
  for (T& x : m.storage()) x = p;
}

}  // namespace hiptile::host
