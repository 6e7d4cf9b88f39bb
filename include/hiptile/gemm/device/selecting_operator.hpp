#pragma once
// SelectingOperator<Rules>: an operator over several compile-time configurations of one operation
// (the candidates), which picks one per problem at initialize() by Rules and runs it. What
// SelectingGemm (selecting_gemm.hpp) and SelectingConvolution (conv/device/selecting_convolution.hpp)
// share, written once: fitting the choice to the arguments' workspace, can_implement,
// get_workspace_size, initialize, run, operator(), choice() and candidate<I>().
//
// The workspace the arguments give is an input to the choice, as in cuBLAS and hipBLASLt: when the
// candidate the rules prefer needs more than that (none given counts as 0 bytes), the rules pick
// again among the others, until a candidate fits; a data-parallel candidate needs none. The choice
// depends only on the arguments and the device: get_workspace_size(args) is the preferred
// candidate's need (what to allocate for the best choice), can_implement(args) the verdict of the
// candidate that fits, the workspace included. When no candidate takes the problem, can_implement
// returns the rules' Status; when none fits the workspace, the preferred one's workspace Status. A
// workspace that makes the choice fall back logs a hint (category hints) with the size that would
// run the preferred candidate and the gain the rules estimate.
//
// Rules has
//   CandidateList               std::tuple of the configurations (same Arguments, one architecture)
//   Choice                      candidate, split_k_slices, preferred, preferred_workspace_bytes and
//                               preferred_speedup, and operator<< for the log
//   kName                       "SelectingGemm"
//   static Status preferred(Arguments const&, Choice&, std::uint64_t excluded)
//                               its pick among the candidates that take the problem, the workspace
//                               aside, and are not in `excluded` (bit i: candidate i)
//   static double speedup(Arguments const&, Choice const& faster, Choice const& slower)
//   kSpeedupBasis               what that estimate rests on, for the hint
//   static std::string problem_text(Arguments const&), configuration_name<Candidate>()
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>

#include "hiptile/core/status.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/gemm/device/workspace_pointer_forms.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

// C's verdict on the arguments without their workspace (a choice is fitted to it later): a
// workspace Status says only that C would need one.
template <class C>
Status can_implement_without_workspace(typename C::Arguments args) noexcept {
  args.workspace = nullptr;
  args.workspace_bytes = 0;
  return C::can_implement(args);
}
inline bool takes_problem_given_workspace(Status s) noexcept {
  return ok(s) || s == Status::kErrorWorkspaceNull || s == Status::kErrorWorkspaceTooSmall;
}

// Whether C takes the problem with `slices` K slices, the workspace aside.
template <class C>
bool takes_problem(typename C::Arguments args, int slices) noexcept {
  args.split_k_slices = slices;
  return takes_problem_given_workspace(can_implement_without_workspace<C>(args));
}

template <class Rules>
class SelectingOperator : public WorkspacePointerForms<SelectingOperator<Rules>> {
  using CandidateList = typename Rules::CandidateList;

 public:
  using Arguments = typename std::tuple_element_t<0, CandidateList>::Arguments;
  using Choice = typename Rules::Choice;
  static constexpr int kCandidates = int(std::tuple_size_v<CandidateList>);
  static_assert(kCandidates <= 64, "at most 64 candidates: the choice excludes candidates by the bits of a 64-bit mask");
  template <int I>
  using Candidate = std::tuple_element_t<I, CandidateList>;

  // The rules' pick, whatever workspace the arguments give (see the top of this file).
  static Status preferred(Arguments const& args, Choice& choice, std::uint64_t excluded = 0) noexcept {
    return Rules::preferred(args, choice, excluded);
  }

  // The candidate for these arguments: the preferred one if it fits the arguments' workspace, else
  // the rules' pick among the others that do.
  static Status select(Arguments const& args, Choice& choice) noexcept {
    Choice first;
    if (Status const s = preferred(args, first); !ok(s)) return s;
    std::size_t const first_bytes = workspace_of(args, first);
    if (fits(args, first_bytes)) {
      choice = first;
      return Status::kSuccess;
    }
    std::uint64_t excluded = std::uint64_t{1} << first.candidate;
    for (int tries = 1; kCandidates > tries; ++tries) {
      Choice next;
      if (!ok(preferred(args, next, excluded))) break;
      if (fits(args, workspace_of(args, next))) {
        next.preferred = first.candidate;
        next.preferred_workspace_bytes = first_bytes;
        next.preferred_speedup = Rules::speedup(args, first, next);
        choice = next;
        return Status::kSuccess;
      }
      excluded |= std::uint64_t{1} << next.candidate;
    }
    // No candidate fits: the preferred one's own verdict on the workspace given.
    return visit(first.candidate, [&]<int I>() { return Candidate<I>::can_implement(with_choice(args, first)); });
  }

