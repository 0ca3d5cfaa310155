"""Pictures of one warp at a memory access or a branch: the bytes, banks or side of each lane.

A figure is built from the facts with the models that cost them, never a separate one:

* global: each lane's bytes laid along 32-byte sectors and 128-byte lines; the sectors
  per request and the ideal are ``warps.costliest_piece``'s;
* shared: each lane's words in the 32 banks, served in the phases of
  ``banks.request_phases``; the wavefronts are ``banks.request_wavefronts``'s, and the
  padded layout is the one CL201 proposes (``KernelFacts.conflict_free_padding``), costed the same way;
* branch: which side each lane of the block's warps takes, under the values
  ``divergence.most_split`` finds splitting a warp most evenly.

Where the facts try several values (a loop's trips, samples of a runtime size), the worst
of them is drawn and named. Where a running lane's address or decision is not known from
the source (an index loaded at run time), there is no picture: the figure says why.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import pairwise

from cudalint import ir
from cudalint.dataflow import (
    BANKS,
    SECTOR_BYTES,
    Access,
    AccessPattern,
    AtomKind,
    Branch,
    BranchPattern,
    Confidence,
    DataPattern,
    Facts,
    KernelFacts,
    LaneEvaluator,
    MemorySpace,
    Request,
    Sym,
    Variance,
    access_rounds,
    active_lanes,
    costliest_piece,
    examined_warps,
    laid_out,
    lane_relevant,
    lane_words,
    matrix_access,
    most_split,
    phase_lanes,
    request_phases,
    request_wavefronts,
    row_layout,
    sampled_warps,
    transfer_bytes,
)

LINE_BYTES = 128
"""An L1/L2 cache line: four sectors."""

MEMORY_RULES = {"CL101": "global", "CL102": "global", "CL201": "shared"}
BRANCH_RULES = ("CL301", "CL302")
PICTURED_RULES = (*MEMORY_RULES, *BRANCH_RULES)


@dataclass(frozen=True)
class Lane:
    lane: int
    thread: tuple[int, int, int]
    """threadIdx (x, y, z)."""
    offset: int | None = None
    """Byte offset of the lane's access (from the array's start; global: from the first line
    the warp touches); None where the lane does not run it."""
    slots: tuple[int, ...] = ()
    """Global: the sectors its bytes fall in; shared: the banks of its words."""
    ways: int = 0
    """Shared: the distinct words the busiest of its banks delivers in its phase (n of an n-way conflict)."""
    side: str = ""
    """Branch: ``taken``, ``not taken``, or ``off`` where the lane does not reach it."""


@dataclass(frozen=True)
class Sector:
    """A 32-byte sector the warp touches, numbered from the first line it touches."""

    index: int
    used: tuple[bool, ...]
    """Each byte of the sector: used by a running lane."""
    lanes: tuple[int, ...]


@dataclass(frozen=True)
class Panel:
    """One warp request (memory) or one warp's lanes (branch), as drawn."""

    title: str
    lanes: tuple[Lane, ...]
    cost: int
    """Sectors, wavefronts, or lanes taking the branch."""
    ideal: int
    """The conflict-free or coalesced figure; lanes reaching the branch."""
    sectors: tuple[Sector, ...] = ()
    bank_ways: tuple[int, ...] = ()
    """Shared: for each bank, the distinct words it delivers in the busiest phase."""
    note: str = ""


@dataclass(frozen=True)
class Figure:
    kind: str
    """``global``, ``shared`` or ``branch``."""
    location: str
    source: str
    kernel: str
    block: tuple[int, int, int]
    block_source: str
    subject: str
    """What runs there: ``shared load, 4 B per lane``, ``if``."""
    formula: str
    """The byte address, or the condition, as the facts hold it."""
    values: str
    """The values of loop trips and runtime sizes drawn, when they change the picture."""
    panels: tuple[Panel, ...]
    summary: str
    unavailable: str = ""
    """Why there is no picture (then ``panels`` is empty)."""


@dataclass(frozen=True)
class Position:
    path: str
    line: int
    column: int | None = None


