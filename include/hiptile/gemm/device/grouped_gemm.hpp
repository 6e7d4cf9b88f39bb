#pragma once
// GroupedGemm: an array of GEMM problems of different sizes, one launch (kernel/grouped_gemm_kernel.hpp).
// The mixture-of-experts case: expert e multiplies its tokens' rows of A by its own weights B_e.
//
//   using Grouped = hiptile::gemm::device::GroupedGemmOf<DefaultGemmConfiguration<...>>;  // or GroupedGemm<Gemm's parameters>
//   std::vector<Grouped::GroupArguments> groups = ...;  // each a Gemm's Arguments: problem, a, b, c, d, ...
//   Grouped::Arguments args{int(groups.size()), groups.data()};
//   args.workspace = ...; args.workspace_bytes = Grouped::get_workspace_size(args);
//   int failed = -1;
//   Status s = Grouped::can_implement(args, &failed);  // the first failing group's own Status
//   Grouped op; op.initialize(args); op.run(stream);
//
// Each group is checked exactly as Gemm checks one problem (every Status of docs/gemm.md's table),
// except that a group with M = 0 or N = 0 is empty: it has no tiles, is skipped, and its pointers
// are not read. Across groups, no D may overlap another group's D or any operand of another group.
// The problems are on the host: initialize() copies each non-empty group's kernel parameters into
// the workspace (device memory, a synchronous copy), so it must not run while an earlier run() with
// the same workspace is still in flight.
//
// A group is one problem: no split-K, stream-K or batches (split_k_slices and batch_count 1), and
// the output functor may not reduce across D (amax): a static_assert says so.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <ostream>
#include <vector>

#include "hiptile/arch/device_check.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/gemm/device/device_operator.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/device/gemm_log.hpp"
#include "hiptile/gemm/kernel/grouped_gemm_kernel.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class ElementAccumulator, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp,
          class TileOrder, int Stages>
