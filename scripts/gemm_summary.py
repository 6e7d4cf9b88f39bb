#!/usr/bin/env python3
"""One line per benchmark of benchmark/gemm_nvidia.cu's JSON output (--benchmark_out): its median
time, TFLOPS, ratio to the cuBLAS run of the same shape where there is one (vs_cublas), the host's
time to enqueue one run (host_us) and its label
(DefaultGemm's choice). With gemm_torch.py's JSON as a second argument, PyTorch's lines follow.
scripts/device_gemm.sh's outputs, read here or on the device:

  scripts/gemm_summary.py gemm_nvidia.json [gemm_torch.json]
"""
import json
import sys


def main():
    benchmarks = json.load(open(sys.argv[1]))["benchmarks"]
    for b in benchmarks:
        if b.get("error_occurred"):
            print(f"{b['name']:72s} error: {b.get('error_message', '')}")
            continue
        name = b["name"].replace("/iterations:20/manual_time", "")
        ratio = b.get("vs_cublas")
        ratio_text = f"{ratio:6.3f}" if ratio is not None else "      "
        host = b.get("host_us")
        host_text = f"host {host:6.1f} us" if host is not None else ""
        print(f"{name:72s} {b['real_time']:10.1f} us {b.get('TFLOPS', 0):8.1f} {ratio_text}  {host_text}  {b.get('label', '')}")
    if len(sys.argv) > 2:
        for row in json.load(open(sys.argv[2]))["results"]:
            print("torch", " ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
