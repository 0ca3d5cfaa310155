"""What one warp's execution of an access or a branch costs, from the per-lane values.

Global memory moves 32-byte sectors: a request costs the number of distinct sectors
its active lanes touch. Shared-memory wavefronts are costed in ``banks``.

A term of an address that is the same for every lane of the warp and made of values
known only at run time (a box's offset or a row pointer read from memory, a parameter's
halo offset `lz`, `plane * pitch`) only moves the whole request: it is left out, as if
the base were aligned like an allocation's, and the lanes' offsets from it decide the
cost. Whether such a term happens to misalign the request is not known from the source;
a warning claims only what the hardware shows for every value, so an unknown offset is
taken as aligned (constant offsets, `tx - 1` in a halo, are counted exactly). Loops whose
counter doubles or halves are taken through every trip. Where the warps of a block reach
their addresses by different paths (the thread index inside a select, a division or a
remainder), their requests are also summed over the block (``BlockCost``).

A struct read or written whole moves as pieces no wider than its alignment (see
``transfer_bytes``): each piece is a request with the struct's size between lanes. The
pieces are consecutive instructions on the same lines, so L1 serves the later ones: what
L2 and DRAM move is the sectors they touch together (``AccessPattern.line_sectors``).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow.facts import Access, AccessKind, Guard, LoopRun
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import BlockShape, LaneEvaluator, LoopTrips, evaluators

SECTOR_BYTES = 32
MAX_TRANSFER_BYTES = 16
"""The widest load or store of one lane (LDG.E.128)."""


class Confidence(enum.Enum):
    EXACT = "exact"
    """Follows from the source alone."""
    SYMBOLIC = "symbolic"
    """Depends on a uniform value we do not know (a runtime stride, a template constant)."""
    UNKNOWN = "unknown"
    """Depends on data read at run time (a gather through an index array)."""


class DataPattern(enum.Enum):
    """How an address that depends on per-lane data spreads the lanes."""

    LANE_RANGES = "per-lane ranges"
    """Each lane walks its own range from a start it loaded (a CSR row per thread): the
    lanes are as far apart as their ranges are long."""
    GATHER = "gather"
    """An index each lane loaded (``a[idx[i]]``): wherever the data says."""


@dataclass(frozen=True)
class BlockCost:
    """Sectors of one execution of an access by every warp of a block that runs it (the
    first ``MAX_WARPS_EXAMINED``), for the values tried that make it costliest and cheapest."""

    warps: int
    sectors: int
    ideal_sectors: int
    best_sectors: int
    best_ideal_sectors: int
    worst_warp: int
    """The warp (of the costliest values) whose request has the lowest efficiency."""
    worst_warp_sectors: int
    worst_warp_ideal: int
    lanes_differ: bool = False
    """Whether the warps differ only in the lanes their conditions leave running, not in the
    paths to their addresses."""

    @property
    def efficiency(self) -> float:
        return min(1.0, self.ideal_sectors / self.sectors)

    @property
    def best_efficiency(self) -> float:
        return min(1.0, self.best_ideal_sectors / self.best_sectors)


@dataclass(frozen=True)
class AccessPattern:
    confidence: Confidence
    active_lanes: int
    sectors: int | None
    """32-byte sectors per warp request (the worst over the values tried when symbolic)."""
    ideal_sectors: int | None
    """Sectors the active lanes' bytes would need if they were contiguous (see ``_sectors``):
    more than ``sectors`` for a broadcast."""
    best_sectors: int | None
    """The fewest sectors over the values tried (equal to ``sectors`` when exact)."""
    lane_stride: Sym | None
    """Bytes between the addresses of consecutive lanes (threadIdx.x + 1), when affine."""
    wavefronts: float | None = None
    """Shared memory: wavefronts per request, averaged over the block's warps (bank
    conflicts serialize into extra ones)."""
    ideal_wavefronts: float | None = None
    depends_on: tuple[str, ...] = ()
    """The uniform unknowns (parameters, template constants) the cost depends on."""
    trip_degrees: tuple[float, ...] = ()
    """Shared memory, in a loop nvcc unrolls whole whose trips differ: the conflict degree of
    each trip that matters (each is an instruction of its own); ``wavefronts`` are then the
    costliest trip's."""
    unrolled_trips: int = 0
    """With ``trip_degrees``: the trips of the unrolled loop, those too cheap to matter included."""
    data_pattern: DataPattern | None = None
    """For an address that depends on data loaded per lane: how it spreads the lanes."""
    data_loop: LoopRun | None = None
    """For ``LANE_RANGES``: the loop that walks the ranges."""
    piece_bytes: int | None = None
    """For a struct read or written whole in pieces narrower than it (see
    ``transfer_bytes``): the bytes of one piece; ``sectors`` are those of the costliest piece."""
    line_sectors: int | None = None
    """For a struct moved in pieces: the sectors all its pieces touch together in one warp
    (the worst over the values tried). The pieces are consecutive instructions of the warp
    on the same 128-byte lines: the first brings the sectors into L1 (or has them in flight)
    and the later ones are served there, and L2 merges the partial writes of stores before
    DRAM sees them, so this, not ``sectors`` per piece, is what L2 and DRAM move."""
    line_ideal_sectors: int | None = None
    """The ideal of ``line_sectors``: the sectors the active lanes' whole structs would fill."""
    block: BlockCost | None = None
    """For an address the warps of a block reach by different paths (the thread index inside
    a select, a division or a remainder: halo lanes beside interior ones): what the block's
    warps that run it need together, where that differs from the first warp's request."""
    sunk_with: tuple[int, ...] = ()
    """For a store nvcc sinks into one store after its branch (see ``sunk_stores``): the
    lines of the other arms' stores it becomes one instruction with; its lanes are those
    of the whole branch."""
    split_depends_on: tuple[str, ...] = ()
    """For a 16-byte cp.async whose global addresses depend on values known only at run
    time (a row length): those values. Which 128-byte lines its lanes read, and so how its
    phases split (see ``banks._copy_cost``), is then open, and ``wavefronts`` count no split."""

    @property
    def line_efficiency(self) -> float | None:
        """The fraction of the sectors the pieces bring together that holds the structs' bytes."""
        if not self.line_sectors or self.line_ideal_sectors is None:
            return None
        return min(1.0, self.line_ideal_sectors / self.line_sectors)

    @property
    def single_lane(self) -> bool:
        return self.active_lanes == 1

    @property
    def efficiency(self) -> float | None:
        if not self.sectors or self.ideal_sectors is None:
            return None
        return min(1.0, self.ideal_sectors / self.sectors)

    @property
    def conflict_degree(self) -> float | None:
        """n-way bank conflict: wavefronts over the conflict-free minimum."""
        if self.wavefronts is None or not self.ideal_wavefronts:
            return None
        return round(self.wavefronts / self.ideal_wavefronts, 2)


