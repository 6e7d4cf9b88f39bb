#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with the binaries that
# scripts/build_device_gemm.sh put in .device/ (carry it): first the GEMM correctness suite, then
# the GEMM benchmark beside cuBLAS, then PyTorch's fp8 and int8 GEMMs (gemm_torch.py, the baselines
# of the benchmark's 8-bit GEMMs; GEMM_TORCH=0 skips them). Full outputs go to $OUT. The benchmarks
# run even when the suite fails; the exit status is then 1.
set -euo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
status=0
OUT="$out" bash scripts/device_gemm_test.sh || status=1
.device/gemm_nvidia --benchmark_out="$out/gemm_nvidia.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true "$@" 2>&1 | tee "$out/gemm_nvidia.txt"
if [ "${GEMM_TORCH:-1}" != 0 ]; then
  python=python3
  "$python" -c 'import torch' 2>/dev/null || python=/opt/torch/.venv/bin/python3
  "$python" .device/gemm_torch.py "$out/gemm_torch.json" 2>&1 | tee "$out/gemm_torch.txt"
fi
exit "$status"
