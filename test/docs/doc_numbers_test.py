#!/usr/bin/env python3
"""The numbers README.md and docs/ give for the shipped defaults, against the headers.

default_facts (default_facts.cpp) prints what the defaults are, one `key value` line each, from the
headers' own types. CLAIMS below names, for every sentence of the docs that states a default (tile,
wave tile, warps or waves, threads, stages, LDS bytes, LDS layout, atom, ...), a regular expression
that captures the stated values and the fact each captured value must equal. The test fails, naming
the file, the line and both values, when a documented value differs from the headers, when a claim's
expression matches nothing (a reworded sentence must update its entry here, so that no default can
be described without being checked) or when an entry names a fact the program does not print.

Usage: doc_numbers_test.py --facts-program build/sim/test/docs/default_facts --root .
       doc_numbers_test.py --facts facts.txt --root .      (facts printed earlier)
"""
import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Number words the docs use for counts ("four waves", "one stage").
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "sixteen": 16}


def to_int(text):
    """A documented count: digits with thousands separators (',', spaces) or a number word."""
    word = text.strip().lower()
    if word in WORDS:
        return WORDS[word]
    return int(re.sub(r"[,\s\u2009\u202f\u00a0]", "", text))


def to_shape(text):
    """'128×128×32', '128 × 128 × 32', '128x128x32' or 'GemmShape<128, 128, 32>' as '128x128x32'."""
    text = re.sub(r"GemmShape<([^>]*)>", r"\1", text)
    parts = [p for p in re.split(r"[×x,\s]+", text.strip()) if p]
    return "x".join(str(int(p)) for p in parts)


def squash(text):
    """Text whose line breaks and runs of spaces count as one space."""
    return re.sub(r"\s+", " ", text.strip())


# How a captured value is compared with its fact: (documented text, fact) -> (documented, expected)
# as comparable values.
KINDS = {
    "int": lambda doc, fact: (to_int(doc), int(fact)),
    "kib": lambda doc, fact: (to_int(doc) * 1024, int(fact)),  # "16 KiB", "192 KB" (the docs mean KiB)
    "shape": lambda doc, fact: (to_shape(doc), fact),
    "m": lambda doc, fact: (to_int(doc), int(fact.split("x")[0])),
    "n": lambda doc, fact: (to_int(doc), int(fact.split("x")[1])),
    "k": lambda doc, fact: (to_int(doc), int(fact.split("x")[2])),
    "text": lambda doc, fact: (squash(doc), fact),
}


@dataclass
class Claim:
    file: str
    pattern: str
    # One entry per capture group: (kind, fact key or tuple of keys that all must equal it), or None
    # for a group that is only there to anchor the sentence.
    groups: list


def g942(fact, config="f16.rc"):
    return f"gemm.gfx942.{config}.{fact}"


def gemm_both_gfx9(fact, configs=("f16.rc",)):
    return tuple(f"gemm.{arch}.{c}.{fact}" for arch in ("gfx942", "gfx90a") for c in configs)


def conv_all(arch, fact, ops=("fprop", "dgrad", "wgrad")):
    return tuple(f"conv.{arch}.{op}.{fact}" for op in ops)


def cand(arch, i, fact):
    return f"gemm.{arch}.f16.rc.candidate{i}.{fact}"


SP = r"\s+"  # where a sentence may wrap

