#pragma once
// An independent reference for the numeric tests. It knows each format only from its definition
// (field widths, bias, which codes are infinities and NaNs), decodes with ldexp in double, and
// rounds by looking the value up in a sorted table of every finite value and picking the nearer
// neighbour (ties: the code with an even mantissa). It shares no code and no algorithm with
// hiptile's bit manipulation, so a bug there cannot hide by being repeated here.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hiptile/numeric/overflow_mode.hpp"

namespace numeric_reference {

enum class Specials {
  kIeee,  // all-ones exponent field: infinity if the mantissa is 0, else NaN
  kFn,    // no infinities; only all-ones exponent and mantissa (either sign) is NaN
  kFnuz,  // no infinities, no -0; the code with only the sign bit set is the NaN
};

struct Spec {
  const char* name;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Specials specials;

  int bits() const { return 1 + exponent_bits + mantissa_bits; }
  std::uint32_t code_count() const { return 1u << bits(); }
  std::uint32_t sign_mask() const { return 1u << (bits() - 1); }
  std::uint32_t exponent_field(std::uint32_t code) const {
    return (code >> mantissa_bits) & ((1u << exponent_bits) - 1);
  }
  std::uint32_t mantissa_field(std::uint32_t code) const {
    return code & ((1u << mantissa_bits) - 1);
  }
  bool negative(std::uint32_t code) const { return (code & sign_mask()) != 0; }
  bool has_infinity() const { return specials == Specials::kIeee; }

  bool is_nan(std::uint32_t code) const {
    std::uint32_t const all_ones_exponent = (1u << exponent_bits) - 1;
    std::uint32_t const all_ones_mantissa = (1u << mantissa_bits) - 1;
    switch (specials) {
      case Specials::kIeee:
        return exponent_field(code) == all_ones_exponent && mantissa_field(code) != 0;
      case Specials::kFn:
        return exponent_field(code) == all_ones_exponent &&
               mantissa_field(code) == all_ones_mantissa;
      case Specials::kFnuz:
        return code == sign_mask();
    }
    return false;
  }
  bool is_infinity(std::uint32_t code) const {
    return specials == Specials::kIeee && exponent_field(code) == (1u << exponent_bits) - 1 &&
           mantissa_field(code) == 0;
  }

  // (-1)^s * 1.m * 2^(e - bias) for normals, (-1)^s * 0.m * 2^(1 - bias) for subnormals.
  double decode(std::uint32_t code) const {
    if (is_nan(code)) return std::numeric_limits<double>::quiet_NaN();
    double magnitude;
    if (is_infinity(code)) {
      magnitude = std::numeric_limits<double>::infinity();
    } else if (exponent_field(code) == 0) {
      magnitude = std::ldexp(double(mantissa_field(code)), 1 - bias - mantissa_bits);
    } else {
      double const significand = 1.0 + std::ldexp(double(mantissa_field(code)), -mantissa_bits);
      magnitude = std::ldexp(significand, int(exponent_field(code)) - bias);
    }
    return negative(code) ? -magnitude : magnitude;
  }
};

// The expected result of rounding: a NaN (any NaN code will do) or one exact code.
struct Expected {
  bool nan;
  std::uint32_t code;
};

inline bool matches(Spec const& spec, Expected e, std::uint32_t code) {
  return e.nan ? spec.is_nan(code) : code == e.code;
}

class Rounder {
 public:
  explicit Rounder(Spec const& spec) : spec_(spec) {
    for (std::uint32_t c = 0; c < spec_.sign_mask(); ++c) {
      if (!spec_.is_nan(c) && !spec_.is_infinity(c)) finite_.push_back({spec_.decode(c), c});
    }
    std::sort(finite_.begin(), finite_.end(),
              [](Entry const& a, Entry const& b) { return a.value < b.value; });
    Entry const& max = finite_.back();
    Entry const& below_max = finite_[finite_.size() - 2];
    // With an unbounded exponent the next value after max is max + one ulp; its code would be
    // max's code + 1, so it is the even one of the pair exactly when max's code is odd.
    beyond_max_ = {max.value + (max.value - below_max.value), max.code + 1};
  }

