#pragma once
// TensorMap: the 128-byte descriptor of a tensor in global memory that tensor copies
// (arch/tensor_copy.hpp, NVIDIA sm_90) read — base address, extents, strides, the box one copy
// moves and the shared-memory swizzle it is written in — built on the host by the driver's
// cuTensorMapEncodeTiled (reached through the runtime's cudaGetDriverEntryPointByVersion, so a
// program links no more than the CUDA runtime). On the other backends the type exists, so that
// parameters holding one compile everywhere, and encoding always fails.
//
// The driver's rules (CUDA driver API, cuTensorMapEncodeTiled): base 16-byte aligned; extents
// 1 .. 2^32; strides multiples of 16 bytes below 2^40; box extents 1 .. 256; with the 128-byte
// swizzle the box's contiguous extent is at most 128 bytes.
//
// An image tensor can also be described for the copy engine's im2col mode
// (cuTensorMapEncodeIm2col): one copy then gathers, for a run of consecutive output pixels, the
// input pixel each reads at one filter tap, with the padding read as zeros. The driver's further
// rules there: rank 4 (N, H, W, C) or 5 (N, D, H, W, C); the bounding box's corners within
// [-128, 127] per spatial dimension at rank 4 and [-16, 15] at rank 5; traversal strides 1 .. 8;
// at most 1024 pixels and 256 channels a copy.
#include <cstdint>

#include "hiptile/platform/backend.hpp"

#if HIPTILE_BACKEND_NVIDIA
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#endif

namespace hiptile::arch {

struct alignas(128) TensorMap {  // as CUtensorMap (CUDA 13: 128; the driver needs 64)
  std::uint64_t opaque[16];
};

// A three-dimensional tensor of `element_bytes`-byte elements at `base`: extents[0] contiguous
// elements a row, extents[1] rows `strides[0]` bytes apart, extents[2] such matrices `strides[1]`
// bytes apart; copied in boxes of box[0] × box[1] × box[2] elements, each written to shared memory
// in the 128-byte swizzle (box[0] · element_bytes must be 128).
struct TensorMap3d {
  void const* base = nullptr;
  int element_bytes = 0;
  std::uint64_t extents[3] = {};
  std::uint64_t strides[2] = {};
  std::uint32_t box[3] = {};
};

// An image of `element_bytes`-byte elements at `base`, channels innermost, read in im2col mode.
// Dimension i (0 the channels, then W, H, D for rank 5, the images last) has extents[i] elements,
// strides[i - 1] bytes apart. Per spatial dimension s (0 W, 1 H, 2 D): the bounding box of the
// filter's first tap runs from lower[s] to (extent − 1 + upper[s]) and is walked in steps of
// traversal[s]. One copy moves `pixels` pixels of `channels` channels (channels · element_bytes
// must be 128: the 128-byte swizzle).
struct Im2colTensorMap {
  void const* base = nullptr;
  int element_bytes = 0;
  int rank = 0;
  std::uint64_t extents[5] = {};
  std::uint64_t strides[4] = {};
  int lower[3] = {};
  int upper[3] = {};
  std::uint32_t traversal[3] = {1, 1, 1};
  std::uint32_t channels = 0;
  std::uint32_t pixels = 0;
};

namespace detail {
#if HIPTILE_BACKEND_NVIDIA
// The driver's function `name` of the CUDA 12.0 interface, or null.
template <class Function>
Function driver_function(char const* name) noexcept {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    return nullptr;
  }
  return reinterpret_cast<Function>(function);
}

inline bool tensor_map_type(int element_bytes, CUtensorMapDataType& type) noexcept {
  switch (element_bytes) {
    case 1: type = CU_TENSOR_MAP_DATA_TYPE_UINT8; return true;
    case 2: type = CU_TENSOR_MAP_DATA_TYPE_UINT16; return true;
    case 4: type = CU_TENSOR_MAP_DATA_TYPE_UINT32; return true;
    default: return false;
  }
}
#endif
}  // namespace detail

// Encodes `tensor` into `map`; false where the driver refuses it (or there is no driver).
inline bool encode_tensor_map(TensorMap& map, TensorMap3d const& tensor) noexcept {
#if HIPTILE_BACKEND_NVIDIA
  static_assert(sizeof(TensorMap) == sizeof(CUtensorMap) && alignof(TensorMap) >= alignof(CUtensorMap));
  static auto const encode = detail::driver_function<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled");
  CUtensorMapDataType type{};
  if (encode == nullptr || !detail::tensor_map_type(tensor.element_bytes, type)) return false;
  cuuint64_t extents[3] = {tensor.extents[0], tensor.extents[1], tensor.extents[2]};
  cuuint64_t strides[2] = {tensor.strides[0], tensor.strides[1]};
  cuuint32_t box[3] = {tensor.box[0], tensor.box[1], tensor.box[2]};
  cuuint32_t element_strides[3] = {1, 1, 1};
  return encode(reinterpret_cast<CUtensorMap*>(&map), type, 3, const_cast<void*>(tensor.base), extents, strides, box,
                element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
#else
  (void)map, (void)tensor;
  return false;
#endif
}

// Encodes `image` for im2col copies into `map`; false where the driver refuses it (corners,
// strides or extents outside its rules above), or there is no driver.
inline bool encode_tensor_map(TensorMap& map, Im2colTensorMap const& image) noexcept {
#if HIPTILE_BACKEND_NVIDIA
  static auto const encode = detail::driver_function<PFN_cuTensorMapEncodeIm2col_v12000>("cuTensorMapEncodeIm2col");
  CUtensorMapDataType type{};
  if (encode == nullptr || !detail::tensor_map_type(image.element_bytes, type) ||
      (image.rank != 4 && image.rank != 5)) {
    return false;
  }
  int const spatial = image.rank - 2;
  cuuint64_t extents[5] = {};
  cuuint64_t strides[4] = {};
  cuuint32_t traversal[5] = {1, 1, 1, 1, 1};
  for (int i = 0; i < image.rank; ++i) extents[i] = image.extents[i];
  for (int i = 0; i + 1 < image.rank; ++i) strides[i] = image.strides[i];
  for (int s = 0; s < spatial; ++s) traversal[1 + s] = image.traversal[s];
  return encode(reinterpret_cast<CUtensorMap*>(&map), type, cuuint32_t(image.rank), const_cast<void*>(image.base),
                extents, strides, image.lower, image.upper, image.channels, image.pixels, traversal,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
#else
  (void)map, (void)image;
  return false;
#endif
}

}  // namespace hiptile::arch
