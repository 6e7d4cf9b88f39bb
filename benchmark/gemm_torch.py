#!/usr/bin/env python3
"""PyTorch's 8-bit GEMMs on the lent H100, the baselines benchmark/gemm_nvidia.cu's fp8 and int8
hiptile GEMMs are set beside (scripts/device_gemm.sh runs both in one device call):

  fp8   torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=torch.float16): A (M×K) e4m3fn row-major,
        B (K×N) e4m3fn column-major (b = b_nk.t()), per-tensor scales of 1; cuBLASLt underneath
  int8  torch._int_mm(a, b): A (M×K) int8 row-major, B (K×N) int8 column-major, int32 out
  bmm   torch.bmm(a, b) on a mixture-of-experts layer with equal token counts: 16,384 tokens over E
        experts, a (E × 16384/E × 2048) f16, b (E × 2048 × 4096) f16 with each expert's K×N
        column-major, f16 out — the baseline of gemm_nvidia.cu's grouped GEMM besides its cuBLAS loop

The same layouts and output types as hiptile's Fp8Gemm (D f16) and Int8Gemm (D int32). Timing as
gemm_nvidia.cu's: warm-up calls, then `repetitions` loops of `reps` calls between CUDA events;
the time of one call is the median loop's time / reps; TFLOPS (or TOPS) = 2·M·N·K / time.

Usage: gemm_torch.py OUT.json [--repetitions 20]
Prints one line per (operation, shape) and writes the same numbers as JSON to OUT.json.
"""
import argparse
import json
import statistics

import torch

FP8_SHAPES = [(8192, 8192, 8192), (4096, 14336, 4096)]
INT8_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
MOE_EXPERTS = [8, 64]
MOE_TOKENS, MOE_N, MOE_K = 16384, 4096, 2048


def time_call(call, flops, repetitions):
    """Median seconds of one call, over `repetitions` loops of about a millisecond or more."""
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    reps = max(1, int(2e11 / flops))
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(repetitions):
        start.record()
        for _ in range(reps):
            call()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3 / reps)
    return statistics.median(times)


def random_bytes(rows, columns, dtype):
    """rows × columns of random bytes viewed as dtype, NaN codes excluded as gemm_nvidia.cu does."""
    raw = torch.randint(0, 256, (rows, columns), dtype=torch.int32, device="cuda") & 0xBF
    return raw.to(torch.uint8).view(dtype)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--repetitions", type=int, default=20)
    args = parser.parse_args()
    torch.manual_seed(0)
    results = []
    one = torch.ones((), device="cuda", dtype=torch.float32)
    for m, n, k in FP8_SHAPES:
        a = random_bytes(m, k, torch.float8_e4m3fn)
        b = random_bytes(n, k, torch.float8_e4m3fn).t()  # K×N, column-major
        flops = 2.0 * m * n * k
        seconds = time_call(lambda: torch._scaled_mm(a, b, one, one, out_dtype=torch.float16), flops,
                            args.repetitions)
        results.append({"op": "scaled_mm_e4m3_f16", "m": m, "n": n, "k": k, "seconds": seconds,
                        "tflops": flops / seconds / 1e12})
    for m, n, k in INT8_SHAPES:
        a = random_bytes(m, k, torch.int8)
        b = random_bytes(n, k, torch.int8).t()
        flops = 2.0 * m * n * k
        seconds = time_call(lambda: torch._int_mm(a, b), flops, args.repetitions)
        results.append({"op": "int_mm_i32", "m": m, "n": n, "k": k, "seconds": seconds,
                        "tflops": flops / seconds / 1e12})
    for experts in MOE_EXPERTS:
        m = MOE_TOKENS // experts
        a = torch.rand((experts, m, MOE_K), device="cuda", dtype=torch.float16) * 2 - 1
        b = (torch.rand((experts, MOE_N, MOE_K), device="cuda", dtype=torch.float16) * 2 - 1).transpose(1, 2)
        flops = 2.0 * MOE_TOKENS * MOE_N * MOE_K
        seconds = time_call(lambda: torch.bmm(a, b), flops, args.repetitions)
        results.append({"op": "bmm_f16_experts_%d" % experts, "m": m, "n": MOE_N, "k": MOE_K, "batch": experts,
                        "seconds": seconds, "tflops": flops / seconds / 1e12})
    for r in results:
        print("%-20s %5dx%5dx%5d  %8.1f us  %7.1f TFLOPS" % (r["op"], r["m"], r["n"], r["k"], r["seconds"] * 1e6,
                                                            r["tflops"]))
    with open(args.out, "w") as f:
        json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(), "results": results}, f,
                  indent=1)


if __name__ == "__main__":
    main()
