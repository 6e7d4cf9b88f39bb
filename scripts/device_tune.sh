#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with the binary that
#   cmake --preset nvidia && cmake --build --preset nvidia --target tuned_nvidia
# built and that is copied with Debian's Google Benchmark library into .device/ (carry it):
# find mode's choice and the heuristic's against an exhaustive sweep (benchmark/tuned_nvidia.cu).
set -euo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
.device/tuned_nvidia --benchmark_out="$out/tuned_nvidia.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true "$@" 2>&1 | tee "$out/tuned_nvidia.txt"
