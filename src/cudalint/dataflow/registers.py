"""Register pressure and local memory, predicted from the source.

Three questions, answered without a compiler:

* the **budget**: how many registers per thread the compiler may give a kernel, from
  ``__launch_bounds__``, ``__maxnreg__``, the build's ``-maxrregcount`` and the hardware;
* the **estimate**: the live state a thread carries, mostly the per-thread arrays the
  compiler keeps in registers once loops over them are unrolled;
* which per-thread arrays are **in local memory**: those indexed by something the compiler
  cannot resolve to a constant after unrolling (``local_arrays.py``).

The unrolling model lives in ``unrolling.py``.

The unrolling model and the fixed overhead are calibrated against ptxas (nvcc 13, sm_90);
the exact figures come from ``--ptxas`` (``cudalint.ptxas``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow.local_arrays import MAX_RECORD_NESTING, LocalArray, array_dimensions
from cudalint.dataflow.occupancy import REGISTER_ALLOCATION_UNIT, WARP_SIZE, sm_limits
from cudalint.dataflow.unrolling import UnrollModel, UnrollReason

THREAD_OVERHEAD = 8
"""Registers a kernel needs besides its arrays and loop-carried values (thread index,
addresses, loop counter): ptxas gives a kernel holding an unrolled ``float a[N]`` about N + 8."""


def _round_down_to_allocation(registers: float) -> int:
    step = REGISTER_ALLOCATION_UNIT // WARP_SIZE
    return int(registers // step) * step


@dataclass(frozen=True)
class RegisterBudget:
    registers: int
    source: str
    """What sets it, as the user wrote it: ``__launch_bounds__(256, 4)``, ``-maxrregcount=32``."""
    explicit: bool = True
    """False for the hardware's own limit."""


def register_budget(function: ir.Function, arch: int, max_registers: int | None) -> RegisterBudget:
    """The cap ptxas must meet. Launch bounds win over ``-maxrregcount`` (ptxas overrides the
    global option with the value it computes from the thread count); a ``minBlocks`` the
    SM cannot host is ignored, as ptxas does."""
    bounds = function.launch_bounds
    if bounds is not None and bounds.max_threads:
        text = bounds.text or ", ".join(str(v) for v in (bounds.max_threads, bounds.min_blocks) if v)
        cap = launch_bounds_registers(bounds.max_threads, bounds.min_blocks, arch)
        return RegisterBudget(cap, f"__launch_bounds__({text})")
    most = sm_limits(arch).max_registers_per_thread
    if function.max_registers:
        return RegisterBudget(min(function.max_registers, most), f"__maxnreg__({function.max_registers})")
    if max_registers:
        return RegisterBudget(min(max_registers, most), f"-maxrregcount={max_registers}")
    return RegisterBudget(most, "the hardware limit", explicit=False)


def launch_bounds_registers(max_threads: int, min_blocks: int | None, arch: int) -> int:
    """The registers per thread ptxas allows under ``__launch_bounds__(max_threads,
    min_blocks)``: the SM's registers shared by ``min_blocks`` blocks, rounded down to the
    allocation unit of 8, at most 255."""
    limits = sm_limits(arch)
    warps = math.ceil(max_threads / WARP_SIZE)
    blocks = min_blocks or 1
    if blocks > limits.max_blocks or warps * blocks > limits.max_warps:
        blocks = 1
    cap = _round_down_to_allocation(limits.registers_per_sm / (warps * blocks) / WARP_SIZE)
    return min(cap, limits.max_registers_per_thread)


@dataclass(frozen=True)
class Contributor:
    what: str
    registers: int


@dataclass(frozen=True)
class RegisterEstimate:
    registers: int
    contributors: tuple[Contributor, ...]
    """Largest first; the fixed overhead is not listed."""
    tile_words: int = 0
    """Registers of the per-thread arrays and fragments among them: independent values
    each thread works on at once."""


def estimate_registers(
    function: ir.Function, model: UnrollModel, arrays: Iterable[LocalArray], records: Mapping[str, ir.Record]
) -> RegisterEstimate:
    """Registers one thread needs at its busiest: the arrays kept in registers, the structs
    that hold arrays (wmma fragments), the values carried across the loops that stay rolled,
    and a fixed overhead. Arrays and structs are counted as live together (they usually
    are, around the main loop), except the operand arrays of one step of a rolled loop,
    which ptxas streams (``_operand_contributor``)."""
    in_registers = [a for a in arrays if not a.in_local_memory and a.words]
    rolled = [run.stmt for run in model.loops.values() if model.verdict(run) is not UnrollReason.UNROLLED]
    streamed = _streamed_operands(in_registers, rolled)
    contributors = [Contributor(a.declaration, a.words) for a in in_registers if a.var.decl not in streamed]
    contributors += [_operand_contributor(group) for group in {id(g): g for g in streamed.values()}.values()]
    aggregates = _array_holders(function, records)
    contributors += [Contributor(f"{var.type.spelling} {var.name}", _words(var.type)) for var in aggregates]
    tile_words = sum(c.registers for c in contributors)
    carried = _carried_values(function, rolled, {var.decl for var in aggregates})
    if carried:
        names = ", ".join(name for name, _ in carried[:4]) + (", ..." if len(carried) > 4 else "")
        contributors.append(Contributor(f"values live across loops ({names})", sum(words for _, words in carried)))
    contributors.sort(key=lambda c: -c.registers)
    return RegisterEstimate(THREAD_OVERHEAD + sum(c.registers for c in contributors), tuple(contributors), tile_words)


