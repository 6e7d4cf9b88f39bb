#!/usr/bin/env python3
"""Self-test of scripts/isa_report on the hand-written assembly in data/.

usage: isa_report_test.py <path to isa_report> <data dir>
"""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import unittest

SCRIPT = None
DATA = None


def load_module():
    loader = importlib.machinery.SourceFileLoader("isa_report", SCRIPT)
    spec = importlib.util.spec_from_loader("isa_report", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def run(*args):
    proc = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def data(name):
    return os.path.join(DATA, name)


class CheckMode(unittest.TestCase):
    def test_a_clean_kernel_passes_every_limit(self):
        rc, out, err = run("--check", "--max-scratch", "0", "--max-lds", "65536", "--max-spills", "0",
                           "--forbid-calls", "--forbid-local-calls", "--min-occupancy", "8",
                           "--require-mnemonic", "s_barrier", "--require-mnemonic", "v_mfma_f32_32x32x8_f16",
                           "--require-mnemonic", "ds_read.*", "--kernel", "clean_tile", data("clean_kernel.s"))
        self.assertEqual(rc, 0, err)
        self.assertIn("check passed for 1 kernel(s)", out)
        self.assertEqual(err, "")

    def test_scratch_and_an_external_call_fail_naming_kernel_and_limit(self):
        rc, _, err = run("--check", "--max-scratch", "0", "--forbid-calls", "--kernel", "bad_kernel",
                         data("scratch_and_call.s"))
        self.assertEqual(rc, 1)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 2, err)
        self.assertRegex(lines[0], r"FAIL .*scratch_and_call\.s: kernel .*bad_kernel.* \(gfx942\): "
                                   r"scratch is 256 bytes, above --max-scratch 0")
        self.assertRegex(lines[1], r"kernel .*bad_kernel.*: calls __ocml_sin_f32, which the file does not define.*"
                                   r"--forbid-calls")

    def test_a_call_to_a_function_defined_in_the_file_is_not_external(self):
        rc, _, err = run("--check", "--forbid-calls", "--kernel", "local_caller", data("scratch_and_call.s"))
        self.assertEqual(rc, 0, err)
        rc, _, err = run("--check", "--forbid-local-calls", "--kernel", "local_caller", data("scratch_and_call.s"))
        self.assertEqual(rc, 1)
        self.assertIn("(not inlined), forbidden by --forbid-local-calls", err)

    def test_instructions_of_called_functions_count_for_the_kernel(self):
        rc, _, err = run("--check", "--require-mnemonic", "s_barrier", "--kernel", "local_caller",
                         data("scratch_and_call.s"))
        self.assertEqual(rc, 0, err)

    def test_static_lds_above_the_limit_fails(self):
        rc, _, err = run("--check", "--max-lds", "1024", data("clean_kernel.s"))
        self.assertEqual(rc, 1)
        self.assertIn("static LDS is 4096 bytes, above --max-lds 1024", err)

    def test_a_missing_mnemonic_and_spills_fail(self):
        rc, _, err = run("--check", "--require-mnemonic", "s_barrier", "--max-spills", "0", "--kernel", "bad_kernel",
                         data("scratch_and_call.s"))
        self.assertEqual(rc, 1)
        self.assertIn("no instruction matches --require-mnemonic s_barrier", err)
        self.assertIn("VGPR spill count is 1, above --max-spills 0", err)

    def test_a_forbidden_mnemonic_fails(self):
        rc, _, err = run("--check", "--forbid-mnemonic", "scratch_.*", "--kernel", "bad_kernel",
                         data("scratch_and_call.s"))
        self.assertEqual(rc, 1)
        self.assertIn("scratch_load_dword x1", err)

    def test_a_kernel_regex_that_matches_nothing_fails(self):
        rc, _, err = run("--check", "--kernel", "no_such_kernel", data("clean_kernel.s"))
        self.assertEqual(rc, 1)
        self.assertIn("no kernel matches --kernel 'no_such_kernel'", err)

    def test_a_missing_file_is_an_input_error(self):
        rc, _, err = run("--check", data("does_not_exist.s"))
        self.assertEqual(rc, 2)
        self.assertIn("no such file", err)


