// The argument-fuzzing suite (test/common/argument_fuzz.hpp) on device::GroupedGemm: three groups,
// each a Gemm fuzz case (gemm_fuzz_subject.hpp) in one shared arena; the middle group's every field
// at its extremes (M or N of 0 make it an empty group, which must be skipped), and the grouped
// arguments' own fields: the group count, the groups pointer, the persistent workgroups, the
// workspace, and groups that overlap each other. A refused case must name the same Status from
// can_implement, initialize and operator(); an accepted one must compute every group right and
// write nothing else.
#include <memory>

#include "gemm_fuzz_subject.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"

namespace {

using namespace gemm_fuzz;

// How the groups relate: kNone, or one group's D overlapping another's D or A.
enum class CrossAlias { kNone, kSameD, kAReadsOtherD };

template <class Gemm>
struct GroupedSubject {
  using Operator = device::GroupedGemmOf<Gemm>;
  using Single = GemmSubject<Gemm>;
  static constexpr int kGroups = 3;

  struct Case {
    std::array<typename Single::Case, kGroups> groups;
    int group_count = kGroups;  // given to the arguments; the groups array holds kGroups
    bool groups_null = false;
    int workgroups = 0;
    fuzz::WorkspaceGiven workspace = fuzz::WorkspaceGiven::kExact;
    CrossAlias alias = CrossAlias::kNone;
  };

  static std::string name() { return "GroupedGemmOf<" + Single::name() + ">"; }

  static Case baseline(fuzz::Rng& rng) {
    Case c;
    for (auto& g : c.groups) {
      g = Single::baseline(rng);
      g.batch_count = 1;  // a group is one problem
    }
    return c;
  }

  static std::vector<fuzz::Field<Case>> fields() {
    std::vector<fuzz::Field<Case>> f;
    // The middle group's fields, but not split-K's workspace, which a group does not take.
    for (auto const& field : Single::fields()) {
      if (field.name == "workspace") continue;
      fuzz::Field<Case> g{"group 1: " + field.name, {}};
      for (auto const& [label, set] : field.settings) {
        g.settings.push_back({label, [set](Case& c) { set(c.groups[1]); }});
      }
      f.push_back(g);
    }
    fuzz::Field<Case> count{"group_count", {}};
    for (int v : {0, 1, 2, -1, INT_MIN}) count.settings.push_back({std::to_string(v), [v](Case& c) { c.group_count = v; }});
    f.push_back(count);
    f.push_back({"groups", {{"null", [](Case& c) { c.groups_null = true; }}}});
    fuzz::Field<Case> workgroups{"workgroups", {}};
    for (int v : {0, 1, 2, 5, 1000, INT_MAX, -1, INT_MIN}) {
      workgroups.settings.push_back({std::to_string(v), [v](Case& c) { c.workgroups = v; }});
    }
    f.push_back(workgroups);
    fuzz::Field<Case> workspace{"workspace", {}};  // (a case with a tile always needs one)
    std::pair<char const*, fuzz::WorkspaceGiven> const given[] = {{"null", fuzz::WorkspaceGiven::kNull},
                                                                {"one byte short", fuzz::WorkspaceGiven::kShort},
                                                                {"+4 bytes", fuzz::WorkspaceGiven::kMisaligned},
                                                                {"over group 0's D", fuzz::WorkspaceGiven::kOverD}};
    for (auto const& [label, kind] : given) {
      workspace.settings.push_back({label, [kind](Case& c) { c.workspace = kind; }});
    }
    f.push_back(workspace);
    f.push_back({"groups overlapping",
                 {{"group 2's D is group 0's", [](Case& c) { c.alias = CrossAlias::kSameD; }},
                  {"group 2's A is group 0's D", [](Case& c) { c.alias = CrossAlias::kAReadsOtherD; }},
                  {"every group empty", [](Case& c) {
                     for (auto& g : c.groups) g.m = 0;
                   }}}});
    return f;
  }

