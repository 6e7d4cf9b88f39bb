#pragma once
// BiasMode: which bias vector element an output element adds. The epilogue reads it and passes
// it to the output functor as its bias argument (0 for kNone).
namespace hiptile::epilogue {

enum class BiasMode {
  kNone,       // no bias
  kPerRow,     // D[m][n] adds bias[m]: one value per output row (per M index)
  kPerColumn,  // D[m][n] adds bias[n]: one value per output column (per N index)
};

// Whether `mode` is one of the enumerators (a BiasMode read from user input may not be).
constexpr bool is_valid(BiasMode mode) noexcept {
  return mode == BiasMode::kNone || mode == BiasMode::kPerRow || mode == BiasMode::kPerColumn;
}

constexpr const char* to_string(BiasMode mode) noexcept {
  switch (mode) {
    case BiasMode::kNone: return "none";
    case BiasMode::kPerRow: return "per row";
    case BiasMode::kPerColumn: return "per column";
  }
  return "unknown";
}

}  // namespace hiptile::epilogue
