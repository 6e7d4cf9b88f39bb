// The tuning database (tune/tuning_database.hpp): its line format, the lines it skips and keeps,
// keys that must not match, replacement, processes storing at once, and where the file lives.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hiptile/tune/tuning_database.hpp"
#include "../common/temporary_directory.hpp"

namespace {

using hiptile::tune::TuningDatabase;
using hiptile::tune::TuningEntry;
using hiptile::tune::TuningKey;
using hiptile::tune::format_entry;
using hiptile::tune::parse_entry;

struct TemporaryDirectory : hiptile_test::TemporaryDirectory {
  TemporaryDirectory() : hiptile_test::TemporaryDirectory("hiptile-db-test") {}
};

// One environment variable set (or unset) for a scope, then put back as it was.
struct ScopedVariable {
  std::string name;
  std::optional<std::string> saved;
  ScopedVariable(std::string n, char const* value) : name(std::move(n)) {
    if (char const* old = std::getenv(name.c_str())) saved = old;
    if (value != nullptr) {
      ::setenv(name.c_str(), value, 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }
  ~ScopedVariable() {
    if (saved) {
      ::setenv(name.c_str(), saved->c_str(), 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }
};

TuningKey key_of(std::string problem) {
  return {"AMD Instinct MI300X", 304, "0.1.0", "0123456789abcdef", std::move(problem)};
}

TuningEntry entry_of(std::string problem, std::string winner = "f16; tile 128x128x32", int slices = 1,
                     double us = 12.5) {
  return {key_of(std::move(problem)), std::move(winner), slices, us};
}

std::vector<std::string> lines_of(std::filesystem::path const& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_file(std::filesystem::path const& file, std::vector<std::string> const& lines) {
  std::ofstream out(file);
  for (std::string const& l : lines) out << l << '\n';
}

bool same_entry(TuningEntry const& a, TuningEntry const& b) {
  return a.key.joined() == b.key.joined() && a.winner == b.winner && a.split_k_slices == b.split_k_slices &&
         std::abs(a.microseconds - b.microseconds) <= 1e-6;
}

}  // namespace

TEST_CASE("format_entry and parse_entry round-trip an entry through its 9 tab-separated fields", "[tune]") {
  TuningEntry const e{{"AMD Instinct MI300A (simulated)", 228, "0.1.0", "00ff00ff00ff00ff",
                       "gemm f16 rcr 100x70x90 batch 1 ld 96,96,0,72 align 16,16,0,16 slices 1 bias 0"},
                      "f16, A row, B col, C row; tile 32x128x64, wave 32x32x64, v_mfma_f32_32x32x8_f16, 1 stage, "
                      "stream-K",
                      8,
                      3.25};
  std::string const line = format_entry(e);
  CHECK(line.rfind("hiptile-tuning-1\tAMD Instinct MI300A (simulated)\t228\t0.1.0\t", 0) == 0);
  CHECK(std::count(line.begin(), line.end(), '\t') == 8);
  std::string why;
  std::optional<TuningEntry> const back = parse_entry(line, why);
  INFO(why);
  REQUIRE(back);
  CHECK(same_entry(*back, e));
  CHECK(format_entry(*back) == line);
}

TEST_CASE("parse_entry refuses lines that are not whole, numeric where they must be, and of its format", "[tune]") {
  std::string const good = format_entry(entry_of("gemm 1x2x3"));
  auto with_field = [&](int index, std::string value) {
    auto fields = hiptile::tune::detail::split_tabs(good);
    std::string out;
    for (int i = 0; i < int(fields.size()); ++i) out += (i ? "\t" : "") + (i == index ? value : std::string(fields[i]));
    return out;
  };
  std::string const bad[] = {
      "",
      "garbage",
      "hiptile-tuning-2" + good.substr(good.find('\t')),  // another format
      good.substr(0, good.rfind('\t')),                  // truncated: 8 fields
      good + "\textra",                                  // 10 fields
      with_field(2, "abc"),                              // CUs
      with_field(2, "0"),
      with_field(2, "12x"),
      with_field(2, ""),
      with_field(7, "four"),                             // K slices
      with_field(7, "0"),
      with_field(8, "fast"),                             // microseconds
      with_field(8, "-1"),
      with_field(8, "nan"),
      with_field(8, "1.5us"),
      with_field(8, ""),
      with_field(1, ""),                                 // device
      with_field(5, ""),                                 // problem
      with_field(6, ""),                                 // winner
  };
  for (std::string const& line : bad) {
    std::string why;
    INFO("line: " << line);
    CHECK_FALSE(parse_entry(line, why));
    CHECK_FALSE(why.empty());
  }
  std::string why;
  CHECK(parse_entry(with_field(8, "0"), why));  // a time of 0 is a time
}

TEST_CASE("lines that do not parse are skipped, the rest read, and kept verbatim when the file is rewritten",
          "[tune]") {
  TemporaryDirectory dir;
  std::filesystem::path const file = dir.path / "tuning.db";
  TuningEntry const first = entry_of("gemm first"), second = entry_of("gemm second", "other winner", 4, 7.0);
  std::string const good = format_entry(first);
  std::vector<std::string> const broken = {
      "garbage that is no entry",
      good.substr(0, good.rfind('\t')),                              // truncated
      "hiptile-tuning-9\ta\t1\tb\tc\td\te\t1\t1",                    // unknown format
      "hiptile-tuning-1\tdev\tmany\t0.1.0\tlist\tp\tw\t1\t1.0",      // non-numeric CUs
      "hiptile-tuning-1\t\t304\t0.1.0\tlist\tp\tw\t1\t1.0",          // empty device
  };
  std::vector<std::string> lines = {"# a comment", broken[0], good, broken[1], broken[2]};
  lines.push_back(format_entry(second));
  lines.push_back(broken[3]);
  lines.push_back(broken[4]);
  write_file(file, lines);

  TuningDatabase db(file.string());
  std::vector<TuningEntry> const read = db.entries();
  REQUIRE(read.size() == 2);
  REQUIRE(db.find(first.key));
  CHECK(same_entry(*db.find(first.key), first));
  REQUIRE(db.find(second.key));
  CHECK(same_entry(*db.find(second.key), second));

  TuningEntry const third = entry_of("gemm third", "third winner", 2, 1.0);
  REQUIRE(db.store(third));
  std::vector<std::string> const after = lines_of(file);
  std::multiset<std::string> const got(after.begin(), after.end());
  for (std::string const& b : broken) CHECK(got.count(b) == 1);
  CHECK(got.count(format_entry(first)) == 1);
  CHECK(got.count(format_entry(second)) == 1);
  CHECK(got.count(format_entry(third)) == 1);
  std::size_t comments = 0;
  for (std::string const& l : after) comments += l.starts_with("#");
  CHECK(got.count("# a comment") == 1);  // the user's comment kept, beside one header written anew
  CHECK(comments == 2);
  CHECK(after.size() == broken.size() + 3 + comments);
  CHECK(TuningDatabase(file.string()).entries().size() == 3);
}

TEST_CASE("an entry is found only under its whole key: another device, CU count, version or list misses",
          "[tune]") {
  TemporaryDirectory dir;
  std::string const path = (dir.path / "tuning.db").string();
  TuningEntry const e = entry_of("gemm 4096x4096x4096");
  REQUIRE(TuningDatabase(path).store(e));
  TuningDatabase const db(path);
  REQUIRE(db.find(e.key));
  TuningKey k = e.key;
  k.device = "AMD Instinct MI300A";
  CHECK_FALSE(db.find(k));
  k = e.key;
  k.compute_units = 228;
  CHECK_FALSE(db.find(k));
  k = e.key;
  k.version = "0.2.0";
  CHECK_FALSE(db.find(k));
  k = e.key;
  k.candidates = "fedcba9876543210";
  CHECK_FALSE(db.find(k));
  k = e.key;
  k.problem = "gemm 4096x4096x4097";
  CHECK_FALSE(db.find(k));
}

TEST_CASE("store() replaces the line of an existing key instead of adding one", "[tune]") {
  TemporaryDirectory dir;
  std::filesystem::path const file = dir.path / "tuning.db";
  TuningDatabase db(file.string());
  CHECK(db.entries().empty());  // a missing file is an empty database
  REQUIRE(db.store(entry_of("gemm p", "old winner", 1, 9.0)));
  REQUIRE(db.store(entry_of("gemm q", "q winner", 1, 2.0)));
  REQUIRE(db.store(entry_of("gemm p", "new winner", 8, 3.0)));
  int p_lines = 0;
  for (std::string const& l : lines_of(file)) p_lines += l.find("\tgemm p\t") != std::string::npos;
  CHECK(p_lines == 1);
  TuningDatabase const fresh(file.string());
  REQUIRE(fresh.entries().size() == 2);
  REQUIRE(fresh.find(key_of("gemm p")));
  CHECK(fresh.find(key_of("gemm p"))->winner == "new winner");
  CHECK(fresh.find(key_of("gemm p"))->split_k_slices == 8);
}

TEST_CASE("six processes storing 40 entries each into one file lose none of the 240", "[tune]") {
  TemporaryDirectory dir;
  std::string const path = (dir.path / "tuning.db").string();
  constexpr int kProcesses = 6, kEntries = 40;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t const pid = ::fork();
    if (pid == 0) {
      // The child: its own database object on the shared path, stores interleaved with the others'.
      int failures = 0;
      try {
        TuningDatabase db(path);
        for (int i = 0; i < kEntries; ++i) {
          if (!db.store(entry_of("gemm process " + std::to_string(p) + " entry " + std::to_string(i), "w" + std::to_string(p), 1,
                                 double(i))))
            ++failures;
          if (i % 8 == 0) ::usleep(100);
        }
      } catch (...) {
        ++failures;
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    REQUIRE(pid > 0);
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  TuningDatabase const db(path);
  CHECK(db.entries().size() == std::size_t(kProcesses * kEntries));
  for (int p = 0; p < kProcesses; ++p) {
    for (int i = 0; i < kEntries; ++i) {
      std::optional<TuningEntry> const e = db.find(key_of("gemm process " + std::to_string(p) + " entry " + std::to_string(i)));
      REQUIRE(e);
      CHECK(e->winner == "w" + std::to_string(p));
    }
  }
  std::size_t data_lines = 0;
  for (std::string const& l : lines_of(path)) data_lines += !l.starts_with("#");
  CHECK(data_lines == std::size_t(kProcesses * kEntries));  // no half-written or skipped line either
  for (auto const& f : std::filesystem::directory_iterator(dir.path)) {
    CHECK(f.path().filename().string().find(".tmp.") == std::string::npos);
  }
}

TEST_CASE("store() creates the database's missing directories, and fails cleanly where it cannot", "[tune]") {
  TemporaryDirectory dir;
  std::filesystem::path const file = dir.path / "a" / "b" / "c" / "tuning.db";
  TuningDatabase db(file.string());
  REQUIRE(db.store(entry_of("gemm p")));
  CHECK(std::filesystem::is_regular_file(file));
  CHECK(TuningDatabase(file.string()).find(key_of("gemm p")));

  // A directory that cannot exist: its parent is a regular file (refused even to root).
  std::filesystem::path const blocked = dir.path / "a" / "b" / "c" / "tuning.db" / "sub" / "tuning.db";
  TuningDatabase no(blocked.string());
  CHECK_FALSE(no.store(entry_of("gemm p")));
  CHECK_FALSE(std::filesystem::exists(blocked));
}

TEST_CASE("default_database_path: HIPTILE_TUNING_DB, else XDG_CACHE_HOME, else HOME's .cache", "[tune]") {
  using hiptile::tune::default_database_path;
  SECTION("all three set: HIPTILE_TUNING_DB") {
    ScopedVariable db("HIPTILE_TUNING_DB", "/data/my.db"), xdg("XDG_CACHE_HOME", "/xdg"), home("HOME", "/home/u");
    CHECK(default_database_path() == "/data/my.db");
  }
  SECTION("HIPTILE_TUNING_DB empty counts as unset: XDG_CACHE_HOME") {
    ScopedVariable db("HIPTILE_TUNING_DB", ""), xdg("XDG_CACHE_HOME", "/xdg"), home("HOME", "/home/u");
    CHECK(default_database_path() == "/xdg/hiptile/tuning.db");
  }
  SECTION("only HOME") {
    ScopedVariable db("HIPTILE_TUNING_DB", nullptr), xdg("XDG_CACHE_HOME", nullptr), home("HOME", "/home/u");
    CHECK(default_database_path() == "/home/u/.cache/hiptile/tuning.db");
  }
  SECTION("XDG_CACHE_HOME empty: HOME") {
    ScopedVariable db("HIPTILE_TUNING_DB", nullptr), xdg("XDG_CACHE_HOME", ""), home("HOME", "/home/u");
    CHECK(default_database_path() == "/home/u/.cache/hiptile/tuning.db");
  }
  SECTION("none: no path") {
    ScopedVariable db("HIPTILE_TUNING_DB", nullptr), xdg("XDG_CACHE_HOME", nullptr), home("HOME", nullptr);
    CHECK(default_database_path().empty());
  }
}
