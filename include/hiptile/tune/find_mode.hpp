#pragma once
// FindMode: how a tuned operator (TunedGemm, TunedConvolution) picks its candidate for a problem it
// has not seen in this process. HIPTILE_FIND_MODE sets it (the names below); code may set it per
// operator (TuningOptions). Nothing is timed unless the mode says so.
//
//   heuristic  the documented heuristic only; no database, no timing
//   db         the tuning database's winner when it has one, else the heuristic (the default:
//              tune ahead of time with hiptile_tune, run with what it stored)
//   hybrid     the database's winner; on a miss, time every candidate that takes the problem,
//              store the fastest, use it
//   search     time every candidate even when the database has a winner, and store the fastest
//
// Whatever the mode, a choice is made once per problem and process and kept (choice_cache.hpp).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace hiptile::tune {

enum class FindMode { kHeuristic, kDatabase, kHybrid, kSearch };

inline constexpr FindMode kDefaultFindMode = FindMode::kDatabase;

constexpr char const* to_string(FindMode m) noexcept {
  switch (m) {
    case FindMode::kHeuristic: return "heuristic";
    case FindMode::kDatabase: return "db";
    case FindMode::kHybrid: return "hybrid";
    case FindMode::kSearch: return "search";
  }
  return "unknown";
}

// The mode named `text` ("heuristic", "db", "hybrid", "search"); false for any other text.
inline bool parse_find_mode(std::string_view text, FindMode& mode) noexcept {
  for (FindMode m : {FindMode::kHeuristic, FindMode::kDatabase, FindMode::kHybrid, FindMode::kSearch}) {
    if (text == to_string(m)) {
      mode = m;
      return true;
    }
  }
  return false;
}

// The mode `value` (HIPTILE_FIND_MODE's, null when unset) asks for; a value that names none is
// ignored with `warning` set, and the default used.
inline FindMode find_mode_from(char const* value, std::string& warning) {
  FindMode mode = kDefaultFindMode;
  if (value != nullptr && *value != '\0' && !parse_find_mode(value, mode)) {
    warning = "HIPTILE_FIND_MODE=" + std::string(value) +
              " is not one of heuristic, db, hybrid, search: using the default, " + to_string(kDefaultFindMode);
  }
  return mode;
}

// HIPTILE_FIND_MODE, read once per process; a bad value is warned about on standard error.
inline FindMode find_mode_from_environment() {
  static FindMode const mode = [] {
    std::string warning;
    FindMode const m = find_mode_from(std::getenv("HIPTILE_FIND_MODE"), warning);
    if (!warning.empty()) std::fprintf(stderr, "hiptile warning: %s\n", warning.c_str());
    return m;
  }();
  return mode;
}

}  // namespace hiptile::tune
