"""The run's launch index: every kernel launch of every translation unit, with the values
its host code gives it, so that a kernel analyzed in one file is judged with the launches
written in any other.

A translation unit's analysis evaluates its own launches where their host code is (see
``dataflow.launches``) and returns them as ``LaunchRecord``s with its results. Once every
unit has been analyzed, ``LaunchIndex`` gathers them by kernel; a unit whose kernels are
launched elsewhere, by launches it did not see, is analyzed again with those
(``external_for``), and its cached result is keyed by their ``digest``. Plain data only:
a run whose results all come from the cache needs nothing more.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass

Dims = tuple[int, int, int]
Axes = tuple[int | None, int | None, int | None]
"""A block's three axes, None for one its host code does not decide."""


@dataclass(frozen=True)
class LaunchRecord:
    """One configuration of one launch: a launch site evaluates to several when its host
    code gives a value several possibilities (a loop over constant values, a wrapper called
    with different arguments)."""

    kernel: str
    """The launched kernel's declaration id (its USR, with template arguments): the same in
    every translation unit."""
    kernel_name: str
    file: str
    line: int
    grid: Dims | None
    block: Axes | None
    """Each axis the host code decides (``dim3 b(1, atoi(argv[1]))`` is ``(1, None, 1)``);
    None when it decides none."""
    shared_bytes: int | None
    arguments: tuple[int | None, ...]
    """The value of each argument, in the kernel's parameter order (None: not an integer
    the host code decides). By position: the launching file may declare the kernel with
    other parameter names than its definition, or none."""
    api: str = "<<<>>>"

    @property
    def where(self) -> str:
        return f"{os.path.basename(self.file)}:{self.line}"

    def describe(self, parameters: Iterable[str] = ()) -> str:
        """``attention.cu:612 grid 64 block (32, 4, 1) dynamic shared 4096 B; d = 64``, the
        arguments named after ``parameters`` (the kernel's parameter names)."""
        parts = [self.where, f"grid {_dims(self.grid)}", f"block {_dims(self.block)}"]
        if self.shared_bytes:
            parts.append(f"dynamic shared {self.shared_bytes} B")
        names = list(parameters)
        values = [
            f"{names[index] if index < len(names) else f'argument {index + 1}'} = {value}"
            for index, value in enumerate(self.arguments)
            if value is not None
        ]
        text = " ".join(parts)
        return f"{text}; {', '.join(values)}" if values else text


def _dims(dims: Axes | None) -> str:
    if dims is None:
        return "?"
    shown = ["?" if d is None else str(d) for d in dims]
    return shown[0] if dims[1:] == (1, 1) else f"({', '.join(shown)})"


class LaunchIndex:
    """Every launch record of a run, by kernel."""

    def __init__(self, records: Iterable[LaunchRecord]):
        self.by_kernel: dict[str, list[LaunchRecord]] = {}
        for record in records:
            found = self.by_kernel.setdefault(record.kernel, [])
            if record not in found:
                found.append(record)

    def external_for(self, kernels: Iterable[str], own: Iterable[LaunchRecord]) -> tuple[LaunchRecord, ...]:
        """The launches of ``kernels`` that a unit which found ``own`` did not see, in a
        stable order (a unit's result must not depend on the order units finished in)."""
        seen = set(own)
        found = {r for kernel in set(kernels) for r in self.by_kernel.get(kernel, ()) if r not in seen}
        return tuple(sorted(found, key=_order))


def _order(record: LaunchRecord) -> tuple:
    """File and line, then the values in ascending order (unknown ones first)."""

    def values(numbers) -> tuple:
        return tuple((-1, 0) if n is None else (0, n) for n in numbers or ())

    return (
        record.file,
        record.line,
        record.kernel,
        values(record.grid),
        values(record.block),
        values((record.shared_bytes,)),
        values(record.arguments),
        record.api,
    )


def digest(records: Iterable[LaunchRecord]) -> str:
    """What a unit's result depends on besides its own text: the launches it was given."""
    return hashlib.sha256(repr(sorted(records, key=_order)).encode()).hexdigest()[:16]
