// The convolution's hints (ImplicitGemmConvolution::write_hints, docs/logging.md) are given only
// where what they recommend would take the problem: each case checks the hint's presence or
// absence in the log, and the recommended configuration's own can_implement on the same arguments.
// Its refusals name the tensor or channel count at fault, in the convolution's words.
// The arguments are far-off fake addresses (test/common/fake_address.hpp): initialize() only checks
// and plans, it never touches them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "../common/fake_address.hpp"
#include "../common/temporary_directory.hpp"
#include "conv_test_support.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/log/logger.hpp"

namespace {

using conv_test::ConvOperator;
using conv_test::ConvProblemSize;
using conv_test::IteratorAlgorithm;
using conv_test::unread_arguments;
using hiptile::Status;
using hiptile::half_t;
using hiptile::gemm::kernel::SplitKMode;
using test_support::fake_address;

// What initialize(args) writes to the log's `category` (the hints, or the errors), and the
// Status it must give.
template <class Conv>
std::string hints_of(typename Conv::Arguments const& args,
                     hiptile::logging::Category category = hiptile::logging::Category::kHints,
                     Status expected = Status::kSuccess) {
  hiptile_test::TemporaryDirectory const directory("hiptile-conv-hints");
  std::filesystem::path const log_file = directory.path / "log.txt";
  struct LogOff {
    ~LogOff() { hiptile::logging::configure({}); }
  } log_off;
  hiptile::logging::configure({.mask = unsigned(category), .file = log_file.string()});
  Conv op;
  REQUIRE(op.initialize(args) == expected);
  hiptile::logging::configure({});
  std::ifstream in(log_file);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool has(std::string const& log, char const* words) { return log.find(words) != std::string::npos; }

template <ConvOperator Op>
using Analytic = hiptile::conv::device::DefaultAnalyticConvolution<Op, half_t, half_t, hiptile::arch::Gfx942>;
template <ConvOperator Op>
using Default = hiptile::conv::device::DefaultConvolutionConfiguration<Op, half_t, half_t, hiptile::arch::Gfx942>;

}  // namespace

TEST_CASE("conv hint: the precomputed iterator, only where it takes the problem", "[conv][log]") {
  using Conv = Analytic<ConvOperator::kFprop>;
  SECTION("64 channels, 3x3: named, and DefaultConvolutionConfiguration takes it") {
    auto const args = unread_arguments<Conv>(ConvProblemSize::conv2d(2, 12, 12, 64, 64, 3, 3, 1, 1));
    std::string const log = hints_of<Conv>(args);
    INFO(log);
    CHECK(has(log, "the precomputed iterator (DefaultConvolutionConfiguration, one of DefaultConvolution's candidates) reads "
                   "them 16 bytes at a time"));
    CHECK(Default<ConvOperator::kFprop>::can_implement(unread_arguments<Default<ConvOperator::kFprop>>(args.problem)) ==
          Status::kSuccess);
  }
  SECTION("64 channels, a 1x40 filter: more taps than its masks hold, not named, and refused there") {
    auto const args = unread_arguments<Conv>(ConvProblemSize::conv2d(1, 4, 48, 64, 64, 1, 40, 0, 1));
    std::string const log = hints_of<Conv>(args);
    INFO(log);
    CHECK_FALSE(has(log, "precomputed iterator"));
    CHECK(Default<ConvOperator::kFprop>::can_implement(unread_arguments<Default<ConvOperator::kFprop>>(args.problem)) ==
          Status::kErrorNotSupported);
  }
}

TEST_CASE("conv hint: padding channels, only where it adds at most a quarter of the work", "[conv][log]") {
  using Conv = Analytic<ConvOperator::kFprop>;
  SECTION("60 channels: pad to 64, and the padded problem is DefaultConvolutionConfiguration's") {
    auto const args = unread_arguments<Conv>(ConvProblemSize::conv2d(2, 12, 12, 60, 64, 3, 3, 1, 1));
    std::string const log = hints_of<Conv>(args);
    INFO(log);
    CHECK(has(log, "padded to C 64 (zeros in the added channels)"));
    ConvProblemSize padded = args.problem;
    padded.c = 64;
    CHECK(Default<ConvOperator::kFprop>::can_implement(unread_arguments<Default<ConvOperator::kFprop>>(padded)) ==
          Status::kSuccess);
  }
  SECTION("depthwise (one channel a group) and RGB (3 channels): no padding hint") {
    for (ConvProblemSize const& p : {ConvProblemSize::conv2d(2, 12, 12, 32, 32, 3, 3, 1, 1, 1, 1, 1, 1, 32),
                                     ConvProblemSize::conv2d(2, 16, 16, 3, 32, 4, 4, 0, 0, 4, 4)}) {
      std::string const log = hints_of<Conv>(unread_arguments<Conv>(p));
      INFO(conv_test::describe(p) << "\n" << log);
      CHECK_FALSE(has(log, "padded to"));
      CHECK_FALSE(has(log, "precomputed iterator"));
    }
  }
}

TEST_CASE("conv hint: split-K, only where the K loop is long enough to split", "[conv][log]") {
  SECTION("a Wgrad over many pixels: split-K, and this configuration's WithSplitK takes the slices") {
    using Conv = Default<ConvOperator::kWgrad>;
    auto args = unread_arguments<Conv>(ConvProblemSize::conv2d(8, 56, 56, 64, 64, 3, 3, 1, 1));
    std::string const log = hints_of<Conv>(args);
    INFO(log);
    CHECK(has(log, "split-K shares the K loop among idle CUs"));
    using Split = Conv::WithSplitK<SplitKMode::kSerial>;
    auto split = unread_arguments<Split>(args.problem);
    std::int64_t slots = 0;
    REQUIRE(hiptile::query_device_workgroups<Conv::Kernel>(unsigned(Conv::kThreads), Conv::kLdsBytes, slots) ==
            Status::kSuccess);
    split.split_k_slices = Split::split_k_slices_for(args.problem, slots);
    CHECK(has(log, ("gives " + std::to_string(split.split_k_slices) + " slices").c_str()));
    REQUIRE(split.split_k_slices > 1);
    split.workspace_bytes = Split::get_workspace_size(split);
    split.workspace = fake_address<std::byte>(5);
    CHECK(Split::can_implement(split) == Status::kSuccess);
  }
  SECTION("an RGB Wgrad with a short K loop: no split-K, a narrower tile") {
    using Conv = Analytic<ConvOperator::kWgrad>;
    auto const args = unread_arguments<Conv>(ConvProblemSize::conv2d(1, 16, 16, 3, 16, 3, 3, 1, 1));
    std::string const log = hints_of<Conv>(args);
    INFO(log);
    CHECK_FALSE(has(log, "split-K"));
    CHECK(has(log, "the K loop is too short to split"));
    CHECK(Conv::split_k_slices_for(args.problem, 1 << 20) == 1);
  }
}

TEST_CASE("conv refusals name the tensor and the channel count", "[conv][log]") {
  using Conv = Default<ConvOperator::kDgrad>;
  using hiptile::logging::Category;
  SECTION("b two bytes off: b and its 16-byte access") {
    auto args = unread_arguments<Conv>(ConvProblemSize::conv2d(2, 12, 12, 64, 64, 3, 3, 1, 1));
    args.b = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(args.b) + 2);
    args.c = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(args.a) + 1);  // unread: beta = 0
    std::string const log = hints_of<Conv>(args, Category::kError, Status::kErrorMisalignedOperand);
    INFO(log);
    CHECK(has(log, "misaligned tensor: b not 16-byte aligned (the iterator's access);"));
    CHECK_FALSE(has(log, " a not"));
    CHECK_FALSE(has(log, " c not"));  // C is not read (beta = 0): its alignment is no reason
    CHECK_FALSE(has(log, "leading dimension"));
  }
  SECTION("K/groups 12: the count and the iterator's 8 channels per access") {
    auto const args = unread_arguments<Conv>(ConvProblemSize::conv2d(2, 12, 12, 64, 12, 3, 3, 1, 1));
    std::string const log = hints_of<Conv>(args, Category::kError, Status::kErrorChannelsNotAligned);
    INFO(log);
    CHECK(has(log, "channels per group C 64, K 12 are not multiples of 8 (this iterator's channels per access)"));
    CHECK_FALSE(has(log, "tensor cop"));
    CHECK(Analytic<ConvOperator::kDgrad>::can_implement(unread_arguments<Analytic<ConvOperator::kDgrad>>(args.problem)) ==
          Status::kSuccess);
  }
}
