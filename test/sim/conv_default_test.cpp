// DefaultConvolution: one operator that picks a configuration per problem (SelectingConvolution's
// rules, conv/device/selecting_convolution.hpp), so that every channel and group count runs and
// Wgrad over few tiles splits K. Each case runs the operator in the simulator on gfx942 and compares
// its whole output with the double-precision host reference, and checks which candidate the rules
// chose, against the rule's own statement (the tiles' waste, the device's slots), not a recorded
// choice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>

#include "../common/fake_address.hpp"
#include "../common/temporary_directory.hpp"
#include "conv_test_support.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/tune/default_tuned_convolution.hpp"

namespace {

using conv_test::ConvOperator;
using conv_test::ConvProblemSize;
using conv_test::IteratorAlgorithm;
using conv_test::unread_arguments;
using hiptile::Status;
using hiptile::half_t;
using hiptile::conv::device::ConvChoice;
using hiptile::conv::device::ConvChoiceRule;
using hiptile::gemm::kernel::SplitKMode;

template <ConvOperator Op, class Element = half_t>
using Default = hiptile::conv::device::DefaultConvolution<Op, Element, Element, hiptile::arch::Gfx942>;
template <ConvOperator Op>
using Configuration = hiptile::conv::device::DefaultConvolutionConfiguration<Op, half_t, half_t, hiptile::arch::Gfx942>;

// Its list on gfx942: the default configuration first (so DefaultConvolutionConfiguration is what
// the deprecated shape members name), the analytic one, Wgrad's split-K twins, then the direct
// depthwise convolution, for Fprop the few-channel one (packed taps), for Fprop and Dgrad packed
// groups.
static_assert(std::is_same_v<Default<ConvOperator::kFprop>::Candidate<0>, Configuration<ConvOperator::kFprop>>);
static_assert(Default<ConvOperator::kFprop>::Candidate<1>::kAlgorithm == IteratorAlgorithm::kAnalytic);
static_assert(Default<ConvOperator::kFprop>::kCandidates == 6 && Default<ConvOperator::kDgrad>::kCandidates == 5);
static_assert(Default<ConvOperator::kFprop>::Candidate<3>::kAlgorithm == IteratorAlgorithm::kFewChannels);
static_assert(Default<ConvOperator::kFprop>::Candidate<4>::kAlgorithm == IteratorAlgorithm::kPackedGroups);
static_assert(Default<ConvOperator::kDgrad>::Candidate<2>::kAlgorithm == IteratorAlgorithm::kDirect);
static_assert(Default<ConvOperator::kDgrad>::Candidate<3>::kAlgorithm == IteratorAlgorithm::kPackedGroups);
static_assert(Default<ConvOperator::kWgrad>::kCandidates == 8 &&
              Default<ConvOperator::kWgrad>::Candidate<4>::kAlgorithm == IteratorAlgorithm::kDirect);
static_assert(Default<ConvOperator::kWgrad>::Candidate<5>::kAlgorithm == IteratorAlgorithm::kPackedGroups &&
              Default<ConvOperator::kWgrad>::Candidate<6>::kSplitK == SplitKMode::kParallel);
static_assert(Default<ConvOperator::kWgrad>::Candidate<7>::kAlgorithm == IteratorAlgorithm::kAnalytic &&
              Default<ConvOperator::kWgrad>::Candidate<7>::kSplitK == SplitKMode::kParallel);
static_assert(std::is_same_v<Default<ConvOperator::kWgrad>::Candidate<2>,
                             Configuration<ConvOperator::kWgrad>::WithSplitK<SplitKMode::kParallel>>);
static_assert(std::is_same_v<Default<ConvOperator::kWgrad>::Candidate<3>,
                             Configuration<ConvOperator::kWgrad>::WithSplitK<SplitKMode::kSerial>>);

// Runs Default<Op> on p with the workspace get_workspace_size asks for (or none) and returns its choice.
template <ConvOperator Op, class Element = half_t>
ConvChoice run_default(ConvProblemSize const& p, conv_test::Epilogue e = {}, bool workspace = true) {
  ConvChoice choice;
  auto const result = conv_test::run_conv<Default<Op, Element>>(
      p, e, 7, [&](auto const& op, auto const&) { choice = op.choice(); }, workspace);
  INFO(conv_test::describe(p) << ": " << hiptile::host::to_string(result));
  CHECK(result.passed());
  return choice;
}

// The workgroups of the default configuration the simulated device holds at once.
template <ConvOperator Op>
std::int64_t slots() {
  using C = Configuration<Op>;
  std::int64_t n = 0;
  REQUIRE(hiptile::query_device_workgroups<typename C::Kernel>(unsigned(C::kThreads), C::kLdsBytes, n) ==
          Status::kSuccess);
  return n;
}

}  // namespace

