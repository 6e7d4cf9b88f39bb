#!/usr/bin/env python3
"""Unit tests of scripts/timing_model on hand-written instruction sequences.

usage: timing_model_test.py <path to timing_model> <data dir>

Every expected time below is worked out by hand from the model's rules (the script's header) with
the parameters each test passes explicitly, so a change of the published defaults does not move
them: issue slots every 4 cycles, v_mfma_f32_32x32x8_f16 = 32 cycles, MFMA result latency 8 beyond
that, VALU 4 cycles with results readable 8 cycles after issue, a buffer_load_dwordx4 moves 1024
bytes through a 64-byte-per-cycle port and returns 240 cycles later, barrier release 16 cycles.
"""

import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import unittest

MODEL = None
DATA = None

PARAMS = {"issue_interval": 4, "valu_cycles": 4, "valu_latency": 8, "mfma_result_latency": 8,
          "vmem_bytes_per_cycle": 64, "l2_latency": 240, "barrier_latency": 16, "lds_bytes_per_cycle": 128,
          "lds_latency": 64, "lds_conflict_factor": 1.0, "branch_taken_cycles": 8}


def load_module():
    sys.dont_write_bytecode = True
    loader = importlib.machinery.SourceFileLoader("timing_model", MODEL)
    spec = importlib.util.spec_from_loader("timing_model", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def ops(tm, text):
    """Ops from 'mnemonic operands' lines."""
    out = []
    for line in text.strip().splitlines():
        parts = line.strip().split(None, 1)
        out.append(tm.Op(parts[0], parts[1] if len(parts) > 1 else ""))
    return out


MFMA = "v_mfma_f32_32x32x8_f16"


class Replay(unittest.TestCase):
    def setUp(self):
        self.tm = load_module()

    def run_waves(self, programs, simds=1, waves_per_group=1):
        return self.tm.replay(programs, waves_per_group, PARAMS, simds)

    def test_a_chain_of_dependent_mfmas_runs_back_to_back(self):
        # Each MFMA accumulates into the previous one's result (SrcC forwarding): issued at 0, 32,
        # 64, 96; the last completes at 128.
        chain = ops(self.tm, "\n".join(["%s v[0:15], v[16:17], v[18:19], v[0:15]" % MFMA] * 4 + ["s_endpgm"]))
        self.assertEqual(self.run_waves([chain]), 128)

    def test_a_valu_reading_an_mfma_result_waits_for_its_latency(self):
        # v_mov reads v3 of the MFMA issued at 0: 32 + 8 = 40; s_endpgm at 44, the VALU done at 44.
        program = ops(self.tm, "%s v[0:15], v[16:17], v[18:19], v[0:15]\nv_mov_b32_e32 v20, v3\ns_endpgm" % MFMA)
        self.assertEqual(self.run_waves([program]), 44)

    def test_independent_valu_issues_under_a_running_mfma(self):
        # The MFMA occupies the matrix pipe from 0 to 32; three independent VALUs issue at 4, 8, 12
        # beside it and s_endpgm at 16: the wave ends when the MFMA does, at 32.
        program = ops(self.tm, "%s v[0:15], v[16:17], v[18:19], v[0:15]\n"
                               "v_mov_b32_e32 v20, v21\nv_mov_b32_e32 v22, v23\nv_mov_b32_e32 v24, v25\ns_endpgm" % MFMA)
        self.assertEqual(self.run_waves([program]), 32)

    def test_a_load_followed_by_its_waitcnt_exposes_the_latency(self):
        # Load issued at 0: 1024 bytes / 64 = 16 cycles of transfer + 240 = 256. The waitcnt issues at
        # 256, s_endpgm at 260.
        program = ops(self.tm, "buffer_load_dwordx4 v[0:3], v4, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm")
        self.assertEqual(self.run_waves([program]), 260)

    def test_vmcnt_n_waits_only_for_the_older_loads(self):
        # Two loads at 0 and 4: the port serialises them, done at 256 and 272. vmcnt(1) needs only
        # the first: it issues at 256; s_endpgm at 260; the wave ends when the second lands, 272.
        program = ops(self.tm, "buffer_load_dwordx4 v[0:3], v4, s[0:3], 0 offen\n"
                               "buffer_load_dwordx4 v[8:11], v4, s[0:3], 0 offen\n"
                               "s_waitcnt vmcnt(1)\nv_mov_b32_e32 v20, v0\ns_endpgm")
        # v_mov at 260 (after the waitcnt at 256), s_endpgm at 264, the second load lands at 272.
        self.assertEqual(self.run_waves([program]), 272)

    def test_two_waves_interleave_one_hides_the_others_load(self):
        # Each wave: a load, its waitcnt, four independent MFMAs. Alone: load lands at 256, MFMAs
        # at 260, 292, 324, 356, done at 388. Two waves on one SIMD: the second load queues behind
        # the first (lands at 272); the older wave wins each free matrix-pipe slot, so the eight
        # MFMAs run back to back from 260: done at 260 + 8 * 32 = 516, not 2 * 388.
        text = "buffer_load_dwordx4 v[40:43], v44, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\n" + "\n".join(
            "%s v[%d:%d], v[40:41], v[42:43], v[%d:%d]" % (MFMA, 64 + 16 * i, 79 + 16 * i, 64 + 16 * i, 79 + 16 * i)
            for i in range(4)) + "\ns_endpgm"
        program = ops(self.tm, text)
        self.assertEqual(self.run_waves([program]), 388)
        self.assertEqual(self.run_waves([program, program]), 516)

    def test_a_barrier_holds_every_wave_of_the_workgroup(self):
        # Wave 0 (SIMD 0) issues ten VALUs (0..36) and reaches the barrier at 40; wave 1 (SIMD 1)
        # arrives at 0. Both leave at 40 + 16 = 56: v_mov at 56, s_endpgm at 60, VALU done at 60.
        busy = ops(self.tm, "\n".join("v_mov_b32_e32 v%d, v%d" % (i, i + 20) for i in range(10)) +
                   "\ns_barrier\nv_mov_b32_e32 v40, v41\ns_endpgm")
        idle = ops(self.tm, "s_barrier\nv_mov_b32_e32 v40, v41\ns_endpgm")
        self.assertEqual(self.run_waves([[busy, idle]], simds=2), 60)
        # Without the barrier the idle wave is done at 8 and the busy one at 44 (eleven VALUs, 0..40).
        self.assertEqual(self.run_waves([[busy[:10] + busy[11:], idle[1:]]], simds=2), 44)

    def test_s_nop_holds_its_wave_n_plus_one_slots(self):
        program = ops(self.tm, "s_nop 3\ns_endpgm")
        self.assertEqual(self.run_waves([program]), 16)

    def test_s_setprio_puts_the_wave_first_in_the_issue_slot(self):
        # Wave 0: three VALUs. Wave 1 (same SIMD): s_setprio, a VALU, a load, its waitcnt.
        # At priority 1, wave 1's VALU wins the slot at 4 over the older wave 0, its load issues at
        # 8 and lands at 8 + 16 + 240 = 264: waitcnt at 264, s_endpgm at 268 (wave 0 is done at 16).
        # At priority 0 the older wave 0 issues its VALUs at 0, 4, 8 first: wave 1's VALU at 12, the
        # load at 16, landing at 272: s_endpgm at 276.
        busy = ops(self.tm, "v_mov_b32_e32 v1, v2\nv_mov_b32_e32 v3, v4\nv_mov_b32_e32 v5, v6\ns_endpgm")
        tail = "v_mov_b32_e32 v10, v11\nbuffer_load_dwordx4 v[12:15], v16, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm"
        urgent = ops(self.tm, "s_setprio 1\n" + tail)
        plain = ops(self.tm, "s_setprio 0\n" + tail)
        self.assertEqual(self.run_waves([[busy, urgent]], waves_per_group=2), 268)
        self.assertEqual(self.run_waves([[busy, plain]], waves_per_group=2), 276)


class Occupancy(unittest.TestCase):
    def test_registers_lds_and_block_size_bound_the_workgroups_per_cu(self):
        tm = load_module()
        mi300x = tm.DEVICES["mi300x"]
        # 126 VGPRs -> 128 -> 4 waves per SIMD; 256 threads = 4 waves; 37,376 bytes of LDS: 1 per CU.
        self.assertEqual(tm.workgroups_per_cu(126, 37376, 256, mi300x), 1)
        # Half the LDS: registers allow 4 workgroups, LDS 3 (65,536 / 18,688).
        self.assertEqual(tm.workgroups_per_cu(126, 18688, 256, mi300x), 3)
        # 256 VGPRs: 2 waves per SIMD -> 2 workgroups of 4 waves without LDS.
        self.assertEqual(tm.workgroups_per_cu(256, 0, 256, mi300x), 2)
        # 512 threads = 8 waves, 168 VGPRs -> 3 waves per SIMD = 12 per CU: one workgroup.
        self.assertEqual(tm.workgroups_per_cu(168, 0, 512, mi300x), 1)

    def test_l2_reuse_of_a_grouped_band(self):
        tm = load_module()
        # 38 resident 128x128 tiles on an XCD, in bands of 8 rows: 8 A panels and 5 B panels fetched
        # for 38 tiles' 76 panel loads -> 1 - 13/76.
        self.assertAlmostEqual(tm.l2_hit_rate(128, 128, 64, 64, 38), 1 - 13 / 76)
        # One tile: nothing to reuse.
        self.assertEqual(tm.l2_hit_rate(128, 128, 1, 1, 38), 0.0)


class Paths(unittest.TestCase):
    def test_the_kernel_paths_of_the_hand_written_loop(self):
        tm = load_module()
        body = tm.isa_table.kernel_body(os.path.join(DATA, "gemm_loop_kernel.s"), "_Z9loop_tilePKfPf")
        prologue, iteration, epilogue = tm.kernel_paths(body, 16)
        mnemonics = lambda items: [body[i][1] for i, _ in items]
        # The prologue runs the first loop's body once (its back edge is not followed) and the
        # branch to the header is taken.
        self.assertEqual(mnemonics(prologue)[-1], "s_branch")
        self.assertTrue(prologue[-1][1])
        self.assertIn("ds_write_b128", mnemonics(iteration))
        self.assertEqual(mnemonics(epilogue), ["global_store_dwordx4", "s_endpgm"])

    def test_waves_take_their_own_paths_by_work_item_id(self):
        # ping_pong_kernel.s: waves 4-7 of 512 threads (bit 8 of the id set) run the barrier before
        # the loop, waves 0-3 the one after it; the region that depends on s4 keeps the common
        # path (skipped: the fewest instructions).
        tm = load_module()
        body = tm.isa_table.kernel_body(os.path.join(DATA, "ping_pong_kernel.s"), "_Z9ping_pongv")
        barriers = lambda items: sum(body[i][1] == "s_barrier" for i, _ in items)
        paths = tm.wave_paths(body, 16, 512)
        self.assertEqual([(barriers(p), barriers(i), barriers(e)) for p, i, e in paths],
                         [(0, 1, 1)] * 4 + [(1, 1, 0)] * 4)
        self.assertTrue(all("v_mov_b32_e32" not in [body[i][1] for i, _ in e] for _, _, e in paths))
        # With 256 threads every wave is of the first kind.
        self.assertEqual({(barriers(p), barriers(e)) for p, _, e in tm.wave_paths(body, 16, 256)}, {(0, 1)})

    def test_lanes_follow_the_work_item_id_to_the_exec_mask(self):
        tm = load_module()
        # Lanes with id >> 5 == 1: the upper half of wave 0, no lane of wave 1.
        for wave, mask in ((0, 0xFFFFFFFF00000000), (1, 0)):
            lanes = tm.Lanes(wave, 128)
            for line in ("v_lshrrev_b32_e32 v1, 5, v0", "v_cmp_eq_u32_e32 vcc, 1, v1", "s_and_saveexec_b64 s[0:1], vcc"):
                lanes.step(*line.split(None, 1))
            self.assertEqual(lanes.masks[frozenset(["exec"])], mask)
            lanes.step("s_or_b64", "exec, exec, s[0:1]")
            self.assertEqual(lanes.masks[frozenset(["exec"])], 2 ** 64 - 1)
        # A value the class does not evaluate (a load) makes the outcome unknown.
        lanes = tm.Lanes(0, 64)
        for line in ("global_load_dword v1, v[2:3], off", "v_cmp_eq_u32_e32 vcc, 1, v1", "s_and_saveexec_b64 s[0:1], vcc"):
            lanes.step(*line.split(None, 1))
        self.assertIsNone(lanes.exec_zero())

    def test_loop_trips_count_peeled_and_unrolled_tiles(self):
        tm = load_module()
        mfma = ops(tm, "%s v[0:15], v[16:17], v[18:19], v[0:15]" % MFMA)  # 32 x 32 x 8 = 8192 each
        # Four waves, a 64x64x16 tile (65,536): two MFMAs per wave per tile. One tile per trip and
        # none outside: 10 trips for 10 K tiles.
        self.assertEqual(tm.loop_trips([([], mfma * 2, [])] * 4, (64, 64, 16), 10), 10)
        # The last tile's MFMAs in the epilogue: 9 trips.
        self.assertEqual(tm.loop_trips([([], mfma * 2, mfma * 2)] * 4, (64, 64, 16), 10), 9)
        # Unrolled by 3 with the last tile peeled: (10 - 1) / 3 = 3 trips.
        self.assertEqual(tm.loop_trips([([], mfma * 6, mfma * 2)] * 4, (64, 64, 16), 10), 3)
        # Block MFMAs count every block: 32x32x4, 2 blocks = 8192 (not in gfx942's cycle table: given).
        block = tm.Op("v_mfma_f32_32x32x4_2b_f16", "v[0:31], v[32:33], v[34:35], v[0:31]",
                      mfma_cycles={"v_mfma_f32_32x32x4_2b_f16": 64})
        self.assertEqual(tm.mfma_work([block]), 8192)


# A back-to-back GEMM laid out the way LLVM lays out B2bGemmKernel: the first product's K loop
# (one block: the next tile's load, the MFMA, the LDS store, the barrier); P's conversion, whose
# value-dependent region s_cbranch_execz may skip, and the first B1 tile's load; the column loop with
# its latch before the header (waiting for the B1 loads), the barrier the first step skips, the next
# B1 tile's load the last step skips, the B1 stage into LDS, a barrier, the MFMAs, then the interior
# tile's direct store or the edge tile's store after a load of C; the end.
B2B_KERNEL = """
_Z3b2bv:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	buffer_load_dwordx4 v[2:5], v1, s[8:11], 0 offen
	s_waitcnt vmcnt(0)
	ds_write_b128 v1, v[2:5]
	s_barrier
	s_mov_b32 s2, 0
.LBB0_1:
	buffer_load_dwordx4 v[2:5], v1, s[8:11], 0 offen
	ds_read_b128 v[6:9], v1
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 v[12:27], v[6:7], v[8:9], v[12:27]
	s_waitcnt vmcnt(0)
	ds_write_b128 v1, v[2:5]
	s_barrier
	s_add_i32 s2, s2, 1
	s_cmp_lg_u32 s2, s3
	s_cbranch_scc1 .LBB0_1
	buffer_load_ushort v30, v1, s[8:11], 0 offen
	s_waitcnt vmcnt(0)
	v_cmp_ne_u32_e32 vcc, 0, v30
	s_and_saveexec_b64 s[4:5], vcc
	s_cbranch_execz .LBB0_3
	v_lshlrev_b32_e32 v31, 13, v30
	v_or_b32_e32 v31, 0x7f800000, v31
.LBB0_3:
	s_or_b64 exec, exec, s[4:5]
	buffer_load_dwordx4 v[32:35], v1, s[8:11], 0 offen
	s_mov_b32 s6, 0
	s_branch .LBB0_6
.LBB0_5:
	s_add_i32 s6, s6, 64
	s_waitcnt vmcnt(0)
	s_cmp_lt_i32 s6, s7
	s_cbranch_scc0 .LBB0_12
.LBB0_6:
	s_cmp_eq_u32 s6, 0
	s_cbranch_scc1 .LBB0_8
	s_barrier
.LBB0_8:
	s_cmp_ge_i32 s6, s9
	s_cbranch_scc1 .LBB0_10
	buffer_load_dwordx4 v[36:39], v1, s[8:11], 0 offen
.LBB0_10:
	ds_write_b128 v1, v[32:35]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[6:9], v1
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_32x32x8_f16 v[40:55], v[6:7], v[8:9], 0
	v_mfma_f32_32x32x8_f16 v[40:55], v[8:9], v[6:7], v[40:55]
	s_cbranch_vccnz .LBB0_11
	global_store_dwordx4 v1, v[40:43], s[10:11]
	s_branch .LBB0_5
.LBB0_11:
	global_load_dwordx4 v[56:59], v1, s[10:11]
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v1, v[40:43], s[10:11]
	s_branch .LBB0_5
.LBB0_12:
	s_endpgm
.Lfunc_end0:
"""


def b2b_name():
    """The demangled name of test/amd/b2b_kernels.cpp's f16 kernel (K-contiguous A and B0, row-major B1)."""
    e = "hiptile::NarrowFloat<hiptile::FormatBinary16>"
    loader = "hiptile::gemm::block::TileLoader<%s, (hiptile::gemm::OperandMajor)%d, %d, %d, 256>"
    swizzled = "hiptile::gemm::block::SwizzledLdsLayout<%s, %d, %d>"
    atom = "hiptile::arch::Mfma32x32x8F16"
    producer = "hiptile::gemm::wave::MfmaWaveMma<%s, 64, 32, %s, %s>" % (atom, swizzled % (e, 64, 32),
                                                                          swizzled % (e, 128, 32))
    consumer = "hiptile::gemm::wave::ChainedMfmaWaveMma<%s, 32, 64, %s, hiptile::gemm::block::PackedLdsLayout<%s, 64, 64>>" % (
        atom, swizzled % (e, 128, 64), e)
    first = ("hiptile::gemm::mainloop::PipelinedMainloop<%s, %s, hiptile::GemmShape<64, 128, 32>, "
             "hiptile::GemmShape<64, 32, 32>, %s, 64, 2>" % (loader % (e, 0, 64, 32), loader % (e, 0, 128, 32), producer))
    chained = ("hiptile::gemm::mainloop::ChainedProduct<%s, %s, %s, hiptile::epilogue::LinearCombination<%s, "
               "hiptile::epilogue::ReLU, (hiptile::OverflowMode)0>, true, 64>" % (producer, consumer, loader % (e, 1, 64, 64), e))
    epilogue = ("hiptile::epilogue::DirectStoreEpilogue<%s, hiptile::epilogue::MatrixOutput<%s, hiptile::layout::RowMajor>, "
                "hiptile::epilogue::LinearCombination<%s, hiptile::epilogue::Identity, (hiptile::OverflowMode)0>, false>"
                % (consumer, e, e))
    kernel = ("hiptile::gemm::kernel::B2bGemmKernel<128, 64, %s, %s, %s, hiptile::gemm::kernel::DataParallelScheduler<"
              "hiptile::gemm::kernel::RowMajorTileOrder, true>>" % (first, chained, epilogue))
    return "void hiptile::kernel_entry<%s>(%s::Params)" % (kernel, kernel)


class BackToBack(unittest.TestCase):
    def setUp(self):
        self.tm = load_module()

    def test_the_five_parts_of_a_hand_written_back_to_back_gemm(self):
        tm = self.tm
        with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
            f.write(B2B_KERNEL)
        try:
            body = tm.isa_table.kernel_body(f.name, "_Z3b2bv")
        finally:
            os.unlink(f.name)
        (parts,) = {tuple(tuple(p) for p in wave) for wave in tm.wave_paths(body, 16, 256, tm.b2b_segments)}
        prologue, k_tile, middle, step, end = ([body[i][1] for i, _ in items] for items in parts)
        self.assertEqual(prologue[-1], "s_mov_b32")
        self.assertEqual((k_tile.count("v_mfma_f32_32x32x8_f16"), k_tile.count("buffer_load_dwordx4"), k_tile[-1]),
                         (1, 1, "s_cbranch_scc1"))
        # The middle: the bias load and the first B1 tile's; the value-dependent region is skipped
        # (the heaviest path: the fewest instructions where the data moved ties).
        self.assertEqual([m for m in middle if m.startswith("buffer_load")], ["buffer_load_ushort", "buffer_load_dwordx4"])
        self.assertNotIn("v_or_b32_e32", middle)
        # An interior column step: the barrier between steps and the one after the B1 stage, the next
        # B1 tile's load, both MFMAs, the direct store without a load of C, then the latch.
        self.assertEqual((step.count("s_barrier"), step.count("buffer_load_dwordx4"), step.count("v_mfma_f32_32x32x8_f16"),
                          step.count("global_store_dwordx4"), step.count("global_load_dwordx4")), (2, 1, 2, 1, 0))
        self.assertEqual(step[-1], "s_cbranch_scc0")
        self.assertEqual(end, ["s_endpgm"])

    def test_the_configuration_and_lds_come_from_the_name(self):
        tm = self.tm
        name = b2b_name()
        config = tm.b2b_config(name)
        # LDS: two stages of the 64 x 32 B0 tile and the 128 x 32 A tile (12,288 B each), more than
        # the 64 x 64 B1 stage (8,192 B): 24,576, the kernel's kLdsBytes (launch_budget.hpp's record).
        self.assertEqual((config["tile"], config["wave_m"], config["stages"], config["lds"]), ((128, 64, 32, 64), 32, 2, 24576))
        self.assertEqual(tm.label({"config": tm.isa_table.parse_config(name), "name": name, "b2b": config}),
                         "f16; b2b, A row, B0 col, B1 row, C row; 128x64x32x64 / 32 / Mfma32x32x8F16 / 2")

    def test_block_rows_run_in_waves_of_slots(self):
        # The made-up device below; a CU costs 1000 cycles per block row plus 100 per K tile and 300
        # per column step. 640 x 64 x 320 x 128: 5 block rows of 10 K tiles and 2 column steps (2600
        # cycles) on 4 slots: a full wave, then one: 5200 cycles, 5.2 us. The four resident rows
        # fetch their A rows (128 x 320 each) and B0 and B1 (64 x (320 + 128)) once: 4 x 40,960 +
        # 28,672 of 4 x 69,632 elements requested.
        tm = self.tm
        line = tm.B2bLine({"cycles": (1000, 100, 300)}, lambda k_tiles, steps: (k_tiles, steps))
        kernel = {"b2b": {"tile": (128, 64, 32, 64)}, "workgroups_per_cu": 2, "element_bytes": 2, "output_bytes": 2}
        r = tm.b2b_device_view(kernel, (640, 64, 320, 128), DEVICE, VIEW_PARAMS, {}, lambda groups, latency: line)
        self.assertEqual((r["waves_of_grid"], r["cycles"], r["k_tiles"], r["column_steps"]), (2, 5200, 10, 2))
        self.assertAlmostEqual(r["time_us"], 5.2)
        self.assertAlmostEqual(r["quantisation"], 5 / 8)
        self.assertAlmostEqual(r["l2_hit"], 1 - (4 * 40960 + 28672) / (4 * 69632))
        self.assertAlmostEqual(r["tflops"], 2 * 640 * 64 * (320 + 128) / 5.2e-6 / 1e12)
        with self.assertRaises(ValueError):  # N0 above the kernel's tile
            tm.b2b_device_view(kernel, (640, 128, 320, 128), DEVICE, VIEW_PARAMS, {}, lambda groups, latency: line)
        self.assertEqual(tm.parse_b2b_run("81920x64x576x128"), ((81920, 64, 576, 128), {}))
        self.assertEqual(tm.parse_b2b_run("128x64x64x64, 4 batches"), ((128, 64, 64, 64), {"batches": 4}))


# The device view's schedules on a made-up CU line: every workgroup costs 1000 cycles per pass
# (prologue and epilogue) plus 100 per K tile, whatever shares its CU; two CUs of two workgroups
# (four slots), one XCD, 1000 MHz (1 cycle = 1 ns), 1 TB/s of HBM reached (1.25 at 80%), no
# launch cost. A fp32 partial tile of 128 x 128 moves 65,536 B; with two workgroups on the CU
# sharing its 64 B/cycle port: 2048 cycles; a store costs that + 240 (acknowledgement), an add that
# + 2 x 240 (the flag, then the data).
DEVICE = {"cus": 2, "xcds": 1, "clock_mhz": 1000, "hbm_tbps": 1.25, "simds": 4}
VIEW_PARAMS = dict(PARAMS, store_latency=240, mall_latency=500, hbm_latency=800, launch_us=0.0)


class Schedules(unittest.TestCase):
    def setUp(self):
        self.tm = load_module()
        self.line = self.tm.CuLine(1000, 100, {}, {})

    def view(self, schedule, problem, **run):
        kernel = {"tile": (128, 128, 32), "workgroups_per_cu": 2, "element_bytes": 2, "output_bytes": 2,
                  "d_bytes": 2, "schedule": schedule}
        if schedule == "parallel split-K":
            kernel["output_bytes"] = 4
        return self.tm.device_view(kernel, problem, DEVICE, VIEW_PARAMS, run, lambda groups, latency: self.line)

    def test_stream_k_shares_as_the_kernel_does(self):
        tm = self.tm
        # kernel/stream_k.hpp's example: three units over four tiles of three iterations, four
        # each; unit 0 stores its piece of tile 1, unit 1 adds unit 0's and stores its piece of
        # tile 2, unit 2 adds unit 1's and owns tile 3 alone.
        self.assertEqual(tm.stream_k_schedule(4, 3, 3, 1), (0, 4, 3, 1))
        self.assertEqual(tm.stream_k_units(4, 3, 3, 1), [(4, 2, 1, 0), (4, 2, 1, 1), (4, 2, 0, 1)])
        # 10 tiles on 8 workgroups: the last wave (2) and one full wave shared by 8 units.
        self.assertEqual(tm.stream_k_schedule(10, 3, 8, 1), (0, 10, 8, 1))
        # A last wave more than half full stays data-parallel; one K iteration is never shared.
        self.assertEqual(tm.stream_k_schedule(13, 3, 8, 1), (13, 0, 0, 1))
        self.assertEqual(tm.stream_k_schedule(10, 1, 8, 1), (10, 0, 0, 1))
        # Fewer tiles than half the grid: ceil(sqrt(16)) = 4 pieces per tile, 8 units.
        self.assertEqual(tm.stream_k_schedule(2, 16, 40, 1), (0, 2, 8, 1))

    def test_data_parallel_tiles_run_in_waves_of_slots(self):
        # 2 x 3 tiles of 10 K tiles: a full wave of 4, then 2 (one per CU): 2 x 2000 cycles.
        r = self.view("data-parallel", (256, 384, 320))
        self.assertEqual((r["waves_of_grid"], r["cycles"]), (2, 4000))
        self.assertAlmostEqual(r["time_us"], 4.0)
        self.assertAlmostEqual(r["quantisation"], 6 / 8)

    def test_stream_k_units_run_their_share_and_fix_up(self):
        # 1 x 5 tiles of 10 K tiles on 4 slots: the last wave (1) is under half full, so all 5 are
        # shared by 4 units, [0,12) [12,25) [25,37) [37,50), two pieces each. Unit 1 is the slowest:
        # 2 x 1000 + 13 x 100, it stores its piece of tile 2 (2048 + 240) and adds unit 0's partial
        # tile of tile 1 (2048 + 480): 8068 cycles.
        r = self.view("stream-K", (128, 640, 320))
        self.assertEqual((r["waves_of_grid"], r["workgroups"]), (1, 4))
        self.assertAlmostEqual(r["cycles"], 3300 + 2288 + 2528)
        self.assertAlmostEqual(r["quantisation"], 50 / (4 * 13))

    def test_serial_split_k_chains_the_slices_of_a_tile(self):
        # 6 tiles x 2 slices of 5 K tiles: 3 full waves of 1500 cycles, then slice 1 of the last
        # wave's tiles adds slice 0's partial tile: + 2288 (store) + 2528 (add).
        r = self.view("serial split-K", (256, 384, 320), slices=2)
        self.assertEqual(r["waves_of_grid"], 3)
        self.assertAlmostEqual(r["cycles"], 4500 + 2288 + 2528)

    def test_parallel_split_k_adds_the_reduction_kernel(self):
        # The same slices without turns (4500 cycles, 4.5 us), then the reduction reads 2 fp32
        # partial matrices and writes D: 256 x 384 x (8 + 2) B = 983,040 B at 1 TB/s.
        r = self.view("parallel split-K", (256, 384, 320), slices=2)
        self.assertAlmostEqual(r["cycles"], 4500)
        self.assertAlmostEqual(r["time_us"], 4.5 + 0.98304)

    def test_grouped_tiles_share_a_persistent_grid(self):
        # Two groups of 1 x 2 tiles on a grid of 2 workgroups (one per CU): each runs 2 tiles.
        r = self.view("grouped", (128, 256, 320), groups=2, workgroups=2)
        self.assertEqual((r["waves_of_grid"], r["tiles"]), (2, 4))
        self.assertAlmostEqual(r["cycles"], 4000)

    def test_a_line_between_two_replayed_latencies_is_interpolated(self):
        # Lines replayed at 240, 500 and 800 cycles: 1000 / 1260 / 1860 fixed, 100 / 126 / 186 per
        # trip, MFMA busy 50 / 60 / 80 per trip. 370 is halfway from 240 to 500: 1130, 113, 55;
        # 650 halfway from 500 to 800: 1560, 156, 70. Outside the replayed range the end lines hold.
        tm = self.tm
        lines = [tm.CuLine(1000 + 260 * i + 340 * (i == 2), 100 + 26 * i + 34 * (i == 2), {"mfma": 0},
                           {"mfma": (50, 60, 80)[i]}) for i in range(3)]
        latencies = (240, 500, 800)
        for latency, fixed, per_trip, mfma in ((370, 1130, 113, 55), (650, 1560, 156, 70), (100, 1000, 100, 50),
                                               (900, 1860, 186, 80), (500, 1260, 126, 60)):
            line = tm.interpolate(latencies, lines, latency)
            self.assertAlmostEqual(line.fixed, fixed)
            self.assertAlmostEqual(line.per_trip, per_trip)
            self.assertAlmostEqual(line.busy("mfma", 10), 10 * mfma)

    def test_a_run_names_its_schedule_parameters(self):
        self.assertEqual(self.tm.parse_run("512x512x8192, 8 slices"), ((512, 512, 8192), {"slices": 8}))
        self.assertEqual(self.tm.parse_run("64x64x64"), ((64, 64, 64), {}))
        with self.assertRaises(ValueError):
            self.tm.parse_run("64x64")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    MODEL, DATA = sys.argv[1:3]
    unittest.main(argv=sys.argv[:1], verbosity=2)
