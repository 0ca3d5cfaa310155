"""Memory instructions written in inline PTX: what each moves, per lane, and from where.

Tensor-core code issues its shared-memory traffic through ``asm volatile`` (often behind
macros such as ``LDMATRIX_X4`` or ``CP_ASYNC_CG``); the instructions name their address
operands (``[%4]``) and the operand expressions say where those point. This module reads
the instruction text; the interpreter evaluates the operands.

* ``ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16 {regs}, [addr]``: a
  warp-collective load of 1, 2 or 4 matrices of 8x8 16-bit elements. Each matrix is eight
  rows of 16 bytes; lanes 8m to 8m+7 give the rows of matrix m (the other lanes' addresses
  are not used). ``stmatrix`` (sm_90) stores the same shapes.
* ``cp.async.{ca,cg}.shared{::cta}.global{.L2::...} [dst], [src], size{, src_size}``: each
  lane copies 4, 8 or 16 bytes from global to shared memory without registers; the shared
  side is written as a store of that width is, the global side read as a load.
* ``ld.shared``/``st.shared`` with an optional ``.v2``/``.v4``: ``ld.shared.v4.u32 {a, b,
  c, d}, [addr+16]`` moves 16 bytes per lane, at the operand's address plus the immediate.
* ``cvta.to.shared``: the generic address of a shared variable made into its 32-bit
  shared-window address (what ``__cvta_generic_to_shared`` returns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MATRIX_ROW_BYTES = 16
"""Bytes of one row of an 8x8 matrix of 16-bit elements."""
MATRIX_ROWS = 8


@dataclass(frozen=True)
class PtxMemory:
    """One memory instruction of an inline assembly statement."""

    name: str
    """How messages name it: ``ldmatrix.x4``, ``cp.async.cg``, ``ld.shared.v4``."""
    store: bool
    address: int
    """The operand (``%n``) that holds the address."""
    displacement: int
    """Bytes added to the operand's address (``[%1+16]``)."""
    bytes: int
    """Bytes each lane moves (for a matrix instruction, one row: 16)."""
    window: bool
    """The address is a shared-window address (``.shared``), not a generic pointer."""
    matrices: int = 0
    """For ldmatrix/stmatrix: the matrices of 8 rows; 0 for a per-lane access."""
    source: int | None = None
    """For cp.async: the operand holding the global address the lane copies from."""
    zero_fill: bool = False
    """cp.async with a source size: lanes may read less than they write (or nothing)."""


_SPACE = r"\.shared(?:::cta)?"
_MATRIX = re.compile(
    r"\b(?P<op>ldmatrix|stmatrix)\.sync\.aligned(?P<qualifiers>(?:\.[\w:]+)*)\s+"
    r"(?:\{[^}]*\}\s*,\s*\[\s*%(?P<load_address>\d+)\s*\]|\[\s*%(?P<store_address>\d+)\s*\]\s*,\s*\{[^}]*\})"
)
_COPY = re.compile(
    rf"\bcp\.async\.(?P<cache>ca|cg){_SPACE}\.global(?:\.[\w:]+)*\s+"
    r"\[\s*%(?P<dst>\d+)\s*\]\s*,\s*\[\s*%(?P<src>\d+)\s*\]\s*,\s*(?P<size>%\d+|\d+)(?P<src_size>\s*,\s*[%\w]+)?"
)
_LOAD_STORE = re.compile(
    rf"\b(?P<op>ld|st){_SPACE}(?:\.[a-z]+::[\w:]+)*(?:\.v(?P<vector>[248]))?\.(?:b|u|s|f)(?P<bits>8|16|32|64)\s+"
    r"(?:(?:\{[^}]*\}|%\w+)\s*,\s*)?\[\s*%(?P<address>\d+)\s*(?:\+\s*(?P<displacement>-?\d+)\s*)?\]"
)
CVTA_TO_SHARED = re.compile(r"\bcvta\.to\.shared(?:::cta)?\.u(?:32|64)\b")


def memory_instructions(text: str, constants: dict[int, int]) -> list[PtxMemory]:
    """The memory instructions of an asm statement's text; ``constants``: the values of
    operands that are compile-time constants (``"n"(16)``), by operand number."""
    found: list[PtxMemory] = []
    for match in _MATRIX.finditer(text):
        qualifiers = match.group("qualifiers").split(".")
        count = next((int(q[1:]) for q in qualifiers if q in ("x1", "x2", "x4")), None)
        if count is None or "m8n8" not in qualifiers or "b16" not in qualifiers:
            continue
        store = match.group("op") == "stmatrix"
        address = int(match.group("store_address" if store else "load_address"))
        suffix = ".trans" if "trans" in qualifiers else ""
        found.append(
            PtxMemory(
                f"{match.group('op')}.x{count}{suffix}",
                store,
                address,
                0,
                MATRIX_ROW_BYTES,
                window=any(q.startswith("shared") for q in qualifiers),
                matrices=count,
            )
        )
    for match in _COPY.finditer(text):
        size_text = match.group("size")
        size = constants.get(int(size_text[1:])) if size_text.startswith("%") else int(size_text)
        if size not in (4, 8, 16):
            continue
        found.append(
            PtxMemory(
                f"cp.async.{match.group('cache')}",
                True,
                int(match.group("dst")),
                0,
                size,
                window=True,
                source=int(match.group("src")),
                zero_fill=match.group("src_size") is not None,
            )
        )
    for match in _LOAD_STORE.finditer(text):
        vector = int(match.group("vector") or 1)
        size = vector * int(match.group("bits")) // 8
        if size > 16:
            continue
        op = match.group("op")
        found.append(
            PtxMemory(
                f"{op}.shared" + (f".v{vector}" if vector > 1 else ""),
                op == "st",
                int(match.group("address")),
                int(match.group("displacement") or 0),
                size,
                window=True,
            )
        )
    return found
