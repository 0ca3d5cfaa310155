"""Register pressure and local memory, predicted from the source.

Three questions, answered without a compiler:

* the **budget**: how many registers per thread the compiler may give a kernel, from
  ``__launch_bounds__``, ``__maxnreg__``, the build's ``-maxrregcount`` and the hardware;
* the **estimate**: the live state a thread carries, mostly the per-thread arrays the
  compiler keeps in registers once loops over them are unrolled;
* which per-thread arrays are **in local memory**: those indexed by something the compiler
  cannot resolve to a constant after unrolling.

The unrolling model and the fixed overhead are calibrated against ptxas (nvcc 13, sm_90);
the exact figures come from ``--ptxas`` (``cudalint.ptxas``).
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.dataflow.interpret import Access, AccessKind, KernelTrace, LoopRun, MemorySpace
from cudalint.dataflow.occupancy import REGISTER_ALLOCATION_UNIT, WARP_SIZE, sm_limits
from cudalint.dataflow.symbolic import OPERATORS, Atom, AtomKind, Sym, operation

THREAD_OVERHEAD = 8
"""Registers a kernel needs besides its arrays and loop-carried values (thread index,
addresses, loop counter): ptxas gives a kernel holding an unrolled ``float a[N]`` about N + 8."""
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
MAX_RECORD_NESTING = 8
"""Structs inside structs followed when looking for an array member."""


def _round_down_to_allocation(registers: float) -> int:
    step = REGISTER_ALLOCATION_UNIT // WARP_SIZE
    return int(registers // step) * step


@dataclass(frozen=True)
class RegisterBudget:
    registers: int
    source: str
    """What sets it, as the user wrote it: ``__launch_bounds__(256, 4)``, ``-maxrregcount=32``."""
    explicit: bool = True
    """False for the hardware's own limit."""


def register_budget(function: ir.Function, arch: int, max_registers: int | None) -> RegisterBudget:
    """The cap ptxas must meet. Launch bounds win over ``-maxrregcount`` (ptxas overrides the
    global option with the value it computes from the thread count); a ``minBlocks`` the
    SM cannot host is ignored, as ptxas does."""
    bounds = function.launch_bounds
    if bounds is not None and bounds.max_threads:
        text = bounds.text or ", ".join(str(v) for v in (bounds.max_threads, bounds.min_blocks) if v)
        cap = launch_bounds_registers(bounds.max_threads, bounds.min_blocks, arch)
        return RegisterBudget(cap, f"__launch_bounds__({text})")
    most = sm_limits(arch).max_registers_per_thread
    if function.max_registers:
        return RegisterBudget(min(function.max_registers, most), f"__maxnreg__({function.max_registers})")
    if max_registers:
        return RegisterBudget(min(max_registers, most), f"-maxrregcount={max_registers}")
    return RegisterBudget(most, "the hardware limit", explicit=False)


def launch_bounds_registers(max_threads: int, min_blocks: int | None, arch: int) -> int:
    """The registers per thread ptxas allows under ``__launch_bounds__(max_threads,
    min_blocks)``: the SM's registers shared by ``min_blocks`` blocks, rounded down to the
    allocation unit of 8, at most 255."""
    limits = sm_limits(arch)
    warps = math.ceil(max_threads / WARP_SIZE)
    blocks = min_blocks or 1
    if blocks > limits.max_blocks or warps * blocks > limits.max_warps:
        blocks = 1
    cap = _round_down_to_allocation(limits.registers_per_sm / (warps * blocks) / WARP_SIZE)
    return min(cap, limits.max_registers_per_thread)


# ---------------------------------------------------------------------------- unrolling


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


