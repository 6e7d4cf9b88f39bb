// The log's settings (log/log_settings.hpp) and its sink (log/logger.hpp): what each value of
// HIPTILE_LOG_LEVEL, HIPTILE_LOG_MASK and HIPTILE_LOG_FILE asks for, what a bad value falls back
// to, and that the lines written are whole, prefixed, filtered by the mask and in the right file.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "hiptile/log/log_settings.hpp"
#include "hiptile/log/logger.hpp"
#include "../common/temporary_directory.hpp"

extern char** environ;

namespace {

namespace log = hiptile::logging;
using log::Category;

// A fresh directory for the test's files.
struct TemporaryDirectory : hiptile_test::TemporaryDirectory {
  TemporaryDirectory() : hiptile_test::TemporaryDirectory("hiptile-log-test") {}
};

// Logging off again after a test configured it, so that no other test writes to its file.
struct LogOffAfterwards {
  ~LogOffAfterwards() { log::configure({}); }
};

std::vector<std::string> lines_of(std::filesystem::path const& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string prefix(Category c) { return "hiptile[" + std::to_string(long(::getpid())) + "] " + log::to_string(c) + ": "; }

log::LogSettings parse(char const* level, char const* mask, std::vector<std::string>& warnings,
                       char const* file = nullptr, long pid = 4242) {
  return log::parse_log_settings(level, mask, file, pid, warnings);
}

}  // namespace

TEST_CASE("each log level logs its own category and every one below it", "[log]") {
  unsigned const expected[] = {0, 1, 3, 7, 15, 31};  // error, +trace, +hints, +info, +api
  for (int level = 0; level <= 5; ++level) {
    CHECK(log::mask_of_level(level) == expected[level]);
    std::vector<std::string> warnings;
    std::string const text = std::to_string(level);
    CHECK(parse(text.c_str(), nullptr, warnings).mask == expected[level]);
    CHECK(warnings.empty());
  }
  CHECK(unsigned(Category::kApi) == 16);  // level 5 stops below bench and profile
}

TEST_CASE("the mask wins over the level and may be hexadecimal", "[log]") {
  std::vector<std::string> warnings;
  CHECK(parse("5", "4", warnings).mask == 4);
  CHECK(parse("1", "0x22", warnings).mask == 0x22);
  CHECK(parse(nullptr, "0X7f", warnings).mask == 127);
  CHECK(parse("3", "0", warnings).mask == 0);  // a mask of 0 turns logging off whatever the level
  CHECK(warnings.empty());
}

TEST_CASE("unset and empty variables ask for nothing and warn about nothing", "[log]") {
  std::vector<std::string> warnings;
  log::LogSettings const s = parse(nullptr, nullptr, warnings);
  CHECK(s.mask == 0);
  CHECK(s.file.empty());
  log::LogSettings const empty = parse("", "", warnings, "");
  CHECK(empty.mask == 0);
  CHECK(empty.file.empty());
  CHECK(warnings.empty());
}

TEST_CASE("a level that does not parse or is out of range warns and leaves logging off", "[log]") {
  for (char const* bad : {"abc", "-1", "6", "128", "1.5", " 2", "2 ", "+2", "0x", "99999999999999999999"}) {
    DYNAMIC_SECTION("HIPTILE_LOG_LEVEL=\"" << bad << "\"") {
      std::vector<std::string> warnings;
      CHECK(parse(bad, nullptr, warnings).mask == 0);
      REQUIRE(warnings.size() == 1);
      CHECK(warnings[0].find("HIPTILE_LOG_LEVEL") != std::string::npos);
      CHECK(warnings[0].find(bad) != std::string::npos);
    }
  }
}

TEST_CASE("a mask that does not parse or is out of range warns and leaves the level to decide", "[log]") {
  for (char const* bad : {"abc", "-1", "128", "0x80", "1.5", " 2", "+2", "0x", "0xg"}) {
    DYNAMIC_SECTION("HIPTILE_LOG_MASK=\"" << bad << "\"") {
      std::vector<std::string> warnings;
      CHECK(parse("2", bad, warnings).mask == 3);  // level 2's categories
      REQUIRE(warnings.size() == 1);
      CHECK(warnings[0].find("HIPTILE_LOG_MASK") != std::string::npos);
    }
  }
  SECTION("both bad: two warnings, logging off") {
    std::vector<std::string> warnings;
    CHECK(parse("6", "128", warnings).mask == 0);
    CHECK(warnings.size() == 2);
  }
}

TEST_CASE("%i in the file's name becomes the process id, every time it appears", "[log]") {
  CHECK(log::expand_process_id("/tmp/hiptile-%i.log", 123) == "/tmp/hiptile-123.log");
  CHECK(log::expand_process_id("%i/%i-%i", 7) == "7/7-7");
  CHECK(log::expand_process_id("no pattern", 7) == "no pattern");
  CHECK(log::expand_process_id("%", 7) == "%");          // a lone % at the end stays
  CHECK(log::expand_process_id("50%.log", 7) == "50%.log");
  CHECK(log::expand_process_id("%d%s", 7) == "%d%s");    // only %i is a pattern
  CHECK(log::expand_process_id("%%i", 7) == "%7");       // no escape: the second % starts the %i
  CHECK(log::expand_process_id("%I", 7) == "%I");
  std::vector<std::string> warnings;
  CHECK(parse(nullptr, nullptr, warnings, "/var/log/run-%i.txt", 99).file == "/var/log/run-99.txt");
  CHECK(warnings.empty());
}

TEST_CASE("the logger writes prefixed lines of the configured categories to the configured file", "[log]") {
  TemporaryDirectory dir;
  LogOffAfterwards off;
  std::filesystem::path const file = dir.path / "log.txt";
  log::configure({.mask = Category::kError | Category::kInfo, .file = file.string()});
  CHECK(log::Logger::instance().settings().file == file.string());
  CHECK(log::enabled(Category::kError));
  CHECK(log::enabled(Category::kInfo));
  CHECK_FALSE(log::enabled(Category::kTrace));
  CHECK(log::enabled(Category::kTrace | Category::kInfo));  // any of them

  log::write(Category::kError, [](std::ostream& os) { os << "first " << 1; });
  log::write(Category::kInfo, [](std::ostream& os) { os << "second"; });
  bool composed = false;
  log::write(Category::kTrace, [&](std::ostream& os) {
    composed = true;
    os << "never";
  });
  CHECK_FALSE(composed);  // a category outside the mask is not even formatted
  log::write(Category::kError, [](std::ostream&) { throw std::runtime_error("formatting failed"); });  // dropped

  std::vector<std::string> const lines = lines_of(file);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == prefix(Category::kError) + "first 1");
  CHECK(lines[1] == prefix(Category::kInfo) + "second");
}

