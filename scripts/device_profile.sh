#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool) with .device/ carried: Nsight Compute on one launch
# of one hiptile GEMM benchmark (the first timed launch after the 3 warm-ups), with per-instruction
# stall sampling, plus the probes of benchmark/gemm_nvidia_probe.cu for comparison. Outputs to $OUT:
# the details page, the per-instruction source page (CSV) and the probe timings. BINARY names
# another benchmark of .device/ (then the probes are skipped):
#   scripts/device_profile.sh 'BM_Hiptile<Tile256x128x64>/4096/4096/4096'
#   (LAUNCH_SKIP=N profiles the launch after N others, 3 unless set; CACHE=none keeps the caches as
#   the launches before left them, as in the benchmark's back-to-back runs, instead of flushing them)
#   BINARY=conv_nvidia scripts/device_profile.sh 'conv/L2_1x1s2_256to128_56/dgrad/default/'
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
filter="${1:-BM_Hiptile<Gemm>/4096/4096/4096}"
binary="${BINARY:-gemm_nvidia}"
[ "$binary" != gemm_nvidia ] || .device/gemm_probe 8192 | tee "$out/probe.txt"
ncu -f --clock-control none --cache-control "${CACHE:-all}" --set full --import-source yes -k regex:kernel_entry --launch-skip "${LAUNCH_SKIP:-3}" --launch-count 1 \
  -o /tmp/gemm ".device/$binary" --benchmark_filter="$filter" > /dev/null
ncu -i /tmp/gemm.ncu-rep --page details > "$out/details.txt"
ncu -i /tmp/gemm.ncu-rep --page source --csv --print-source sass > "$out/source.csv"
grep -E "Duration|Issue Slots Busy|Warp Cycles Per Issued|L2 Cache Throughput|Registers Per|excessive|highest-utilized" "$out/details.txt"