  static Status can_implement(Arguments const& args) noexcept {
    Choice choice;
    if (Status const s = select(args, choice); !ok(s)) return s;
    Arguments const chosen = with_choice(args, choice);
    return visit(choice.candidate, [&]<int I>() { return Candidate<I>::can_implement(chosen); });
  }

  // The preferred candidate's workspace, whatever the arguments give: with that many bytes the
  // best choice runs (0 when the problem cannot be run).
  static std::size_t get_workspace_size(Arguments const& args) noexcept {
    std::size_t bytes = 0;
    return ok(get_workspace_size(args, bytes)) ? bytes : 0;
  }
  // The same, with the choice's Status: why the problem cannot be run (`bytes` is then 0), where
  // the one-argument form's 0 cannot tell "none needed" from "refused".
  static Status get_workspace_size(Arguments const& args, std::size_t& bytes) noexcept {
    bytes = 0;
    Choice choice;
    if (Status const s = preferred(args, choice); !ok(s)) return s;
    bytes = workspace_of(args, choice);
    return Status::kSuccess;
  }

  // Chooses, then initialises the chosen candidate; on failure the operator is uninitialised.
  Status initialize(Arguments const& args) noexcept {
    choice_ = {};
    Choice choice;
    if (Status const s = select(args, choice); !ok(s)) return s;
    Arguments const chosen = with_choice(args, choice);
    if (Status const s = visit(choice.candidate, [&]<int I>() { return std::get<I>(operators_).initialize(chosen); });
        !ok(s)) {
      return s;
    }
    choice_ = choice;
    logging::write(logging::Category::kInfo, [&](std::ostream& os) {
      os << Rules::kName << " chose " << choice << " among " << kCandidates << " for " << Rules::problem_text(args);
    });
    if (choice.preferred >= 0) {
      logging::write(logging::Category::kHints, [&](std::ostream& os) {
        os << "a workspace of " << choice.preferred_workspace_bytes << " bytes (" << given_bytes(args)
           << " given) would run candidate " << choice.preferred << " (" << candidate_name(choice.preferred)
           << ") instead of candidate " << choice.candidate << ", up to " << std::setprecision(3)
           << choice.preferred_speedup << "x as fast " << Rules::kSpeedupBasis << "; allocate get_workspace_size(args) bytes";
      });
    }
    return Status::kSuccess;
  }

  Status run(Stream stream = nullptr) const noexcept {
    if (choice_.candidate < 0) return Status::kErrorNotInitialized;
    return visit(choice_.candidate, [&]<int I>() { return std::get<I>(operators_).run(stream); });
  }

  using WorkspacePointerForms<SelectingOperator>::initialize;  // 0.1's forms with a workspace pointer (deprecated)
  using WorkspacePointerForms<SelectingOperator>::operator();
  Status operator()(Arguments const& args, Stream stream = nullptr) noexcept {
    Status const s = initialize(args);
    return ok(s) ? run(stream) : s;
  }

  // What the last successful initialize() chose (candidate -1 before one).
  Choice const& choice() const noexcept { return choice_; }
  bool initialized() const noexcept { return choice_.candidate >= 0; }
  // Candidate i's configuration, in words.
  static std::string candidate_name(int i) {
    std::string name;
    visit(i, [&]<int I>() {
      name = Rules::template configuration_name<Candidate<I>>();
      return Status::kSuccess;
    });
    return name;
  }
  // Candidate I's operator (initialised when I is the choice), for its launch shape and parameters.
  template <int I>
  Candidate<I> const& candidate() const noexcept {
    return std::get<I>(operators_);
  }
  // f(the chosen candidate's operator); nothing before a successful initialize().
  template <class F>
  void visit_chosen(F&& f) const {
    if (choice_.candidate < 0) return;
    visit(choice_.candidate, [&]<int I>() {
      f(std::get<I>(operators_));
      return Status::kSuccess;
    });
  }

 private:
  // The arguments the chosen candidate runs: its K slices set.
  static Arguments with_choice(Arguments args, Choice const& choice) noexcept {
    args.split_k_slices = choice.split_k_slices;
    return args;
  }
  // Bytes of workspace the choice needs, and whether the arguments give them (none: 0 bytes).
  static std::size_t workspace_of(Arguments const& args, Choice const& choice) noexcept {
    std::size_t bytes = 0;
    Arguments const chosen = with_choice(args, choice);
    visit(choice.candidate, [&]<int I>() {
      bytes = Candidate<I>::get_workspace_size(chosen);
      return Status::kSuccess;
    });
    return bytes;
  }
  static std::size_t given_bytes(Arguments const& args) noexcept {
    return args.workspace == nullptr ? 0 : args.workspace_bytes;
  }
  static bool fits(Arguments const& args, std::size_t bytes) noexcept { return bytes <= given_bytes(args); }
  template <class F>
  static Status visit(int i, F&& f) noexcept {
    return visit_index<kCandidates>(i, std::forward<F>(f));
  }

  CandidateList operators_{};
  Choice choice_{};
};

}  // namespace hiptile::gemm::device
