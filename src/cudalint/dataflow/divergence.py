"""How a branch splits the lanes of a warp, and what the split costs as the hardware counts it.

A warp runs one instruction stream. Where its lanes disagree on a condition, the lanes
that do not take a path idle while it runs: the cost is idle lane slots, which Nsight
Compute shows as predicated-on thread instructions below 32 per warp instruction.

* The split comes from evaluating the condition in each lane of the block's warps (the
  block's shape decides: ``threadIdx.y % 2`` splits a 16x16 block's warps, not a 32x8
  block's), under each sampled value of the parameters and loop trips.
* nvcc predicates a short body without loops instead of branching around it: every warp
  that reaches it issues the body, with the lanes that do not take it switched off, even
  where the whole warp agrees. A longer body is branched around, and only warps whose
  lanes disagree pay. A body that only assigns register values compiles to selects and
  costs nothing. A path that ends the kernel is no longer predicated: the lanes that skip
  it exit before it, and only warps with a lane on it issue it (measured: the body of a
  kernel's last ``if (threadIdx.x == 0)`` runs one thread per instruction).
* The cost of a branch is the lane slots it leaves idle (idle lanes times the
  instructions of what it guards, times the trips of the loops around it) as a share of
  the lane slots its function issues. Idle lanes are counted out of the warp's 32, as the
  hardware counts slots: lanes an enclosing guard or a narrow block left out idle through
  a nested path too. A path taken on a fetch-and-add's ticket (``atomicInc(&n, g) == g``)
  runs in one thread of the grid: it counts once per grid, not once per block.
  Instructions are estimated from the IR: operators, memory accesses, math calls at
  their inlined size, helpers at their own size, loops at their trip count
  (``DEFAULT_TRIPS`` where it is known only at run time).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from cudalint import ir
from cudalint.dataflow.facts import Branch, LoopRun
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import BlockShape, LaneEvaluator, evaluators, refine_variance, value_dependent
from cudalint.dataflow.trips import TripProfile
from cudalint.dataflow.unrolling import expression_cost
from cudalint.dataflow.warps import (
    MAX_WARPS_EXAMINED,
    active_lanes,
    evaluator_at_block,
    first_running_warp,
    launch_blocks,
    loop_trips,
)

WARP_SIZE = 32
DEFAULT_TRIPS = 8
"""Trips assumed for a loop whose trip count is known only at run time."""
PREDICATED_BODY = 6
"""Operations up to which nvcc predicates an if's body (no loop, no call, no barrier)
instead of branching around it: ``if (t & 1) { two FMAs }`` is predicated."""
MAX_INLINED_DEPTH = 4
_LOOPS = (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)


COSTLY_SHARE = 0.005
"""Idle lane slots, as a share of the function's, from which a split is worth fixing: the
cost Nsight Compute's per-line counters make plain (below it, a single-lane store or a
stride loop's last trip, the split is measurable but cheap)."""


DIVERGENT_EXECUTIONS = 0.05
"""Share of a loop's branch executions at which its lanes must disagree for its split to
count: below it, the split is a long stride walk's ragged last round (one divergent
evaluation in twenty or more), which the real-code measurements do not count as
divergence (bench/realcode/README.md)."""


class Cost(enum.Enum):
    """What a branch's split costs, as far as the source can tell."""

    COSTLY = "costly"
    """The lanes of a warp disagree whatever the run-time values, and the idle lanes cost
    at least ``COSTLY_SHARE`` of the function's lane slots."""
    POSSIBLE = "possible"
    """Whether lanes disagree depends on data or on sizes known at run time; if they did,
    the idle lanes would cost at least ``COSTLY_SHARE``."""
    CHEAP = "cheap"
    """Lanes may disagree, but the idle lanes cost less than ``COSTLY_SHARE``, or the
    branch is an idiom that costs next to nothing (selects, bounds guards, a single lane's
    short store, a stride loop's last trip)."""
    NONE = "none"
    """Every lane of each warp decides the same way."""


class Idiom(enum.Enum):
    """What a branch is for, where its shape says so."""

    SELECT = "select"
    """Every path only assigns register values: compiled to selects, no lane waits."""
    SINGLE_LANE = "single lane"
    """One lane of the warp takes it (``if (threadIdx.x == 0)``)."""
    BOUNDS_GUARD = "bounds guard"
    """A thread index against a limit known at run time: only the warp holding the limit splits."""
    STRIDE_LOOP = "stride loop"
    """A loop whose lanes walk together (``i += blockDim.x * gridDim.x``): only the last trip splits."""
    TICKET = "ticket"
    """``if (atomicInc(&count, n) == n)``: the value a fetch-and-add returns is different in
    every thread of the grid, so one thread of the grid takes the path (the last block's
    combine): its warp idles 31 lanes once, not once per block."""
    REDUCTION_TAIL = "reduction tail"
    """``if (t < s)`` with ``s`` halving each trip: the tree reduction's shrinking active set."""


