"""How many trips each lane of a warp runs of a loop, and what the warp issues for them.

A warp issues a loop's body as long as one of its lanes still runs it: lanes that have
left sit idle (predicated off) until the warp's longest lane is done. So a loop costs
its warp's longest trip count, and leaves idle, per warp, the lane-trips its shorter
lanes do not run: ``sum over trips t of (lanes that entered - lanes still running at t)``.

Where the loop's condition can be evaluated in every lane without sampling (constants,
thread coordinates, the block shape, launch values and the loop's own trip counter,
entering the condition linearly), the count is exact for the block shape and launch:

* ``for (t = threadIdx.x % 32; t < T; t++)``: lane ``l`` runs ``T - l`` trips, the warp
  runs ``T``, and leaves ``31 * 32 / 2`` lane-trips idle;
* a warp-stride walk ``for (j = lane; j < len; j += 32)`` over a per-warp length: each
  warp's last round is ragged by ``32 - len % 32`` lanes, a large share when segments
  are a few rounds long, next to nothing over a grid-stride loop's thousands of rounds;
* ``for (k = 0; k < 256; ++k)``: 256 trips in every lane, none idle.

The running lanes are counted at a few trip numbers only: with the trip counter entering
linearly, each lane runs a prefix of the trips, so the number of running lanes only
falls, at most once per lane, and bisection finds every step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow.facts import Branch, LoopRun
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym
from cudalint.dataflow.threads import BlockShape, LaneEvaluator, evaluators
from cudalint.dataflow.warps import active_lanes, loop_trips

MAX_COUNTED_TRIPS = 1 << 22
"""Trips followed per warp; a loop whose lanes run longer is counted as unknown."""
_COMPARISONS = ("<", "<=", ">", ">=")
_LOOPS = (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)
_UNSAMPLED_UNKNOWNS = (AtomKind.PARAMETER, AtomKind.UNIFORM, AtomKind.WARP_UNIFORM, AtomKind.VARYING)


@dataclass(frozen=True)
class TripProfile:
    """A loop as the warps of the block run it, averaged over the warps that enter it."""

    trips: float
    """Trips a warp issues: its longest lane's."""
    idle_lane_trips: float
    """Lane-trips a warp leaves idle: lanes that entered but have left, per trip issued."""
    fewest: int
    """The fewest trips a lane that entered runs (over the warps examined)."""
    most: int
    """The most trips a lane runs."""
    shortest_warp: int = 0
    """The fewest trips a warp runs (its longest lane's), over the warps examined: below
    ``most``, whole warps stop going round while others go on."""
    divergent_share: float = 0.0
    """Share of the warps' evaluations of the loop's condition at which the lanes still
    running disagree (some leave, some go on): what Nsight Compute counts as divergent
    branch executions of the loop's branch."""

    @property
    def lane_varying(self) -> bool:
        return self.idle_lane_trips > 0


def trip_profiles(
    branches: list[Branch],
    shape: BlockShape,
    bindings: Mapping[str, int] | None,
    loops: Mapping[Atom, LoopRun],
    warps: list[int],
) -> dict[int, TripProfile]:
    """The profile of every loop among ``branches`` whose trips can be counted, by the
    identity of its statement (the first of its inlined copies)."""
    runs = {id(run.stmt): run for run in loops.values()}
    profiles: dict[int, TripProfile] = {}
    for branch in branches:
        run = runs.get(id(branch.stmt))
        if branch.stmt.kind not in _LOOPS or run is None or id(branch.stmt) in profiles:
            continue
        profile = trip_profile(branch, run, shape, bindings, loops, warps)
        if profile is not None:
            profiles[id(branch.stmt)] = profile
    return profiles


def trip_profile(
    branch: Branch,
    run: LoopRun,
    shape: BlockShape,
    bindings: Mapping[str, int] | None,
    loops: Mapping[Atom, LoopRun],
    warps: list[int],
) -> TripProfile | None:
    """The loop's profile over ``warps`` and the sampled trips of the loops around it; None
    where its condition needs a value that is not known (data, a size the launch does not
    give) or does not follow its counter linearly."""
    condition = run.condition
    counter = run.iteration
    if branch.stmt.kind is ir.StmtKind.DO or not _linear_in(condition, counter):
        return None
    bound = bindings or {}
    for atom in condition.atoms():
        if atom.kind in _UNSAMPLED_UNKNOWNS and not (atom.kind is AtomKind.PARAMETER and atom.name in bound):
            return None
    guards = tuple(guard for guard in branch.guards if guard.decision is not branch.stmt)
    outer = loop_trips({atom: other for atom, other in loops.items() if atom != counter})
    seen = set()
    issued, idle, fewest, most, samples = 0.0, 0.0, None, 0, 0
    divergent, evaluations, shortest = 0, 0, None
    for evaluator in evaluators(shape, condition, *(g.condition for g in guards), bindings=bound, trips=outer):
        context = {atom: trip for atom, trip in evaluator.iterations.items() if atom != counter}
        key = (evaluator.round if _sampled_besides(condition, counter) else 0, frozenset(context.items()))
        if key in seen:
            continue
        seen.add(key)
        for warp in warps:
            entering = active_lanes(guards, _at(evaluator, counter, 0, context), warp)
            counted = _warp_trips(condition, counter, evaluator, context, warp, entering)
            if counted is None:
                return None
            if counted[0] == 0:
                continue
            trips, running_sum, low, splits = counted
            samples += 1
            divergent += splits
            evaluations += trips + 1
            issued += trips
            # Lanes that reach the loop and run fewer trips, or none, idle while it runs.
            idle += sum(entering) * trips - running_sum
            most = max(most, trips)
            shortest = trips if shortest is None else min(shortest, trips)
            fewest = low if fewest is None else min(fewest, low)
    if not samples:
        return None
    return TripProfile(issued / samples, idle / samples, fewest or 0, most, shortest or 0, divergent / evaluations)


