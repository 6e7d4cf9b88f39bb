#pragma once
// TemporaryDirectory: a fresh directory under the system's temporary directory (mkdtemp), removed
// with everything in it when the object goes. Tests that write files (the log, the tuning
// database) put them there. A directory that cannot be made aborts: no test may run without it.
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace hiptile_test {

struct TemporaryDirectory {
  std::filesystem::path path;
  explicit TemporaryDirectory(std::string const& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    path = pattern;
  }
  TemporaryDirectory(TemporaryDirectory const&) = delete;
  TemporaryDirectory& operator=(TemporaryDirectory const&) = delete;
  ~TemporaryDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace hiptile_test
