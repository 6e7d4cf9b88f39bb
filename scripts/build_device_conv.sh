#!/usr/bin/env bash
# Builds the nvidia convolution test and benchmark here (this machine has nvcc but no GPU) and
# gathers them, with Debian's Google Benchmark library and the cuDNN timing script, in .device/ for
# the device tool to carry:
#   scripts/build_device_conv.sh && (device tool) run "bash scripts/device_conv.sh", carry [".device"]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --preset nvidia >/dev/null
cmake --build --preset nvidia --target conv_nvidia_test conv_nvidia
mkdir -p .device
cp build/nvidia/test/nvidia/conv_nvidia_test build/nvidia/benchmark/conv_nvidia benchmark/conv_cudnn.py .device/
cp "$(ldconfig -p | awk '/libbenchmark.so.1debian/ {print $NF; exit}')" .device/
ls -la .device
