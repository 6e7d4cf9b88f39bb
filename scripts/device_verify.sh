#!/usr/bin/env bash
# One device call that re-checks the NVIDIA kernels after a change to their defaults: both
# correctness suites (gemm_nvidia_test in 8 processes), DefaultConvolution's and find mode's Fprop
# beside cuDNN, and DefaultGemm beside cuBLAS on GEMM_SHAPES (default: the shapes whose choice
# changed last). Needs what scripts/build_device_gemm.sh and scripts/build_device_conv.sh put in
# .device/. Outputs in $OUT; a summary last. Exit status 1 if a suite failed.
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
status=0
stdbuf -oL .device/conv_nvidia_test > "$out/conv_nvidia_test.txt" 2>&1 || status=1
OUT="$out" bash scripts/device_gemm_test.sh || status=1
echo "conv_nvidia_test: $(tail -1 "$out/conv_nvidia_test.txt")"
.device/conv_nvidia --benchmark_filter='/fprop/(default|tuned)/' --benchmark_out="$out/conv_nvidia.json" \
  --benchmark_out_format=json > /dev/null 2>&1 || status=1
python=python3
"$python" -c 'import torch' 2>/dev/null || python=/opt/torch/.venv/bin/python3
"$python" .device/conv_cudnn.py "$out/conv_cudnn.json" > /dev/null 2>&1 || status=1
python3 - "$out/conv_nvidia.json" "$out/conv_cudnn.json" <<'PY'
import json, sys
cudnn = {(r["layer"], r["operator"]): r["tflops"] for r in json.load(open(sys.argv[2]))["results"]}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    layer, op, variant = b["name"].split("/")[1:4]
    c = cudnn.get((layer, op))
    print(f"{layer:24s} {op} {variant:8s} {b['TFLOPS']:7.1f} cuDNN {c:7.1f} ratio {b['TFLOPS'] / c:5.2f}  {b.get('label', '')[60:120]}")
PY
GEMM_SHAPES="${GEMM_SHAPES:-4096x4096x512,2048x2048x256,3000x3000x3000,1000x1000x1000}" .device/gemm_nvidia \
  --benchmark_filter='^BM_(Cublas|HiptileDefault)/[0-9]+/[0-9]+/[0-9]+/0/iterations' --benchmark_out="$out/gemm_nvidia.json" \
  --benchmark_out_format=json > /dev/null 2>&1 || status=1
python3 .device/gemm_summary.py "$out/gemm_nvidia.json" | head -8
exit "$status"
