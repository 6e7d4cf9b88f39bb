#pragma once
// TunedConvolution: a convolution operator over a list of compile-time configurations (the
// candidates: ImplicitGemmConvolution of one operator, element types and output functor) that
// picks one per problem at run time as find mode says, and remembers the pick (tuned_operator.hpp
// has the rules, docs/tuning.md the guide). The case MIOpen's find mode exists for: a backward-
// weight shape whose best tile or split-K depends on the layer.
//
//   using Wgrad = hiptile::tune::DefaultTunedConvolution<ConvOperator::kWgrad, half_t, half_t, arch::Gfx942>;
//   Wgrad op({.mode = FindMode::kHybrid});
//   args.workspace_bytes = op.get_workspace_size(args);
//   op.initialize(args, stream); op.run(stream);
//
// ConvolutionTuning is what is particular to convolution. Its key: the whole problem (extents,
// filter, padding, stride, dilation, groups, mode), pointer alignments, the K slices, the bias.
// Its heuristic is SelectingConvolution's rules (conv/device/selecting_convolution.hpp: split-K
// for a Wgrad over few tiles, else the data-parallel tile of least estimated time), DefaultConvolution's
// choice.
// The timing model's prediction (simulator) treats the implicit GEMM of all groups as one problem
// of groups x M rows and the K the candidate's loaders run (channels padded to the K tile at every
// tap, but for the few-channel iterator's packed taps); it has no entry for convolution with split-K, so in the simulator the
// split-K candidates are not timed (find mode then compares the data-parallel ones only).
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/conv_log.hpp"
#include "hiptile/conv/device/selecting_convolution.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/sim/timing_model.hpp"
#include "hiptile/tune/tuned_operator.hpp"

