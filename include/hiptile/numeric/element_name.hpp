#pragma once
// element_name<T>(): the short name of a hiptile element type, as logs, tuning keys and the timing
// model's labels write it: "f16", "bf16", "f32", "i8", "i32", or a narrow float's format
// ("E4M3FNUZ"); "?" for a type it has no name for.
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"

namespace hiptile {

namespace detail {

inline constexpr std::string_view kUnnamedElement = "?";

template <class Format>
constexpr std::string_view format_name() {
  if constexpr (std::is_same_v<Format, FormatBinary16>) return "Binary16";
  else if constexpr (std::is_same_v<Format, FormatBFloat16>) return "BFloat16";
  else if constexpr (std::is_same_v<Format, FormatE4M3FNUZ>) return "E4M3FNUZ";
  else if constexpr (std::is_same_v<Format, FormatE5M2FNUZ>) return "E5M2FNUZ";
  else if constexpr (std::is_same_v<Format, FormatE4M3FN>) return "E4M3FN";
  else if constexpr (std::is_same_v<Format, FormatE5M2>) return "E5M2";
  else return kUnnamedElement;
}

template <class T>
struct NarrowFormatName {
  static constexpr std::string_view kName = kUnnamedElement;
};
template <class Format>
struct NarrowFormatName<NarrowFloat<Format>> {
  static constexpr std::string_view kName = format_name<Format>();
};

}  // namespace detail

// A narrow float's number format ("Binary16" for half_t), "?" for any other type.
template <class T>
constexpr std::string_view format_name() {
  return detail::NarrowFormatName<T>::kName;
}

template <class T>
constexpr std::string_view element_name() {
  if constexpr (std::is_same_v<T, half_t>) return "f16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bf16";
  else if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "i8";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  else return format_name<T>();
}

}  // namespace hiptile