  Spec const& spec() const { return spec_; }
  double max() const { return finite_.back().value; }
  std::uint32_t max_code() const { return finite_.back().code; }
  // Every finite non-negative value with its code, in increasing order.
  struct Entry {
    double value;
    std::uint32_t code;
  };
  std::vector<Entry> const& finite_non_negative() const { return finite_; }

  // Round to nearest, ties to even; beyond max: saturate, or infinity, or NaN.
  Expected round(double x, bool saturate) const {
    if (std::isnan(x)) return {true, 0};
    std::uint32_t const sign = std::signbit(x) ? spec_.sign_mask() : 0u;
    double const a = std::fabs(x);
    Expected const overflow = saturate               ? Expected{false, sign | max_code()}
                              : spec_.has_infinity() ? Expected{false, sign | infinity_code()}
                                                     : Expected{true, 0};
    if (std::isinf(a)) return overflow;

    auto const above = std::upper_bound(finite_.begin(), finite_.end(), a,
                                        [](double v, Entry const& e) { return v < e.value; });
    Entry const& lo = *(above - 1);  // finite_[0] is 0 <= a
    Entry chosen = lo;
    if (lo.value != a) {
      Entry const& hi = above == finite_.end() ? beyond_max_ : *above;
      double const mid = (lo.value + hi.value) / 2;  // exact: both have few significant bits
      if (a > mid || (a == mid && (hi.code & 1u) == 0)) chosen = hi;
    }
    if (chosen.code == beyond_max_.code) return overflow;
    if (chosen.code == 0 && spec_.specials == Specials::kFnuz) return {false, 0};
    return {false, sign | chosen.code};
  }

 private:
  std::uint32_t infinity_code() const {
    return ((1u << spec_.exponent_bits) - 1) << spec_.mantissa_bits;
  }

  Spec spec_;
  std::vector<Entry> finite_;
  Entry beyond_max_;
};

// Collects the first few failures of a long loop, so one CHECK reports them all.
class Failures {
 public:
  template <class... Args>
  void add(char const* format, Args... args) {
    ++count_;
    if (count_ <= 8) {
      char line[256];
      std::snprintf(line, sizeof line, format, args...);
      text_ += line;
      text_ += '\n';
    }
  }
  int count() const { return count_; }
  std::string const& text() const { return text_; }

 private:
  int count_ = 0;
  std::string text_;
};

inline void check_no_failures(Failures const& failures) {
  INFO(failures.text());
  CHECK(failures.count() == 0);
}

// A float whose value is x in double; x must be representable.
inline float exactly_float(double x) {
  float const f = float(x);
  REQUIRE(double(f) == x);
  return f;
}

// ---- Checks shared by the half_t, bfloat16_t and fp8 tests. T is a hiptile NarrowFloat. ----

template <class T>
std::uint32_t code_of(T t) {
  return t.bits();
}

template <class T>
T from_code(std::uint32_t code) {
  return T::from_bits(static_cast<decltype(T{}.bits())>(code));
}

template <class T>
void check_every_code_decodes_as_defined(Spec const& spec) {
  Failures failures;
  for (std::uint32_t c = 0; c < spec.code_count(); ++c) {
    float const got = float(from_code<T>(c));
    double const want = spec.decode(c);
    bool const ok = std::isnan(want)
                        ? std::isnan(got)
                        : double(got) == want && std::signbit(got) == std::signbit(want);
    if (!ok) failures.add("%s code 0x%x decodes to %a, want %a", spec.name, c, double(got), want);
  }
  check_no_failures(failures);
}

template <class T>
void check_every_code_round_trips(Spec const& spec, hiptile::OverflowMode mode) {
  Failures failures;
  for (std::uint32_t c = 0; c < spec.code_count(); ++c) {
    std::uint32_t const back = code_of(T(float(from_code<T>(c)), mode));
    bool const ok = spec.is_nan(c) ? spec.is_nan(back) : back == c;
    if (!ok) failures.add("%s code 0x%x comes back as 0x%x", spec.name, c, back);
  }
  check_no_failures(failures);
}

// For every pair of adjacent finite values of one sign: the exact midpoint rounds to the code
// with the even mantissa, the floats just inside it round to the nearer value.
template <class T>
void check_midpoints_round_to_even(Rounder const& rounder, hiptile::OverflowMode mode) {
  Spec const& spec = rounder.spec();
  auto const& values = rounder.finite_non_negative();
  auto signed_code = [&](std::uint32_t code, bool negative) {
    if (!negative) return code;
    if (code == 0 && spec.specials == Specials::kFnuz) return 0u;  // no -0
    return code | spec.sign_mask();
  };
  Failures failures;
  int pairs = 0;
  for (bool negative : {false, true}) {
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
      auto const& lo = values[i];
      auto const& hi = values[i + 1];
      REQUIRE(((lo.code ^ hi.code) & 1u) == 1u);  // adjacent values: one code is even
      double const s = negative ? -1.0 : 1.0;
      float const mid = exactly_float(s * (lo.value + hi.value) / 2);
      float const toward_zero = std::nextafter(mid, 0.0f);
      float const away = std::nextafter(mid, float(s) * std::numeric_limits<float>::infinity());
      std::uint32_t const even = (lo.code & 1u) == 0 ? lo.code : hi.code;
      struct Case {
        float x;
        std::uint32_t want;
      };
      for (Case k : {Case{mid, even}, Case{toward_zero, lo.code}, Case{away, hi.code}}) {
        std::uint32_t const want = signed_code(k.want, negative);
        std::uint32_t const got = code_of(T(k.x, mode));
        if (got != want)
          failures.add("%s(%a) = 0x%x, want 0x%x", spec.name, double(k.x), got, want);
      }
      ++pairs;
    }
  }
  CHECK(pairs == 2 * int(values.size() - 1));
  check_no_failures(failures);
}