class FigureBook:
    """The figures of one translation unit's facts, looked up by position."""

    def __init__(self, facts: Facts, root: str):
        self.facts = facts
        self.root = root

    @cached_property
    def _by_line(self) -> dict[tuple[str, int], list[tuple[ir.Span, str, Callable[[], Figure]]]]:
        """What can be drawn on each line: (span, kind, how to draw it)."""
        found: dict[tuple[str, int], list] = {}
        for kernel in self.facts.kernels:
            for access, pattern in kernel.accesses:
                kind = "shared" if access.space is MemorySpace.SHARED else "global"
                build = partial(access_figure, self, kernel, access, pattern)
                found.setdefault((access.span.file, access.span.line), []).append((access.span, kind, build))
            for branch, pattern in kernel.branches:
                build = partial(branch_figure, self, kernel, branch, pattern)
                span = branch.stmt.span
                found.setdefault((span.file, span.line), []).append((span, "branch", build))
        return found

    def at(self, position: Position, kind: str | None = None) -> list[Figure]:
        """Figures (of ``kind``, when given) of the accesses and branches at ``position``:
        those starting at its column, else those covering it, else (no column) all of those
        on its line."""
        on_line = [
            (span, build)
            for span, drawn, build in self._by_line.get((position.path, position.line), [])
            if kind is None or drawn == kind
        ]
        return [build() for build in _at(on_line, position)]

    def for_finding(self, code: str, span: ir.Span) -> list[Figure]:
        """The pictures behind a finding of a memory or branch rule; CL302's is the split of
        the branch its barrier sits under."""
        position = Position(span.file, span.line, span.column)
        if code in MEMORY_RULES:
            return self.at(position, MEMORY_RULES[code])
        if code == "CL301":
            return self.at(position, "branch")
        if code != "CL302":
            return []
        figures = []
        for kernel in self.facts.kernels:
            for barrier in kernel.barriers:
                if _place(barrier.expr.span) != _place(span):
                    continue
                _, decision = kernel.control_variance(barrier.stmt)
                figures += [
                    branch_figure(self, kernel, branch, pattern)
                    for branch, pattern in kernel.branches
                    if decision is not None and branch.stmt is decision
                ]
        return figures


def _place(span: ir.Span) -> tuple[str, int, int]:
    return span.file, span.line, span.column


def _at(on_line: list, position: Position) -> list:
    if position.column is None:
        return [item for _, item in on_line]
    starting = [item for span, item in on_line if span.column == position.column]
    if starting:
        return starting
    covering = [
        (span, item)
        for span, item in on_line
        if span.column <= position.column and (span.end_line > span.line or position.column < span.end_column)
    ]
    if not covering:
        return []
    narrowest = min(_width(span) for span, _ in covering)
    return [item for span, item in covering if _width(span) == narrowest]


def _width(span: ir.Span) -> int:
    return (span.end_line - span.line) * 10_000 + span.end_column - span.column


def _header(book: FigureBook, kernel: KernelFacts, span: ir.Span) -> dict:
    from cudalint.report import display_path

    shape = kernel.shape
    return {
        "location": f"{display_path(span.file, book.root)}:{span.line}:{span.column}",
        "source": _source_line(book.facts, span),
        "kernel": kernel.function.display_name,
        "block": (shape.x, shape.y, shape.z),
        "block_source": _shape_source(kernel),
    }


def _no_picture(kind: str, header: dict, subject: str, formula: str, why: str) -> Figure:
    return Figure(kind, **header, subject=subject, formula=formula, values="", panels=(), summary="", unavailable=why)


def _shape_source(kernel: KernelFacts) -> str:
    shape = kernel.shape
    if shape.assumed:
        return "assumed: no launch gives it"
    # A launch in the kernel's own file is named by its line only.
    return shape.source.replace("launch at line ", f"launch at {os.path.basename(kernel.function.span.file)}:")


def _source_line(facts: Facts, span: ir.Span, limit: int = 74) -> str:
    lines = facts.tu.lines_of(span.file)
    text = lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _values(evaluator: LaneEvaluator, values: list[Sym], bound: set[str]) -> str:
    """The loop trips and sampled runtime values ``evaluator`` gives to ``values``: what the
    drawn picture holds for (empty when it holds for every value)."""
    parts = []
    for atom in sorted({a for v in values for a in v.atoms()}, key=str):
        value = evaluator.lanes(Sym.atom(atom))[0]
        if atom.kind is AtomKind.ITERATION:
            parts.append(f"trip {value} of the loop at line {atom.name.removeprefix('L')} (from 0)")
        elif atom.kind is AtomKind.PARAMETER and atom.name not in bound:
            parts.append(f"{atom.name} = {value}")
        elif atom.kind in (AtomKind.UNIFORM, AtomKind.WARP_UNIFORM):
            parts.append(f"{atom} = {value} (a value tried)")
    return ", ".join(parts)