TEST_CASE("DefaultConvolution runs channel counts the vector divides on the precomputed iterators", "[conv][default]") {
  for (ConvProblemSize const& p : {ConvProblemSize::conv2d(2, 9, 9, 64, 64, 3, 3, 1, 1),
                                   ConvProblemSize::conv2d(1, 11, 7, 16, 40, 5, 5, 2, 2, 2, 1),
                                   ConvProblemSize::conv2d(2, 8, 8, 128, 128, 3, 3, 1, 1, 1, 1, 1, 1, 2)}) {
    for (ConvChoice const& c : {run_default<ConvOperator::kFprop>(p, {0.5f, -1.25f, true}),
                                run_default<ConvOperator::kDgrad>(p)}) {
      CHECK(c.candidate == 0);
      CHECK(c.algorithm == IteratorAlgorithm::kPrecomputed);
      CHECK(c.rule == ConvChoiceRule::kTileWaves);
    }
  }
}

TEST_CASE("DefaultConvolution runs every channel count: RGB stems, odd channels, depthwise, few channels per group",
          "[conv][default]") {
  // What DefaultConvolutionConfiguration refuses (channels per group not a multiple of 8) runs on
  // the analytic iterators, by the same least-waste rule among the candidates that take it, but
  // Fprop with fewer channels per group than the K tile on packed taps (the few-channel
  // candidate, 3); a depthwise Fprop or Dgrad (groups = C = K) on the direct convolution.
  for (ConvProblemSize const& p : {ConvProblemSize::conv2d(2, 15, 13, 3, 16, 7, 7, 3, 3, 2, 2),  // RGB 7x7/2 stem
                                   ConvProblemSize::conv2d(1, 16, 16, 3, 24, 4, 4, 0, 0, 4, 4),  // 4x4/4 patchify
                                   ConvProblemSize::conv2d(1, 9, 10, 5, 7, 3, 3, 1, 1),
                                   ConvProblemSize::conv2d(2, 10, 10, 16, 16, 3, 3, 1, 1).with_groups(16)}) {
    using Fixed = Configuration<ConvOperator::kFprop>;
    CHECK(Fixed::can_implement(unread_arguments<Fixed>(p)) == Status::kErrorChannelsNotAligned);
    bool const depthwise = p.groups == p.c && p.k == p.c;
    ConvChoice const fprop = run_default<ConvOperator::kFprop>(p);
    CHECK(fprop.candidate == (depthwise ? 2 : 3));
    CHECK(fprop.algorithm == (depthwise ? IteratorAlgorithm::kDirect : IteratorAlgorithm::kFewChannels));
    CHECK(fprop.rule == (depthwise ? ConvChoiceRule::kDirect : ConvChoiceRule::kFewChannels));
    ConvChoice const dgrad = run_default<ConvOperator::kDgrad>(p);
    CHECK(dgrad.candidate == (depthwise ? 2 : 1));
    CHECK(dgrad.algorithm == (depthwise ? IteratorAlgorithm::kDirect : IteratorAlgorithm::kAnalytic));
    // (Wgrad without a workspace: the direct convolution would split its tiles, so the analytic one;
    // a depthwise layer's on packed groups, 16 one-channel groups a batch.)
    ConvChoice const wgrad = run_default<ConvOperator::kWgrad>(p, {1.0f, 0.0f, false}, false);
    CHECK(wgrad.candidate == (depthwise ? 5 : 1));
    CHECK(wgrad.algorithm == (depthwise ? IteratorAlgorithm::kPackedGroups : IteratorAlgorithm::kAnalytic));
    // (The direct convolution, or the analytic one split, would run with a workspace.)
    CHECK(wgrad.preferred == (depthwise ? 4 : 7));
  }
  // Groups of 4 channels: packed groups (Fprop and Dgrad with half-vector filter accesses; Wgrad
  // without a workspace data-parallel, its split twin preferred).
  ConvProblemSize const four = ConvProblemSize::conv2d(1, 9, 9, 32, 64, 3, 3, 1, 1, 2, 2).with_groups(8);
  for (ConvChoice const& c : {run_default<ConvOperator::kFprop>(four), run_default<ConvOperator::kDgrad>(four),
                              run_default<ConvOperator::kWgrad>(four, {1.0f, 0.0f, false}, false)}) {
    CHECK(c.algorithm == IteratorAlgorithm::kPackedGroups);
    CHECK(c.rule == ConvChoiceRule::kPackedGroups);
  }
}

