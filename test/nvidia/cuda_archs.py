#!/usr/bin/env python3
"""Lists the GPU code an nvcc-built program carries, like `cuobjdump --list-elf --list-ptx`:
one line per image, "elf sm_90" for machine code (SASS) and "ptx sm_90" for PTX.

Uses cuobjdump when it is installed; otherwise reads the fat binaries in the program's
.nv_fatbin section itself (CUDA's fatbin container: a 16-byte header with magic 0xBA55ED50, then
entries whose header holds the kind at byte 0, its own size at 4, the payload size at 8 and the
SM version at 28), so the check also runs where the CUDA toolkit has no cuobjdump.

With --require sm_90 (repeatable) it exits 1 unless the program has machine code for each.
"""

import argparse
import re
import shutil
import struct
import subprocess
import sys

FATBIN_MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "elf"}


def elf_section(data, wanted):
    """Bytes of the named section of a 64-bit little-endian ELF file, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = []
    for i in range(shnum):
        name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        sections.append((name, offset, size))
    strtab_offset = sections[shstrndx][1]
    for name, offset, size in sections:
        end = data.index(b"\0", strtab_offset + name)
        if data[strtab_offset + name:end].decode() == wanted:
            return data[offset:offset + size]
    return None


def fatbin_images(blob):
    """(kind, sm) for every image of every fat binary in blob."""
    images, pos = [], 0
    while pos + 16 <= len(blob):
        magic, _, header_size, fat_size = struct.unpack_from("<IHHQ", blob, pos)
        if magic != FATBIN_MAGIC:
            pos += 8  # fat binaries start 8-byte aligned
            continue
        entry, end = pos + header_size, pos + header_size + fat_size
        while entry + 32 <= end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", blob, entry)
            sm, = struct.unpack_from("<I", blob, entry + 28)
            images.append((KINDS.get(kind, "kind%d" % kind), "sm_%d" % sm))
            if entry_header == 0:
                break
            entry += entry_header + payload
        pos = end
    return images


def with_cuobjdump(tool, path):
    images = []
    for option, kind in (("--list-elf", "elf"), ("--list-ptx", "ptx")):
        out = subprocess.run([tool, option, path], capture_output=True, text=True, check=False).stdout
        images += [(kind, m) for m in re.findall(r"\b(sm_\d+[a-z]?)\b", out)]
    return images


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("--require", action="append", default=[], metavar="SM",
                        help="fail unless the program has machine code (an ELF image) for SM, e.g. sm_90")
    args = parser.parse_args()

    tool = shutil.which("cuobjdump")
    if tool:
        images, how = with_cuobjdump(tool, args.program), "cuobjdump"
    else:
        with open(args.program, "rb") as f:
            data = f.read()
        section = elf_section(data, ".nv_fatbin")
        images, how = fatbin_images(section if section is not None else data), "the .nv_fatbin section"
    print("%s (read with %s):" % (args.program, how))
    for kind, sm in sorted(set(images)):
        print("  %s %s" % (kind, sm))
    missing = [sm for sm in args.require if ("elf", sm) not in images]
    if missing:
        print("FAIL: no machine code for %s in %s" % (", ".join(missing), args.program), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
