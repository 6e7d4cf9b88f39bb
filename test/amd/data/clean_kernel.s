; Hand-written for isa_report's self-test: one gfx942 kernel in the shape clang -S writes, with
; an MFMA, a barrier, 128-bit global and LDS accesses, no scratch and no calls.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.protected	_Z10clean_tilePKfPf
	.globl	_Z10clean_tilePKfPf
	.p2align	8
	.type	_Z10clean_tilePKfPf,@function
_Z10clean_tilePKfPf:                    ; @_Z10clean_tilePKfPf
; %bb.0:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 4, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx4 v[2:5], v1, s[4:5]
	s_waitcnt vmcnt(0)
	ds_write_b128 v1, v[2:5]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[6:9], v1 offset:16
	ds_read2_b32 v[10:11], v1 offset1:1
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 v[12:27], v[6:7], v[8:9], 0
	s_nop 15
	global_store_dwordx4 v1, v[12:15], s[6:7]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel _Z10clean_tilePKfPf
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_next_free_vgpr 28
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 28
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	_Z10clean_tilePKfPf, .Lfunc_end0-_Z10clean_tilePKfPf
                                        ; -- End function
	.set _Z10clean_tilePKfPf.num_vgpr, 28
	.set _Z10clean_tilePKfPf.num_agpr, 0
	.set _Z10clean_tilePKfPf.numbered_sgpr, 8
	.set _Z10clean_tilePKfPf.private_seg_size, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 120
; TotalNumSgprs: 14
; NumVgprs: 28
; NumAgprs: 0
; TotalNumVgprs: 28
; ScratchSize: 0
; LDSByteSize: 4096 bytes/workgroup (compile time only)
; Occupancy: 8
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           _Z10clean_tilePKfPf
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         _Z10clean_tilePKfPf.kd
    .uses_dynamic_stack: false
    .vgpr_count:     28
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