# ---------------------------------------------------------------------------- local arrays
#
# Registers cannot be indexed at run time. nvcc keeps a per-thread array in registers when
# every access has a constant index once loops are unrolled; otherwise the array becomes
# an allocation in local memory, and ptxas decides whether it can still hold it in
# registers by picking the element with predicated moves ("selects"). What nvcc 13 does
# for sm_90 (measured: tests/corpus/registers/local_memory_shapes.cu):
#
# * Selects work on 32-bit words only (float, int, float4, ...): an array of double,
#   long long, char, short or half indexed at run time stays in local memory.
# * Outside rolled loops, selects cover a few run-time accesses to small arrays: up to 80
#   32-bit values, and fewer than 128 values picked among altogether once there are three
#   accesses or more.
# * In a rolled loop, arrays of 24 or more values stay in local memory, and so do arrays of
#   16 or more unless indexed only by the counter of a loop whose trip count is a run-time
#   value (nvcc unrolls such a loop by four and ptxas then selects). Below that, ptxas weighs
#   the selects against the loop's own work and either can happen, except where the loops
#   store at one run-time index and load at another (insertion sorts, stacks, rotations,
#   an array filled in one loop and read in another): local memory.
# * It is all or nothing per kernel: once one array, or the math library's argument
#   reduction, is in local memory, every array indexed at run time is.
#
# In local memory, an array's accesses are loads and stores there when they must be: every
# access at a run-time index, every store a later load from memory may read, every load
# that may follow a store at a run-time index. nvcc keeps the rest in registers; a load
# that reads back, at the same run-time index, what an earlier store of the same pass
# wrote takes the stored value, and an array only such loads read needs no memory at all.

MAX_SELECT_WORDS = 80
"""32-bit values beyond which ptxas does not select among an array's registers, even for one access."""
MAX_SELECTED_WORD_PICKS = 128
"""Values picked among (the array's 32-bit values times its run-time accesses, once loops
unroll) from which three or more such accesses outside loops stay in local memory."""
SURE_SELECT_WORD_PICKS = 64
"""Values picked among up to which run-time accesses outside loops are always selects."""
LOOP_LOCAL_WORDS = 24
"""32-bit values from which an array indexed at run time in a rolled loop stays in local memory."""
LOOP_COUNTER_SELECT_WORDS = 16
"""32-bit values from which it does unless indexed only by the counter of a run-time-trip loop."""
MAX_COPIES = 256
"""Copies of an access made by unrolling that are compared one by one."""


class Placement(enum.Enum):
    REGISTERS = "registers"
    """Every index is a constant once loops unroll, or every run-time-indexed load reads back a stored value."""
    SELECTS = "selects"
    """Run-time accesses that ptxas turns into predicated moves between registers."""
    UNDECIDED = "undecided"
    """Selects or local memory: ptxas's cost heuristics decide, the source does not."""
    LOCAL = "local memory"


@dataclass(frozen=True)
class DynamicIndex:
    """An access whose index is not a constant once loops are unrolled."""

    access: Access
    reason: str
    """Why, in words: ``the counter of the loop at line 12, which nvcc keeps rolled: ...``."""


@dataclass(frozen=True)
class LocalArray:
    var: ir.VarDecl
    accesses: tuple[Access, ...]
    dynamic: tuple[DynamicIndex, ...]
    """Accesses whose run-time index needs the array in memory: loads that do not read back
    a stored value, and stores a later load may read."""
    placement: Placement = Placement.REGISTERS
    why: str = ""
    """Why the placement, beyond the run-time index: ``its elements are 64-bit ...``."""
    memory_accesses: tuple[Access, ...] = ()
    """The accesses that load or store local memory when the array is there."""

    @property
    def initialized_in_memory(self) -> bool:
        """Its declaration's initializer stores the initial values in local memory when the array is there."""
        return self.var.init is not None and bool(self.dynamic)

    @property
    def bytes(self) -> int:
        return self.var.type.size or 0

    @property
    def words(self) -> int:
        return math.ceil(self.bytes / 4)

    @property
    def in_local_memory(self) -> bool:
        """Predicted from the source: nvcc leaves it in local memory."""
        return self.placement is Placement.LOCAL

    @property
    def cause(self) -> DynamicIndex | None:
        """The run-time-indexed access that puts the array in memory (the first one)."""
        return self.dynamic[0] if self.dynamic else None

    @property
    def declaration(self) -> str:
        """As declared: ``float acc[8][8]``."""
        return f"{_element_type(self.var.type).spelling} {self.var.name}" + "".join(
            f"[{n}]" for n in _dimensions(self.var.type)
        )

    @property
    def unrolled_access(self) -> Access | None:
        """The first access whose index is a constant only because its loop is predicted to unroll."""
        return next(
            (
                access
                for access in self.accesses
                if any(a.kind is AtomKind.ITERATION for a in access.location.offset.atoms())
            ),
            None,
        )


