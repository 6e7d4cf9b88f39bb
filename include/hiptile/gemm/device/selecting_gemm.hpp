#pragma once
// SelectingGemm: one GEMM operator over several compile-time configurations of it (the same
// element types, layouts and output functor; different tiles, waves, stages or schedules), which
// picks one per problem at initialize():
//
//   using Gemm = SelectingGemm<Large, LargeStreamK, Tile128StreamK, SmallMStreamK>;
//   Gemm::Arguments args{problem, a, b, c, d, output_op_params};
//   std::vector<std::byte> ... workspace of Gemm::get_workspace_size(args) bytes ...
//   Gemm op; op.initialize(args); op.run(stream);
//   std::cout << op.choice();   // which configuration ran, and why
//
// The choice: first the candidates whose can_implement accepts the problem (the workspace
// aside), then ShapeHeuristic's rules (shape_heuristic.hpp) over their tiles and the device's
// resident workgroups (queried): the preferred candidate. The workspace the arguments give is an
// input to the choice, as in cuBLAS and hipBLASLt: when the preferred candidate needs more than
// that (none given counts as 0 bytes), the rules pick again among the others, until a candidate
// fits; a data-parallel candidate needs none, so a problem that one of them takes runs without a
// workspace. The choice depends only on the arguments and the device: get_workspace_size(args) is
// the preferred candidate's need (what to allocate for the best choice), can_implement(args) the
// verdict of the candidate that fits, the workspace included. When no candidate takes the problem,
// can_implement returns the first candidate's Status; when none fits the workspace, the preferred
// one's workspace Status. A workspace that makes the choice fall back logs a hint (category hints)
// with the size that would run the preferred candidate and the gain the tile waves predict.
// split_k_slices > 1 or stream_k_* settings are the candidates' own rules: only those that take
// them are eligible. A split-K candidate chosen by the heuristic (rule 2's parallel, rule S's
// serial) runs with the slices it chose (choice().split_k_slices), whatever split_k_slices (1) said.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "hiptile/core/status.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/device/shape_heuristic.hpp"
#include "hiptile/gemm/device/workspace_pointer_forms.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

// Which candidate initialize() picked, its configuration and the rule that picked it.
struct GemmChoice {
  int candidate = -1;
  ChoiceReason reason = ChoiceReason::kNone;
  int tile_m = 0, tile_n = 0, tile_k = 0, stages = 0;
  kernel::SplitKMode schedule = kernel::SplitKMode::kNone;
  int split_k_slices = 1;       // the K slices it runs with (split-K: the heuristic's, or the arguments')
  int threads = 0;              // per workgroup
  std::size_t lds_bytes = 0;    // dynamic LDS per workgroup
  std::int64_t large_tiles = 0, large_slots = 0;  // what rules 2–5 compared (0 for rule 1)
  std::int64_t slots = 0;       // the chosen candidate's workgroups resident on the device at once
  // When the workspace given was too small for the candidate the rules prefer: that candidate, the
  // bytes it needs, and its predicted speed-up over this choice (tile waves); -1 otherwise.
  int preferred = -1;
  std::size_t preferred_workspace_bytes = 0;
  double preferred_speedup = 1;
};

inline std::ostream& operator<<(std::ostream& os, GemmChoice const& c) {
  if (c.candidate < 0) return os << "no candidate";
  os << "candidate " << c.candidate << ": " << c.tile_m << "x" << c.tile_n << "x" << c.tile_k << " tile, " << c.stages
     << (c.stages == 1 ? " stage, " : " stages, ") << c.threads << " threads, " << c.lds_bytes << " bytes of LDS, "
     << kernel::to_string(c.schedule);
  if (c.split_k_slices > 1) os << " over " << c.split_k_slices << " slices";
  os << " (" << c.reason;
  if (c.large_slots > 0) os << "; " << c.large_tiles << " large tiles on " << c.large_slots << " slots";
  os << ")";
  if (c.preferred >= 0) {
    os << "; candidate " << c.preferred << " would run with " << c.preferred_workspace_bytes << " bytes of workspace";
  }
  return os;
}

template <class... Candidates>
  requires(sizeof...(Candidates) >= 1)
class SelectingGemm : public WorkspacePointerForms<SelectingGemm<Candidates...>> {
  using First = std::tuple_element_t<0, std::tuple<Candidates...>>;
  static_assert((std::is_same_v<typename Candidates::Arguments, typename First::Arguments> && ...) &&
                    (std::is_same_v<typename Candidates::OutputOpType, typename First::OutputOpType> && ...) &&
                    (std::is_same_v<typename Candidates::ArchTag, typename First::ArchTag> && ...),
                "SelectingGemm's candidates must be configurations of one GEMM: the same element types, layouts and "
                "output functor, for one architecture");

