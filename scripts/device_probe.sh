#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool) with .device/ carried: the main-loop probes of
# benchmark/gemm_nvidia_probe.cu at 8192³ and 4096³, then Nsight Compute on the probes PROBE_SKIP
# names (by default the double-buffered 256×128×32 one) with per-instruction stall sampling.
# Outputs to $OUT.
set -uo pipefail
out="${OUT:-/tmp}"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv
.device/gemm_probe 8192 | tee "$out/probe.txt"
.device/gemm_probe 4096 | tee -a "$out/probe.txt"
cuobjdump -sass .device/gemm_probe > "$out/probe.sass"
# 4096³: 3 warm-ups + 50 timed launches per probe; PROBE_SKIP names the launches to profile
# (53 · probe index).
for skip in ${PROBE_SKIP:-212}; do
  ncu --clock-control none --set full --import-source yes -k regex:probe_kernel --launch-skip "$skip" \
    --launch-count 1 -o "/tmp/ncu$skip" .device/gemm_probe 4096 > /dev/null
  ncu -i "/tmp/ncu$skip.ncu-rep" --page details > "$out/ncu${skip}_details.txt"
  ncu -i "/tmp/ncu$skip.ncu-rep" --page source --csv --print-source sass > "$out/ncu${skip}_source.csv"
  grep -E "Duration|Tensor|Issue Slots Busy|Warp Cycles Per Issued|L2 Cache Throughput|DRAM Throughput|Memory Throughput|Achieved Occupancy|Bank" "$out/ncu${skip}_details.txt"
done
ls -la "$out"
