#pragma once
// Argument fuzzing for hiptile's device operators (Gemm now, convolutions next): every field of an
// operator's arguments set to extremes, alone and in seeded random combinations, and for every
// case one of two outcomes, never a crash, an exception or a partly written output:
//
//   refused  can_implement, initialize and operator() return the same non-success Status; run()
//            after that initialize returns kErrorNotInitialized, even though the operator was
//            initialised with good arguments first; and no byte of any buffer changed;
//   accepted all succeed; where the case is small enough to run, each run (run() and operator())
//            leaves every buffer as it was except the output elements, which match a double-
//            precision reference, and the workspace (split-K's to use); huge cases are checked by
//            their launch geometry, not run.
//
// An operator registers with a Subject type (see GemmSubject in test/sim/gemm_argument_fuzz_test.cpp):
//
//   struct MySubject {
//     using Operator = ...;                      // can_implement / initialize / run / operator()
//     struct Case { ... };                       // every argument field, as plain values
//     static Case baseline(Rng&);                // a valid case, small enough to run
//     static std::vector<Field<Case>> fields();  // each field with its extreme settings
//     class Instance {                           // a case made real
//       explicit Instance(Case const&);          // buffers (poisoned, snapshotted) or fake addresses
//       typename Operator::Arguments const& args() const;
//       bool runnable() const;                   // real buffers, small enough to simulate
//       Arena& arena();                          // every buffer of the case
//       std::string check_output() const;        // "" if every buffer is right after a run
//       std::string check_geometry(Operator const&) const;  // "" if the launch shape is right
//     };
//   };
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fake_address.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/launch.hpp"

namespace fuzz {

// The suites' limits, from the environment (a positive integer) or the default: random cases per
// configuration (HIPTILE_FUZZ_CASES), and the most block-tile K steps an accepted case may take to
// be run on the simulator rather than checked by its launch geometry (HIPTILE_FUZZ_MAX_TILE_STEPS).
// The sanitize preset lowers both.
inline int env_limit(char const* name, int fallback) {
  char const* v = std::getenv(name);
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}
inline int random_cases() { return env_limit("HIPTILE_FUZZ_CASES", 60); }
inline std::int64_t max_tile_steps() { return env_limit("HIPTILE_FUZZ_MAX_TILE_STEPS", 64); }

using hiptile::Status;
using Rng = std::mt19937_64;

// One argument field and the extreme values it is tried with: each setting changes the field of a
// Case and says what it did.
template <class Case>
struct Field {
  std::string name;
  std::vector<std::pair<std::string, std::function<void(Case&)>>> settings;
};

// Integer extremes: 0, ±1, the int and int64 limits and their neighbours, powers of two whose
// products overflow 2^31 and 2^32, and each of `limits` minus one, itself and plus one.
inline std::vector<std::int64_t> integer_extremes(std::vector<std::int64_t> const& limits, bool wide) {
  std::vector<std::int64_t> v = {0,           1,           -1,          2,           INT_MIN,     INT_MIN + 1,
                                 INT_MAX,     INT_MAX - 1, 46341,       65536,       65537,       1 << 20,
                                 (1 << 30),   (1 << 30) + 1};
  if (wide) {
    for (std::int64_t x : {std::int64_t{1} << 31, (std::int64_t{1} << 31) + 1, std::int64_t{1} << 32,
                           (std::int64_t{1} << 32) - 1, (std::int64_t{1} << 32) + 1, std::int64_t{1} << 62,
                           std::int64_t{INT64_MAX}, std::int64_t{INT64_MAX} - 1, std::int64_t{INT64_MIN}}) {
      v.push_back(x);
    }
  }
  for (std::int64_t l : limits) {
    for (std::int64_t x : {l - 1, l, l + 1}) v.push_back(x);
  }
  return v;
}

// The field `name` set to each of integer_extremes(limits, wide) by `set(case, value)`.
template <class Case, class Set>
Field<Case> integer_field(std::string name, std::vector<std::int64_t> const& limits, bool wide, Set set) {
  Field<Case> field{std::move(name), {}};
  for (std::int64_t v : integer_extremes(limits, wide)) {
    field.settings.push_back({std::to_string(v), [=](Case& c) { set(c, v); }});
  }
  return field;
}

// Every buffer of one case. Each allocation has guard bytes before and after it; all bytes start
// as a seeded pattern, and snapshot() records them so a check can tell exactly what changed.
class Arena {
 public:
  static constexpr std::size_t kGuard = 256;

