#!/usr/bin/env python3
"""Self-test of scripts/perf_charts on the hand-written benchmark outputs in data/.

usage: perf_charts_test.py <path to perf_charts> <data dir>

The fixtures are in the producers' formats (Google Benchmark JSON of gemm_nvidia.cu and
conv_nvidia.cu, conv_cudnn.py's JSON) with round TFLOPS, so that every expected ratio below is
worked out by hand from them:

gemm_nvidia.json (f16)
  1024×1024×1024  cuBLAS 200; Gemm 100, StreamK 110, StreamK128x128x64 120
                  default 100 / 200 = 0.500, best StreamK128x128x64 120 / 200 = 0.600
  4096×4096×4096  cuBLAS 700, Gemm 560; later cuBLAS again at 640, Tile128x128x64 544, Tile128x256x64 576
                  default 560 / 700 = 0.800; the tiles pair with the cuBLAS run just before them:
                  544 / 640 = 0.850, 576 / 640 = 0.900 (best; against 700 it would be 0.823)
  4096×4096×512   cuBLAS 400, Gemm 300 (StreamK reported an error): default 0.750, no best
  1000×1000×1000  cuBLAS 160; Gemm 80, StreamK 96, StreamK on 66 workgroups 120
                  default 80 / 160 = 0.500, best StreamK(grid=66) 120 / 160 = 0.750
  16×4096×4096    hiptile only: not charted, named on stderr
gemm_nvidia_repetitions.json (three repetitions with aggregates, 2048×2048×2048)
  cuBLAS 600, 620, 670 (median 620, mean 630); Gemm 290, 310, 350 (median 310, mean 316.67)
  medians: 310 / 620 = 0.500 (means would give 0.503, first runs 0.483, last runs 0.522)
conv_nvidia.json with conv_cudnn.json
  L1 fprop   cuDNN 270: default 189 = 0.700, best t128x128x64_w64x32_s4 216 = 0.800
  L1 dgrad   cuDNN 200: default 150 = 0.750 (one variant: no best)
  L1 wgrad   cuDNN 160: default 4 = 0.025, split_k 56 = 0.350 (best), split_k_serial 48 = 0.300
  L4 fprop   cuDNN 250: default 200 = 0.800
  L4 dgrad   cuDNN 125: default 100 = 0.800 (best; t256x128x64_w64x64_s4 90 = 0.720; the row-division
             variants _beta0 110 and _beta1 120 are not candidates)
  L4 wgrad   cuDNN only: not charted, named on stderr
gemm_nvidia_no_cublas.json: hiptile runs only, nothing to pair: exit 2.
"""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None
DATA = None

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

GEMM_ROWS = {
    ("1024×1024×1024", "default"): ("Gemm", 100.0, 200.0, 0.500),
    ("1024×1024×1024", "best"): ("StreamK128x128x64", 120.0, 200.0, 0.600),
    ("4096×4096×4096", "default"): ("Gemm", 560.0, 700.0, 0.800),
    ("4096×4096×4096", "best"): ("Tile128x256x64", 576.0, 640.0, 0.900),
    ("4096×4096×512", "default"): ("Gemm", 300.0, 400.0, 0.750),
    ("1000×1000×1000", "default"): ("Gemm", 80.0, 160.0, 0.500),
    ("1000×1000×1000", "best"): ("StreamK(grid=66)", 120.0, 160.0, 0.750),
}
REPETITION_ROWS = {("2048×2048×2048", "default"): ("Gemm", 310.0, 620.0, 0.500)}
CONV_ROWS = {
    ("L1_3x3_64to64_56/fprop", "default"): ("default", 189.0, 270.0, 0.700),
    ("L1_3x3_64to64_56/fprop", "best"): ("t128x128x64_w64x32_s4", 216.0, 270.0, 0.800),
    ("L1_3x3_64to64_56/dgrad", "default"): ("default", 150.0, 200.0, 0.750),
    ("L1_3x3_64to64_56/wgrad", "default"): ("default", 4.0, 160.0, 0.025),
    ("L1_3x3_64to64_56/wgrad", "best"): ("split_k", 56.0, 160.0, 0.350),
    ("L4_3x3s2_256to256_28/fprop", "default"): ("default", 200.0, 250.0, 0.800),
    ("L4_3x3s2_256to256_28/dgrad", "default"): ("default", 100.0, 125.0, 0.800),
    ("L4_3x3s2_256to256_28/dgrad", "best"): ("default", 100.0, 125.0, 0.800),
}
IMAGES = ["gemm_f16_tflops.png", "gemm_f16_ratio.png", "conv_f16_tflops.png", "conv_f16_ratio.png"]


