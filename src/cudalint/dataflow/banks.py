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
lanes and a neighbouring pair that asks for one address counts once.

Every figure of the probe bench/realcode/probes/shared_widths.cu (H100, per source line)
follows from this, and nothing simpler fits them all: ``double s[t / 2]`` takes one
wavefront but ``double s[8][8]`` read as ``s[ty % 8][tx % 8]`` by a 16x16 block takes two,
although both warps ask for the same 128 bytes, in the same banks, eight doubles per half
warp; only the lane pairs differ. Column reads of a ``double [16][16]`` tile take 32
wavefronts (16 per half warp, the halves using different banks); ``float4`` lanes that
share an address in groups of eight take two.

Nsight Compute sums wavefronts over every warp that runs the instruction, on every trip:
so does ``block_cost``, over the warps of one block and the loop trips tried, and the
ratio of the sums is the conflict a line shows (a conflict only in some warps, or in some
trips of a loop, shows diluted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from cudalint.dataflow.interpret import Access, LoopRun
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym
from cudalint.dataflow.threads import BlockShape, LaneEvaluator, evaluators
from cudalint.dataflow.warps import AccessPattern, Confidence, access_pattern, active_lanes, lane_relevant, loop_trips

BANKS = 32
BANK_BYTES = 4
WAVEFRONT_BYTES = BANKS * BANK_BYTES

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
        units += len({address for address in request[first:first + 2] if address is not None})
    return units


def _lanes_per_phase(request: Request, size: int) -> int:
    if size <= BANK_BYTES:
        return len(request) or 1
    lanes = max(1, WAVEFRONT_BYTES // size)
    return lanes * 2 if _pairs_share_addresses(request) else lanes


def request_wavefronts(request: Request, size: int) -> Wavefronts:
    """The wavefronts one warp request of ``size``-byte words takes, and its conflict-free minimum."""
    size = max(size, 1)
    running = [(lane, address) for lane, address in enumerate(request) if address is not None]
    if not running:
        return Wavefronts()
    lanes_per_phase = _lanes_per_phase(request, size)
    phases: dict[int, dict[int, set[int]]] = {}
    for lane, address in running:
        banks = phases.setdefault(lane // lanes_per_phase, {})
        for word in range(address // BANK_BYTES, (address + size - 1) // BANK_BYTES + 1):
            banks.setdefault(word % BANKS, set()).add(word)
    taken = sum(max(len(words) for words in banks.values()) for banks in phases.values())
    ideal = max(1, -(-_units(request) * size // WAVEFRONT_BYTES))
    return Wavefronts(taken, ideal, 1)


def block_requests(access: Access, offset: Sym, evaluator: LaneEvaluator) -> list[Request] | None:
    """The request of every warp of the block that runs ``access`` under ``evaluator``'s
    values; None when a running lane's address is not known."""
    requests = []
    for warp in range(evaluator.shape.warps()):
        running = active_lanes(access.guards, evaluator, warp)
        if not any(running):
            continue
        addresses = evaluator.lanes(offset, warp)
        request = [address if on else None for address, on in zip(addresses, running)]
        if any(on and address is None for address, on in zip(addresses, running)):
            return None
        requests.append(request)
    return requests


def block_cost(requests: list[Request], size: int) -> Wavefronts:
    total = Wavefronts()
    for request in requests:
        total += request_wavefronts(request, size)
    return total


def _sampled(values: Sequence[Sym], bindings: Mapping[str, int]) -> tuple[str, ...]:
    """The uniform unknowns (parameters not bound, values loaded at run time) in ``values``."""
    names = {atom.name for value in values for atom in value.atoms()
             if atom.kind in (AtomKind.UNIFORM, AtomKind.WARP_UNIFORM)
             or (atom.kind is AtomKind.PARAMETER and atom.name not in bindings)}
    return tuple(sorted(names))


def _loops_named(values: Sequence[Sym]) -> tuple[str, ...]:
    return tuple(sorted({f"the loop at line {atom.name.removeprefix('L')}" for value in values
                         for atom in value.atoms() if atom.kind is AtomKind.ITERATION}))


def shared_access_pattern(access: Access, shape: BlockShape, bindings: Mapping[str, int] | None = None,
                          loops: Mapping[Atom, LoopRun] | None = None) -> AccessPattern:
    """``access_pattern`` with the wavefronts of a shared access: per request, averaged over
    the block's warps and, when only loop trips change the addresses, over the trips
    tried; when uniform unknowns (a runtime stride) change them, the worst value tried."""
    pattern = access_pattern(access, shape, bindings, loops)
    size = access.size or 0
    offset = lane_relevant(access.location.offset)
    conditions = [guard.condition for guard in access.guards]
    bound = bindings or {}
    costs = []
    for evaluator in evaluators(shape, offset, *conditions, bindings=bound, trips=loop_trips(loops)):
        requests = block_requests(access, offset, evaluator)
        if requests is None or size <= 0:
            return replace(pattern, confidence=Confidence.UNKNOWN, wavefronts=None, ideal_wavefronts=None)
        if requests:
            costs.append(block_cost(requests, size))
    if not costs:
        return pattern
    unknowns = _sampled([offset, *conditions], bound)
    if unknowns:
        cost = max(costs, key=lambda c: c.ratio)
    else:
        cost = Wavefronts()
        for each in costs:
            cost += each
    exact = all(c.ratio == costs[0].ratio for c in costs)
    return replace(pattern, confidence=Confidence.EXACT if exact else Confidence.SYMBOLIC,
                   wavefronts=cost.per_request, ideal_wavefronts=cost.ideal_per_request,
                   depends_on=() if exact else unknowns + _loops_named([offset, *conditions]))