@dataclass(frozen=True)
class BranchPattern:
    variance: Variance
    taken_lanes: int | None
    """Lanes of the first warp that take the branch, when it can be computed."""
    active_lanes: int
    bounds_guard: bool
    """A comparison of a thread index against a uniform limit: only the last warp splits."""
    block_uniform: bool
    """Every thread of the block decides the same way (what a block barrier needs)."""
    idiom: Idiom | None = None
    idle_share: float | None = None
    """Lane slots the branch leaves idle, as a share of those its function issues; None
    where the lanes' decisions depend on data."""
    potential_share: float = 0.0
    """The same if half the lanes took each path: what a data-dependent split could cost."""
    guarded_work: float = 0.0
    """Instructions per thread the branch guards, per execution (one trip, for a loop)."""
    size_dependent: bool = False
    """The split depends on a value known only at run time (a size, a loaded bound): the
    sampled values may split warps the real ones leave whole, or the reverse."""
    launch_given: bool = False
    """Every run-time value of the condition is one the launch gives (``my - 1`` with the
    host passing ``my = 128``): the split was computed with the launch's values, not sampled."""
    leaves: bool = False
    """An ``if`` without an else whose path ends in ``return``, ``continue`` or ``break``:
    the lanes that take it leave, and idle while the others run what follows."""
    trips: TripProfile | None = None
    """A loop whose trips were counted lane by lane (trips.py): its idle share is exact
    for the block shape and launch."""
    edge_block: tuple[int, int, int] | None = None
    """The block of the launch whose warp ``taken_lanes`` counts, where it is not the sampled
    inner block: a border that only the grid's edge blocks split."""

    @property
    def splits(self) -> bool:
        """Lanes of one warp may decide differently."""
        if self.variance < Variance.THREAD:
            return False
        if self.variance is Variance.DATA or self.taken_lanes is None or self.idle_share:
            return True
        return self.taken_lanes not in (0, self.active_lanes)

    @property
    def sampled(self) -> bool:
        """The split was evaluated at sampled values of a size known only at run time: its
        idle share is one guess among several, not an estimate of the run."""
        return self.size_dependent and not self.launch_given

    @property
    def cost(self) -> Cost:
        if not self.splits:
            return Cost.NONE
        if self.idiom in _CHEAP_IDIOMS or (self.idiom is Idiom.SINGLE_LANE and self.guarded_work <= PREDICATED_BODY):
            return Cost.CHEAP
        if self.idle_share is None or self.sampled:
            worst = max(self.idle_share or 0.0, self.potential_share)
            return Cost.POSSIBLE if worst >= COSTLY_SHARE else Cost.CHEAP
        if self.trips is not None and self.trips.divergent_share < DIVERGENT_EXECUTIONS:
            return Cost.CHEAP
        return Cost.COSTLY if self.idle_share >= COSTLY_SHARE else Cost.CHEAP


_CHEAP_IDIOMS = frozenset((Idiom.SELECT, Idiom.BOUNDS_GUARD, Idiom.STRIDE_LOOP, Idiom.TICKET))


Place = tuple[ir.Function, tuple[ir.Stmt, ...], ir.Stmt | None]
"""Where a statement is: its function, the loops around it there, and its parent statement."""


def statement_places(functions: Iterable[ir.Function]) -> dict[int, Place]:
    """The place of every statement of ``functions``, by statement identity."""
    places: dict[int, Place] = {}
    for function in functions:
        if function.body is None:
            continue
        pending: list[tuple[ir.Stmt, tuple[ir.Stmt, ...], ir.Stmt | None]] = [(function.body, (), None)]
        while pending:
            stmt, loops, parent = pending.pop()
            places.setdefault(id(stmt), (function, loops, parent))
            inner = (*loops, stmt) if stmt.kind in _LOOPS else loops
            pending.extend((child, inner, stmt) for child in (stmt.init, *stmt.body, stmt.orelse) if child is not None)
    return places


class DeviceFunctions(dict[str, ir.Function]):
    """A unit's device functions with a body, by declaration: the helpers every entry point
    may call, with the places of their statements worked out once for all of them (a file
    of many kernels would otherwise walk every helper once per kernel)."""

    @cached_property
    def places(self) -> dict[int, Place]:
        return statement_places(self.values())