class GroupedGemm : public DeviceOperator<GroupedGemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC,
                                                      ElementAccumulator, Arch, TileShape, WaveShape, MmaAtom, OutputOp,
                                                      TileOrder, Stages>> {
  friend class DeviceOperator<GroupedGemm>;

 public:
  // One group: a single GEMM of the same configuration (its checks and its kernel parameters).
  using SingleGemm = Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, ElementAccumulator, Arch, TileShape,
                          WaveShape, MmaAtom, OutputOp, TileOrder, Stages>;
  using GroupArguments = typename SingleGemm::Arguments;
  using Kernel = kernel::GroupedGemmKernel<TileShape, typename SingleGemm::Mainloop, typename SingleGemm::Epilogue,
                                           typename SingleGemm::Order>;
  using Group = typename Kernel::Group;
  static constexpr int kThreads = SingleGemm::kThreads;
  using ArchTag = Arch;
  using OutputOpType = OutputOp;
  static constexpr char const* kName = "GroupedGemm";
  static constexpr std::size_t kLdsBytes = Kernel::kLdsBytes;
  static_assert(!requires(typename OutputOp::Params const& p, Stream s) { OutputOp::prepare(p, s); },
                "GroupedGemm: an output functor that reduces across D (amax) needs its result zeroed per group: run "
                "those groups with Gemm");

  struct Arguments {
    int group_count = 0;
    GroupArguments const* groups = nullptr;  // host memory, group_count problems
    // Persistent workgroups sharing the tiles; 0 for as many as the device holds at once
    // (compute units × this kernel's resident workgroups per unit, queried).
    int workgroups = 0;
    void* workspace = nullptr;  // get_workspace_size(*this) bytes of device memory, 16-byte aligned
    std::size_t workspace_bytes = 0;
  };

  // kSuccess, or the first failure: with failed_group given, the index of the group it belongs to
  // (-1 when it is no one group's: the group count, the workspace, the total of tiles).
  static Status can_implement(Arguments const& args, int* failed_group = nullptr) noexcept {
    Plan plan;
    Status const s = GroupedGemm::plan(args, plan);
    if (failed_group != nullptr) *failed_group = plan.failed_group;
    return s;
  }

  // Bytes of workspace: each non-empty group's kernel parameters and tile end. 0 for arguments
  // can_implement refuses on their own (no groups array, a negative extent).
  static std::size_t get_workspace_size(Arguments const& args) noexcept {
    if (args.group_count < 0 || (args.group_count > 0 && args.groups == nullptr)) return 0;
    std::int64_t groups = 0;
    for (int g = 0; g < args.group_count; ++g) {
      GemmCoord const& p = args.groups[g].problem;
      if (p.m < 0 || p.n < 0 || p.k < 0) return 0;
      groups += !empty(p);
    }
    return workspace_bytes(groups);
  }

  typename Kernel::Params const& params() const noexcept { return params_; }
  int workgroups() const noexcept { return workgroups_; }  // the grid: persistent workgroups
  int tiles() const noexcept { return tiles_; }            // output tiles of all groups together

 private:
  using Int128 = ByteRange::Int128;
  using Workspace = typename SingleGemm::Workspace;

  struct Totals {
    std::int64_t groups = 0;  // non-empty ones
    std::int64_t tiles = 0;
  };
  // What the checks found (DeviceOperator): the totals, and the group a refusal belongs to.
  struct Plan {
    Totals totals;
    int failed_group = -1;
  };
  static Status plan(Arguments const& args, Plan& plan) noexcept {
    return check(args, plan.totals, &plan.failed_group);
  }

  // Writes the groups' kernel parameters to the workspace.
  Status build(Arguments const& args, Plan const& plan) noexcept {
    Totals const& totals = plan.totals;
    typename Kernel::Params params{};
    int workgroups = 0;
    if (totals.tiles > 0) {
      std::int64_t resident = 0;  // the arguments' workgroups, or the device's
      if (Status const q = workgroups_or_device<Kernel>(args.workgroups, unsigned(kThreads), kLdsBytes, resident);
          !ok(q)) {
        return q;
      }
      try {
        std::vector<Group> groups;
        std::vector<int> tile_ends;
        groups.reserve(std::size_t(totals.groups));
        tile_ends.reserve(std::size_t(totals.groups));
        int tiles = 0;
        for (int g = 0; g < args.group_count; ++g) {
          GroupArguments const& a = args.groups[g];
          if (empty(a.problem)) continue;
          Group group{SingleGemm::mainloop_params(a), SingleGemm::epilogue_params(a), {}};
          int const tiles_m = ceil_div(a.problem.m, TileShape::kM);
          int const tiles_n = ceil_div(a.problem.n, TileShape::kN);
          if (Status const s = SingleGemm::Order::make_params(tiles_m, tiles_n, group.order); !ok(s)) return s;
          groups.push_back(group);
          tiles += tiles_m * tiles_n;  // <= totals.tiles, checked to fit
          tile_ends.push_back(tiles);
        }
        auto* const base = static_cast<std::byte*>(args.workspace);
        std::size_t const group_bytes = groups.size() * sizeof(Group);
        if (Status const s = copy_memory(base, groups.data(), group_bytes, CopyKind::kHostToDevice); !ok(s)) return s;
        if (Status const s = copy_memory(base + tile_ends_offset(totals.groups), tile_ends.data(),
                                         tile_ends.size() * sizeof(int), CopyKind::kHostToDevice);
            !ok(s)) {
          return s;
        }
        kernel::ScheduleShape shape;
        shape.tiles_m = static_cast<int>(totals.tiles);
        shape.batches = static_cast<int>(totals.groups);
        shape.workgroups = static_cast<int>(std::min<std::int64_t>(resident, kernel::kMaxTiles));
        shape.tile_ends = reinterpret_cast<int const*>(base + tile_ends_offset(totals.groups));
        if (Status const s = Kernel::Scheduler::make_params(shape, params.scheduler); !ok(s)) return s;
        params.groups = reinterpret_cast<Group const*>(base);
        workgroups = static_cast<int>(Kernel::Scheduler::grid(shape).x);
      } catch (std::bad_alloc const&) {
        return Status::kErrorMemoryAllocation;
      }
    }
    params_ = params;
    workgroups_ = workgroups;
    tiles_ = totals.tiles;
    return Status::kSuccess;
  }

  // The grouped kernel (grid: workgroups() × 1 × 1); nothing when every group is empty.
  Status launch_kernels(Stream stream) const noexcept {
    if (tiles_ == 0) return Status::kSuccess;
    return launch<Kernel>({{unsigned(workgroups_)}, {unsigned(kThreads)}, kLdsBytes, stream}, params_);
  }
  // (No group functor reduces across D: the static_assert above.)
  typename OutputOp::Params const& output_op() const noexcept { return no_params_; }

  // The log's words and lines.
  static std::string problem_text(Arguments const& args) { return std::to_string(args.group_count) + " groups"; }
  static std::string configuration_text() { return configuration_name<SingleGemm>(); }
  void log_refusal(Arguments const& args, Plan const& plan, Status s) const {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << "grouped GEMM of " << args.group_count << " groups refused by " << configuration_text() << ": "
         << to_string(s);
      if (plan.failed_group >= 0) {
        os << " (group " << plan.failed_group << ": " << device::problem_text(args.groups[plan.failed_group]) << ")";
      }
    });
  }
  void write_hints(Arguments const&) const {}
  void log_launch() const {
    if (tiles_ == 0) return;
    logging::write(logging::Category::kApi, [&](std::ostream& os) { os << "GroupedGemm::run(" << tiles_ << " tiles)"; });
    logging::write(logging::Category::kTrace, [&](std::ostream& os) {
      os << "grouped GEMM " << configuration_text() << "; " << kThreads << " threads, " << kLdsBytes
         << " bytes of LDS, grid " << workgroups_ << "; " << params_.scheduler.group_count << " non-empty groups, " << tiles_
         << " tiles";
    });
  }

  static bool empty(GemmCoord const& p) noexcept { return p.m == 0 || p.n == 0; }

  static std::size_t tile_ends_offset(std::int64_t groups) noexcept { return std::size_t(groups) * sizeof(Group); }
  static std::size_t workspace_bytes(std::int64_t groups) noexcept {
    Int128 const bytes = Int128(groups) * (sizeof(Group) + sizeof(int));
    return bytes > Int128(SIZE_MAX) ? SIZE_MAX : static_cast<std::size_t>(bytes);
  }

  static Status check(Arguments const& args, Totals& totals, int* failed_group) noexcept {
    if (failed_group != nullptr) *failed_group = -1;
    if (args.group_count < 0 || args.workgroups < 0) return Status::kErrorInvalidProblem;
    if (args.group_count > 0 && args.groups == nullptr) return Status::kErrorNullPointer;
    Totals t;
    for (int g = 0; g < args.group_count; ++g) {
      GroupArguments const& a = args.groups[g];
      GemmCoord const& p = a.problem;
      Status s = p.m < 0 || p.n < 0 || p.k < 0 ? Status::kErrorInvalidProblem : Status::kSuccess;
      if (ok(s) && !empty(p)) s = a.batch_count != 1 ? Status::kErrorNotSupported : SingleGemm::can_implement(a);
      if (!ok(s)) {
        if (failed_group != nullptr) *failed_group = g;
        return s;
      }
      if (empty(p)) continue;
      t.groups += 1;
      t.tiles += std::int64_t{ceil_div(p.m, TileShape::kM)} * ceil_div(p.n, TileShape::kN);
      // Tile ids and tile += grid stay in int: the total, plus a grid of at most the total.
      if (t.tiles > kernel::kMaxTiles / 2) return Status::kErrorGridTooLarge;
    }
    if (t.tiles > 0) {
      if (Status const s = Workspace::check(args.workspace, args.workspace_bytes, workspace_bytes(t.groups), {});
          !ok(s)) {
        return s;
      }
    }
    if (Status const s = check_overlaps(args, t, failed_group); !ok(s)) return s;
    totals = t;
    return Status::kSuccess;
  }

  // Each group's own operands were checked by SingleGemm: here, no D (nor a pointer its output
  // functor writes through) may overlap another group's D or operands (its functor's pointers
  // among them), nor the workspace (written by initialize, read by the kernel). Writes are sorted
  // by address: once none overlaps the next, each read range meets only the writes from the first
  // that ends past its start, O((groups + reads) · log groups) in all.
  static Status check_overlaps(Arguments const& args, Totals const& t, int* failed_group) noexcept {
    struct Span {
      Int128 from, to;  // [from, to)
      int group;  // -1: the workspace
    };
    try {
      std::vector<Span> writes;
      writes.reserve(std::size_t(t.groups) + 1);
      if (t.tiles > 0) {
        ByteRange const w(args.workspace, Int128(workspace_bytes(t.groups)), 1);
        writes.push_back({w.first_address(), w.end_address(), -1});
      }
      for (int g = 0; g < args.group_count; ++g) {
        if (empty(args.groups[g].problem)) continue;
        ByteRange const d = SingleGemm::ranges(args.groups[g]).d;
        writes.push_back({d.first_address(), d.end_address(), g});
        auto const pointers = epilogue::functor_pointers<OutputOp>(args.groups[g].output_op);
        auto const functor = epilogue::functor_ranges<OutputOp>(args.groups[g].output_op);
        auto pointer = pointers.begin();
        for (ByteRange const& r : functor) {
          if ((pointer++)->written && !r.empty()) writes.push_back({r.first_address(), r.end_address(), g});
        }
      }
      std::sort(writes.begin(), writes.end(), [](Span const& x, Span const& y) { return x.from < y.from; });
      auto refuse = [&](int g) {
        if (failed_group != nullptr) *failed_group = g;
        return Status::kErrorAliasedOperand;
      };
      for (std::size_t i = 1; i < writes.size(); ++i) {
        if (writes[i].from < writes[i - 1].to) return refuse(std::max(writes[i].group, writes[i - 1].group));
      }
      for (int g = 0; g < args.group_count; ++g) {
        if (empty(args.groups[g].problem)) continue;
        typename SingleGemm::Ranges const r = SingleGemm::ranges(args.groups[g]);
        auto const functor = epilogue::functor_ranges<OutputOp>(args.groups[g].output_op);
        std::vector<ByteRange const*> reads{&r.a, &r.b, &r.c, &r.bias, &r.row_scale, &r.column_scale};
        for (ByteRange const& pointer : functor) reads.push_back(&pointer);
        for (ByteRange const* read_range : reads) {
          ByteRange const& read = *read_range;
          if (read.empty()) continue;
          auto w = std::partition_point(writes.begin(), writes.end(),
                                        [&](Span const& s) { return s.to <= read.first_address(); });
          for (; w != writes.end() && w->from < read.end_address(); ++w) {
            if (w->group != g) return refuse(g);  // (its own D: SingleGemm allowed it, C in place)
          }
        }
      }
    } catch (std::bad_alloc const&) {
      return Status::kErrorMemoryAllocation;
    }
    return Status::kSuccess;
  }

  typename Kernel::Params params_{};
  typename OutputOp::Params no_params_{};
  int workgroups_ = 0;
  int tiles_ = 0;
};

// The grouped operator of a Gemm configuration, e.g. GroupedGemmOf<DefaultGemmConfiguration<...>>: the same
// tiles, atom, output functor and tile order for every group.
template <class G>
  requires(G::kSplitK == kernel::SplitKMode::kNone)
using GroupedGemmOf =
    GroupedGemm<typename G::ElementA, typename G::LayoutA, typename G::ElementB, typename G::LayoutB,
                typename G::ElementC, typename G::LayoutC, typename G::ElementAccumulator, typename G::ArchTag,
                typename G::TileShapeType, typename G::WaveShapeType, typename G::MmaAtomType,
                typename G::OutputOpType, typename G::TileOrderType, G::kStages>;

}  // namespace hiptile::gemm::device
