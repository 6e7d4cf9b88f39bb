; Hand-written for timing_model's self-test (timing_model_test.py): a gfx942 kernel whose waves
; take different paths by their work-item id, as 8-wave ping-pong schedules do. Waves whose
; work-item ids have bit 8 set (waves 4-7 of a 512-thread workgroup) run one extra s_barrier before
; the main loop, the others one after it, so the two halves stay one barrier apart. A region whose
; condition depends on an SGPR (not known from the work-item id) follows the loop.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.globl	_Z9ping_pongv
	.p2align	8
	.type	_Z9ping_pongv,@function
_Z9ping_pongv:
; %bb.0:
	v_lshrrev_b32_e32 v1, 8, v0
	v_cmp_eq_u32_e32 vcc, 1, v1
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_2
; %bb.1:
	s_barrier
.LBB0_2:
	s_or_b64 exec, exec, s[0:1]
	s_mov_b32 s2, 0
.LBB0_3:                                ; =>This Inner Loop Header: Depth=1
	v_mfma_f32_32x32x8_f16 v[4:19], v[20:21], v[22:23], v[4:19]
	s_barrier
	s_add_i32 s2, s2, 1
	s_cmp_lg_u32 s2, 8
	s_cbranch_scc1 .LBB0_3
; %bb.4:
	v_cmp_eq_u32_e32 vcc, 0, v1
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_6
; %bb.5:
	s_barrier
.LBB0_6:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_eq_u32_e32 vcc, s4, v1
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_8
; %bb.7:
	v_mov_b32_e32 v30, v31
.LBB0_8:
	s_or_b64 exec, exec, s[0:1]
	global_store_dwordx4 v[24:25], v[4:7], off
	s_endpgm
.Lfunc_end0:
	.size	_Z9ping_pongv, .Lfunc_end0-_Z9ping_pongv