class Workload:
    """Instructions per thread, estimated from the IR, for the functions an entry point runs."""

    def __init__(
        self,
        function: ir.Function,
        helpers: DeviceFunctions,
        loops: Mapping[Atom, LoopRun],
        profiles: Mapping[int, TripProfile] | None = None,
        fractions: Mapping[int, tuple[float, float]] | None = None,
        blocks: int | None = None,
    ):
        self.function = function
        self.helpers = helpers
        self.trips = {id(run.stmt): run.trips for run in loops.values()}
        self.profiles = profiles or {}
        """Loops whose trips were counted lane by lane, by statement identity."""
        self.fractions = fractions or {}
        """Shares of the warps reaching an ``if`` that issue its then- and else-path."""
        self.blocks = blocks or DEFAULT_TRIPS
        """Blocks of the grid: the launch's, or, where the grid is known only at run time,
        ``DEFAULT_TRIPS``, the trips a loop over the grid's blocks is taken to run."""
        self._weights: dict[int, float] = {}

    def statement(self, stmt: ir.Stmt | None, depth: int = 0) -> float:
        """Instructions one execution of ``stmt`` issues."""
        if stmt is None:
            return 0.0
        key = id(stmt)
        if stmt.kind in _LOOPS and not _does_work(stmt):
            return 0.0  # nvcc deletes a loop whose body does nothing.
        if key not in self._weights:
            own = sum(self.expression(expr, depth) for expr in stmt.expressions())
            then, other = self.fractions.get(key) or _ticket_fractions(stmt, self.blocks)
            nested = (
                self.statement(stmt.init, depth)
                + then * sum(self.statement(child, depth) for child in stmt.body)
                + other * self.statement(stmt.orelse, depth)
            )
            self._weights[key] = (own + nested) * self.trips_of(stmt) if stmt.kind in _LOOPS else own + nested
        return self._weights[key]

    def trips_of(self, loop: ir.Stmt) -> float:
        """Trips a warp issues: its longest lane's where they were counted lane by lane
        (a warp runs the loop until its last lane is done), the constant trip count, or
        ``DEFAULT_TRIPS`` where the bound is known only at run time."""
        profile = self.profiles.get(id(loop))
        if profile is not None:
            return max(profile.trips, 1.0)
        trips = self.trips.get(id(loop))
        return DEFAULT_TRIPS if trips is None else max(trips, 1)

    def expression(self, expr: ir.Expr, depth: int = 0) -> float:
        cost = float(expression_cost(expr))
        if depth < MAX_INLINED_DEPTH:
            for node in expr.walk():
                callee = self.helpers.get(node.decl or "") if node.kind is ir.ExprKind.CALL else None
                if callee is not None and callee.body is not None and callee.kind.runs_on_device:
                    cost += self.statement(callee.body, depth + 1)
        return cost

    @cached_property
    def registers(self) -> frozenset[str]:
        """Declarations that live in registers: the local variables and value parameters of
        the entry point and its helpers (``__shared__`` and file-scope variables do not)."""
        found = set()
        for function in (self.function, *self.helpers.values()):
            found.update(p.decl for p in function.params if p.type.kind is not ir.TypeKind.REFERENCE)
            for stmt in function.body.walk() if function.body is not None else ():
                found.update(v.decl for v in stmt.decls if v.storage is ir.StorageClass.LOCAL)
        return frozenset(found)

    @cached_property
    def _own_places(self) -> dict[int, Place]:
        return statement_places([self.function])

    def _place(self, stmt: ir.Stmt, default: Place) -> Place:
        """The entry point's own statements first: it may be one of the helpers too."""
        key = id(stmt)
        return self._own_places.get(key) or self.helpers.places.get(key, default)

    def remainder(self, stmt: ir.Stmt) -> float:
        """Instructions per thread that follow ``stmt`` where a thread leaving at it no longer
        runs: the rest of its function after a ``return``, the rest of the loop's trip after
        a ``continue`` or ``break``."""
        leaves_loop = any(s.kind in (ir.StmtKind.CONTINUE, ir.StmtKind.BREAK) for s in stmt.walk())
        total = 0.0
        current = stmt
        while True:
            _, _, parent = self._place(current, (None, (), None))
            if parent is None or (leaves_loop and parent.kind in _LOOPS):
                return total
            if parent.kind is ir.StmtKind.COMPOUND:
                later = parent.body[next(i for i, child in enumerate(parent.body) if child is current) + 1 :]
                total += sum(self.statement(child) for child in later)
            current = parent

    def ends_kernel(self, stmt: ir.Stmt) -> bool:
        """``stmt`` is the entry point's last work: no loop around it, nothing after it. The
        lanes that skip an if there have nothing left to run, so nvcc ends them
        (``@!P EXIT``) before its path, rather than predicating the path in every warp."""
        function, loops, _ = self._place(stmt, (None, (), None))
        return function is self.function and not loops and self.remainder(stmt) == 0

    def share(self, stmt: ir.Stmt, per_execution: float) -> float:
        """``per_execution`` instructions per thread at ``stmt``, as a share of its function's
        work: times the trips of the loops around it in that function."""
        function, loops, _ = self._place(stmt, (self.function, (), None))
        total = self.statement(function.body)
        if total <= 0:
            return 0.0
        repeats = 1
        for loop in loops:
            repeats *= self.trips_of(loop)
        return min(1.0, per_execution * repeats / total)


