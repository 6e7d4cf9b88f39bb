#pragma once
// The log: one process-wide sink that hiptile's operators write lines to, by category. (The
// namespace is hiptile::logging, not ::log, so that `using namespace hiptile;` leaves the C
// library's log() unambiguous.)
//
//   if (hiptile::logging::enabled(hiptile::logging::Category::kTrace)) { ... }      // one load and branch
//   hiptile::logging::write(hiptile::logging::Category::kHints, [&](std::ostream& os) { os << "..."; });
//   hiptile::logging::configure({.mask = 2 | 4, .file = "/tmp/hiptile.log"});  // in code, instead of
//                                                                           // the environment
//
// Off (the default) costs a launch one relaxed load and one predictable branch: the mask lives in
// one atomic word, which starts with every bit set so that the first test of any category reads
// the environment (log_settings.hpp) once and stores the real mask. Lines are whole: each is
// formatted first and written with one call under a mutex, then flushed, so lines from several
// threads never interleave.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hiptile/log/log_settings.hpp"

namespace hiptile::logging {

namespace detail {
inline constexpr unsigned kUnread = ~0u;  // the mask before the environment was read
inline constinit std::atomic<unsigned> active_mask{kUnread};
}  // namespace detail

class Logger {
 public:
  static Logger& instance() {
    static Logger logger;
    return logger;
  }

  // Replaces the settings (the environment's, or an earlier configure's).
  void configure(LogSettings const& settings) {
    std::lock_guard lock(mutex_);
    apply(settings);
  }

  // Reads HIPTILE_LOG_* unless configure() came first; warnings about ignored values go to
  // standard error whatever the settings (they are about the settings themselves).
  void read_environment_once() {
    std::lock_guard lock(mutex_);
    if (configured_) return;
    std::vector<std::string> warnings;
    LogSettings const s = parse_log_settings(std::getenv("HIPTILE_LOG_LEVEL"), std::getenv("HIPTILE_LOG_MASK"),
                                             std::getenv("HIPTILE_LOG_FILE"), long(::getpid()), warnings);
    for (std::string const& w : warnings) std::fprintf(stderr, "hiptile warning: %s\n", w.c_str());
    apply(s);
  }

  void write(Category c, std::string_view message) {
    std::string line = "hiptile[" + std::to_string(long(::getpid())) + "] " + to_string(c) + ": ";
    line += message;
    line += '\n';
    std::lock_guard lock(mutex_);
    std::FILE* const out = file_ != nullptr ? file_ : stderr;
    std::fwrite(line.data(), 1, line.size(), out);
    std::fflush(out);
  }

  LogSettings settings() const {
    std::lock_guard lock(mutex_);
    return settings_;
  }

 private:
  Logger() = default;
  ~Logger() {
    if (file_ != nullptr) std::fclose(file_);
  }

  void apply(LogSettings const& s) {  // (mutex_ held)
    if (file_ != nullptr) std::fclose(file_);
    file_ = nullptr;
    settings_ = s;
    if (!s.file.empty() && s.mask != 0) {  // (logging off creates no file)
      file_ = std::fopen(s.file.c_str(), "a");
      if (file_ == nullptr) {
        std::fprintf(stderr, "hiptile warning: HIPTILE_LOG_FILE %s cannot be opened for appending: logging to standard error\n",
                     s.file.c_str());
        settings_.file.clear();
      }
    }
    configured_ = true;
    detail::active_mask.store(s.mask, std::memory_order_relaxed);
  }

  mutable std::mutex mutex_;
  LogSettings settings_;
  std::FILE* file_ = nullptr;
  bool configured_ = false;
};

constexpr unsigned operator|(Category a, Category b) noexcept { return unsigned(a) | unsigned(b); }
constexpr unsigned operator|(unsigned a, Category b) noexcept { return a | unsigned(b); }

// Whether any category of `categories` (Category bits) is logged. The first call reads the
// environment.
inline bool enabled(unsigned categories) noexcept {
  unsigned const m = detail::active_mask.load(std::memory_order_relaxed);
  if ((m & categories) == 0) [[likely]] return false;
  if (m == detail::kUnread) [[unlikely]] {
    Logger::instance().read_environment_once();
    return (detail::active_mask.load(std::memory_order_relaxed) & categories) != 0;
  }
  return true;
}
inline bool enabled(Category c) noexcept { return enabled(unsigned(c)); }

inline void configure(LogSettings const& settings) { Logger::instance().configure(settings); }

// Writes one line of category `c` that compose(std::ostream&) formats, if `c` is logged. A line
// that cannot be formatted or written (memory, a full disk) is dropped: logging never fails a call.
template <class Compose>
void write(Category c, Compose&& compose) noexcept {
  if (!enabled(c)) return;
  try {
    std::ostringstream os;
    compose(static_cast<std::ostream&>(os));
    Logger::instance().write(c, os.str());
  } catch (...) {
  }
}

}  // namespace hiptile::logging
