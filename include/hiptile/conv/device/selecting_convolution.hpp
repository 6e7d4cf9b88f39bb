#pragma once
// SelectingConvolution: one convolution operator over several compile-time configurations of it
// (ImplicitGemmConvolution of one operator, element types and output functor; different tiles,
// iterators or split-K), which picks one per problem at initialize():
//
//   using Wgrad = SelectingConvolution<TileA, TileB, TileAWithParallelSplitK>;
//   args.workspace_bytes = Wgrad::get_workspace_size(args); args.workspace = ...;
//   Wgrad op; op.initialize(args); op.run(stream);
//   std::cout << op.choice();   // which configuration ran, and why
//
// DefaultConvolution (default_convolution.hpp) is one. The rules, among the candidates whose
// can_implement accepts the problem (the workspace aside), the implicit GEMM's M x N x K taken per
// group:
//   1. Wgrad, whose GEMM-K is every output pixel: when the largest data-parallel tile's tiles (times
//      groups) fill under half of the device's slots for it and a split-K candidate takes the
//      problem, that one (list order), with slices = slots / tiles, at most 16 and at most half the
//      K tiles (2 at least); only when the arguments ask for one slice;
//   2. otherwise the data-parallel candidate whose tiles waste the least of M x N (padded over real
//      area; list order breaks ties): a 64-wide tile for 64 channels;
//   3. otherwise the first that takes the problem.
// The choice is then fitted to the arguments' workspace as SelectingOperator says
// (gemm/device/selecting_operator.hpp). TunedConvolution's heuristic (find mode heuristic) is these
// rules.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/conv_log.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/gemm/device/selecting_operator.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/platform/device_query.hpp"

namespace hiptile::conv::device {

enum class ConvChoiceRule { kNone, kWgradSplitK, kLeastWaste, kOnlyEligible };

constexpr char const* to_string(ConvChoiceRule r) noexcept {
  switch (r) {
    case ConvChoiceRule::kNone: return "none eligible";
    case ConvChoiceRule::kWgradSplitK: return "wgrad over few tiles: GEMM-K (every output pixel) split into slices";
    case ConvChoiceRule::kLeastWaste: return "the data-parallel tile that wastes least of the implicit GEMM's M x N";
    case ConvChoiceRule::kOnlyEligible: return "the first candidate that takes the problem";
  }
  return "unknown";
}

// Which candidate initialize() picked, its configuration and the rule that picked it.
struct ConvChoice {
  int candidate = -1;
  ConvChoiceRule rule = ConvChoiceRule::kNone;
  int tile_m = 0, tile_n = 0, tile_k = 0, stages = 0;
  IteratorAlgorithm algorithm = IteratorAlgorithm::kPrecomputed;
  gemm::kernel::SplitKMode schedule = gemm::kernel::SplitKMode::kNone;
  int split_k_slices = 1;     // the K slices it runs with (split-K: rule 1's, or the arguments')
  int threads = 0;            // per workgroup
  std::size_t lds_bytes = 0;  // dynamic LDS per workgroup
  std::int64_t slots = 0;     // the chosen candidate's workgroups resident on the device at once
  // When the workspace given was too small for the candidate the rules prefer: that candidate, the
  // bytes it needs, and its estimated speed-up over this choice (tile waves); -1 otherwise.
  int preferred = -1;
  std::size_t preferred_workspace_bytes = 0;
  double preferred_speedup = 1;
};

inline std::ostream& operator<<(std::ostream& os, ConvChoice const& c) {
  if (c.candidate < 0) return os << "no candidate";
  os << "candidate " << c.candidate << ": " << c.tile_m << "x" << c.tile_n << "x" << c.tile_k << " tile, " << c.stages
     << (c.stages == 1 ? " stage, " : " stages, ")
     << (c.algorithm == IteratorAlgorithm::kAnalytic       ? "analytic"
         : c.algorithm == IteratorAlgorithm::kPrecomputed ? "precomputed"
                                                          : "tensor-copy")
     << " iterators, " << c.threads << " threads, " << c.lds_bytes << " bytes of LDS, "
     << gemm::kernel::to_string(c.schedule);
  if (c.split_k_slices > 1) os << " over " << c.split_k_slices << " slices";
  os << " (" << to_string(c.rule) << ")";
  if (c.preferred >= 0) {
    os << "; candidate " << c.preferred << " would run with " << c.preferred_workspace_bytes << " bytes of workspace";
  }
  return os;
}

// SelectingConvolution's rules (SelectingOperator's Rules; see the top of this file).
template <class... Candidates>
struct ConvSelection {
  using CandidateList = std::tuple<Candidates...>;
  using Choice = ConvChoice;
  using First = std::tuple_element_t<0, CandidateList>;
  using Arguments = typename First::Arguments;
  static constexpr int kCandidates = sizeof...(Candidates);
  static constexpr ConvOperator kOperator = First::kOperator;
  static constexpr char const* kName = "SelectingConvolution";
  static constexpr char const* kSpeedupBasis =
      "by its tile waves (compute only: a memory-bound problem gains less)";
  static constexpr int kMaxSlices = 16;