def branch_pattern(
    branch: Branch,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
    workload: Workload | None = None,
) -> BranchPattern:
    condition = branch.condition
    variance = refine_variance(condition, shape, loop_trips(loops))
    evaluator, taken, count = most_split(branch, shape, bindings, loops)
    stmt = branch.stmt
    loop = stmt.kind in _LOOPS
    bounds = _is_bounds_guard(condition, loop or _breaks_out(stmt))
    if bounds and loop:
        bounds = _lanes_walk_together(branch, loops, evaluator)
    leaves = ends_in_exit(stmt)
    block = evaluator.block_evaluated
    edge_block = block if block != shape.sampled_block and _edge_axes(block, shape) else None
    pattern = BranchPattern(
        variance,
        taken,
        count,
        bounds,
        _block_uniform(condition, variance, evaluator),
        leaves=leaves,
        edge_block=edge_block,
    )
    if workload is None:
        return pattern
    guarded = _guarded_work(stmt, workload)
    profile = workload.profiles.get(id(stmt)) if loop else None
    per_trip = workload.trips_of(stmt) if loop else 1
    if profile is not None:
        # Counted lane by lane: the lane-trips its shorter lanes leave idle, each idling the
        # body's instructions; no sampling, no idiom needed.
        body = sum(workload.statement(child) for child in stmt.body)
        share = workload.share(stmt, profile.idle_lane_trips * body / WARP_SIZE)
        # Lanes of one warp that leave at different trips differ, whatever the sampled
        # trips showed (`2 * trip + (threadIdx.x & 7) < 48` agrees on its first trips).
        counted = Variance.THREAD if profile.lane_varying and variance < Variance.THREAD else variance
        return BranchPattern(
            counted,
            taken,
            count,
            bounds,
            pattern.block_uniform,
            idle_share=share,
            potential_share=workload.share(stmt, guarded * per_trip / 2),
            guarded_work=guarded,
            trips=profile,
            edge_block=edge_block,
        )
    splits = None if variance is Variance.DATA else _splits(branch, shape, bindings, loops)
    idle = None if splits is None else _idle_slots(stmt, splits, workload)
    share = None if idle is None else workload.share(stmt, idle * per_trip / WARP_SIZE)
    return BranchPattern(
        variance,
        taken,
        count,
        bounds,
        pattern.block_uniform,
        idiom=_idiom(branch, splits, bounds, loops, workload.registers),
        idle_share=share,
        potential_share=workload.share(stmt, guarded * per_trip / 2),
        guarded_work=guarded,
        size_dependent=value_dependent(condition),
        launch_given=value_dependent(condition) and not _sampled_unknowns(condition, bindings),
        leaves=leaves,
        edge_block=edge_block,
    )


def most_split(
    branch: Branch,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
) -> tuple[LaneEvaluator, int | None, int]:
    """The values tried that split the first running warp most evenly, the lanes of it that
    take the branch (None when unknown) and those that reach it: over loop iterations, a
    reduction's `t < stride` diverges only in its last ones."""
    best = None
    for evaluator, _ in _weighted_evaluators(branch, shape, bindings, loops):
        warp, active = first_running_warp(branch.guards, evaluator)
        values = evaluator.lanes(branch.condition, warp)
        taken = None if None in values else sum(1 for v, on in zip(values, active, strict=False) if on and v)
        count = sum(active)
        split = min(taken, count - taken) if taken is not None else -1
        if best is None or split > best[0]:
            best = (split, taken, count, evaluator)
    _, taken, count, evaluator = best
    return evaluator, taken, count


def _weighted_evaluators(
    branch: Branch, shape: BlockShape, bindings: Mapping[str, int] | None, loops: Mapping[Atom, LoopRun] | None
) -> list[tuple[LaneEvaluator, int]]:
    """The values the branch is judged at (``_evaluators``), in each block of the launch
    that decides it differently, with the number of blocks each stands for: where the grid
    is known and the condition or a guard compares block coordinates with launch values (an
    image's border `x - radius >= 0` with `x = blockIdx.x * 16 + threadIdx.x`), the edge
    blocks, whose lanes split where the inner blocks' do not, count beside the inner ones
    (``launch_blocks``)."""
    tried = _evaluators(branch, shape, bindings, loops)
    blocks = launch_blocks((branch.condition, *(g.condition for g in branch.guards)), shape, bindings or {})
    if len(blocks) == 1:
        return [(evaluator, 1) for evaluator in tried]
    # Inner blocks first: a split they show is the one to name, an edge block's only where
    # it splits more.
    ordered = sorted(blocks, key=lambda item: _edge_axes(item[0], shape))
    return [(evaluator_at_block(evaluator, block), weight) for evaluator in tried for block, weight in ordered]