class Report(unittest.TestCase):
    def kernels(self, *files):
        rc, out, err = run("--json", *[data(f) for f in files])
        self.assertEqual(rc, 0, err)
        return {k["kernel"]: k for k in json.loads(out)}

    def test_json_has_resources_and_instruction_mix(self):
        k = self.kernels("clean_kernel.s")["_Z10clean_tilePKfPf"]
        self.assertEqual(k["arch"], "gfx942")
        self.assertEqual((k["vgpr"], k["agpr"], k["sgpr"]), (28, 0, 14))
        self.assertEqual((k["static_lds_bytes"], k["scratch_bytes"], k["occupancy"]), (4096, 0, 8))
        self.assertEqual(k["mfma"], {"v_mfma_f32_32x32x8_f16": 1})
        self.assertEqual(k["global_load_bits"], {"128": 1})
        self.assertEqual(k["lds_read_bits"], {"128": 1, "2x32": 1})
        self.assertEqual(k["lds_write_bits"], {"128": 1})
        self.assertEqual(k["calls"], [])

    def test_symbolic_resource_counts_are_evaluated(self):
        k = self.kernels("scratch_and_call.s")["_Z10bad_kernelPf"]
        self.assertEqual((k["vgpr"], k["agpr"], k["sgpr"], k["occupancy"]), (42, 0, 42, 8))
        self.assertEqual((k["scratch_bytes"], k["vgpr_spills"]), (256, 1))
        self.assertEqual(k["scratch_accesses"], {"scratch_load_dword": 1, "scratch_store_dword": 1})
        self.assertEqual([(c["kind"], c["symbol"]) for c in k["calls"]], [("external", "__ocml_sin_f32")])

    def test_text_and_markdown_tables_list_every_kernel(self):
        rc, out, _ = run(data("clean_kernel.s"), data("scratch_and_call.s"))
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("kernel "))
        self.assertEqual(sum("gfx942" in line for line in out.splitlines()), 3)
        rc, out, _ = run("--markdown", data("clean_kernel.s"))
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("| kernel | arch |"))
        self.assertIn("| 4096 |", out)


class Internals(unittest.TestCase):
    def setUp(self):
        self.m = load_module()

    def test_access_widths(self):
        widths = {"global_load_dwordx4": "128", "global_load_dwordx2": "64", "buffer_load_dword": "32",
                  "buffer_load_ushort": "16", "global_load_short_d16_hi": "16", "global_store_byte": "8",
                  "ds_read_b128": "128", "ds_write_b64": "64", "ds_read2_b32": "2x32", "ds_read2st64_b64": "2x64",
                  "ds_read_u16": "16", "ds_write_b8": "8", "buffer_load_format_xyzw": "fmt_xyzw"}
        for mnemonic, bits in widths.items():
            self.assertEqual(self.m.access_width(mnemonic), bits, mnemonic)

    def test_occupancy_follows_llvm(self):
        ev = self.m.Evaluator({}, "gfx942")
        # Values the compiler printed for kernels it compiled: (sgprs, vgprs) -> waves per SIMD.
        self.assertEqual(ev.value("occupancy(8, 8, 512, 8, 8, 106, 128)"), 4)
        self.assertEqual(ev.value("occupancy(8, 8, 512, 8, 8, 13, 91)"), 5)
        self.assertEqual(ev.value("occupancy(8, 8, 512, 8, 8, 15, 9)"), 8)

    def test_expressions(self):
        ev = self.m.Evaluator({"a.num_vgpr": "max(41, b)", "b": "7", "c": "undefined_symbol+1"}, "gfx942")
        self.assertEqual(ev.value("a.num_vgpr"), 41)
        self.assertEqual(ev.value("(((((alignto(max(1, 41), 4)/4)-1)&~65536)&63)+1)*4"), 44)
        self.assertEqual(ev.value("totalnumvgprs(8, 41)"), 52)
        self.assertEqual(ev.value("extrasgprs(1, 0, 1)"), 6)
        self.assertRaises(self.m.Unresolved, ev.value, "c")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    SCRIPT, DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