def _drawn_for(pattern: AccessPattern, evaluator: LaneEvaluator, values: list[Sym], kernel: KernelFacts) -> str:
    """The values the picture of an access is drawn for, when its cost depends on them."""
    if pattern.confidence is Confidence.EXACT:
        return ""
    drawn = _values(evaluator, values, set(kernel.bindings))
    return f"the costliest of the values tried: {drawn}" if drawn else ""


def _unknown_address(pattern: AccessPattern) -> str:
    if pattern.data_pattern is DataPattern.LANE_RANGES:
        return "no picture: each lane walks a range from a start it loads at run time"
    if pattern.data_pattern is DataPattern.GATHER:
        return "no picture: the address depends on an index each lane loads at run time"
    return "no picture: some running lane's address is not known from the source"


def access_figure(book: FigureBook, kernel: KernelFacts, access: Access, pattern: AccessPattern) -> Figure:
    header = _header(book, kernel, access.span)
    subject = f"{access.space.value} {access.kind.value}, {access.size or '?'} B per lane"
    formula = f"{access.location.base} + {access.location.offset}"
    if access.space is MemorySpace.SHARED:
        return _shared_figure(book, kernel, access, pattern, header, subject, formula)
    return _global_figure(kernel, access, pattern, header, subject, formula)


def _global_figure(
    kernel: KernelFacts, access: Access, pattern: AccessPattern, header: dict, subject: str, formula: str
) -> Figure:
    size = access.size or 0
    piece = transfer_bytes(access.type, size)
    offset = lane_relevant(access.location.offset, kernel.bindings)
    drawn = []
    tried = list(sampled_warps(access, offset, kernel.shape, kernel.bindings, kernel.trace.loops))
    for evaluator, warp, active, addresses in tried:
        chosen = [a for a, on in zip(addresses, active, strict=False) if on]
        if not chosen:
            continue
        if None in chosen or size <= 0:
            return _no_picture("global", header, subject, formula, _unknown_address(pattern))
        start, sectors, ideal = costliest_piece(chosen, size, piece)
        drawn.append(((sectors / ideal, sectors), evaluator, warp, active, addresses, sectors, ideal, start))
    if not drawn:
        return _no_picture(
            "global", header, subject, formula, "no picture: no lane of the warps looked at runs this access"
        )
    _, evaluator, warp, active, addresses, sectors, ideal, start = max(drawn, key=lambda d: d[0])
    # A struct moved in pieces: each piece is a request; the costliest one is drawn.
    moved = [None if a is None else a + start for a in addresses]
    lanes, rows = _sector_lanes(kernel, warp, active, moved, min(piece, size))
    note = (
        f"moved as {piece}-byte pieces, each a request: drawn, the piece at byte {start} of each {size}-byte element"
        if piece < size
        else ""
    )
    panel = Panel(f"warp {warp}", lanes, sectors, ideal, rows, note=note)
    values = _drawn_for(pattern, evaluator, [offset, *(g.condition for g in access.guards)], kernel)
    efficiency = min(1.0, ideal / sectors)
    summary = f"{sectors} sectors per request, ideal {ideal} ({efficiency:.0%} efficiency)"
    return Figure("global", **header, subject=subject, formula=formula, values=values, panels=(panel,), summary=summary)


