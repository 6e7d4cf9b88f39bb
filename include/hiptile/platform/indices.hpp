#pragma once
// Thread, workgroup and grid indices for device code. Kernels call these, never threadIdx or
// the amdgcn builtins directly, so one source serves every backend.
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile {

#if HIPTILE_BACKEND_AMD
// gfx942: the builtins read the workitem VGPRs, workgroup SGPRs and the dispatch packet, so no
// device library (ockl) is needed. grid_size is in work-items; HIP's grid is in workgroups.
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_idx_x() { return __builtin_amdgcn_workitem_id_x(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_idx_y() { return __builtin_amdgcn_workitem_id_y(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_idx_z() { return __builtin_amdgcn_workitem_id_z(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_idx_x() { return __builtin_amdgcn_workgroup_id_x(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_idx_y() { return __builtin_amdgcn_workgroup_id_y(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_idx_z() { return __builtin_amdgcn_workgroup_id_z(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_dim_x() { return __builtin_amdgcn_workgroup_size_x(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_dim_y() { return __builtin_amdgcn_workgroup_size_y(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_dim_z() { return __builtin_amdgcn_workgroup_size_z(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned grid_dim_x() { return __builtin_amdgcn_grid_size_x() / block_dim_x(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned grid_dim_y() { return __builtin_amdgcn_grid_size_y() / block_dim_y(); }
HIPTILE_DEVICE HIPTILE_INLINE unsigned grid_dim_z() { return __builtin_amdgcn_grid_size_z() / block_dim_z(); }
#elif HIPTILE_BACKEND_NVIDIA
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_idx_x() { return threadIdx.x; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_idx_y() { return threadIdx.y; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_idx_z() { return threadIdx.z; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_idx_x() { return blockIdx.x; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_idx_y() { return blockIdx.y; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_idx_z() { return blockIdx.z; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_dim_x() { return blockDim.x; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_dim_y() { return blockDim.y; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned block_dim_z() { return blockDim.z; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned grid_dim_x() { return gridDim.x; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned grid_dim_y() { return gridDim.y; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned grid_dim_z() { return gridDim.z; }
#else
inline unsigned thread_idx_x() { return sim::this_lane().thread_idx.x; }
inline unsigned thread_idx_y() { return sim::this_lane().thread_idx.y; }
inline unsigned thread_idx_z() { return sim::this_lane().thread_idx.z; }
inline unsigned block_idx_x() { return sim::this_lane().group->block_idx().x; }
inline unsigned block_idx_y() { return sim::this_lane().group->block_idx().y; }
inline unsigned block_idx_z() { return sim::this_lane().group->block_idx().z; }
inline unsigned block_dim_x() { return sim::this_lane().group->block_dim().x; }
inline unsigned block_dim_y() { return sim::this_lane().group->block_dim().y; }
inline unsigned block_dim_z() { return sim::this_lane().group->block_dim().z; }
inline unsigned grid_dim_x() { return sim::this_lane().group->grid_dim().x; }
inline unsigned grid_dim_y() { return sim::this_lane().group->grid_dim().y; }
inline unsigned grid_dim_z() { return sim::this_lane().group->grid_dim().z; }
#endif

// Linear thread index within the workgroup (x fastest), as the hardware numbers lanes into waves.
HIPTILE_DEVICE HIPTILE_INLINE unsigned thread_linear_idx() {
  return thread_idx_x() + block_dim_x() * (thread_idx_y() + block_dim_y() * thread_idx_z());
}

// Lane within the wave and wave within the workgroup.
HIPTILE_DEVICE HIPTILE_INLINE unsigned lane_idx() { return thread_linear_idx() % kWaveSize; }
HIPTILE_DEVICE HIPTILE_INLINE unsigned wave_idx() { return thread_linear_idx() / kWaveSize; }

}  // namespace hiptile
