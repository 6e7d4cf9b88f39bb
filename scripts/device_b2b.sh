#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with the binaries that
# scripts/build_device_b2b.sh put in .device/ (carry it): the back-to-back GEMM's correctness suite,
# then its benchmark beside two cuBLAS GEMMs. Outputs go to $OUT; the benchmark runs even when the
# suite fails, and the exit status is then 1.
set -euo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
status=0
.device/b2b_gemm_nvidia_test 2>&1 | tee "$out/b2b_gemm_nvidia_test.txt" || status=1
.device/b2b_nvidia --benchmark_min_time=0.1 --benchmark_out="$out/b2b_nvidia.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true "$@" 2>&1 | tee "$out/b2b_nvidia.txt"
exit "$status"
