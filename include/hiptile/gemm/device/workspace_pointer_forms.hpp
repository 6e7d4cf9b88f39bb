#pragma once
// WorkspacePointerForms<Derived>: the 0.1 forms of an operator's calls that took the workspace as a
// pointer beside the arguments — initialize(args, workspace), operator()(args, workspace) and
// operator()(args, workspace, stream) — kept one minor version behind [[deprecated]] so that code
// written against 0.1 still builds (CHANGELOG.md, 0.2.0). Since 0.2 the workspace is a field of the
// arguments (args.workspace, args.workspace_bytes); a pointer given the old way is taken to hold
// get_workspace_size(args) bytes, as 0.1 documented. Derived: an operator with Arguments,
// get_workspace_size(args), initialize(args) and run(stream), which names these with `using`.
//
// Overload resolution keeps today's calls as they are: operator()(args, nullptr) and
// operator()(args, stream) are the current form (a two-argument old form takes only a pointer
// that does not convert to Stream); three arguments, or initialize with two, are always the old one.
#include <concepts>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

template <class Pointer>
concept WorkspacePointer = std::convertible_to<Pointer, void*>;
// A workspace pointer that cannot be read as a stream: operator()(args, p) with it is the old form.
template <class Pointer>
concept WorkspaceNotStream = WorkspacePointer<Pointer> && !std::convertible_to<Pointer, Stream>;

template <class Derived>
class WorkspacePointerForms {
 public:
  template <class Arguments, WorkspacePointer Pointer>
  [[deprecated("since hiptile 0.2 the workspace is an argument: set args.workspace and args.workspace_bytes "
               "(get_workspace_size(args) bytes), then call initialize(args)")]] Status
  initialize(Arguments const& args, Pointer workspace) noexcept {
    return self().initialize(with_workspace(args, workspace));
  }

  template <class Arguments, WorkspacePointer Pointer>
  [[deprecated("since hiptile 0.2 the workspace is an argument: set args.workspace and args.workspace_bytes "
               "(get_workspace_size(args) bytes), then call operator()(args, stream)")]] Status
  operator()(Arguments const& args, Pointer workspace, Stream stream) noexcept {
    Status const s = self().initialize(with_workspace(args, workspace));
    return ok(s) ? self().run(stream) : s;
  }

  template <class Arguments, WorkspaceNotStream Pointer>
  [[deprecated("since hiptile 0.2 the workspace is an argument: set args.workspace and args.workspace_bytes "
               "(get_workspace_size(args) bytes), then call operator()(args)")]] Status
  operator()(Arguments const& args, Pointer workspace) noexcept {
    Status const s = self().initialize(with_workspace(args, workspace));
    return ok(s) ? self().run(nullptr) : s;
  }

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }

  // The arguments with `workspace` as their workspace of get_workspace_size(args) bytes (unchanged
  // for a null pointer: the operator then runs what needs none, or refuses).
  template <class Arguments>
  static Arguments with_workspace(Arguments args, void* workspace) noexcept {
    if (workspace != nullptr) {
      args.workspace = workspace;
      args.workspace_bytes = Derived::get_workspace_size(args);
    }
    return args;
  }
};

}  // namespace hiptile::gemm::device