CLAIMS = [
    # README.md
    Claim("README.md", r"on the H100 a (\d+)-row warpgroup tile whose K slices fill the device",
          [("m", cand("sm90", 2, "tile"))]),

    # docs/gemm.md: the layer diagram of the default gfx942 configuration.
    Claim("docs/gemm.md", r"tile (\S+), wave tile (\S+), `(\w+)`, (\d+) stages?\):",
          [("shape", g942("tile")), ("shape", g942("wave")), ("text", g942("atom_type")), ("int", g942("stages"))]),
    Claim("docs/gemm.md",
          r"Block tile of D, (\d+) × (\d+): (\d+) waves \((\d+) threads\) of (\d+) × (\d+), each (\d+) × (\d+) MFMA"
          r" atoms of (\d+) × (\d+)",
          [("m", g942("tile")), ("n", g942("tile")), ("int", g942("waves")), ("int", g942("threads")),
           ("m", g942("wave")), ("n", g942("wave")), None, None, None, None]),
    Claim("docs/gemm.md", r"One K step \((\d+) deep\) of a workgroup", [("k", g942("tile"))]),
    Claim("docs/gemm.md", r"LDS stage\s+(\w+), (\d+) bytes per operand, (\d+) stages?",
          [("text", (g942("lds_layout_a"), g942("lds_layout_b"))),
           ("int", (g942("lds_layout_a_bytes"), g942("lds_layout_b_bytes"))), ("int", g942("stages"))]),
    # Stream-K: the slots of the default kernel and the worked examples.
    Claim("docs/gemm.md",
          r"([\d,]+) workgroups of the default kernel \((\w+) per compute unit: (\d+) KiB of LDS each\)",
          [("int", g942("slots")), ("int", g942("resident_per_cu")), ("kib", g942("lds_bytes"))]),
    Claim("docs/gemm.md",
          r"([\d,]+) tiles on an MI300X \((\d+) × (\d+) × (\d+) with the default tile: W = ([\d,]+)\): one full wave"
          r" and" + SP + r"the partial one, all ([\d,]+) tiles, shared among ([\d,]+) units, ⌊\d+/8⌋ = \d+ ≥ 16, so"
          r" (\d+) partitions of" + SP + r"(\d+) units",
          [("int", g942("stream_k.3840x6400x4096.tiles")), None, None, None, ("int", g942("slots")),
           ("int", g942("stream_k.3840x6400x4096.sk_tiles")), ("int", g942("stream_k.3840x6400x4096.units")),
           ("int", g942("stream_k.3840x6400x4096.partitions")), None]),
    Claim("docs/gemm.md",
          r"1000 × 700 × 1500 \((\d+) tiles of (\d+) iterations\) on the same device: all \d+ tiles shared" + SP +
          r"among \d+ · ⌈√\d+⌉ = (\d+) units, ⌊\d+/8⌋ = \d+ < 16, so (\w+) partition",
          [("int", g942("stream_k.1000x700x1500.tiles")), ("int", g942("stream_k.1000x700x1500.k_tiles")),
           ("int", g942("stream_k.1000x700x1500.units")), ("int", g942("stream_k.1000x700x1500.partitions"))]),
    Claim("docs/gemm.md",
          r"An MI300X's ([\d ]+) units of the default tile \((\w+) per CU\): [\d ]+ \+ [\d ]+ · [\d ]+ = ([\d ]+)\n",
          [("int", g942("stream_k.3840x6400x4096.units")), ("int", g942("resident_per_cu")),
           ("int", g942("stream_k.3840x6400x4096.workspace_bytes"))]),
    # DefaultGemm's candidates, NVIDIA mma.sync (Sm80) and gfx9.
    Claim("docs/gemm.md",
          r"\| 0 \| `DefaultGemmConfiguration`: (\d+)×(\d+), data-parallel \| `DefaultGemmConfiguration`: (\d+)×(\d+),"
          r" data-parallel \|",
          [("m", cand("sm80", 0, "tile")), ("n", cand("sm80", 0, "tile")),
           ("m", cand("gfx942", 0, "tile")), ("n", cand("gfx942", 0, "tile"))]),
    Claim("docs/gemm.md", r"\| 2 \| (\d+)×(\d+)×\((\d+) bytes of K\), (\w+) warps, (\d+) stages, stream-K \|",
          [("m", cand("sm80", 2, "tile")), ("n", cand("sm80", 2, "tile")), None, ("int", cand("sm80", 2, "waves")),
           ("int", cand("sm80", 2, "stages"))]),
    Claim("docs/gemm.md",
          r"\| 3 \| (\d+)×(\d+), (\w+) (\d+)×(\d+) warps, (\d+) stages, stream-K \| (\d+)×(\d+), (\w+) (\d+)×(\d+) waves,"
          r" (\d+) stages, stream-K \|",
          [("m", cand("sm80", 3, "tile")), ("n", cand("sm80", 3, "tile")), ("int", cand("sm80", 3, "waves")),
           ("m", cand("sm80", 3, "wave")), ("n", cand("sm80", 3, "wave")), ("int", cand("sm80", 3, "stages")),
           ("m", cand("gfx942", 2, "tile")), ("n", cand("gfx942", 2, "tile")), ("int", cand("gfx942", 2, "waves")),
           ("m", cand("gfx942", 2, "wave")), ("n", cand("gfx942", 2, "wave")), ("int", cand("gfx942", 2, "stages"))]),
    Claim("docs/gemm.md",
          r"\| 4 \| (\d+)×(\d+), (\w+) (\d+)×(\d+) warps, (\d+) stages, stream-K \| (\d+)×(\d+), (\w+) (\d+)×(\d+) waves"
          r" of (\d+)×(\d+) MFMAs, stream-K \|",
          [("m", cand("sm80", 4, "tile")), ("n", cand("sm80", 4, "tile")), ("int", cand("sm80", 4, "waves")),
           ("m", cand("sm80", 4, "wave")), ("n", cand("sm80", 4, "wave")), ("int", cand("sm80", 4, "stages")),
           ("m", cand("gfx942", 3, "tile")), ("n", cand("gfx942", 3, "tile")), ("int", cand("gfx942", 3, "waves")),
           ("m", cand("gfx942", 3, "wave")), ("n", cand("gfx942", 3, "wave")), None, None]),
    Claim("docs/gemm.md", r"\| 5 \| (\d+)×(\d+), (\d+) stages, parallel split-K \| the default tile, parallel split-K",
          [("m", cand("sm80", 5, "tile")), ("n", cand("sm80", 5, "tile")), ("int", cand("sm80", 5, "stages"))]),
    Claim("docs/gemm.md", r"\| 6 \| (\d+)×(\d+), (\w+) warps, (\d+) stages, data-parallel \(two per SM\)",
          [("m", cand("sm80", 6, "tile")), ("n", cand("sm80", 6, "tile")), ("int", cand("sm80", 6, "waves")),
           ("int", cand("sm80", 6, "stages"))]),
    # DefaultGemm's candidates, Sm90 f16.
    Claim("docs/gemm.md", r"\| 0 \| `DefaultGemmConfiguration`: (\d+)×(\d+), warpgroup MMAs, (\d+) stages \|",
          [("m", cand("sm90", 0, "tile")), ("n", cand("sm90", 0, "tile")), ("int", cand("sm90", 0, "stages"))]),
    Claim("docs/gemm.md", r"\| 1 \| (\d+)×(\d+), (\w+) warps, mma.sync, (\d+) stages, stream-K \|",
          [("m", cand("sm90", 1, "tile")), ("n", cand("sm90", 1, "tile")), ("int", cand("sm90", 1, "waves")),
           ("int", cand("sm90", 1, "stages"))]),
    Claim("docs/gemm.md", r"\| 2 \| (\d+)×(\d+), one warpgroup, (\d+) stages, serial split-K \|",
          [("m", cand("sm90", 2, "tile")), ("n", cand("sm90", 2, "tile")), ("int", cand("sm90", 2, "stages"))]),
    Claim("docs/gemm.md", r"\| 3 \| (\d+)×(\d+), warpgroup MMAs, (\d+) stages \|",
          [("m", cand("sm90", 3, "tile")), ("n", cand("sm90", 3, "tile")), ("int", cand("sm90", 3, "stages"))]),
    Claim("docs/gemm.md", r"\| 4 \| (\d+)×(\d+), one warpgroup, (\d+) stages \(two per SM\) \|",
          [("m", cand("sm90", 4, "tile")), ("n", cand("sm90", 4, "tile")), ("int", cand("sm90", 4, "stages"))]),
    # What GemmChoice and the workspace hint print.
    Claim("docs/gemm.md", r"candidate 1: (\S+) tile, (\d+) stages?, (\d+) threads, (\d+) bytes of LDS, stream-K",
          [("shape", cand("gfx942", 1, "tile")), ("int", cand("gfx942", 1, "stages")),
           ("int", cand("gfx942", 1, "threads")), ("int", cand("gfx942", 1, "lds_bytes"))]),
    Claim("docs/gemm.md", r"large tiles on (\d+) slots\)", [("int", cand("gfx942", 0, "slots"))]),
    Claim("docs/gemm.md", r"would run candidate 3 \(f16, A row, B col, C row; (tile [^)]*)\)",
          [("text", cand("gfx942", 3, "tile_text"))]),
    # DefaultGemmConfiguration, gfx9.
    Claim("docs/gemm.md",
          r"`GemmShape<(\d+), (\d+), 64 / sizeof\(ElementA\)>` tiles \(K = (\d+) for" + SP +
          r"f16/bf16, (\d+) for f32, (\d+) for int8 and fp8: 64 bytes a row\), wave tiles of (\d+) × (\d+) × the same K",
          [("m", gemm_both_gfx9("tile", ("f16.rc", "bf16.rc", "f32.rc"))),
           ("n", gemm_both_gfx9("tile", ("f16.rc", "bf16.rc", "f32.rc"))),
           ("k", gemm_both_gfx9("tile", ("f16.rc", "bf16.rc"))), ("k", gemm_both_gfx9("tile", ("f32.rc",))),
           ("k", (g942("tile", "i8.rc"), g942("tile", "e4m3fnuz.rc"))),
           ("m", gemm_both_gfx9("wave")), ("n", gemm_both_gfx9("wave"))]),
    Claim("docs/gemm.md", r"`DefaultTileOrder<Arch>` \(`([^`]+)` on gfx942, `([^`]+)`" + SP + r"elsewhere\)",
          [("text", g942("tile_order")), ("text", "gemm.gfx90a.f16.rc.tile_order")]),
    Claim("docs/gemm.md",
          r"elsewhere\) and (\w+) stages? \((\d+) bytes of LDS: the next K tile waits in registers while the waves" +
          SP + r"read the stage, and (\w+) workgroups share a compute unit's (\d+) KiB\)",
          [("int", gemm_both_gfx9("stages", ("f16.rc", "bf16.rc", "f32.rc"))),
           ("int", gemm_both_gfx9("lds_bytes", ("f16.rc", "bf16.rc", "f32.rc"))),
           ("int", gemm_both_gfx9("resident_per_cu")), None]),
    # DefaultGemmConfiguration, Sm90 with warpgroup MMAs, and mma.sync (Sm80; Sm90's other cases).
    Claim("docs/gemm.md",
          r"`GemmShape<(\d+), (\d+), (\d+)>` tiles of (\w+) `GemmShape<(\d+), (\d+), (\d+)>` warps \(int8 (\d+) × (\d+) ×"
          r" (\d+) of" + SP + r"(\d+) × (\d+) warps; fp8 (\d+) × (\d+) × (\d+) of (\d+) × (\d+) warps\),"
          r" `GroupedTileOrder<8>` and (\d+) stages filled by",
          [("m", "gemm.sm90.f16.rc.tile"), ("n", "gemm.sm90.f16.rc.tile"), ("k", "gemm.sm90.f16.rc.tile"),
           ("int", "gemm.sm90.f16.rc.waves"),
           ("m", "gemm.sm90.f16.rc.wave"), ("n", "gemm.sm90.f16.rc.wave"), ("k", "gemm.sm90.f16.rc.wave"),
           ("m", "gemm.sm90.i8.rc.tile"), ("n", "gemm.sm90.i8.rc.tile"), ("k", "gemm.sm90.i8.rc.tile"),
           ("m", "gemm.sm90.i8.rc.wave"), ("n", "gemm.sm90.i8.rc.wave"),
           ("m", "gemm.sm90.e4m3fn.rc.tile"), ("n", "gemm.sm90.e4m3fn.rc.tile"), ("k", "gemm.sm90.e4m3fn.rc.tile"),
           ("m", "gemm.sm90.e4m3fn.rc.wave"), ("n", "gemm.sm90.e4m3fn.rc.wave"),
           ("int", ("gemm.sm90.f16.rc.stages", "gemm.sm90.i8.rc.stages", "gemm.sm90.e4m3fn.rc.stages"))]),
    Claim("docs/gemm.md",
          r"`GemmShape<(\d+), (\d+), (\d+)>` tiles of (\w+) `GemmShape<(\d+), (\d+), (\d+)>` warps, `MmaSync16x8x16F16` /"
          r" `Bf16`" + SP + r"\(int8 and fp8: (\d+) × (\d+) × (\d+), the m16n8k32 atoms\)," + SP +
          r"`GroupedTileOrder<8>` and (\d+) cp.async stages on Sm90 \((\d+) KB of shared memory;.*?\), (\d+) on Sm80"
          r" \((\d+) KB;",
          [("m", "gemm.sm80.f16.rc.tile"), ("n", "gemm.sm80.f16.rc.tile"), ("k", "gemm.sm80.f16.rc.tile"),
           ("int", ("gemm.sm80.f16.rc.waves", "gemm.sm90.i8.rr.waves")),
           ("m", "gemm.sm80.f16.rc.wave"), ("n", "gemm.sm80.f16.rc.wave"), ("k", "gemm.sm80.f16.rc.wave"),
           ("m", ("gemm.sm80.i8.rc.tile", "gemm.sm90.i8.rr.tile")), ("n", ("gemm.sm80.i8.rc.tile", "gemm.sm90.i8.rr.tile")),
           ("k", ("gemm.sm80.i8.rc.tile", "gemm.sm90.i8.rr.tile")),
           ("int", "gemm.sm90.i8.rr.stages"), ("kib", "gemm.sm90.i8.rr.stages_bytes"),
           ("int", ("gemm.sm80.f16.rc.stages", "gemm.sm80.i8.rc.stages")),
           ("kib", ("gemm.sm80.f16.rc.stages_bytes", "gemm.sm80.i8.rc.stages_bytes"))]),
    Claim("docs/gemm.md", r"Three LDS stages instead of (\w+):", [("int", g942("stages"))]),
    Claim("docs/gemm.md",
          r"hiptile::GemmShape<(\d+), (\d+), (\d+)>,\s+// block tile\s+hiptile::GemmShape<(\d+), (\d+), (\d+)>,\s+// wave"
          r" tile[^;]*?3>;\s+// Stages: (\d+) bytes of LDS",
          [("m", g942("tile")), ("n", g942("tile")), ("k", g942("tile")), ("m", g942("wave")), ("n", g942("wave")),
           ("k", g942("wave")), ("int", "gemm.gfx942.f16.rc.three_stages.lds_bytes")]),
    # The simulator's counters of the default configuration and of DefaultGemm on 256^3.
    Claim("docs/gemm.md",
          r"For 256 × 256 × 256 that is (\d+) workgroups, (\d+) MFMAs, (\d+) LDS instructions, (\d+) conflict cycles"
          r" and" + SP + r"(\d+) barriers",
          [("int", g942("sim256.workgroups")), ("int", g942("sim256.mfma")), ("int", g942("sim256.lds_instructions")),
           ("int", g942("sim256.lds_conflict_cycles")), ("int", g942("sim256.barriers"))]),
    Claim("docs/gemm.md",
          r"the same MFMAs, LDS" + SP + r"instructions and barriers, and (\d+) workgroups",
          [("int", g942("selecting.sim256.workgroups"))]),
    Claim("docs/gemm.md", r"\| `lds_conflict_cycles` \| (\d+) \| the (\w+) LDS layout",
          [("int", g942("sim256.lds_conflict_cycles")), None]),

    # docs/conv.md
    Claim("docs/conv.md",
          r"on gfx9 `DepthwiseWorkgroup<(\d+), (\d+), false, void, (\d+)>` for Fprop and Dgrad and" + SP +
          r"`DepthwiseWorkgroup<(\d+), (\d+)>` for Wgrad",
          [("int", ("depthwise.gfx9.fprop.positions", "depthwise.gfx9.dgrad.positions")),
           ("int", ("depthwise.gfx9.fprop.loads_in_flight", "depthwise.gfx9.dgrad.loads_in_flight")),
           ("int", ("depthwise.gfx9.fprop.channels", "depthwise.gfx9.dgrad.channels")),
           ("int", "depthwise.gfx9.wgrad.positions"), ("int", "depthwise.gfx9.wgrad.loads_in_flight")]),
    Claim("docs/conv.md",
          r"`Params` are passed by value at every launch: ([\d,]+) bytes for the f16 Fprop and Wgrad defaults on" + SP +
          r"gfx942 and ([\d,]+) bytes for Dgrad, against (\d+) for the default f16 GEMM",
          [("int", conv_all("gfx942", "params_bytes", ("fprop", "wgrad"))), ("int", "conv.gfx942.dgrad.params_bytes"),
           ("int", g942("params_bytes"))]),
    Claim("docs/conv.md",
          r"gfx942 and gfx90a, GEMM's default tile \(`GemmShape<(\d+), (\d+), (\d+)>` of (\w+) `GemmShape<(\d+), (\d+),"
          r" (\d+)>`" + SP + r"waves, (\d+) threads\), the 32×32×8 MFMA of the element type, (\d+) LDS stages?"
          r" \(([\d ]+) bytes\)",
          [("m", conv_all("gfx942", "tile") + conv_all("gfx90a", "tile")),
           ("n", conv_all("gfx942", "tile") + conv_all("gfx90a", "tile")),
           ("k", conv_all("gfx942", "tile") + conv_all("gfx90a", "tile")),
           ("int", conv_all("gfx942", "waves") + conv_all("gfx90a", "waves")),
           ("m", conv_all("gfx942", "wave")), ("n", conv_all("gfx942", "wave")), ("k", conv_all("gfx942", "wave")),
           ("int", conv_all("gfx942", "threads") + conv_all("gfx90a", "threads")),
           ("int", conv_all("gfx942", "stages") + conv_all("gfx90a", "stages")),
           ("int", conv_all("gfx942", "lds_bytes") + conv_all("gfx90a", "lds_bytes"))]),
    Claim("docs/conv.md",
          r"Fprop and Dgrad use a" + SP + r"`GemmShape<(\d+), (\d+), (\d+)>` tile of (\w+) `GemmShape<(\d+), (\d+),"
          r" (\d+)>` warps, Wgrad a `GemmShape<(\d+), (\d+), (\d+)>`" + SP + r"tile of (\w+), all with (\d+) stages",
          [("m", conv_all("sm80", "tile", ("fprop", "dgrad"))), ("n", conv_all("sm80", "tile", ("fprop", "dgrad"))),
           ("k", conv_all("sm80", "tile", ("fprop", "dgrad"))), ("int", conv_all("sm80", "waves", ("fprop", "dgrad"))),
           ("m", conv_all("sm80", "wave", ("fprop", "dgrad"))), ("n", conv_all("sm80", "wave", ("fprop", "dgrad"))),
           ("k", conv_all("sm80", "wave", ("fprop", "dgrad"))),
           ("m", "conv.sm80.wgrad.tile"), ("n", "conv.sm80.wgrad.tile"), ("k", "conv.sm80.wgrad.tile"),
           ("int", "conv.sm80.wgrad.waves"), ("int", conv_all("sm80", "stages"))]),
    Claim("docs/conv.md",
          r"Fprop and Dgrad a `GemmShape<(\d+), (\d+), (\d+)>` tile" + SP + r"of (\w+) `GemmShape<(\d+), (\d+), (\d+)>`"
          r" warps, Wgrad `GemmShape<(\d+), (\d+), (\d+)>` of (\w+) `GemmShape<(\d+), (\d+)," + SP + r"(\d+)>`",
          [("m", conv_all("sm90", "tile", ("fprop", "dgrad"))), ("n", conv_all("sm90", "tile", ("fprop", "dgrad"))),
           ("k", conv_all("sm90", "tile", ("fprop", "dgrad"))), ("int", conv_all("sm90", "waves", ("fprop", "dgrad"))),
           ("m", conv_all("sm90", "wave", ("fprop", "dgrad"))), ("n", conv_all("sm90", "wave", ("fprop", "dgrad"))),
           ("k", conv_all("sm90", "wave", ("fprop", "dgrad"))),
           ("m", "conv.sm90.wgrad.tile"), ("n", "conv.sm90.wgrad.tile"), ("k", "conv.sm90.wgrad.tile"),
           ("int", "conv.sm90.wgrad.waves"),
           ("m", "conv.sm90.wgrad.wave"), ("n", "conv.sm90.wgrad.wave"), ("k", "conv.sm90.wgrad.wave")]),
    Claim("docs/conv.md",
          r"K-contiguous operands \(Fprop's x and" + SP + r"w, Dgrad's dy\) into `(\w+)`, MN-contiguous ones \(Dgrad's w,"
          r" both of Wgrad's\) into" + SP + r"`(\w+)`",
          [("text", ("conv.gfx942.fprop.lds_layout_a", "conv.gfx942.fprop.lds_layout_b", "conv.gfx942.dgrad.lds_layout_a")),
           ("text", ("conv.gfx942.dgrad.lds_layout_b", "conv.gfx942.wgrad.lds_layout_a", "conv.gfx942.wgrad.lds_layout_b"))]),
    Claim("docs/conv.md",
          r"On gfx942 that is (\w+) candidates for Fprop, (\w+) for Dgrad and (\w+) for Wgrad; on Sm90 with" + SP +
          r"f16" + SP + r"(\w+), (\w+) and" + SP + r"(\w+)\.",
          [("int", "conv.gfx942.fprop.candidates"), ("int", "conv.gfx942.dgrad.candidates"),
           ("int", "conv.gfx942.wgrad.candidates"), ("int", "conv.sm90.fprop.candidates"),
           ("int", "conv.sm90.dgrad.candidates"), ("int", "conv.sm90.wgrad.candidates")]),
    Claim("docs/conv.md", r"4 consumer warpgroups \+ 1 producer = (\d+) threads",
          [("int", "conv.sm90.dgrad.persistent.threads")]),
    Claim("docs/conv.md", r"\(`Dgrad::kLdsBytes` above: ([\d ]+) bytes",
          [("int", "conv.sm90.dgrad.persistent.lds_bytes")]),
    Claim("docs/conv.md",
          r"on the f16 default's" + SP + r"(\d+) × (\d+) × (\d+) tile: (\w+) stage of ([\d ]+) bytes",
          [("m", conv_all("gfx942.f32", "tile")), ("n", conv_all("gfx942.f32", "tile")),
           ("k", conv_all("gfx942.f32", "tile")), ("int", conv_all("gfx942.f32", "stages")),
           ("int", conv_all("gfx942.f32", "lds_bytes"))]),

    # docs/isa_report.md
    Claim("docs/isa_report.md", r"the default tile needs (\w+) stages? of ([\d,]+)" + SP + r"bytes on gfx942",
          [("int", g942("stages")), ("int", g942("lds_bytes"))]),
    Claim("docs/isa_report.md",
          r"\((\d+)×(\d+)×(\d+) tile, (\d+) waves of (\d+)×(\d+), the 32×32×8" + SP +
          r"MFMA, XCD-remapped grouped tile order; today (\d+) LDS stages? of ([\d,]+) bytes\)",
          [("m", g942("tile")), ("n", g942("tile")), ("k", g942("tile")), ("int", g942("waves")),
           ("m", g942("wave")), ("n", g942("wave")), ("int", g942("stages")), ("int", g942("lds_bytes"))]),

    # docs/simulator.md
    Claim("docs/simulator.md",
          r"The default gfx942 GEMM \((\d+) waves, ([\d ]+) bytes of LDS\) gets min\(\d+, (\d+)\) = (\d+) workgroups? per"
          r" compute" + SP + r"unit, so stream-K shares its tiles among ([\d,]+) workgroups",
          [("int", g942("waves")), ("int", g942("lds_bytes")), ("int", g942("resident_per_cu")),
           ("int", (g942("resident_per_cu"), cand("gfx942", 1, "resident_per_cu"))), ("int", cand("gfx942", 1, "slots"))]),

    # docs/timing_model.md
    Claim("docs/timing_model.md",
          r"and after \(`DepthwiseWorkgroup<(\d+), (\d+), false, void, (\d+)>`: (\d+) × (\d+), the same four",
          [("int", "depthwise.gfx9.fprop.positions"), ("int", "depthwise.gfx9.fprop.loads_in_flight"),
           ("int", "depthwise.gfx9.fprop.channels"), ("int", "depthwise.gfx9.fprop.positions"),
           ("int", "depthwise.gfx9.fprop.channels")]),
    Claim("docs/timing_model.md",
          r'predicted_time\("f16; A row, B col, C row; (\S+) / (\S+) / (\w+) / (\d+)"',
          [("shape", g942("tile")), ("shape", g942("wave")), ("text", g942("atom_type")), ("int", g942("stages"))]),
    Claim("docs/timing_model.md",
          r"kernel as it is now \((\w+) LDS stages?, (\w+) workgroups per CU;",
          [("int", g942("stages")), ("int", g942("resident_per_cu"))]),
    Claim("docs/timing_model.md",
          r"\*\*One LDS stage\*\* \(`PipelinedMainloop` with `Stages = (\d+)`, now the gfx9 default\)",
          [("int", g942("stages"))]),
    Claim("docs/timing_model.md", r"(\d+) KiB of LDS: \*\*(\w+) workgroups per CU\*\*",
          [("kib", g942("lds_bytes")), ("int", g942("resident_per_cu"))]),

    # docs/tuning.md: TuningOptions' defaults.
    Claim("docs/tuning.md", r"\| `warmup` \| (\d+) \|", [("int", "tune.warmup")]),
    Claim("docs/tuning.md", r"\| `repetitions` \| (\d+) \|", [("int", "tune.repetitions")]),
    Claim("docs/tuning.md", r"\| `min_batch_microseconds` \| (\d+) \|", [("int", "tune.min_batch_microseconds")]),
    Claim("docs/tuning.md", r"\| `max_batch_runs` \| (\d+) \|", [("int", "tune.max_batch_runs")]),
    Claim("docs/tuning.md", r"last\s+`min_batch_microseconds`,\s+(\d+)\s+by\s+default,\s+at\s+most\s+`max_batch_runs`,\s+(\d+)\);",
          [("int", "tune.min_batch_microseconds"), ("int", "tune.max_batch_runs")]),
    Claim("docs/tuning.md", r"`repetitions`\s+rounds\s+\((\d+)\)", [("int", "tune.repetitions")]),
    # docs/tuning.md: DefaultTunedGemm's candidates and what they print.
    Claim("docs/tuning.md", r"\| 0 \| `(f16, A row, B col, C row; tile [^`]*)` \|", [("text", cand("gfx942", 0, "name"))]),
    Claim("docs/tuning.md", r"\| 1 \| `…; (tile [^`]*)` \|", [("text", cand("gfx942", 1, "tile_text"))]),
    Claim("docs/tuning.md", r"\| 2 \| `…; (tile [^`]*)` \|", [("text", cand("gfx942", 2, "tile_text"))]),
    Claim("docs/tuning.md", r"\| 3 \| `…; (tile [^`]*)` \|", [("text", cand("gfx942", 3, "tile_text"))]),
    Claim("docs/tuning.md", r"\| 4 \| `…; (tile [^`]*)` \|", [("text", cand("gfx942", 4, "tile_text"))]),
    Claim("docs/tuning.md", r"kernel built for gfx942 \(wave64, (\d+) threads, (\d+) bytes of LDS\)",
          [("int", g942("threads")), ("int", g942("lds_bytes"))]),
]

