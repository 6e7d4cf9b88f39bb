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
// can_implement accepts the problem (the workspace aside) — those with one-element accesses only
// when no candidate of whole vectors does — over the implicit GEMM each launch runs (per group;
// strided Dgrad: per row class with filter taps, each a GEMM of its own):
//   0. a direct convolution (IteratorAlgorithm::kDirect: DepthwiseConvolution) where one takes the
//      problem, the first in the list: a depthwise layer's implicit GEMM has one channel a group, so
//      its K is the filter's taps alone and every MMA tile almost all padding. Wgrad's splits its
//      output tiles into its split_k_slices_for(problem, 2 x its slots) slices unless the arguments
//      ask for more than one;
//   0b. Fprop whose channels per group are fewer than a candidate's K tile (an RGB stem): the first
//      few-channel candidate (IteratorAlgorithm::kFewChannels) that takes the problem, whose K packs
//      the filter's taps and channels into one run where the others give each tap a K tile;
//   0c. a grouped layer of which a packed-group candidate that takes it puts two groups or more
//      in a GEMM batch (its groups_per_batch: the filter-side channels of those groups, Fprop
//      K/groups and Dgrad C/groups along N, Wgrad K/groups along M, fit its tile and the gathered
//      ones are whole vectors; IteratorAlgorithm::kPackedGroups, where the others pad each group's
//      few channels to a whole tile): rules 1 and 2 below among the
//      packed-group candidates only, over one batch's GEMM (rule kPackedGroups); otherwise they
//      run among the others only (a batch of one group is the precomputed iterator's GEMM, with
//      costlier filter addresses);
//   1. Wgrad, whose GEMM-K is every output pixel: when the largest data-parallel tile's tiles fill
//      under half of the device's slots for it (the workgroups it holds at once) and a split-K
//      candidate takes the problem, the split-K candidate whose tiles waste least of M x N (ties:
//      the larger tile, then list order), with slices = its slots / its tiles, at most 32 and at
//      most half the K tiles (2 at least); only when the arguments ask for one slice;
//   2. otherwise the data-parallel candidate of least estimated time: whole waves of its slots,
//      each wave as long as its slots' operand traffic, slots x (TileM + TileN) x K (the copy
//      engine's tiles on the H100 run at their load bandwidth, so a 128 x 256 tile does twice the
//      MMAs of a 128 x 64 one for 1.5 times the bytes). Ties: where the tied tiles take at most two
//      waves the one with more slots (short grids gain from overlapping workgroups), else the
//      larger tile; then the iterators (tensor copies, precomputed, few-channel, analytic), then
//      list order. Fitted to the H100's measurements of the seven ResNet-50 layers of
//      benchmark/conv_nvidia.cu (docs/performance.md, 2026-11-28). A persistent candidate (Sm90's
//      warp-specialised 256 x 64) takes part only where its tile spans the GEMM's N: on the H200 it
//      was the fastest on the 64-channel layers and 1-38% slower than the best per-tile one on the
//      wider layers (docs/performance.md, 2026-12-02);
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

enum class ConvChoiceRule { kNone, kDirect, kWgradSplitK, kTileWaves, kOnlyEligible, kFewChannels, kPackedGroups };

