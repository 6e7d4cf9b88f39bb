#!/usr/bin/env python3
"""Checks that each MFMA atom kernel (mfma_atom_kernels.cpp) issues exactly its atom's instruction.

usage: mfma_atom_isa_test.py <isa_report> <arch/mfma.hpp> <gfx942|gfx90a> <mfma_atom_kernels.s>

The expected instruction of each atom is its kMnemonic in arch/mfma.hpp, read from the header's
text (each atom is `struct <Name> : MfmaAtomBase<...> { kMnemonic = "..."; ...; kOnGfx90a = ...; }`).
The ISA comes from `isa_report --json`. The test fails when
  - an atom of the header has no kernel in the ISA (all atoms on gfx942; kOnGfx90a ones on gfx90a),
    or the ISA has a kernel for an atom the header does not define or that the arch lacks;
  - a kernel has any MFMA other than exactly one of its atom's instruction;
  - a kernel has scratch, spills or calls (a single MFMA needs none).
gfx90a's assembler spells the six MI200 instructions the pre-gfx940 way (v_mfma_f32_32x32x8f16,
v_mfma_f32_32x32x8bf16_1k, ...); GFX90A_SPELLING maps kMnemonic, which is the gfx940+ spelling.
"""

import json
import re
import subprocess
import sys

# kMnemonic (gfx940+ syntax) -> the same instruction as LLVM prints it for gfx90a.
GFX90A_SPELLING = {
    "v_mfma_f32_32x32x8_f16": "v_mfma_f32_32x32x8f16",
    "v_mfma_f32_16x16x16_f16": "v_mfma_f32_16x16x16f16",
    "v_mfma_f32_32x32x8_bf16": "v_mfma_f32_32x32x8bf16_1k",
    "v_mfma_f32_16x16x16_bf16": "v_mfma_f32_16x16x16bf16_1k",
    "v_mfma_f32_32x32x2_f32": "v_mfma_f32_32x32x2f32",
    "v_mfma_f32_16x16x4_f32": "v_mfma_f32_16x16x4f32",
}

_ATOM = re.compile(r"struct\s+(\w+)\s*:\s*MfmaAtomBase<[^{]*\{(.*?)\n\};", re.S)


def header_atoms(path):
    """name -> (kMnemonic, kOnGfx90a) for every atom struct in arch/mfma.hpp."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    atoms = {}
    for m in _ATOM.finditer(text):
        body = m.group(2)
        mnemonic = re.search(r'kMnemonic\s*=\s*"([^"]+)"', body)
        on_gfx90a = re.search(r"kOnGfx90a\s*=\s*(true|false)", body)
        if not mnemonic or not on_gfx90a:
            raise SystemExit("cannot read kMnemonic/kOnGfx90a of %s in %s" % (m.group(1), path))
        atoms[m.group(1)] = (mnemonic.group(1), on_gfx90a.group(1) == "true")
    return atoms


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    isa_report, header, arch, asm = argv[1:]
    atoms = header_atoms(header)
    if len(atoms) < 18:
        print("FAIL: found only %d MFMA atoms in %s (expected at least 18): has the header's format changed?"
              % (len(atoms), header), file=sys.stderr)
        return 1
    wanted = {name for name, (_, on_gfx90a) in atoms.items() if arch != "gfx90a" or on_gfx90a}

    proc = subprocess.run([sys.executable, isa_report, "--json", asm], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(proc.stderr, file=sys.stderr)
        return 1
    kernels = json.loads(proc.stdout)

    failures = []
    seen = set()
    for k in kernels:
        m = re.search(r"MfmaAtomKernel<hiptile::arch::(\w+)>", k["display_name"])
        if not m:
            failures.append("kernel %s is not an MfmaAtomKernel" % k["display_name"])
            continue
        name = m.group(1)
        if name in seen:
            failures.append("%s: two kernels" % name)
        seen.add(name)
        if name not in atoms:
            failures.append("%s: the header defines no such atom" % name)
            continue
        if name not in wanted:
            failures.append("%s: has a kernel for %s, but the header says kOnGfx90a = false" % (name, arch))
        expected = atoms[name][0]
        if arch == "gfx90a":
            expected = GFX90A_SPELLING.get(expected, expected)
        if k["mfma"] != {expected: 1}:
            failures.append("%s: expected exactly one %s, the ISA has %s" % (name, expected, k["mfma"] or "no MFMA"))
        if k["arch"] != arch:
            failures.append("%s: compiled for %s, expected %s" % (name, k["arch"], arch))
        if k["scratch_bytes"] != 0 or k["dynamic_stack"] or k["vgpr_spills"] or k["sgpr_spills"] or k["calls"]:
            failures.append("%s: scratch %s, spills %s/%s, calls %s" % (
                name, k["scratch_bytes"], k["vgpr_spills"], k["sgpr_spills"], k["calls"]))
        else:
            print("%-20s %s" % (name, expected))
    for name in sorted(wanted - seen):
        failures.append("%s (%s): no kernel in %s" % (name, atoms[name][0], asm))

    for f in failures:
        print("FAIL: %s" % f, file=sys.stderr)
    if failures:
        return 1
    print("%d MFMA atom kernels on %s issue exactly their atom's instruction" % (len(seen), arch))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
