#!/usr/bin/env python3
"""cuDNN (through PyTorch) on the layers of benchmark/conv_nvidia.cu (seven of ResNet-50, four with
channel counts off the 64 grid, four depthwise): Fprop, Dgrad
and Wgrad of each, f16 in channels_last (NHWC) tensors, N = 32, the baseline that
scripts/device_conv.sh sets beside hiptile.

Each operator is one call of exactly the wanted computation:
  fprop  torch.nn.functional.conv2d(x, w)
  dgrad  aten.convolution_backward(dy, x, w, ..., output_mask = (True, False, False)): dx only
  wgrad  aten.convolution_backward(dy, x, w, ..., output_mask = (False, True, False)): dw only
(torch.nn.grad.conv2d_input and conv2d_weight call the same op with the same masks but pass an
expanded, stride-0 stand-in for the tensor they do not need; here both are real channels_last
tensors, so the memory format PyTorch picks for cuDNN does not hinge on how it reads a stand-in's
strides.) No bias gradient, no autograd graph.

--api nn_grad times Dgrad and Wgrad through torch.nn.grad.conv2d_input / conv2d_weight instead, as
a user who reaches for those functions does; --heuristic leaves torch.backends.cudnn.benchmark off
(PyTorch's default: cuDNN's heuristic picks the algorithm, no search). The baseline hiptile is
compared with is the default (convolution_backward, with the search); the others show what a
PyTorch user gets by the other routes.

Timing: torch.backends.cudnn.benchmark = True (unless --heuristic), warm-up calls (which also run cuDNN's algorithm
search), then `repetitions` timed loops of `reps` calls between CUDA events; the time of one call is
the median loop's time / reps, as conv_nvidia.cu reports it. TFLOPS = 2 · MACs / time; TB/s = the
operator's least DRAM traffic (its two inputs read, its output written, once) / time.

--profile runs each selected operator once more after its timing, between cudaProfilerStart and
cudaProfilerStop, so `ncu --profile-from-start off` sees only cuDNN's kernels of that one call
(scripts/device_profile_conv.sh).

Usage: conv_cudnn.py OUT.json [--repetitions 20] [--filter SUBSTRING] [--operator OP] [--api nn_grad]
                     [--heuristic] [--profile]
Prints one line per (layer, operator) and writes the same numbers as JSON to OUT.json.
"""
import argparse
import json
import statistics
import sys

import torch
import torch.nn.functional as F

BATCH = 32
# name, H = W, C, K, R = S, stride, padding[, groups]: the list and names of conv_nvidia.cu's kLayers.
LAYERS = [
    ("L1_3x3_64to64_56", 56, 64, 64, 3, 1, 1),
    ("L2_1x1s2_256to128_56", 56, 256, 128, 1, 2, 0),
    ("L3_3x3_128to128_28", 28, 128, 128, 3, 1, 1),
    ("L4_3x3s2_256to256_28", 28, 256, 256, 3, 2, 1),
    ("L5_3x3_512to512_14", 14, 512, 512, 3, 1, 1),
    ("L6_1x1s2_1024to2048_14", 14, 1024, 2048, 1, 2, 0),
    ("L7_3x3s2_64to64_224", 224, 64, 64, 3, 2, 1),
    ("X1_3x3_96to96_56", 56, 96, 96, 3, 1, 1),
    ("X2_5x5_160to160_28", 28, 160, 160, 5, 1, 2),
    ("X3_3x3s2_224to224_28", 28, 224, 224, 3, 2, 1),
    ("X4_3x3_320to320_14", 14, 320, 320, 3, 1, 1),
    ("D1_dw3x3_144_56", 56, 144, 144, 3, 1, 1, 144),
    ("D2_dw3x3s2_144_56", 56, 144, 144, 3, 2, 1, 144),
    ("D3_dw5x5_240_28", 28, 240, 240, 5, 1, 2, 240),
    ("D4_dw7x7_192_28", 28, 192, 192, 7, 1, 3, 192),
    ("S1_7x7s2_3to64_224", 224, 3, 64, 7, 2, 3),
    ("S2_3x3s2_3to32_224", 224, 3, 32, 3, 2, 1),
    ("S3_4x4s4_3to96_224", 224, 3, 96, 4, 4, 0),
    ("S4_16x16s16_3to768_224", 224, 3, 768, 16, 16, 0),
    ("G1_3x3_128g32_56", 56, 128, 128, 3, 1, 1, 32),
    ("G2_3x3_256g32_28", 28, 256, 256, 3, 1, 1, 32),
    ("G3_3x3s2_256g32_56", 56, 256, 256, 3, 2, 1, 32),
    ("G4_3x3_512g32_14", 14, 512, 512, 3, 1, 1, 32),
    ("G5_3x3_1024g32_7", 7, 1024, 1024, 3, 1, 1, 32),
]
OPERATORS = ("fprop", "dgrad", "wgrad")


def output_extent(size, rs, stride, pad):
    return (size + 2 * pad - rs) // stride + 1