def _edge_axes(block: tuple[int, int, int], shape: BlockShape) -> int:
    """On how many axes of the launch's grid ``block`` is a first or last block."""
    grid = shape.grid or (1, 1, 1)
    return sum(1 for index, size in zip(block, grid, strict=True) if size > 1 and index in (0, size - 1))


def _evaluators(
    branch: Branch, shape: BlockShape, bindings: Mapping[str, int] | None, loops: Mapping[Atom, LoopRun] | None
) -> list[LaneEvaluator]:
    """The values the branch is judged at: trips that lie past the end of a loop whose
    counter the condition steps are left out, unless every sampled trip does (the sampled
    bound is small), where judging the branch on nothing would be worse."""
    every = evaluators(
        shape, branch.condition, *(g.condition for g in branch.guards), bindings=bindings, trips=loop_trips(loops)
    )
    stepping = _stepping_loops(branch.condition, loops)
    return [evaluator for evaluator in every if not _loop_ended(branch, stepping, evaluator)] or every


def examined_warps(shape: BlockShape) -> list[int]:
    """The block's warps, or ``MAX_WARPS_EXAMINED`` of them spread over a large block."""
    count = shape.warps()
    if count <= MAX_WARPS_EXAMINED:
        return list(range(count))
    return sorted({round(i * (count - 1) / (MAX_WARPS_EXAMINED - 1)) for i in range(MAX_WARPS_EXAMINED)})


Sample = tuple[list[int], int]
"""The condition's value in each running lane of one warp, and the number of blocks whose
warp it stands for."""


def _splits(
    branch: Branch, shape: BlockShape, bindings: Mapping[str, int] | None, loops: Mapping[Atom, LoopRun] | None
) -> list[Sample] | None:
    """For each sampled set of values, each block of the launch that decides the branch
    differently and each examined warp: the condition's value in each of its running lanes
    (none in a warp that does not reach the branch). None where a lane's value is unknown."""
    samples = []
    for evaluator, weight in _weighted_evaluators(branch, shape, bindings, loops):
        for warp in examined_warps(shape):
            running = active_lanes(branch.guards, evaluator, warp)
            if not any(running):
                samples.append(([], weight))  # A warp that does not reach it idles nothing here.
                continue
            values = evaluator.lanes(branch.condition, warp)
            if None in values:
                return None
            samples.append(([v for v, on in zip(values, running, strict=False) if on], weight))
    return samples


def issue_fractions(
    branches: Iterable[Branch],
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
    loops: Mapping[Atom, LoopRun] | None = None,
) -> dict[int, tuple[float, float]]:
    """For each ``if`` whose lanes' decisions are known without sampling a size or data
    (thread coordinates, the block shape, launch values, loop trips), by statement
    identity: the shares of the warps that reach it which issue its then-path and its
    else-path. A warp issues a path when one of its lanes takes it: the body of
    ``if (threadIdx.x == 0)`` is issued by one warp of the block, not by all of them, and
    the kernel's issued lane slots, which a split's cost is a share of, count it so."""
    fractions: dict[int, tuple[float, float]] = {}
    for branch in branches:
        stmt = branch.stmt
        if stmt.kind is not ir.StmtKind.IF or id(stmt) in fractions or _sampled_unknowns(branch.condition, bindings):
            continue
        samples = _splits(branch, shape, bindings, loops)
        reached = [(lanes, weight) for lanes, weight in samples or () if lanes]
        if reached:
            total = sum(weight for _, weight in reached)
            fractions[id(stmt)] = (
                sum(weight for lanes, weight in reached if any(lanes)) / total,
                sum(weight for lanes, weight in reached if not all(lanes)) / total,
            )
    return fractions


def _sampled_unknowns(condition: Sym, bindings: Mapping[str, int] | None) -> bool:
    """The condition needs a value the analysis samples: data, a size the launch does not give."""
    bound = bindings or {}
    return any(
        atom.kind in (AtomKind.UNIFORM, AtomKind.WARP_UNIFORM, AtomKind.VARYING)
        or (atom.kind is AtomKind.PARAMETER and atom.name not in bound)
        for atom in condition.atoms()
    )


