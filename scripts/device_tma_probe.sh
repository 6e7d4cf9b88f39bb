#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool): where the tensor-copy loaders gain or lose against
# cp.async. Binaries in .device/: gemm_nvidia_before (cp.async loaders) and gemm_nvidia_exp (tensor
# copies, built with an L2-promotion knob read from HIPTILE_TMA_PROMOTION, 0-3 = none, 64, 128,
# 256 bytes; a temporary build of 2026-11-26, not in the repository). Then Nsight Compute's counters
# of one kernel of each on a small-M and a K = 3000 shape. Outputs go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
export GEMM_SHAPES=3072x3072x3000,3072x3072x3072
filter='^BM_HiptileDefault/(16/4096/4096|64/4096/4096|512/512/8192|3072/3072/30|4096/4096/4096)/'
summary() { grep -E '^BM_' "$1" | awk '{print $1, $2, $3}' | sed 's|/iterations:20/manual_time||'; }
for round in 1 2; do
  .device/gemm_nvidia_before --benchmark_filter="$filter" > "$out/before_$round.txt" 2>&1
  echo "== cp.async, round $round"; summary "$out/before_$round.txt"
  for p in 0 1 2 3; do
    HIPTILE_TMA_PROMOTION=$p .device/gemm_nvidia_exp --benchmark_filter="$filter" > "$out/tma_${p}_$round.txt" 2>&1
    echo "== tensor copies, L2 promotion $p, round $round"; summary "$out/tma_${p}_$round.txt"
  done
done
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
for shape in 16/4096/4096 3072/3072/3000 3072/3072/3072; do
  for binary in gemm_nvidia_before gemm_nvidia_exp; do
    echo "== ncu $binary $shape"
    ncu --clock-control none --kernel-name regex:kernel_entry --launch-skip 3 --launch-count 1 --metrics "$metrics" \
      .device/$binary --benchmark_filter="^BM_HiptileDefault/$shape/" 2>&1 | grep -E '^\s+(gpu__|dram__|lts__|sm__|l1tex__)'
  done
done
