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
// resident workgroups (queried): the preferred candidate, fitted to the arguments' workspace as
// SelectingOperator (selecting_operator.hpp) says. When no candidate takes the problem,
// can_implement returns the first candidate's Status.
// split_k_slices > 1 or stream_k_* settings are the candidates' own rules: only those that take
// them are eligible. A split-K candidate chosen by the heuristic (rule 2's parallel, rule S's
// serial) runs with the slices it chose (choice().split_k_slices), whatever split_k_slices (1) said.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>

#include "hiptile/core/status.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/device/selecting_operator.hpp"
#include "hiptile/gemm/device/shape_heuristic.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/platform/device_query.hpp"

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

// SelectingGemm's rules (SelectingOperator's Rules): ShapeHeuristic over the candidates' tiles and
// the device's resident workgroups.
template <class... Candidates>
struct GemmSelection {
  using CandidateList = std::tuple<Candidates...>;
  using Choice = GemmChoice;
  using Arguments = typename std::tuple_element_t<0, CandidateList>::Arguments;
  static constexpr int kCandidates = sizeof...(Candidates);
  static constexpr char const* kName = "SelectingGemm";
  static constexpr char const* kSpeedupBasis =
      "by its tile waves (compute only: a memory-bound problem gains less)";

  // The rules' pick among the candidates that take the problem (the workspace aside) and are not
  // in `excluded` (bit i: candidate i): kErrorDeviceQuery when the device cannot say how many
  // workgroups it holds, the first candidate's Status when none takes the problem.
  static Status preferred(Arguments const& args, GemmChoice& choice, std::uint64_t excluded) noexcept {
    Status const statuses[] = {can_implement_without_workspace<Candidates>(args)...};
    GemmCandidateShape shapes[] = {shape_of<Candidates>()...};
    bool any = false;
    for (int i = 0; i < kCandidates; ++i) {
      shapes[i].eligible = (excluded >> i & 1) == 0 && takes_problem_given_workspace(statuses[i]);
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

  // How much faster `faster` is than `slower` by their tile waves (ShapeHeuristic::wave_time).
  static double speedup(Arguments const& args, GemmChoice const& faster, GemmChoice const& slower) noexcept {
    return wave_time(args, slower) / wave_time(args, faster);
  }
  static std::string problem_text(Arguments const& args) { return device::problem_text(args); }
  template <class G>
  static std::string configuration_name() {
    return device::configuration_name<G>();
  }

 private:
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
};

template <class... Candidates>
  requires(sizeof...(Candidates) >= 1)
class SelectingGemm : public SelectingOperator<GemmSelection<Candidates...>> {
  using First = std::tuple_element_t<0, std::tuple<Candidates...>>;
  static_assert((std::is_same_v<typename Candidates::Arguments, typename First::Arguments> && ...) &&
                    (std::is_same_v<typename Candidates::OutputOpType, typename First::OutputOpType> && ...) &&
                    (std::is_same_v<typename Candidates::ArchTag, typename First::ArchTag> && ...),
                "SelectingGemm's candidates must be configurations of one GEMM: the same element types, layouts and "
                "output functor, for one architecture");

 public:
  // What every candidate shares.
  using ElementA = typename First::ElementA;
  using LayoutA = typename First::LayoutA;
  using ElementB = typename First::ElementB;
  using LayoutB = typename First::LayoutB;
  using ElementC = typename First::ElementC;
  using LayoutC = typename First::LayoutC;
  using OutputOpType = typename First::OutputOpType;
  using ArchTag = typename First::ArchTag;
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
};

}  // namespace hiptile::gemm::device