namespace hiptile::tune {

template <class... Candidates>
requires(sizeof...(Candidates) >= 1) struct ConvolutionTuning {
  using CandidateList = std::tuple<Candidates...>;
  using First = std::tuple_element_t<0, CandidateList>;
  static_assert(((Candidates::kOperator == First::kOperator) && ...) &&
                    (std::is_same_v<typename Candidates::Element, typename First::Element> && ...) &&
                    (std::is_same_v<typename Candidates::ElementC, typename First::ElementC> && ...) &&
                    (std::is_same_v<typename Candidates::OutputOpType, typename First::OutputOpType> && ...) &&
                    (std::is_same_v<typename Candidates::ArchTag, typename First::ArchTag> && ...),
                "TunedConvolution's candidates must be configurations of one "
                "convolution: the same operator, "
                "element types and output functor, for one architecture");
  static_assert((std::is_same_v<typename Candidates::Arguments, typename First::Arguments> && ...),
                "TunedConvolution's candidates must take the same Arguments");
  using Arguments = typename First::Arguments;
  static constexpr conv::ConvOperator kOperator = First::kOperator;
  static constexpr char const* kName = "TunedConvolution";
  static constexpr std::size_t kKeyWords = 26;

  template <class C>
  static std::string configuration_name() {
    return conv::device::conv_configuration_name<C>();
  }
  static std::string list_name() {
    return std::string("convolution ") + to_string(kOperator) + " " + typeid(typename First::OutputOpType).name();
  }

  static std::string problem_text(Arguments const& args) {
    using detail::alignment;
    std::ostringstream os;
    os << conv::device::conv_problem_text(kOperator, args.problem) << " align " << alignment(args.a) << ","
       << alignment(args.b) << "," << alignment(args.c) << "," << alignment(args.d) << " slices " << args.split_k_slices
       << " bias " << (args.bias != nullptr);
    return os.str();
  }

  static std::array<std::int64_t, kKeyWords> key_words(Arguments const& a) noexcept {
    using detail::alignment;
    conv::ConvProblemSize const& p = a.problem;
    std::int64_t const aligned =
        alignment(a.a) | alignment(a.b) << 8 | alignment(a.c) << 16 | std::int64_t(alignment(a.d)) << 24;
    std::array<std::int64_t, kKeyWords> w{
        p.n, p.c, p.k, p.groups, std::int64_t(p.mode), aligned, a.split_k_slices, a.bias != nullptr};
    for (int i = 0; i < 3; ++i) {
      w[std::size_t(8 + i)] = p.input[i];
      w[std::size_t(11 + i)] = p.filter[i];
      w[std::size_t(14 + i)] = p.pad_before[i];
      w[std::size_t(17 + i)] = p.pad_after[i];
      w[std::size_t(20 + i)] = p.stride[i];
      w[std::size_t(23 + i)] = p.dilation[i];
    }
    return w;
  }

  static Arguments with_slices(Arguments args, int slices) noexcept {
    args.split_k_slices = slices;
    return args;
  }
  static void const* output(Arguments const& args) noexcept { return args.d; }
  static ByteRange output_range(Arguments const& args) noexcept {
    conv::ConvProblemSize const& p = args.problem;
    if (!ok(p.check())) return {};
    std::int64_t const elements = kOperator == conv::ConvOperator::kFprop   ? p.output_elements()
                                  : kOperator == conv::ConvOperator::kDgrad ? p.activation_elements()
                                                                            : p.filter_elements();
    return ByteRange(args.d, elements, sizeof(typename First::ElementC));
  }
  static Arguments with_output(Arguments args, void* d) noexcept {
    args.d = static_cast<typename First::ElementC*>(d);
    return args;
  }

  // SelectingConvolution's rules over the candidates not in `excluded` (bit i: candidate i),
  // whatever workspace the arguments give (TunedOperator fits the choice to it).
  static Status heuristic(Arguments const& args, HeuristicPick& pick, std::uint64_t excluded = 0) noexcept {
    conv::device::ConvChoice h;
    if (Status const s = conv::device::ConvSelection<Candidates...>::preferred(args, h, excluded); !ok(s)) return s;
    pick = {h.candidate, h.split_k_slices, conv::device::to_string(h.rule)};
    return Status::kSuccess;
  }

  template <class C>
  static std::optional<double> predicted_seconds(Arguments const& args, sim::TimingDevice const& device) {
    if (!ok(args.problem.check())) return std::nullopt;
    // (Packed groups: a GEMM batch of several groups, its N and K as many times wider.)
    conv::ConvProblemSize p = args.problem;
    if constexpr (C::kAlgorithm == conv::IteratorAlgorithm::kPackedGroups) p = C::batch_problem(p);
    auto const gemm = p.implicit_gemm(kOperator);
    std::int64_t const m = gemm.m * p.groups;
    // The K its loaders run: Fprop's and Dgrad's channel-block order pads the gathered channels
    // (C/groups, Dgrad K/groups) to the K tile at every filter tap; the few-channel order packs them.
    std::int64_t k = gemm.k;
    if constexpr (kOperator != conv::ConvOperator::kWgrad && C::kAlgorithm != conv::IteratorAlgorithm::kFewChannels) {
      std::int64_t const channels = kOperator == conv::ConvOperator::kFprop ? p.c_per_group() : p.k_per_group();
      std::int64_t const tile_k = C::TileShapeType::kK;
      k = gemm.k / channels * ((channels + tile_k - 1) / tile_k * tile_k);
    }
    constexpr std::int64_t kMax = std::numeric_limits<int>::max();
    if (m > kMax || gemm.n > kMax || k > kMax) return std::nullopt;
    std::optional<sim::Prediction> const r =
        sim::predicted_time<C>({.problem = {int(m), int(gemm.n), int(k)}, .slices = args.split_k_slices}, device);
    if (!r) return std::nullopt;
    return r->seconds;
  }

};

template <class... Candidates>
using TunedConvolution = TunedOperator<ConvolutionTuning<Candidates...>>;

}  // namespace hiptile::tune
