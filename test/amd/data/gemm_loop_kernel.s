; Hand-written for gemm_isa_table's self-test (gemm_isa_table_test.py): one gfx942 kernel laid out
; the way LLVM lays out hiptile's mainloop. A first loop without MFMAs (not the main loop); then
; the main K loop with its latch block placed before the header (entered by a branch to the
; header), a global load whose edge mask is a block that s_cbranch_execz skips, two 32x32x8 MFMAs,
; and two ways back to the latch: directly (the last tiles: nothing to store) or through the block
; that stores the next tile to LDS and is laid out after the loop's last backward branch.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.protected	_Z9loop_tilePKfPf
	.globl	_Z9loop_tilePKfPf
	.p2align	8
	.type	_Z9loop_tilePKfPf,@function
_Z9loop_tilePKfPf:                      ; @_Z9loop_tilePKfPf
; %bb.0:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_mov_b32 s2, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	v_add_u32_e32 v1, 4, v1
	s_add_i32 s2, s2, 1
	s_cmp_lg_u32 s2, 4
	s_cbranch_scc1 .LBB0_1
; %bb.2:
	s_mov_b32 s2, 0
	s_branch .LBB0_4
.LBB0_3:                                ;   in Loop: Header=BB0_4 Depth=1
	s_add_i32 s2, s2, 1
	s_barrier
	s_cbranch_scc0 .LBB0_6
.LBB0_4:                                ; =>This Inner Loop Header: Depth=1
	buffer_load_dwordx4 v[2:5], v1, s[8:11], 0 offen
	s_waitcnt vmcnt(0)
	s_and_saveexec_b64 s[4:5], vcc
	s_cbranch_execz .LBB0_5
; %bb.7:                                ;   in Loop: Header=BB0_4 Depth=1
	v_cndmask_b32_e32 v2, 0, v2, vcc
	v_cndmask_b32_e32 v3, 0, v3, vcc
	s_nop 3
.LBB0_5:                                ;   in Loop: Header=BB0_4 Depth=1
	s_or_b64 exec, exec, s[4:5]
	ds_read_b128 v[6:9], v1
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 v[12:27], v[6:7], v[8:9], v[12:27]
	v_mfma_f32_32x32x8_f16 v[12:27], v[8:9], v[6:7], v[12:27]
	s_nop 1
	s_cbranch_vccnz .LBB0_3
; %bb.8:                                ;   in Loop: Header=BB0_4 Depth=1
	ds_write_b128 v1, v[2:5]
	v_add_u32_e32 v1, 16, v1
	s_branch .LBB0_3
.LBB0_6:
	global_store_dwordx4 v1, v[12:15], s[10:11]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel _Z9loop_tilePKfPf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_next_free_vgpr 28
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 28
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	_Z9loop_tilePKfPf, .Lfunc_end0-_Z9loop_tilePKfPf
                                        ; -- End function
	.set _Z9loop_tilePKfPf.num_vgpr, 28
	.set _Z9loop_tilePKfPf.num_agpr, 0
	.set _Z9loop_tilePKfPf.numbered_sgpr, 12
	.set _Z9loop_tilePKfPf.private_seg_size, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 200
; TotalNumSgprs: 18
; NumVgprs: 28
; NumAgprs: 0
; TotalNumVgprs: 28
; ScratchSize: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 256
    .name:           _Z9loop_tilePKfPf
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         _Z9loop_tilePKfPf.kd
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