# Sample output that names DefaultGemm's gfx942 f16 candidates (A row, B col): every occurrence in
# these files must be the candidate's own name.
for doc, candidates in (("docs/tuning.md", (0, 2, 4)), ("docs/logging.md", (0, 1, 2, 3, 4))):
    for i in candidates:
        CLAIMS.append(Claim(doc, rf"candidate {i} \(f16, A row, B col, C row; (tile [^)]*)\)",
                            [("text", cand("gfx942", i, "tile_text"))]))
CLAIMS += [
    Claim("docs/logging.md",
          r"trace: GEMM f16, A row, B col, C row; (tile [^;]*parallel split-K); (\d+) threads, (\d+) bytes of LDS",
          [("text", cand("gfx942", 4, "tile_text")), ("int", cand("gfx942", 4, "threads")),
           ("int", cand("gfx942", 4, "lds_bytes"))]),
    Claim("docs/logging.md",
          r"trace: GEMM f16, A row, B col, C row; (tile 32x[^;]*stream-K); (\d+) threads, (\d+) bytes of LDS",
          [("text", cand("gfx942", 2, "tile_text")), ("int", cand("gfx942", 2, "threads")),
           ("int", cand("gfx942", 2, "lds_bytes"))]),
    Claim("docs/logging.md",
          r"trace: grouped GEMM f16, A row, B col, C row; (tile [^;]*); (\d+) threads, (\d+) bytes of LDS",
          [("text", cand("gfx942", 0, "tile_text")), ("int", g942("threads")), ("int", g942("lds_bytes"))]),
    Claim("docs/logging.md",
          r"convolution f16->f16, fprop, precomputed, 8 channels per access; (tile [^;]*); (\d+) threads, (\d+) bytes"
          r" of LDS",
          [("text", "conv.gfx942.fprop.tile_text"), ("int", "conv.gfx942.fprop.threads"),
           ("int", "conv.gfx942.fprop.lds_bytes")]),
    Claim("docs/logging.md",
          r"on f16->f16, fprop, precomputed, 8 channels per access; (tile [^:]*): success",
          [("text", "conv.gfx942.fprop.tile_text")]),
]