// Random floats against the reference: half drawn from all float bit patterns, half spread over
// the format's own range (a few binades beyond either end included).
template <class T>
void check_random_floats_round_like_reference(Rounder const& rounder, hiptile::OverflowMode mode,
                                              int count, std::uint64_t seed) {
  bool const saturate = mode == hiptile::OverflowMode::kSaturating;
  Spec const& spec = rounder.spec();
  std::mt19937_64 rng(seed);
  int const lowest_exponent = 1 - spec.bias - spec.mantissa_bits - 3;
  int const highest_exponent = (1 << spec.exponent_bits) - spec.bias + 2;
  std::uniform_int_distribution<int> exponent(lowest_exponent, highest_exponent);
  std::uniform_int_distribution<std::uint32_t> bits32;
  Failures failures;
  for (int i = 0; i < count; ++i) {
    float x;
    std::uint32_t const r = bits32(rng);
    if (i % 2 == 0) {
      std::memcpy(&x, &r, sizeof x);
    } else {
      double const significand = 1.0 + std::ldexp(double(r & 0x7fffffu), -23);
      x = float(std::ldexp((r >> 31) ? -significand : significand, exponent(rng)));
    }
    Expected const want = rounder.round(double(x), saturate);
    std::uint32_t const got = code_of(T(x, mode));
    if (!matches(spec, want, got)) {
      failures.add("%s(%a) = 0x%x, want 0x%x%s", spec.name, double(x), got, want.code,
                   want.nan ? " (NaN)" : "");
    }
  }
  check_no_failures(failures);
}

// a op b computed exactly (or, for /, in double: 53 >= 2p + 2 bits, so rounding the double
// quotient again is still the correctly rounded quotient) and rounded by the reference.
template <class T>
void check_arithmetic_pair(Rounder const& rounder, std::uint32_t ca, std::uint32_t cb,
                           Failures& failures) {
  Spec const& spec = rounder.spec();
  T const a = from_code<T>(ca);
  T const b = from_code<T>(cb);
  double const x = spec.decode(ca);
  double const y = spec.decode(cb);
  struct Op {
    char name;
    std::uint32_t got;
    double exact;
  };
  for (Op op : {Op{'+', code_of(a + b), x + y}, Op{'-', code_of(a - b), x - y},
                Op{'*', code_of(a * b), x * y}, Op{'/', code_of(a / b), x / y}}) {
    Expected const want = rounder.round(op.exact, false);
    if (!matches(spec, want, op.got)) {
      failures.add("%s 0x%x %c 0x%x = 0x%x, want 0x%x%s", spec.name, ca, op.name, cb, op.got,
                   want.code, want.nan ? " (NaN)" : "");
    }
  }
}

}  // namespace numeric_reference