  static Status preferred(Arguments const& args, ConvChoice& choice, std::uint64_t excluded) noexcept {
    ConvProblemSize const& p = args.problem;
    if (Status const s = p.check(); !ok(s)) return s;
    auto const gemm = p.implicit_gemm(kOperator);
    bool eligible[] = {gemm::device::takes_problem<Candidates>(args, args.split_k_slices)...};
    for (int i = 0; i < kCandidates; ++i) eligible[i] = eligible[i] && (excluded >> i & 1) == 0;
    ConvChoice const configurations[] = {choice_of<Candidates>()...};
    auto split = [&](int i) { return gemm::kernel::splits_k(configurations[i].schedule); };
    auto tiles = [&](int i) {
      return ceil_div<std::int64_t>(gemm.m, configurations[i].tile_m) *
             ceil_div<std::int64_t>(gemm.n, configurations[i].tile_n) * p.groups;
    };
    // The data-parallel candidate with the least waste, and the largest tile among them.
    int least = -1, largest = -1;
    double least_waste = std::numeric_limits<double>::infinity();
    for (int i = 0; i < kCandidates; ++i) {
      if (!eligible[i] || split(i)) continue;
      double const padded = double(tiles(i)) * configurations[i].tile_m * configurations[i].tile_n;
      double const waste = padded / std::max(1.0, double(gemm.m) * double(gemm.n) * p.groups);
      if (waste < least_waste) least = i, least_waste = waste;
      if (largest < 0 || area(configurations[i]) > area(configurations[largest])) largest = i;
    }
    int picked = -1, slices = args.split_k_slices;
    ConvChoiceRule rule = ConvChoiceRule::kNone;
    if (kOperator == ConvOperator::kWgrad && largest >= 0 && args.split_k_slices == 1) {
      std::int64_t slots = 0;
      if (Status const q = slots_of(largest, slots); !ok(q)) return q;
      if (2 * tiles(largest) < slots) {
        for (int i = 0; i < kCandidates && picked < 0; ++i) {
          if (!split(i) || (excluded >> i & 1) != 0) continue;
          std::int64_t const k_tiles = ceil_div<std::int64_t>(gemm.k, configurations[i].tile_k);
          int const n = int(std::max<std::int64_t>(
              2, std::min<std::int64_t>({slots / tiles(largest), kMaxSlices, k_tiles / 2})));
          bool taken = false;
          visit_index<kCandidates>(i, [&]<int I>() {
            taken = gemm::device::takes_problem<std::tuple_element_t<I, CandidateList>>(args, n);
            return Status::kSuccess;
          });
          if (taken) picked = i, slices = n, rule = ConvChoiceRule::kWgradSplitK;
        }
      }
    }
    if (picked < 0 && least >= 0) picked = least, slices = 1, rule = ConvChoiceRule::kLeastWaste;
    for (int i = 0; i < kCandidates && picked < 0; ++i) {
      if (eligible[i]) picked = i, rule = ConvChoiceRule::kOnlyEligible;
    }
    if (picked < 0) {
      // None takes the problem: the first candidate's Status (kErrorNotSupported when it takes the
      // problem but was excluded).
      Status const first = First::can_implement(args);
      return ok(first) || first == Status::kErrorWorkspaceNull || first == Status::kErrorWorkspaceTooSmall
                 ? Status::kErrorNotSupported
                 : first;
    }
    choice = configurations[picked];
    choice.candidate = picked;
    choice.rule = rule;
    choice.split_k_slices = slices;
    if (Status const q = slots_of(picked, choice.slots); !ok(q)) return q;
    return Status::kSuccess;
  }

