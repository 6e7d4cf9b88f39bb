#pragma once
// TuningDatabase: the user's tuning database, a text file of winners that find mode wrote
// (docs/tuning.md). One line per problem, tab-separated:
//
//   hiptile-tuning-1 <device name> <CUs> <hiptile version> <candidate list> <problem> <winner> <K slices> <µs>
//
// An entry is used only where the device's name and CU count, hiptile's version and the candidate
// list's identity (a hash of the candidates' names) all match, so that another GPU, another release
// or another list never reuses a stale winner. Lines starting with '#' are comments.
//
// Where: HIPTILE_TUNING_DB, else $XDG_CACHE_HOME/hiptile/tuning.db, else
// $HOME/.cache/hiptile/tuning.db (default_database_path()).
//
// Several processes may store at once: store() takes an exclusive lock (flock on <file>.lock),
// re-reads the file, replaces or adds its line, writes everything to a temporary file beside it and
// renames that over the file, so a reader sees the old file or the new one, never half of either.
// A line that does not parse (corrupt, truncated, another format) is skipped with a warning in the
// log and kept as it is when the file is rewritten (so is a comment line a user added); it never
// stops the rest of the file being read.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "hiptile/log/logger.hpp"

namespace hiptile::tune {

inline constexpr std::string_view kDatabaseFormat = "hiptile-tuning-1";
inline constexpr std::string_view kHeader = "# hiptile tuning database";  // the file's first line begins so

// What identifies an entry: the device, the library, the candidates and the problem.
struct TuningKey {
  std::string device;
  int compute_units = 0;
  std::string version;
  std::string candidates;  // the candidate list's identity
  std::string problem;

  // One string of all five, for maps (fields cannot hold tabs: the file's separator).
  std::string joined() const {
    return device + '\t' + std::to_string(compute_units) + '\t' + version + '\t' + candidates + '\t' + problem;
  }
};

struct TuningEntry {
  TuningKey key;
  std::string winner;  // the winning candidate's configuration name
  int split_k_slices = 1;
  double microseconds = 0;  // its time: measured, or predicted by the MI300 timing model (simulator)
};

namespace detail {

inline std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    std::size_t const tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

template <class T>
bool parse_number(std::string_view text, T& value) {
  if (text.empty()) return false;
  if constexpr (std::is_floating_point_v<T>) {
    std::string const s(text);  // (strtod: floating from_chars is missing from some standard libraries)
    char* end = nullptr;
    value = T(std::strtod(s.c_str(), &end));
    return end == s.c_str() + s.size();
  } else {
    auto const [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
  }
}

}  // namespace detail

// The entry `line` holds; nullopt (with `why`) for a line that is not one.
inline std::optional<TuningEntry> parse_entry(std::string_view line, std::string& why) {
  std::vector<std::string_view> const f = detail::split_tabs(line);
  if (f.empty() || f[0] != kDatabaseFormat) {
    why = "not a " + std::string(kDatabaseFormat) + " line";
    return std::nullopt;
  }
  if (f.size() != 9) {
    why = "expected 9 tab-separated fields, found " + std::to_string(f.size()) + " (a truncated or corrupt line)";
    return std::nullopt;
  }
  TuningEntry e;
  e.key = {std::string(f[1]), 0, std::string(f[3]), std::string(f[4]), std::string(f[5])};
  e.winner = std::string(f[6]);
  if (!detail::parse_number(f[2], e.key.compute_units) || e.key.compute_units < 1 ||
      !detail::parse_number(f[7], e.split_k_slices) || e.split_k_slices < 1 ||
      !detail::parse_number(f[8], e.microseconds) || !(e.microseconds >= 0) || e.key.device.empty() ||
      e.key.problem.empty() || e.winner.empty()) {
    why = "a field does not parse (CU count, K slices or microseconds) or is empty";
    return std::nullopt;
  }
  return e;
}

inline std::string format_entry(TuningEntry const& e) {
  std::ostringstream os;
  os.precision(6);
  os << kDatabaseFormat << '\t' << e.key.joined() << '\t' << e.winner << '\t' << e.split_k_slices << '\t' << std::fixed
     << e.microseconds;
  return os.str();
}

// HIPTILE_TUNING_DB, else the per-user cache directory's hiptile/tuning.db; empty when none is known.
inline std::string default_database_path() {
  if (char const* p = std::getenv("HIPTILE_TUNING_DB"); p != nullptr && *p != '\0') return p;
  if (char const* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') {
    return std::string(x) + "/hiptile/tuning.db";
  }
  if (char const* h = std::getenv("HOME"); h != nullptr && *h != '\0') return std::string(h) + "/.cache/hiptile/tuning.db";
  return {};
}

class TuningDatabase {
 public:
  explicit TuningDatabase(std::string path) : path_(std::move(path)) { load(); }

