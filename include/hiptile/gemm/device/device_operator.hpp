#pragma once
// DeviceOperator<Derived>: the plumbing every device-level operator shares — Gemm, GroupedGemm,
// ImplicitGemmConvolution, B2bGemm — written once:
//
//   can_implement(args)       the operator's checks (Derived::plan), in its documented order
//   initialize(args)          the device check (arch/device_check.hpp), the checks, then the
//                             kernel's parameters built from what the checks found (Derived::build
//                             from the Plan: nothing is computed twice); on any failure the
//                             operator is left uninitialised. An api line, and an error line or the
//                             operator's hints, in the log
//   run(stream)               the operator's launch lines in the log; the workspace's flags zeroed
//                             where due (FlagReset); the output functor's prepare() (amax zeroed);
//                             Derived::launch_kernels
//   operator()(args, stream)  initialize, then run
// and 0.1's workspace-pointer forms, deprecated (WorkspacePointerForms). No entry point throws.
//
// Derived has Arguments, ArchTag, kThreads, kLdsBytes, OutputOpType and kName ("Gemm"), and
//   struct Plan                                      what the checks computed that building needs
//   static Status plan(Arguments const&, Plan&)      every check, in order (noexcept)
//   Status build(Arguments const&, Plan const&)      the kernel's parameters; flag_reset_ where it has flags
//   Status launch_kernels(Stream) const              its launches, in order
//   typename OutputOpType::Params const& output_op() const   the functor's parameters, as built
//   std::string problem_text(Arguments const&)       for the log; and configuration_text()
//   void log_refusal(Arguments const&, Plan const&, Status) const, void write_hints(Arguments const&) const,
//   void log_launch() const                          its own lines
#include <ostream>
#include <string>

#include "hiptile/arch/device_check.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/device/flag_reset.hpp"
#include "hiptile/gemm/device/workspace_pointer_forms.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

// (Derived's types are read where a member is used, once Derived is complete: D is Derived.)
template <class Derived>
class DeviceOperator : public WorkspacePointerForms<Derived> {
 public:
  // kSuccess, or the first failed check in the order of the operator's documented table.
  template <class D = Derived>
  static Status can_implement(typename D::Arguments const& args) noexcept {
    typename D::Plan plan;
    return D::plan(args, plan);
  }

  // Checks the current device against the kernel, runs the checks, then builds the kernel's
  // parameters; on failure the operator is uninitialised (run() returns kErrorNotInitialized),
  // whatever an earlier call set up.
  template <class D = Derived>
  Status initialize(typename D::Arguments const& args) noexcept {
    initialized_ = false;
    typename D::Plan plan;
    Status s = arch::check_device<typename D::ArchTag>(unsigned(D::kThreads), D::kLdsBytes);
    if (ok(s)) s = D::plan(args, plan);
    if (ok(s)) s = self().build(args, plan);
    initialized_ = ok(s);
    logging::write(logging::Category::kApi, [&](std::ostream& os) {
      os << Derived::kName << "::initialize(" << Derived::problem_text(args) << ") on "
         << Derived::configuration_text() << ": " << to_string(s);
    });
    if (!ok(s)) {
      self().log_refusal(args, plan, s);
    } else if (logging::enabled(logging::Category::kHints)) [[unlikely]] {
      self().write_hints(args);
    }
    return s;
  }

  // The operator's kernels on `stream`, after zeroing the workspace's flags where due and the
  // output functor's prepare().
  Status run(Stream stream = nullptr) const noexcept {
    if (!initialized_) return Status::kErrorNotInitialized;
    if (logging::enabled(logging::Category::kTrace | logging::Category::kBench | logging::Category::kApi))
        [[unlikely]] {
      self().log_launch();
    }
    if (Status const s = flag_reset_.before_launch(stream); !ok(s)) return s;
    using Op = typename Derived::OutputOpType;
    if constexpr (requires { Op::prepare(self().output_op(), stream); }) {
      if (Status const s = Op::prepare(self().output_op(), stream); !ok(s)) return s;
    }
    Status const s = self().launch_kernels(stream);
    flag_reset_.after_launch(s);
    return s;
  }

  using WorkspacePointerForms<Derived>::initialize;  // 0.1's forms with a workspace pointer (deprecated)
  using WorkspacePointerForms<Derived>::operator();
  template <class D = Derived>
  Status operator()(typename D::Arguments const& args, Stream stream = nullptr) noexcept {
    Status const s = initialize(args);
    return ok(s) ? run(stream) : s;
  }

  bool initialized() const noexcept { return initialized_; }

 protected:
  // The workspace's flags (serial split-K, stream-K): set by Derived::build where it has any.
  FlagReset flag_reset_{};

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
  Derived const& self() const noexcept { return static_cast<Derived const&>(*this); }

  bool initialized_ = false;
};

}  // namespace hiptile::gemm::device