def _sampled_besides(condition: Sym, counter: Atom) -> bool:
    return any(atom.kind is AtomKind.ITERATION and atom != counter for atom in condition.atoms())


def _at(evaluator: LaneEvaluator, counter: Atom, trip: int, context: dict[Atom, int]) -> LaneEvaluator:
    return LaneEvaluator(
        evaluator.shape,
        evaluator.round,
        evaluator.bindings,
        evaluator.block,
        evaluator.grid,
        iterations={**context, counter: trip},
    )


class _WarpRun:
    """One warp's lanes going round the loop: how many still run at a given trip."""

    def __init__(
        self,
        condition: Sym,
        counter: Atom,
        evaluator: LaneEvaluator,
        context: dict[Atom, int],
        warp: int,
        entering: list[bool],
    ):
        self.condition, self.counter, self.evaluator = condition, counter, evaluator
        self.context, self.warp, self.entering = context, warp, entering
        self.memo: dict[int, int | None] = {}

    def running(self, trip: int) -> int | None:
        """Lanes that reach the loop and still run trip ``trip`` (None: not computable)."""
        if trip < 0:
            return sum(self.entering)
        if trip not in self.memo:
            values = _at(self.evaluator, self.counter, trip, self.context).lanes(self.condition, self.warp)
            pairs = [v for v, on in zip(values, self.entering, strict=False) if on]
            self.memo[trip] = None if None in pairs else sum(1 for v in pairs if v)
        return self.memo[trip]

    def first_below(self, low: int, high: int, level: int) -> int | None:
        """The first trip in (low, high] with fewer than ``level`` lanes running, given that
        ``low`` has at least ``level`` and ``high`` fewer."""
        while high - low > 1:
            middle = (low + high) // 2
            count = self.running(middle)
            if count is None:
                return None
            low, high = (middle, high) if count >= level else (low, middle)
        return high

    def end(self) -> int | None:
        """The first trip no lane runs: doubling, then bisection."""
        low, high = 0, 1
        while (count := self.running(high)) != 0:
            if count is None or high * 2 > MAX_COUNTED_TRIPS:
                return None
            low, high = high, high * 2
        return self.first_below(low, high, 1)

    def drops(self, first: int, last: int) -> int | None:
        """Trips in (first, last] at which some running lanes leave."""
        at_first, at_last = self.running(first), self.running(last)
        if at_first is None or at_last is None:
            return None
        if at_first == at_last:
            return 0
        if last - first == 1:
            return 1
        middle = (first + last) // 2
        left, right = self.drops(first, middle), self.drops(middle, last)
        return None if left is None or right is None else left + right

    def lane_trips(self, first: int, last: int) -> int | None:
        """Running lanes summed over trips first..last."""
        at_first, at_last = self.running(first), self.running(last)
        if at_first is None or at_last is None:
            return None
        if at_first == at_last:
            return at_first * (last - first + 1)
        if last - first == 1:
            return at_first + at_last
        middle = (first + last) // 2
        left, right = self.lane_trips(first, middle), self.lane_trips(middle + 1, last)
        return None if left is None or right is None else left + right


def _warp_trips(
    condition: Sym,
    counter: Atom,
    evaluator: LaneEvaluator,
    context: dict[Atom, int],
    warp: int,
    entering: list[bool],
) -> tuple[int, int, int, int] | None:
    """(trips the warp issues, lane-trips its lanes run, the fewest trips a lane that
    reaches the loop runs, evaluations of the condition at which the running lanes
    disagree); None where a lane's condition cannot be computed or the loop outruns
    ``MAX_COUNTED_TRIPS``."""
    run = _WarpRun(condition, counter, evaluator, context, warp, entering)
    lanes = run.running(0)
    if not lanes:
        return None if lanes is None else (0, 0, 0, 0)
    trips = run.end()
    total = None if trips is None else run.lane_trips(0, trips - 1)
    fewest = None if trips is None else run.first_below(-1, trips, sum(entering))
    # Lanes leave at each drop of the running count; the evaluation at the trip where the
    # last ones leave is not divergent (no lane goes on), nor is one where none leaves.
    drops = None if trips is None else run.drops(-1, trips - 1)
    if total is None or fewest is None or drops is None:
        return None
    return trips, total, fewest, drops


def _linear_in(condition: Sym, counter: Atom) -> bool:
    """A comparison (or a conjunction of comparisons) in which the trip counter enters only
    as a term of its own degree one: each lane's condition then holds on a prefix of the
    trips, and the running lanes only fall as the trips go on."""
    if len(condition.terms) != 1:
        return False
    monomial, coefficient = condition.terms[0]
    if coefficient != 1 or len(monomial) != 1:
        return False
    atom = monomial[0]
    if atom.kind is not AtomKind.OPERATION:
        return False
    if atom.name == "&&":
        return all(_linear_in(argument, counter) for argument in atom.args)
    if atom.name not in _COMPARISONS or len(atom.args) != 2:
        return False
    for side in atom.args:
        for term, _ in side.terms:
            if term.count(counter) > 1:
                return False
            for factor in term:
                if factor != counter and any(inner == counter for inner in _nested(factor)):
                    return False
    return True


def _nested(atom: Atom):
    for argument in atom.args:
        yield from argument.atoms()