@dataclass(frozen=True)
class _Visit:
    """One access of an array, with what unrolling makes of it."""

    order: int
    """Its place in the kernel's code: later accesses have larger numbers."""
    access: Access
    copies: tuple[Sym, ...] | None
    """Its offset in each copy unrolling makes (None: too many to list)."""
    count: int
    """Copies of it once the loops around it unroll."""
    rolled: frozenset[int]
    """The rolled loops around it (by statement id)."""
    around: frozenset[int]
    """Every loop around it."""
    conditions: frozenset[tuple[int, bool]]
    """The if/switch decisions it runs under."""
    reason: str | None
    """Why its index is a run-time value; None when every copy's index is a constant."""

    @property
    def is_load(self) -> bool:
        return self.access.kind is not AccessKind.STORE

    @property
    def is_store(self) -> bool:
        return self.access.kind is not AccessKind.LOAD

    def may_follow(self, other: _Visit) -> bool:
        """Whether this access can run after ``other``: later in the code, or in a loop around both."""
        return self.order > other.order or bool(self.around & other.around)


def local_arrays(
    trace: KernelTrace, model: UnrollModel, records: Mapping[str, ir.Record] | None = None
) -> list[LocalArray]:
    by_array: dict[str, list[Access]] = {}
    for access in trace.accesses:
        if access.space is MemorySpace.LOCAL and access.location.base in trace.local_arrays:
            by_array.setdefault(access.location.base, []).append(access)
    tables = _constant_tables(trace, by_array, model)
    arrays = [
        _local_array(var, by_array.get(name, []), model, trace.function, records or {}, tables)
        for name, var in trace.local_arrays.items()
        if var.type.size is not None
    ]
    return _all_or_nothing(arrays, math_library_stack(trace))


def _constant_tables(trace: KernelTrace, by_array: Mapping[str, list[Access]], model: UnrollModel) -> frozenset[str]:
    """Per-thread arrays whose every read is a compile-time constant: initialized with a list
    of constants, never stored to, and read only at indices that are constants once loops
    unroll (``const int order[] = {0, 4, 2, 6}; ... v[order[i]]``). nvcc folds such reads."""
    tables = set()
    for name, var in trace.local_arrays.items():
        accesses = by_array.get(name, [])
        if (
            _constant_list(var.init)
            and all(a.kind is AccessKind.LOAD for a in accesses)
            and not any(_dynamic_reason(a.location.offset, model, trace.function, frozenset()) for a in accesses)
        ):
            tables.add(name)
    return frozenset(tables)


def _constant_list(init: ir.Expr | None) -> bool:
    if init is None or init.kind is not ir.ExprKind.INIT_LIST:
        return False
    elements = list(init.children)
    while elements:
        element = elements.pop()
        if element.kind in (ir.ExprKind.CAST, ir.ExprKind.INIT_LIST) and element.value is None:
            elements.extend(element.children)
        elif element.value is None or isinstance(element.value, str):
            return False
    return True


