#!/usr/bin/env python3
"""Tests of scripts/rank_check: its arithmetic on hand-worked cases, then the whole pipeline
(sim_counters -> rank_check) on the committed H100 measurements. The correlation it reports is a
finding (docs/timing_model.md), not asserted here.

    rank_check_test.py <scripts/rank_check> <sim_counters binary>
"""
import importlib.machinery
import importlib.util
import json
import math
import subprocess
import sys

SCRIPT, SIM = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader("rank_check", SCRIPT)
spec = importlib.util.spec_from_loader("rank_check", loader)
rc = importlib.util.module_from_spec(spec)
loader.exec_module(rc)

failures = []


def check(name, got, want, tol=1e-9):
    if abs(got - want) > tol * max(1.0, abs(want)):
        failures.append(f"{name}: got {got}, want {want}")


# Spearman: identical and reversed orders; a tie shares the average rank.
# x ranks 1..5, y = 5 6 7 8 7 ranks 1 2 3.5 5 3.5: sum dx*dy = 8, sum dx^2 = 10, sum dy^2 = 9.5.
check("rho of one order", rc.spearman([1, 2, 3], [10, 20, 30]), 1.0)
check("rho of reversed orders", rc.spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1.0)
check("rho with a tie", rc.spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]), 8 / math.sqrt(10 * 9.5))

# One configuration by hand: the H100's 128x128x64 tile of four 64x64 warps, 3 stages, 244
# registers, with counters of its simulator stand-in (128 MFMA 32x32x8, 96 LDS and 32 KiB of
# global reads per K tile; 32 KiB of D per tile), on 1024^3 (64 tiles of 16 K tiles).
cfg = {"tile": [128, 128, 64], "warp": [64, 64], "stages": 3, "registers": 244, "schedule": "dp"}
sim = {"tile": [128, 128, 64], "atom": "32x32x8",
       "per_k_tile": {"mfma": 128, "lds_instructions": 96, "lds_conflict_cycles": 0, "barriers": 1,
                      "global_bytes_read": 32768},
       "per_tile": {"global_bytes_written": 32768}}
p = rc.H100
# Residency: 128 threads; 3 stages of 256 x 64 halves + 1 KiB = 99,328 B -> 2 per 228 KiB;
# 128 x 244 registers -> 2 per 64 Ki.
check("resident blocks", rc.resident_blocks(cfg)[0], 2)
c = rc.block_costs(cfg, sim)
check("MMA cycles", c["mma"], 128 * 16384 / 2400)
# 512 mma.sync + 65,536 fragment bytes / 512 + 32,768 copied bytes / 512 + one barrier per warp, over 4.
check("issue cycles", c["issue"], (512 + 128 + 64 + 4) / 4)
check("shared-memory cycles", c["smem"], 96 * 1024 / 128)
check("L2 cycles", c["l2"], 32768 / 29.5)
# 64 tiles on 132 SMs: one wave, one block per SM. Per K tile the L2 copy (1,110.8 cycles) plus the
# barrier (20) and the first fragment (30); the global latency is covered by 2 tiles in flight.
busy = 32768 / 29.5
overhead = 500 + 30 + 2 * 32768 / 128 + 32768 / 29.5 + 500
cycles = 16 * (busy + 50) + overhead
seconds = cycles / 1.98e9 + 2e-6   # above the HBM bound (6 MiB at 3.35 TB/s: 1.9 us)
check("predicted time, 1024^3", rc.predict(cfg, sim, (1024, 1024, 1024), {"units": 0}), seconds)

# The pipeline on the committed measurements: every measured entry gets a prediction and ranks.
out = subprocess.run([SCRIPT, "--sim", SIM, "--json"], check=True, capture_output=True, text=True)
result = json.loads(out.stdout)
data = json.loads(rc.DATA.read_text())
entries = sum(len(row) for st in data["sets"] for row in st["measured"].values())
if len(result["rows"]) != entries:
    failures.append(f"pipeline: {len(result['rows'])} rows for {entries} measured entries")
if not all(r["predicted"] > 0 for r in result["rows"]):
    failures.append("pipeline: a prediction is not positive")
if not -1 <= result["overall"] <= 1:
    failures.append(f"pipeline: overall rho {result['overall']} is not a correlation")
# The stream-K schedules the simulator's operator code chose for the H100's grid, as the H100's
# run reported them (docs/performance.md, "NVIDIA H100: stream-K": shared tiles / units).
sched = json.loads(subprocess.run([SIM, "512x512x8192/128x128x64/264", "3000x3000x3000/256x128x64/132"],
                                  check=True, capture_output=True, text=True).stdout)["schedules"]
if [(s["sk_tiles"], s["units"]) for s in sched] != [(16, 192), (156, 132)]:
    failures.append(f"stream-K schedules {sched}")

for f in failures:
    print("FAILED:", f)
print(f"rank_check_test: {'failed' if failures else 'passed'}")
sys.exit(1 if failures else 0)