  class Instance {
   public:
    explicit Instance(Case const& c) : c_(c) {
      for (auto const& g : c.groups) {
        groups_.push_back(std::make_unique<typename Single::Instance>(g, &arena_));
        arguments_.push_back(groups_.back()->args());
      }
      if (c.alias == CrossAlias::kSameD) {
        arguments_[2].d = arguments_[0].d;
      } else if (c.alias == CrossAlias::kAReadsOtherD) {
        arguments_[2].a = {reinterpret_cast<typename Gemm::ElementA const*>(arguments_[0].d.data),
                           arguments_[2].a.ld};
      }
      args_.group_count = c.group_count;
      args_.groups = c.groups_null ? nullptr : arguments_.data();
      args_.workgroups = c.workgroups;
      // Always real, since initialize() writes the groups' parameters into it; in an arena of its
      // own, which the suite does not snapshot (initialising the good case writes its workspace).
      workspace_.give(workspace_arena_, args_, Operator::get_workspace_size(args_), true, c.workspace, 99,
                      reinterpret_cast<std::byte*>(arguments_[0].d.data));
    }

    typename Operator::Arguments const& args() const { return args_; }
    fuzz::Arena& arena() { return arena_; }
    bool runnable() const {
      for (int g = 0; g < used(); ++g) {
        if (!empty(g) && !groups_[g]->runnable()) return false;
      }
      return true;
    }

    std::string check_geometry(Operator const& op) const {
      std::int64_t tiles = 0;
      for (int g = 0; g < used(); ++g) {
        auto const& p = arguments_[g].problem;
        tiles += hiptile::ceil_div<std::int64_t>(p.m, Gemm::TileShapeType::kM) *
                 hiptile::ceil_div<std::int64_t>(p.n, Gemm::TileShapeType::kN);
      }
      if (op.tiles() != tiles) return "tiles " + std::to_string(op.tiles()) + ", expected " + std::to_string(tiles);
      if (tiles > 0 && (op.workgroups() < 1 || op.workgroups() > tiles)) {
        return "grid of " + std::to_string(op.workgroups());
      }
      if (c_.workgroups > 0 && op.workgroups() != std::min<std::int64_t>(c_.workgroups, tiles)) {
        return "grid of " + std::to_string(op.workgroups()) + " for " + std::to_string(c_.workgroups) + " given";
      }
      return "";
    }

    // Each used group's D against its reference; no byte changed but those of used groups' D and
    // the workspace.
    std::string check_output() {
      for (int g = 0; g < used(); ++g) {
        if (std::string const wrong = groups_[g]->check_values(); !wrong.empty()) {
          return "group " + std::to_string(g) + ": " + wrong;
        }
      }
      return arena_.changes([&](std::byte const* p) {
        if (workspace_.contains(p)) return true;
        for (int g = 0; g < used(); ++g) {
          if (groups_[g]->may_change(p)) return true;
        }
        return false;
      });
    }

   private:
    int used() const { return std::clamp(c_.group_count, 0, kGroups); }
    bool empty(int g) const { return arguments_[g].problem.m == 0 || arguments_[g].problem.n == 0; }

    Case c_;
    fuzz::Arena arena_;
    fuzz::Arena workspace_arena_;
    std::vector<std::unique_ptr<typename Single::Instance>> groups_;
    std::vector<typename Operator::GroupArguments> arguments_;
    typename Operator::Arguments args_{};
    fuzz::GivenWorkspace workspace_;
  };
};

template <class Gemm>
void fuzz_grouped(char const* label, std::uint64_t seed) {
  fuzz::Report const report = fuzz::run<GroupedSubject<Gemm>>(seed, fuzz::random_cases());
  WARN(report.summary(label));
  CHECK(report.ran > 0);
  CHECK(report.geometry_only > 0);
  for (hiptile::Status s : {hiptile::Status::kErrorAliasedOperand, hiptile::Status::kErrorWorkspaceNull,
                            hiptile::Status::kErrorWorkspaceTooSmall, hiptile::Status::kErrorNullPointer,
                            hiptile::Status::kErrorInvalidProblem, hiptile::Status::kErrorOperandTooLarge}) {
    CHECK(report.refused.count(hiptile::to_string(s)) == 1);
  }
}

using F16TN = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
using I8ToI32 = device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor, arch::Gfx942>;

TEST_CASE("GroupedGemm gives every extreme argument a Status or a right answer: f16 TN default", "[fuzz][grouped]") {
  fuzz_grouped<F16TN>("grouped f16 TN (DefaultGemmConfiguration)", 21);
}
TEST_CASE("GroupedGemm gives every extreme argument a Status or a right answer: int8 -> int32", "[fuzz][grouped]") {
  fuzz_grouped<I8ToI32>("grouped i8 x i8 -> i32", 22);
}

}  // namespace