def _local_array(
    var: ir.VarDecl,
    accesses: list[Access],
    model: UnrollModel,
    function: ir.Function,
    records: Mapping[str, ir.Record],
    tables: frozenset[str],
) -> LocalArray:
    runs = {id(run.stmt): run for run in model.loops.values()}
    rolled = {key for key, run in runs.items() if model.verdict(run) is not UnrollReason.UNROLLED}
    visits = [_visit(order, access, model, function, runs, rolled, tables) for order, access in enumerate(accesses)]
    forwarded = {v.order for v in visits if v.reason is not None and v.is_load and _reads_back(v, visits)}
    memory_loads = [v for v in visits if v.is_load and v.reason is not None and v.order not in forwarded]
    constant_loads = [
        v
        for v in visits
        if v.is_load
        and v.reason is None
        and any(s.reason is not None and v.may_follow(s) for s in visits if s.is_store)
    ]
    readers = memory_loads + constant_loads
    needed = [
        v
        for v in visits
        if v.reason is not None
        and (v.order in {r.order for r in memory_loads} or v.is_store and any(r.may_follow(v) for r in readers))
    ]
    dynamic = tuple(DynamicIndex(v.access, v.reason or "") for v in needed)
    if not dynamic:
        return LocalArray(var, tuple(accesses), ())
    placement, why = _placement(var, [v for v in visits if v.order in {n.order for n in needed}], model, records)
    if placement is not Placement.REGISTERS and any(_template_dependent(v, model) for v in needed):
        # In one instantiation the loop is unrolled and the index a constant, in another not.
        placement, why = Placement.UNDECIDED, ""
    stored = [v for v in visits if v.is_store and v.reason is None and any(r.may_follow(v) for r in readers)]
    in_memory = {v.order for v in (*needed, *constant_loads, *stored)} | {
        v.order for v in visits if v.reason is not None and v.is_store
    }
    memory = tuple(v.access for v in visits if v.order in in_memory)
    return LocalArray(var, tuple(accesses), dynamic, placement, why, memory)


def _visit(
    order: int,
    access: Access,
    model: UnrollModel,
    function: ir.Function,
    runs: Mapping[int, LoopRun],
    rolled: set[int],
    tables: frozenset[str],
) -> _Visit:
    unrolled = [runs[id(loop)] for loop in access.loops if id(loop) in runs and id(loop) not in rolled]
    count = math.prod(model.trip_count(run) or 1 for run in unrolled)
    offset = access.location.offset
    counters = [run for run in unrolled if run.iteration in set(offset.atoms())]
    trips = [model.trip_count(run) for run in counters]
    ranges = [range(count or 1) for count in trips]
    copies: tuple[Sym, ...] | None = None
    # A template's loop unrolled a number of times only its instantiations know has no list of copies.
    if None not in trips and math.prod(len(r) for r in ranges) <= MAX_COPIES:
        copies = tuple(
            dict.fromkeys(
                _substitute(offset, {run.iteration: value for run, value in zip(counters, values, strict=True)})
                for values in itertools.product(*ranges)
            )
        )
    return _Visit(
        order,
        access,
        copies,
        count,
        rolled=frozenset(id(loop) for loop in access.loops if id(loop) in rolled),
        around=frozenset(id(loop) for loop in access.loops),
        conditions=frozenset(
            (id(g.decision), g.holds)
            for g in access.guards
            if g.decision is not None and g.decision.kind in (ir.StmtKind.IF, ir.StmtKind.SWITCH)
        ),
        reason=_dynamic_reason(offset, model, function, tables),
    )


def _substitute(value: Sym, known: Mapping[Atom, int]) -> Sym:
    """``value`` with some atoms replaced by integers (operations folded where they can be)."""
    total = Sym.const(0)
    for monomial, coefficient in value.terms:
        term = Sym.const(coefficient)
        for atom in monomial:
            term = term * _substitute_atom(atom, known)
        total = total + term
    return total


def _substitute_atom(atom: Atom, known: Mapping[Atom, int]) -> Sym:
    if atom in known:
        return Sym.const(known[atom])
    if atom.kind is not AtomKind.OPERATION or not atom.args:
        return Sym.atom(atom)
    args = tuple(_substitute(argument, known) for argument in atom.args)
    if args == atom.args:
        return Sym.atom(atom)
    if atom.name in OPERATORS:
        return operation(atom.name, *args)
    return Sym.atom(dataclasses.replace(atom, args=args))


