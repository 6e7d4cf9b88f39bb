#pragma once
// hiptile's version. The tuning database keys its entries on it, so that a winner measured with one
// release is never reused by another. CMake checks that it matches project(VERSION).
namespace hiptile {

inline constexpr int kVersionMajor = 0;
inline constexpr int kVersionMinor = 2;
inline constexpr int kVersionPatch = 0;
inline constexpr char const* kVersion = "0.2.0";

}  // namespace hiptile