TEST_CASE("DefaultConvolution splits Wgrad's K over few tiles, and falls back to a data-parallel tile without a "
          "workspace",
          "[conv][default][split_k]") {
  // 64 -> 64, 3x3: the filter gradient is 64 x 576, five 128 x 128 tiles on a device of hundreds of
  // slots, while K is every output pixel: the rule splits K into min(slots / tiles, 32, K tiles / 2).
  ConvProblemSize const p = ConvProblemSize::conv2d(2, 12, 12, 64, 64, 3, 3, 1, 1);
  auto const gemm = p.implicit_gemm(ConvOperator::kWgrad);
  std::int64_t const tiles = hiptile::ceil_div<std::int64_t>(gemm.m, 128) * hiptile::ceil_div<std::int64_t>(gemm.n, 128);
  REQUIRE(2 * tiles < slots<ConvOperator::kWgrad>());
  std::int64_t const k_tiles = hiptile::ceil_div<std::int64_t>(gemm.k, 32);
  std::int64_t const expected =
      std::max<std::int64_t>(2, std::min<std::int64_t>({slots<ConvOperator::kWgrad>() / tiles, 32, k_tiles / 2}));

  ConvChoice const split = run_default<ConvOperator::kWgrad>(p, {0.5f, -1.0f, true});
  CHECK(split.candidate == 2);
  CHECK(split.schedule == SplitKMode::kParallel);
  CHECK(split.rule == ConvChoiceRule::kWgradSplitK);
  CHECK(split.split_k_slices == expected);
  CHECK(split.preferred == -1);

  // With no workspace, split-K's candidates (both need one) are passed over: the data-parallel tile
  // runs, the choice names the one that would have run and the hint says so.
  hiptile_test::TemporaryDirectory const directory("hiptile-conv-default");
  std::filesystem::path const log_file = directory.path / "log.txt";
  hiptile::logging::configure({.mask = unsigned(hiptile::logging::Category::kHints), .file = log_file.string()});
  ConvChoice const fallback = run_default<ConvOperator::kWgrad>(p, {0.5f, -1.0f, true}, false);
  hiptile::logging::configure({});
  CHECK(fallback.candidate == 0);
  CHECK(fallback.schedule == SplitKMode::kNone);
  CHECK(fallback.preferred == 2);
  CHECK(fallback.preferred_workspace_bytes > 0);
  CHECK(fallback.preferred_speedup > 1.0);
  std::ifstream in(log_file);
  std::string const log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(log);
  CHECK(log.find("would run candidate 2") != std::string::npos);

  // Many tiles: no split (the rule asks for tiles under half the slots).
  ConvProblemSize const wide = ConvProblemSize::conv2d(1, 4, 4, 1024, 2048, 3, 3, 1, 1);
  auto const g = wide.implicit_gemm(ConvOperator::kWgrad);
  REQUIRE(2 * hiptile::ceil_div<std::int64_t>(g.m, 128) * hiptile::ceil_div<std::int64_t>(g.n, 128) >=
          slots<ConvOperator::kWgrad>());
  ConvChoice c;
  REQUIRE(Default<ConvOperator::kWgrad>::preferred(unread_arguments<Default<ConvOperator::kWgrad>>(wide), c) ==
          Status::kSuccess);
  CHECK(c.candidate == 0);
  CHECK(c.rule == ConvChoiceRule::kTileWaves);
}