def _reads_back(load: _Visit, visits: list[_Visit]) -> bool:
    """Whether every copy of ``load`` reads, at the same run-time index, what a store earlier
    in the same pass wrote under the same conditions, with no store between that may write
    the same element at another run-time index."""
    if load.copies is None:
        return False
    sources = [
        v
        for v in visits
        if v.is_store
        and v.order < load.order
        and v.rolled == load.rolled
        and v.conditions <= load.conditions
        and v.copies is not None
    ]
    written = {offset: store.order for store in sources for offset in store.copies}
    if not all(offset in written for offset in load.copies):
        return False
    first = min(written[offset] for offset in load.copies)
    return not any(v.is_store and first < v.order < load.order and _may_alias(v, load) for v in visits)


def _may_alias(store: _Visit, load: _Visit) -> bool:
    """Whether a copy of ``store`` may write what a copy of ``load`` reads, at an index that
    differs from it by an amount only known at run time."""
    if store.copies is None or load.copies is None:
        return True
    return any((a - b).constant is None for a in store.copies for b in load.copies)


def _dynamic_reason(offset: Sym, model: UnrollModel, function: ir.Function, tables: frozenset[str]) -> str | None:
    """Why an offset is not a constant once loops unroll, in words; None when it is. A
    template's constant parameters are constants to the compiler, like literals, and so are
    values read from the constant ``tables``."""
    for atom in offset.atoms():
        if atom.kind is AtomKind.OPERATION or _read_from(atom, tables):
            continue  # An operation's arguments' atoms come next.
        if atom.kind is AtomKind.ITERATION:
            run = model.loops.get(atom)
            if run is None:
                return "the counter of a loop that nvcc keeps rolled"
            verdict = model.verdict(run)
            if verdict is not UnrollReason.UNROLLED:
                return (
                    f"the counter of the loop at line {run.stmt.span.line}, which nvcc keeps rolled: "
                    + model.explain(run)
                )
        elif atom.kind is AtomKind.THREAD_INDEX:
            return f"an index computed from {atom}"
        elif atom.kind is AtomKind.PARAMETER:
            if atom.name in function.template_parameters or atom.name in model.template_constants:
                continue
            named = any(p.name == atom.name for p in function.params)
            return f"the parameter `{atom.name}`, known only at run time" if named else "a value known only at run time"
        elif atom.kind in (AtomKind.VARYING, AtomKind.WARP_UNIFORM, AtomKind.UNIFORM):
            return "a value loaded or computed at run time"
        else:
            return f"an index computed from {atom}, known only at run time"
    return None


def _read_from(atom: Atom, tables: frozenset[str]) -> bool:
    """Whether ``atom`` is a value loaded from one of ``tables`` (the interpreter names a
    loaded value after the array it was read from: ``order[...]``)."""
    return atom.kind in (AtomKind.UNIFORM, AtomKind.WARP_UNIFORM, AtomKind.VARYING) and any(
        atom.name.startswith(f"{table}[") for table in tables
    )


def _element_type(ctype: ir.CType) -> ir.CType:
    while ctype.pointee is not None and ctype.kind is ir.TypeKind.ARRAY:
        ctype = ctype.pointee
    return ctype


def _scalar_sizes(ctype: ir.CType, records: Mapping[str, ir.Record], depth: int = 0) -> set[int | None]:
    """The sizes of the scalars an element is made of (a float4's are all 4)."""
    ctype = _element_type(ctype)
    if ctype.kind is ir.TypeKind.RECORD:
        record = records.get(ctype.record or "")
        if record is None or not record.fields or depth > MAX_RECORD_NESTING:
            return {None}
        return {size for member in record.fields for size in _scalar_sizes(member.type, records, depth + 1)}
    return {ctype.size}


