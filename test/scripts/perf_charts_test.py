#!/usr/bin/env python3
"""Self-test of scripts/perf_charts on the hand-written benchmark outputs in data/.

usage: perf_charts_test.py <path to perf_charts> <data dir>

The fixtures are in the producers' formats (Google Benchmark JSON of gemm_nvidia.cu and
conv_nvidia.cu, gemm_torch.py's and conv_cudnn.py's JSON) with round TFLOPS, so that every
expected ratio below is worked out by hand from them:

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
gemm_nvidia_8bit.json with gemm_torch.json (--torch)
  f16   2048×2048×2048   cuBLAS 400, Gemm 300: default 0.750, the same with and without --torch
  fp8   8192×8192×8192   torch._scaled_mm 1200, Fp8Gemm 900: default 900 / 1200 = 0.750
                         (one variant: no best)
        4096×14336×4096  torch._scaled_mm 1000, Fp8Gemm 800: default 800 / 1000 = 0.800
  int8  4096×4096×4096   torch._int_mm 800: default Int8Gemm 600 / 800 = 0.750, best Int8MmaSync
                         720 / 800 = 0.900 (Int8Wgmma128x256s3 480 / 800 = 0.600)
        3000×3000×3008   Int8DefaultGemm 500 only: not charted, named on stderr
        8192×8192×8192   torch._int_mm 1000 only: not charted, named on stderr
  bmm_f16_experts_8 and _64 (2048×4096×2048, 256×4096×2048) are not per-shape GEMMs: left out silently.
  With a BM_CublasInt8 run of 960 TFLOPS at 4096×4096×4096 added before Int8Gemm, the cuBLAS run
  is the partner (it ran last before them; the torch result counts as run before everything):
  default 600 / 960 = 0.625, best 720 / 960 = 0.750.
  Without --torch the 8-bit runs have no partner: named on stderr, only the f16 chart is drawn.
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
F16_8BIT_ROWS = {("2048×2048×2048", "default"): ("Gemm", 300.0, 400.0, 0.750)}
FP8_ROWS = {
    ("8192×8192×8192", "default"): ("Fp8Gemm", 900.0, 1200.0, 0.750),
    ("4096×14336×4096", "default"): ("Fp8Gemm", 800.0, 1000.0, 0.800),
}
INT8_ROWS = {
    ("4096×4096×4096", "default"): ("Int8Gemm", 600.0, 800.0, 0.750),
    ("4096×4096×4096", "best"): ("Int8MmaSync", 720.0, 800.0, 0.900),
}
INT8_CUBLAS_ROWS = {
    ("4096×4096×4096", "default"): ("Int8Gemm", 600.0, 960.0, 0.625),
    ("4096×4096×4096", "best"): ("Int8MmaSync", 720.0, 960.0, 0.750),
}
GEMM_8BIT_IMAGES = ["gemm_f16_ratio.png", "gemm_f16_tflops.png", "gemm_fp8_ratio.png", "gemm_fp8_tflops.png",
                    "gemm_int8_ratio.png", "gemm_int8_tflops.png"]
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


def chart_tables(out):
    """{chart title: its table's lines} of perf_charts's stdout, the header lines first."""
    tables = {}
    lines = None
    for line in out.splitlines():
        if ": TFLOPS, ratio = hiptile / " in line:
            lines = tables.setdefault(line.split(":")[0], [line])
        elif not line:
            lines = None
        elif lines is not None:
            lines.append(line)
    return tables


def load_module():
    sys.dont_write_bytecode = True  # no __pycache__ next to the script in the source tree
    loader = importlib.machinery.SourceFileLoader("perf_charts", SCRIPT)
    spec = importlib.util.spec_from_loader("perf_charts", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class ChartTest(unittest.TestCase):
    """A test with an output folder and a check of the printed rows."""

    def setUp(self):
        self.out = tempfile.TemporaryDirectory()
        self.addCleanup(self.out.cleanup)

    def assertRows(self, out, expected):
        rows = table_rows(out)
        self.assertEqual(sorted(rows), sorted(expected), out)
        for key, (variant, hiptile, vendor, ratio) in expected.items():
            self.assertEqual(rows[key][0], variant, key)
            self.assertAlmostEqual(rows[key][1], hiptile, places=2, msg=key)
            self.assertAlmostEqual(rows[key][2], vendor, places=2, msg=key)
            self.assertAlmostEqual(rows[key][3], ratio, places=3, msg=key)


class Charts(ChartTest):
    def written(self):
        return sorted(os.listdir(self.out.name)) if os.path.isdir(self.out.name) else []

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


class TorchBaselines(ChartTest):
    def charts(self, *inputs, out=None):
        """perf_charts's tables per chart title, and its stderr, on --gemm and --torch `inputs`."""
        rc, stdout, err = run(*inputs, "--out", out or self.out.name)
        self.assertEqual(rc, 0, err)
        return {title: "\n".join(lines) for title, lines in chart_tables(stdout).items()}, err

    def test_fp8_and_int8_ratios_are_the_hand_computed_ones_against_torch(self):
        tables, err = self.charts("--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("gemm_torch.json"))
        self.assertEqual(sorted(tables), ["GEMM f16", "GEMM fp8", "GEMM int8"])
        self.assertRows(tables["GEMM fp8"], FP8_ROWS)
        self.assertRows(tables["GEMM int8"], INT8_ROWS)
        self.assertRows(tables["GEMM f16"], F16_8BIT_ROWS)
        self.assertNotIn("bmm", err)

    def test_the_tables_name_torch_as_the_vendor_of_fp8_and_int8_only(self):
        tables, _ = self.charts("--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("gemm_torch.json"))
        headers = {title: lines.splitlines()[:2] for title, lines in tables.items()}
        self.assertEqual(headers["GEMM fp8"][0], "GEMM fp8: TFLOPS, ratio = hiptile / torch._scaled_mm (cuBLASLt)")
        self.assertEqual(headers["GEMM fp8"][1].split()[4:], ["torch._scaled_mm", "(cuBLASLt)", "ratio"])
        self.assertEqual(headers["GEMM int8"][0], "GEMM int8: TFLOPS, ratio = hiptile / torch._int_mm")
        self.assertEqual(headers["GEMM int8"][1].split()[4:], ["torch._int_mm", "ratio"])
        self.assertEqual(headers["GEMM f16"][0], "GEMM f16: TFLOPS, ratio = hiptile / cuBLAS")

    def test_the_8bit_charts_are_pngs(self):
        self.charts("--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("gemm_torch.json"))
        self.assertEqual(sorted(os.listdir(self.out.name)), GEMM_8BIT_IMAGES)
        for name in GEMM_8BIT_IMAGES:
            with open(os.path.join(self.out.name, name), "rb") as f:
                content = f.read()
            self.assertTrue(content.startswith(PNG_SIGNATURE), name)
            self.assertGreater(len(content), 10000, name)

    def test_shapes_on_one_side_only_are_named_on_stderr(self):
        tables, err = self.charts("--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("gemm_torch.json"))
        self.assertIn("8192×8192×8192 int8", err)  # torch._int_mm only
        self.assertIn("torch._int_mm result in " + data("gemm_torch.json"), err)
        self.assertIn("3000×3000×3008 int8", err)  # Int8DefaultGemm only
        self.assertNotIn("8192×8192×8192", tables["GEMM int8"])
        self.assertNotIn("3000×3000×3008", tables["GEMM int8"])

    def test_the_f16_chart_is_the_same_with_and_without_torch(self):
        without = os.path.join(self.out.name, "without")
        with_torch = os.path.join(self.out.name, "with")
        tables, err = self.charts("--gemm", data("gemm_nvidia_8bit.json"), out=without)
        self.assertEqual(sorted(tables), ["GEMM f16"])
        self.assertEqual(sorted(os.listdir(without)), ["gemm_f16_ratio.png", "gemm_f16_tflops.png"])
        self.assertIn("8192×8192×8192 fp8 BM_Hiptile<Fp8Gemm>: no cuBLAS run", err)
        self.assertIn("4096×4096×4096 int8 BM_Hiptile<Int8MmaSync>: no cuBLAS run", err)
        with_tables, _ = self.charts("--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("gemm_torch.json"),
                                     out=with_torch)
        self.assertEqual(with_tables["GEMM f16"], tables["GEMM f16"])
        for name in ("gemm_f16_ratio.png", "gemm_f16_tflops.png"):
            with open(os.path.join(without, name), "rb") as a, open(os.path.join(with_torch, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def test_a_cublas_run_before_the_hiptile_runs_is_preferred_to_torch(self):
        with open(data("gemm_nvidia_8bit.json"), encoding="utf-8") as f:
            document = json.load(f)
        index = next(i for i, b in enumerate(document["benchmarks"]) if "<Int8Gemm>" in b["name"])
        cublas = dict(document["benchmarks"][index], TFLOPS=960.0, family_index=99,
                      name="BM_CublasInt8/4096/4096/4096/0/iterations:20/manual_time")
        cublas["run_name"] = cublas["name"]
        document["benchmarks"].insert(index, cublas)
        path = os.path.join(self.out.name, "gemm_cublas_int8.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f)
        tables, _ = self.charts("--gemm", path, "--torch", data("gemm_torch.json"),
                                out=os.path.join(self.out.name, "images"))
        self.assertRows(tables["GEMM int8"], INT8_CUBLAS_ROWS)


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

    def test_torch_without_gemm_exits_2(self):
        self.assertFails(["--torch", data("gemm_torch.json")], "--torch goes with --gemm")
        self.assertFails(["--torch", data("gemm_torch.json"), "--conv", data("conv_nvidia.json"),
                          "--cudnn", data("conv_cudnn.json")], "--torch goes with --gemm")

    def test_a_torch_file_that_is_not_json_exits_2(self):
        path = os.path.abspath(__file__)
        self.assertFails(["--gemm", data("gemm_nvidia_8bit.json"), "--torch", path], f"{path}: not JSON")

    def test_benchmark_json_given_as_torch_json_exits_2(self):
        self.assertFails(["--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("gemm_nvidia_8bit.json")],
                         f"{data('gemm_nvidia_8bit.json')}: no 'results' array")

    def test_the_cudnn_json_given_as_torch_json_exits_2(self):
        self.assertFails(["--gemm", data("gemm_nvidia_8bit.json"), "--torch", data("conv_cudnn.json")],
                         f"{data('conv_cudnn.json')}: results[0] has no op")

    def test_a_torch_result_without_its_shape_or_tflops_exits_2(self):
        with open(data("gemm_torch.json"), encoding="utf-8") as f:
            document = json.load(f)
        inputs = tempfile.TemporaryDirectory()  # not in --out, which must stay empty
        self.addCleanup(inputs.cleanup)
        path = os.path.join(inputs.name, "gemm_torch.json")
        for field, value in (("k", None), ("m", "4096"), ("n", True), ("tflops", None)):
            entry = dict(document["results"][2])  # int_mm_i32 4096×4096×4096
            if value is None:
                del entry[field]
            else:
                entry[field] = value
            with open(path, "w", encoding="utf-8") as f:
                json.dump(dict(document, results=document["results"][:2] + [entry]), f)
            with self.subTest(field=field, value=value):
                self.assertFails(["--gemm", data("gemm_nvidia_8bit.json"), "--torch", path],
                                 f"{path}: results[2] (int_mm_i32) lacks integer m, n, k or numeric tflops")


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