TEST_CASE("find mode heuristic chooses as DefaultConvolution's rules do", "[conv][default][tune]") {
  // TunedConvolution's heuristic is SelectingConvolution's rules: over DefaultTunedConvolution's
  // list (a superset on gfx942: the same four configurations) they pick the same configuration.
  using Tuned = hiptile::tune::DefaultTunedConvolution<ConvOperator::kWgrad, half_t, half_t, hiptile::arch::Gfx942>;
  for (ConvProblemSize const& p : {ConvProblemSize::conv2d(2, 12, 12, 64, 64, 3, 3, 1, 1),
                                   ConvProblemSize::conv2d(1, 4, 4, 1024, 2048, 3, 3, 1, 1),
                                   ConvProblemSize::conv2d(2, 15, 13, 3, 16, 7, 7, 3, 3, 2, 2)}) {
    auto args = unread_arguments<Default<ConvOperator::kWgrad>>(p);
    args.workspace = test_support::fake_address<std::byte>(4);  // what the preferred candidate asks for
    args.workspace_bytes = Default<ConvOperator::kWgrad>::get_workspace_size(args);
    ConvChoice selected;
    REQUIRE(Default<ConvOperator::kWgrad>::preferred(args, selected) == Status::kSuccess);
    hiptile::tune::TunedChoice tuned;
    Tuned op({.mode = hiptile::tune::FindMode::kHeuristic, .database = ""});
    REQUIRE(op.select(args, tuned) == Status::kSuccess);
    INFO(conv_test::describe(p) << ": " << selected << " / " << tuned);
    CHECK(tuned.name == Default<ConvOperator::kWgrad>::candidate_name(selected.candidate));
    CHECK(tuned.split_k_slices == selected.split_k_slices);
  }
}

TEST_CASE("find mode search times nothing when one candidate takes the problem", "[conv][default][tune]") {
  using Tuned = hiptile::tune::DefaultTunedConvolution<ConvOperator::kDgrad, half_t, half_t, hiptile::arch::Gfx942>;
  hiptile_test::TemporaryDirectory const directory("hiptile-conv-search");
  std::string const database = (directory.path / "tuning.db").string();
  Tuned::clear_cache();
  auto choose = [&](ConvProblemSize const& p) {
    hiptile::tune::TunedChoice choice;
    Tuned op({.mode = hiptile::tune::FindMode::kSearch, .database = database});
    REQUIRE(op.select(unread_arguments<Default<ConvOperator::kDgrad>>(p), choice) == Status::kSuccess);
    return choice;
  };
  // 3 channels: only the analytic candidate (1) takes them; nothing is timed.
  hiptile::tune::TunedChoice const rgb = choose(ConvProblemSize::conv2d(1, 16, 16, 3, 16, 3, 3, 1, 1));
  CHECK(rgb.candidate == 1);
  CHECK(rgb.timed_candidates == 0);
  CHECK(rgb.source == hiptile::tune::ChoiceSource::kHeuristic);
  CHECK(rgb.reason.find("not timed") != std::string::npos);
  // 64 channels: the default, the analytic and the two packed-group candidates (a batch of one
  // group) take them, and the MI300 timing model times all four.
  hiptile::tune::TunedChoice const both = choose(ConvProblemSize::conv2d(1, 16, 16, 64, 64, 3, 3, 1, 1));
  CHECK(both.timed_candidates == 4);
  CHECK(both.source == hiptile::tune::ChoiceSource::kTimed);
  Tuned::clear_cache();
}

TEST_CASE("find mode search also times the rule's own slice count", "[conv][default][tune]") {
  // A depthwise Wgrad: the rule runs the direct convolution over split_k_slices_for(problem, 2 x its
  // slots) slices, a count search's 2, 4, ..., 64 need not hold; search times it too (in the
  // simulator the direct kernel has no modelled time, so the profile log shows it "not timed").
  using Tuned = hiptile::tune::DefaultTunedConvolution<ConvOperator::kWgrad, half_t, half_t, hiptile::arch::Gfx942>;
  ConvProblemSize const depthwise = ConvProblemSize::conv2d(8, 56, 56, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 64);
  auto args = unread_arguments<Default<ConvOperator::kWgrad>>(depthwise);
  args.workspace = test_support::fake_address<std::byte>(4);  // what the rule's pick asks for
  args.workspace_bytes = Tuned({.mode = hiptile::tune::FindMode::kHeuristic, .database = ""}).get_workspace_size(args);
  hiptile::tune::TunedChoice rule;
  REQUIRE(Tuned({.mode = hiptile::tune::FindMode::kHeuristic, .database = ""}).select(args, rule) == Status::kSuccess);
  INFO(rule);
  REQUIRE(rule.split_k_slices > 1);
  REQUIRE(std::find(Tuned::kTimedSlices.begin(), Tuned::kTimedSlices.end(), rule.split_k_slices) ==
          Tuned::kTimedSlices.end());
  hiptile_test::TemporaryDirectory const directory("hiptile-conv-search-slices");
  std::filesystem::path const log_file = directory.path / "log.txt";
  Tuned::clear_cache();
  hiptile::logging::configure({.mask = unsigned(hiptile::logging::Category::kProfile), .file = log_file.string()});
  hiptile::tune::TunedChoice searched;
  Status const s = Tuned({.mode = hiptile::tune::FindMode::kSearch, .database = ""}).select(args, searched);
  hiptile::logging::configure({});
  Tuned::clear_cache();
  REQUIRE(s == Status::kSuccess);
  std::ifstream in(log_file);
  std::string const log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO(log);
  std::string const pair = "candidate " + std::to_string(rule.candidate) + " (" + rule.name + "), " +
                           std::to_string(rule.split_k_slices) + " K slices:";
  CHECK(log.find(pair) != std::string::npos);
}