  // How much faster `faster` is than `slower` by their tile waves: whole waves of the device's
  // slots, each as long as one tile's share of K.
  static double speedup(Arguments const& args, ConvChoice const& faster, ConvChoice const& slower) noexcept {
    return wave_time(args, slower) / wave_time(args, faster);
  }
  static std::string problem_text(Arguments const& args) { return conv_problem_text(kOperator, args.problem); }
  template <class C>
  static std::string configuration_name() {
    return conv_configuration_name<C>();
  }

 private:
  static std::int64_t area(ConvChoice const& c) noexcept { return std::int64_t(c.tile_m) * c.tile_n; }
  static double wave_time(Arguments const& args, ConvChoice const& c) noexcept {
    ConvProblemSize const& p = args.problem;
    auto const gemm = p.implicit_gemm(kOperator);
    std::int64_t const tiles = ceil_div<std::int64_t>(gemm.m, c.tile_m) * ceil_div<std::int64_t>(gemm.n, c.tile_n) *
                               p.groups * c.split_k_slices;
    std::int64_t const waves = ceil_div<std::int64_t>(tiles, std::max<std::int64_t>(1, c.slots));
    std::int64_t const k = ceil_div<std::int64_t>(ceil_div<std::int64_t>(gemm.k, c.split_k_slices), c.tile_k);
    return double(waves) * double(area(c)) * double(std::max<std::int64_t>(1, k) * c.tile_k);
  }
  template <class C>
  static ConvChoice choice_of() noexcept {
    ConvChoice c;
    c.tile_m = C::TileShapeType::kM;
    c.tile_n = C::TileShapeType::kN;
    c.tile_k = C::TileShapeType::kK;
    c.stages = C::kStages;
    c.algorithm = C::kAlgorithm;
    c.schedule = C::kSplitK;
    c.threads = C::kThreads;
    c.lds_bytes = C::kLdsBytes;
    return c;
  }
  // The workgroups of candidate i's kernel the device holds at once.
  static Status slots_of(int i, std::int64_t& slots) noexcept {
    return visit_index<kCandidates>(i, [&]<int I>() {
      using C = std::tuple_element_t<I, CandidateList>;
      return query_device_workgroups<typename C::Kernel>(unsigned(C::kThreads), C::kLdsBytes, slots);
    });
  }
};

template <class... Candidates>
  requires(sizeof...(Candidates) >= 1)
class SelectingConvolution : public gemm::device::SelectingOperator<ConvSelection<Candidates...>> {
  using First = std::tuple_element_t<0, std::tuple<Candidates...>>;
  static_assert(((Candidates::kOperator == First::kOperator) && ...) &&
                    (std::is_same_v<typename Candidates::Arguments, typename First::Arguments> && ...) &&
                    (std::is_same_v<typename Candidates::OutputOpType, typename First::OutputOpType> && ...) &&
                    (std::is_same_v<typename Candidates::ArchTag, typename First::ArchTag> && ...),
                "SelectingConvolution's candidates must be configurations of one convolution: the same operator, "
                "element types and output functor, for one architecture");

 public:
  // What every candidate shares.
  static constexpr ConvOperator kOperator = First::kOperator;
  using Element = typename First::Element;
  using ElementC = typename First::ElementC;
  using OutputOpType = typename First::OutputOpType;
  using ArchTag = typename First::ArchTag;
  // DefaultConvolution was one configuration before it selected: code that read its shapes reads
  // the first candidate's (DefaultConvolutionConfiguration's), which is not always the one that runs.
  using TileShapeType [[deprecated("DefaultConvolution selects a configuration per problem: read "
                                   "choice() after initialize(), or DefaultConvolutionConfiguration's "
                                   "TileShapeType")]] = typename First::TileShapeType;
  using WaveShapeType [[deprecated("DefaultConvolution selects a configuration per problem: read "
                                   "DefaultConvolutionConfiguration's WaveShapeType")]] = typename First::WaveShapeType;
  using MmaAtomType [[deprecated("DefaultConvolution selects a configuration per problem: read "
                                 "DefaultConvolutionConfiguration's MmaAtomType")]] = typename First::MmaAtomType;
  [[deprecated("DefaultConvolution selects a configuration per problem: read choice().stages "
               "after initialize(), or DefaultConvolutionConfiguration's kStages")]] static constexpr int kStages =
      First::kStages;
  template <gemm::kernel::SplitKMode Mode>
  using WithSplitK [[deprecated("DefaultConvolution selects a configuration per problem: name "
                                "DefaultConvolutionConfiguration<...>::WithSplitK")]] =
      typename First::template WithSplitK<Mode>;
};

}  // namespace hiptile::conv::device