TEST_CASE("a category outside the mask writes nothing at all", "[log]") {
  TemporaryDirectory dir;
  LogOffAfterwards off;
  std::filesystem::path const file = dir.path / "log.txt";
  log::configure({.mask = unsigned(Category::kBench), .file = file.string()});
  for (Category c : {Category::kError, Category::kTrace, Category::kHints, Category::kInfo, Category::kApi,
                     Category::kProfile}) {
    CHECK_FALSE(log::enabled(c));
    log::write(c, [](std::ostream& os) { os << "no"; });
  }
  CHECK(std::filesystem::file_size(file) == 0);  // opened for appending, never written
  log::configure({});
  CHECK_FALSE(log::enabled(log::kAllCategories));
}

TEST_CASE("lines from 8 threads writing at once stay whole: 4000 lines, each parsing back", "[log]") {
  TemporaryDirectory dir;
  LogOffAfterwards off;
  std::filesystem::path const file = dir.path / "threads.txt";
  log::configure({.mask = unsigned(Category::kTrace), .file = file.string()});
  constexpr int kThreads = 8, kLines = 500;
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([t] {
        for (int i = 0; i < kLines; ++i) {
          // Long enough that a torn write would show: a stdio buffer is a few KiB.
          log::write(Category::kTrace, [&](std::ostream& os) {
            os << "thread " << t << " line " << i << " " << std::string(200, char('a' + t));
          });
        }
      });
    }
  }
  std::vector<std::string> const lines = lines_of(file);
  REQUIRE(lines.size() == std::size_t(kThreads * kLines));
  std::string const head = prefix(Category::kTrace);
  std::set<std::pair<int, int>> seen;
  std::vector<int> next(kThreads, 0);
  for (std::string const& line : lines) {
    REQUIRE(line.compare(0, head.size(), head) == 0);
    std::istringstream in(line.substr(head.size()));
    std::string word_thread, word_line, tail;
    int t = -1, i = -1;
    in >> word_thread >> t >> word_line >> i >> tail;
    REQUIRE(word_thread == "thread");
    REQUIRE(word_line == "line");
    REQUIRE((t >= 0 && t < kThreads && i >= 0 && i < kLines));
    REQUIRE(tail == std::string(200, char('a' + t)));
    REQUIRE(in.peek() == std::char_traits<char>::eof());
    CHECK(i == next[t]++);  // each thread's lines in its own order
    seen.insert({t, i});
  }
  CHECK(seen.size() == std::size_t(kThreads * kLines));
}

