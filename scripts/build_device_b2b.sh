#!/usr/bin/env bash
# Builds the nvidia back-to-back GEMM test and benchmark here (nvcc, no GPU) and gathers them, with
# Debian's Google Benchmark library, in .device/ for the device tool to carry:
#   scripts/build_device_b2b.sh && (device tool) run "bash scripts/device_b2b.sh", carry [".device"]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --preset nvidia >/dev/null
cmake --build --preset nvidia --target b2b_gemm_nvidia_test b2b_nvidia
mkdir -p .device
cp build/nvidia/test/nvidia/b2b_gemm_nvidia_test build/nvidia/benchmark/b2b_nvidia .device/
cp "$(ldconfig -p | awk '/libbenchmark.so.1debian/ {print $NF; exit}')" .device/
ls -la .device
