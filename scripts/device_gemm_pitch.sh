#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool) with .device/ carried (scripts/build_device_gemm.sh):
# DefaultGemm beside cuBLAS on the benchmark's shapes and on short-K shapes, then the shapes whose K
# is not a multiple of 64 again with every row padded to 128 bytes (GEMM_LD_ALIGN=64), to separate
# the row pitch's cost from the shape's. JSON outputs and a summary (µs, ratio to cuBLAS) to $OUT.
set -euo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
summary() {
  python3 -c '
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    print(b["name"].split("/iter")[0], round(b["real_time"], 1), round(b.get("vs_cublas", 0), 3), b.get("label", ""))' "$1"
}
GEMM_SHAPES=4096x4096x256,2048x2048x512,3072x3072x768,8192x8192x512,8192x8192x1024,4096x11008x512,4096x4096x2048 \
  .device/gemm_nvidia --benchmark_filter='^BM_(Cublas|HiptileDefault)/' \
  --benchmark_out="$out/default.json" --benchmark_out_format=json > /dev/null 2>&1
echo "== packed rows"; summary "$out/default.json" | tee "$out/default.txt"
GEMM_LD_ALIGN=64 .device/gemm_nvidia --benchmark_filter='^BM_(Cublas|HiptileDefault)/(3000|1000|1496|257|5000|64)/' \
  --benchmark_out="$out/aligned.json" --benchmark_out_format=json > /dev/null 2>&1
echo "== rows padded to 64 elements"; summary "$out/aligned.json" | tee "$out/aligned.txt"
