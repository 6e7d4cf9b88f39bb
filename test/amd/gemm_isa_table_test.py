#!/usr/bin/env python3
"""Self-test of scripts/gemm_isa_table on the hand-written assembly in data/.

usage: gemm_isa_table_test.py <path to gemm_isa_table> <path to isa_report> <data dir>

data/gemm_loop_kernel.s was counted by hand. Its main K loop is the natural loop headed by .LBB0_4
(the latch .LBB0_3 comes first in the layout). Its steady-state iteration goes through the block
that stores to LDS (%bb.8) and around the execz-skipped edge block (%bb.7): 17 instructions,
  2 v_mfma_f32_32x32x8_f16                       2 x 32 = 64 MFMA cycles
  1 VALU, 3 SALU, 4 branches, 1 ds_read, 1 ds_write, 1 buffer load, 1 s_barrier   12 cycles
  s_nop 1                                        2 cycles
  2 s_waitcnt (one vmcnt(0))                     0 cycles
so 14 other cycles and 64 / 78 = 82%. Every block of the loop adds the edge block's 2 v_cndmask and
s_nop 3 (4 cycles): 20 instructions, 20 other cycles, 64 / 84 = 76%.
"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import unittest

TABLE = None
ISA_REPORT = None
DATA = None

# The demangled name of a gfx942 DefaultGemm kernel (f16, A column-major, B row-major), as
# isa_report prints it.
GEMM_NAME = (
    "void hiptile::kernel_entry<hiptile::gemm::kernel::GemmKernel<hiptile::GemmShape<128, 128, 32>, "
    "hiptile::GemmShape<64, 64, 32>, hiptile::gemm::mainloop::PipelinedMainloop<"
    "hiptile::gemm::block::TileLoader<hiptile::NarrowFloat<hiptile::FormatBinary16>, "
    "(hiptile::gemm::OperandMajor)1, 128, 32, 256>, "
    "hiptile::gemm::block::TileLoader<hiptile::NarrowFloat<hiptile::FormatBinary16>, "
    "(hiptile::gemm::OperandMajor)1, 128, 32, 256>, hiptile::GemmShape<128, 128, 32>, hiptile::GemmShape<64, 64, 32>, "
    "hiptile::gemm::wave::MfmaWaveMma<hiptile::arch::Mfma32x32x8F16, 64, 64, 128, 128, 32>, 64, 2>, "
    "hiptile::epilogue::DirectStoreEpilogue<hiptile::gemm::wave::MfmaWaveMma<hiptile::arch::Mfma32x32x8F16, "
    "64, 64, 128, 128, 32>, hiptile::epilogue::MatrixOutput<hiptile::NarrowFloat<hiptile::FormatBinary16>, "
    "hiptile::layout::RowMajor>, "
    "hiptile::epilogue::LinearCombination<hiptile::NarrowFloat<hiptile::FormatBinary16>, "
    "hiptile::epilogue::Identity, (hiptile::OverflowMode)0>>, hiptile::gemm::kernel::XcdRemap<"
    "hiptile::gemm::kernel::GroupedTileOrder<8>, 8>>>(hiptile::gemm::kernel::GemmKernel<...>::Params)")

LOOP_ROW = "| 1 | 17 (20) | 2 | 64 | 1 | 3 | 4 | 1 / 1 | 1 | 2 | 1 | 2 (1) | 14 (20) | 82% (76%) |"


def load_module():
    sys.dont_write_bytecode = True  # no __pycache__ next to the script in the source tree
    loader = importlib.machinery.SourceFileLoader("gemm_isa_table", TABLE)
    spec = importlib.util.spec_from_loader("gemm_isa_table", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def run(*args, stdin=None):
    proc = subprocess.run([sys.executable, TABLE] + list(args), input=stdin, capture_output=True, text=True,
                          check=False)
    return proc.returncode, proc.stdout, proc.stderr


def data(name):
    return os.path.join(DATA, name)


class MainLoop(unittest.TestCase):
    def test_the_hand_counted_loop_gives_the_hand_computed_row(self):
        rc, out, err = run("--require-loop", data("gemm_loop_kernel.s"))
        self.assertEqual(rc, 0, err)
        self.assertIn(LOOP_ROW, out.splitlines())

    def test_the_loop_without_mfma_is_not_the_main_loop(self):
        table = load_module()
        body = table.kernel_body(data("gemm_loop_kernel.s"), "_Z9loop_tilePKfPf")
        loop = table.main_loop(body)
        steady = [body[i] for i in loop["steady"]]
        self.assertEqual(steady[0], ("insn", "buffer_load_dwordx4", "v[2:5], v1, s[8:11], 0 offen"))
        self.assertEqual(steady[-1], ("insn", "s_cbranch_scc0", ".LBB0_6"))
        self.assertNotIn("v_add_u32_e32 v1, 4, v1", ["%s %s" % (i[1], i[2]) for i in steady])

    def test_the_steady_iteration_stores_the_next_tile_and_skips_the_edge_mask(self):
        table = load_module()
        body = table.kernel_body(data("gemm_loop_kernel.s"), "_Z9loop_tilePKfPf")
        mnemonics = [body[i][1] for i in table.main_loop(body)["steady"]]
        self.assertIn("ds_write_b128", mnemonics)
        self.assertNotIn("v_cndmask_b32_e32", mnemonics)
        self.assertEqual(mnemonics.count("v_mfma_f32_32x32x8_f16"), 2)

    def test_lane_bytes_reads_the_width_from_the_mnemonic(self):
        table = load_module()
        self.assertEqual(table.lane_bytes("buffer_load_dwordx4"), 16)
        self.assertEqual(table.lane_bytes("global_load_dword"), 4)
        self.assertEqual(table.lane_bytes("ds_read2_b64"), 16)
        self.assertEqual(table.lane_bytes("ds_write_b128"), 16)
        self.assertEqual(table.lane_bytes("buffer_load_ushort"), 2)
        self.assertEqual(table.lane_bytes("global_store_short"), 2)
        self.assertEqual(table.lane_bytes("buffer_store_byte"), 1)
        self.assertEqual(table.lane_bytes("v_add_u32_e32"), 0)

    def test_isa_report_json_on_stdin_gives_the_same_row(self):
        report = subprocess.run([sys.executable, ISA_REPORT, "--json", data("gemm_loop_kernel.s")],
                                capture_output=True, text=True, check=True).stdout
        rc, out, err = run("--require-loop", stdin=report)
        self.assertEqual(rc, 0, err)
        self.assertIn(LOOP_ROW, out.splitlines())

    def test_a_kernel_without_a_loop_fails_require_loop(self):
        rc, out, err = run("--require-loop", data("clean_kernel.s"))
        self.assertEqual(rc, 1)
        self.assertIn("no loop with v_mfma instructions", err)
        self.assertIn("no main loop found", out)

    def test_an_mfma_without_a_cycle_count_makes_utilisation_unknown_until_given(self):
        table = load_module()
        body = table.kernel_body(data("gemm_loop_kernel.s"), "_Z9loop_tilePKfPf")
        model = table.loop_model(body, table.main_loop(body)["steady"], {})
        self.assertIsNone(model["utilisation"])
        self.assertEqual(model["unknown"], ["v_mfma_f32_32x32x8_f16"])
        rc, out, _ = run("--cycles", "v_mfma_f32_32x32x8_f16=64", data("gemm_loop_kernel.s"))
        self.assertEqual(rc, 0)
        self.assertIn("| 128 |", out)  # 2 x 64


class Config(unittest.TestCase):
    def test_the_demangled_name_gives_type_layouts_shapes_atom_and_stages(self):
        config = load_module().parse_config(GEMM_NAME)
        self.assertEqual(config, {"element": "f16", "layout": "A col, B row, C row", "tile": "128x128x32",
                                  "wave": "64x64x32", "atom": "Mfma32x32x8F16", "stages": "2"})

    def test_an_unknown_name_gives_question_marks(self):
        config = load_module().parse_config("_Z10clean_tilePKfPf")
        self.assertEqual(set(config.values()), {"?"})


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    TABLE, ISA_REPORT, DATA = sys.argv[1:4]
    unittest.main(argv=sys.argv[:1], verbosity=2)
