#!/usr/bin/env python3
"""Generate kernels that are pathological for a symbolic interpreter, as real trees hold them.

Each generator returns the source of one .cu file:

* ``loop_nest(depth)``: loops nested ``depth`` deep, each with a variable it carries;
* ``hash_rounds(kind, rounds, blocks)``: md5- and sha1-style compression functions with
  every round written out (each round mixes all four or five state words into the
  next), optionally inside a loop over message blocks;
* ``huge_switch(cases)``: one switch with ``cases`` cases, as generated interpreters have;
* ``macro_expanded(expansions)``: a macro of several statements expanded again and again.

    python scripts/pathological_kernels.py DIR     # write every case into DIR

``bench/pathological.py`` times cudalint on them; ``tests/test_budget.py`` checks that
the analysis of each stays within its budget and grows polynomially with the case size.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# md5's per-round shifts and the sha1 round constants, as any implementation writes them.
_MD5_SHIFTS = (7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21)
_SHA1_CONSTANTS = (0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xCA62C1D6)


def loop_nest(depth: int) -> str:
    counters = [f"i{level}" for level in range(depth)]
    lines = [
        "__global__ void loop_nest(float* a, const float* b, int n) {",
        "    float sum = 0.0f;",
        "    int carried = 0;",
    ]
    for level, counter in enumerate(counters):
        indent = "    " * (level + 1)
        lines.append(f"{indent}for (int {counter} = 0; {counter} < n; ++{counter}) {{")
        lines.append(f"{indent}    carried += {counter} % 3;")
    inner = "    " * (depth + 1)
    index = " + ".join(counters)
    lines += [f"{inner}sum += b[({index}) * blockDim.x + threadIdx.x];", f"{inner}if (sum > 1.0f) sum *= 0.5f;"]
    lines += ["    " * (level + 1) + "}" for level in reversed(range(depth))]
    lines += ["    a[blockIdx.x * blockDim.x + threadIdx.x] = sum + carried;", "}", ""]
    return "\n".join(lines)


def _md5_round(step: int) -> str:
    words = ("a", "b", "c", "d")
    a, b, c, d = (words[(index - step) % 4] for index in range(4))
    mix = ("(({b} & {c}) | (~{b} & {d}))", "(({b} & {d}) | ({c} & ~{d}))", "({b} ^ {c} ^ {d})", "({c} ^ ({b} | ~{d}))")[
        step // 16
    ].format(b=b, c=c, d=d)
    word = (step, (5 * step + 1) % 16, (3 * step + 5) % 16, (7 * step) % 16)[step // 16] % 16
    constant = (step * 0x9E3779B9 + 0x7F4A7C15) & 0xFFFFFFFF
    shift = _MD5_SHIFTS[(step // 16) * 4 + step % 4]
    return f"        {a} = {b} + ROTL({a} + {mix} + x[{word}] + 0x{constant:08x}u, {shift});"


def _sha1_round(step: int) -> str:
    function = ("((b & c) | (~b & d))", "(b ^ c ^ d)", "((b & c) | (b & d) | (c & d))", "(b ^ c ^ d)")[step // 20]
    lines = []
    if step >= 16:
        lines.append(
            f"        w[{step % 16}] = ROTL(w[{(step + 13) % 16}] ^ w[{(step + 8) % 16}] ^ "
            f"w[{(step + 2) % 16}] ^ w[{step % 16}], 1);"
        )
    lines += [
        f"        t = ROTL(a, 5) + {function} + e + 0x{_SHA1_CONSTANTS[step // 20]:08x}u + w[{step % 16}];",
        "        e = d; d = c; c = ROTL(b, 30); b = a; a = t;",
    ]
    return "\n".join(lines)


def hash_rounds(kind: str, rounds: int | None = None, blocks: bool = False) -> str:
    """An md5- or sha1-style kernel: one message per thread, every round written out;
    with ``blocks``, the rounds run in a loop over the message's blocks."""
    rounds = rounds or (64 if kind == "md5" else 80)
    state = ("a", "b", "c", "d") if kind == "md5" else ("a", "b", "c", "d", "e")
    buffer = "x" if kind == "md5" else "w"
    lines = [
        "#define ROTL(v, s) (((v) << (s)) | ((v) >> (32 - (s))))",
        f"__global__ void {kind}_rounds(const unsigned int* message, unsigned int* digest, int block_count) {{",
        "    unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;",
        "    "
        + " ".join(
            f"unsigned int {word} = 0x{0x67452301 + 0x11111111 * index:08x}u;" for index, word in enumerate(state)
        ),
        "    unsigned int t = 0;" if kind == "sha1" else "",
    ]
    lines += [
        f"    for (int block = 0; block < {'block_count' if blocks else '1'}; ++block) {{",
        f"        unsigned int {buffer}[16];",
        f"        for (int k = 0; k < 16; ++k) {buffer}[k] = message[(id * block_count + block) * 16 + k];",
    ]
    round_source = _md5_round if kind == "md5" else _sha1_round
    lines += [round_source(step % (64 if kind == "md5" else 80)) for step in range(rounds)]
    lines += ["    }"]
    lines += [f"    digest[id * {len(state)} + {index}] = {word};" for index, word in enumerate(state)]
    lines += ["}", ""]
    return "\n".join(line for line in lines if line)


def huge_switch(cases: int) -> str:
    lines = [
        "__global__ void huge_switch(float* out, const float* in, const int* opcode) {",
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "    float v = in[i];",
        "    int scale = 1;",
        "    switch (opcode[i]) {",
    ]
    for case in range(cases):
        lines += [
            f"    case {case}:",
            f"        v = v * {case + 1}.0f + in[i + {case % 7}];",
            f"        scale += {case % 5};",
            "        break;",
        ]
    lines += ["    default:", "        v = 0.0f;", "    }", "    out[i * scale] = v;", "}", ""]
    return "\n".join(lines)


def macro_expanded(expansions: int) -> str:
    lines = [
        "#define STAGE(k) { \\",
        "    float t = s[((k) + threadIdx.x) % 256]; \\",
        "    s[((k) * 7 + threadIdx.x) % 256] = t * 0.5f + acc; \\",
        "    if (t > (k)) acc += t; else acc -= t; \\",
        "    __syncthreads(); \\",
        "}",
        "__global__ void macro_expanded(float* out, const float* in) {",
        "    __shared__ float s[256];",
        "    float acc = 0.0f;",
        "    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];",
        "    __syncthreads();",
    ]
    lines += [f"    STAGE({k})" for k in range(expansions)]
    lines += ["    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;", "}", ""]
    return "\n".join(lines)


CASES = {
    "loop_nest_12": lambda: loop_nest(12),
    "loop_nest_24": lambda: loop_nest(24),
    "md5_rounds": lambda: hash_rounds("md5"),
    "md5_rounds_in_block_loop": lambda: hash_rounds("md5", blocks=True),
    "sha1_rounds": lambda: hash_rounds("sha1"),
    "sha1_rounds_in_block_loop": lambda: hash_rounds("sha1", blocks=True),
    "huge_switch_2000": lambda: huge_switch(2000),
    "macro_expanded_600": lambda: macro_expanded(600),
}
"""The cases the benchmark times, by file stem."""


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, generate in CASES.items():
        path = directory / f"{name}.cu"
        path.write_text(generate(), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    args = parser.parse_args(argv)
    for path in write(args.directory):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
