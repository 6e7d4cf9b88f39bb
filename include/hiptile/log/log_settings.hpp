#pragma once
// What hiptile logs and where, from HIPTILE_LOG_LEVEL, HIPTILE_LOG_MASK and HIPTILE_LOG_FILE (the
// variables and their meaning follow hipBLASLt's documentation, "hipBLASLt logging"; docs/logging.md
// has sample output):
//
//   HIPTILE_LOG_LEVEL  0 off (default), 1 error, 2 trace, 3 hints, 4 info, 5 api trace; each level
//                      logs its category and every one below it
//   HIPTILE_LOG_MASK   categories as bits, combinable: 1 error, 2 trace, 4 hints, 8 info, 16 api,
//                      32 bench, 64 profile (decimal, or hex with 0x); wins over the level
//   HIPTILE_LOG_FILE   a path, %i becoming the process id; default standard error
//
// A value that does not parse, or is out of range, is ignored with a warning: the setting falls
// back to its default (the level to 0, the mask to the level's categories).
#include <cerrno>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace hiptile::logging {

enum class Category : unsigned {
  kError = 1,     // refused inputs, device mismatches, tuning-database lines skipped
  kTrace = 2,     // each launch: the kernel's configuration, its grid and the problem
  kHints = 4,     // what would make a call faster, and why
  kInfo = 8,      // which candidate the selection or the database chose, and why
  kApi = 16,      // each public call with its arguments
  kBench = 32,    // a command line for hiptile_tune that reproduces the call
  kProfile = 64,  // each candidate's time while tuning
};

inline constexpr unsigned kAllCategories = 127;
inline constexpr int kMaxLevel = 5;

constexpr char const* to_string(Category c) noexcept {
  switch (c) {
    case Category::kError: return "error";
    case Category::kTrace: return "trace";
    case Category::kHints: return "hint";
    case Category::kInfo: return "info";
    case Category::kApi: return "api";
    case Category::kBench: return "bench";
    case Category::kProfile: return "profile";
  }
  return "unknown";
}

// The categories level `level` (0 to 5) logs: its own and every one below it.
constexpr unsigned mask_of_level(int level) noexcept {
  return level <= 0 ? 0u : level >= kMaxLevel ? (1u << kMaxLevel) - 1 : (1u << level) - 1;
}

struct LogSettings {
  unsigned mask = 0;  // Category bits
  std::string file;   // empty: standard error; %i already replaced
};

// `pattern` with each %i replaced by `pid`.
inline std::string expand_process_id(std::string_view pattern, long pid) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'i') {
      out += std::to_string(pid);
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

namespace detail {
// A whole non-negative integer (decimal, or hex after 0x) no larger than `max`, or -1.
inline long parse_count(std::string_view text, long max) {
  std::string const s(text);
  if (s.empty() || s.find_first_of("+- \t") != std::string::npos) return -1;
  int const base = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
  char* end = nullptr;
  errno = 0;
  long const v = std::strtol(s.c_str(), &end, base);
  if (errno != 0 || end == nullptr || *end != '\0' || v < 0 || v > max) return -1;
  return v;
}
}  // namespace detail

// The settings the three variables' values ask for (null: unset), with a warning for each value
// ignored. `pid` replaces %i in the file's name.
inline LogSettings parse_log_settings(char const* level, char const* mask, char const* file, long pid,
                                      std::vector<std::string>& warnings) {
  LogSettings s;
  if (level != nullptr && *level != '\0') {
    long const v = detail::parse_count(level, kMaxLevel);
    if (v < 0) {
      warnings.push_back("HIPTILE_LOG_LEVEL=" + std::string(level) + " is not a level from 0 to 5: logging off");
    } else {
      s.mask = mask_of_level(int(v));
    }
  }
  if (mask != nullptr && *mask != '\0') {
    long const v = detail::parse_count(mask, kAllCategories);
    if (v < 0) {
      warnings.push_back("HIPTILE_LOG_MASK=" + std::string(mask) +
                         " is not a mask from 0 to 127 (1 error, 2 trace, 4 hints, 8 info, 16 api, 32 bench, "
                         "64 profile): HIPTILE_LOG_LEVEL decides");
    } else {
      s.mask = unsigned(v);
    }
  }
  if (file != nullptr && *file != '\0') s.file = expand_process_id(file, pid);
  return s;
}

}  // namespace hiptile::logging
