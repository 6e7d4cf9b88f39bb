#!/usr/bin/env bash
# Builds the nvidia GEMM test, benchmark and main-loop probes here (this machine has nvcc but no
# GPU) and gathers them, with Debian's Google Benchmark library, in .device/ for the device tool to
# carry:
#   scripts/build_device_gemm.sh && (device tool) run "bash scripts/device_gemm.sh", carry [".device"]
# With --before <checkout of an earlier commit>, it also builds that checkout's benchmark and adds
# it as .device/gemm_nvidia_before, for scripts/device_gemm_compare.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = --before ]; then
  (cd "$2" && cmake --preset nvidia >/dev/null && cmake --build --preset nvidia --target gemm_nvidia)
  mkdir -p .device
  cp "$2/build/nvidia/benchmark/gemm_nvidia" .device/gemm_nvidia_before
fi
cmake --preset nvidia >/dev/null
cmake --build --preset nvidia --target gemm_nvidia_test gemm_nvidia gemm_nvidia_probe
mkdir -p .device
cp build/nvidia/test/nvidia/gemm_nvidia_test build/nvidia/benchmark/gemm_nvidia benchmark/gemm_torch.py .device/
cp build/nvidia/benchmark/gemm_nvidia_probe .device/gemm_probe
cp "$(ldconfig -p | awk '/libbenchmark.so.1debian/ {print $NF; exit}')" .device/
ls -la .device
