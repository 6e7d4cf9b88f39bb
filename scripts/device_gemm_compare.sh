#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool): the GEMM correctness suite of the current tree,
# then the GEMM benchmark of two builds — .device/gemm_nvidia (this tree) and
# .device/gemm_nvidia_before (an earlier commit, built by scripts/build_device_gemm.sh --before
# <worktree>) — alternating, `rounds` times each, so both see the same clocks. Extra arguments go
# to both benchmarks (e.g. --benchmark_filter=8192). Full outputs go to $OUT.
#   usage: bash scripts/device_gemm_compare.sh <rounds> [benchmark arguments...]
set -euo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
rounds="$1"
shift
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
OUT="$out" bash scripts/device_gemm_test.sh || true  # (the benchmarks run either way)
for round in $(seq 1 "$rounds"); do
  for build in before after; do
    binary=.device/gemm_nvidia
    [ "$build" = before ] && binary=.device/gemm_nvidia_before
    "$binary" --benchmark_counters_tabular=true "$@" > "$out/gemm_${build}_${round}.txt" 2>&1
    echo "== $build, round $round"
    grep -E "^(hiptile|cublas)" "$out/gemm_${build}_${round}.txt" || true
  done
done
