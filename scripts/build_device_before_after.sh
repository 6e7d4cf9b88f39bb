#!/usr/bin/env bash
# Builds here (nvcc, no GPU) what scripts/device_before_after.sh runs on the lent NVIDIA machine,
# into .device/ for the device tool to carry: this tree's GEMM, convolution and back-to-back GEMM
# tests and the GEMM and convolution benchmarks, the benchmarks of an earlier checkout (suffix
# _before), cuDNN's timing script and Debian's Google Benchmark library.
#   usage: scripts/build_device_before_after.sh <checkout of the earlier commit>
#   then:  (device tool) run "bash scripts/device_before_after.sh 2", carry [".device"]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
before="$1"
(cd "$before" && cmake --preset nvidia >/dev/null && cmake --build --preset nvidia --target gemm_nvidia conv_nvidia)
cmake --preset nvidia >/dev/null
cmake --build --preset nvidia --target gemm_nvidia_test conv_nvidia_test b2b_gemm_nvidia_test gemm_nvidia conv_nvidia
rm -rf .device
mkdir -p .device
cp "$before/build/nvidia/benchmark/gemm_nvidia" .device/gemm_nvidia_before
cp "$before/build/nvidia/benchmark/conv_nvidia" .device/conv_nvidia_before
cp build/nvidia/test/nvidia/gemm_nvidia_test build/nvidia/test/nvidia/conv_nvidia_test \
  build/nvidia/test/nvidia/b2b_gemm_nvidia_test build/nvidia/benchmark/gemm_nvidia build/nvidia/benchmark/conv_nvidia \
  benchmark/conv_cudnn.py .device/
cp "$(ldconfig -p | awk '/libbenchmark.so.1debian/ {print $NF; exit}')" .device/
ls -la .device