_DECIDABLE = {
    AtomKind.THREAD_INDEX,
    AtomKind.BLOCK_INDEX,
    AtomKind.BLOCK_DIM,
    AtomKind.GRID_DIM,
    AtomKind.ITERATION,
    AtomKind.OPERATION,
}


def decidable(condition: Sym, bindings: Mapping[str, int] | None = None) -> bool:
    """Whether ``condition`` can be evaluated lane by lane: it names only thread and block
    coordinates, loop counters and operations on them (and parameters given in ``bindings``)."""
    return all(
        atom.kind in _DECIDABLE or (atom.kind is AtomKind.PARAMETER and bindings and atom.name in bindings)
        for atom in condition.atoms()
    )


def _conjuncts(condition: Sym) -> list[Sym]:
    """``a && b && c`` as its parts (a condition that is not a conjunction is one part)."""
    if len(condition.terms) == 1 and condition.terms[0][1] == 1 and len(condition.terms[0][0]) == 1:
        atom = condition.terms[0][0][0]
        if atom.kind is AtomKind.OPERATION and atom.name == "&&":
            return [part for argument in atom.args for part in _conjuncts(argument)]
    return [condition]


# Lanes of a guard per (condition, sense, evaluator, warp), as a bit mask (bit i: lane i):
# every access and branch under one `if` asks for the same lanes, once per warp and loop
# trip, and the guards around it combine with one `&` each. Cleared when full.
_GUARD_LANES: dict[tuple, int] = {}
MAX_GUARD_LANES = 65536
# The lanes of a mask, by (mask, lane count): few masks recur (a whole warp, its first lane).
_MASK_LANES: dict[tuple[int, int], tuple[bool, ...]] = {}