TEST_CASE("logging off opens no file, so a configured log file is not created", "[log]") {
  TemporaryDirectory dir;
  LogOffAfterwards off;
  std::string const file = (dir.path / "never.log").string();
  log::configure({.mask = 0, .file = file});
  log::write(Category::kError, [](std::ostream& os) { os << "not written"; });
  CHECK_FALSE(std::filesystem::exists(file));
  log::configure({.mask = unsigned(Category::kError), .file = file});
  log::write(Category::kError, [](std::ostream& os) { os << "written"; });
  CHECK(std::filesystem::exists(file));
}

TEST_CASE("a log file that cannot be opened falls back to standard error with a warning", "[log]") {
  TemporaryDirectory dir;
  LogOffAfterwards off;
  // Standard error redirected to a file for the test, so that what reaches it can be read.
  std::filesystem::path const captured = dir.path / "stderr.txt";
  std::fflush(stderr);
  int const saved = ::dup(2);
  REQUIRE(saved >= 0);
  int const fd = ::open(captured.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  ::dup2(fd, 2);
  ::close(fd);
  // (A directory that does not exist: no file can be created there, whoever runs the test.)
  std::string const unopenable = (dir.path / "missing" / "log.txt").string();
  log::configure({.mask = unsigned(Category::kError), .file = unopenable});
  log::write(Category::kError, [](std::ostream& os) { os << "still written"; });
  std::string const file_setting = log::Logger::instance().settings().file;
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);

  CHECK(file_setting.empty());
  CHECK_FALSE(std::filesystem::exists(unopenable));
  std::vector<std::string> const lines = lines_of(captured);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].find("hiptile warning: HIPTILE_LOG_FILE " + unopenable) == 0);
  CHECK(lines[1] == prefix(Category::kError) + "still written");
}

// The child half of the next test: a process started with HIPTILE_LOG_* set, whose first log call
// reads them. Hidden ([.]): it runs only when named, and does nothing without the marker variable.
TEST_CASE("log child: one line of each category through the environment's settings", "[.][log_child]") {
  if (std::getenv("HIPTILE_LOG_TEST_CHILD") == nullptr) return;
  for (unsigned bit = 1; bit <= 64; bit <<= 1) {
    log::write(Category(bit), [&](std::ostream& os) { os << "child line " << bit; });
  }
}

namespace {

// Runs this test program's hidden child test with `variables` added to the environment; the
// child's process id (whose %i the file's name holds).
pid_t run_child(std::vector<std::string> const& variables) {
  std::vector<std::string> env_strings = variables;
  env_strings.push_back("HIPTILE_LOG_TEST_CHILD=1");
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view const v(*e);
    if (!v.starts_with("HIPTILE_LOG_")) env_strings.emplace_back(v);
  }
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string name = "log child: one line of each category through the environment's settings";
  std::vector<char*> argv = {self.data(), name.data(), nullptr};
  pid_t const pid = ::fork();
  if (pid == 0) {
    int const null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execve(self.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  REQUIRE(pid > 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return pid;
}

std::string child_prefix(pid_t pid, Category c) {
  return "hiptile[" + std::to_string(long(pid)) + "] " + log::to_string(c) + ": ";
}

}  // namespace

TEST_CASE("a process reads HIPTILE_LOG_LEVEL, _MASK and _FILE with %i at its first log call", "[log]") {
  TemporaryDirectory dir;
  std::string const pattern = (dir.path / "child-%i.log").string();
  SECTION("level 2: errors and traces, in a file named with the child's process id") {
    pid_t const pid = run_child({"HIPTILE_LOG_LEVEL=2", "HIPTILE_LOG_FILE=" + pattern});
    std::filesystem::path const file = dir.path / ("child-" + std::to_string(long(pid)) + ".log");
    REQUIRE(std::filesystem::exists(file));
    std::vector<std::string> const lines = lines_of(file);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == child_prefix(pid, Category::kError) + "child line 1");
    CHECK(lines[1] == child_prefix(pid, Category::kTrace) + "child line 2");
  }
  SECTION("a mask of 0x60 over level 5: bench and profile only") {
    pid_t const pid = run_child({"HIPTILE_LOG_LEVEL=5", "HIPTILE_LOG_MASK=0x60", "HIPTILE_LOG_FILE=" + pattern});
    std::vector<std::string> const lines = lines_of(dir.path / ("child-" + std::to_string(long(pid)) + ".log"));
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == child_prefix(pid, Category::kBench) + "child line 32");
    CHECK(lines[1] == child_prefix(pid, Category::kProfile) + "child line 64");
  }
  SECTION("a bad level: logging off, not one line written") {
    pid_t const pid = run_child({"HIPTILE_LOG_LEVEL=seven", "HIPTILE_LOG_FILE=" + pattern});
    // (The file is opened, hence created, even with every category off.)
    CHECK(lines_of(dir.path / ("child-" + std::to_string(long(pid)) + ".log")).empty());
  }
}
