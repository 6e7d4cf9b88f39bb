#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool), from the repository root, with what
# scripts/build_device_before_after.sh put in .device/ (carry it): one call that checks a change to
# the layers every operator shares did not make GEMM or convolution slower, and times the
# persistent convolutions beside cuDNN.
#  1. correctness: gemm_nvidia_test (8 shards), conv_nvidia_test, b2b_gemm_nvidia_test;
#  2. GEMM: the benchmark of the earlier build (.device/gemm_nvidia_before) and of this one,
#     alternating, `rounds` times, on GEMM_FILTER;
#  3. convolution: Fprop and Dgrad, default and find mode (`tuned`), earlier and this build
#     alternating, `rounds` times; the persistent variants and the tensor-copy tiles they are made
#     of likewise (part "persistent"), with cuDNN (PyTorch) on the same layers before and after.
# Full outputs go to $OUT; the last lines are the tables. Exit status: the first failure's.
# A second argument runs one part (check, gemm, conv or persistent), so the whole fits two calls.
#   usage: bash scripts/device_before_after.sh <rounds> [part]
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
export PYTHONUNBUFFERED=1
out="${OUT:-/tmp}"
rounds="${1:-2}"
part="${2:-all}"
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
gemm_filter="${GEMM_FILTER:-8192|4096/4096/4096|2048/2048}"
conv_filter='/(fprop|dgrad)/(default|tuned)/'
persistent_filter='/(fprop|dgrad)/(persistent|tma_t128x64x64|tma_t128x64x64_persistent|tma_t128x64x64_s3|tma_t128x64x64_s3_persistent|tma_t128x128x64_s3|tma_t128x128x64_s3_persistent)/'
status=0
failed() { echo "$1 failed (exit $2)"; [ "$status" -ne 0 ] || status=$2; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.txt"

if want check; then
  OUT="$out" bash scripts/device_gemm_test.sh > "$out/gemm_test_summary.txt" 2>&1 || failed gemm_nvidia_test $?
  tail -1 "$out/gemm_test_summary.txt"
  .device/conv_nvidia_test > "$out/conv_nvidia_test.txt" 2>&1 || failed conv_nvidia_test $?
  grep -E "FAIL|persistent" "$out/conv_nvidia_test.txt" | head -20
  tail -1 "$out/conv_nvidia_test.txt"
  .device/b2b_gemm_nvidia_test > "$out/b2b_gemm_nvidia_test.txt" 2>&1 || failed b2b_gemm_nvidia_test $?
  tail -1 "$out/b2b_gemm_nvidia_test.txt"
fi

python=python3
"$python" -c 'import torch' 2>/dev/null || python=/opt/torch/.venv/bin/python3
for round in $(seq 1 "$rounds"); do
  for build in before after; do
    suffix=""
    [ "$build" = before ] && suffix=_before
    if want gemm; then
      ".device/gemm_nvidia$suffix" --benchmark_counters_tabular=true --benchmark_filter="$gemm_filter" \
        > "$out/gemm_${build}_${round}.txt" 2>&1 || failed "gemm_nvidia$suffix" $?
    fi
    if want conv; then
      ".device/conv_nvidia$suffix" --benchmark_filter="$conv_filter" --benchmark_out_format=json \
        --benchmark_out="$out/conv_${build}_${round}.json" > "$out/conv_${build}_${round}.txt" 2>&1 ||
        failed "conv_nvidia$suffix" $?
    fi
  done
done
if want persistent; then
  "$python" .device/conv_cudnn.py "$out/conv_cudnn_before.json" > "$out/conv_cudnn_before.txt" 2>&1 ||
    failed conv_cudnn.py $?
  for round in $(seq 1 "$rounds"); do
    for build in before after; do
      suffix=""
      [ "$build" = before ] && suffix=_before
      ".device/conv_nvidia$suffix" --benchmark_filter="$persistent_filter" --benchmark_out_format=json \
        --benchmark_out="$out/conv_persistent_${build}_${round}.json" > "$out/conv_persistent_${build}_${round}.txt" \
        2>&1 || failed "conv_nvidia$suffix" $?
    done
  done
  "$python" .device/conv_cudnn.py "$out/conv_cudnn.json" > "$out/conv_cudnn.txt" 2>&1 || failed conv_cudnn.py $?
fi

# Tables: GEMM TFLOPS per round and build; convolution TFLOPS per layer, operator and variant
# (before / after per round, the persistent ones), cuDNN before and after, and after/cuDNN.
"$python" - "$out" "$rounds" <<'EOF'
import json, os, sys
out, rounds = sys.argv[1], int(sys.argv[2])

def gemm(path):
    """The benchmark's rows (hiptile and cuBLAS) as printed."""
    return [line.rstrip() for line in open(path) if line.startswith(("hiptile", "cublas"))]

print("== GEMM (rows as printed; compare TFLOPS columns before/after)")
for r in range(1, rounds + 1):
    for b in ("before", "after"):
        p = f"{out}/gemm_{b}_{r}.txt"
        if os.path.exists(p):
            for line in gemm(p):
                print(f"{b:6} {r} {line}")

def conv(path):
    """(layer, operator, variant) -> TFLOPS of a conv_nvidia JSON output."""
    d = {}
    if not os.path.exists(path):
        return d
    for b in json.load(open(path)).get("benchmarks", []):
        parts = b["name"].split("/")
        if parts[0] == "conv" and not b.get("error_occurred"):
            d[(parts[1], parts[2], parts[3])] = b.get("TFLOPS")
    return d

runs = {(b, r): {**conv(f"{out}/conv_{b}_{r}.json"), **conv(f"{out}/conv_persistent_{b}_{r}.json")}
        for b in ("before", "after") for r in range(1, rounds + 1)}
keys = sorted(set(k for d in runs.values() for k in d))
print("== convolution TFLOPS: layer operator variant | before rounds | after rounds")
for k in keys:
    before = [runs[("before", r)].get(k) for r in range(1, rounds + 1)]
    after = [runs[("after", r)].get(k) for r in range(1, rounds + 1)]
    fmt = lambda v: "-" if v is None else f"{v:.1f}"
    print(f"{k[0]:24} {k[1]:5} {k[2]:30} | {' '.join(map(fmt, before))} | {' '.join(map(fmt, after))}")
EOF
if want persistent; then
  echo "cuDNN (before the persistent runs, then after):"
  tail -n 25 "$out/conv_cudnn_before.txt"
  tail -n 25 "$out/conv_cudnn.txt"
fi
exit "$status"