def _guard_holds(guard: Guard, evaluator: LaneEvaluator, warp: int, launched: bool) -> int:
    key = (guard.condition, guard.holds, evaluator.key_for(guard.condition), warp, launched)
    mask = _GUARD_LANES.get(key)
    if mask is None:
        if len(_GUARD_LANES) >= MAX_GUARD_LANES:
            _GUARD_LANES.clear()
        lanes = _lanes_satisfying(guard, evaluator, warp, launched)
        mask = _GUARD_LANES[key] = sum(1 << lane for lane, on in enumerate(lanes) if on)
    return mask


def _mask_lanes(mask: int, count: int) -> tuple[bool, ...]:
    lanes = _MASK_LANES.get((mask, count))
    if lanes is None:
        if len(_MASK_LANES) >= MAX_GUARD_LANES:
            _MASK_LANES.clear()
        lanes = _MASK_LANES[mask, count] = tuple(bool(mask >> lane & 1) for lane in range(count))
    return lanes


def _lanes_satisfying(guard: Guard, evaluator: LaneEvaluator, warp: int, launched: bool) -> tuple[bool, ...]:
    """Lanes that satisfy ``guard``. Parts that depend on parameters or loaded values
    (``i < n``) are not decided here: they let every lane through. So
    ``threadIdx.x == 31 && x < n`` still narrows the warp to lane 31. ``launched``: parts on
    parameters the evaluator's launch gives are decided too."""
    count = len(evaluator.shape.lane_coordinates(warp))
    parts = _conjuncts(guard.condition) if guard.holds else [guard.condition]
    lanes = [True] * count
    bindings = evaluator.bindings if launched else None
    for part in parts:
        values = _lane_truths(part, evaluator, warp, count, bindings)
        lanes = [lane and (v is None or v == guard.holds) for lane, v in zip(lanes, values, strict=False)]
    return tuple(lanes)


def _lane_truths(
    condition: Sym, evaluator: LaneEvaluator, warp: int, count: int, bindings: Mapping[str, int] | None
) -> list[bool | None]:
    """Each lane's truth of ``condition``, None where it rests on values not decided here
    (parameters count as decided when ``bindings`` gives them). A select whose own condition
    is decidable takes each lane's chosen side (``halo = k < 84 ? x < n : false``: lanes 84
    and up are false whatever n is); a conjunction is false where a part is."""
    if decidable(condition, bindings):
        return [None if v is None else v != 0 for v in evaluator.lanes(condition, warp)]
    if len(condition.terms) == 1 and condition.terms[0][1] == 1 and len(condition.terms[0][0]) == 1:
        atom = condition.terms[0][0][0]
        if atom.kind is AtomKind.OPERATION and atom.name == "select" and len(atom.args) == 3:
            chooser, then, otherwise = atom.args
            chosen = _lane_truths(chooser, evaluator, warp, count, bindings)
            if all(c is None for c in chosen):
                return [None] * count
            sides = (
                _lane_truths(then, evaluator, warp, count, bindings),
                _lane_truths(otherwise, evaluator, warp, count, bindings),
            )
            return [None if c is None else sides[0 if c else 1][lane] for lane, c in enumerate(chosen)]
        if atom.kind is AtomKind.OPERATION and atom.name == "&&":
            parts = [_lane_truths(argument, evaluator, warp, count, bindings) for argument in atom.args]
            return [
                False if any(p[lane] is False for p in parts) else True if all(p[lane] for p in parts) else None
                for lane in range(count)
            ]
    return [None] * count


