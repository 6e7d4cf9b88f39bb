#!/usr/bin/env python3
"""An MI300 build reads no NVIDIA code: compiles each source for gfx942 (host and device passes)
with -M and fails if any header it includes is NVIDIA-only — a header under a collective/nvidia/
folder, hiptile/nvidia.hpp, or one of the NVIDIA-only leaves listed below (their code is PTX,
cp.async, wgmma, the copy engine, or built only on them).

usage: nvidia_free_includes_test.py INCLUDE_DIR COMPILER [FLAG ...] -- SOURCE [SOURCE ...]
"""
import os
import subprocess
import sys

# The NVIDIA-only headers outside the collective/nvidia/ folders, relative to include/hiptile/.
NVIDIA_ONLY = {
    "nvidia.hpp",
    "arch/async_copy.hpp", "arch/ldmatrix.hpp", "arch/mma_sync.hpp", "arch/tensor_copy.hpp",
    "arch/tensor_map.hpp", "arch/warpgroup_mma.hpp", "arch/warpgroup_mma_instructions.hpp",
    "epilogue/staged_store_epilogue.hpp",
    "gemm/block/async_gathered_tile.hpp", "gemm/block/async_mn_tile_copy.hpp", "gemm/block/async_tile_copy.hpp",
    "gemm/block/swizzled_mn_lds_layout.hpp", "gemm/block/tensor_tile_copy.hpp",
    "gemm/mainloop/async_copy_mainloop.hpp", "gemm/mainloop/async_mainloop_for.hpp",
    "gemm/mainloop/async_stage_copies.hpp", "gemm/mainloop/tensor_stage_copies.hpp",
    "gemm/mainloop/warpgroup_mainloop.hpp", "gemm/mainloop/warp_specialized_mainloop.hpp",
    "gemm/kernel/warp_specialized_kernel.hpp",
    "gemm/wave/mma_sync_wave_mma.hpp", "gemm/wave/warpgroup_wave_mma.hpp",
    "conv/dgrad_tensor_copies.hpp", "conv/fprop_tensor_copies.hpp", "conv/wgrad_tensor_copies.hpp",
    "conv/tensor_maps.hpp",
}


def nvidia_only(relative):
    return relative in NVIDIA_ONLY or "/nvidia/" in "/" + relative


def main(argv):
    include = os.path.realpath(argv[0])
    split = argv.index("--")
    command, sources = argv[1:split], argv[split + 1:]
    missing = [h for h in NVIDIA_ONLY if not os.path.exists(os.path.join(include, "hiptile", h))]
    if missing:
        print("nvidia_free_includes_test: listed headers that do not exist (update the list):", *missing)
        return 1
    failed = False
    for source in sources:
        out = subprocess.run(command + ["-I", include, "-M", source], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"nvidia_free_includes_test: {source} does not compile:\n{out.stderr}")
            failed = True
            continue
        deps = set()
        for word in out.stdout.replace("\\\n", " ").split():
            path = os.path.realpath(word) if os.path.exists(word) else ""
            prefix = os.path.join(include, "hiptile") + os.sep
            if path.startswith(prefix):
                deps.add(path[len(prefix):])
        bad = sorted(h for h in deps if nvidia_only(h))
        print(f"{source}: {len(deps)} hiptile headers, NVIDIA-only: {', '.join(bad) if bad else 'none'}")
        failed |= bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