def _placement(
    var: ir.VarDecl, needed: list[_Visit], model: UnrollModel, records: Mapping[str, ir.Record]
) -> tuple[Placement, str]:
    """Where nvcc leaves an array that ``needed`` index at run time, and why."""
    element = _element_type(var.type)
    sizes = _scalar_sizes(element, records)
    if None in sizes:
        return Placement.UNDECIDED, ""
    if sizes != {4}:
        bits = ", ".join(f"{8 * size}-bit" for size in sorted(s for s in sizes if s != 4))
        return Placement.LOCAL, (
            f"its elements are {bits} values (`{element.spelling}`), and nvcc moves only "
            "32-bit values in and out of registers at a run-time index"
        )
    words = math.ceil((var.type.size or 0) / 4)
    looped = [v for v in needed if v.rolled]
    if looped:
        return _placement_in_loops(looped, words, model)
    accesses = sum(v.count for v in needed)
    if words > MAX_SELECT_WORDS:
        return Placement.LOCAL, (
            f"it holds {words} 32-bit values, more than nvcc will pick from registers at a run-time index"
        )
    if accesses >= 3 and accesses * words >= MAX_SELECTED_WORD_PICKS:
        return Placement.LOCAL, (
            f"its {accesses} run-time-indexed accesses, once loops unroll, would each pick "
            f"among {words} values in registers, more than nvcc does"
        )
    return (Placement.SELECTS if accesses * words <= SURE_SELECT_WORD_PICKS else Placement.UNDECIDED), ""


def _placement_in_loops(looped: list[_Visit], words: int, model: UnrollModel) -> tuple[Placement, str]:
    if (
        words >= LOOP_LOCAL_WORDS
        or words >= LOOP_COUNTER_SELECT_WORDS
        and not all(_counter_indexed(v, model) for v in looped)
    ):
        return Placement.LOCAL, (
            f"inside a rolled loop, nvcc does not pick among {words} values in registers at a run-time index"
        )
    # A load and a store at run-time indices that are not one read-modify-write of an element.
    moved = any(
        not (load.rolled == store.rolled and load.copies == store.copies)
        for load in looped
        if load.is_load
        for store in looped
        if store.is_store
    )
    if moved:
        return Placement.LOCAL, (
            "values are stored at one run-time index and loaded at another inside rolled "
            "loops, which nvcc does in local memory"
        )
    return Placement.UNDECIDED, ""


def _template_dependent(visit: _Visit, model: UnrollModel) -> bool:
    """Whether the access is inside, or indexed by the counter of, a loop that only an
    instantiation of the template can tell unrolled or rolled."""
    runs = {id(run.stmt): run for run in model.loops.values()}
    around = [runs[id(loop)] for loop in visit.access.loops if id(loop) in runs]
    counters = [model.loops[a] for a in visit.access.location.offset.atoms() if a in model.loops]
    return any(model.undecided(run) for run in (*around, *counters))


def _counter_indexed(visit: _Visit, model: UnrollModel) -> bool:
    """Indexed by the counter of a loop whose trip count is a run-time value and that has no
    pragma: nvcc unrolls it by four, and the copies index the array at counter-relative offsets."""
    offset = visit.access.location.offset
    if not offset.is_affine:
        return False
    for atom in offset.atoms():
        run = model.loops.get(atom) if atom.kind is AtomKind.ITERATION else None
        if run is None:
            return False
        verdict = model.verdict(run)
        if verdict is not UnrollReason.UNROLLED and (
            verdict is not UnrollReason.TRIP_NOT_CONSTANT or run.stmt.unroll is not None
        ):
            return False
    return True