def active_lanes(
    guards: tuple[Guard, ...], evaluator: LaneEvaluator, warp: int = 0, launched: bool = False
) -> list[bool]:
    """Which lanes of the warp run code under ``guards`` (lanes we cannot decide count as active).
    ``launched``: conditions on the parameters the evaluator's launch gives (``i < n`` at a
    launch with ``n = 10``) decide lanes too."""
    count = len(evaluator.shape.lane_coordinates(warp))
    mask = (1 << count) - 1
    for guard in guards:
        mask &= _guard_holds(guard, evaluator, warp, launched)
    return list(_mask_lanes(mask, count))


# Warps looked at for one access or branch: enough to find one that runs code guarded
# to later warps (`if (threadIdx.x >= 32)`) without evaluating whole large blocks.
MAX_WARPS_EXAMINED = 8


def first_running_warp(guards: tuple[Guard, ...], evaluator: LaneEvaluator) -> tuple[int, list[bool]]:
    """The first warp of the block with a lane that runs code under ``guards``, and its lanes."""
    for warp in range(min(evaluator.shape.warps(), MAX_WARPS_EXAMINED)):
        active = active_lanes(guards, evaluator, warp)
        if any(active):
            return warp, active
    return 0, active_lanes(guards, evaluator, 0)


def _sectors(addresses: list[int], size: int) -> tuple[int, int]:
    """Sectors one request touches, and its ideal: the sectors the bytes its active lanes
    ask for would fill if they were contiguous and aligned, ``ceil(lanes * size / 32)``,
    every lane counted. This is the reference of Nsight Compute's per-instruction "L2
    theoretical sectors global ideal/excessive" (CUPTI: the fewest L2 transactions the
    access pattern allows), so the excess over it is what uncoalescing costs. Lanes that
    share an address count each: a broadcast is served by one sector per distinct address
    and never costs more than the ideal, however many rows a warp spans (``A[row * n + k]``
    under 16x16 blocks: two addresses, two sectors, ideal four). Counting distinct bytes
    instead would call that 2-row broadcast 50% efficient."""
    touched: set[int] = set()
    for address in addresses:
        touched.update(range(address // SECTOR_BYTES, (address + size - 1) // SECTOR_BYTES + 1))
    return len(touched), max(1, -(-len(addresses) * size // SECTOR_BYTES))


def request_sectors(addresses: list[int], size: int, piece: int) -> tuple[int, int]:
    """Sectors and ideal of the costliest of the requests that move ``size`` bytes per lane
    as ``piece``-byte loads or stores (a struct copied field group by field group): each
    piece is a request of its own, its lanes as far apart as the whole elements."""
    return costliest_piece(addresses, size, piece)[1:]


def costliest_piece(addresses: list[int], size: int, piece: int) -> tuple[int, int, int]:
    """``request_sectors`` with the byte offset, within each lane's element, of the piece it counts."""
    if piece >= size:
        return (0, *_sectors(addresses, size))
    # Pieces whose offsets agree modulo a sector cost the same: try each residue once.
    offsets = {offset % SECTOR_BYTES: offset for offset in range(0, size - piece + 1, piece)}.values()
    costs = [(offset, *_sectors([address + offset for address in addresses], piece)) for offset in offsets]
    return max(costs, key=lambda cost: cost[1] / cost[2])


def transfer_bytes(type_: ir.CType, size: int) -> int:
    """Bytes one load or store instruction moves per lane when a value of ``type_`` is read
    or written whole: a struct wider than its alignment (``struct { float x, y, z; }``,
    ``float3``, a 40-byte particle) is moved as pieces of at most its alignment, and never
    more than 16 bytes (LDG.E.128), only the fields the code uses; nvcc cannot merge
    neighbouring fields into a wider access than the alignment guarantees. A struct whose
    members have copy code of their own (``__half2``) moves member by member
    (``ir.CType.copy_bytes``), whatever its alignment."""
    if type_.kind is not ir.TypeKind.RECORD or not type_.align:
        return size
    if type_.copy_bytes:
        return min(size, type_.copy_bytes)  # Copied member by member, each by its own code.
    return min(size, type_.align, MAX_TRANSFER_BYTES)


def _depends_on(offset: Sym) -> tuple[str, ...]:
    """What the cost depends on, as a reader of the source would name it."""
    names = set()
    for atom in offset.atoms():
        if atom.kind is AtomKind.ITERATION:
            names.add(f"the loop at line {atom.name.removeprefix('L')}")
        elif atom.kind in (AtomKind.PARAMETER, AtomKind.UNIFORM, AtomKind.WARP_UNIFORM):
            names.add(atom.name)
    return tuple(sorted(names))


def _unknown_value(atom: Atom, bound: Collection[str]) -> bool:
    if atom.kind in (AtomKind.UNIFORM, AtomKind.WARP_UNIFORM):
        return True
    if atom.kind is AtomKind.PARAMETER:
        return atom.name not in bound
    return atom.kind is AtomKind.OPERATION and any(
        _unknown_value(a, bound) for argument in atom.args for a in argument.atoms()
    )


def lane_relevant(offset: Sym, bound: Collection[str] = ()) -> Sym:
    """``offset`` without its terms that are the same for every lane of a warp and made of
    values known only at run time (parameters other than the ``bound`` ones, loaded
    values): they shift the whole request, and matter only through its alignment, which
    the source does not tell."""
    kept = [
        (monomial, coefficient)
        for monomial, coefficient in offset.terms
        if not (
            any(_unknown_value(atom, bound) for atom in monomial)
            and max((Sym.atom(atom).variance for atom in monomial), default=Variance.UNIFORM) <= Variance.WARP_UNIFORM
        )
    ]
    return offset if len(kept) == len(offset.terms) else Sym(tuple(kept))


def loop_trips(loops: Mapping[Atom, LoopRun] | None) -> LoopTrips:
    """The loops' constant trip counts, and which loops to take through every trip."""
    loops = loops or {}
    return LoopTrips(
        {atom: run.trips for atom, run in loops.items() if run.trips is not None},
        frozenset(atom for atom, run in loops.items() if run.geometric),
    )


def _data_pattern(offset: Sym, loops: Mapping[Atom, LoopRun] | None) -> tuple[DataPattern | None, LoopRun | None]:
    if offset.variance is not Variance.DATA:
        return None, None
    atoms = set(offset.atoms())
    for run in (loops or {}).values():
        if (run.iteration in atoms or run.lane_steps & atoms) and run.lane_starts & atoms:
            return DataPattern.LANE_RANGES, run
    return DataPattern.GATHER, None


def _lane_stride(offset: Sym, shape: BlockShape) -> Sym | None:
    """Bytes from one lane's address to the next: the coefficient of threadIdx.x when the
    address is a polynomial in it, else the common difference of the evaluated addresses."""
    if offset.variance is Variance.DATA:
        return None
    thread_x = Atom(AtomKind.THREAD_INDEX, "x")
    nested = any(
        thread_x in argument.atoms()
        for atom in offset.atoms()
        if atom.kind is AtomKind.OPERATION
        for argument in atom.args
    )
    if not nested:
        return offset.coefficient_of(thread_x)
    addresses = LaneEvaluator(shape).lanes(offset)
    if None in addresses or len(addresses) < 2:
        return None
    differences = {b - a for a, b in zip(addresses, addresses[1:], strict=False)}
    return Sym.const(differences.pop()) if len(differences) == 1 else None


def sampled_warps(
    access: Access,
    offset: Sym,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
) -> Iterator[tuple[LaneEvaluator, int, list[bool], list[int | None]]]:
    """For each set of values tried (parameters, loop trips): the values, the first warp
    that runs ``access``, its running lanes and each lane's ``offset``."""
    for evaluator in evaluators(
        shape, offset, *(guard.condition for guard in access.guards), bindings=bindings, trips=loop_trips(loops)
    ):
        warp, active = first_running_warp(access.guards, evaluator)
        yield evaluator, warp, active, evaluator.lanes(offset, warp)


def access_pattern(
    access: Access,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
) -> AccessPattern:
    """The cost of one warp executing ``access``; ``bindings`` fixes parameter values;
    ``loops`` (the trace's) says which loops to take through every trip and which walk
    per-lane ranges."""
    size = access.size or 0
    piece = transfer_bytes(access.type, size)
    offset = lane_relevant(access.location.offset, bindings or {})
    stride = _lane_stride(offset, shape)
    data_pattern, data_loop = _data_pattern(offset, loops)
    results = []
    together = []
    lanes_active = 0
    for _, _, active, addresses in sampled_warps(access, offset, shape, bindings, loops):
        chosen = [a for a, on in zip(addresses, active, strict=False) if on]
        lanes_active = max(lanes_active, len(chosen))
        if not chosen:
            continue  # These values leave the access unexecuted in this warp; they say nothing.
        if None in chosen or size <= 0:
            results.append(None)
            continue
        results.append(request_sectors(chosen, size, piece) + (None, None))  # Shared: banks.shared_access_pattern.
        if piece < size:
            together.append(_sectors(chosen, size))
    known = [r for r in results if r is not None]
    if not known or len(known) < len(results):
        return AccessPattern(
            Confidence.UNKNOWN,
            lanes_active,
            None,
            None,
            None,
            stride,
            depends_on=_depends_on(offset),
            data_pattern=data_pattern,
            data_loop=data_loop,
        )
    paths_differ = _paths_differ(offset)
    block = (
        _block_cost(access, offset, shape, bindings, loops, size, piece, lanes_differ=not paths_differ)
        if paths_differ or _lanes_differ(access)
        else None
    )
    worst = max(known, key=lambda r: (r[0], r[2] or 0))
    best = min(known, key=lambda r: (r[0], r[2] or 0))
    exact = all(r == known[0] for r in known)
    lines = max(together, key=lambda cost: cost[0] / cost[1], default=None)
    confidence = Confidence.EXACT if exact else Confidence.SYMBOLIC
    return AccessPattern(
        confidence=confidence,
        active_lanes=lanes_active,
        sectors=worst[0],
        ideal_sectors=worst[1],
        best_sectors=best[0],
        lane_stride=stride,
        wavefronts=worst[2],
        ideal_wavefronts=worst[3],
        depends_on=() if exact else _depends_on(offset),
        piece_bytes=piece if 0 < piece < size else None,
        line_sectors=lines[0] if lines else None,
        line_ideal_sectors=lines[1] if lines else None,
        block=block,
    )


Block = tuple[int, int, int]
"""blockIdx (x, y, z) of one block of a launch."""

EDGE_CLASSES_FROM = 3
"""Grid axes longer than this are costed as their first block, one block standing for the
inner ones, and their last block: a bounds guard splits an axis once, at one block."""


def launch_blocks(conditions: Iterable[Sym], shape: BlockShape, bindings: Mapping[str, int]) -> list[tuple[Block, int]]:
    """The blocks of the launch whose warps decide ``conditions`` (an access's guards, a
    branch's condition and guards) differently, each with the number of blocks it stands
    for. One block (the sampled one) unless the grid is known and a condition compares
    block coordinates with what the launch gives (``j < n`` where ``j = blockIdx.y * 8 +
    threadIdx.y``): then the blocks at the grid's edges, where lanes past the bound exit,
    are judged beside the inner ones, as Nsight Compute counts every warp of the launch."""
    sampled = shape.sampled_block
    if shape.grid is None:
        return [(sampled, 1)]
    axes = {
        atom.name
        for condition in conditions
        if decidable(condition, bindings)
        for atom in condition.atoms()
        if atom.kind is AtomKind.BLOCK_INDEX
    }
    if not axes:
        return [(sampled, 1)]
    choices = []
    for axis, size, index in zip("xyz", shape.grid, sampled, strict=True):
        if axis not in axes or size <= 1:
            choices.append([(index, 1)])
        elif size <= EDGE_CLASSES_FROM:
            choices.append([(block, 1) for block in range(size)])
        else:
            choices.append([(0, 1), (1, size - 2), (size - 1, 1)])
    return [((x, y, z), wx * wy * wz) for x, wx in choices[0] for y, wy in choices[1] for z, wz in choices[2]]


def _same_lanes_everywhere(
    access: Access, evaluator: LaneEvaluator, blocks: list[tuple[Block, int]], launched: bool
) -> bool:
    """Whether the access's conditions leave every examined warp of every block that runs it
    the same lanes."""
    masks = set()
    for block, _ in blocks:
        at_block = evaluator_at_block(evaluator, block)
        for warp in range(min(evaluator.shape.warps(), MAX_WARPS_EXAMINED)):
            lanes = tuple(active_lanes(access.guards, at_block, warp, launched))
            if any(lanes):
                masks.add(lanes)
    return len(masks) <= 1


def evaluator_at_block(evaluator: LaneEvaluator, block: Block) -> LaneEvaluator:
    """``evaluator``'s values in another block of the launch."""
    return LaneEvaluator(
        evaluator.shape, evaluator.round, evaluator.bindings, block=block, iterations=evaluator.iterations
    )


def _paths_differ(offset: Sym) -> bool:
    """Whether the warps of a block may reach their addresses by different paths: the
    thread index sits inside an operation (a select, a division, a remainder)."""
    return any(
        atom.kind is AtomKind.THREAD_INDEX
        for top in offset.atoms()
        if top.kind is AtomKind.OPERATION
        for argument in top.args
        for atom in argument.atoms()
    )


def _lanes_differ(access: Access) -> bool:
    """Whether the warps of a block may run the access with different lanes: a condition on
    the thread index around it (a block's edges or halo: a few lanes in most warps, whole
    rows in others)."""
    return any(AtomKind.THREAD_INDEX in guard.condition.kinds for guard in access.guards)


def _block_cost(
    access: Access,
    offset: Sym,
    shape: BlockShape,
    bindings: Mapping[str, int] | None,
    loops: Mapping[Atom, LoopRun] | None,
    size: int,
    piece: int,
    lanes_differ: bool = False,
) -> BlockCost | None:
    """The sectors the warps of a block that run ``access`` need together, per set of values
    tried; None when a lane's address is unknown. Conditions on the parameters a launch
    gives decide lanes where the grid is known, and the launch's edge blocks count beside
    its inner ones (``launch_blocks``): the figures are then a block's average."""
    launched = shape.grid is not None
    blocks = launch_blocks((guard.condition for guard in access.guards), shape, bindings or {})
    tried = evaluators(
        shape, offset, *(guard.condition for guard in access.guards), bindings=bindings, trips=loop_trips(loops)
    )
    if lanes_differ and tried and _same_lanes_everywhere(access, tried[0], blocks, launched):
        return None  # The conditions leave every warp the same lanes: the first warp is the sample.
    totals = []
    for evaluator in tried:
        sectors = ideal = weights = warps = 0
        worst = None
        for block, weight in blocks:
            at_block = evaluator_at_block(evaluator, block)
            running = 0
            for warp in range(min(shape.warps(), MAX_WARPS_EXAMINED)):
                active = active_lanes(access.guards, at_block, warp, launched)
                chosen = [a for a, on in zip(at_block.lanes(offset, warp), active, strict=False) if on]
                if not chosen:
                    continue
                if None in chosen:
                    return None
                cost = request_sectors(chosen, size, piece)
                sectors, ideal, running = sectors + weight * cost[0], ideal + weight * cost[1], running + 1
                if worst is None or cost[1] / cost[0] < worst[2] / worst[1]:
                    worst = (warp, *cost)
            weights, warps = weights + weight, max(warps, running)
        if worst is not None:
            totals.append((round(sectors / weights), round(ideal / weights), warps, worst))
    if not totals:
        return None
    costliest = min(totals, key=lambda t: t[1] / t[0])
    cheapest = max(totals, key=lambda t: t[1] / t[0])
    sectors, ideal, warps, (warp, warp_sectors, warp_ideal) = costliest
    return BlockCost(warps, sectors, ideal, cheapest[0], cheapest[1], warp, warp_sectors, warp_ideal, lanes_differ)


@dataclass(frozen=True)
class SunkStore:
    """A store that nvcc issues as one instruction with stores of the other arms of its branch."""

    guards: tuple[Guard, ...]
    """The conditions the single store runs under: those around the whole branch."""
    lines: tuple[int, ...]
    """The lines of the other stores it is merged with."""


def _guard_key(guard: Guard) -> tuple:
    return (guard.condition, guard.holds, id(guard.decision), guard.after_exit)


def _covered(prefix: tuple[tuple, ...], members: list[tuple[tuple, ...]]) -> bool:
    """Whether stores under the guard lists ``members`` together run in every case of
    ``prefix``: one is under ``prefix`` itself, or both senses of the next decision are
    covered, each by stores of its own."""
    if prefix in members:
        return True
    depth = len(prefix)
    deeper = [m for m in members if len(m) > depth and m[:depth] == prefix]
    decisions = {(condition, decision, after_exit) for condition, _, decision, after_exit in (m[depth] for m in deeper)}
    return any(
        all(_covered((*prefix, (condition, holds, decision, after_exit)), deeper) for holds in (True, False))
        for condition, decision, after_exit in decisions
    )


def _ends_its_arm(position: int, accesses: list[Access]) -> bool:
    """Whether no access of the same loops follows the store at ``position`` under its
    conditions (in its arm, or in a branch nested in it)."""
    store = accesses[position]
    depth = len(store.guards)
    return not any(
        later.loops == store.loops
        and len(later.guards) >= depth
        and all(_guard_key(a) == _guard_key(b) for a, b in zip(later.guards, store.guards, strict=False))
        for later in accesses[position + 1 :]
    )


def sunk_stores(accesses: list[Access]) -> dict[int, SunkStore]:
    """Stores to one address in every arm of a branch (``if (j == 0) df[g] = a; else if
    (j == n - 1) df[g] = b; else df[g] = c;``), by ``id`` of each store. nvcc's optimizer
    (LLVM's store merging into the successor block of an if/else, applied arm by arm up
    an else-if chain) sinks them into one store of the selected value after the branch:
    one instruction that every lane reaching the branch runs, so its request is costed
    with the lanes of the whole branch, not those of one arm. Only the store that ends its
    arm moves (the optimizer merges the stores right before the branches join): with
    `out[2*i] = a; out[2*i+1] = b;` in both arms, the `out[2*i+1]` stores become one and
    the `out[2*i]` stores stay in their arms. Stores count as one address when their
    allocation, offset, width, loops and inlining path agree."""
    groups: dict[tuple, list[Access]] = {}
    for position, access in enumerate(accesses):
        if access.kind is AccessKind.STORE and access.guards and _ends_its_arm(position, accesses):
            key = (access.location, access.size, tuple(id(loop) for loop in access.loops), access.inlined_from)
            groups.setdefault(key, []).append(access)
    sunk: dict[int, SunkStore] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        keyed = [tuple(_guard_key(guard) for guard in member.guards) for member in members]
        for member, guards in zip(members, keyed, strict=True):
            for depth in range(len(guards)):
                prefix = guards[:depth]
                if _covered(prefix, [other for other in keyed if other[:depth] == prefix]):
                    lines = tuple(
                        sorted(
                            {
                                other.span.line
                                for other, other_guards in zip(members, keyed, strict=True)
                                if other is not member and other_guards[:depth] == prefix
                            }
                        )
                    )
                    sunk[id(member)] = SunkStore(member.guards[:depth], lines)
                    break
    return sunk