def read_facts(text):
    facts = {}
    for line in text.splitlines():
        if line.strip():
            key, _, value = line.partition(" ")
            facts[key] = value
    return facts


def check(root, facts):
    """Every claim against the facts: (failures, values checked)."""
    failures = []
    checked = 0
    for claim in CLAIMS:
        path = root / claim.file
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            failures.append(f"{claim.file}: cannot read it ({e})")
            continue
        regex = re.compile(claim.pattern, re.S)
        if regex.groups != len(claim.groups):
            failures.append(f"test table: /{claim.pattern}/ has {regex.groups} groups but "
                            f"{len(claim.groups)} entries")
            continue
        matches = list(regex.finditer(text))
        if not matches:
            failures.append(f"{claim.file}: no sentence matches /{claim.pattern}/ any more: if the claim was "
                            f"reworded or moved, update its entry in test/docs/doc_numbers_test.py")
            continue
        for match in matches:
            for index, entry in enumerate(claim.groups, start=1):
                if entry is None:
                    continue
                kind, keys = entry
                keys = keys if isinstance(keys, tuple) else (keys,)
                documented = match.group(index)
                line = text.count("\n", 0, match.start(index)) + 1
                wrong = {}  # the headers' value -> the facts that give it, for one message each
                for key in keys:
                    if key not in facts:
                        failures.append(f"test table: {claim.file}:{line} names the fact {key}, which default_facts "
                                        f"does not print")
                        continue
                    try:
                        got, expected = KINDS[kind](documented, facts[key])
                    except (ValueError, IndexError) as e:
                        failures.append(f"{claim.file}:{line}: cannot read {documented!r} as {kind} ({e})")
                        continue
                    checked += 1
                    if got != expected:
                        wrong.setdefault(facts[key], []).append(key)
                for value, wrong_keys in wrong.items():
                    failures.append(f"{claim.file}:{line}: the docs say {squash(documented)!r}, the headers give "
                                    f"{value!r} ({', '.join(wrong_keys)})")
    return failures, checked


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--facts-program", help="run this program (default_facts) for the facts")
    source.add_argument("--facts", help="read the facts from this file")
    parser.add_argument("--root", required=True, help="the repository root (README.md and docs/)")
    args = parser.parse_args()
    if args.facts_program:
        run = subprocess.run([args.facts_program], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{args.facts_program} failed (exit {run.returncode}):\n{run.stderr}", file=sys.stderr)
            return 1
        facts = read_facts(run.stdout)
    else:
        facts = read_facts(Path(args.facts).read_text(encoding="utf-8"))
    failures, checked = check(Path(args.root), facts)
    for failure in failures:
        print(failure)
    print(f"{checked} documented values in {len(CLAIMS)} claims checked against {len(facts)} facts: "
          f"{len(failures)} failure{'s' if len(failures) != 1 else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
