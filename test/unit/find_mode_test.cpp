// Find mode's names (tune/find_mode.hpp): the four it knows, and the default with a warning for
// anything else. HIPTILE_FIND_MODE itself is read once per process, so the tests go through
// find_mode_from, which the environment path calls with the variable's value.
#include <catch2/catch.hpp>

#include <string>

#include "hiptile/tune/find_mode.hpp"

namespace {
using hiptile::tune::FindMode;
using hiptile::tune::find_mode_from;
using hiptile::tune::parse_find_mode;
}  // namespace

TEST_CASE("parse_find_mode knows heuristic, db, hybrid and search, and each name round-trips", "[tune]") {
  struct Named {
    char const* name;
    FindMode mode;
  };
  for (Named const n : {Named{"heuristic", FindMode::kHeuristic}, Named{"db", FindMode::kDatabase},
                        Named{"hybrid", FindMode::kHybrid}, Named{"search", FindMode::kSearch}}) {
    FindMode m = n.mode == FindMode::kSearch ? FindMode::kHeuristic : FindMode::kSearch;  // anything else
    CHECK(parse_find_mode(n.name, m));
    CHECK(m == n.mode);
    CHECK(std::string(to_string(n.mode)) == n.name);
  }
}

TEST_CASE("parse_find_mode rejects every other text and leaves the mode as it was", "[tune]") {
  for (char const* bad : {"", "DB", "Hybrid", "database", " db", "db ", "heuristics", "search\n", "1", "tune"}) {
    FindMode m = FindMode::kHybrid;
    CHECK_FALSE(parse_find_mode(bad, m));
    CHECK(m == FindMode::kHybrid);
  }
}

TEST_CASE("find_mode_from: unset or empty gives the default, db, without a warning", "[tune]") {
  CHECK(hiptile::tune::kDefaultFindMode == FindMode::kDatabase);
  std::string warning;
  CHECK(find_mode_from(nullptr, warning) == FindMode::kDatabase);
  CHECK(find_mode_from("", warning) == FindMode::kDatabase);
  CHECK(warning.empty());
}

TEST_CASE("find_mode_from: a known name is used, without a warning", "[tune]") {
  std::string warning;
  CHECK(find_mode_from("search", warning) == FindMode::kSearch);
  CHECK(find_mode_from("heuristic", warning) == FindMode::kHeuristic);
  CHECK(warning.empty());
}

TEST_CASE("find_mode_from: a bad value warns, naming it, and falls back to db", "[tune]") {
  for (char const* bad : {"fast", "HYBRID", "db,search", "2"}) {
    std::string warning;
    CHECK(find_mode_from(bad, warning) == FindMode::kDatabase);
    CHECK(warning.find(std::string("HIPTILE_FIND_MODE=") + bad) != std::string::npos);
    CHECK(warning.find("db") != std::string::npos);
  }
}