constexpr char const* to_string(ConvChoiceRule r) noexcept {
  switch (r) {
    case ConvChoiceRule::kNone: return "none eligible";
    case ConvChoiceRule::kDirect:
      return "a direct convolution takes the problem (depthwise: an implicit GEMM's K would be the filter taps alone)";
    case ConvChoiceRule::kFewChannels:
      return "few channels per group: the filter's taps and channels packed into one K run (not a K tile per tap)";
    case ConvChoiceRule::kPackedGroups:
      return "few channels per group: several groups a GEMM batch (a block-diagonal filter), not a tile each";
    case ConvChoiceRule::kWgradSplitK:
      return "wgrad over few tiles: GEMM-K (every output pixel) split into slices, the split tile that wastes least";
    case ConvChoiceRule::kTileWaves:
      return "the data-parallel tile of least estimated time: whole waves of the device's slots times each tile's "
             "operand traffic";
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
  os << "candidate " << c.candidate << ": ";
  if (c.algorithm == IteratorAlgorithm::kDirect) {
    os << "direct depthwise convolution, " << c.tile_n << " channels by up to " << c.tile_m << " output positions, ";
  } else {
    os << c.tile_m << "x" << c.tile_n << "x" << c.tile_k << " tile, " << c.stages
       << (c.stages == 1 ? " stage, " : " stages, ") << to_string(c.algorithm)
       << (c.algorithm == IteratorAlgorithm::kTensorCopy ? ", " : " iterators, ");
  }
  os << c.threads << " threads, " << c.lds_bytes << " bytes of LDS, "
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
  static constexpr char const* kSpeedupBasis = "by the waves of its tiles and their operand traffic (an estimate)";
  static constexpr int kMaxSlices = 32;

  static Status preferred(Arguments const& args, ConvChoice& choice, std::uint64_t excluded) noexcept {
    ConvProblemSize const& p = args.problem;
    if (Status const s = p.check(); !ok(s)) return s;
    Work w = work_of(p);
    bool eligible[] = {gemm::device::takes_problem<Candidates>(args, args.split_k_slices)...};
    bool const vector_access[] = {(Candidates::kAccessElements > 1)...};
    bool any_vector = false;
    for (int i = 0; i < kCandidates; ++i) {
      eligible[i] = eligible[i] && (excluded >> i & 1) == 0;
      any_vector = any_vector || (eligible[i] && vector_access[i]);
    }
    // One-element accesses only where no candidate of whole vectors takes the problem.
    auto access_ok = [&](int i) { return vector_access[i] || !any_vector; };
    for (int i = 0; i < kCandidates; ++i) eligible[i] = eligible[i] && access_ok(i);
    ConvChoice c[] = {choice_of<Candidates>()...};
    for (int i = 0; i < kCandidates; ++i) {
      if (!eligible[i]) continue;
      if (Status const q = slots_of(i, c[i].slots); !ok(q)) return q;
    }
    auto split = [&](int i) { return gemm::kernel::splits_k(c[i].schedule); };
    auto direct = [&](int i) { return c[i].algorithm == IteratorAlgorithm::kDirect; };
    int picked = -1, slices = args.split_k_slices;
    ConvChoiceRule rule = ConvChoiceRule::kNone;
    for (int i = 0; i < kCandidates && picked < 0; ++i) {
      if (!eligible[i] || !direct(i)) continue;
      // (Wgrad's direct convolution splits its output tiles: its own count for the device's slots.)
      int n = args.split_k_slices;
      if (split(i) && n == 1) {
        visit_index<kCandidates>(i, [&]<int I>() {
          n = std::tuple_element_t<I, CandidateList>::split_k_slices_for(p, 2 * c[i].slots);
          return Status::kSuccess;
        });
      }
      bool taken = n == args.split_k_slices;
      if (!taken) {
        visit_index<kCandidates>(i, [&]<int I>() {
          taken = gemm::device::takes_problem<std::tuple_element_t<I, CandidateList>>(args, n);
          return Status::kSuccess;
        });
      }
      if (taken) picked = i, slices = n, rule = ConvChoiceRule::kDirect;
    }
    // Rule 0b: Fprop whose channels per group fill no K tile, on packed taps.
    auto few_channels = [&](int i) { return c[i].algorithm == IteratorAlgorithm::kFewChannels; };
    for (int i = 0; i < kCandidates && picked < 0; ++i) {
      if (eligible[i] && few_channels(i) && p.c_per_group() < c[i].tile_k) {
        picked = i, slices = args.split_k_slices, rule = ConvChoiceRule::kFewChannels;
      }
    }
    // Rule 0c: a grouped layer of which a packed-group candidate puts two groups or more in a GEMM
    // batch: rules 1 and 2 among the packed-group candidates only, over a batch's GEMM; else among
    // the others only.
    auto packed_groups = [&](int i) { return c[i].algorithm == IteratorAlgorithm::kPackedGroups; };
    bool packed_only = false;
    for (int i = 0; i < kCandidates && picked < 0 && !packed_only; ++i) {
      if (!eligible[i] || !packed_groups(i)) continue;
      visit_index<kCandidates>(i, [&]<int I>() {
        using C = std::tuple_element_t<I, CandidateList>;
        if constexpr (requires { C::groups_per_batch(p); }) {
          if (C::groups_per_batch(p) > 1) packed_only = true, w = work_of(C::batch_problem(p));
        }
        return Status::kSuccess;
      });
    }
    auto in_family = [&](int i) { return packed_groups(i) == packed_only; };
    // Rule 2's candidate, and the largest data-parallel tile (rule 1's test).
    int fastest = -1, largest = -1;
    auto persistent_too_narrow = [&](int i) {
      return c[i].schedule == gemm::kernel::SplitKMode::kPersistent && w.n > c[i].tile_n;
    };
    for (int i = 0; i < kCandidates && picked < 0; ++i) {
      if (!eligible[i] || split(i) || direct(i) || !in_family(i) || persistent_too_narrow(i)) continue;
      if (fastest < 0 || faster(w, c[i], c[fastest])) fastest = i;
      if (largest < 0 || area(c[i]) > area(c[largest])) largest = i;
    }
    if (kOperator == ConvOperator::kWgrad && picked < 0 && largest >= 0 && args.split_k_slices == 1 &&
        2 * tiles(w, c[largest]) < c[largest].slots) {
      for (int i = 0; i < kCandidates; ++i) {
        if (!split(i) || direct(i) || (excluded >> i & 1) != 0 || !access_ok(i) || !in_family(i)) continue;
        if (c[i].slots == 0) {  // (not queried above: it takes the problem only with several slices)
          if (Status const q = slots_of(i, c[i].slots); !ok(q)) return q;
        }
        std::int64_t const k_tiles = ceil_div<std::int64_t>(w.k, c[i].tile_k);
        int const n = int(std::max<std::int64_t>(
            2, std::min<std::int64_t>({c[i].slots / tiles(w, c[i]), kMaxSlices, k_tiles / 2})));
        bool taken = false;
        visit_index<kCandidates>(i, [&]<int I>() {
          taken = gemm::device::takes_problem<std::tuple_element_t<I, CandidateList>>(args, n);
          return Status::kSuccess;
        });
        if (!taken) continue;
        if (picked < 0 || waste(w, c[i]) < waste(w, c[picked]) ||
            (waste(w, c[i]) == waste(w, c[picked]) && area(c[i]) > area(c[picked]))) {
          picked = i, slices = n, rule = ConvChoiceRule::kWgradSplitK;
        }
      }
    }
    if (picked < 0 && fastest >= 0) picked = fastest, slices = 1, rule = ConvChoiceRule::kTileWaves;
    if (packed_only && picked >= 0) rule = ConvChoiceRule::kPackedGroups;
    for (int i = 0; i < kCandidates && picked < 0; ++i) {
      if (eligible[i]) picked = i, rule = ConvChoiceRule::kOnlyEligible;
    }
    if (picked < 0) {
      // None takes the problem: the first refusal that names the arguments (a null, misaligned or
      // aliased pointer, ...) rather than a candidate's reach (kErrorNotSupported,
      // kErrorChannelsNotAligned, kErrorTensorCopyLimits: a depthwise problem with an aliased output
      // is refused for the alias, not for the first candidate's channels); else the first
      // candidate's (kErrorNotSupported when it takes the problem but was excluded).
      Status const statuses[] = {Candidates::can_implement(args)...};
      for (Status const s : statuses) {
        if (!gemm::device::takes_problem_given_workspace(s) && s != Status::kErrorNotSupported &&
            s != Status::kErrorChannelsNotAligned && s != Status::kErrorTensorCopyLimits) {
          return s;
        }
      }
      return gemm::device::takes_problem_given_workspace(statuses[0]) ? Status::kErrorNotSupported : statuses[0];
    }
    choice = c[picked];
    choice.candidate = picked;
    choice.rule = rule;
    choice.split_k_slices = slices;
    return Status::kSuccess;
  }

  // How much faster `faster` is than `slower` by rule 2's estimate (whole waves of the device's
  // slots, each as long as its slots' operand traffic).
  static double speedup(Arguments const& args, ConvChoice const& faster, ConvChoice const& slower) noexcept {
    Work const w = work_of(args.problem);
    return wave_time(w, slower) / wave_time(w, faster);
  }
  static std::string problem_text(Arguments const& args) { return conv_problem_text(kOperator, args.problem); }
  template <class C>
  static std::string configuration_name() {
    return conv_configuration_name<C>();
  }

 private:
  // The implicit GEMM one launch runs, per batch: batches are the groups (strided Dgrad: times the
  // row classes with filter taps, min(stride, filter) of each dimension's residues, each class
  // about 1 / (product of the strides) of the rows).
  struct Work {
    std::int64_t m = 0, n = 0, k = 0, batches = 1;
  };
  static Work work_of(ConvProblemSize const& p) noexcept {
    auto const g = p.implicit_gemm(kOperator);
    Work w{g.m, g.n, g.k, p.groups};
    if (kOperator == ConvOperator::kDgrad) {
      std::int64_t classes = 1, tap_classes = 1;
      for (int i = 0; i < 3; ++i) {
        classes *= p.stride[i];
        tap_classes *= std::min(p.stride[i], p.filter[i]);
      }
      w.m = ceil_div<std::int64_t>(g.m, classes);
      w.batches *= tap_classes;
    }
    return w;
  }
  static std::int64_t area(ConvChoice const& c) noexcept { return std::int64_t(c.tile_m) * c.tile_n; }
  static std::int64_t tiles(Work const& w, ConvChoice const& c) noexcept {
    return ceil_div<std::int64_t>(w.m, c.tile_m) * ceil_div<std::int64_t>(w.n, c.tile_n) * w.batches;
  }
  static double waste(Work const& w, ConvChoice const& c) noexcept {
    return double(tiles(w, c)) * double(area(c)) / std::max(1.0, double(w.m) * double(w.n) * double(w.batches));
  }
  static std::int64_t waves(Work const& w, ConvChoice const& c) noexcept {
    return ceil_div<std::int64_t>(tiles(w, c) * c.split_k_slices, std::max<std::int64_t>(1, c.slots));
  }
  // Rule 2's estimate: waves x slots x (TileM + TileN) x the K each workgroup runs.
  static double wave_time(Work const& w, ConvChoice const& c) noexcept {
    std::int64_t const k =
        ceil_div<std::int64_t>(ceil_div<std::int64_t>(w.k, c.split_k_slices), c.tile_k) * c.tile_k;
    return double(waves(w, c)) * double(std::max<std::int64_t>(1, c.slots)) * double(c.tile_m + c.tile_n) * double(k);
  }
  static int iterator_rank(IteratorAlgorithm a) noexcept {
    switch (a) {
      case IteratorAlgorithm::kTensorCopy: return 0;
      case IteratorAlgorithm::kPrecomputed: return 1;
      case IteratorAlgorithm::kFewChannels: return 2;  // never more K tiles than the analytic, often fewer
      default: return 3;
    }
  }
  // Whether data-parallel candidate a beats b by rule 2.
  static bool faster(Work const& w, ConvChoice const& a, ConvChoice const& b) noexcept {
    double const ta = wave_time(w, a), tb = wave_time(w, b);
    if (ta != tb) return ta < tb;
    if (std::max(waves(w, a), waves(w, b)) <= 2 && a.slots != b.slots) return a.slots > b.slots;
    if (area(a) != area(b)) return area(a) > area(b);
    return iterator_rank(a.algorithm) < iterator_rank(b.algorithm);
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
