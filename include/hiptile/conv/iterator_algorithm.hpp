#pragma once
// IteratorAlgorithm: how a convolution's activation-side loaders find their addresses.
//   kAnalytic     every coordinate recomputed each K tile with `/` and `%`; reads channels in
//                 accesses of AccessElements, so it serves any channel count that is a multiple of
//                 AccessElements (AccessElements = 1: every channel count)
//   kPrecomputed  each row's position found once per block with FastDivmods built on the host,
//                 filter taps advanced by increments, each row's valid taps kept as bit masks;
//                 whole 16-byte vectors, so channel counts per group must be multiples of them
//   kTensorCopy   NVIDIA sm_90 with warpgroup MMAs: no thread computes an address; one asks the
//                 copy engine for each operand's whole K tile, the gathered operand through its
//                 im2col mode (fprop_tensor_copies.hpp and wgrad_tensor_copies.hpp: x;
//                 dgrad_tensor_copies.hpp: dy, a map per row class); the gathered channels per
//                 group (Fprop and Wgrad C, Dgrad K) multiples of 64 (128 bytes), padding and
//                 stride within the copy engine's limits
//   kFewChannels  Fprop only: the filter's taps and channels packed into one K run (tap-major, as w
//                 stores them) padded once to the K tile, for few channels per group (RGB stems,
//                 patchify layers: 3 channels); each row's taps found once per block as the
//                 precomputed iterator's, accesses of AccessElements channels of one tap, so C/groups
//                 a multiple of AccessElements (few_channel_fprop_loaders.hpp)
//   kPackedGroups Fprop and Dgrad of grouped layers with few channels per group (ResNeXt, RegNet):
//                 the precomputed iterators over a GEMM batch of several groups, whose channels are
//                 contiguous, so the filter operand is block-diagonal (zeros between its groups,
//                 conv_geometry.hpp) and one block tile serves as many groups as its N holds where
//                 each group would otherwise pad its few channels to a whole tile of N and of K
//   kDirect       no implicit GEMM and no iterator: a direct convolution (conv/direct/), whose
//                 workgroups stage a tile's source halo and filter in LDS and slide the filter over
//                 it (DepthwiseConvolution: groups = C = K)
namespace hiptile::conv {

enum class IteratorAlgorithm { kAnalytic, kPrecomputed, kTensorCopy, kDirect, kFewChannels, kPackedGroups };

constexpr char const* to_string(IteratorAlgorithm a) noexcept {
  switch (a) {
    case IteratorAlgorithm::kAnalytic: return "analytic";
    case IteratorAlgorithm::kPrecomputed: return "precomputed";
    case IteratorAlgorithm::kTensorCopy: return "tensor copies";
    case IteratorAlgorithm::kDirect: return "direct";
    case IteratorAlgorithm::kFewChannels: return "few-channel";
    case IteratorAlgorithm::kPackedGroups: return "packed-group";
  }
  return "unknown";
}

}  // namespace hiptile::conv
