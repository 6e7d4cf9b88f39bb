#!/usr/bin/env bash
# Runs on the lent NVIDIA machine (device tool) with .device/ carried (scripts/build_device_conv.sh):
# find mode `search` (the benchmark's "tuned" variant, DefaultTunedConvolution) on the same layers
# in ROUNDS separate processes (default 2; each searches afresh: no tuning database), then, per
# layer and operator, the configuration each round chose and whether they agree (issue 35, item 6:
# search changed its choice between identical runs in 6 of 42 cases before its timing was
# interleaved). Extra arguments replace the benchmark filter (default: every layer's tuned variant).
#   scripts/device_find_stability.sh '--benchmark_filter=conv/(L|X).*/tuned/'
set -uo pipefail
export LD_LIBRARY_PATH="$PWD/.device:${LD_LIBRARY_PATH:-}"
out="${OUT:-/tmp}"
rounds="${ROUNDS:-2}"
filter=("${@:---benchmark_filter=conv/.*/tuned/}")
for r in $(seq 1 "$rounds"); do
  HIPTILE_TUNING_DB= .device/conv_nvidia "${filter[@]}" --benchmark_out="$out/find_round_$r.json" \
    --benchmark_out_format=json > "$out/find_round_$r.txt" 2>&1 || echo "round $r failed (exit $?)"
done
python3 - "$out" "$rounds" <<'EOF'
import json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
runs = []
for r in range(1, rounds + 1):
    try:
        bench = json.load(open(f"{out}/find_round_{r}.json"))["benchmarks"]
    except (OSError, ValueError):
        bench = []
    runs.append({b["name"].split("/iterations")[0]: (f'{b.get("label", "")}, {int(b.get("slices", 1))} slice(s)',
                                                     b.get("real_time")) for b in bench})
names = list(dict.fromkeys(n for run in runs for n in run))
same = 0
for name in names:
    labels = [run.get(name, ("-", None))[0] for run in runs]
    times = [run.get(name, ("-", None))[1] for run in runs]
    agree = len(set(labels)) == 1
    same += agree
    print(f"{'same' if agree else 'DIFF'}  {name:48s} " +
          "  ".join(f"{t:8.1f} us" if t else "       -" for t in times))
    if not agree:
        for r, label in enumerate(labels, 1):
            print(f"        round {r}: {label}")
print(f"\n{same} of {len(names)} choices the same in all {rounds} rounds")
EOF