def _sector_lanes(
    kernel: KernelFacts, warp: int, active: list[bool], addresses: list[int | None], size: int
) -> tuple[tuple[Lane, ...], tuple[Sector, ...]]:
    coordinates = kernel.shape.lane_coordinates(warp)
    running = [a for a, on in zip(addresses, active, strict=False) if on and a is not None]
    start = min(running) // LINE_BYTES * LINE_BYTES
    used: dict[int, list[bool]] = {}
    users: dict[int, list[int]] = {}
    lanes = []
    for lane, (address, on) in enumerate(zip(addresses, active, strict=False)):
        if not on or address is None:
            lanes.append(Lane(lane, coordinates[lane]))
            continue
        relative = address - start
        touched = range(relative // SECTOR_BYTES, (relative + size - 1) // SECTOR_BYTES + 1)
        for byte in range(relative, relative + size):
            used.setdefault(byte // SECTOR_BYTES, [False] * SECTOR_BYTES)[byte % SECTOR_BYTES] = True
        for sector in touched:
            users.setdefault(sector, []).append(lane)
        lanes.append(Lane(lane, coordinates[lane], relative, tuple(touched)))
    rows = tuple(Sector(index, tuple(used[index]), tuple(users[index])) for index in sorted(used))
    return tuple(lanes), rows


def _shared_figure(
    book: FigureBook,
    kernel: KernelFacts,
    access: Access,
    pattern: AccessPattern,
    header: dict,
    subject: str,
    formula: str,
) -> Figure:
    instruction = kernel.shared_instruction(access)
    size = instruction.size
    if instruction.size != (access.size or 0):
        subject += f", issued as one {size}-byte access per lane with its neighbours"
    rounds = access_rounds(
        access, kernel.shape, kernel.bindings, kernel.trace.loops, instruction.offset, instruction.merged_trips
    )
    if rounds is None or size <= 0:
        return _no_picture("shared", header, subject, formula, _unknown_address(pattern))
    candidates = [(evaluator, warp, request) for evaluator, requests in rounds for warp, request in requests.items()]
    if not candidates:
        return _no_picture("shared", header, subject, formula, "no picture: no lane of the block runs this access")

    matrix = matrix_access(access)

    def badness(candidate) -> tuple[float, int]:
        cost = request_wavefronts(candidate[2], size, matrix)
        return cost.taken / max(cost.ideal, 1), cost.taken

    evaluator, warp, request = max(candidates, key=badness)
    coordinates = kernel.shape.lane_coordinates(warp)
    panels = [_bank_panel(f"warp {warp}, as declared", request, size, coordinates, matrix=matrix)]
    drawn = panels[0]
    if drawn.cost > drawn.ideal:
        panels.append(_padded_panel(kernel, access, warp, request, size, coordinates))
    values = _drawn_for(pattern, evaluator, [instruction.offset, *(g.condition for g in access.guards)], kernel)
    average = (
        ""
        if pattern.wavefronts is None
        else f"; {pattern.wavefronts:.3g} per request over the block's warps (ideal {pattern.ideal_wavefronts:.3g})"
    )
    ways = max(drawn.bank_ways)
    conflict = f": {ways}-way bank conflict" if drawn.cost > drawn.ideal else ": conflict-free"
    summary = f"{drawn.cost} wavefronts for this warp, ideal {drawn.ideal}{conflict}{average}"
    return Figure(
        "shared", **header, subject=subject, formula=formula, values=values, panels=tuple(panels), summary=summary
    )


def _bank_panel(title: str, request: Request, size: int, coordinates, note: str = "", matrix: bool = False) -> Panel:
    phases = request_phases(request, size, matrix)
    per_phase = phase_lanes(request, size, matrix)
    bank_ways = [0] * BANKS
    for banks in phases.values():
        for bank, words in banks.items():
            bank_ways[bank] = max(bank_ways[bank], len(words))
    lanes = []
    for lane, address in enumerate(request):
        if address is None:
            lanes.append(Lane(lane, coordinates[lane]))
            continue
        banks = tuple(word % BANKS for word in lane_words(address, size))
        phase = phases[lane // per_phase]
        lanes.append(Lane(lane, coordinates[lane], address, banks, max(len(phase[bank]) for bank in banks)))
    cost = request_wavefronts(request, size, matrix)
    if len(phases) > 1:
        note = (note + "; " if note else "") + f"served in {len(phases)} phases of {per_phase} lanes"
    return Panel(title, tuple(lanes), cost.taken, cost.ideal, bank_ways=tuple(bank_ways), note=note)


def _padded_panel(kernel: KernelFacts, access: Access, warp: int, request: Request, size: int, coordinates) -> Panel:
    """``warp``'s request in the tile CL201 proposes. Rows padded off the width of a merged
    access (``size``, neighbouring elements loaded as one) cannot be loaded that way any
    more: the padded warp is then drawn as the compiler would issue it, one element at a
    time, at its costliest trip."""
    array = kernel.shared_arrays.get(access.location.base)
    var = array.var if array is not None else None
    layout = row_layout(var)
    empty = Panel("padded", (), 0, 0)
    if var is None or layout is None:
        return _note(empty, f"`{access.location.base}` is not an array of rows: no padding to draw")
    padding = kernel.conflict_free_padding(access, *layout)
    if padding is None:
        return _note(
            empty, f"no padding of the rows of `{var.name}` removes it without costing its other accesses more"
        )
    row_bytes, element_bytes = layout
    padded_row = row_bytes + padding * element_bytes
    rows = (var.type.size or 0) // row_bytes
    title = f"warp padded as {var.name}[{rows}][{padded_row // element_bytes}] (CL201's fix)"
    if padded_row % size == 0 or not access.size:
        return _bank_panel(
            title, laid_out(request, row_bytes, padded_row), size, coordinates, matrix=matrix_access(access)
        )
    rounds = access_rounds(access, kernel.shape, kernel.bindings, kernel.trace.loops)
    requests = [
        laid_out(r, row_bytes, padded_row) for _, by_warp in rounds or () for w, r in by_warp.items() if w == warp
    ]
    if not requests:
        return _note(empty, "no picture of the padded tile: its addresses are not known")
    worst = max(requests, key=lambda r: request_wavefronts(r, access.size).taken)
    note = f"{access.size}-byte loads: padded rows no longer line up for one {size}-byte load"
    return _bank_panel(title, worst, access.size, coordinates, note)


def _note(panel: Panel, note: str) -> Panel:
    return Panel(panel.title, panel.lanes, panel.cost, panel.ideal, note=note)


def branch_figure(book: FigureBook, kernel: KernelFacts, branch: Branch, pattern: BranchPattern) -> Figure:
    header = _header(book, kernel, branch.stmt.span)
    subject = f"{branch.kind} statement"
    formula = str(branch.condition)
    evaluator, _, _ = most_split(branch, kernel.shape, kernel.bindings, kernel.trace.loops)

    patterns: dict[tuple[str, ...], list[int]] = {}
    for warp in examined_warps(kernel.shape):
        running = active_lanes(branch.guards, evaluator, warp)
        values = evaluator.lanes(branch.condition, warp)
        if any(on and value is None for value, on in zip(values, running, strict=False)):
            why = (
                "the condition depends on data each lane loads at run time"
                if pattern.variance is Variance.DATA
                else "the condition cannot be evaluated lane by lane"
            )
            return _no_picture("branch", header, subject, formula, f"no picture: {why}")
        sides = tuple(
            "off" if not on else "taken" if value else "not taken" for value, on in zip(values, running, strict=False)
        )
        patterns.setdefault(sides, []).append(warp)
    panels = []
    for sides, warps in patterns.items():
        coordinates = kernel.shape.lane_coordinates(warps[0])
        lanes = tuple(Lane(lane, coordinates[lane], side=side) for lane, side in enumerate(sides))
        taken = sum(side == "taken" for side in sides)
        reaching = sum(side != "off" for side in sides)
        title = f"warp {lane_ranges(warps)}" if len(warps) == 1 else f"warps {lane_ranges(warps)}"
        panels.append(Panel(title, lanes, taken, reaching))
    split = [p for p in panels if 0 < p.cost < p.ideal]
    # Lanes decided by blockIdx are those of the block evaluated; another block may split.
    within = f" of block ({', '.join(map(str, evaluator.block_evaluated))})" if depends_on_block_index(branch) else ""
    summary = (
        f"{' and '.join(p.title for p in split)} split: the warp runs both sides, each with the other's lanes idle"
        if split
        else f"each warp runs one side, but {' and '.join(p.title for p in panels)} differ: the block splits"
        if len(panels) > 1
        else f"no warp{within} looked at splits: each runs one side"
    )
    drawn = _values(evaluator, [branch.condition, *(g.condition for g in branch.guards)], set(kernel.bindings))
    values = f"the most even split of the values tried: {drawn}" if drawn else ""
    return Figure(
        "branch", **header, subject=subject, formula=formula, values=values, panels=tuple(panels), summary=summary
    )


def depends_on_block_index(branch: Branch) -> bool:
    """Whether which lanes run the branch's sides depends on the block: what is said of its
    lanes then holds in the block evaluated (``SAMPLE_BLOCK``), not in every one."""
    conditions = (branch.condition, *(guard.condition for guard in branch.guards))
    return any(atom.kind is AtomKind.BLOCK_INDEX for condition in conditions for atom in condition.atoms())


def lane_ranges(numbers: list[int]) -> str:
    """``0-3, 7``."""
    parts, start = [], numbers[0]
    for previous, current in pairwise([*numbers, None]):
        if current is None or current != previous + 1:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
            start = current
    return ", ".join(parts)
