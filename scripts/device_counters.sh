#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with binaries in .device/
# (scripts/build_device_gemm.sh, scripts/build_device_conv.sh): Nsight Compute's counters for the
# kernels of chosen benchmarks, to see where a slow shape's time goes (DRAM bytes and throughput,
# tensor-pipe and SM activity, occupancy and its limiter). The clocks are left alone
# (--clock-control none), as the device tool's METHOD.md asks.
#
#   scripts/device_counters.sh 'conv_nvidia|conv/L2_1x1s2_256to128_56/dgrad/default/|kernel_entry' ...
#
# Each argument is BINARY|BENCHMARK_FILTER|KERNEL_REGEX: the benchmark in .device/BINARY, the Google
# Benchmark filter that selects one benchmark, and which of its kernels to profile (a regex on the
# demangled name; "." for every kernel, e.g. cuBLAS's). The first 2 matching launches are skipped
# (warm-up), the next 2 profiled. The summary goes to stdout and $OUT/counters.txt, the raw CSV to
# /tmp/counters_<n>.csv.
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,\
sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,\
launch__registers_per_thread,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,\
launch__waves_per_multiprocessor,lts__t_sector_hit_rate.pct
python=python3
"$python" -c 'import csv' 2>/dev/null || python=/opt/torch/.venv/bin/python3
n=0
for spec in "$@"; do
  IFS='|' read -r binary filter kernels <<<"$spec"
  n=$((n + 1))
  csv="/tmp/counters_$n.csv"
  echo "== $binary $filter (kernels: $kernels)"
  "$ncu" --clock-control none --csv --page raw --metrics "$metrics" -k "regex:$kernels" --launch-skip 2 \
    --launch-count 2 ".device/$binary" --benchmark_filter="$filter" >"$csv" 2>"$csv.err" || tail -3 "$csv.err"
  "$python" - "$csv" <<'EOF'
import csv, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
rows = list(csv.DictReader(lines))
if not rows:
    print("  (no kernel profiled)")
for r in rows[1:]:  # rows[0] holds the units
    name = r.get("Kernel Name", "")[:90]
    g = lambda k: r.get(k, "").replace(",", "")
    print(f"  {name}")
    print(f"    {float(g('gpu__time_duration.sum') or 0) / 1e3:9.1f} us  grid {g('launch__grid_size')} x "
          f"{g('launch__block_size')}  regs {g('launch__registers_per_thread')}  waves/SM "
          f"{g('launch__waves_per_multiprocessor')}  limit smem/regs {g('launch__occupancy_limit_shared_mem')}/"
          f"{g('launch__occupancy_limit_registers')}")
    print(f"    DRAM read {float(g('dram__bytes_read.sum') or 0) / 1e6:8.1f} MB  write "
          f"{float(g('dram__bytes_write.sum') or 0) / 1e6:8.1f} MB  DRAM {g('dram__throughput.avg.pct_of_peak_sustained_elapsed')}%"
          f"  SM {g('sm__throughput.avg.pct_of_peak_sustained_elapsed')}%  tensor "
          f"{g('sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed')}%  warps active "
          f"{g('sm__warps_active.avg.pct_of_peak_sustained_active')}%  L2 hit {g('lts__t_sector_hit_rate.pct')}%")
EOF
done 2>&1 | tee "$out/counters.txt"