 public:
  using Arguments = typename First::Arguments;
  // What every candidate shares.
  using ElementA = typename First::ElementA;
  using LayoutA = typename First::LayoutA;
  using ElementB = typename First::ElementB;
  using LayoutB = typename First::LayoutB;
  using ElementC = typename First::ElementC;
  using LayoutC = typename First::LayoutC;
  using OutputOpType = typename First::OutputOpType;
  using ArchTag = typename First::ArchTag;
  static constexpr int kCandidates = sizeof...(Candidates);
  static_assert(kCandidates <= 64, "at most 64 candidates: the choice excludes candidates by the bits of a 64-bit mask");
  template <int I>
  using Candidate = std::tuple_element_t<I, std::tuple<Candidates...>>;
  // 0.1's DefaultGemm was one configuration: code that read its shapes reads the first candidate's
  // (DefaultGemmConfiguration's), which is not always the one that runs. choice() says which does.
  using TileShapeType [[deprecated("DefaultGemm selects a configuration per problem since hiptile 0.2: read "
                                   "choice() after initialize(), or DefaultGemmConfiguration's TileShapeType")]] =
      typename First::TileShapeType;
  using WaveShapeType [[deprecated("DefaultGemm selects a configuration per problem since hiptile 0.2: read "
                                   "DefaultGemmConfiguration's WaveShapeType")]] = typename First::WaveShapeType;
  using MmaAtomType [[deprecated("DefaultGemm selects a configuration per problem since hiptile 0.2: read "
                                 "DefaultGemmConfiguration's MmaAtomType")]] = typename First::MmaAtomType;
  using TileOrderType [[deprecated("DefaultGemm selects a configuration per problem since hiptile 0.2: read "
                                   "DefaultGemmConfiguration's TileOrderType")]] = typename First::TileOrderType;
  [[deprecated("DefaultGemm selects a configuration per problem since hiptile 0.2: read choice().stages after "
               "initialize(), or DefaultGemmConfiguration's kStages")]] static constexpr int kStages = First::kStages;
  // Pointer and leading-dimension multiples, in elements: the strictest candidate's.
  static constexpr int kAlignmentA = std::max({Candidates::kAlignmentA...});
  static constexpr int kAlignmentB = std::max({Candidates::kAlignmentB...});

  // The rules' pick among the candidates that take the problem (the workspace aside) and are not
  // in `excluded` (bit i: candidate i), whatever workspace the arguments give: kErrorDeviceQuery
  // when the device cannot say how many workgroups it holds, the first candidate's Status when
  // none takes the problem.
  static Status preferred(Arguments const& args, GemmChoice& choice, std::uint64_t excluded = 0) noexcept {
    Arguments bare = args;  // the workspace is checked once a candidate is chosen
    bare.workspace = nullptr;
    bare.workspace_bytes = 0;
    Status const statuses[] = {Candidates::can_implement(bare)...};
    GemmCandidateShape shapes[] = {shape_of<Candidates>()...};
    bool any = false;
    for (int i = 0; i < kCandidates; ++i) {
      shapes[i].eligible = (excluded >> i & 1) == 0 && (ok(statuses[i]) || statuses[i] == Status::kErrorWorkspaceNull ||
                                                         statuses[i] == Status::kErrorWorkspaceTooSmall);
      any = any || shapes[i].eligible;
    }
    if (!any) return statuses[0];
    Status query = Status::kSuccess;
    std::int64_t const slots[] = {device_slots<Candidates>(query)...};
    if (!ok(query)) return query;
    for (int i = 0; i < kCandidates; ++i) shapes[i].slots = slots[i];
    ShapeChoice const picked = ShapeHeuristic::choose(args.problem, args.batch_count, shapes);
    if (picked.candidate < 0) return Status::kErrorInternal;  // (some candidate was eligible)
    GemmChoice const configurations[] = {choice_of<Candidates>()...};
    choice = configurations[picked.candidate];
    choice.candidate = picked.candidate;
    choice.reason = picked.reason;
    choice.split_k_slices = picked.split_k_slices > 0 ? picked.split_k_slices : args.split_k_slices;
    choice.large_tiles = picked.large_tiles;
    choice.large_slots = picked.large_slots;
    choice.slots = slots[picked.candidate];
    return Status::kSuccess;
  }

  // The candidate for these arguments: the preferred one if it fits the arguments' workspace, else
  // the rules' pick among the others that do (see the top of this file).
  static Status select(Arguments const& args, GemmChoice& choice) noexcept {
    GemmChoice first;
    if (Status const s = preferred(args, first); !ok(s)) return s;
    std::size_t const first_bytes = workspace_of(args, first);
    if (fits(args, first_bytes)) {
      choice = first;
      return Status::kSuccess;
    }
    std::uint64_t excluded = std::uint64_t{1} << first.candidate;
    for (int tries = 1; kCandidates > tries; ++tries) {
      GemmChoice next;
      if (!ok(preferred(args, next, excluded))) break;
      if (fits(args, workspace_of(args, next))) {
        next.preferred = first.candidate;
        next.preferred_workspace_bytes = first_bytes;
        next.preferred_speedup = wave_time(args, next) / wave_time(args, first);
        choice = next;
        return Status::kSuccess;
      }
      excluded |= std::uint64_t{1} << next.candidate;
    }
    // No candidate fits: the preferred one's own verdict on the workspace given.
    return visit(first.candidate, [&]<int I>() { return Candidate<I>::can_implement(with_choice(args, first)); });
  }

