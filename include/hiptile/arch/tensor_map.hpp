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

// Encodes `tensor` into `map`; false where the driver refuses it (or there is no driver).
inline bool encode_tensor_map(TensorMap& map, TensorMap3d const& tensor) noexcept {
#if HIPTILE_BACKEND_NVIDIA
  static_assert(sizeof(TensorMap) == sizeof(CUtensorMap) && alignof(TensorMap) >= alignof(CUtensorMap));
  static PFN_cuTensorMapEncodeTiled_v12000 const encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      return PFN_cuTensorMapEncodeTiled_v12000{nullptr};
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  CUtensorMapDataType type{};
  switch (tensor.element_bytes) {
    case 1: type = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
    case 2: type = CU_TENSOR_MAP_DATA_TYPE_UINT16; break;
    case 4: type = CU_TENSOR_MAP_DATA_TYPE_UINT32; break;
    default: return false;
  }
  if (encode == nullptr) return false;
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

}  // namespace hiptile::arch