  std::string const& path() const noexcept { return path_; }

  // The entry for `key` as last read (or stored by this process).
  std::optional<TuningEntry> find(TuningKey const& key) const {
    std::lock_guard lock(mutex_);
    auto const it = entries_.find(key.joined());
    if (it == entries_.end()) return std::nullopt;
    return it->second;
  }

  // Every entry as last read, in key order.
  std::vector<TuningEntry> entries() const {
    std::lock_guard lock(mutex_);
    std::vector<TuningEntry> all;
    for (auto const& [k, e] : entries_) all.push_back(e);
    return all;
  }

  // Re-reads the file (a missing file is an empty database).
  void load() {
    std::lock_guard lock(mutex_);
    read_file(entries_, kept_);
  }

  // Adds or replaces `entry`'s line in the file, under the lock, merging what other processes
  // stored meanwhile; false (and an error line in the log) when the file cannot be written.
  bool store(TuningEntry const& entry) {
    std::lock_guard lock(mutex_);
    std::error_code ec;
    std::filesystem::path const file(path_);
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    int const lock_fd = ::open((path_ + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX) != 0) {
      if (lock_fd >= 0) ::close(lock_fd);
      fail("cannot lock " + path_ + ".lock");
      return false;
    }
    read_file(entries_, kept_);
    entries_[entry.key.joined()] = entry;
    std::string const temporary = path_ + ".tmp." + std::to_string(long(::getpid()));
    bool written = false;
    {
      std::ofstream out(temporary, std::ios::trunc);
      out << kHeader << " (docs/tuning.md): format, device, CUs, hiptile version, candidate list, problem, winner, "
             "K slices, microseconds\n";
      for (std::string const& line : kept_) out << line << '\n';
      for (auto const& [k, e] : entries_) out << format_entry(e) << '\n';
      out.flush();
      written = bool(out);
    }
    bool const renamed = written && std::rename(temporary.c_str(), path_.c_str()) == 0;
    if (!renamed) std::remove(temporary.c_str());
    ::flock(lock_fd, LOCK_UN);
    ::close(lock_fd);
    if (!renamed) fail("cannot write " + path_);
    return renamed;
  }

 private:
  void fail(std::string const& what) const {
    logging::write(logging::Category::kError, [&](std::ostream& os) { os << "tuning database: " << what << "; entry not stored"; });
  }

  // (mutex_ held) Parses the file into entries and the lines kept as they are (comments aside).
  void read_file(std::map<std::string, TuningEntry>& entries, std::vector<std::string>& kept) const {
    entries.clear();
    kept.clear();
    std::ifstream in(path_);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty() || line.rfind(kHeader, 0) == 0) continue;  // (the header is written anew)
      if (line[0] == '#') {  // a user's comment: kept
        kept.push_back(line);
        continue;
      }
      std::string why;
      if (std::optional<TuningEntry> e = parse_entry(line, why)) {
        entries[e->key.joined()] = std::move(*e);
      } else {
        kept.push_back(line);
        logging::write(logging::Category::kError, [&](std::ostream& os) {
          os << "warning: tuning database " << path_ << " line " << number << " skipped: " << why;
        });
      }
    }
  }

  std::string path_;
  mutable std::mutex mutex_;
  std::map<std::string, TuningEntry> entries_;  // by TuningKey::joined()
  std::vector<std::string> kept_;               // lines that did not parse, written back as they were
};

// The process's database at `path`, read once (every operator of the process shares it).
inline TuningDatabase& database_at(std::string const& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<TuningDatabase>> open;
  std::lock_guard lock(mutex);
  std::unique_ptr<TuningDatabase>& db = open[path];
  if (!db) db = std::make_unique<TuningDatabase>(path);
  return *db;
}

}  // namespace hiptile::tune
