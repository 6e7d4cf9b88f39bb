#!/usr/bin/env bash
# Runs on the lent NVIDIA machine: the GEMM correctness suite (.device/gemm_nvidia_test) in 8
# processes sharing the GPU (its host references take most of its time), their outputs joined in
# $OUT/gemm_nvidia_test.txt; prints the failures and the total. Exit status 1 if a case failed.
# Used by scripts/device_gemm.sh and scripts/device_verify.sh.
set -uo pipefail
out="${OUT:-/tmp}"
shards=8
for i in $(seq 0 $((shards - 1))); do
  .device/gemm_nvidia_test "" "$i" "$shards" > "$out/gemm_nvidia_test.$i.txt" 2>&1 &
done
wait
cat "$out"/gemm_nvidia_test.*.txt > "$out/gemm_nvidia_test.txt"
rm "$out"/gemm_nvidia_test.*.txt
grep FAILED "$out/gemm_nvidia_test.txt"
awk '/ passed, .* failed$/ {p += $1; f += $3} END {print "gemm_nvidia_test: " p " passed, " f " failed"; exit f > 0}' \
  "$out/gemm_nvidia_test.txt"
