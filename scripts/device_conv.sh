#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with what
# scripts/build_device_conv.sh put in .device/ (carry it): the convolution correctness suite, then
# hiptile's convolution benchmark, then cuDNN on the same layers (PyTorch; with CONV_CUDNN_BEFORE=1
# also before the benchmark), then a table of both (against the cuDNN run after).
# Full outputs go to $OUT. Extra arguments go to the hiptile benchmark (--benchmark_filter=...);
# CONV_CUDNN_FILTER=SUBSTRING times cuDNN on the layers whose names contain it only.
# Every step runs even if one before it failed; the exit status is the first failure's.
# CONV_TEST_TIMEOUT / CONV_BENCHMARK_TIMEOUT (seconds, default 600 / 500): a step that hangs is
# stopped there (exit 124) and the next runs.
set -euo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1
out="${OUT:-/tmp}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"
status=0
failed() { echo "$1 failed (exit $2)"; [ "$status" -ne 0 ] || status=$2; }
timeout "${CONV_TEST_TIMEOUT:-600}" .device/conv_nvidia_test 2>&1 | tee "$out/conv_nvidia_test.txt" || failed conv_nvidia_test $?
python=python3
"$python" -c 'import torch' 2>/dev/null || python=/opt/torch/.venv/bin/python3
# CONV_CUDNN_BEFORE=1: cuDNN also before hiptile's benchmark, to show how far it moves in one call.
if [ "${CONV_CUDNN_BEFORE:-0}" = 1 ]; then
  "$python" .device/conv_cudnn.py "$out/conv_cudnn_before.json" --filter "${CONV_CUDNN_FILTER:-}" 2>&1 |
    tee "$out/conv_cudnn_before.txt" ||
    failed conv_cudnn.py $?
fi
timeout "${CONV_BENCHMARK_TIMEOUT:-500}" .device/conv_nvidia --benchmark_out="$out/conv_nvidia.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true "$@" 2>&1 | tee "$out/conv_nvidia.txt" || failed conv_nvidia $?
"$python" .device/conv_cudnn.py "$out/conv_cudnn.json" --filter "${CONV_CUDNN_FILTER:-}" 2>&1 |
  tee "$out/conv_cudnn.txt" || failed conv_cudnn.py $?

# layer × operator: hiptile's default variant, cuDNN, and their ratio; then the strided-Dgrad
# RowDivision variants against the default of the same layer.
"$python" - "$out/conv_nvidia.json" "$out/conv_cudnn.json" <<'EOF' | tee "$out/conv_table.txt"
import json, os, sys

def load(path, key):
    return json.load(open(path))[key] if os.path.exists(path) else []

hiptile = {}  # (layer, operator, variant) -> TFLOPS
traffic = {}  # (layer, operator, variant) -> TB/s of the operator's least DRAM traffic
for b in load(sys.argv[1], "benchmarks"):
    parts = b["name"].split("/")  # conv/<layer>/<operator>/<variant>/iterations:20/manual_time
    if parts[0] != "conv" or b.get("error_occurred"):
        continue
    hiptile[(parts[1], parts[2], parts[3])] = b.get("TFLOPS")
    traffic[(parts[1], parts[2], parts[3])] = b.get("TBps")
results = load(sys.argv[2], "results")
cudnn = {(r["layer"], r["operator"]): r["tflops"] for r in results}
cudnn_traffic = {(r["layer"], r["operator"]): r.get("tbps") for r in results}

layers = list(dict.fromkeys([key[0] for key in hiptile] + [key[0] for key in cudnn]))
fmt = lambda v: "-" if v is None else f"{v:.1f}"
ratio = lambda h, c: f"{h / c:.2f}" if h and c else "-"
print(f"\n{'layer':24s} {'op':14s} {'hiptile':>8s} {'cuDNN':>8s} {'ratio':>6s} {'TB/s':>5s} {'cuDNN':>5s} "
      f"{'best':>8s} {'ratio':>6s}  best variant   (TFLOPS, and TB/s of the least DRAM traffic; hiptile = "
      "DefaultConvolution, best = the fastest variant, β = 0)")
tb = lambda v: "-" if v is None else f"{v:.2f}"
for layer in layers:
    for op in ("fprop", "dgrad", "wgrad"):
        for variant in ("default", "split_k", "split_k_serial"):
            h, c = hiptile.get((layer, op, variant)), cudnn.get((layer, op))
            if h is None and variant != "default":
                continue
            name = op if variant == "default" else op + "/" + variant
            row = (f"{layer:24s} {name:14s} {fmt(h):>8s} {fmt(c):>8s} {ratio(h, c):>6s} "
                   f"{tb(traffic.get((layer, op, variant))):>5s} {tb(cudnn_traffic.get((layer, op))):>5s}")
            if variant == "default":
                candidates = [(v, key[2]) for key, v in hiptile.items()
                              if key[0] == layer and key[1] == op and "beta" not in key[2] and v]
                if candidates:
                    best, best_name = max(candidates)
                    row += f" {fmt(best):>8s} {ratio(best, c):>6s}  {best_name}"
            print(row)
variants = [key for key in hiptile if key[1] == "dgrad" and key[2] != "default"]
if variants:
    print(f"\n{'layer':24s} {'dgrad variant':32s} {'TFLOPS':>8s} {'/default':>8s}   strided Dgrad, epilogue row division")
    for layer, op, variant in variants:
        v, d = hiptile[(layer, op, variant)], hiptile.get((layer, op, "default"))
        print(f"{layer:24s} {variant:32s} {fmt(v):>8s} {(f'{v / d:.3f}' if v and d else '-'):>8s}")
EOF
exit "$status"
