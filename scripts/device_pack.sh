#!/usr/bin/env bash
# Runs one of the device scripts (scripts/device_gemm.sh, scripts/device_conv.sh, ...) with its
# outputs in a folder of their own, then packs that folder into $OUT/<name>.tgz: the device tool
# brings back at most 8 files, and the two scripts together write more. Its exit status is the
# script's.
#   (device tool) run "bash scripts/device_pack.sh gemm scripts/device_gemm.sh --benchmark_filter=...", carry [".device"]
set -uo pipefail
name="$1"
shift
out="${OUT:-/tmp}"
work="$(mktemp -d)"
OUT="$work" bash "$@"
status=$?
tar czf "$out/$name.tgz" -C "$work" .
exit "$status"