  // `bytes` usable bytes, 256-byte aligned as a GPU allocation is, plus guards.
  std::byte* allocate(std::size_t bytes, std::uint64_t seed) {
    Block b;
    b.bytes = bytes + 2 * kGuard;
    b.storage.reset(static_cast<std::byte*>(::operator new(b.bytes, std::align_val_t{256})));
    Rng rng(seed);
    for (std::size_t i = 0; i < b.bytes; i += 8) {
      std::uint64_t const bits = rng();
      std::memcpy(b.storage.get() + i, &bits, std::min<std::size_t>(8, b.bytes - i));
    }
    blocks_.push_back(std::move(b));
    return blocks_.back().storage.get() + kGuard;
  }

  void snapshot() {
    for (Block& b : blocks_) b.saved.assign(b.storage.get(), b.storage.get() + b.bytes);
  }
  void restore() {
    for (Block& b : blocks_) std::memcpy(b.storage.get(), b.saved.data(), b.bytes);
  }
  // Where the snapshot keeps the byte at `p`, so that [p, p + n) of the snapshot can be read
  // through the result while [p, p + n) lies in one block; null if p is in none.
  std::byte const* saved_view(std::byte const* p) const {
    for (Block const& b : blocks_) {
      if (p >= b.storage.get() && p < b.storage.get() + b.bytes) return b.saved.data() + (p - b.storage.get());
    }
    return nullptr;
  }
  // "" if no byte changed since snapshot() except those `may_change` accepts; else where.
  std::string changes(std::function<bool(std::byte const*)> const& may_change = nullptr) const {
    std::int64_t changed = 0;
    std::ostringstream first;
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      Block const& b = blocks_[k];
      for (std::size_t i = 0; i < b.bytes; ++i) {
        std::byte const* p = b.storage.get() + i;
        if (*p == b.saved[i] || (may_change && may_change(p))) continue;
        if (changed++ == 0) {
          first << "buffer " << k << " byte " << std::int64_t(i) - std::int64_t(kGuard) << " (of "
                << b.bytes - 2 * kGuard << ")";
        }
      }
    }
    if (changed == 0) return "";
    return std::to_string(changed) + " bytes changed that must not, first: " + first.str();
  }

 private:
  struct Delete {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{256}); }
  };
  struct Block {
    std::unique_ptr<std::byte[], Delete> storage;
    std::size_t bytes = 0;
    std::vector<std::byte> saved;
  };
  std::vector<Block> blocks_;
};

// Split-K operators' workspace field: the exact size, or broken one way (kNull: a null pointer with
// the bytes needed; kNone: no pointer and 0 bytes, as a caller who never asked). A Case with this
// field has `WorkspaceGiven workspace` and `int slices`.
enum class WorkspaceGiven { kExact, kNull, kNone, kShort, kMisaligned, kOverD };

template <class Case>
Field<Case> workspace_field() {
  Field<Case> field{"workspace", {}};
  std::pair<char const*, WorkspaceGiven> const given[] = {{"null", WorkspaceGiven::kNull},
                                                          {"none", WorkspaceGiven::kNone},
                                                          {"one byte short", WorkspaceGiven::kShort},
                                                          {"+4 bytes", WorkspaceGiven::kMisaligned},
                                                          {"over the output", WorkspaceGiven::kOverD}};
  for (auto const& [label, kind] : given) {
    field.settings.push_back({label, [kind](Case& c) {
                                c.workspace = kind;
                                if (c.slices == 1) c.slices = 3;  // so that one is needed
                              }});
  }
  return field;
}

// A case's workspace of `needed` bytes: in the arena when the case's buffers are real and it is
// small enough (so a refused case must leave it alone too), else at a far address never touched;
// then given to the arguments as `how` says (`output`: the operator's output, for kOverD).
class GivenWorkspace {
 public:
  template <class Arguments>
  void give(Arena& arena, Arguments& args, std::size_t needed, bool real_buffers, WorkspaceGiven how,
            std::uint64_t seed, std::byte* output) {
    if (needed == 0) return;
    real_ = real_buffers && needed <= (std::size_t(1) << 26);
    bytes_ = needed;
    base_ = real_ ? arena.allocate(needed, seed) : test_support::fake_address<std::byte>(15);
    args.workspace = base_;
    args.workspace_bytes = needed;
    switch (how) {
      case WorkspaceGiven::kExact: break;
      case WorkspaceGiven::kNull: args.workspace = nullptr; break;
      case WorkspaceGiven::kNone: args.workspace = nullptr, args.workspace_bytes = 0; break;
      case WorkspaceGiven::kShort: args.workspace_bytes = needed - 1; break;
      case WorkspaceGiven::kMisaligned: args.workspace = base_ + 4; break;
      case WorkspaceGiven::kOverD: args.workspace = output; break;
    }
  }
  bool real() const { return real_; }  // false: the case cannot run
  // Bytes a run may change: the operator's to use.
  bool contains(std::byte const* p) const { return p >= base_ && p < base_ + bytes_; }