def _all_or_nothing(arrays: list[LocalArray], library_stack: int) -> list[LocalArray]:
    """Once one array, or the math library's argument reduction, is in local memory, nvcc
    leaves every array indexed at run time there."""
    anchor = next((a for a in arrays if a.placement is Placement.LOCAL), None)
    if anchor is None and not library_stack:
        return arrays
    why = (
        f"the kernel keeps `{anchor.var.name}` in local memory already"
        if anchor is not None
        else "the kernel's precise trigonometric calls already use local memory for argument reduction"
    )
    why += ", and nvcc then leaves every array indexed at run time there"
    return [
        dataclasses.replace(a, placement=Placement.LOCAL, why=why)
        if a.dynamic and a.placement in (Placement.SELECTS, Placement.UNDECIDED)
        else a
        for a in arrays
    ]


# Precise trigonometric functions reduce large arguments (Payne-Hanek) in a small
# per-thread table: ptxas shows it as 32 bytes of stack for float, 40 for double.
_FLOAT_TRIG = frozenset(("sinf", "cosf", "tanf", "sincosf", "sinpif", "cospif"))
_DOUBLE_TRIG = frozenset(("sin", "cos", "tan", "sincos"))


def math_library_stack(trace: KernelTrace) -> int:
    """Stack bytes the CUDA math library may use in this kernel, besides its own arrays."""
    return (32 if trace.calls & _FLOAT_TRIG else 0) + (40 if trace.calls & _DOUBLE_TRIG else 0)


# ---------------------------------------------------------------------------- estimate


@dataclass(frozen=True)
class Contributor:
    what: str
    registers: int


@dataclass(frozen=True)
class RegisterEstimate:
    registers: int
    contributors: tuple[Contributor, ...]
    """Largest first; the fixed overhead is not listed."""
    tile_words: int = 0
    """Registers of the per-thread arrays and fragments among them: independent values
    each thread works on at once."""


def estimate_registers(
    function: ir.Function, model: UnrollModel, arrays: Iterable[LocalArray], records: Mapping[str, ir.Record]
) -> RegisterEstimate:
    """Registers one thread needs at its busiest: the arrays kept in registers, the structs
    that hold arrays (wmma fragments), the values carried across the loops that stay rolled,
    and a fixed overhead. Arrays and structs are counted as live together (they usually
    are, around the main loop), except the operand arrays of one step of a rolled loop,
    which ptxas streams (``_operand_contributor``)."""
    in_registers = [a for a in arrays if not a.in_local_memory and a.words]
    rolled = [run.stmt for run in model.loops.values() if model.verdict(run) is not UnrollReason.UNROLLED]
    streamed = _streamed_operands(in_registers, rolled)
    contributors = [Contributor(a.declaration, a.words) for a in in_registers if a.var.decl not in streamed]
    contributors += [_operand_contributor(group) for group in {id(g): g for g in streamed.values()}.values()]
    aggregates = _array_holders(function, records)
    contributors += [Contributor(f"{var.type.spelling} {var.name}", _words(var.type)) for var in aggregates]
    tile_words = sum(c.registers for c in contributors)
    carried = _carried_values(function, rolled, {var.decl for var in aggregates})
    if carried:
        names = ", ".join(name for name, _ in carried[:4]) + (", ..." if len(carried) > 4 else "")
        contributors.append(Contributor(f"values live across loops ({names})", sum(words for _, words in carried)))
    contributors.sort(key=lambda c: -c.registers)
    return RegisterEstimate(THREAD_OVERHEAD + sum(c.registers for c in contributors), tuple(contributors), tile_words)


def _streamed_operands(arrays: list[LocalArray], rolled: list[ir.Stmt]) -> dict[str, list[LocalArray]]:
    """The operand arrays of each step of a rolled loop, by declaration: two or more arrays
    declared in the loop's body (a tile's ``a[WM]`` and ``b[WN]`` fragments, ``RA``/``RB``),
    each group keyed by every member's declaration."""
    groups: dict[str, list[LocalArray]] = {}
    for loop in rolled:
        declared = {var.decl for child in loop.body for s in child.walk() for var in s.decls}
        group = [a for a in arrays if a.var.decl in declared and a.var.decl not in groups]
        if len(group) >= 2:
            groups.update((a.var.decl, group) for a in group)
    return groups


