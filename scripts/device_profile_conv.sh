#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool) with .device/ carried (scripts/build_device_conv.sh):
# Nsight Compute on one hiptile convolution launch per benchmark name given, and on the kernels of
# one cuDNN call of the same layer and operator, to see where the time of each goes. Outputs to
# $OUT: a details page per hiptile benchmark (hiptile_<i>.txt) and one per cuDNN call (cudnn_<i>.txt).
#   scripts/device_profile_conv.sh conv/L2_1x1s2_256to128_56/dgrad/wgmma_t128x128x64/ ...
# Each name's layer and operator (the second and third fields) pick the cuDNN call. LAUNCHES=n
# profiles n consecutive hiptile launches (2: a strided Dgrad's TaplessClassFill and its GEMM);
# CUDNN=0 skips cuDNN; SOURCE=1 also writes each hiptile launch's SASS with its executed instructions
# and stall samples (hiptile_<i>.csv, Nsight Compute's source page).
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
python=python3
"$python" -c 'import torch' 2>/dev/null || python=/opt/torch/.venv/bin/python3
summary='Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Registers Per|Block Size|Grid Size|Achieved Occupancy|Theoretical Occupancy|Dynamic Shared'
i=0
for name in "$@"; do
  i=$((i + 1))
  ncu -f --clock-control none --set full -k regex:kernel_entry --launch-skip 6 --launch-count "${LAUNCHES:-1}" \
    -o /tmp/hiptile_$i .device/conv_nvidia --benchmark_filter="$name" > /dev/null
  ncu -i /tmp/hiptile_$i.ncu-rep --page details > "$out/hiptile_$i.txt"
  [ "${SOURCE:-0}" = 1 ] && ncu -i /tmp/hiptile_$i.ncu-rep --page source --csv > "$out/hiptile_$i.csv"
  echo "== hiptile $name"; grep -E "^  [a-zA-Z_]|$summary" "$out/hiptile_$i.txt" | cut -c1-200
  [ "${CUDNN:-1}" = 1 ] || continue
  layer=$(echo "$name" | cut -d/ -f2) operator=$(echo "$name" | cut -d/ -f3)
  ncu -f --clock-control none --set full --profile-from-start off -o /tmp/cudnn_$i \
    "$python" .device/conv_cudnn.py /tmp/cudnn_$i.json --filter "$layer" --operator "$operator" --repetitions 3 \
    --profile > /dev/null
  ncu -i /tmp/cudnn_$i.ncu-rep --page details > "$out/cudnn_$i.txt"
  echo "== cuDNN $layer $operator"; grep -E "^  [a-zA-Z_]|$summary" "$out/cudnn_$i.txt"
done