 private:
  std::byte* base_ = nullptr;
  std::size_t bytes_ = 0;
  bool real_ = true;
};

// What the suite tried, for the test's output and the note.
struct Report {
  std::int64_t cases = 0;
  std::int64_t ran = 0;            // accepted and run, output checked against the reference
  std::int64_t geometry_only = 0;  // accepted, too large to run: launch geometry checked
  std::map<std::string, std::int64_t> refused;  // by Status

  std::string summary(std::string const& name) const {
    std::ostringstream s;
    s << name << ": " << cases << " cases, " << ran << " run and checked, " << geometry_only
      << " accepted and checked by launch geometry, " << (cases - ran - geometry_only) << " refused (";
    bool first = true;
    for (auto const& [status, count] : refused) {
      s << (first ? "" : ", ") << status << " " << count;
      first = false;
    }
    s << ")";
    return s.str();
  }
};

// Checks one case: the whole protocol of the header comment.
template <class S>
void check_case(typename S::Case const& c, typename S::Case const& good_case, std::string const& what, Report& report) {
  using Op = typename S::Operator;
  static_assert(noexcept(Op::can_implement(std::declval<typename Op::Arguments const&>())) &&
                    noexcept(Op::get_workspace_size(std::declval<typename Op::Arguments const&>())) &&
                    noexcept(std::declval<Op&>().initialize(std::declval<typename Op::Arguments const&>())) &&
                    noexcept(std::declval<Op const&>().run()) &&
                    noexcept(std::declval<Op&>()(std::declval<typename Op::Arguments const&>())),
                "every entry point of a hiptile operator is noexcept");
  INFO(S::name() << ": " << what);
  ++report.cases;
  typename S::Instance good(good_case);
  typename S::Instance bad(c);
  good.arena().snapshot();
  bad.arena().snapshot();
  auto const& args = bad.args();

  Status const checked = Op::can_implement(args);
  Op op;
  REQUIRE(op.initialize(good.args()) == Status::kSuccess);  // stale state must not survive a refusal
  Status const initialized = op.initialize(args);
  CHECK(initialized == checked);

  if (!hiptile::ok(checked)) {
    ++report.refused[hiptile::to_string(checked)];
    CHECK(op.run() == Status::kErrorNotInitialized);
    Op fresh;
    CHECK(fresh(args) == checked);
    CHECK(bad.arena().changes() == "");
    CHECK(good.arena().changes() == "");
    return;
  }
  if (!bad.runnable()) {
    ++report.geometry_only;
    CHECK(bad.check_geometry(op) == "");
    return;
  }
  ++report.ran;
  Status const ran = op.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(ran == Status::kSuccess);
  CHECK(bad.check_output() == "");
  bad.arena().restore();
  Op fresh;
  REQUIRE(fresh(args) == Status::kSuccess);
  CHECK(bad.check_output() == "");
  CHECK(good.arena().changes() == "");
}

// Every field at every extreme on the baseline, then `random_cases` cases that set 1 to 3 random
// fields to random extremes on random baselines, all from `seed`.
template <class S>
Report run(std::uint64_t seed, int random_cases) {
  Report report;
  Rng rng(seed);
  auto const fields = S::fields();
  typename S::Case const base = S::baseline(rng);
  for (auto const& field : fields) {
    for (auto const& [label, set] : field.settings) {
      typename S::Case c = base;
      set(c);
      check_case<S>(c, base, field.name + " = " + label, report);
    }
  }
  for (int i = 0; i < random_cases; ++i) {
    typename S::Case c = S::baseline(rng);
    typename S::Case const good = c;
    std::string what = "random case " + std::to_string(i) + ":";
    int const changes = 1 + int(rng() % 3);
    for (int j = 0; j < changes; ++j) {
      auto const& field = fields[rng() % fields.size()];
      auto const& [label, set] = field.settings[rng() % field.settings.size()];
      set(c);
      what += " " + field.name + " = " + label;
    }
    check_case<S>(c, good, what, report);
  }
  return report;
}

}  // namespace fuzz