def _operand_contributor(group: list[LocalArray]) -> Contributor:
    """What a step's operands keep live at once. In the unrolled ``i x j`` nest of an outer
    product each ``a[i]`` meets every ``b[j]``: one side stays whole while ptxas loads the
    other just in time, one element (fragment) at a time, so the peak is the whole of all
    operands but one plus one element of that one (measured: a 4 x 6 wmma tile, 192
    accumulator registers and 80 of operands, compiles to 254 registers without spills)."""
    total = sum(a.words for a in group)

    def live(streamed: LocalArray) -> int:
        first = (_dimensions(streamed.var.type) or [1])[0] or 1
        return total - streamed.words + math.ceil(streamed.words / first)

    one_at_a_time = min(group, key=live)
    names = ", ".join(a.var.name + "".join(f"[{n}]" for n in _dimensions(a.var.type)) for a in group)
    return Contributor(
        f"operands of one step ({names}, `{one_at_a_time.var.name}` loaded an element at a time)", live(one_at_a_time)
    )


def _dimensions(ctype: ir.CType) -> list[int]:
    counts = []
    while ctype is not None and ctype.kind is ir.TypeKind.ARRAY:
        counts.append(ctype.count or 0)
        ctype = ctype.pointee
    return counts


def _words(ctype: ir.CType) -> int:
    """32-bit registers a value of this type occupies (two halves share one)."""
    return max(1, math.ceil((ctype.size or 4) / 4))


def _holds_array(record: ir.Record | None, records: Mapping[str, ir.Record], depth: int = 0) -> bool:
    if record is None or depth > MAX_RECORD_NESTING:
        return False
    for member in record.fields:
        if member.type.kind is ir.TypeKind.ARRAY:
            return True
        nested = records.get(member.type.record or "") if member.type.kind is ir.TypeKind.RECORD else None
        if _holds_array(nested, records, depth + 1):
            return True
    return False


def _array_holders(function: ir.Function, records: Mapping[str, ir.Record]) -> list[ir.VarDecl]:
    """Per-thread structs of ``function`` that hold an array: a wmma fragment keeps its
    ``num_elements`` values in ``x[]``, all in registers for the fragment's lifetime."""
    if function.body is None:
        return []
    return [
        var
        for stmt in function.body.walk()
        for var in stmt.decls
        if var.storage is ir.StorageClass.LOCAL
        and var.type.kind is ir.TypeKind.RECORD
        and _holds_array(records.get(var.type.record or ""), records)
    ]


def _carried_values(function: ir.Function, rolled: list[ir.Stmt], counted: set[str]) -> list[tuple[str, int]]:
    """Scalars declared outside a rolled loop of ``function`` and used inside it, with their
    size in registers; pointer parameters count too (their address is formed in registers),
    other parameters are read from the constant bank. Compile-time constants take no
    register; variables in ``counted`` are already in the estimate."""
    if function.body is None:
        return []
    declared: dict[str, ir.VarDecl] = {p.decl: p for p in function.params}
    for stmt in function.body.walk():
        for var in stmt.decls:
            declared[var.decl] = var
    carried: dict[str, tuple[str, int]] = {}
    for loop in rolled:
        body = [s for child in loop.body for s in child.walk()]
        local = {var.decl for s in body for var in s.decls}
        expressions = [e for e in (loop.cond, loop.step) if e is not None] + [e for s in body for e in s.expressions()]
        for node in (n for expr in expressions for n in expr.walk()):
            var = declared.get(node.decl or "") if node.kind is ir.ExprKind.DECL_REF and node.value is None else None
            if (
                var is None
                or var.decl in local
                or var.decl in carried
                or var.decl in counted
                or var.type.kind is ir.TypeKind.ARRAY
            ):
                continue
            if var.storage is ir.StorageClass.PARAMETER and var.type.kind is not ir.TypeKind.POINTER:
                continue
            carried[var.decl] = (var.name, _words(var.type))
    return list(carried.values())