def _stepping_loops(condition: Sym, loops: Mapping[Atom, LoopRun] | None) -> set[int]:
    """The loops whose trip counter the condition depends on (by statement identity)."""
    counters = {atom for atom in condition.atoms() if atom.kind is AtomKind.ITERATION}
    return {id(run.stmt) for atom, run in (loops or {}).items() if atom in counters}


def _loop_ended(branch: Branch, stepping: set[int], evaluator: LaneEvaluator) -> bool:
    """The sampled trip lies past the end of a loop around the branch whose counter the
    condition depends on: a loop whose counter doubles is taken through every trip a
    32-bit counter allows, but under the sampled bound (``stride < block_size``) only the
    first few run. Averaging the split over trips that never run would dilute the cost
    of those that do. (A condition that does not follow the loop keeps every sample: the
    other unknowns' sampled values are what decide it.)"""
    for guard in branch.guards:
        decision = guard.decision
        if decision is None or id(decision) not in stepping or guard.condition.variance >= Variance.THREAD:
            continue
        value = evaluator.lanes(guard.condition)[0]
        if value is not None and bool(value) != guard.holds:
            return True
    return False


def _idle_slots(stmt: ir.Stmt, samples: list[Sample], workload: Workload) -> float:
    """Idle lane slots per warp execution of ``stmt`` (per trip, for a loop), the mean
    over ``samples``, each weighed by the blocks it stands for: the lanes that do not take
    a path, times its instructions."""
    weights = sum(weight for _, weight in samples)
    if not weights:
        return 0.0
    total = 0.0
    if stmt.kind in _LOOPS:
        body = sum(workload.statement(child) for child in stmt.body)
        for lanes, weight in samples:
            taken = sum(1 for v in lanes if v)
            total += weight * (WARP_SIZE - taken) * body if taken else 0.0
        return total / weights
    if stmt.kind is ir.StmtKind.SWITCH:
        cases = max(1, sum(1 for s in stmt.walk() if s.kind in (ir.StmtKind.CASE, ir.StmtKind.DEFAULT)))
        per_case = sum(workload.statement(child) for child in stmt.body) / cases
        for lanes, weight in samples:
            groups = {v: lanes.count(v) for v in set(lanes)}
            total += weight * sum(len(lanes) - n for n in groups.values()) * per_case if len(groups) > 1 else 0.0
        return total / weights
    paths = [(True, stmt.body[0] if stmt.body else None), (False, stmt.orelse)]
    # `if (c) return;` (or continue, break): the lanes that leave idle through what follows.
    leaving = workload.remainder(stmt) if ends_in_exit(stmt) else 0.0
    # At the kernel's end the lanes off the path exit: a warp none of whose lanes takes it
    # issues nothing, however short the path.
    exits = stmt.orelse is None and workload.ends_kernel(stmt)
    for lanes, weight in samples:
        if leaving:
            taking = sum(1 for v in lanes if v)
            total += weight * taking * leaving if 0 < taking < len(lanes) else 0.0
        for holds, path in paths:
            if path is None or _selects_only(path, workload.registers):
                continue
            taking = sum(1 for v in lanes if bool(v) == holds)
            if taking == len(lanes) or (taking == 0 and (exits or not _predicated(path, workload))):
                continue  # The whole warp agrees: it runs the path, or branches around it or exits.
            # Every lane of the warp not on the path idles through it, those an enclosing
            # branch or the block's size already left out included: Nsight Compute counts
            # 32 slots per warp instruction, and so does the function's total.
            total += weight * (WARP_SIZE - taking) * workload.statement(path)
    return total / weights


_FETCH_AND_OP = ("atomicAdd", "atomicSub", "atomicInc", "atomicDec")


def _ticket_fractions(stmt: ir.Stmt, blocks: int = DEFAULT_TRIPS) -> tuple[float, float]:
    """The shares of the warps reaching ``stmt`` that issue its then- and else-path where
    its condition compares a ticket with a value (``atomicInc(&count, n) == n``,
    ``atomicSub(&left, 1) == 0``): a fetch-and-add hands every thread of the grid its own
    value, so one thread of the grid takes the ``==`` path, once in ``blocks`` blocks
    (``atomicCAS``, which many threads win on their own addresses, is no ticket). (1, 1)
    for any other statement: every warp is taken to issue both paths."""
    cond = stmt.cond if stmt.kind is ir.StmtKind.IF else None
    if cond is None or cond.kind is not ir.ExprKind.BINARY or cond.op not in ("==", "!=") or len(cond.children) != 2:
        return (1.0, 1.0)
    tickets = [
        any(node.kind is ir.ExprKind.CALL and (node.name or "").startswith(_FETCH_AND_OP) for node in side.walk())
        for side in cond.children
    ]
    if sum(tickets) != 1 or any(
        node.kind is ir.ExprKind.CALL
        for side, ticket in zip(cond.children, tickets, strict=True)
        if not ticket
        for node in side.walk()
    ):
        return (1.0, 1.0)
    once = 1.0 / max(blocks, 1)
    return (once, 1.0) if cond.op == "==" else (1.0, once)