def _streamed_operands(arrays: list[LocalArray], rolled: list[ir.Stmt]) -> dict[str, list[LocalArray]]:
    """The operand arrays of each step of a rolled loop, by declaration: two or more arrays
    declared in the loop's body (a tile's ``a[WM]`` and ``b[WN]`` fragments, ``RA``/``RB``),
    each group keyed by every member's declaration."""
    groups: dict[str, list[LocalArray]] = {}
    for loop in rolled:
        declared = {var.decl for child in loop.body for s in child.walk() for var in s.decls}
        group = [a for a in arrays if a.var.decl in declared and a.var.decl not in groups]
        if len(group) >= 2:
            groups.update((a.var.decl, group) for a in group)
    return groups


def _operand_contributor(group: list[LocalArray]) -> Contributor:
    """What a step's operands keep live at once. In the unrolled ``i x j`` nest of an outer
    product each ``a[i]`` meets every ``b[j]``: one side stays whole while ptxas loads the
    other just in time, one element (fragment) at a time, so the peak is the whole of all
    operands but one plus one element of that one (measured: a 4 x 6 wmma tile, 192
    accumulator registers and 80 of operands, compiles to 254 registers without spills)."""
    total = sum(a.words for a in group)

    def live(streamed: LocalArray) -> int:
        first = (array_dimensions(streamed.var.type) or [1])[0] or 1
        return total - streamed.words + math.ceil(streamed.words / first)

    one_at_a_time = min(group, key=live)
    names = ", ".join(a.var.name + "".join(f"[{n}]" for n in array_dimensions(a.var.type)) for a in group)
    return Contributor(
        f"operands of one step ({names}, `{one_at_a_time.var.name}` loaded an element at a time)", live(one_at_a_time)
    )


def _words(ctype: ir.CType) -> int:
    """32-bit registers a value of this type occupies (two halves share one)."""
    return max(1, math.ceil((ctype.size or 4) / 4))


def _holds_array(record: ir.Record | None, records: Mapping[str, ir.Record], depth: int = 0) -> bool:
    if record is None or depth > MAX_RECORD_NESTING:
        return False
    for member in record.fields:
        if member.type.kind is ir.TypeKind.ARRAY:
            return True
        nested = records.get(member.type.record or "") if member.type.kind is ir.TypeKind.RECORD else None
        if _holds_array(nested, records, depth + 1):
            return True
    return False


def _array_holders(function: ir.Function, records: Mapping[str, ir.Record]) -> list[ir.VarDecl]:
    """Per-thread structs of ``function`` that hold an array: a wmma fragment keeps its
    ``num_elements`` values in ``x[]``, all in registers for the fragment's lifetime."""
    if function.body is None:
        return []
    return [
        var
        for stmt in function.body.walk()
        for var in stmt.decls
        if var.storage is ir.StorageClass.LOCAL
        and var.type.kind is ir.TypeKind.RECORD
        and _holds_array(records.get(var.type.record or ""), records)
    ]


def _carried_values(function: ir.Function, rolled: list[ir.Stmt], counted: set[str]) -> list[tuple[str, int]]:
    """Scalars declared outside a rolled loop of ``function`` and used inside it, with their
    size in registers; pointer parameters count too (their address is formed in registers),
    other parameters are read from the constant bank. Compile-time constants take no
    register; variables in ``counted`` are already in the estimate."""
    if function.body is None:
        return []
    declared: dict[str, ir.VarDecl] = {p.decl: p for p in function.params}
    for stmt in function.body.walk():
        for var in stmt.decls:
            declared[var.decl] = var
    carried: dict[str, tuple[str, int]] = {}
    for loop in rolled:
        body = [s for child in loop.body for s in child.walk()]
        local = {var.decl for s in body for var in s.decls}
        expressions = [e for e in (loop.cond, loop.step) if e is not None] + [e for s in body for e in s.expressions()]
        for node in (n for expr in expressions for n in expr.walk()):
            var = declared.get(node.decl or "") if node.kind is ir.ExprKind.DECL_REF and node.value is None else None
            if (
                var is None
                or var.decl in local
                or var.decl in carried
                or var.decl in counted
                or var.type.kind is ir.TypeKind.ARRAY
            ):
                continue
            if var.storage is ir.StorageClass.PARAMETER and var.type.kind is not ir.TypeKind.POINTER:
                continue
            carried[var.decl] = (var.name, _words(var.type))
    return list(carried.values())
