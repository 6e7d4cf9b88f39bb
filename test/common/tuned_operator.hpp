#pragma once
// fuzz::TunedOperator: a tuned operator (hiptile/tune/tuned_operator.hpp: TunedGemm, TunedConvolution)
// as the Operator of an argument-fuzzing subject (argument_fuzz.hpp), with the find-mode options the
// suites run it in: HeuristicTuning (no database) and HybridTuning (a database of the program's own,
// where each new problem's candidates are timed, in the simulator by the MI300 timing model). A subject
// knows it runs one by Operator::Tuning: what ran is the tuned choice, which check_choice() holds to
// the choice kept for the arguments and visit_chosen() hands over for the subject's own checks.
#include <cstddef>
#include <optional>
#include <string>

#include "hiptile/core/status.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/tune/tuned_operator.hpp"
#include "hiptile/tune/tuning_database.hpp"
#include "hiptile/version.hpp"
#include "temporary_directory.hpp"

namespace fuzz {

// Tuned: a TunedOperator<Operation>; Options: a type whose get() gives the TuningOptions. A tuned
// operator's choice depends on its options, so it has no static can_implement or get_workspace_size;
// these answer as one with those options would: the choice's Status, else the chosen candidate's
// verdict with the chosen K slices (what initialize() returns on a gfx942 device).
template <class Tuned, class Options>
class TunedOperator {
 public:
  using Tuning = Tuned;
  using Arguments = typename Tuned::Arguments;
  static constexpr int kCandidates = Tuned::kCandidates;

  // The choice an operator with these options makes for the arguments (or made: then from its cache).
  static hiptile::Status select(Arguments const& args, hiptile::tune::TunedChoice& choice) noexcept {
    return Tuned(Options::get()).select(args, choice);
  }
  static hiptile::Status can_implement(Arguments const& args) noexcept {
    hiptile::tune::TunedChoice choice;
    if (hiptile::Status const s = select(args, choice); !hiptile::ok(s)) return s;
    Arguments chosen = args;
    chosen.split_k_slices = choice.split_k_slices;
    return hiptile::visit_index<kCandidates>(
        choice.candidate, [&]<int I>() { return Tuned::template Candidate<I>::can_implement(chosen); });
  }
  static std::size_t get_workspace_size(Arguments const& args) noexcept {
    return Tuned(Options::get()).get_workspace_size(args);
  }
  hiptile::Status initialize(Arguments const& args) noexcept { return op_.initialize(args); }
  hiptile::Status run() const noexcept { return op_.run(); }
  hiptile::Status operator()(Arguments const& args) noexcept { return op_(args); }
  Tuned const& tuned() const noexcept { return op_; }

  // "" if the operator ran the choice it keeps for `args`; and a choice it timed or read (not one it
  // remembered) is the database's entry for the problem.
  std::string check_choice(Arguments const& args) const {
    hiptile::tune::TunedChoice const& ran = op_.choice();
    hiptile::tune::TunedChoice again;
    if (!op_.initialized() || !hiptile::ok(op_.select(args, again)) || !again.cached ||
        again.candidate != ran.candidate || again.split_k_slices != ran.split_k_slices) {
      return "the choice run is not the one kept for the arguments";
    }
    if (ran.source != hiptile::tune::ChoiceSource::kHeuristic && !ran.cached) {
      hiptile::DeviceInfo const* device = nullptr;
      if (!hiptile::ok(hiptile::current_device_info(device))) return "device";
      std::optional<hiptile::tune::TuningEntry> const entry =
          hiptile::tune::database_at(op_.database_path())
              .find({device->name, device->compute_units, hiptile::kVersion, Tuned::candidate_list_id(),
                     Tuned::problem_key_text(args)});
      if (!entry || entry->winner != ran.name || entry->split_k_slices != ran.split_k_slices) {
        return "the tuning database's entry is not the choice";
      }
    }
    return "";
  }

  // f(candidate) with the initialised candidate that runs (nothing when none is).
  template <class F>
  void visit_chosen(F&& f) const {
    if (!op_.initialized()) return;
    (void)hiptile::visit_index<kCandidates>(op_.choice().candidate, [&]<int I>() {
      f(op_.template candidate<I>());
      return hiptile::Status::kSuccess;
    });
  }

 private:
  Tuned op_{Options::get()};
};

// Heuristic find mode: the operation's documented rule, no database.
struct HeuristicTuning {
  static hiptile::tune::TuningOptions get() { return {.mode = hiptile::tune::FindMode::kHeuristic, .database = ""}; }
};

// Hybrid find mode with a database in a directory of the program's own, removed when it ends: a new
// problem is timed (in the simulator: the MI300 timing model's prediction), stored, then read back.
struct HybridTuning {
  struct Directory : hiptile_test::TemporaryDirectory {
    Directory() : hiptile_test::TemporaryDirectory("hiptile-fuzz-db") {}
  };
  static std::string const& database() {
    static Directory const directory;
    static std::string const file = (directory.path / "tuning.db").string();
    return file;
  }
  static hiptile::tune::TuningOptions get() {
    return {.mode = hiptile::tune::FindMode::kHybrid, .database = database()};
  }
};

}  // namespace fuzz