def _guarded_work(stmt: ir.Stmt, workload: Workload) -> float:
    paths = [*stmt.body, *((stmt.orelse,) if stmt.orelse is not None else ())]
    if stmt.kind is ir.StmtKind.IF:
        paths = [path for path in paths if not _selects_only(path, workload.registers)]
    leaving = workload.remainder(stmt) if ends_in_exit(stmt) else 0.0
    return sum(workload.statement(path) for path in paths) + leaving


def _does_work(loop: ir.Stmt) -> bool:
    """A loop whose body holds a statement (``for (i = 0; i < t; ++i) {}`` does not)."""
    return any(node.kind not in (ir.StmtKind.COMPOUND, ir.StmtKind.NULL) for part in loop.body for node in part.walk())


def _breaks_out(stmt: ir.Stmt) -> bool:
    """``if (i >= n) break;`` alone: a stride loop's bound spelled apart from its condition
    (``for (i0 = 0; i0 < n; i0 += blockDim.x) { i = i0 + tid; if (i >= n) break; ... }``)."""
    if stmt.kind is not ir.StmtKind.IF or stmt.orelse is not None or len(stmt.body) != 1:
        return False
    path = stmt.body[0]
    only = path.body[0] if path.kind is ir.StmtKind.COMPOUND and len(path.body) == 1 else path
    return only.kind is ir.StmtKind.BREAK


def ends_in_exit(stmt: ir.Stmt) -> bool:
    """An if without an else whose path ends in ``return``, ``continue`` or ``break``."""
    if stmt.kind is not ir.StmtKind.IF or stmt.orelse is not None or not stmt.body:
        return False
    path = stmt.body[0]
    last = path.body[-1] if path.kind is ir.StmtKind.COMPOUND and path.body else path
    return last.kind in (ir.StmtKind.RETURN, ir.StmtKind.CONTINUE, ir.StmtKind.BREAK)


def _predicated(path: ir.Stmt, workload: Workload) -> bool:
    """nvcc predicates a short path without loops or calls instead of branching around it."""
    if workload.statement(path) > PREDICATED_BODY:
        return False
    return not any(s.kind in (*_LOOPS, ir.StmtKind.ASM, ir.StmtKind.RETURN) for s in path.walk()) and not any(
        node.kind is ir.ExprKind.CALL and node.decl in workload.helpers
        for s in path.walk()
        for expr in s.expressions()
        for node in expr.walk()
    )


def selects_only(stmt: ir.Stmt, registers: Collection[str] | None = None) -> bool:
    """An if whose every path only assigns register values computed without memory or
    calls: nvcc computes both and selects, so no lane waits for another. ``registers``:
    the declarations that live in registers (locals, parameters); a variable outside them
    (``__shared__ unsigned total; if (t == 0) total = 0;``) is a store, issued predicated."""
    if stmt.kind is not ir.StmtKind.IF:
        return False
    paths = [path for path in (*stmt.body, stmt.orelse) if path is not None]
    return bool(paths) and all(_selects_only(path, registers) for path in paths)


def _selects_only(path: ir.Stmt, registers: Collection[str] | None = None) -> bool:
    statements = [s for s in path.walk() if s.kind not in (ir.StmtKind.COMPOUND, ir.StmtKind.NULL)]
    if not statements:
        return True
    for statement in statements:
        if statement.kind is not ir.StmtKind.EXPR or statement.expr is None:
            return False
        expr = statement.expr
        stepped = expr.kind is ir.ExprKind.UNARY and expr.op in ("++", "--", "post++", "post--")  # `bin--`
        if not (expr.kind is ir.ExprKind.ASSIGN or stepped) or expr.children[0].kind is not ir.ExprKind.DECL_REF:
            return False
        if registers is not None and expr.children[0].decl not in registers:
            return False
        if any(
            node.kind in (ir.ExprKind.CALL, ir.ExprKind.SUBSCRIPT, ir.ExprKind.MEMBER)
            or (node.kind is ir.ExprKind.UNARY and node.op == "*")
            for node in expr.walk()
        ):
            return False
    return True


