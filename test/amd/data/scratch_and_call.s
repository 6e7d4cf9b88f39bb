; Hand-written for isa_report's self-test: a gfx942 kernel that spills to scratch (256 bytes)
; and calls __ocml_sin_f32, which this file does not define (a device-library call), through
; s_swappc_b64. Its resource counts are the symbolic expressions clang writes for kernels with
; calls. A second kernel calls a function defined here (not an external call).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.protected	_Z10bad_kernelPf
	.globl	_Z10bad_kernelPf
	.p2align	8
	.type	_Z10bad_kernelPf,@function
_Z10bad_kernelPf:                       ; @_Z10bad_kernelPf
; %bb.0:
	s_load_dwordx2 s[34:35], s[4:5], 0x0
	v_lshlrev_b32_e32 v40, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v0, v40, s[34:35]
	scratch_store_dword off, v41, off offset:4 ; 4-byte Folded Spill
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, __ocml_sin_f32@rel32@lo+4
	s_addc_u32 s17, s17, __ocml_sin_f32@rel32@hi+12
	s_waitcnt vmcnt(0)
	s_swappc_b64 s[30:31], s[16:17]
	scratch_load_dword v41, off, off offset:4 ; 4-byte Folded Reload
	global_store_dword v40, v0, s[34:35]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel _Z10bad_kernelPf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 256
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_next_free_vgpr max(totalnumvgprs(_Z10bad_kernelPf.num_agpr, _Z10bad_kernelPf.num_vgpr), 1, 0)
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	_Z10bad_kernelPf, .Lfunc_end0-_Z10bad_kernelPf
                                        ; -- End function
	.set _Z10bad_kernelPf.num_vgpr, max(42, amdgpu.max_num_vgpr)
	.set _Z10bad_kernelPf.num_agpr, max(0, amdgpu.max_num_agpr)
	.set _Z10bad_kernelPf.numbered_sgpr, max(36, amdgpu.max_num_sgpr)
	.set _Z10bad_kernelPf.private_seg_size, 256
	.set _Z10bad_kernelPf.uses_vcc, 1
	.set _Z10bad_kernelPf.uses_flat_scratch, 1
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 96
; TotalNumSgprs: _Z10bad_kernelPf.numbered_sgpr+6
; NumVgprs: _Z10bad_kernelPf.num_vgpr
; NumAgprs: _Z10bad_kernelPf.num_agpr
; TotalNumVgprs: totalnumvgprs(_Z10bad_kernelPf.num_agpr, _Z10bad_kernelPf.num_vgpr)
; ScratchSize: 256
; Occupancy: occupancy(8, 8, 512, 8, 8, max(_Z10bad_kernelPf.numbered_sgpr+extrasgprs(_Z10bad_kernelPf.uses_vcc, _Z10bad_kernelPf.uses_flat_scratch, 1), 1, 0), max(totalnumvgprs(_Z10bad_kernelPf.num_agpr, _Z10bad_kernelPf.num_vgpr), 1, 0))
	.text
	.p2align	2                               ; -- Begin function _Z6helperf
	.type	_Z6helperf,@function
_Z6helperf:                             ; @_Z6helperf
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_add_f32_e32 v0, 1.0, v0
	s_barrier
	s_setpc_b64 s[30:31]
.Lfunc_end1:
	.size	_Z6helperf, .Lfunc_end1-_Z6helperf
	.set .L_Z6helperf.num_vgpr, 1
	.set .L_Z6helperf.num_agpr, 0
	.set .L_Z6helperf.numbered_sgpr, 32
	.set .L_Z6helperf.private_seg_size, 0
; Function info:
; codeLenInByte = 16
; NumVgprs: 1
	.text
	.protected	_Z12local_callerPf
	.globl	_Z12local_callerPf
	.p2align	8
	.type	_Z12local_callerPf,@function
_Z12local_callerPf:                     ; @_Z12local_callerPf
; %bb.0:
	s_load_dwordx2 s[34:35], s[4:5], 0x0
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, _Z6helperf@rel32@lo+4
	s_addc_u32 s1, s1, _Z6helperf@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
	s_endpgm
	.section	.rodata,"a",@progbits
	.amdhsa_kernel _Z12local_callerPf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.size	_Z12local_callerPf, .Lfunc_end2-_Z12local_callerPf
	.set _Z12local_callerPf.num_vgpr, max(41, .L_Z6helperf.num_vgpr)
	.set _Z12local_callerPf.num_agpr, max(0, .L_Z6helperf.num_agpr)
; Kernel info:
; NumVgprs: _Z12local_callerPf.num_vgpr
; NumAgprs: _Z12local_callerPf.num_agpr
; Occupancy: 8
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 1
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 32
	.hidden	__ocml_sin_f32
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 1024
    .name:           _Z10bad_kernelPf
    .private_segment_fixed_size: 256
    .sgpr_count:     42
    .sgpr_spill_count: 0
    .symbol:         _Z10bad_kernelPf.kd
    .uses_dynamic_stack: false
    .vgpr_count:     42
    .vgpr_spill_count: 1
    .wavefront_size: 64
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .max_flat_workgroup_size: 1024
    .name:           _Z12local_callerPf
    .private_segment_fixed_size: 0
    .sgpr_count:     40
    .sgpr_spill_count: 0
    .symbol:         _Z12local_callerPf.kd
    .uses_dynamic_stack: false
    .vgpr_count:     41
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
