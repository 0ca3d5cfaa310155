"""Threads of a block: its shape, the lanes of a warp, and evaluating a value in each lane."""

from __future__ import annotations

import functools
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from cudalint.dataflow.symbolic import COMPARISONS, Atom, AtomKind, Sym, Variance

WARP_SIZE = 32
# blockDim.x used when nothing says how blocks are shaped: a multiple of 32, so that
# threadIdx.y/z and threadIdx.x / 32 are the same across a warp, as in most kernels.
ASSUMED_BLOCK_X = 128
# Values tried for parameters and other uniform unknowns: a mix of 1, powers of two and
# odd numbers, so that results that depend on the value show up as different.
SAMPLE_VALUES = (1027, 1, 2, 64, 3, 1024, 8, 33)
SAMPLE_ROUNDS = len(SAMPLE_VALUES)  # every unknown takes every sample value once


@dataclass(frozen=True)
class BlockShape:
    x: int
    y: int = 1
    z: int = 1
    source: str = "assumed"
    """Where the shape comes from: a launch, ``__launch_bounds__``, or an assumption."""
    grid: tuple[int, int, int] | None = None
    """gridDim, when the launch the shape comes from gives it; None: sampled."""
    taken: str = ""
    """The axes the launch leaves open and the values taken for them (``blockDim.y = 128``);
    empty when the shape is given whole or assumed whole."""

    @property
    def assumed(self) -> bool:
        return self.source == "assumed"

    @property
    def threads(self) -> int:
        return self.x * self.y * self.z

    def lane_coordinates(self, warp: int) -> tuple[tuple[int, int, int], ...]:
        """(threadIdx.x, .y, .z) of each lane of warp ``warp``; lanes are consecutive linear ids."""
        return _lane_coordinates(self, warp)

    def warps(self) -> int:
        return max(1, -(-self.threads // WARP_SIZE))

    def within_grid(self, block: tuple[int, int, int]) -> tuple[int, int, int]:
        """``block``'s indices, within the launch's grid when it is known (a one-block launch
        has only block 0)."""
        if self.grid is None:
            return block
        return tuple(min(index, size - 1) for index, size in zip(block, self.grid, strict=True))

    @property
    def sampled_block(self) -> tuple[int, int, int]:
        """The block whose warps are evaluated."""
        return self.within_grid(SAMPLE_BLOCK)

    def describe(self) -> str:
        dims = f"({self.x}, {self.y}, {self.z})" if (self.y, self.z) != (1, 1) else f"{self.x}"
        taken = f"; not given there, taken as {self.taken}" if self.taken else ""
        return f"blockDim {dims} ({self.source}{taken})"


ASSUMED_SHAPE = BlockShape(ASSUMED_BLOCK_X, 1, 1, "assumed")


@functools.lru_cache(maxsize=256)
def _lane_coordinates(shape: BlockShape, warp: int) -> tuple[tuple[int, int, int], ...]:
    coordinates = []
    for lane in range(WARP_SIZE):
        linear = warp * WARP_SIZE + lane
        if linear >= shape.threads:
            break
        coordinates.append((linear % shape.x, (linear // shape.x) % shape.y, linear // (shape.x * shape.y)))
    return tuple(coordinates)


def _stable_index(atom: Atom, round_: int) -> int:
    return (zlib.crc32(str(atom).encode()) + round_) % len(SAMPLE_VALUES)


# Lanes of a value per (value, warp, evaluator): the accesses and branches of a kernel
# share their index arithmetic (`blockIdx.x * blockDim.x + threadIdx.x`), their guards and
# their evaluators' values, so most evaluations repeat. Cleared when full.
_LANES: dict[tuple, tuple[int | None, ...]] = {}
MAX_CACHED_LANES = 65536


SAMPLE_BLOCK = (3, 2, 1)
"""The block whose warps are evaluated: not block 0, where every ``blockIdx`` term vanishes
and would hide what depends on it. What is said of lanes then holds in this block."""


_EVALUATOR_KEYS: dict[tuple, _EvaluatorKey] = {}
_UNKNOWN = object()


class _EvaluatorKey:
    """What makes evaluators equal, hashed once: it keys every cached lane lookup, and a
    tuple of a block shape and sets would be hashed again on each."""

    __slots__ = ("_hash", "parts")

    def __init__(self, parts: tuple) -> None:
        self.parts = parts
        self._hash = hash(parts)

    @staticmethod
    def of(parts: tuple) -> _EvaluatorKey:
        """The key of ``parts``, the same object for equal parts: a cache lookup then
        finds its entry by identity, without comparing shapes and sets."""
        key = _EVALUATOR_KEYS.get(parts)
        if key is None:
            if len(_EVALUATOR_KEYS) >= MAX_CACHED_LANES:
                _EVALUATOR_KEYS.clear()  # Equal keys made after this still compare equal.
            key = _EVALUATOR_KEYS[parts] = _EvaluatorKey(parts)
        return key

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, _EvaluatorKey) and self.parts == other.parts)


class LaneEvaluator:
    """Evaluates symbolic values for the lanes of a warp under one set of uniform values."""

    def __init__(
        self,
        shape: BlockShape,
        round_: int = 0,
        bindings: Mapping[str, int] | None = None,
        block: tuple[int, int, int] = SAMPLE_BLOCK,
        grid: tuple[int, int, int] = (64, 8, 4),
        iterations: Mapping[Atom, int] | None = None,
    ):
        self.shape = shape
        self.round = round_
        """Selects the loop iteration and the sample value of each parameter and uniform unknown."""
        self.bindings = bindings or {}
        """Known values of parameters, by name; the others are sampled."""
        self.block = block
        self.grid = grid
        self.iterations = iterations or {}
        """Trip numbers of particular loops, overriding the round's (a loop whose counter
        doubles or halves is taken through every trip)."""
        self.block_evaluated = shape.within_grid(block)
        """The block whose lanes are evaluated: ``block``, within a known grid."""
        self._keys: dict[frozenset[AtomKind], _EvaluatorKey] = {}
        self._uniforms: dict[Atom, int | None] = {}

    def key_for(self, value: Sym) -> _EvaluatorKey:
        """Equal for evaluators that give ``value`` the same lanes: the block shape, and of
        the rest only what the kinds of its atoms read (a thread index's lanes are the same
        in every block, loop trip and sample of the parameters)."""
        kinds = value.kinds
        key = self._keys.get(kinds)
        if key is None:
            key = self._keys[kinds] = _EvaluatorKey.of(
                (
                    self.shape,
                    self.block_evaluated if AtomKind.BLOCK_INDEX in kinds else None,
                    self.grid if AtomKind.GRID_DIM in kinds else None,
                    self.round if not kinds.isdisjoint(_SAMPLED) else None,
                    frozenset(self.bindings.items()) if AtomKind.PARAMETER in kinds else None,
                    frozenset(self.iterations.items()) if AtomKind.ITERATION in kinds else None,
                )
            )
        return key

    def _uniform(self, atom: Atom) -> int | None:
        component = "xyz".index(atom.name) if atom.name in ("x", "y", "z") else 0
        grid = self.shape.grid
        if atom.kind is AtomKind.BLOCK_INDEX:
            return self.block_evaluated[component]
        if atom.kind is AtomKind.GRID_DIM:
            return self.grid[component] if grid is None else grid[component]
        if atom.kind is AtomKind.BLOCK_DIM:
            return (self.shape.x, self.shape.y, self.shape.z)[component]
        if atom.kind is AtomKind.ITERATION:
            return self.iterations.get(atom, self.round)
        if atom.kind is AtomKind.PARAMETER and atom.name in self.bindings:
            return self.bindings[atom.name]
        if atom.kind in (AtomKind.PARAMETER, AtomKind.UNIFORM, AtomKind.WARP_UNIFORM):
            return SAMPLE_VALUES[_stable_index(atom, self.round)]
        return None

    def lanes(self, value: Sym, warp: int = 0) -> list[int | None]:
        """The value in each lane of ``warp`` (None in every lane where it cannot be computed)."""
        key = (value, warp, self.key_for(value))
        lanes = _LANES.get(key)
        if lanes is None:
            if len(_LANES) >= MAX_CACHED_LANES:
                _LANES.clear()
            lanes = _LANES[key] = tuple(self._evaluate(value, warp))
        return list(lanes)

    def _evaluate(self, value: Sym, warp: int) -> list[int | None]:
        coordinates = _coordinates(self.shape, warp)
        width = len(coordinates[0])
        if value.variance < Variance.THREAD:
            # No thread index in it: one evaluation serves every lane.
            single = value.evaluate(self._uniform)
            return [single] * width

        def values(atom: Atom):
            if atom.kind is AtomKind.THREAD_INDEX:
                return coordinates["xyz".index(atom.name)] if atom.name in ("x", "y", "z") else None
            known = self._uniforms.get(atom, _UNKNOWN)
            if known is _UNKNOWN:
                known = self._uniforms[atom] = self._uniform(atom)
            return known

        result = value.evaluate_lanes(values, width)
        return [None] * width if result is None else result


@functools.lru_cache(maxsize=256)
def _coordinates(shape: BlockShape, warp: int) -> tuple[list[int], list[int], list[int]]:
    """threadIdx.x, .y and .z of the lanes of ``warp``, one list per component."""
    lanes = shape.lane_coordinates(warp)
    return [c[0] for c in lanes], [c[1] for c in lanes], [c[2] for c in lanes]


_SAMPLED = (AtomKind.PARAMETER, AtomKind.UNIFORM, AtomKind.WARP_UNIFORM, AtomKind.ITERATION)


# Trips a counter that doubles or halves can make before it leaves a 32-bit range.
MAX_GEOMETRIC_TRIPS = 32


@dataclass(frozen=True)
class LoopTrips:
    """What the evaluators need to know of a kernel's loops, by trip-counter atom."""

    counts: Mapping[Atom, int] = field(default_factory=dict)
    """Constant trip counts: trips past the last are never run, so never tried."""
    every_trip: frozenset[Atom] = frozenset()
    """Loops whose counter doubles or halves: each trip has its own stride, so every trip
    is tried (up to ``MAX_GEOMETRIC_TRIPS``), not only the first ``SAMPLE_ROUNDS``."""


NO_TRIPS = LoopTrips()


def evaluators(
    shape: BlockShape, *values: Sym, bindings: Mapping[str, int] | None = None, trips: LoopTrips = NO_TRIPS
) -> list[LaneEvaluator]:
    """Several assignments of the uniform unknowns in ``values``, to tell exact results from
    value-dependent ones; one suffices when they have none (or all are bound)."""
    bound = bindings or {}
    atoms = {atom for value in values for atom in value.atoms()}
    sampled = any(
        atom.kind in _SAMPLED and not (atom.kind is AtomKind.PARAMETER and atom.name in bound) for atom in atoms
    )
    if values and not sampled:
        return [LaneEvaluator(shape, 0, bound)]
    counts = {atom: count for atom, count in trips.counts.items() if atom in atoms and count > 0}
    rounds = [
        LaneEvaluator(shape, round_, bound, iterations={atom: round_ % count for atom, count in counts.items()})
        for round_ in range(SAMPLE_ROUNDS)
    ]
    for loop in trips.every_trip & atoms:
        last = min(counts.get(loop, MAX_GEOMETRIC_TRIPS), MAX_GEOMETRIC_TRIPS)
        rounds += [
            LaneEvaluator(shape, trip % SAMPLE_ROUNDS, bound, iterations={loop: trip})
            for trip in range(SAMPLE_ROUNDS, last)
        ]
    return rounds


def uniform_value(
    value: Sym,
    shape: BlockShape,
    iterations: Mapping[Atom, int] | None = None,
    bindings: Mapping[str, int] | None = None,
) -> int | None:
    """The value when it is the same in every thread and known without sampling anything:
    constants, the block's dimensions (and the grid's, when ``shape`` has them), loop trips
    given in ``iterations`` and parameters given in ``bindings``."""
    bound = bindings or {}

    def known(atom: Atom) -> bool:
        if atom.kind is AtomKind.ITERATION:
            return atom in (iterations or {})
        if atom.kind is AtomKind.PARAMETER:
            return atom.name in bound
        if atom.kind is AtomKind.GRID_DIM:
            return shape.grid is not None
        return atom.kind in (AtomKind.BLOCK_DIM, AtomKind.OPERATION)

    if not all(known(atom) for atom in value.atoms()):
        return None
    return LaneEvaluator(shape, bindings=bound, iterations=iterations).lanes(value)[0]


def _differs_between_lanes(value: Sym, shape: BlockShape, trips: LoopTrips = NO_TRIPS) -> bool:
    for evaluator in evaluators(shape, value, trips=trips):
        for warp in range(min(shape.warps(), 4)):
            lanes = evaluator.lanes(value, warp)
            if None in lanes or len(set(lanes)) > 1:
                return True
    return False


def refine_variance(value: Sym, shape: BlockShape, trips: LoopTrips = NO_TRIPS) -> Variance:
    """THREAD refined by evaluation: a thread-index value equal in all lanes of every warp is
    warp-uniform. A comparison of a lane-varying value with a uniform one (``i < n``) stays
    THREAD even when the sampled values happen not to split a warp: some value of n does.
    ``trips``: loops to take through every trip (see ``evaluators``)."""
    variance = value.variance
    if variance is not Variance.THREAD:
        return variance
    if _differs_between_lanes(value, shape, trips):
        return Variance.THREAD
    for atom in value.atoms():
        if atom.kind is AtomKind.OPERATION and atom.name in COMPARISONS:
            varying = [
                a for a in atom.args if a.variance is Variance.THREAD and _differs_between_lanes(a, shape, trips)
            ]
            if varying and any(value_dependent(a) for a in atom.args if a not in varying):
                return Variance.THREAD
    return Variance.WARP_UNIFORM


def value_dependent(value: Sym) -> bool:
    """Contains a uniform unknown (a parameter, a loaded value) whose value we only sample."""
    return any(a.kind in (AtomKind.PARAMETER, AtomKind.UNIFORM, AtomKind.WARP_UNIFORM) for a in value.atoms())