  static Status can_implement(Arguments const& args) noexcept {
    GemmChoice choice;
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
    GemmChoice choice;
    if (Status const s = preferred(args, choice); !ok(s)) return s;
    bytes = workspace_of(args, choice);
    return Status::kSuccess;
  }

  // Chooses, then initialises the chosen candidate; on failure the operator is uninitialised.
  Status initialize(Arguments const& args) noexcept {
    choice_ = {};
    GemmChoice choice;
    if (Status const s = select(args, choice); !ok(s)) return s;
    Arguments const chosen = with_choice(args, choice);
    if (Status const s = visit(choice.candidate, [&]<int I>() { return std::get<I>(operators_).initialize(chosen); });
        !ok(s)) {
      return s;
    }
    choice_ = choice;
    logging::write(logging::Category::kInfo, [&](std::ostream& os) {
      os << "SelectingGemm chose " << choice << " among " << kCandidates << " for " << problem_text(args);
    });
    if (choice.preferred >= 0) {
      logging::write(logging::Category::kHints, [&](std::ostream& os) {
        os << "a workspace of " << choice.preferred_workspace_bytes << " bytes (" << given_bytes(args)
           << " given) would run candidate " << choice.preferred << " (" << preferred_name(choice.preferred)
           << ") instead of candidate " << choice.candidate << ", up to " << std::setprecision(3)
           << choice.preferred_speedup
           << "x as fast by its tile waves (compute only: a memory-bound problem gains less); allocate "
              "get_workspace_size(args) bytes";
      });
    }
    return Status::kSuccess;
  }

  Status run(Stream stream = nullptr) const noexcept {
    if (choice_.candidate < 0) return Status::kErrorNotInitialized;
    return visit(choice_.candidate, [&]<int I>() { return std::get<I>(operators_).run(stream); });
  }

  using WorkspacePointerForms<SelectingGemm>::initialize;  // 0.1's forms with a workspace pointer (deprecated)
  using WorkspacePointerForms<SelectingGemm>::operator();
  Status operator()(Arguments const& args, Stream stream = nullptr) noexcept {
    Status const s = initialize(args);
    return ok(s) ? run(stream) : s;
  }

  // What the last successful initialize() chose (candidate -1 before one).
  GemmChoice const& choice() const noexcept { return choice_; }
  bool initialized() const noexcept { return choice_.candidate >= 0; }
  // The chosen candidate's operator, for its launch shape and parameters.
  template <int I>
  Candidate<I> const& candidate() const noexcept {
    return std::get<I>(operators_);
  }

 private:
  // The arguments the chosen candidate runs: its K slices set.
  static Arguments with_choice(Arguments args, GemmChoice const& choice) noexcept {
    args.split_k_slices = choice.split_k_slices;
    return args;
  }
  // Bytes of workspace the choice needs, and whether the arguments give them (none: 0 bytes).
  static std::size_t workspace_of(Arguments const& args, GemmChoice const& choice) noexcept {
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
  static std::string preferred_name(int i) {
    std::string name;
    visit(i, [&]<int I>() {
      name = configuration_name<Candidate<I>>();
      return Status::kSuccess;
    });
    return name;
  }
  // A choice's time as its tile waves estimate it (ShapeHeuristic::wave_time).
  static double wave_time(Arguments const& args, GemmChoice const& c) noexcept {
    return ShapeHeuristic::wave_time(args.problem, args.batch_count, {c.tile_m, c.tile_n, c.tile_k}, c.schedule,
                                     c.split_k_slices, c.slots);
  }
  template <class G>
  static GemmCandidateShape shape_of() noexcept {
    return {G::TileShapeType::kM,
            G::TileShapeType::kN,
            G::TileShapeType::kK,
            G::kStreamK,
            G::kParallelSplitK,
            false,
            0,
            WarpgroupAtom<typename G::MmaAtomType> && G::kSplitK == kernel::SplitKMode::kNone,
            G::kSplitK == kernel::SplitKMode::kSerial};
  }
  template <class G>
  static GemmChoice choice_of() noexcept {
    return {-1,         ChoiceReason::kNone, G::TileShapeType::kM, G::TileShapeType::kN, G::TileShapeType::kK,
            G::kStages, G::kSplitK,          1,                    G::kThreads,          G::kLdsBytes};
  }
  // The workgroups of G's kernel the device holds at once (status: the query's failure, if any).
  template <class G>
  static std::int64_t device_slots(Status& status) noexcept {
    std::int64_t slots = 0;
    Status const q = query_device_workgroups<typename G::Kernel>(unsigned(G::kThreads), G::kLdsBytes, slots);
    if (!ok(q)) status = q;
    return slots;
  }
  template <class F>
  static Status visit(int i, F&& f) noexcept {
    return visit_index<kCandidates>(i, std::forward<F>(f));
  }

  std::tuple<Candidates...> operators_{};
  GemmChoice choice_{};
};

}  // namespace hiptile::gemm::device