TEST_CASE("find mode search times an RGB stem's K as each iterator runs it", "[conv][default][tune]") {
  // Fprop with 3 channels: the analytic candidate (1) and the few-channel one (3) take it. The
  // model counts the analytic one's 49 taps of a 32-channel K tile each, the few-channel one's 147
  // packed elements (5 tiles): the few-channel one is timed faster and chosen.
  using Tuned = hiptile::tune::DefaultTunedConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942>;
  static_assert(Tuned::Candidate<3>::kAlgorithm == IteratorAlgorithm::kFewChannels);
  hiptile_test::TemporaryDirectory const directory("hiptile-conv-search-rgb");
  Tuned::clear_cache();
  hiptile::tune::TunedChoice choice;
  Tuned op({.mode = hiptile::tune::FindMode::kSearch, .database = (directory.path / "tuning.db").string()});
  ConvProblemSize const stem = ConvProblemSize::conv2d(8, 224, 224, 3, 64, 7, 7, 3, 3, 2, 2);
  REQUIRE(op.select(unread_arguments<Default<ConvOperator::kFprop>>(stem), choice) == Status::kSuccess);
  INFO(choice);
  CHECK(choice.timed_candidates == 2);
  CHECK(choice.candidate == 3);
  Tuned::clear_cache();
}

TEST_CASE("DefaultConvolution's remaining refusals are the ones docs/conv.md lists", "[conv][default]") {
  ConvProblemSize const p = ConvProblemSize::conv2d(1, 12, 12, 64, 64, 3, 3, 1, 1);
  // K slices asked for: Fprop has no split-K candidate; Wgrad's need a workspace.
  auto fprop = unread_arguments<Default<ConvOperator::kFprop>>(p);
  fprop.split_k_slices = 2;
  CHECK(Default<ConvOperator::kFprop>::can_implement(fprop) == Status::kErrorNotSupported);
  auto wgrad = unread_arguments<Default<ConvOperator::kWgrad>>(p);
  wgrad.split_k_slices = 2;
  CHECK(Default<ConvOperator::kWgrad>::can_implement(wgrad) == Status::kErrorWorkspaceNull);
  wgrad.split_k_slices = 1;  // with one slice it runs data-parallel without a workspace
  CHECK(Default<ConvOperator::kWgrad>::can_implement(wgrad) == Status::kSuccess);
  // A strided and dilated Dgrad: no candidate computes one.
  ConvProblemSize const dilated = ConvProblemSize::conv2d(1, 12, 12, 64, 64, 3, 3, 2, 2, 2, 2, 2, 2);
  CHECK(Default<ConvOperator::kDgrad>::can_implement(unread_arguments<Default<ConvOperator::kDgrad>>(dilated)) ==
        Status::kErrorDilatedStridedDgrad);
  // Any channel or group count: no kErrorChannelsNotAligned.
  for (int c : {1, 2, 3, 5, 7, 12, 60, 96, 100}) {
    for (int groups : {1, c}) {
      ConvProblemSize const q = ConvProblemSize::conv2d(1, 9, 9, c, c, 3, 3, 1, 1).with_groups(groups);
      INFO("C = K = " << c << ", groups " << groups);
      CHECK(Default<ConvOperator::kFprop>::can_implement(unread_arguments<Default<ConvOperator::kFprop>>(q)) ==
            Status::kSuccess);
      CHECK(Default<ConvOperator::kDgrad>::can_implement(unread_arguments<Default<ConvOperator::kDgrad>>(q)) ==
            Status::kSuccess);
      CHECK(Default<ConvOperator::kWgrad>::can_implement(unread_arguments<Default<ConvOperator::kWgrad>>(q)) ==
            Status::kSuccess);
    }
  }
}
