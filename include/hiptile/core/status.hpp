#pragma once
// Status: the result of every host-side check and launch. Each unsupported input has its own
// value, so a caller can tell "misaligned pointer" from "K too small" without reading logs.

namespace hiptile {

enum class Status {
  kSuccess,
  kErrorNullPointer,          // a required pointer is null
  kErrorMisalignedOperand,    // pointer or leading dimension not a multiple of the vector width
  kErrorInvalidProblem,       // a problem dimension is zero or negative
  kErrorInvalidLayout,        // a leading dimension or stride is too small for the extent
  kErrorNotSupported,         // valid input this configuration does not handle
  kErrorKTooSmall,            // K smaller than the configuration's minimum
  kErrorWorkspaceNull,        // workspace required but not given
  kErrorArchMismatch,         // kernel built for another architecture than the device
  kErrorWaveSizeMismatch,     // the device runs waves of another size than the kernel was written for
  kErrorIndexOverflow,        // an offset would not fit the kernel's index type
  kErrorInvalidLaunch,        // grid or block shape outside the device's limits
  kErrorLdsOverflow,          // dynamic LDS request above the device's per-workgroup limit
  kErrorDivergentBarrier,     // a barrier that not every live thread of the workgroup reached
  kErrorPartialWave,          // a wave-collective instruction issued by an incomplete wave
  kErrorOutOfBoundsAccess,    // a memory access outside what the kernel may touch
  kErrorMemoryAllocation,     // device memory could not be allocated
  kErrorLaunchFailed,         // the runtime refused or aborted the launch
  kErrorNotInitialized,       // an operator was run before a successful initialize()
  kErrorGridTooLarge,         // more workgroups than one launch of the backend can hold
  kErrorAliasedOperand,       // an output overlaps an input it must not (in-place C = D excepted)
  kErrorInvalidEnum,          // an enumeration argument holds a value outside its enumerators
  kErrorOperandTooLarge,      // one block's loads reach further into an operand than 32-bit buffer offsets can
  kErrorGroupsNotDividing,    // convolution: groups does not divide C and K
  kErrorPaddingTooLarge,      // convolution: padding at least the dilated filter's extent
  kErrorEmptyOutput,          // convolution: an output extent is zero or negative
  kErrorChannelsNotAligned,   // convolution: a channel count the iterator's vector width cannot serve
  kErrorDilatedStridedDgrad,  // convolution: dgrad with both stride > 1 and dilation > 1 in one dimension
  kErrorWorkspaceTooSmall,    // the workspace is smaller than get_workspace_size()
  kErrorDeadlock,             // a workgroup waits for a flag no other workgroup can set any more
  kErrorDeviceQuery,          // the runtime could not report a fact of the device (compute units, occupancy)
  kErrorLdsRace,              // simulator: two waves touch one LDS word between barriers, one of them storing
  kErrorTensorCopyLimits,     // NVIDIA tensor copies: padding, stride or an extent outside the copy engine's limits
  kErrorInternal,             // a hiptile bug: please report it
};

constexpr const char* to_string(Status s) noexcept {
  switch (s) {
    case Status::kSuccess: return "success";
    case Status::kErrorNullPointer: return "null pointer";
    case Status::kErrorMisalignedOperand: return "misaligned operand (pointer or leading dimension)";
    case Status::kErrorInvalidProblem: return "invalid problem size";
    case Status::kErrorInvalidLayout: return "leading dimension or stride too small";
    case Status::kErrorNotSupported: return "not supported by this configuration";
    case Status::kErrorKTooSmall: return "K too small for this configuration";
    case Status::kErrorWorkspaceNull: return "workspace required but null";
    case Status::kErrorArchMismatch: return "architecture mismatch: the kernel was built for another GPU than the device";
    case Status::kErrorWaveSizeMismatch: return "wave size mismatch: the device's wave size is not the kernel's";
    case Status::kErrorIndexOverflow: return "index overflow";
    case Status::kErrorInvalidLaunch: return "invalid launch configuration";
    case Status::kErrorLdsOverflow: return "LDS request exceeds the workgroup limit";
    case Status::kErrorDivergentBarrier: return "divergent barrier";
    case Status::kErrorPartialWave: return "wave-collective instruction issued by a partial wave";
    case Status::kErrorOutOfBoundsAccess: return "out-of-bounds access";
    case Status::kErrorMemoryAllocation: return "device memory allocation failed";
    case Status::kErrorLaunchFailed: return "kernel launch failed";
    case Status::kErrorNotInitialized: return "operator not initialized (call initialize() first)";
    case Status::kErrorGridTooLarge: return "more workgroups than one launch can hold";
    case Status::kErrorAliasedOperand: return "an output overlaps an input";
    case Status::kErrorInvalidEnum: return "enumeration value out of range";
    case Status::kErrorOperandTooLarge: return "operand too large for 32-bit buffer offsets (a leading dimension or K too large)";
    case Status::kErrorGroupsNotDividing: return "groups does not divide the channel counts C and K";
    case Status::kErrorPaddingTooLarge: return "padding is at least the dilated filter's extent";
    case Status::kErrorEmptyOutput: return "an output extent is zero or negative (filter larger than the padded input)";
    case Status::kErrorChannelsNotAligned:
      return "channel count per group not a multiple of this configuration's access (16 bytes for the precomputed "
             "iterators, 128 bytes for NVIDIA's copy engine): conv::device::DefaultConvolution takes any channel "
             "count, or name the analytic iterator with a narrower access (IteratorAlgorithm::kAnalytic, "
             "AccessElements 1, 2 or 4)";
    case Status::kErrorDilatedStridedDgrad: return "dgrad with stride > 1 and dilation > 1 in one dimension is not supported";
    case Status::kErrorWorkspaceTooSmall: return "workspace smaller than get_workspace_size()";
    case Status::kErrorDeadlock: return "deadlock: a workgroup waits for a flag no other workgroup can set";
    case Status::kErrorDeviceQuery: return "the runtime could not report a device fact (compute units, occupancy)";
    case Status::kErrorLdsRace: return "LDS data race: two waves access one word between barriers, one storing";
    case Status::kErrorTensorCopyLimits:
      return "outside the NVIDIA copy engine's limits (tensor copies: a padding, stride or filter extent too large, "
             "or a stride or extent the tensor map cannot describe): use conv::IteratorAlgorithm::kPrecomputed";
    case Status::kErrorInternal: return "internal error";
  }
  return "unknown status";
}

// The enumerator's name ("kErrorChannelsNotAligned"), for a report or a script that keys on it;
// to_string gives the sentence.
constexpr const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::kSuccess: return "kSuccess";
    case Status::kErrorNullPointer: return "kErrorNullPointer";
    case Status::kErrorMisalignedOperand: return "kErrorMisalignedOperand";
    case Status::kErrorInvalidProblem: return "kErrorInvalidProblem";
    case Status::kErrorInvalidLayout: return "kErrorInvalidLayout";
    case Status::kErrorNotSupported: return "kErrorNotSupported";
    case Status::kErrorKTooSmall: return "kErrorKTooSmall";
    case Status::kErrorWorkspaceNull: return "kErrorWorkspaceNull";
    case Status::kErrorArchMismatch: return "kErrorArchMismatch";
    case Status::kErrorWaveSizeMismatch: return "kErrorWaveSizeMismatch";
    case Status::kErrorIndexOverflow: return "kErrorIndexOverflow";
    case Status::kErrorInvalidLaunch: return "kErrorInvalidLaunch";
    case Status::kErrorLdsOverflow: return "kErrorLdsOverflow";
    case Status::kErrorDivergentBarrier: return "kErrorDivergentBarrier";
    case Status::kErrorPartialWave: return "kErrorPartialWave";
    case Status::kErrorOutOfBoundsAccess: return "kErrorOutOfBoundsAccess";
    case Status::kErrorMemoryAllocation: return "kErrorMemoryAllocation";
    case Status::kErrorLaunchFailed: return "kErrorLaunchFailed";
    case Status::kErrorNotInitialized: return "kErrorNotInitialized";
    case Status::kErrorGridTooLarge: return "kErrorGridTooLarge";
    case Status::kErrorAliasedOperand: return "kErrorAliasedOperand";
    case Status::kErrorInvalidEnum: return "kErrorInvalidEnum";
    case Status::kErrorOperandTooLarge: return "kErrorOperandTooLarge";
    case Status::kErrorGroupsNotDividing: return "kErrorGroupsNotDividing";
    case Status::kErrorPaddingTooLarge: return "kErrorPaddingTooLarge";
    case Status::kErrorEmptyOutput: return "kErrorEmptyOutput";
    case Status::kErrorChannelsNotAligned: return "kErrorChannelsNotAligned";
    case Status::kErrorDilatedStridedDgrad: return "kErrorDilatedStridedDgrad";
    case Status::kErrorWorkspaceTooSmall: return "kErrorWorkspaceTooSmall";
    case Status::kErrorDeadlock: return "kErrorDeadlock";
    case Status::kErrorDeviceQuery: return "kErrorDeviceQuery";
    case Status::kErrorLdsRace: return "kErrorLdsRace";
    case Status::kErrorTensorCopyLimits: return "kErrorTensorCopyLimits";
    case Status::kErrorInternal: return "kErrorInternal";
  }
  return "kUnknownStatus";
}

constexpr bool ok(Status s) noexcept { return s == Status::kSuccess; }

}  // namespace hiptile
