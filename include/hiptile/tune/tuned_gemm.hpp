#pragma once
// TunedGemm: a GEMM operator over a list of compile-time configurations (the candidates: the same
// element types, layouts and output functor) that picks one per problem at run time as find mode
// says, and remembers the pick (tuned_operator.hpp has the rules, docs/tuning.md the guide):
//
//   using Gemm = hiptile::tune::TunedGemm<Large, LargeStreamK, Tile128StreamK, SmallMStreamK>;
//   Gemm op;                                   // or Gemm op({.mode = FindMode::kHybrid});
//   args.workspace_bytes = op.get_workspace_size(args);   // chooses (and may time) here
//   op.initialize(args, stream); op.run(stream);
//   std::cout << op.choice();
//
// GemmTuning is what is particular to GEMM: the key (extents, batches, leading dimensions, batch
// strides, pointer alignments, split-K and stream-K settings, bias mode), the heuristic
// (SelectingGemm's, gemm/device/shape_heuristic.hpp), D as the output timing redirects, and the
// timing model's prediction for one problem (batched problems are not modelled).
#include <array>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <typeinfo>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/device/selecting_gemm.hpp"
#include "hiptile/sim/timing_model.hpp"
#include "hiptile/tune/tuned_operator.hpp"

namespace hiptile::tune {

template <class... Candidates>
  requires(sizeof...(Candidates) >= 1)
struct GemmTuning {
  using Selecting = gemm::device::SelectingGemm<Candidates...>;  // (it checks that the candidates agree)
  using First = typename Selecting::template Candidate<0>;
  using Arguments = typename Selecting::Arguments;
  using CandidateList = std::tuple<Candidates...>;
  static constexpr char const* kName = "TunedGemm";
  static constexpr std::size_t kKeyWords = 17;

  template <class G>
  static std::string configuration_name() {
    return gemm::device::configuration_name<G>();
  }
  static std::string list_name() { return std::string("gemm ") + typeid(typename First::OutputOpType).name(); }

  static std::string problem_text(Arguments const& args) {
    using detail::alignment;
    std::ostringstream os;
    os << "gemm " << gemm::device::element_text<First>() << " " << gemm::device::layout_letters<First>() << " "
       << args.problem.m << "x" << args.problem.n << "x" << args.problem.k << " batch " << args.batch_count << " ld "
       << args.a.ld << "," << args.b.ld << "," << args.c.ld << "," << args.d.ld << " align " << alignment(args.a.data)
       << "," << alignment(args.b.data) << "," << alignment(args.c.data) << "," << alignment(args.d.data) << " slices "
       << args.split_k_slices << " bias " << int(args.bias_mode);
    if (args.stream_k_workgroups != 0 || args.stream_k_partitions != 0) {
      os << " stream-K " << args.stream_k_workgroups << "," << args.stream_k_partitions;
    }
    if (args.batch_count > 1) {
      os << " strides " << args.batch_stride_a << "," << args.batch_stride_b << "," << args.batch_stride_c << ","
         << args.batch_stride_d;
    }
    return os.str();
  }

  static std::array<std::int64_t, kKeyWords> key_words(Arguments const& a) noexcept {
    using detail::alignment;
    std::int64_t const aligned = alignment(a.a.data) | alignment(a.b.data) << 8 | alignment(a.c.data) << 16 |
                                 std::int64_t(alignment(a.d.data)) << 24;
    return {a.problem.m,     a.problem.n,           a.problem.k,           a.batch_count,
            a.a.ld,          a.b.ld,                a.c.ld,                a.d.ld,
            aligned,         a.split_k_slices,      a.stream_k_workgroups, a.stream_k_partitions,
            int(a.bias_mode), a.batch_stride_a,     a.batch_stride_b,      a.batch_stride_c,
            a.batch_stride_d};
  }

  // SelectingGemm's rules over the candidates not in `excluded` (bit i: candidate i), whatever
  // workspace the arguments give (TunedOperator fits the choice to it).
  static Status heuristic(Arguments const& args, HeuristicPick& pick, std::uint64_t excluded = 0) noexcept {
    gemm::device::GemmChoice h;
    if (Status const s = Selecting::preferred(args, h, excluded); !ok(s)) return s;
    pick = {h.candidate, h.split_k_slices, gemm::device::to_string(h.reason)};
    return Status::kSuccess;
  }

  static Arguments with_slices(Arguments args, int slices) noexcept {
    args.split_k_slices = slices;
    return args;
  }
  static void const* output(Arguments const& args) noexcept { return args.d.data; }
  static ByteRange output_range(Arguments const& args) noexcept { return First::ranges(args).d; }
  static Arguments with_output(Arguments args, void* d) noexcept {
    args.d.data = static_cast<typename First::ElementC*>(d);
    return args;
  }

  template <class G>
  static std::optional<double> predicted_seconds(Arguments const& args, sim::TimingDevice const& device) {
    if (args.batch_count != 1) return std::nullopt;  // (the model's device view runs one problem)
    std::optional<sim::Prediction> const p = sim::predicted_time<G>(
        {.problem = args.problem, .slices = args.split_k_slices, .workgroups = args.stream_k_workgroups}, device);
    if (!p) return std::nullopt;
    return p->seconds;
  }
};

template <class... Candidates>
using TunedGemm = TunedOperator<GemmTuning<Candidates...>>;

}  // namespace hiptile::tune
