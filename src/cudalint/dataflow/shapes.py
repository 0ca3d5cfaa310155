"""How a kernel is launched: the block shapes and parameter values of its launches (in any
file of the run, evaluated in their host code by ``launches``), else its launch bounds,
else an assumption."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from cudalint import ir
from cudalint.dataflow.threads import ASSUMED_BLOCK_X, ASSUMED_SHAPE, BlockShape
from cudalint.launches import LaunchRecord

MAX_CONTEXTS = 8
"""Distinct configurations a kernel is analyzed under; launches beyond these (in the
order of their files and lines) are left out."""


@dataclass(frozen=True)
class Configuration:
    """One way a kernel is launched: its block shape (with the grid, when the launch gives
    it), the integer parameters the launch decides, and the launch it comes from (None: no
    launch says)."""

    shape: BlockShape
    bindings: tuple[tuple[str, int], ...]
    launch: LaunchRecord | None


def _uses_y_or_z(function: ir.Function) -> bool:
    if function.body is None:
        return False
    for stmt in function.body.walk():
        for expr in stmt.expressions():
            for node in expr.walk():
                if (
                    node.kind is ir.ExprKind.BUILTIN_INDEX
                    and node.name in ("threadIdx", "blockDim")
                    and node.member in ("y", "z")
                ):
                    return True
    return False


def unlaunched_shape(kernel: ir.Function) -> BlockShape:
    """The shape of a kernel no launch speaks for: its launch bounds', when it uses only x."""
    bounds = kernel.launch_bounds
    if bounds is not None and bounds.max_threads and not _uses_y_or_z(kernel):
        return BlockShape(bounds.max_threads, 1, 1, f"__launch_bounds__({bounds.max_threads})")
    return ASSUMED_SHAPE


def configurations(kernel: ir.Function, records: Iterable[LaunchRecord]) -> list[Configuration]:
    """The distinct configurations the launches of ``kernel`` give it, in launch order."""
    found: dict[tuple, Configuration] = {}
    for record in records:
        if record.kernel != kernel.decl:
            continue
        grid = record.grid if record.grid is not None and min(record.grid) > 0 else None
        shape = launched_shape(record, kernel, grid)
        bindings = tuple(
            (param.name, value)
            for param, value in zip(kernel.params, record.arguments, strict=False)
            if value is not None and param.name and param.type.kind is ir.TypeKind.INTEGER
        )
        key = (shape, bindings)
        if key not in found and len(found) < MAX_CONTEXTS:
            found[key] = Configuration(shape, bindings, record)
    if not found:
        return [Configuration(unlaunched_shape(kernel), (), None)]
    return list(found.values())


def launched_shape(record: LaunchRecord, kernel: ir.Function, grid) -> BlockShape:
    """The block a launch gives. An axis its host code leaves open is taken so that the
    block keeps the assumed thread count (``ASSUMED_BLOCK_X``): a warp's lanes are laid
    along x first, so a known ``blockDim.x`` below 32 decides which axes a warp spans
    (``dim3(1, n)``: 32 consecutive ``threadIdx.y``) whatever the open axes hold. With
    ``blockDim.x`` open, nothing is known of a warp's shape: the assumption entire."""
    block = record.block
    if block is None or block[0] is None or any(axis is not None and axis <= 0 for axis in block):
        return replace(ASSUMED_SHAPE, grid=grid)
    place = f"launch at {launch_place(record, kernel)}"
    if None not in block:
        return BlockShape(*block, place, grid)
    axes = list(block)
    open_axes = []
    for position, axis in enumerate(axes):
        if axis is None:
            axes[position] = max(1, ASSUMED_BLOCK_X // math.prod(a for a in axes[:position] if a is not None))
            open_axes.append(f"blockDim.{'xyz'[position]} = {axes[position]}")
    return BlockShape(*axes, place, grid, taken=", ".join(open_axes))


def launch_place(record: LaunchRecord, kernel: ir.Function) -> str:
    """``line 40`` in the kernel's own file; ``main.cu:40`` in another (the file that
    includes the kernel's, or one that declares it)."""
    return f"line {record.line}" if record.file == kernel.span.file else record.where
