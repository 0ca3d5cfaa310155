"""Shared-memory banks: the wavefronts a warp's request takes, as Hopper serves it.

Shared memory has 32 banks of 4-byte words; one wavefront delivers at most one word from
each bank, and lanes that ask for the same word share it (a broadcast). The lanes of a
request are served in phases: the whole warp for words of up to 4 bytes, half warps
(lanes 0-15, 16-31) for 8-byte words, quarter warps for 16-byte words. A phase takes as
many wavefronts as the most distinct words any one bank must deliver in it; a phase
with no running lane takes none. When each pair of neighbouring lanes (2k, 2k+1) asks
for at most one address, the phases are twice as wide (a whole warp for 8-byte words,
half a warp for 16-byte words).

The conflict-free figure (Nsight Compute's "ideal" wavefronts) is the wavefronts the
request's data would fill: ``ceil(units * size / 128)``, where the units are the running
lanes and a neighbouring pair that asks for one address counts once; with widened
phases, at least one per phase that runs.

Every figure of the probe bench/realcode/probes/shared_widths.cu (H100, per source line)
follows from this, and nothing simpler fits them all: ``double s[t / 2]`` takes one
wavefront but ``double s[8][8]`` read as ``s[ty % 8][tx % 8]`` by a 16x16 block takes two,
although both warps ask for the same 128 bytes, in the same banks, eight doubles per half
warp; only the lane pairs differ. Column reads of a ``double [16][16]`` tile take 32
wavefronts (16 per half warp, the halves using different banks); ``float4`` lanes that
share an address in groups of eight take two.

nvcc merges loads (or stores) of neighbouring words of one array into one wider
instruction when nothing between them forbids it and the widened word is aligned in
every lane: ``s[2 * t]`` and ``s[2 * t + 1]`` of a float array become one 8-byte access
of ``s[2 * t]``, which is conflict-free. ``merged_accesses`` finds those groups; each
member is costed as the wide access. The same holds across the trips of a loop nvcc
unrolls: ``s[row][k]`` for ``k = 0 .. 15`` becomes eight 16-byte loads of floats' pairs
of doubles (``LDS.128``), each covering two trips.

Nsight Compute sums wavefronts over every warp that runs the instruction, on every trip:
so does ``block_cost``, over the warps of one block and the loop trips tried, and the
ratio of the sums is the conflict a line shows (a conflict only in some warps, or in some
trips of a loop, shows diluted).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from cudalint import ir
from cudalint.dataflow.divergence import selects_only
from cudalint.dataflow.facts import Access, AccessKind, Barrier, LoopRun, MemorySpace
from cudalint.dataflow.ptx import MATRIX_ROWS
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import BlockShape, LaneEvaluator, evaluators
from cudalint.dataflow.warps import (
    AccessPattern,
    Block,
    Confidence,
    access_pattern,
    active_lanes,
    decidable,
    evaluator_at_block,
    lane_relevant,
    launch_blocks,
    loop_trips,
)

BANKS = 32
BANK_BYTES = 4
WAVEFRONT_BYTES = BANKS * BANK_BYTES
WIDEST_WORD = 16
"""Bytes one lane moves in the widest shared-memory instruction (LDS.128 / STS.128)."""
# Warps whose addresses prove a widened word aligned: the first few, as in the rest of
# the block the same lanes only move by whole rows.
ALIGNMENT_WARPS = 4

Request = Sequence[int | None]
"""The byte offset each lane of a warp asks for, None for lanes that do not run."""


@dataclass(frozen=True)
class Wavefronts:
    """Wavefronts taken and the conflict-free minimum, over one or more warp requests."""

    taken: int = 0
    ideal: int = 0
    requests: int = 0

    def __add__(self, other: Wavefronts) -> Wavefronts:
        return Wavefronts(self.taken + other.taken, self.ideal + other.ideal, self.requests + other.requests)

    @property
    def ratio(self) -> float:
        """Wavefronts per conflict-free wavefront: the n of an n-way conflict, on average."""
        return self.taken / self.ideal if self.ideal else 1.0

    @property
    def per_request(self) -> float:
        return self.taken / self.requests if self.requests else 0.0

    @property
    def ideal_per_request(self) -> float:
        return self.ideal / self.requests if self.requests else 0.0


def _pairs_share_addresses(request: Request) -> bool:
    """Each pair of neighbouring lanes asks for at most one address."""
    for first in range(0, len(request) - 1, 2):
        low, high = request[first], request[first + 1]
        if low is not None and high is not None and low != high:
            return False
    return True


def _units(request: Request) -> int:
    """Running lanes, a neighbouring pair asking for one address counted once."""
    units = 0
    for first in range(0, len(request), 2):
        units += len({address for address in request[first : first + 2] if address is not None})
    return units


def _lanes_per_phase(request: Request, size: int, matrix: bool = False) -> int:
    if matrix:
        return MATRIX_ROWS
    if size <= BANK_BYTES:
        return len(request) or 1
    lanes = max(1, WAVEFRONT_BYTES // size)
    return lanes * 2 if _pairs_share_addresses(request) else lanes


def request_wavefronts(request: Request, size: int, matrix: bool = False) -> Wavefronts:
    """The wavefronts one warp request of ``size``-byte words takes, and its conflict-free
    minimum; ``matrix``: an ldmatrix/stmatrix request, the rows of one 8x8 matrix (8 lanes)
    per phase, one wavefront per matrix at best."""
    running = [address for address in request if address is not None]
    if not running:
        return Wavefronts()
    # Moving every lane by whole words only renames the banks: warps that differ by such a
    # move (rows of a tile, warps of a block) share one evaluation.
    shift = min(running) // BANK_BYTES * BANK_BYTES
    return _request_wavefronts(tuple(None if a is None else a - shift for a in request), max(size, 1), matrix)


def lane_words(address: int, size: int) -> range:
    """The 4-byte words (bank ``word % BANKS``) a lane's ``size``-byte access at ``address`` covers."""
    return range(address // BANK_BYTES, (address + size - 1) // BANK_BYTES + 1)


def request_phases(request: Request, size: int, matrix: bool = False) -> dict[int, dict[int, set[int]]]:
    """The request's phases (by number): the distinct words each bank must deliver in each."""
    lanes_per_phase = _lanes_per_phase(request, size, matrix)
    phases: dict[int, dict[int, set[int]]] = {}
    for lane, address in enumerate(request):
        if address is None:
            continue
        banks = phases.setdefault(lane // lanes_per_phase, {})
        for word in lane_words(address, size):
            banks.setdefault(word % BANKS, set()).add(word)
    return phases


def phase_lanes(request: Request, size: int, matrix: bool = False) -> int:
    """Lanes served together in one phase of the request."""
    return _lanes_per_phase(request, size, matrix)


@functools.lru_cache(maxsize=4096)
def _request_wavefronts(request: tuple[int | None, ...], size: int, matrix: bool = False) -> Wavefronts:
    phases = request_phases(request, size, matrix)
    taken = sum(max(len(words) for words in banks.values()) for banks in phases.values())
    if matrix:
        return Wavefronts(taken, len(phases), 1)
    ideal = max(1, -(-_units(request) * size // WAVEFRONT_BYTES))
    if size > BANK_BYTES and _pairs_share_addresses(request):
        ideal = max(ideal, len(phases))  # Each widened phase that runs is a wavefront even then.
    return Wavefronts(taken, ideal, 1)


@dataclass(frozen=True)
class Collision:
    """The worst phase of a request: lanes asking one bank for different words."""

    lanes: tuple[int, ...]
    """Lanes of the phase (numbered from 0 within it) whose words share ``bank``, one per word."""
    bank: int
    """The first bank of the colliding lanes' words."""
    banks: int
    """How many banks each lane's word spans (4 for 16 bytes)."""
    wavefronts: int
    """Wavefronts that phase takes."""


def worst_collision(requests: Sequence[Request], size: int, matrix: bool = False) -> Collision | None:
    """The phase of ``requests`` that takes the most wavefronts, with the lanes that collide
    in it; None when no phase has two words in one bank."""
    worst: Collision | None = None
    for request in requests:
        per_phase = _lanes_per_phase(request, size, matrix)
        for phase, banks in request_phases(request, size, matrix).items():
            bank, words = max(banks.items(), key=lambda item: (len(item[1]), -item[0]))
            if len(words) < 2 or (worst is not None and len(words) <= worst.wavefronts):
                continue
            lanes: dict[int, int] = {}
            for lane in range(phase * per_phase, min(len(request), (phase + 1) * per_phase)):
                address = request[lane]
                if address is None:
                    continue
                word = next((w for w in lane_words(address, size) if w % BANKS == bank), None)
                if word is not None and word not in lanes.values():
                    lanes[lane - phase * per_phase] = word
            first = min(lane_words(request[phase * per_phase + min(lanes)], size)) % BANKS
            worst = Collision(tuple(sorted(lanes)), first, len(lane_words(0, size)), len(words))
    return worst


GLOBAL_LINE_BYTES = 128
COPY_PHASE_LANES = WAVEFRONT_BYTES // WIDEST_WORD


def _copy_source(access: Access, size: int) -> Sym | None:
    """The lane-varying part of the global address a 16-byte cp.async copies from; None
    for other accesses."""
    if access.copy_source is None or size != WIDEST_WORD:
        return None
    return lane_relevant(access.copy_source.offset)


def _copy_cost(requests: Mapping[int, Request], sources: Mapping[int, Sequence[int | None]], size: int) -> Wavefronts:
    """The block's wavefronts for a 16-byte cp.async: each 8-lane phase as a store, except
    that one wavefront takes data of one global 128-byte line only, so the lanes of a phase
    that read different lines are written in separate wavefronts (measured: a conflict-free
    tile filled from eight 64-byte global rows takes 2x). Where the lines start is not
    known (the allocation's offset), so the fewest wavefronts over the alignments is taken."""
    total = Wavefronts()
    for warp, request in requests.items():
        plain = request_wavefronts(request, size)
        lanes = sources.get(warp)
        if lanes is None or any(a is not None and lanes[i] is None for i, a in enumerate(request)):
            total += plain
            continue
        known = [address for address, own in zip(lanes, request, strict=False) if own is not None]
        base = min(known, default=0)
        split = min(
            _line_split_wavefronts(request, lanes, base - alignment, size)
            for alignment in range(0, GLOBAL_LINE_BYTES, size)
        )
        total += Wavefronts(max(plain.taken, split), plain.ideal, 1)
    return total


def _line_split_wavefronts(request: Request, lanes: Sequence[int | None], origin: int, size: int) -> int:
    taken = 0
    for start in range(0, len(request), COPY_PHASE_LANES):
        groups: dict[int, list[int]] = {}
        for lane in range(start, min(len(request), start + COPY_PHASE_LANES)):
            address, source = request[lane], lanes[lane]
            if address is not None and source is not None:
                groups.setdefault((source - origin) // GLOBAL_LINE_BYTES, []).append(address)
        for addresses in groups.values():
            banks: dict[int, set[int]] = {}
            for address in addresses:
                for word in lane_words(address, size):
                    banks.setdefault(word % BANKS, set()).add(word)
            taken += max(len(words) for words in banks.values())
    return taken


# Warps of a block costed for one access: all of most blocks. Larger blocks repeat the
# patterns of their first warps (rows of a tile, planes of a cube), so the first ones
# that run the access stand for the rest.
MAX_WARPS_COSTED = 16


def block_requests(
    access: Access, offset: Sym, evaluator: LaneEvaluator, launched: bool = False
) -> dict[int, Request] | None:
    """The requests of the block's warps that run ``access`` under ``evaluator``'s values
    (the first ``MAX_WARPS_COSTED`` of them), by warp; None when a running lane's address is not known.
    ``launched``: conditions on parameters the launch gives (``i < n``) decide lanes too."""
    requests: dict[int, Request] = {}
    for warp in range(evaluator.shape.warps()):
        if len(requests) == MAX_WARPS_COSTED:
            break
        running = active_lanes(access.guards, evaluator, warp, launched)
        if not any(running):
            continue
        addresses = evaluator.lanes(offset, warp)
        if matrix_access(access):
            # Only the lanes that give a row of one of the matrices (8 per matrix) use their address.
            rows = MATRIX_ROWS * access.instruction.matrices
            running = [on and lane < rows for lane, on in enumerate(running)]
        if any(on and address is None for address, on in zip(addresses, running, strict=False)):
            return None
        requests[warp] = [address if on else None for address, on in zip(addresses, running, strict=False)]
    return requests


def launch_cost(
    access: Access, offset: Sym, evaluator: LaneEvaluator, size: int, blocks: Sequence[tuple[Block, int]]
) -> Wavefronts | None:
    """The wavefronts of ``access`` summed over the launch's ``blocks`` (weighted by the blocks
    each stands for) under ``evaluator``'s values; None when a running lane's address is not known.
    Conditions on the parameters the launch gives decide lanes only where the grid is known: in
    a sampled block, a bound would cut lanes at a place no launch chose."""
    total = Wavefronts()
    launched = evaluator.shape.grid is not None
    for block, weight in blocks:
        at_block = evaluator_at_block(evaluator, block)
        requests = block_requests(access, offset, at_block, launched)
        if requests is None:
            return None
        cost = block_cost(list(requests.values()), size, matrix_access(access))
        total += Wavefronts(cost.taken * weight, cost.ideal * weight, cost.requests * weight)
    return total


def matrix_access(access: Access) -> bool:
    """Made by ldmatrix or stmatrix: 8x8 matrices of 16-byte rows, one matrix per phase."""
    return access.instruction is not None and access.instruction.matrices > 0


@dataclass(frozen=True)
class UnrolledTrips:
    """Trips of an unrolled loop whose accesses to neighbouring words nvcc merges."""

    counter: Atom
    trips: int
    words: int
    """Trips (words) per merged access."""


def unrolled_trips(
    access: Access,
    offset: Sym,
    shape: BlockShape,
    loops: Mapping[Atom, LoopRun] | None,
    unrolled: Callable[[LoopRun], int | None],
) -> UnrolledTrips | None:
    """When a loop ``offset`` moves with is unrolled (``unrolled`` gives its trips, None for
    a rolled loop), advances one word per trip and starts aligned in every lane, the trips
    nvcc merges into one access of 2 or 4 words (at most 16 bytes). Other loops around it
    may move the whole request by whole wide words (a register tile's rows loaded in an
    outer loop, `As[k * BM + row * TM + i]` with `i` the unrolled word)."""
    counters = {atom for atom in offset.atoms() if atom.kind is AtomKind.ITERATION}
    size = access.size or 0
    if not counters or not size or _sampled([offset], {}):
        return None
    stepping = [
        counter
        for counter in counters
        if offset.coefficient_of(counter).constant == size and _shifts_by(offset, counter, size)
    ]
    if len(stepping) != 1:
        return None
    counter = stepping[0]
    run = (loops or {}).get(counter)
    trips = unrolled(run) if run is not None else None
    if not trips or _branches_within(run.stmt):
        return None
    others = counters - {counter}
    for words in (4, 2):
        width = words * size
        if (
            width <= WIDEST_WORD
            and trips % words == 0
            and all(_shifts_by(offset, other, width) for other in others)
            and _aligned_at(offset, width, shape, dict.fromkeys(counters, 0))
        ):
            return UnrolledTrips(counter, trips, words)
    return None


def _branches_within(loop: ir.Stmt) -> bool:
    """Whether the loop's body branches: an ``if`` or ``switch`` whose paths do more than
    select register values. nvcc merges neighbouring words within one basic block, and
    such a branch puts each unrolled trip's access in a block of its own (a load used
    only under the branch is sunk into it): measured, `double Ijb = s[j][k]` in an
    unrolled `k` loop whose body then runs `if (k < 8 && i < 8) { ... }` stays one
    LDS.64 per trip."""
    return any(
        stmt.kind is ir.StmtKind.SWITCH or (stmt.kind is ir.StmtKind.IF and not selects_only(stmt))
        for child in loop.body
        for stmt in child.walk()
    )


def _shifts_by(offset: Sym, counter: Atom, width: int) -> bool:
    """Whether each trip of ``counter``'s loop moves every lane's address by the same whole
    number of ``width``-byte words, and by nothing else."""
    coefficient = offset.coefficient_of(counter)
    step = coefficient.constant
    return step is not None and step % width == 0 and counter not in (offset - coefficient * Sym.atom(counter)).atoms()


def _aligned_at(offset: Sym, width: int, shape: BlockShape, iterations: Mapping[Atom, int]) -> bool:
    evaluator = LaneEvaluator(shape, iterations=iterations)
    return all(
        address is not None and address % width == 0
        for warp in range(min(shape.warps(), ALIGNMENT_WARPS))
        for address in evaluator.lanes(offset, warp)
    )


def access_rounds(
    access: Access,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
    offset: Sym | None = None,
    merged_trips: UnrolledTrips | None = None,
) -> list[tuple[LaneEvaluator, dict[int, Request]]] | None:
    """The block's requests of ``access`` by warp (at ``offset`` when given) for each set of values
    tried (loop trips, runtime values), or for the first trip of each merged group of
    ``merged_trips``, with the values tried; None when a running lane's address is not known."""
    offset = access.location.offset if offset is None else offset
    # Conditions on parameters or loaded data let every lane through (``active_lanes``):
    # only those made of indices and loop trips need values tried.
    conditions = [guard.condition for guard in access.guards if decidable(guard.condition)]
    if merged_trips is None:
        tried = evaluators(shape, offset, *conditions, bindings=bindings or {}, trips=loop_trips(loops))
    else:
        tried = [
            LaneEvaluator(shape, bindings=bindings, iterations={merged_trips.counter: trip})
            for trip in range(0, merged_trips.trips, merged_trips.words)
        ]
    rounds = []
    for evaluator in tried:
        requests = block_requests(access, offset, evaluator)
        if requests is None:
            return None
        rounds.append((evaluator, requests))
    return rounds


def block_cost(requests: list[Request], size: int, matrix: bool = False) -> Wavefronts:
    total = Wavefronts()
    for request in requests:
        total += request_wavefronts(request, size, matrix)
    return total


@dataclass(frozen=True)
class WideAccess:
    """The single instruction nvcc makes of several accesses to neighbouring words."""

    offset: Sym
    """Byte offset of its first word in the array."""
    size: int
    """Bytes per lane."""


def merged_accesses(
    accesses: Sequence[Access],
    barriers: Sequence[Barrier],
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
) -> dict[int, WideAccess]:
    """The wide access each merged shared access belongs to, by ``id`` of the access.

    Accesses merge when they load (or store) words of one array, of one size, the same
    number of bytes apart in every lane, under the same conditions and loops, with no
    barrier between them in the source and no access of the other kind to the array
    between them in the trace; a run of 2 or 4 neighbouring words merges when its first
    word is aligned to the run's size in every lane, so nvcc can prove the wide word
    aligned."""
    groups: dict[tuple, list[int]] = {}
    for index, access in enumerate(accesses):
        if (
            access.space is MemorySpace.SHARED
            and access.size
            and access.size < WIDEST_WORD
            and access.instruction is None  # An instruction written in PTX is issued as written.
        ):
            key = (
                access.location.base,
                access.kind,
                access.size,
                _conditions(access),
                tuple(id(loop) for loop in access.loops),
            )
            groups.setdefault(key, []).append(index)
    merged: dict[int, WideAccess] = {}
    for members in groups.values():
        for run in _neighbour_runs([accesses[index] for index in members]):
            merged.update(_aligned_merges(run, accesses, barriers, shape, bindings))
    return merged


def _conditions(access: Access) -> tuple:
    return tuple((guard.condition, guard.holds, id(guard.decision)) for guard in access.guards)


def _neighbour_runs(members: list[Access]) -> list[dict[int, Access]]:
    """The members as runs of words a constant distance apart: byte distance from the
    run's first-seen member to each member."""
    runs: list[tuple[Access, dict[int, Access]]] = []
    for access in members:
        for anchor, run in runs:
            distance = (access.location.offset - anchor.location.offset).constant
            if distance is not None and abs(distance) < WIDEST_WORD and distance not in run:
                run[distance] = access
                break
        else:
            runs.append((access, {0: access}))
    return [run for _, run in runs if len(run) > 1]


def _aligned_merges(
    run: dict[int, Access],
    accesses: Sequence[Access],
    barriers: Sequence[Barrier],
    shape: BlockShape,
    bindings: Mapping[str, int] | None,
) -> dict[int, WideAccess]:
    merged: dict[int, WideAccess] = {}
    size = next(iter(run.values())).size or 0
    for words in (4, 2):
        width = words * size
        if width > WIDEST_WORD:
            continue
        for start in sorted(run):
            members = [run.get(start + k * size) for k in range(words)]
            if any(m is None or id(m) in merged for m in members):
                continue
            first = members[0].location.offset
            if _aligned(first, width, shape, bindings) and _adjacent(members, accesses, barriers):
                merged.update({id(m): WideAccess(first, width) for m in members})
    return merged


def _aligned(offset: Sym, width: int, shape: BlockShape, bindings: Mapping[str, int] | None) -> bool:
    for evaluator in evaluators(shape, offset, bindings=bindings):
        for warp in range(min(shape.warps(), ALIGNMENT_WARPS)):
            if any(address is None or address % width for address in evaluator.lanes(offset, warp)):
                return False
    return True


def _adjacent(members: list[Access], accesses: Sequence[Access], barriers: Sequence[Barrier]) -> bool:
    """Nothing between the members stops nvcc from issuing them as one instruction."""
    positions = sorted(next(i for i, a in enumerate(accesses) if a is m) for m in members)
    base, kind = members[0].location.base, members[0].kind
    other = AccessKind.STORE if kind is AccessKind.LOAD else AccessKind.LOAD
    if any(a.location.base == base and a.kind is other for a in accesses[positions[0] : positions[-1]]):
        return False
    places = sorted(_place(m.span) for m in members)
    return not any(
        places[0] < _place(barrier.expr.span) < places[-1]
        for barrier in barriers
        if barrier.expr.span.file == members[0].span.file
    )


def _place(span: ir.Span) -> tuple[str, int, int]:
    return span.file, span.line, span.column


def _sampled(values: Sequence[Sym], bindings: Mapping[str, int]) -> tuple[str, ...]:
    """The uniform unknowns (parameters not bound, values loaded at run time) in ``values``."""
    names = {
        atom.name
        for value in values
        for atom in value.atoms()
        if atom.kind in (AtomKind.UNIFORM, AtomKind.WARP_UNIFORM)
        or (atom.kind is AtomKind.PARAMETER and atom.name not in bindings)
    }
    return tuple(sorted(names))


def _one_lane_chosen(access: Access, shape: BlockShape) -> bool:
    """Runs in one lane at most: under ``lane == value`` where each lane's side differs and
    the value is the same for the whole warp (``if (threadIdx.x == best[blockIdx.x])``),
    whatever the value turns out to be."""
    for guard in access.guards:
        parts = guard.condition.terms
        if not guard.holds or len(parts) != 1 or parts[0][1] != 1 or len(parts[0][0]) != 1:
            continue
        atom = parts[0][0][0]
        if atom.kind is not AtomKind.OPERATION or atom.name != "==":
            continue
        sides = sorted(atom.args, key=lambda side: side.variance)
        if sides[0].variance > Variance.WARP_UNIFORM or sides[1].variance is not Variance.THREAD:
            continue
        lanes = LaneEvaluator(shape).lanes(sides[1])
        if None not in lanes and len(set(lanes)) == len(lanes):
            return True
    return False


def _lanes_chosen_by_data(access: Access) -> tuple[str, ...]:
    """When data read per lane decides which lanes run the access (``if (edges & bit)``),
    the lanes that collide may not run at all: the cost depends on the data."""
    if any(guard.condition.variance is Variance.DATA for guard in access.guards):
        return ("the data that decides which lanes run it",)
    return ()


def _loops_named(values: Sequence[Sym]) -> tuple[str, ...]:
    return tuple(
        sorted(
            {
                f"the loop at line {atom.name.removeprefix('L')}"
                for value in values
                for atom in value.atoms()
                if atom.kind is AtomKind.ITERATION
            }
        )
    )


@dataclass(frozen=True)
class SharedInstruction:
    """What runs for a shared access: its own load or store, or the wider one nvcc merged it into."""

    offset: Sym
    """Byte offset of each lane's word, without the terms that only move the whole request."""
    size: int
    """Bytes per lane."""
    merged_trips: UnrolledTrips | None = None


def shared_instruction(
    access: Access,
    shape: BlockShape,
    loops: Mapping[Atom, LoopRun] | None = None,
    wide: WideAccess | None = None,
    unrolled: Callable[[LoopRun], int | None] | None = None,
) -> SharedInstruction:
    """The instruction that serves ``access`` (see ``shared_access_pattern`` for ``wide`` and ``unrolled``)."""
    size = wide.size if wide else access.size or 0
    offset = lane_relevant(wide.offset if wide else access.location.offset)
    merged_trips = (
        None
        if wide or unrolled is None or access.instruction is not None
        else unrolled_trips(access, offset, shape, loops, unrolled)
    )
    if merged_trips is not None:
        size *= merged_trips.words
    return SharedInstruction(offset, size, merged_trips)


def shared_access_pattern(
    access: Access,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
    wide: WideAccess | None = None,
    unrolled: Callable[[LoopRun], int | None] | None = None,
) -> AccessPattern:
    """``access_pattern`` with the wavefronts of a shared access: per request, averaged over
    the block's warps and, when only loop trips change the addresses, over the trips
    tried; when uniform unknowns (a runtime stride) change them, the worst value tried.
    ``wide``: the instruction nvcc merged the access into, which is what runs;
    ``unrolled``: the trips of a loop nvcc unrolls (None for a rolled one)."""
    pattern = access_pattern(access, shape, bindings, loops)
    if _one_lane_chosen(access, shape):
        pattern = replace(pattern, active_lanes=1)
    instruction = shared_instruction(access, shape, loops, wide, unrolled)
    offset, size = instruction.offset, instruction.size
    tried = access_rounds(access, shape, bindings, loops, offset, instruction.merged_trips)
    blocks = launch_blocks((guard.condition for guard in access.guards), shape, bindings or {})
    launched = (
        None if tried is None else [launch_cost(access, offset, evaluator, size, blocks) for evaluator, _ in tried]
    )
    if tried is None or None in launched or size <= 0:
        return replace(pattern, confidence=Confidence.UNKNOWN, wavefronts=None, ideal_wavefronts=None)
    rounds = [(evaluator, cost) for (evaluator, _), cost in zip(tried, launched, strict=True) if cost.requests]
    source = _copy_source(access, size)
    # Where the source's lanes depend on values known only at run time, which global lines
    # each phase reads is open: the split is not counted, and the pattern says what it awaits.
    split_open = () if source is None else _sampled([source], bindings or {})
    if source is not None and not split_open:
        rounds = [
            (evaluator, _copy_cost(requests, {warp: evaluator.lanes(source, warp) for warp in requests}, size))
            for evaluator, requests in tried
            if requests
        ]
    costs = [cost for _, cost in rounds]
    if not costs:
        return pattern
    conditions = [guard.condition for guard in access.guards if decidable(guard.condition)]
    chosen_by_data = _lanes_chosen_by_data(access)
    unknowns = _sampled([offset, *conditions], bindings or {}) + chosen_by_data
    trips = (
        None
        if unknowns or instruction.merged_trips or unrolled is None
        else unrolled_trip_costs(rounds, [offset, *conditions], loops or {}, unrolled)
    )
    trip_degrees: tuple[float, ...] = ()
    total_trips = 0
    if unknowns:
        cost = max(costs, key=lambda c: c.ratio)
    elif trips:
        # Each trip is an instruction of its own: the costliest one is what the line shows.
        significant, total_trips = trips
        cost = max(significant, key=lambda c: c.ratio)
        trip_degrees = tuple(round(trip.ratio, 2) for trip in significant)
    else:
        cost = Wavefronts()
        for each in costs:
            cost += each
    exact = not chosen_by_data and all(c.ratio == costs[0].ratio for c in costs)
    return replace(
        pattern,
        confidence=Confidence.EXACT if exact else Confidence.SYMBOLIC,
        wavefronts=cost.per_request,
        ideal_wavefronts=cost.ideal_per_request,
        depends_on=() if exact else unknowns + _loops_named([offset, *conditions]),
        trip_degrees=() if exact else trip_degrees,
        unrolled_trips=total_trips if trip_degrees and not exact else 0,
        split_depends_on=split_open,
    )


SIGNIFICANT_TRIP_SHARE = 0.1
"""A trip of an unrolled loop whose instruction takes less than this share of the wavefronts
of the loop's busiest trip (a tree's last trips, where a lane or two still run) is not
judged: its conflict costs next to nothing."""


def unrolled_trip_costs(
    rounds: Sequence[tuple[LaneEvaluator, Wavefronts]],
    values: Sequence[Sym],
    loops: Mapping[Atom, LoopRun],
    unrolled: Callable[[LoopRun], int | None],
) -> tuple[list[Wavefronts], int] | None:
    """The wavefronts of each trip that matters, and the number of trips tried, when every
    loop ``values`` move with is one nvcc unrolls whole: each trip is then an instruction of
    its own, which Nsight Compute counts apart, so a conflict in some trips is not diluted by
    the others. None when a loop stays rolled (one instruction serves every trip: the sum is
    what it shows)."""
    counters = {atom for value in values for atom in value.atoms() if atom.kind is AtomKind.ITERATION}
    if not counters or any(atom not in loops or not unrolled(loops[atom]) for atom in counters):
        return None
    by_trip: dict[tuple, Wavefronts] = {}
    for evaluator, cost in rounds:
        trip = tuple(sorted((str(atom), evaluator.iterations.get(atom, evaluator.round)) for atom in counters))
        by_trip.setdefault(trip, cost)
    busiest = max(cost.taken for cost in by_trip.values())
    return [cost for cost in by_trip.values() if cost.taken >= SIGNIFICANT_TRIP_SHARE * busiest], len(by_trip)