def make_operator(op, x, w, dy, stride, pad, api, groups=1):
    """A closure that runs one operator once and returns its result."""
    strides, pads, dilations = [stride, stride], [pad, pad], [1, 1]
    if op == "fprop":
        return lambda: F.conv2d(x, w, None, stride, pad, 1, groups)
    if api == "nn_grad":
        if op == "dgrad":
            return lambda: torch.nn.grad.conv2d_input(x.shape, w, dy, stride, pad, 1, groups)
        return lambda: torch.nn.grad.conv2d_weight(x, w.shape, dy, stride, pad, 1, groups)
    mask = [True, False, False] if op == "dgrad" else [False, True, False]
    index = 0 if op == "dgrad" else 1

    def backward():
        return torch.ops.aten.convolution_backward(
            dy, x, w, None, strides, pads, dilations, False, [0, 0], groups, mask)[index]

    return backward


def time_operator(run, flops, repetitions):
    """Seconds per call: the median over `repetitions` loops of `reps` calls, CUDA-event timed."""
    with torch.no_grad():
        for _ in range(5):  # warm-up: cuDNN's algorithm search (cudnn.benchmark), clocks
            run()
        torch.cuda.synchronize()
        reps = max(1, int(2e11 / flops))  # about a millisecond of work or more, as conv_nvidia.cu
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        seconds = []
        for _ in range(repetitions):
            start.record()
            for _ in range(reps):
                run()
            stop.record()
            stop.synchronize()
            seconds.append(start.elapsed_time(stop) / 1e3 / reps)
    return statistics.median(seconds), reps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="JSON file to write")
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--filter", default="", help="run only layers whose name contains this")
    parser.add_argument("--api", choices=("backward", "nn_grad"), default="backward",
                        help="Dgrad and Wgrad through aten.convolution_backward or torch.nn.grad")
    parser.add_argument("--heuristic", action="store_true", help="cudnn.benchmark off: no algorithm search")
    parser.add_argument("--operator", choices=OPERATORS, help="run only this operator")
    parser.add_argument("--profile", action="store_true", help="one more call of each, inside cudaProfilerStart/Stop")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("conv_cudnn.py: no CUDA device")
    torch.backends.cudnn.benchmark = not args.heuristic
    torch.backends.cudnn.deterministic = False
    device = torch.device("cuda")
    generator = torch.Generator(device=device).manual_seed(1)

    def uniform(*shape):
        # Random data in [-1, 1): zeros run faster than real inputs.
        t = torch.rand(*shape, device=device, dtype=torch.float16, generator=generator) * 2 - 1
        return t.contiguous(memory_format=torch.channels_last)

    results = []
    print(f"{torch.cuda.get_device_name()}: torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
          f"api {args.api}, cudnn.benchmark {torch.backends.cudnn.benchmark}")
    for name, hw, c, k, rs, stride, pad, *rest in LAYERS:
        groups = rest[0] if rest else 1
        if args.filter not in name:
            continue
        pq = output_extent(hw, rs, stride, pad)
        x = uniform(BATCH, c, hw, hw)
        w = uniform(k, c // groups, rs, rs)
        dy = uniform(BATCH, k, pq, pq)
        macs = BATCH * pq * pq * k * rs * rs * (c // groups)
        flops = 2.0 * macs
        least_bytes = 2.0 * (x.numel() + w.numel() + dy.numel())  # f16: two inputs read, the output written
        for op in OPERATORS:
            if args.operator and op != args.operator:
                continue
            run = make_operator(op, x, w, dy, stride, pad, args.api, groups)
            with torch.no_grad():
                result = run()
            expected = {"fprop": dy, "dgrad": x, "wgrad": w}[op]
            # The result has the shape (and channels_last layout) of the tensor it stands for.
            assert result.shape == expected.shape, (name, op, result.shape, expected.shape)
            layout = "channels_last" if result.is_contiguous(memory_format=torch.channels_last) else "other"
            seconds, reps = time_operator(run, flops, args.repetitions)
            tflops = flops / seconds / 1e12
            tbps = least_bytes / seconds / 1e12
            results.append({"layer": name, "operator": op, "tflops": tflops, "tbps": tbps, "us": seconds * 1e6,
                            "reps": reps, "macs": macs, "output_layout": layout})
            print(f"{name:24s} {op:6s} {tflops:8.1f} TFLOPS {tbps:6.2f} TB/s {seconds * 1e6:10.1f} us  "
                  f"(reps {reps}, {layout})", flush=True)
            if args.profile:
                torch.cuda.synchronize()
                torch.cuda.cudart().cudaProfilerStart()
                with torch.no_grad():
                    run()
                torch.cuda.synchronize()
                torch.cuda.cudart().cudaProfilerStop()
        del x, w, dy
        torch.cuda.empty_cache()
    with open(args.out, "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "api": args.api,
                   "cudnn_benchmark": torch.backends.cudnn.benchmark,
                   "cudnn": torch.backends.cudnn.version(), "batch": BATCH, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