def _idiom(
    branch: Branch,
    samples: list[Sample] | None,
    bounds: bool,
    loops: Mapping[Atom, LoopRun] | None,
    registers: Collection[str] | None = None,
) -> Idiom | None:
    stmt = branch.stmt
    if selects_only(stmt, registers):
        return Idiom.SELECT
    if _ticket_fractions(stmt) != (1.0, 1.0):
        return Idiom.TICKET
    if bounds:
        return Idiom.STRIDE_LOOP if stmt.kind in _LOOPS else Idiom.BOUNDS_GUARD
    if samples and stmt.kind is ir.StmtKind.IF and max(sum(1 for v in lanes if v) for lanes, _ in samples) == 1:
        return Idiom.SINGLE_LANE
    if stmt.kind is ir.StmtKind.IF and _halving_limit(branch.condition, loops):
        return Idiom.REDUCTION_TAIL
    return None


def _halving_limit(condition: Sym, loops: Mapping[Atom, LoopRun] | None) -> bool:
    """``t < s`` where ``s`` follows a loop whose variable halves or doubles each trip."""
    geometric = {atom for atom, run in (loops or {}).items() if run.geometric}
    for atom in condition.atoms():
        if atom.kind is AtomKind.OPERATION and atom.name in ("<", ">", "<=", ">=") and len(atom.args) == 2:
            left, right = atom.args
            limit = right if left.variance is Variance.THREAD else left
            if Variance.THREAD in (left.variance, right.variance) and geometric & set(limit.atoms()):
                return True
    return False


def _block_uniform(condition: Sym, variance: Variance, evaluator: LaneEvaluator) -> bool:
    if variance is Variance.UNIFORM:
        return True
    if variance is not Variance.WARP_UNIFORM or value_dependent(condition):
        return False
    outcomes = set()
    for warp in range(evaluator.shape.warps()):
        outcomes.update(bool(v) for v in evaluator.lanes(condition, warp) if v is not None)
    return len(outcomes) <= 1


def _lanes_walk_together(branch: Branch, loops: Mapping[Atom, LoopRun] | None, evaluator: LaneEvaluator) -> bool:
    """A loop's lanes walk together when each trip moves the compared index by more than
    the lanes' indices lie apart (``j = lane; j < n; j += 32``): the lanes then differ by at
    most one trip, and only a warp's last round splits. A start spread over the lanes
    with a smaller step (``t = threadIdx.x % 32; t < T; t++``) lets lane ``l`` run ``l``
    trips fewer than lane 0: every round of the last 31 splits the warp. Where the index
    cannot be computed in each lane, the loop is taken as walking together."""
    run = next((run for run in (loops or {}).values() if run.stmt is branch.stmt), None)
    atom = branch.condition.terms[0][0][0]
    comparisons = atom.args if atom.name == "&&" else (branch.condition,)
    if run is None:
        return True
    for comparison in comparisons:
        inner = comparison.terms[0][0][0]
        left, right = inner.args
        index = left if left.variance is Variance.THREAD else right
        warp, running = first_running_warp(branch.guards, evaluator)
        at = [
            LaneEvaluator(
                evaluator.shape,
                evaluator.round,
                evaluator.bindings,
                evaluator.block,
                evaluator.grid,
                {**evaluator.iterations, run.iteration: trip},
            ).lanes(index, warp)
            for trip in (0, 1)
        ]
        starts = [v for v, on in zip(at[0], running, strict=False) if on]
        steps = {b - a for a, b, on in zip(at[0], at[1], running, strict=False) if on and None not in (a, b)}
        if None in starts or len(steps) != 1 or not starts:
            continue
        if max(starts) - min(starts) >= abs(steps.pop()):
            return False
    return True


def _is_bounds_guard(condition: Sym, loop: bool = False) -> bool:
    """A thread index compared against a limit known only at run time: only the warp that
    holds the limit splits. In a loop the lanes walk together (``j = start + lane; j < end;
    j += 32``) the limit may be one per warp: only each warp's last trip splits."""
    atom = condition.sole_operation
    if atom is None or atom.name not in ("<", ">", "<=", ">=", "&&"):
        return False
    if atom.name == "&&":
        return all(_is_bounds_guard(argument, loop) for argument in atom.args)
    left, right = atom.args
    limits = {Variance.UNIFORM, Variance.WARP_UNIFORM} if loop else {Variance.UNIFORM}
    if Variance.THREAD not in (left.variance, right.variance):
        return False
    index, limit = (left, right) if left.variance is Variance.THREAD else (right, left)
    # A block-local index (`threadIdx.x < n`, `lane < count`) against a run-time limit
    # splits a warp of every block, not one warp of the grid: a tile's ragged edge that
    # the hardware shows idling lanes in every block (a stride loop's lanes walk
    # together whatever their start: only each warp's last trip splits).
    grid_wide = loop or any(a.kind is AtomKind.BLOCK_INDEX for a in index.atoms())
    return grid_wide and limit.variance in limits and value_dependent(limit)
