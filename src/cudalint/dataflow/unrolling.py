"""Which loops nvcc unrolls, predicted from the source: the trip count of each loop, the
size of the unrolled nest against nvcc's budget, ``#pragma unroll`` and its count, and the
cost of the operations a body holds (``expression_cost``, also what a branch's body costs).

Calibrated against ptxas (nvcc 13, sm_90); ``registers.py`` and ``local_arrays.py`` read it.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.dataflow.facts import KernelTrace, LoopRun
from cudalint.dataflow.symbolic import Atom, AtomKind

UNROLL_BUDGET = 3650
"""Unrolled size (trip count times body operations, as counted by ``_body_cost``) up to
which nvcc fully unrolls a loop with a constant trip count and no pragma. The size is that
of the whole nest unrolled, whatever its depth, and an index made of loop counters and
constants costs nothing: each unrolled copy has a constant index there. Measured with
ptxas (nvcc 13, sm_90) on a rolled loop around loops updating ``float acc[N]`` by a chain
of k multiply-adds per element, where the array stays in registers only if the loops
unroll: N = 32 unrolls up to k = 36 (not 40), 64 up to 16 (not 20), 128 up to 7 (not 8),
the same for 128 as one loop or as 8 x 16, 4 x 8 x 4 and 2^7 nests; every verdict falls
on the right side of 3650 (tests/corpus/registers/unrolled_nests.cu)."""
MAX_TRIP_COUNT = 4096


class UnrollReason(enum.Enum):
    UNROLLED = "unrolled"
    PRAGMA_ONE = "`#pragma unroll 1` asks for that"
    TRIP_NOT_CONSTANT = "its trip count is known only at run time"
    TOO_LARGE = "its body is too large to repeat that many times"
    TEMPLATE_TRIPS = (
        "its trip count is a template constant, and whether nvcc unrolls it unasked depends on each instantiation's"
    )


# Operation counts of CUDA math functions once inlined, for the unrolling model: the
# precise trigonometric functions carry a long slow path, intrinsics are one instruction.
_HEAVY_CALLS = frozenset(
    (
        "sinf",
        "cosf",
        "tanf",
        "sincosf",
        "powf",
        "sin",
        "cos",
        "tan",
        "sincos",
        "pow",
        "exp",
        "log",
        "erfinvf",
        "acosf",
        "asinf",
        "atan2f",
        "lgammaf",
        "tgammaf",
    )
)
_MODERATE_CALLS = frozenset(
    (
        "expf",
        "exp2f",
        "exp10f",
        "logf",
        "log2f",
        "log10f",
        "log1pf",
        "expm1f",
        "tanhf",
        "sinhf",
        "coshf",
        "erff",
        "erfcf",
        "atanf",
        "cbrtf",
        "sqrt",
        "fmod",
        "fmodf",
        "hypotf",
        "normcdff",
    )
)
HEAVY_CALL_COST = 40
MODERATE_CALL_COST = 10
CHEAP_CALL_COST = 2


@dataclass
class UnrollModel:
    """Which loops of one kernel the compiler unrolls fully, and how many trips they make."""

    loops: dict[Atom, LoopRun]
    template_constants: frozenset[str] = frozenset()
    """Names of the template pattern's constants (parameter atoms named so): compile-time
    values whose numbers only an instantiation knows."""
    counter_indices: frozenset[int] = frozenset()
    """Ids of the subscripts whose index is a polynomial in loop counters and constants:
    every unrolled copy indexes at a constant, so the index arithmetic folds away."""
    _verdicts: dict[int, UnrollReason | None] = field(default_factory=dict)

    def trip_count(self, run: LoopRun) -> int | None:
        """Trips of ``run`` once the loops around it are unrolled: the most over their values."""
        outer = {a for a in run.condition.atoms() if a.kind is AtomKind.ITERATION and a != run.iteration}
        ranges = []
        for atom in outer:
            enclosing = self.loops.get(atom)
            if enclosing is None or enclosing is run or self.verdict(enclosing) is not UnrollReason.UNROLLED:
                return None
            ranges.append(range(self.trip_count(enclosing) or 0))
        counts = [
            self._trips(run, dict(zip(outer, values, strict=True)))
            for values in itertools.islice(itertools.product(*ranges), MAX_TRIP_COUNT)
        ]
        return None if not counts or None in counts else max(counts)

    def _trips(self, run: LoopRun, fixed: dict[Atom, int]) -> int | None:
        for trips in range(MAX_TRIP_COUNT + 1):
            value = run.condition.evaluate(
                lambda atom, trips=trips: trips if atom == run.iteration else fixed.get(atom)
            )
            if value is None:
                return None
            if value == 0:
                return trips
        return None

    def verdict(self, run: LoopRun) -> UnrollReason:
        key = id(run)
        if key in self._verdicts:
            # Asked again while deciding it (an inner loop whose bounds use this counter,
            # costed as part of this body): take it as unrolled to learn the inner trip count.
            return self._verdicts[key] or UnrollReason.UNROLLED
        self._verdicts[key] = None
        self._verdicts[key] = verdict = self._decide(run)
        return verdict

    def _decide(self, run: LoopRun) -> UnrollReason:
        unroll = run.stmt.unroll
        if unroll is not None and unroll.count == 1:
            return UnrollReason.PRAGMA_ONE
        trips = self.trip_count(run)
        if trips is None:
            if not self._template_trips(run):
                return UnrollReason.TRIP_NOT_CONSTANT
            # Every instantiation has a constant trip count: `#pragma unroll` unrolls it fully.
            return UnrollReason.UNROLLED if unroll is not None and unroll.full else UnrollReason.TEMPLATE_TRIPS
        if unroll is not None and unroll.full:
            return UnrollReason.UNROLLED
        return UnrollReason.UNROLLED if trips * self._body_cost(run.stmt) <= UNROLL_BUDGET else UnrollReason.TOO_LARGE

    def _template_trips(self, run: LoopRun) -> bool:
        """Whether the loop's condition is made of its own counter, the counters of unrolled
        loops around it and template constants only: a template pattern's loop whose trip
        count each instantiation fixes (``for (int l = 0; l < tile::ne; ++l)``)."""
        for atom in run.condition.atoms():
            if atom.kind is AtomKind.OPERATION or atom == run.iteration:
                continue
            if atom.kind is AtomKind.PARAMETER and atom.name in self.template_constants:
                continue
            enclosing = self.loops.get(atom) if atom.kind is AtomKind.ITERATION else None
            if enclosing is None or enclosing is run or self.verdict(enclosing) is not UnrollReason.UNROLLED:
                return False
        return bool(self.template_constants)

    def undecided(self, run: LoopRun) -> bool:
        """Whether only an instantiation can tell if nvcc unrolls the loop."""
        return self.verdict(run) is UnrollReason.TEMPLATE_TRIPS

    def explain(self, run: LoopRun) -> str:
        """Why ``run`` stays rolled, in words (empty when it unrolls)."""
        verdict = self.verdict(run)
        if verdict is UnrollReason.TOO_LARGE:
            return f"its body is too large to repeat {self.trip_count(run)} times"
        if verdict is UnrollReason.TRIP_NOT_CONSTANT and run.stmt.unroll is not None:
            return "its trip count is known only at run time, so even unrolled copies index at run time"
        return "" if verdict is UnrollReason.UNROLLED else verdict.value

    def _body_cost(self, loop: ir.Stmt) -> int:
        cost = sum(expression_cost(expr, self.counter_indices) for expr in (loop.cond, loop.step) if expr is not None)
        for child in loop.body:
            cost += self._statement_cost(child)
        return cost

    def _statement_cost(self, stmt: ir.Stmt) -> int:
        if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
            run = next((r for r in self.loops.values() if r.stmt is stmt), None)
            trips = self.trip_count(run) if run is not None else None
            inner = self._body_cost(stmt)
            return inner * trips if trips is not None and self.verdict(run) is UnrollReason.UNROLLED else inner
        cost = sum(expression_cost(expr, self.counter_indices) for expr in stmt.expressions())
        for child in (*stmt.body, stmt.init, stmt.orelse):
            if child is not None:
                cost += self._statement_cost(child)
        return cost


def counter_indices(trace: KernelTrace) -> frozenset[int]:
    """Ids of the subscripts whose every access in ``trace`` is at an offset made of loop
    counters and constants (template constants included) without any operation atom
    (``%``, ``/``): once the loops are unrolled, each copy's index is a constant."""
    folded: dict[int, bool] = {}
    for access in trace.accesses:
        folded[id(access.expr)] = folded.get(id(access.expr), True) and all(
            atom.kind is AtomKind.ITERATION
            or (atom.kind is AtomKind.PARAMETER and atom.name in trace.template_constants)
            for atom in access.location.offset.atoms()
        )
    return frozenset(key for key, constant in folded.items() if constant)


def expression_cost(expr: ir.Expr, counter_indices: frozenset[int] = frozenset()) -> int:
    """Operations ``expr`` compiles to, roughly: one per operator, access and member, the
    math library's calls at their inlined size. A subscript in ``counter_indices`` costs
    its access alone."""
    cost = 0
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.kind is ir.ExprKind.SUBSCRIPT and id(node) in counter_indices:
            cost += 1
            continue
        stack.extend(node.children)
        if node.kind is ir.ExprKind.CALL:
            name = (node.name or "").removeprefix("std::").removeprefix("::")
            cost += (
                HEAVY_CALL_COST
                if name in _HEAVY_CALLS
                else MODERATE_CALL_COST
                if name in _MODERATE_CALLS
                else CHEAP_CALL_COST
            )
        elif node.kind in (
            ir.ExprKind.BINARY,
            ir.ExprKind.UNARY,
            ir.ExprKind.ASSIGN,
            ir.ExprKind.SUBSCRIPT,
            ir.ExprKind.CONDITIONAL,
            ir.ExprKind.MEMBER,
        ):
            cost += 1
    return cost
