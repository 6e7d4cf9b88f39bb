#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with .device/ carried:
# scripts/build_device_conv.sh's binaries and an earlier build's benchmark beside them as
# .device/conv_nvidia_before. One call that times a change to the direct (depthwise) convolution:
#  1. correctness: conv_nvidia_test (every case; its depthwise ones against the reference);
#  2. the earlier and this build's benchmark on FILTER (default: the depthwise layers' default,
#     direct and register-staged variants), alternating, `rounds` times;
#  3. cuDNN (PyTorch) on the same layers;
#  4. a table: per layer, operator and variant, the median µs of each build, after/before, and
#     cuDNN's µs over this build's (the speed against cuDNN, > 1 faster).
# Full outputs go to $OUT. Exit status: the first failure's.
#   usage: bash scripts/device_depthwise.sh [rounds]
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1
out="${OUT:-/tmp}"
rounds="${1:-2}"
filter="${FILTER:-conv/D[0-9]_[^/]*/[a-z]*/(default|depthwise|depthwise_registers)/}"
status=0
failed() { echo "$1 failed (exit $2)"; [ "$status" -ne 0 ] || status=$2; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
.device/conv_nvidia_test > "$out/conv_nvidia_test.txt" 2>&1 || failed conv_nvidia_test $?
tail -3 "$out/conv_nvidia_test.txt"
for round in $(seq 1 "$rounds"); do
  for build in before after; do
    binary=.device/conv_nvidia
    [ "$build" = before ] && binary=.device/conv_nvidia_before
    "$binary" --benchmark_filter="$filter" --benchmark_out="$out/${build}_$round.json" \
      --benchmark_out_format=json > "$out/${build}_$round.txt" 2>&1 || failed "$binary" $?
  done
done
python=python3
"$python" -c 'import torch' 2>/dev/null || python=/opt/torch/.venv/bin/python3
"$python" .device/conv_cudnn.py "$out/cudnn.json" --filter "${CUDNN_FILTER:-D}" > "$out/cudnn.txt" 2>&1 ||
  failed conv_cudnn.py $?
"$python" - "$out" "$rounds" <<'EOF' | tee "$out/depthwise_table.txt"
import json, os, statistics, sys

out, rounds = sys.argv[1], int(sys.argv[2])
times = {}  # (build, layer, operator, variant) -> [µs]
for build in ("before", "after"):
    for r in range(1, rounds + 1):
        path = os.path.join(out, f"{build}_{r}.json")
        if not os.path.exists(path):
            continue
        for b in json.load(open(path))["benchmarks"]:
            parts = b["name"].split("/")
            if b.get("error_occurred") or len(parts) < 4:
                continue
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b.get("time_unit", "ns")]
            times.setdefault((build, parts[1], parts[2], parts[3]), []).append(b["real_time"] * scale)
cudnn = {}
if os.path.exists(os.path.join(out, "cudnn.json")):
    for r in json.load(open(os.path.join(out, "cudnn.json")))["results"]:
        cudnn[(r["layer"], r["operator"])] = r.get("us")
keys = sorted({k[1:] for k in times})
print(f"{'layer':22} {'op':6} {'variant':22} {'before us':>10} {'after us':>10} {'after/before':>12} {'cuDNN us':>9} {'cuDNN/after':>11}")
for layer, op, variant in keys:
    before = times.get(("before", layer, op, variant))
    after = times.get(("after", layer, op, variant))
    b = statistics.median(before) if before else None
    a = statistics.median(after) if after else None
    c = cudnn.get((layer, op))
    fmt = lambda x, width: f"{x:{width}.1f}" if x else "-".rjust(width)
    ratio = f"{a / b:12.2f}" if a and b else "-".rjust(12)
    vs = f"{c / a:11.2f}" if a and c else "-".rjust(11)
    print(f"{layer:22} {op:6} {variant:22} {fmt(b, 10)} {fmt(a, 10)} {ratio} {fmt(c, 9)} {vs}")
EOF
exit $status
