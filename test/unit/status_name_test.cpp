// status_name: every enumerator of Status, in declaration order, has its own name — read here from
// the text of the declaration in core/status.hpp, not from the function under test — and a value
// outside the enumerators is named as such.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hiptile/core/status.hpp"

namespace {

// The enumerators of `enum class Status { ... };` in the header's text, in order.
std::vector<std::string> declared_enumerators() {
  std::ifstream file(HIPTILE_STATUS_HEADER);
  std::stringstream text;
  text << file.rdbuf();
  std::string const all = text.str();
  std::size_t const begin = all.find("enum class Status {");
  std::size_t const end = all.find("};", begin);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::string const body = all.substr(begin, end - begin);
  std::vector<std::string> names;
  std::regex const enumerator(R"(\n\s*(k\w+),)");
  for (std::sregex_iterator it(body.begin(), body.end(), enumerator), last; it != last; ++it) {
    names.push_back((*it)[1].str());
  }
  return names;
}

}  // namespace

TEST_CASE("status_name gives each enumerator's declared name", "[status]") {
  std::vector<std::string> const names = declared_enumerators();
  REQUIRE(names.size() > 30);
  REQUIRE(names.front() == "kSuccess");
  REQUIRE(names.back() == "kErrorInternal");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto const s = static_cast<hiptile::Status>(i);
    INFO("enumerator " << i);
    CHECK(std::string(hiptile::status_name(s)) == names[i]);
    CHECK(seen.insert(hiptile::status_name(s)).second);
    CHECK(std::string(hiptile::to_string(s)) != "unknown status");  // the sentence exists too
  }
  auto const past = static_cast<hiptile::Status>(names.size());
  CHECK(std::string(hiptile::status_name(past)) == "kUnknownStatus");
  static_assert(hiptile::status_name(hiptile::Status::kErrorChannelsNotAligned)[0] == 'k');
}