def data(name):
    return os.path.join(DATA, name)


def run(*args):
    proc = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, check=False,
                          encoding="utf-8")
    return proc.returncode, proc.stdout, proc.stderr


def table_rows(out):
    """{(group, bar): (variant, hiptile, vendor, ratio)} of the plain text tables perf_charts prints."""
    rows = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 6 and fields[1] in ("default", "best"):
            group, bar, variant, hiptile, vendor, ratio = fields
            rows[(group, bar)] = (variant, float(hiptile), float(vendor), float(ratio))
    return rows


def load_module():
    sys.dont_write_bytecode = True  # no __pycache__ next to the script in the source tree
    loader = importlib.machinery.SourceFileLoader("perf_charts", SCRIPT)
    spec = importlib.util.spec_from_loader("perf_charts", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Charts(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.TemporaryDirectory()
        self.addCleanup(self.out.cleanup)

    def written(self):
        return sorted(os.listdir(self.out.name)) if os.path.isdir(self.out.name) else []

    def assertRows(self, out, expected):
        rows = table_rows(out)
        self.assertEqual(sorted(rows), sorted(expected), out)
        for key, (variant, hiptile, vendor, ratio) in expected.items():
            self.assertEqual(rows[key][0], variant, key)
            self.assertAlmostEqual(rows[key][1], hiptile, places=2, msg=key)
            self.assertAlmostEqual(rows[key][2], vendor, places=2, msg=key)
            self.assertAlmostEqual(rows[key][3], ratio, places=3, msg=key)

    def test_gemm_and_conv_give_four_non_empty_pngs_and_a_markdown_snippet(self):
        rc, out, err = run("--gemm", data("gemm_nvidia.json"), "--conv", data("conv_nvidia.json"),
                           "--cudnn", data("conv_cudnn.json"), "--out", self.out.name, "--title-suffix", "fixture")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.written(), sorted(IMAGES))
        for name in IMAGES:
            with open(os.path.join(self.out.name, name), "rb") as f:
                content = f.read()
            self.assertTrue(content.startswith(PNG_SIGNATURE), name)
            self.assertGreater(len(content), 10000, name)  # axes, bars and labels, not a blank canvas
        links = [line for line in out.splitlines() if line.startswith("![")]
        self.assertEqual([line[line.index("](") + 2:-1] for line in links], ["images/" + name for name in IMAGES])
        self.assertTrue(all("fixture" in line for line in links), links)

    def test_gemm_ratios_are_the_hand_computed_ones(self):
        rc, out, err = run("--gemm", data("gemm_nvidia.json"), "--out", self.out.name)
        self.assertEqual(rc, 0, err)
        self.assertRows(out, GEMM_ROWS)
        self.assertEqual(self.written(), ["gemm_f16_ratio.png", "gemm_f16_tflops.png"])

    def test_a_hiptile_shape_without_cublas_is_named_on_stderr_and_not_charted(self):
        rc, out, err = run("--gemm", data("gemm_nvidia.json"), "--out", self.out.name)
        self.assertEqual(rc, 0, err)
        self.assertIn("16×4096×4096", err)
        self.assertNotIn("16×4096×4096", out)

    def test_repetitions_count_as_their_median(self):
        rc, out, err = run("--gemm", data("gemm_nvidia_repetitions.json"), "--out", self.out.name)
        self.assertEqual(rc, 0, err)
        self.assertRows(out, REPETITION_ROWS)

    def test_aggregates_alone_give_the_same_medians(self):
        with open(data("gemm_nvidia_repetitions.json"), encoding="utf-8") as f:
            document = json.load(f)
        document["benchmarks"] = [b for b in document["benchmarks"] if b["run_type"] == "aggregate"]
        path = os.path.join(self.out.name, "aggregates_only.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f)
        rc, out, err = run("--gemm", path, "--out", os.path.join(self.out.name, "images"))
        self.assertEqual(rc, 0, err)
        self.assertRows(out, REPETITION_ROWS)

    def test_conv_ratios_are_the_hand_computed_ones(self):
        rc, out, err = run("--conv", data("conv_nvidia.json"), "--cudnn", data("conv_cudnn.json"),
                           "--out", self.out.name)
        self.assertEqual(rc, 0, err)
        self.assertRows(out, CONV_ROWS)
        self.assertIn("L4_3x3s2_256to256_28/wgrad", err)
        self.assertEqual(self.written(), ["conv_f16_ratio.png", "conv_f16_tflops.png"])


class Failures(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.TemporaryDirectory()
        self.addCleanup(self.out.cleanup)

    def assertFails(self, args, message):
        rc, out, err = run(*args, "--out", self.out.name)
        self.assertEqual(rc, 2, out + err)
        self.assertIn(message, err)
        self.assertEqual(os.listdir(self.out.name), [])
        self.assertNotIn("![", out)

    def test_a_gemm_file_without_cublas_runs_exits_2(self):
        self.assertFails(["--gemm", data("gemm_nvidia_no_cublas.json")], "no shape has both a cuBLAS run")

    def test_one_unpairable_input_fails_the_whole_run(self):
        self.assertFails(["--gemm", data("gemm_nvidia_no_cublas.json"), "--conv", data("conv_nvidia.json"),
                          "--cudnn", data("conv_cudnn.json")], "nothing to chart")

    def test_a_missing_file_exits_2(self):
        self.assertFails(["--gemm", data("no_such_file.json")], "no such file")

    def test_a_file_that_is_not_json_exits_2(self):
        self.assertFails(["--gemm", os.path.abspath(__file__)], "not JSON")

    def test_the_cudnn_json_given_as_benchmark_json_exits_2(self):
        self.assertFails(["--gemm", data("conv_cudnn.json")], "no 'benchmarks' array")

    def test_benchmark_json_given_as_cudnn_json_exits_2(self):
        self.assertFails(["--conv", data("conv_nvidia.json"), "--cudnn", data("conv_nvidia.json")],
                         "no 'results' array")

    def test_conv_without_cudnn_exits_2(self):
        self.assertFails(["--conv", data("conv_nvidia.json")], "--conv and --cudnn go together")


class Names(unittest.TestCase):
    def test_gemm_names_give_library_variant_type_and_shape(self):
        parse = load_module().parse_gemm_name
        self.assertEqual(tuple(parse("BM_Cublas/16/4096/4096/0/iterations:20/manual_time")),
                         ("cuBLAS", "", "f16", (16, 4096, 4096)))
        self.assertEqual(tuple(parse("BM_Hiptile<StreamK>/3000/3000/3000/144/iterations:20/manual_time")),
                         ("hiptile", "StreamK(grid=144)", "f16", (3000, 3000, 3000)))
        self.assertEqual(tuple(parse("BM_Hiptile<Tile128x256x64>/4096/4096/4096/iterations:20/manual_time")),
                         ("hiptile", "Tile128x256x64", "f16", (4096, 4096, 4096)))
        self.assertIsNone(parse("BM_Other/1/2/3"))
        self.assertIsNone(parse("BM_Cublas/iterations:20"))

    def test_a_type_token_makes_another_family_with_its_own_default(self):
        module = load_module()
        run = module.parse_gemm_name("BM_Hiptile<GemmBf16>/1024/1024/1024/0/iterations:20/manual_time")
        self.assertEqual(run.element, "bf16")
        pairs = [module.Pair(run.variant, 100, 200), module.Pair("Tile128x128x64", 120, 200)]
        is_default = module.default_gemm_test(pairs)
        self.assertTrue(is_default(run.variant))
        self.assertFalse(is_default("Tile128x128x64"))

    def test_default_gemm_runs_are_the_default_where_a_shape_has_them(self):
        module = load_module()
        run = module.parse_gemm_name("BM_HiptileDefault/512/512/8192/0/iterations:20/manual_time")
        self.assertEqual(tuple(run), ("hiptile", "DefaultGemm", "f16", (512, 512, 8192)))
        tf32 = module.parse_gemm_name("BM_HiptileTf32/4096/4096/4096/0/iterations:20/manual_time")
        self.assertEqual(tuple(tf32), ("hiptile", "", "tf32", (4096, 4096, 4096)))
        # DefaultGemm 100, the fixed configuration 30, against cuBLAS 200: the default bar is 0.500.
        pairs = [module.Pair("Gemm", 30, 200), module.Pair("DefaultGemm", 100, 200)]
        row = module.make_row("512×512×8192", pairs, module.default_gemm_test(pairs))
        self.assertEqual(row.default.variant, "DefaultGemm")
        self.assertEqual(row.best.variant, "DefaultGemm")
        # Without a DefaultGemm run the fixed configuration is the default.
        only_fixed = [module.Pair("Gemm", 30, 200), module.Pair("StreamK", 60, 200)]
        self.assertEqual(module.make_row("x", only_fixed, module.default_gemm_test(only_fixed)).default.variant, "Gemm")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    SCRIPT, DATA = sys.argv[1:3]
    unittest.main(argv=sys.argv[:1], verbosity=2)
