"""Symbolic execution of one kernel: every memory access with its per-thread address,
every branch with its condition, every barrier.

The kernel body is run over symbolic values (``symbolic.Sym``). Branches run both ways
and merge their variables with a ``select`` on the condition, so values stay exact per
lane. ``__device__`` helpers are inlined with their arguments, to a bounded depth; a
reference or pointer parameter bound to a variable of the caller reads and writes that
variable, and a helper with several returns yields a ``select`` of them.

Memory. Variables in shared, global or constant memory (``__shared__ int s_done``, a
``__constant__`` struct, a kernel's struct parameter) live in memory, not in registers.
A thread sees what it stored at an address until the next barrier. Otherwise a load from
an address that is the same in every thread of the block yields a value that is the same
in every thread (after a barrier, everything stored before it is visible to all: the
block's flags, counts and work items); an address the same across a warp yields a
warp-uniform value, a per-lane address data. A per-thread (local) array holds
per-thread values at any address. Pointers loaded from memory keep the allocation they
were stored from, when one is known, and the uniformity of the load.

Loops. A variable the loop updates the same way on every trip (``i += s``, ``s *= 2``,
``s >>= 1``, ``s = s / 2``, in the header or as a statement of the body) is bound to a
function of the trip number (an ``ITERATION`` atom); when the trip count is a constant its
value after the loop is known too. The other variables the loop assigns are found by one
summary run of the body over placeholders; the body then runs once more, recorded.
Inside a summary run, nested loops take a single run, so the cost is the size times the
nesting depth, never 2^depth.

Budget. Each entry point may take a number of steps (statements and expressions
evaluated) proportional to its size, helpers it inlines included, up to a fixed ceiling.
Past it the run stops; ``KernelTrace.cut`` says where, and what was recorded before
stands.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cudalint import ir
from cudalint.dataflow import ptx
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import (
    ASSUMED_SHAPE,
    SAMPLE_ROUNDS,
    BlockShape,
    evaluators,
    refine_variance,
    uniform_value,
)

MAX_INLINE_DEPTH = 4
# Steps (statements and expressions evaluated) allowed per node of the code an entry
# point runs: each node runs once per enclosing loop plus once, and loops rarely nest
# deeper than a handful of levels.
STEPS_PER_NODE = 48
MIN_BUDGET = 20_000
MAX_BUDGET = 200_000
"""Ceiling on any entry point's steps: 10 to 20 seconds of this interpreter on large
kernels (50 to 100 microseconds a step, lane evaluations included)."""
# Trips tried to find a loop's constant trip count (a counter that halves from 2^31 needs 32).
MAX_STATIC_TRIPS = 64
_FULL_MASK = 0xFFFFFFFF

_BARRIERS = frozenset(("__syncthreads", "__barrier_sync"))
_COUNTING_BARRIERS = frozenset(("__syncthreads_count", "__syncthreads_and", "__syncthreads_or"))
# Inline PTX block barriers: `bar.sync`, `barrier.sync` (with or without `.aligned`).
_ASM_BARRIER = re.compile(r"\b(?:bar|barrier)(?:\.cta)?\.sync\b")
_VOID = ir.CType(ir.TypeKind.VOID, "void")
_LOADS = frozenset(("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"))
_STORES = frozenset(("__stcg", "__stcs", "__stwb", "__stwt"))
_ATOMIC = "atomic"
"""The prefix of CUDA's atomic functions (``atomicAdd``, ``atomicCAS_block``...)."""
_NAMED_CONSTANTS = frozenset((ir.ExprKind.DECL_REF, ir.ExprKind.MEMBER, ir.ExprKind.CALL))
_MIN_MAX = {
    "min": "min",
    "max": "max",
    "umin": "min",
    "umax": "max",
    "llmin": "min",
    "llmax": "max",
    "ullmin": "min",
    "ullmax": "max",
    "std::min": "min",
    "std::max": "max",
}
_BIT_FUNCTIONS = {
    "__popc": "popc",
    "__popcll": "popc",
    "__ffs": "ffs",
    "__clz": "clz",
    "__brev": "brev",
    "abs": "abs",
    "labs": "abs",
    "llabs": "abs",
    "__mulhi": "mulhi",
    "__umulhi": "mulhi",
}
_BALLOTS = frozenset(("__ballot_sync", "__ballot", "__activemask", "__match_all_sync"))
_VOTES = frozenset(("__any_sync", "__all_sync", "__uni_sync", "__any", "__all"))
_WARP_REDUCTIONS = frozenset(
    (
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
    )
)
_BROADCAST_SHUFFLES = {"__shfl_sync": 2, "__shfl": 1}
"""Shuffles that read one given lane, by the index of their source-lane argument."""
_EXCHANGE_SHUFFLES = {
    "__shfl_up_sync": 1,
    "__shfl_down_sync": 1,
    "__shfl_xor_sync": 1,
    "__shfl_up": 0,
    "__shfl_down": 0,
    "__shfl_xor": 0,
}
"""Shuffles where each lane reads another lane, by the index of their value argument."""
_PER_LANE = {
    "clock": "a clock reading",
    "clock64": "a clock reading",
    "__globaltimer": "a clock reading",
    "__match_any_sync": "the mask of the lanes holding the same value",
    "curand": "a per-thread random number",
    "curand_uniform": "a per-thread random number",
    "curand_normal": "a per-thread random number",
}


class MemorySpace(enum.Enum):
    GLOBAL = "global"
    SHARED = "shared"
    LOCAL = "local"
    CONSTANT = "constant"
    PARAMETER = "param"
    """A kernel's by-value parameter (read through the constant bank; no access recorded)."""
    UNKNOWN = "generic"


class AccessKind(enum.Enum):
    LOAD = "load"
    STORE = "store"
    ATOMIC = "atomic"


class BarrierScope(enum.Enum):
    """Which threads a barrier waits for, and so which must all reach it."""

    BLOCK = "block"
    GRID = "grid"
    """Every thread of the grid (a cooperative launch's grid.sync(), a cluster's sync()): of the block too."""
    WARP = "warp"
    """Every lane of the warp (__syncwarp() with a full mask, a tile of 32 threads)."""
    PARTIAL = "partial"
    """Some lanes only (a mask, a tile narrower than a warp, the active lanes): fine in divergent code."""


@dataclass(frozen=True)
class Pointer:
    """Where a pointer points: a named allocation and a symbolic byte offset into it."""

    space: MemorySpace
    base: str
    offset: Sym
    pointee: ir.CType | None


@dataclass(frozen=True)
class Reference:
    """A C++ reference bound to memory (or a variable that lives in memory): reading it is a load."""

    location: Pointer


@dataclass(frozen=True)
class Alias:
    """A reference or pointer to a register variable (``int& q`` bound to the caller's
    ``q``, ``&x``): reading it reads the variable, writing it writes the variable."""

    decl: str
    name: str


@dataclass(frozen=True)
class Group:
    """A cooperative_groups handle: which threads it holds."""

    kind: str
    """``block``, ``grid``, ``cluster``, ``tile``, ``coalesced`` or ``thread_group`` (unknown)."""
    size: int | None = None
    """Threads of a tile, when known."""
    parent: int | None = None
    """Threads of the tile it was partitioned from (None: the block)."""


@dataclass(frozen=True)
class Triple:
    """A ``dim3`` a cooperative group returns (``group_index()``, ``thread_index()``)."""

    x: Sym
    y: Sym
    z: Sym


Value = Sym | Pointer | Reference | Alias | Group | Triple


@dataclass(frozen=True)
class MemoryKey:
    """An address a thread stored to since the last barrier."""

    space: MemorySpace
    base: str
    offset: Sym


MEMORY = "<memory>"
"""The environment's entry for what this thread stored since the last barrier: a dict
from ``MemoryKey`` to the value, replaced (never changed in place) on each store, so that
branches copy and merge it like a variable."""


@dataclass(frozen=True)
class Guard:
    """A condition the enclosing code runs under (``holds`` False: under its negation)."""

    condition: Sym
    holds: bool
    decision: ir.Stmt | None = None
    """The if or loop the condition belongs to."""
    after_exit: bool = False
    """From an earlier `if (c) return;`: threads that left are gone, not waiting elsewhere."""


@dataclass
class Access:
    expr: ir.Expr
    kind: AccessKind
    location: Pointer
    size: int | None
    """Bytes moved per thread by this access (4 for float, 16 for float4)."""
    type: ir.CType
    guards: tuple[Guard, ...]
    loops: tuple[ir.Stmt, ...]
    stmt: ir.Stmt | None = None
    """The statement of the analyzed function it belongs to (the call, for inlined helpers)."""
    inlined_from: tuple[str, ...] = ()
    """Call sites (function names) through which a helper's access was reached."""
    repeats: Access | None = None
    """For a load: an earlier load or store of the same address, in the same loops and
    under the same conditions or fewer, with nothing else stored to that allocation and no
    barrier since. The compiler reuses the value: this load issues no instruction of its own."""
    instruction: ptx.PtxMemory | None = None
    """The inline-PTX instruction (or the intrinsic issuing one) that makes the access:
    ``ldmatrix.x4``, ``cp.async.cg``; None for an access the C++ code makes."""
    copy_source: Pointer | None = None
    """For the shared side of a cp.async: the global address the lane copies from."""

    @property
    def span(self) -> ir.Span:
        return self.expr.span

    @property
    def space(self) -> MemorySpace:
        return self.location.space


@dataclass
class Branch:
    stmt: ir.Stmt
    condition: Sym
    guards: tuple[Guard, ...]
    loops: tuple[ir.Stmt, ...]
    inlined_from: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return self.stmt.kind.value


@dataclass
class Barrier:
    expr: ir.Expr
    name: str
    guards: tuple[Guard, ...]
    loops: tuple[ir.Stmt, ...]
    stmt: ir.Stmt | None = None
    inlined_from: tuple[str, ...] = ()
    scope: BarrierScope = BarrierScope.BLOCK


@dataclass(frozen=True)
class LoopRun:
    """A loop as the interpreter ran it: its trip counter and the condition in terms of it."""

    stmt: ir.Stmt
    iteration: Atom
    condition: Sym
    trips: int | None = None
    """The trip count when it is a constant (the condition involves nothing else)."""
    geometric: bool = False
    """A variable of the loop doubles or halves (or is otherwise multiplied) on each trip:
    every trip has its own stride, so each must be looked at."""
    lane_starts: frozenset[Atom] = frozenset()
    """Data loaded per lane that a counter of the loop starts from (a CSR row's first
    entry): each lane walks its own range."""


@dataclass(frozen=True)
class Cut:
    """Where the analysis of an entry point stopped because it ran out of steps."""

    line: int
    """The statement of the entry point being run (a call, for code inlined from a helper)."""
    budget: int


@dataclass
class KernelTrace:
    function: ir.Function
    accesses: list[Access] = field(default_factory=list)
    branches: list[Branch] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    loops: dict[Atom, LoopRun] = field(default_factory=dict)
    """By trip-counter atom: the loops of the kernel and of the helpers it inlines."""
    local_arrays: dict[str, ir.VarDecl] = field(default_factory=dict)
    """Per-thread arrays by the base name their accesses carry."""
    calls: set[str] = field(default_factory=set)
    """Names of the functions called, helpers' calls included."""
    template_constants: set[str] = field(default_factory=set)
    """Names of a template pattern's compile-time constants its values use (parameter atoms
    named so): its non-type parameters and the names that depend on them."""
    origins: dict[int, Origin] = field(default_factory=dict)
    """Why an unknown value varies as it does, by the key of its atom."""
    derived: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """The unknowns an unknown computed from them (``sqrtf(x[i])``) was made of, by key."""
    steps: int = 0
    """Statements and expressions evaluated."""
    budget: int = 0
    """The most steps this entry point was allowed."""
    cut: Cut | None = None

    def why(self, value: Sym, variance: Variance | None = None, limit: int = 4) -> list[str]:
        """The origins of the unknowns ``value`` is made of (following what was computed
        from them), as ``name: reason`` lines; with ``variance``, only those that vary so."""
        reasons: dict[str, None] = {}
        pending = [atom.key for atom in value.atoms() if atom.key]
        seen: set[int] = set()
        while pending and len(reasons) < limit:
            key = pending.pop(0)
            if key in seen:
                continue
            seen.add(key)
            pending.extend(self.derived.get(key, ()))
            origin = self.origins.get(key)
            if origin is not None and (variance is None or origin.variance is variance):
                reasons.setdefault(f"{origin.name}: {origin.reason}", None)
        return list(reasons)

    def fed_by_loads(self, value: Sym) -> bool:
        """Whether data a thread loaded, at an address that differs between lanes, flows into
        ``value`` (following what was computed from it), rather than only thread coordinates
        combined in ways the analysis does not follow."""
        pending = [atom.key for atom in value.atoms() if atom.key]
        seen: set[int] = set()
        while pending:
            key = pending.pop()
            if key in seen:
                continue
            seen.add(key)
            origin = self.origins.get(key)
            if origin is not None and origin.loaded and origin.variance is Variance.DATA:
                return True
            pending.extend(self.derived.get(key, ()))
        return False


@dataclass(frozen=True)
class Origin:
    """Where an unknown value comes from and why it varies as it does."""

    name: str
    variance: Variance
    reason: str
    """("read from shared `s_done` after the barrier at line 12: the same in every thread of the block")"""
    loaded: bool = False
    """Read from memory (global, shared, constant, or a per-thread array holding such data), or
    returned by an atomic: data, not a function of the thread's coordinates."""


class _OutOfBudget(Exception):
    pass


def _join_variance(*values: Value) -> Variance:
    worst = Variance.UNIFORM
    for value in values:
        if isinstance(value, Sym):
            worst = max(worst, value.variance)
        elif isinstance(value, Pointer):
            worst = max(worst, value.offset.variance)
        elif isinstance(value, Triple):
            worst = max(worst, value.x.variance, value.y.variance, value.z.variance)
    return worst


def _atoms(value: Value):
    if isinstance(value, Sym):
        yield from value.atoms()
    elif isinstance(value, Pointer):
        yield from value.offset.atoms()
    elif isinstance(value, Triple):
        for part in (value.x, value.y, value.z):
            yield from part.atoms()


def _opaque(name: str, *inputs: Value) -> Sym:
    """A value computed from ``inputs`` in a way we do not model (floating point, calls)."""
    variance = _join_variance(*inputs)
    if variance is Variance.THREAD:
        variance = Variance.DATA
    return sym.unknown(name, variance)


@dataclass(frozen=True)
class Induction:
    """A variable updated the same way on every trip: its value at the start of trip k."""

    start: Sym
    step: Sym
    operator: str
    """``+`` (``x += step``), ``<<``/``>>`` (shift by ``step``), ``*``/``/`` (by a constant)."""

    def at(self, trip: Sym) -> Sym:
        if self.operator == "+":
            return self.start + self.step * trip
        if self.operator in ("<<", ">>"):
            return sym.operation(self.operator, self.start, self.step * trip)
        return sym.operation("geometric" if self.operator == "*" else "geometric-division", self.start, self.step, trip)


class Interpreter:
    def __init__(self, tu: ir.TranslationUnit, function: ir.Function, shape: BlockShape = ASSUMED_SHAPE):
        self.tu = tu
        self.function = function
        self.shape = shape
        """The block shape: it decides whether a load's address is the same across a warp."""
        self.trace = KernelTrace(function)
        self.functions = _UnitIndex.of(tu).functions
        self.globals = {g.decl: g for g in tu.globals}
        self.env: dict[str, Value] = {}
        self.guards: list[Guard] = []
        self.loops: list[ir.Stmt] = []
        self.call_stack: list[str] = []
        """Declarations of the helpers being inlined (to stop recursion); names in ``call_names``."""
        self.call_names: list[str] = []
        self.statement: ir.Stmt | None = None
        """The analyzed function's statement being run (inlined helpers keep their call's)."""
        self.recording = True
        """False during a loop's summary run: nothing is recorded, nested loops run once."""
        self._iteration_keys = itertools.count(1)
        self._returns: list[list[tuple[Value, tuple[Guard, ...]]]] = []
        self._return_depths: list[int] = []
        self.last_barrier: int | None = None
        self._accesses_before_barrier = 0
        """Accesses recorded before the last barrier: a load after it reads memory again."""
        """Line of the barrier most recently passed, for the reasons given with loaded values."""
        self.local_variance: dict[str, Variance] = {}
        """How much the values stored into each per-thread array vary between threads."""
        self.parameter_reads: dict[tuple[str, Sym], Sym] = {}
        """The value of each field of a kernel parameter read so far, by parameter and offset."""
        self.parameters_written: set[str] = set()
        """Kernel parameters the code assigns to (a copy it changes): their reads are not cached."""
        self.shared_reads: dict[Atom, Sym] = {}
        """Values read from shared memory after a barrier at lane-varying addresses, with
        their address: what the block stored there, so a value of its address alone."""
        self.pointer_targets: dict[tuple[MemorySpace, str], set[tuple[MemorySpace, str]]] = {}
        """The allocations whose addresses were stored into each allocation."""
        self.shared_windows: dict[Atom, str] = {}
        """The shared-window address of each shared allocation made into an integer
        (``__cvta_generic_to_shared(&tile[0][0])``): its atom, and the allocation."""
        self._argument_spaces = (
            {} if function.kind is ir.FunctionKind.KERNEL else _argument_spaces(tu, function, self.globals)
        )
        """A device function analyzed on its own: the memory its pointer parameters point into
        where every call of it passes an address into the same shared array's space."""
        self.trace.budget = _budget(function, self.functions)

    # ------------------------------------------------------------------ entry

    def run(self) -> KernelTrace:
        for param in self.function.params:
            self.env[param.decl] = self._parameter_value(param)
        try:
            if self.function.body is not None:
                self._block(self.function.body)
        except _OutOfBudget:
            where = self.statement.span.line if self.statement is not None else self.function.span.line
            self.trace.cut = Cut(where, self.trace.budget)
        return self.trace

    def _step(self) -> None:
        self.trace.steps += 1
        if self.trace.steps > self.trace.budget:
            raise _OutOfBudget

    def _parameter_value(self, param: ir.VarDecl) -> Value:
        kind = param.type.kind
        if kind is ir.TypeKind.POINTER:
            space = self._argument_spaces.get(param.decl, MemorySpace.GLOBAL)
            return Pointer(space, param.name, sym.ZERO, param.type.pointee)
        if kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM):
            return sym.parameter(param.name)
        if kind is ir.TypeKind.RECORD:
            # Passed by value to the kernel: the same bytes in every thread.
            return Reference(Pointer(MemorySpace.PARAMETER, param.name, sym.ZERO, param.type))
        return self._fresh(param.name, Variance.UNIFORM)

    def _fresh(
        self, name: str, variance: Variance, why: str | None = None, loaded: bool = False, inputs: tuple = ()
    ) -> Sym:
        """A value we cannot compute, with how it varies and, when known, why; ``loaded`` when
        it was read from memory, ``inputs`` the values it was computed from."""
        value = sym.unknown(name, variance)
        key = value.terms[0][0][0].key
        if why is not None:
            self.trace.origins[key] = Origin(name, variance, why, loaded)
        elif loaded:
            self.trace.origins[key] = Origin(name, variance, "loaded from memory", loaded)
        keys = tuple(atom.key for item in inputs for atom in _atoms(item) if atom.key)
        if keys:
            self.trace.derived[key] = keys
        return value

    def _computed(self, name: str, *inputs: Value) -> Sym:
        """A value computed from ``inputs`` in a way we do not model (floating point, calls),
        that remembers what it was computed from."""
        value = _opaque(name, *inputs)
        keys = tuple(atom.key for item in inputs for atom in _atoms(item) if atom.key)
        if keys:
            self.trace.derived[value.terms[0][0][0].key] = keys
        return value

    def _derived_from(self, value: Value, *inputs: Value | None) -> None:
        """Record that ``value``, when it is one fresh unknown, was computed from ``inputs``."""
        if not isinstance(value, Sym) or len(value.terms) != 1 or len(value.terms[0][0]) != 1:
            return
        key = value.terms[0][0][0].key
        keys = tuple(atom.key for item in inputs if item is not None for atom in _atoms(item) if atom.key != key)
        if key and keys and key not in self.trace.derived and key not in self.trace.origins:
            self.trace.derived[key] = tuple(k for k in keys if k)

    # ------------------------------------------------------------------ statements

    def _block(self, stmt: ir.Stmt) -> None:
        if stmt.kind is not ir.StmtKind.COMPOUND:
            self._stmt(stmt)
            return
        pushed = 0
        for child in stmt.body:
            condition = self._stmt(child)
            if condition is not None and exits_early(child):
                # Code after `if (c) return;` runs only where c is false.
                self.guards.append(Guard(condition, False, child, after_exit=True))
                pushed += 1
        del self.guards[len(self.guards) - pushed :]

    def _stmt(self, stmt: ir.Stmt) -> Sym | None:
        """Runs one statement; returns an ``if``'s condition, for early-exit tracking."""
        self._step()
        if not self.call_stack:
            self.statement = stmt
        kind = stmt.kind
        if kind is ir.StmtKind.COMPOUND:
            self._block(stmt)
        elif kind is ir.StmtKind.EXPR:
            self._expr(stmt.expr)
            self._assertion(stmt.expr)
        elif kind is ir.StmtKind.DECL:
            for var in stmt.decls:
                self._declare(var)
        elif kind is ir.StmtKind.IF:
            return self._if(stmt)
        elif kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
            self._loop(stmt)
        elif kind is ir.StmtKind.SWITCH:
            self._switch(stmt)
        elif kind is ir.StmtKind.ASM:
            self._inline_assembly(stmt)
        elif kind is ir.StmtKind.RETURN:
            value = self._expr(stmt.expr) if stmt.expr is not None else None
            if self._returns and value is not None:
                self._returns[-1].append((value, tuple(self.guards[self._return_depths[-1] :])))
        elif kind in (ir.StmtKind.CASE, ir.StmtKind.DEFAULT, ir.StmtKind.LABEL, ir.StmtKind.UNKNOWN):
            if stmt.expr is not None:
                self._expr(stmt.expr)
            for child in stmt.body:
                self._stmt(child)
        return None

    def _declare(self, var: ir.VarDecl) -> None:
        space = _STORAGE_SPACES.get(var.storage)
        if var.type.kind is ir.TypeKind.ARRAY:
            space = space or MemorySpace.LOCAL
            if space is MemorySpace.LOCAL and self.recording:
                self.trace.local_arrays.setdefault(var.name, var)
            self.env[var.decl] = Pointer(space, var.name, sym.ZERO, var.type.pointee)
            if var.init is not None:
                self._expr(var.init)
            return
        if space is not None:
            # `__shared__ int s_done;`: one copy per block, read and written as memory.
            self.env[var.decl] = Reference(Pointer(space, var.name, sym.ZERO, var.type))
            return
        if var.type.kind is ir.TypeKind.REFERENCE and var.init is not None:
            target = self._location(var.init) or self._alias_of(var.init)
            if isinstance(target, Pointer):
                self.env[var.decl] = Reference(target)
                return
            if isinstance(target, Alias):
                self.env[var.decl] = target
                return
        if self._declare_fields(var):
            return
        if var.init is None:
            self.env[var.decl] = (
                self._fresh(var.name, Variance.UNIFORM)
                if var.type.kind is not ir.TypeKind.POINTER
                else Pointer(MemorySpace.UNKNOWN, var.name, sym.ZERO, var.type.pointee)
            )
            return
        self.env[var.decl] = self._convert(self._expr(var.init), var.type)

    def _declare_fields(self, var: ir.VarDecl) -> bool:
        """A struct initialized field by field (``const divisor d = {mul, shift, n};``): the
        thread's own copy, each field holding its value, also where a helper takes it by
        reference."""
        record = self.tu.records.get(var.type.record or "") if var.type.kind is ir.TypeKind.RECORD else None
        init = var.init
        if record is None or init is None or init.kind is not ir.ExprKind.INIT_LIST:
            return False
        fields = record.fields[: len(init.children)]
        if len(init.children) > len(record.fields) or any(
            f.offset is None or f.type.kind not in (ir.TypeKind.INTEGER, ir.TypeKind.POINTER) for f in fields
        ):
            return False
        self.env[var.decl] = Reference(Pointer(MemorySpace.LOCAL, var.name, sym.ZERO, var.type))
        stored = {}
        for member, element in zip(fields, init.children, strict=True):
            value = self._convert(self._expr(element), member.type)
            self._remember(Pointer(MemorySpace.LOCAL, var.name, Sym.const(member.offset), member.type), value)
            stored.update(self.env[MEMORY])  # A store forgets the allocation's other offsets: not these.
        self.env[MEMORY] = stored
        return True

    def _branch(self, stmt: ir.Stmt, condition: Sym) -> None:
        if self.recording:
            self.trace.branches.append(
                Branch(stmt, condition, tuple(self.guards), tuple(self.loops), tuple(self.call_names))
            )

    def _if(self, stmt: ir.Stmt) -> Sym:
        if stmt.init is not None:
            self._stmt(stmt.init)
        condition = (
            self._int(self._expr(stmt.cond)) if stmt.cond is not None else self._fresh("condition", Variance.UNIFORM)
        )
        self._branch(stmt, condition)
        before = dict(self.env)
        self.guards.append(Guard(condition, True, stmt))
        for child in stmt.body:
            self._stmt(child)
        self.guards.pop()
        after_then = self.env
        self.env = dict(before)
        if stmt.orelse is not None:
            self.guards.append(Guard(condition, False, stmt))
            self._stmt(stmt.orelse)
            self.guards.pop()
        if exits_early(stmt):
            return condition  # Nothing assigned on the returning path reaches later code.
        self.env = self._merge(condition, after_then, self.env)
        if stmt.orelse is None and stmt.cond is not None and stmt.body and _aborts(_last_statement(stmt.body[0])):
            # `if (!(x == 1)) abort();`, an assertion macro: what follows runs only where it holds.
            self._assume(stmt.cond, False)
        return condition

    def _assertion(self, expr: ir.Expr | None) -> None:
        """``assert(c)`` as the C library spells it, ``c ? (void)0 : __assert_fail(...)``:
        the code after it runs only where c holds."""
        expr = _uncast(expr) if expr is not None else None
        if expr is None or expr.kind is not ir.ExprKind.CONDITIONAL:
            return
        condition, then, otherwise = expr.children
        if _aborts(otherwise):
            self._assume(condition, True)
        elif _aborts(then):
            self._assume(condition, False)

    def _assume(self, condition: ir.Expr, holds: bool) -> None:
        """Take ``condition == holds`` as a fact for the code that follows: a variable an
        assertion equates with a constant (``assert(stride == 1)``) is that constant."""
        condition = _uncast(condition)
        if condition.kind is ir.ExprKind.CALL and condition.name == "__builtin_expect" and condition.children:
            self._assume(condition.children[0], holds)
        elif condition.kind is ir.ExprKind.UNARY and condition.op == "!":
            self._assume(condition.children[0], not holds)
        elif condition.kind is ir.ExprKind.BINARY and (condition.op, holds) in (("&&", True), ("||", False)):
            for side in condition.children:
                self._assume(side, holds)
        elif condition.kind is ir.ExprKind.BINARY and (condition.op, holds) in (("==", True), ("!=", False)):
            for variable, other in (condition.children, reversed(condition.children)):
                variable = _uncast(variable)
                value = self._constant_operand(other)
                if variable.kind is ir.ExprKind.DECL_REF and variable.decl and value is not None:
                    if isinstance(self.env.get(variable.decl, sym.ZERO), Sym):
                        self.env[variable.decl] = Sym.const(value)
                    return

    def _constant_operand(self, expr: ir.Expr) -> int | None:
        """The value of a literal, named constant or variable holding a constant; no code runs."""
        expr = _uncast(expr)
        if isinstance(expr.value, int) and not isinstance(expr.value, bool):
            return expr.value
        if expr.kind is ir.ExprKind.DECL_REF and expr.decl:
            value = self.env.get(expr.decl)
            return value.constant if isinstance(value, Sym) else None
        return None

    def _merge(self, condition: Sym, taken: dict, not_taken: dict) -> dict:
        """Variables after a branch: a ``select`` on the condition where the paths disagree.
        An address stored on one path only holds, for the threads of the other, what a load
        would have found there before."""
        merged = dict(not_taken)
        for decl, value in taken.items():
            other = not_taken.get(decl)
            if other is not value:  # Most variables are untouched by either path.
                merged[decl] = value if other is None else _select(condition, value, other)
        memories = (taken.get(MEMORY, {}), not_taken.get(MEMORY, {}))
        keys = {*memories[0], *memories[1]}
        merged[MEMORY] = {
            key: _select(condition, *(memory[key] if key in memory else self._unstored(key) for memory in memories))
            for key in keys
        }
        return merged

    def _unstored(self, key: MemoryKey) -> Value:
        location = Pointer(key.space, key.base, key.offset, None)
        variance, why = self._load_variance(location)
        return self._fresh(key.base, variance, why, loaded=self._holds_data(location))

    def _switch(self, stmt: ir.Stmt) -> None:
        condition = (
            self._int(self._expr(stmt.cond)) if stmt.cond is not None else self._fresh("switch", Variance.UNIFORM)
        )
        self._branch(stmt, condition)
        before = dict(self.env)
        for child in stmt.body:
            self._stmt(child)
        # Which case ran depends on the value: variables assigned in any case take it in.
        self.env = self._merge(condition, self.env, before)

    # ------------------------------------------------------------------ loops

    def _loop(self, stmt: ir.Stmt) -> None:
        if stmt.init is not None:
            self._stmt(stmt.init)
        assigned = _assigned_variables(stmt)
        key = next(self._iteration_keys)
        iteration = sym.iteration(f"L{stmt.span.line}", key)
        counter = iteration.terms[0][0][0]
        _forget_memory(self.env)  # What the body stores, a later trip may read.
        entry = dict(self.env)
        inductions = self._inductions(stmt, assigned)
        bound = {decl: induction.at(iteration) for decl, induction in inductions.items()}
        # A carried variable's value at the start of a trip: unknown, varying at least as its start.
        placeholders = {
            decl: self._fresh(assigned[decl], entry[decl].variance)
            for decl in assigned
            if decl in entry and decl not in inductions and isinstance(entry[decl], Sym)
        }
        if self.recording:
            # Summary run, not recorded: what does one trip do to the variables it assigns?
            self.recording = False
            self.env.update(placeholders)
            self.env.update(bound)
            self._trip(stmt, recorded=False)
            after_one_trip = self.env
            self.recording = True
            self.env = dict(entry)
            self.env.update(bound)
            for decl, placeholder in placeholders.items():
                self.env[decl] = _closed_form(
                    entry[decl], placeholder, after_one_trip.get(decl), iteration, assigned[decl]
                )
                self._derived_from(self.env[decl], entry[decl], after_one_trip.get(decl))
        else:
            # Inside a summary run: one run of the body over placeholders is enough.
            self.env.update(placeholders)
            self.env.update(bound)
        condition = self._trip(stmt, recorded=self.recording)
        geometric = any(induction.operator != "+" for induction in inductions.values())
        # Inside a summary run the values after the loop need not be exact.
        trips = static_trips(stmt, condition, counter, geometric, self.shape) if self.recording else None
        if self.recording:
            self.trace.loops[counter] = LoopRun(
                stmt,
                counter,
                condition,
                trips,
                geometric,
                lane_starts=frozenset(
                    atom
                    for induction in inductions.values()
                    if induction.operator == "+" and induction.start.variance is Variance.DATA
                    for atom in induction.start.atoms()
                    if atom.kind is AtomKind.VARYING
                ),
            )
        self._leave_loop(entry, assigned, inductions, condition, None if _leaves_early(stmt) else trips)
        for decl in self._butterfly_reduced(stmt, inductions, trips):
            if isinstance(entry.get(decl), Sym):
                self.env[decl] = self._warp_reduced(entry[decl], assigned[decl], "a butterfly of xor shuffles")

    def _butterfly_reduced(self, stmt: ir.Stmt, inductions: dict[str, Induction], trips: int | None) -> list[str]:
        """The variables a loop reduces over a full warp: every statement of its body combines
        a variable with its own value from the lane ``offset`` away (``v += __shfl_xor_sync(
        0xffffffff, v, offset)``), ``offset`` going through 16, 8, 4, 2, 1 in either order.
        After it every lane holds the reduction of all 32 lanes' values."""
        offsets = [
            decl
            for decl, induction in inductions.items()
            if trips == 5 and {induction.at(Sym.const(t)).constant for t in range(trips)} == {1, 2, 4, 8, 16}
        ]
        statements = _flattened(stmt.body)
        if len(offsets) != 1 or not statements:
            return []
        reduced = []
        for child in statements:
            update = child.expr if child.kind is ir.StmtKind.EXPR and child.expr is not None else None
            if update is None or update.kind is not ir.ExprKind.ASSIGN:
                return []
            target = _uncast(update.children[0])
            if target.kind is not ir.ExprKind.DECL_REF or not self._xor_shuffle_of(update, target, offsets[0]):
                return []
            reduced.append(target.decl)
        return reduced

    def _xor_shuffle_of(self, update: ir.Expr, target: ir.Expr, offset: str) -> bool:
        """``target op= shfl_xor(full mask, target, offset)``, or ``target = f(target, shfl_xor(...))``."""
        source = update.children[1]
        shuffles = [
            n for n in source.walk() if n.kind is ir.ExprKind.CALL and n.name in ("__shfl_xor_sync", "__shfl_xor")
        ]
        if len(shuffles) != 1:
            return False
        arguments = list(shuffles[0].children)
        if shuffles[0].name == "__shfl_xor_sync":
            if not arguments or self._constant_operand(arguments.pop(0)) != _FULL_MASK:
                return False
        if len(arguments) < 2 or (len(arguments) > 2 and (self._constant_operand(arguments[2]) or 0) < 32):
            return False
        value, lane = (_uncast(a) for a in arguments[:2])
        if value.decl != target.decl or lane.decl != offset:
            return False
        inside = {id(n) for n in shuffles[0].walk()}
        combined = update.op != "=" or any(
            n.kind is ir.ExprKind.DECL_REF and n.decl == target.decl and id(n) not in inside for n in source.walk()
        )
        return combined

    def _trip(self, stmt: ir.Stmt, recorded: bool) -> Sym:
        """One trip of the loop: its condition, then its body under it (a ``do`` loop: its
        body, then its condition, evaluated once). Returns the condition."""
        self.loops.append(stmt)  # The condition's accesses repeat with the loop too.
        if stmt.kind is ir.StmtKind.DO:
            for child in stmt.body:
                self._stmt(child)
            condition = self._int(self._expr(stmt.cond)) if stmt.cond is not None else Sym.const(1)
            if recorded:
                self._branch(stmt, condition)
            self.loops.pop()
            return condition
        condition = self._int(self._expr(stmt.cond)) if stmt.cond is not None else Sym.const(1)
        if recorded:
            self._branch(stmt, condition)
        self.guards.append(Guard(condition, True, stmt))
        for child in stmt.body:
            self._stmt(child)
        if stmt.step is not None:
            self._expr(stmt.step)
        self.guards.pop()
        self.loops.pop()
        return condition

    def _leave_loop(
        self, entry: dict, assigned: dict[str, str], inductions: dict[str, Induction], condition: Sym, trips: int | None
    ) -> None:
        """After the loop, what it assigned depends on how many trips ran: exact when the trip
        count is a constant and the variable an induction, else an unknown that varies as
        the values and the trip count do."""
        _forget_memory(self.env)
        exit_variance = _join_variance(condition)
        for decl, name in assigned.items():
            if decl not in entry:
                continue
            if trips is not None and decl in inductions:
                self.env[decl] = inductions[decl].at(Sym.const(trips))
                continue
            value = self.env.get(decl, entry[decl])
            shifted = _shifted(entry[decl], value, name) if exit_variance <= Variance.WARP_UNIFORM else None
            if shifted is not None:
                self.env[decl] = shifted  # Stepped by uniform amounts for a uniform number of trips.
                continue
            # Zero trips leave the value it came in with.
            variance = max(exit_variance, _join_variance(value), _join_variance(entry[decl]))
            if isinstance(value, Pointer) and variance is Variance.UNIFORM:
                continue
            if isinstance(value, Sym):
                why = (
                    "assigned in a loop whose trip count differs between threads"
                    if exit_variance > Variance.UNIFORM
                    else None
                )
                self.env[decl] = self._fresh(
                    name,
                    Variance.DATA if variance is Variance.THREAD else variance,
                    why,
                    inputs=(value, entry[decl], condition),
                )
            elif isinstance(value, Pointer):
                self.env[decl] = Pointer(
                    value.space,
                    value.base,
                    self._fresh(
                        f"{name} offset",
                        Variance.DATA if variance >= Variance.THREAD else variance,
                        inputs=(value, entry[decl], condition),
                    ),
                    value.pointee,
                )

    def _inductions(self, stmt: ir.Stmt, assigned: dict[str, str]) -> dict[str, Induction]:
        """Variables the loop updates once per trip, the same way each time: by the header's
        step, or by a statement of the body that every trip runs (no ``continue`` skips it)."""
        updates = [stmt.step] if stmt.kind is ir.StmtKind.FOR and stmt.step is not None else []
        body = _top_level_statements(stmt)
        if not _continues(stmt):
            updates += [child.expr for child in body if child.kind is ir.StmtKind.EXPR and child.expr is not None]
        writes = _write_counts(stmt)
        found: dict[str, Induction] = {}
        for update in updates:
            parsed = _update(update)
            if parsed is None:
                continue
            decl, operator, amount = parsed
            start = self.env.get(decl)
            if writes.get(decl) != 1 or not isinstance(start, Sym) or not _invariant(amount, assigned):
                continue
            induction = self._induction(start, operator, amount)
            if induction is not None:
                found[decl] = induction
        return found

    def _induction(self, start: Sym, operator: str, amount: ir.Expr | None) -> Induction | None:
        step = Sym.const(1) if amount is None else self._int(self._expr(amount))
        if operator in ("+", "-"):
            return Induction(start, step if operator == "+" else -step, "+")
        factor = step.constant
        if factor is None or factor < 0:
            return None
        if operator in ("<<", ">>"):
            return Induction(start, step, operator)
        if factor < 2:
            return None
        if factor & (factor - 1) == 0:
            return Induction(start, Sym.const(factor.bit_length() - 1), "<<" if operator == "*" else ">>")
        return Induction(start, step, operator)

    # ------------------------------------------------------------------ expressions

    def _int(self, value: Value) -> Sym:
        if isinstance(value, Sym):
            return value
        if isinstance(value, Reference):
            return self._int(self._load(value.location, None))
        if isinstance(value, Alias):
            return self._int(self._read_alias(value))
        return self._computed("pointer" if isinstance(value, Pointer) else "group", value)

    def _convert(self, value: Value, target: ir.CType) -> Value:
        if target.kind is ir.TypeKind.POINTER and isinstance(value, Pointer):
            return Pointer(value.space, value.base, value.offset, target.pointee)
        if isinstance(value, Reference):
            return self._load(value.location, None)
        if target.kind in (ir.TypeKind.FLOAT, ir.TypeKind.DOUBLE, ir.TypeKind.HALF) and isinstance(value, Sym):
            return value if value.constant is not None else self._computed("float(...)", value)
        return value

    def _expr(self, expr: ir.Expr) -> Value:
        self._step()
        if expr.kind in _NAMED_CONSTANTS and isinstance(expr.value, int):
            # A compile-time constant (`frag.num_elements`, `Traits<T>::kTile`, a constexpr
            # call): no load happens, whatever object it is named through.
            return Sym.const(expr.value)
        handler = getattr(self, "_" + expr.kind.name.lower(), None)
        if handler is None:
            return self._generic(expr)
        return handler(expr)

    def _generic(self, expr: ir.Expr) -> Value:
        inputs = [self._expr(child) for child in expr.children]
        return self._computed(f"{_describe(expr)}", *inputs)

    def _int_literal(self, expr: ir.Expr) -> Value:
        return (
            Sym.const(expr.value)
            if isinstance(expr.value, int)
            else self._fresh(expr.text or "literal", Variance.UNIFORM)
        )

    def _bool_literal(self, expr: ir.Expr) -> Value:
        return Sym.const(1 if expr.value else 0)

    def _float_literal(self, expr: ir.Expr) -> Value:
        return self._fresh(expr.text or "constant", Variance.UNIFORM)

    _char_literal = _float_literal
    _string_literal = _float_literal
    _nullptr = _float_literal

    def _sizeof(self, expr: ir.Expr) -> Value:
        return Sym.const(expr.value) if isinstance(expr.value, int) else self._fresh("sizeof(...)", Variance.UNIFORM)

    def _builtin_index(self, expr: ir.Expr) -> Value:
        if expr.member is None:
            return sym.unknown(f"{expr.name}.?", Variance.DATA)
        return sym.builtin(expr.name, expr.member)

    def _variable(self, expr: ir.Expr) -> Value | None:
        """What a DECL_REF names: a register's value, a reference, or a variable in memory."""
        if expr.decl in self.env:
            return self.env[expr.decl]
        var = self.globals.get(expr.decl or "")
        space = _STORAGE_SPACES.get(var.storage) if var is not None else None
        if var is None or var.type.kind is ir.TypeKind.ARRAY or space is None:
            return None
        return Reference(Pointer(space, var.name, sym.ZERO, var.type))

    def _decl_ref(self, expr: ir.Expr) -> Value:
        value = self._variable(expr)
        if isinstance(value, Reference):
            return self._load_reference(value, expr)
        if isinstance(value, Alias) and expr.type.kind is not ir.TypeKind.POINTER:
            return self._read_alias(value)  # A reference: its variable's value. (A pointer: the alias.)
        if value is not None:
            return value
        if isinstance(expr.value, int):
            return Sym.const(expr.value)
        if expr.name == "warpSize":
            return Sym.const(32)
        if (
            expr.decl is None
            and expr.name
            and (
                expr.name in self.function.template_parameters
                or self.function.is_template_pattern
                and expr.type.kind is ir.TypeKind.DEPENDENT
            )
        ):
            # A template's non-type parameter, or a name that depends on them (`Traits<T>::kItems`):
            # a constant of each instantiation, symbolic here like a parameter.
            self.trace.template_constants.add(expr.name)
            return sym.parameter(expr.name)
        var = self.globals.get(expr.decl or "")
        if var is not None:
            space = _STORAGE_SPACES.get(var.storage, MemorySpace.GLOBAL)
            if var.type.kind is ir.TypeKind.ARRAY:
                return Pointer(space, var.name, sym.ZERO, var.type.pointee)
            if var.init is not None and var.init.kind is ir.ExprKind.INT_LITERAL and isinstance(var.init.value, int):
                return Sym.const(var.init.value)
        return self._fresh(expr.name or "global", Variance.UNIFORM)

    def _load_reference(self, reference: Reference, expr: ir.Expr | None) -> Value:
        location = reference.location
        if expr is not None:
            self._record(expr, AccessKind.LOAD, location, location.pointee)
        return self._load(location, expr)

    def _cast(self, expr: ir.Expr) -> Value:
        value = self._expr(expr.children[0]) if expr.children else self._fresh("cast", Variance.UNIFORM)
        if expr.type.kind is ir.TypeKind.POINTER:
            if isinstance(value, Pointer):
                return Pointer(value.space, value.base, value.offset, expr.type.pointee)
            if isinstance(value, Alias):
                return value
            if expr.children and expr.children[0].type.kind is ir.TypeKind.ARRAY:
                # An array member of a struct held in registers (`p.pos` of `Particle p = ps[i];`):
                # per-thread storage, like a local array.
                return Pointer(MemorySpace.LOCAL, _describe(expr.children[0]), sym.ZERO, expr.type.pointee)
            # An integer made into an address: where it points varies as the integer does.
            variance = _join_variance(self._int(value))
            offset = (
                sym.ZERO
                if variance is Variance.UNIFORM
                else sym.unknown("address", Variance.DATA if variance >= Variance.THREAD else variance)
            )
            return Pointer(
                MemorySpace.UNKNOWN,
                _describe(expr.children[0]) if expr.children else "address",
                offset,
                expr.type.pointee,
            )
        if isinstance(value, Reference):
            value = self._load(value.location, None)
        if isinstance(value, Alias):
            value = self._read_alias(value)
        if expr.type.kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM):
            source = expr.children[0].type.kind if expr.children else None
            if source in (ir.TypeKind.FLOAT, ir.TypeKind.DOUBLE, ir.TypeKind.HALF):
                return self._computed("int(...)", value)
            return value if isinstance(value, Sym) else self._computed("cast", value)
        return self._convert(value, expr.type)

    # ---- memory

    def _location(self, expr: ir.Expr) -> Pointer | Alias | None:
        """The memory an lvalue designates, the register variable a pointer to one designates,
        or None for other registers (locals, struct copies)."""
        kind = expr.kind
        if kind is ir.ExprKind.SUBSCRIPT and len(expr.children) == 2:
            base, index = (self._expr(c) for c in expr.children)
            if isinstance(index, (Pointer, Alias)) and isinstance(base, Sym):  # `i[p]` spelling
                base, index = index, base
            if isinstance(base, Alias):
                return base if self._int(index).constant == 0 else None
            if not isinstance(base, Pointer):
                return None
            return _advance(base, self._int(index), expr.type)
        if kind is ir.ExprKind.UNARY and expr.op == "*" and expr.children:
            pointer = self._expr(expr.children[0])
            if isinstance(pointer, Alias):
                return pointer
            return (
                Pointer(pointer.space, pointer.base, pointer.offset, expr.type)
                if isinstance(pointer, Pointer)
                else None
            )
        if kind is ir.ExprKind.MEMBER and expr.children:
            base_expr = expr.children[0]
            return self._field(expr, self._expr(base_expr) if expr.op == "->" else self._location(base_expr))
        if kind is ir.ExprKind.DECL_REF:
            value = self._variable(expr)
            if isinstance(value, Reference):
                return value.location
            if isinstance(value, Alias):
                return value
        if kind is ir.ExprKind.CAST and expr.children:
            return self._location(expr.children[0])
        return None

    def _field(self, expr: ir.Expr, base: Value | None) -> Pointer | None:
        """Where member ``expr.name`` of the struct at ``base`` is."""
        if not isinstance(base, Pointer):
            return None
        record = self.tu.records.get((base.pointee.record if base.pointee else None) or "")
        offset = next((f.offset for f in record.fields if f.name == expr.name), None) if record else None
        if offset is None:
            return Pointer(
                base.space,
                base.base,
                sym.operation("+", base.offset, self._fresh(f"offset of {expr.name}", Variance.UNIFORM)),
                expr.type,
            )
        return Pointer(base.space, base.base, base.offset + offset, expr.type)

    def _alias_of(self, expr: ir.Expr) -> Alias | None:
        """The register variable ``expr`` names, as something a reference can bind to."""
        while expr.kind is ir.ExprKind.CAST and expr.children:
            expr = expr.children[0]
        if expr.kind is not ir.ExprKind.DECL_REF or expr.decl not in self.env:
            return None
        value = self.env[expr.decl]
        if isinstance(value, Alias):
            return value
        return None if isinstance(value, Reference) else Alias(expr.decl, expr.name or "variable")

    def _read_alias(self, alias: Alias) -> Value:
        value = self.env.get(alias.decl)
        if isinstance(value, Alias):
            return self._read_alias(value)
        if isinstance(value, Reference):
            return self._load(value.location, None)
        return value if value is not None else self._fresh(alias.name, Variance.UNIFORM)

    def _write_alias(self, alias: Alias, value: Value, expr: ir.Expr) -> None:
        target = self.env.get(alias.decl)
        if isinstance(target, Alias):
            self._write_alias(target, value, expr)
        elif isinstance(target, Reference):
            self._remember(target.location, value)
        else:
            self.env[alias.decl] = value

    def _record(
        self,
        expr: ir.Expr,
        kind: AccessKind,
        location: Pointer,
        type_: ir.CType | None,
        instruction: ptx.PtxMemory | None = None,
    ) -> None:
        if (
            not self.recording
            or type_ is None
            or type_.kind is ir.TypeKind.ARRAY
            or location.space is MemorySpace.PARAMETER
        ):
            return
        guards, loops = tuple(self.guards), tuple(self.loops)
        self.trace.accesses.append(
            Access(
                expr=expr,
                kind=kind,
                location=location,
                size=type_.size,
                type=type_,
                guards=guards,
                loops=loops,
                stmt=self.statement,
                inlined_from=tuple(self.call_names),
                repeats=(
                    self._repeated_load(location, type_.size, guards, loops)
                    if kind is AccessKind.LOAD and instruction is None
                    else None
                ),
                instruction=instruction,
            )
        )

    def _repeated_load(
        self, location: Pointer, size: int | None, guards: tuple[Guard, ...], loops: tuple[ir.Stmt, ...]
    ) -> Access | None:
        """The earlier load a load of ``location`` repeats (see ``Access.repeats``)."""
        for earlier in reversed(self.trace.accesses[self._accesses_before_barrier :]):
            related = earlier.location.base == location.base or MemorySpace.UNKNOWN in (earlier.space, location.space)
            if not related:
                continue
            same_address = (earlier.space, earlier.location.offset, earlier.size) == (
                location.space,
                location.offset,
                size,
            )
            if (
                same_address
                and earlier.kind is not AccessKind.ATOMIC
                and earlier.loops == loops
                and guards[: len(earlier.guards)] == earlier.guards
            ):
                return earlier.repeats or earlier  # Loaded or stored here last: the value is in a register.
            if earlier.kind is not AccessKind.LOAD:
                return None  # Stored since (or possibly, through an unknown pointer).
        return None

    def _memory_read(self, expr: ir.Expr) -> Value:
        location = self._location(expr)
        if location is None:
            return self._generic(expr)
        return self._read_at(expr, location)

    def _read_at(self, expr: ir.Expr, location: Pointer | Alias) -> Value:
        if isinstance(location, Alias):
            return self._read_alias(location)
        if expr.type.kind is ir.TypeKind.ARRAY:
            # Indexing a row of a multi-dimensional array: an address, not a load.
            return Pointer(location.space, location.base, location.offset, expr.type.pointee)
        self._record(expr, AccessKind.LOAD, location, expr.type)
        return self._load(location, expr)

    _subscript = _memory_read

    def _load(self, location: Pointer, expr: ir.Expr | None) -> Value:
        """What a thread reads at ``location``: what it stored there since the last barrier,
        else a value that varies between threads as the address does."""
        stored = self.env.get(MEMORY, {}).get(MemoryKey(location.space, location.base, location.offset))
        if stored is not None:
            return stored
        name = _describe(expr) if expr is not None else location.base
        if location.pointee is not None and location.pointee.kind is ir.TypeKind.POINTER:
            return self._loaded_pointer(location, name)
        if location.space is MemorySpace.PARAMETER and location.base not in self.parameters_written:
            # A kernel parameter nothing writes: every read of a field is one value, also
            # through a helper's copy of the struct (`fastdiv(i, v)` reading `v.d` is `ne0.d`).
            key = (location.base, location.offset)
            if key not in self.parameter_reads:
                field_name = location.base + name[name.index(".") :] if "." in name else name
                self.parameter_reads[key] = self._fresh(field_name, *self._load_variance(location))
            return self.parameter_reads[key]
        variance, why = self._load_variance(location)
        # What is read where loaded data points is data too (`stack[--top]` after data-driven pushes).
        value = self._fresh(name, variance, why, loaded=self._holds_data(location), inputs=(location.offset,))
        if location.space is MemorySpace.SHARED and self.last_barrier is not None and variance is Variance.DATA:
            self.shared_reads[value.terms[0][0][0]] = location.offset
        return value

    def _holds_data(self, location: Pointer) -> bool:
        """Whether a load at ``location`` reads data: memory, or a per-thread array that was
        given data (not one filled with values computed from the thread's coordinates)."""
        if location.space is not MemorySpace.LOCAL:
            return True
        return self.local_variance.get(location.base, Variance.UNIFORM) is Variance.DATA

    def _load_variance(self, location: Pointer) -> tuple[Variance, str]:
        base = location.base
        if location.space is MemorySpace.LOCAL:
            # Each thread has its own array: the address does not make the value shared.
            stored = self.local_variance.get(base, Variance.UNIFORM)
            address = location.offset.variance
            variance = max(stored, Variance.DATA if address >= Variance.THREAD else address)
            return variance, f"read from the per-thread array `{base}`"
        if location.space is MemorySpace.PARAMETER:
            return Variance.UNIFORM, f"a field of the kernel parameter `{base}`: the same in every thread"
        address = refine_variance(location.offset, self.shape)
        if address is Variance.UNIFORM:
            if location.space is MemorySpace.SHARED and self.last_barrier is not None:
                return address, (
                    f"read from shared `{base}` after the barrier at line {self.last_barrier}: "
                    "the same in every thread of the block"
                )
            return address, f"read from `{base}` at an address that is the same in every thread of the block"
        if address is Variance.WARP_UNIFORM:
            return address, f"read from `{base}` at an address that is the same across each warp"
        return Variance.DATA, f"loaded from `{base}` at an address that differs between lanes"

    def _loaded_pointer(self, location: Pointer, name: str) -> Pointer:
        """A pointer read from memory: into the allocation stored there when only one ever
        was, else into an unknown one; the same in every thread when the load's address is."""
        variance, why = self._load_variance(location)
        pointee = location.pointee.pointee if location.pointee is not None else None
        targets = self.pointer_targets.get((location.space, location.base), set())
        if len(targets) == 1:
            ((space, base),) = targets
            return Pointer(space, base, self._fresh(f"{name} offset", variance, why, loaded=True), pointee)
        space = MemorySpace.GLOBAL if location.space is MemorySpace.PARAMETER else MemorySpace.UNKNOWN
        offset = sym.ZERO if variance is Variance.UNIFORM else self._fresh(f"{name} offset", variance, why, loaded=True)
        return Pointer(space, name, offset, pointee)

    def _remember(self, location: Pointer, value: Value) -> None:
        """A store: later loads of the same address by this thread see ``value``; others of
        the same allocation may alias it and see an unknown."""
        if isinstance(value, Reference):
            value = self._load(value.location, None)
        if location.space is MemorySpace.PARAMETER:
            self.parameters_written.add(location.base)
        memory = {
            key: stored
            for key, stored in self.env.get(MEMORY, {}).items()
            if location.space is not MemorySpace.UNKNOWN
            and key.space is not MemorySpace.UNKNOWN
            and (key.space, key.base) != (location.space, location.base)
        }
        if isinstance(value, (Sym, Pointer)):
            memory[MemoryKey(location.space, location.base, location.offset)] = value
        self.env[MEMORY] = memory
        if location.space is MemorySpace.LOCAL:
            self.local_variance[location.base] = max(
                self.local_variance.get(location.base, Variance.UNIFORM), _join_variance(value)
            )
        if isinstance(value, Pointer):
            self.pointer_targets.setdefault((location.space, location.base), set()).add((value.space, value.base))

    def _member(self, expr: ir.Expr) -> Value:
        if not expr.children:
            return self._fresh(_describe(expr), Variance.UNIFORM)
        base_expr = expr.children[0]
        if expr.op == "->":
            base = self._expr(base_expr)
            location = self._field(expr, base)
            return self._read_at(expr, location) if location is not None else self._computed(_describe(expr), base)
        location = self._location(expr)
        if location is not None:
            return self._read_at(expr, location)
        base = self._expr(base_expr)
        if isinstance(base, Triple) and expr.name in ("x", "y", "z"):
            return getattr(base, expr.name)
        return self._computed(_describe(expr), base)

    def _unary(self, expr: ir.Expr) -> Value:
        op = expr.op
        operand = expr.children[0] if expr.children else None
        if operand is None:
            return self._fresh("unary", Variance.UNIFORM)
        if op == "*":
            return self._memory_read(expr)
        if op == "&":
            location = self._location(operand) or self._alias_of(operand)
            return location if location is not None else self._computed("address", self._expr(operand))
        if op in ("++", "--", "post++", "post--"):
            old = self._expr(operand)
            delta = 1 if "++" in op else -1
            new = _advance(old, Sym.const(delta), operand.type) if isinstance(old, Pointer) else self._int(old) + delta
            self._store(operand, new, expr)
            return new if not op.startswith("post") else old
        value = self._expr(operand)
        if op == "-":
            return -self._int(value) if isinstance(value, Sym) else self._computed("-(...)", value)
        if op == "+":
            return value
        if op in ("!", "~"):
            return sym.operation(op, self._int(value))
        return self._computed(op or "unary", value)

    def _binary(self, expr: ir.Expr) -> Value:
        op = expr.op
        if op == ",":
            self._expr(expr.children[0])
            return self._expr(expr.children[1])
        left, right = (self._expr(c) for c in expr.children)
        return self._arithmetic(op, left, right, expr)

    def _arithmetic(self, op: str | None, left: Value, right: Value, expr: ir.Expr) -> Value:
        if isinstance(left, Pointer) or isinstance(right, Pointer):
            if op == "+" and isinstance(left, Pointer) and isinstance(right, Sym):
                return _advance(left, right, left.pointee)
            if op == "+" and isinstance(right, Pointer) and isinstance(left, Sym):
                return _advance(right, left, right.pointee)
            if op == "-" and isinstance(left, Pointer) and isinstance(right, Sym):
                return _advance(left, -right, left.pointee)
            return self._computed("pointer arithmetic", left, right)
        left, right = self._int(left), self._int(right)
        if not _is_integral(expr.type) and op not in sym.COMPARISONS and op not in ("&&", "||"):
            return self._computed("float(...)", left, right)  # Floating point: only its variance matters.
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op in sym.OPERATORS:
            return sym.operation(op, left, right)
        return self._computed(op or "op", left, right)

    def _conditional(self, expr: ir.Expr) -> Value:
        condition = self._int(self._expr(expr.children[0]))
        # Only the lanes that choose an arm run its memory accesses (nvcc predicates them).
        then, otherwise = (
            self._guarded(arm, condition, holds) for arm, holds in zip(expr.children[1:], (True, False), strict=False)
        )
        return _select(condition, then, otherwise)

    def _guarded(self, expr: ir.Expr, condition: Sym, holds: bool) -> Value:
        self.guards.append(Guard(condition, holds))
        try:
            return self._expr(expr)
        finally:
            self.guards.pop()

    def _assign(self, expr: ir.Expr) -> Value:
        target, source = expr.children
        value = self._expr(source)
        if expr.op != "=":
            old = self._expr(target)
            value = self._arithmetic(expr.op[:-1], old, value, expr)
        value = self._convert(value, target.type)
        self._store(target, value, expr)
        return value

    def _store(self, target: ir.Expr, value: Value, expr: ir.Expr) -> None:
        if target.kind is ir.ExprKind.DECL_REF and target.decl:
            current = self._variable(target)
            if isinstance(current, Alias) and target.type.kind is not ir.TypeKind.POINTER:
                self._write_alias(current, value, expr)
                return
            if not isinstance(current, Reference):
                self.env[target.decl] = value
                return
        location = self._location(target)
        if isinstance(location, Alias):
            self._write_alias(location, value, expr)
        elif location is not None:
            self._record(target, AccessKind.STORE, location, target.type)
            self._remember(location, value)

    # ---- inline PTX and the intrinsics that issue its memory instructions

    def _inline_assembly(self, stmt: ir.Stmt) -> None:
        """Inline PTX: a block barrier (``bar.sync``), or the accesses its memory
        instructions make at the addresses its operands hold (``ptx.memory_instructions``),
        and what its outputs receive: the data an instruction loads, or the shared-window
        address ``cvta.to.shared`` makes of a pointer.
        Other outputs keep what they held: what the instructions compute is not modelled."""
        text = stmt.label or ""
        if _ASM_BARRIER.search(text):
            marker = ir.Expr(ir.ExprKind.UNKNOWN, _VOID, stmt.span, name="bar.sync")
            self._barrier(marker, "bar.sync", BarrierScope.BLOCK)
            return
        inputs = [number for number, operand in enumerate(stmt.operands) if not operand.is_output]
        constants = {
            number: value
            for number in inputs
            if stmt.operands[number].constraint in ("n", "i")
            and (value := self._int(self._expr(stmt.operands[number].expr)).constant) is not None
        }
        instructions = ptx.memory_instructions(text, constants)
        # Only the operands the model reads are evaluated: the registers of instructions it
        # does not model (an mma's fragments) are left as the C++ code leaves them.
        used = {i.address for i in instructions} | {i.source for i in instructions if i.source is not None}
        if ptx.CVTA_TO_SHARED.search(text):
            used.update(inputs)
        values: dict[int, Value] = {
            number: self._expr(stmt.operands[number].expr) for number in sorted(used) if number in inputs
        }
        for instruction in instructions:
            self._ptx_access(instruction, values.get(instruction.address), values.get(instruction.source), stmt.span)
        loaded = next((i for i in instructions if not i.store), None)
        pointers = [v for v in values.values() if isinstance(v, Pointer) and v.space is MemorySpace.SHARED]
        for operand in stmt.operands:
            if not operand.is_output or operand.expr.kind is not ir.ExprKind.DECL_REF:
                continue
            if loaded is not None:
                value: Value = self._fresh(
                    f"{loaded.name}(...)", Variance.DATA, f"loaded from shared memory by {loaded.name}", loaded=True
                )
            elif ptx.CVTA_TO_SHARED.search(text) and len(pointers) == 1:
                value = self._shared_window(pointers[0])
            else:
                continue
            self._store(operand.expr, value, operand.expr)

    def _ptx_access(
        self, instruction: ptx.PtxMemory, address: Value | None, source: Value | None, span: ir.Span
    ) -> None:
        """Record the shared access ``instruction`` makes at ``address`` (a shared-window
        address, or a pointer into shared memory) and, for a copy from global memory, the
        load of its source."""
        location = self._window_location(address)
        if location is None:
            return
        if instruction.displacement:
            location = replace(location, offset=location.offset + instruction.displacement)
        element = _lane_type(instruction.bytes)
        expr = ir.Expr(ir.ExprKind.UNKNOWN, element, span, name=instruction.name)
        recorded = len(self.trace.accesses)
        if instruction.store:
            self._record(expr, AccessKind.STORE, location, element, instruction)
            self._remember(location, self._fresh(f"{instruction.name}(...)", Variance.DATA, loaded=True))
        else:
            self._record(expr, AccessKind.LOAD, location, element, instruction)
        if isinstance(source, Pointer) and not instruction.zero_fill:
            if len(self.trace.accesses) > recorded:
                self.trace.accesses[recorded].copy_source = source
            self._record(expr, AccessKind.LOAD, source, element, instruction)

    def _window_location(self, address: Value | None) -> Pointer | None:
        """Where a shared-window address (or a pointer into shared memory) points."""
        if isinstance(address, Pointer):
            return address if address.space is MemorySpace.SHARED else None
        if not isinstance(address, Sym):
            return None
        for atom, base in self.shared_windows.items():
            coefficient = address.coefficient_of(atom)
            if coefficient.constant == 1:
                offset = address - Sym.atom(atom)
                if atom not in offset.atoms():
                    return Pointer(MemorySpace.SHARED, base, offset, None)
        return None

    def _shared_window(self, pointer: Pointer) -> Sym:
        """The 32-bit shared-window address of ``pointer``: the allocation's own (an unknown
        the same in every thread) plus the byte offset, so integer arithmetic on it
        (``addr + chunk * 16``) moves it by bytes."""
        atom = next((a for a, base in self.shared_windows.items() if base == pointer.base), None)
        if atom is None:
            window = self._fresh(
                f"__cvta_generic_to_shared({pointer.base})",
                Variance.UNIFORM,
                f"the shared-memory address of `{pointer.base}`: the same in every thread of the block",
            )
            atom = window.terms[0][0][0]
            self.shared_windows[atom] = pointer.base
        return Sym.atom(atom) + pointer.offset

    def _shared_address_call(self, name: str, expr: ir.Expr) -> Value:
        """``__cvta_generic_to_shared(p)``: the shared-window address of a pointer into shared memory."""
        arguments = [self._expr(c) for c in expr.children]
        if len(arguments) == 1 and isinstance(arguments[0], Pointer) and arguments[0].space is MemorySpace.SHARED:
            return self._shared_window(arguments[0])
        return self._computed(f"{name}(...)", *arguments)

    def _pipeline_copy(self, name: str, expr: ir.Expr) -> Value:
        """``__pipeline_memcpy_async(dst, src, size[, zfill])``: the cp.async of ``size`` bytes
        per thread (4, 8 or 16) from global ``src`` to shared ``dst``."""
        arguments = [self._expr(c) for c in expr.children]
        size = self._int(arguments[2]).constant if len(arguments) >= 3 else None
        zero_fill = len(arguments) >= 4 and self._int(arguments[3]).constant != 0
        if size in (4, 8, 16):
            instruction = ptx.PtxMemory("cp.async", True, 0, 0, size, window=False, source=1, zero_fill=zero_fill)
            self._ptx_access(instruction, arguments[0], arguments[1], expr.span)
        return sym.ZERO

    def _barrier(self, expr: ir.Expr, name: str, scope: BarrierScope) -> None:
        if self.recording:
            self.trace.barriers.append(
                Barrier(
                    expr, name, tuple(self.guards), tuple(self.loops), self.statement, tuple(self.call_names), scope
                )
            )
        if scope is not BarrierScope.PARTIAL:
            # Whatever any thread stored before it, every thread now reads alike.
            _forget_memory(self.env, keep_local=True)
            self.last_barrier = expr.span.line
            self._accesses_before_barrier = len(self.trace.accesses)

    # ---- calls

    def _call(self, expr: ir.Expr) -> Value:
        name = (expr.name or "").removeprefix("::")
        if self.recording:
            self.trace.calls.add(name.removeprefix("std::"))
        if "cooperative_groups" in (expr.decl or ""):
            return self._cooperative(expr, name)
        # Names the interpreter knows (barriers, cache-hinted loads and stores, atomics) have
        # a handler of their own; any other call is run as a function (``_function_call``).
        family = _ATOMIC if name.startswith(_ATOMIC) else name
        return _CALL_HANDLERS.get(family, Interpreter._function_call)(self, name, expr)

    def _barrier_call(self, name: str, expr: ir.Expr) -> Value:
        arguments = [self._int(self._expr(c)) for c in expr.children]
        if name == "__syncwarp":
            full = not arguments or arguments[0].constant == _FULL_MASK
            self._barrier(expr, name, BarrierScope.WARP if full else BarrierScope.PARTIAL)
            return sym.ZERO
        self._barrier(expr, name, BarrierScope.BLOCK)
        if name in _COUNTING_BARRIERS:
            return self._fresh(
                f"{name}(...)", Variance.UNIFORM, f"returned by {name}: the same in every thread of the block"
            )
        return sym.ZERO

    def _cache_hinted_load(self, name: str, expr: ir.Expr) -> Value:
        if expr.children:
            pointer = self._expr(expr.children[0])
            if isinstance(pointer, Pointer):
                self._record(expr, AccessKind.LOAD, pointer, expr.type)
                return self._load(pointer, expr)
        return self._function_call(name, expr)

    def _cache_hinted_store(self, name: str, expr: ir.Expr) -> Value:
        if len(expr.children) != 2:
            return self._function_call(name, expr)
        pointer = self._expr(expr.children[0])
        value = self._expr(expr.children[1])
        if isinstance(pointer, Pointer):
            self._record(expr, AccessKind.STORE, pointer, expr.children[1].type)
            self._remember(pointer, value)
        return sym.ZERO

    def _atomic(self, name: str, expr: ir.Expr) -> Value:
        if not expr.children:
            return self._function_call(name, expr)
        pointer = self._expr(expr.children[0])
        for argument in expr.children[1:]:
            self._expr(argument)
        if isinstance(pointer, Pointer):
            self._record(expr, AccessKind.ATOMIC, pointer, expr.type)
            self._remember(pointer, self._fresh(f"{name}(...)", Variance.DATA, loaded=True))
        return self._fresh(
            f"{name}(...)",
            Variance.DATA,
            f"returned by {name}: each lane gets the value another left, different in each lane",
            loaded=True,
        )

    def _assign_call(self, name: str, expr: ir.Expr) -> Value:
        """Assignment of a struct or vector type (float4, a user struct) into memory."""
        if len(expr.children) != 2:
            return self._function_call(name, expr)
        value = self._expr(expr.children[1])
        self._store(expr.children[0], value, expr)
        return value

    def _function_call(self, name: str, expr: ir.Expr) -> Value:
        """A call of a function: an intrinsic modelled on its operands, a device function of
        this file inlined, or else a value computed from the arguments."""
        callee = self.functions.get(expr.decl or "")
        inlined = (
            callee is not None
            and callee.kind.runs_on_device
            and len(self.call_stack) < MAX_INLINE_DEPTH
            and callee.decl not in self.call_stack
            and callee.decl != self.function.decl
        )
        arguments = self._bind_arguments(callee, expr) if inlined else [self._expr(c) for c in expr.children]
        if expr.receiver is not None and not inlined:
            # A method of a type whose code is not here reads its object: `(float)x[i]` on a
            # `__half` or `__nv_bfloat16` array is `x[i].operator float()`, a load of the narrow
            # element, converted in registers.
            receiver = self._expr(expr.receiver)
            if not arguments and (expr.name or "").startswith("operator "):
                return self._convert(receiver, expr.type)
            arguments.append(receiver)
        if expr.op == "construct" and len(arguments) == 1 and isinstance(arguments[0], (Group, Triple)):
            return arguments[0]  # A copy of a group handle (`thread_group g = block;`).
        intrinsic = self._intrinsic(name, arguments, expr)
        if intrinsic is not None:
            return intrinsic
        if inlined:
            return self._inline(callee, arguments, expr)
        return self._computed(f"{name or 'call'}(...)", *arguments)

    def _bind_arguments(self, callee: ir.Function, expr: ir.Expr) -> list[Value]:
        """Arguments as the helper's parameters take them: a reference parameter binds to the
        caller's variable or memory; a struct copied from read-only memory (the kernel's
        parameter struct, a __constant__ one) is read there, pointers and all."""
        bound: list[Value] = []
        for index, argument in enumerate(expr.children):
            kind = callee.params[index].type.kind if index < len(callee.params) else None
            if kind is ir.TypeKind.REFERENCE:
                target = self._location(argument) or self._alias_of(argument)
                if target is not None:
                    bound.append(Reference(target) if isinstance(target, Pointer) else target)
                    continue
            elif kind is ir.TypeKind.RECORD and _copied(argument).kind is ir.ExprKind.DECL_REF:
                target = self._location(_copied(argument))
                if isinstance(target, Pointer) and target.space in (MemorySpace.PARAMETER, MemorySpace.CONSTANT):
                    bound.append(Reference(target))
                    continue
            bound.append(self._expr(argument))
        return bound

    def _intrinsic(self, name: str, arguments: list[Value], expr: ir.Expr) -> Value | None:
        """CUDA's integer and warp intrinsics, as functions of their operands' values; None
        for any other function (no handler in ``_INTRINSIC_HANDLERS``), for operands that are
        not integers, and for a form the handler does not model (it answers None)."""
        handler = _INTRINSIC_HANDLERS.get(name)
        if handler is None:
            return None
        values = [self._int(a) if isinstance(a, (Sym, Reference, Alias)) else a for a in arguments]
        if not all(isinstance(v, Sym) for v in values):
            return None
        return handler(self, name, values, expr)

    def _mul24(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) != 2:
            return None
        return values[0] * values[1]  # Exact for the 24-bit operands these are used with.

    def _bit_function(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) != (2 if "mulhi" in name else 1) or not _is_integral(expr.type):
            return None
        return sym.operation(_BIT_FUNCTIONS[name], *values)

    def _min_max(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) != 2 or not _is_integral(expr.type):
            return None
        return sym.operation(_MIN_MAX[name], *values)

    def _broadcast_shuffle(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        source_index = _BROADCAST_SHUFFLES[name]
        if len(values) <= source_index:
            return None
        value, source = values[source_index - 1], values[source_index]
        width = values[source_index + 1] if len(values) > source_index + 1 else None
        if value.variance is Variance.UNIFORM:
            return value
        if refine_variance(source, self.shape) <= Variance.WARP_UNIFORM and (
            width is None or (width.constant or 0) >= 32
        ):
            return self._fresh(
                f"{name}(...)",
                Variance.WARP_UNIFORM,
                f"broadcast from one lane by {name}: the same across the warp",
            )
        return self._fresh(f"{name}(...)", Variance.DATA, f"read from another lane by {name}", inputs=(value,))

    def _exchange_shuffle(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) <= _EXCHANGE_SHUFFLES[name]:
            return None
        value = values[_EXCHANGE_SHUFFLES[name]]
        if value.variance is Variance.UNIFORM:
            return value
        return self._fresh(f"{name}(...)", Variance.DATA, f"read from another lane by {name}", inputs=(value,))

    def _same_in_the_warp(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym:
        """What a ballot, a vote or a warp reduction returns: one value for every lane."""
        return self._fresh(
            f"{name}(...)", Variance.WARP_UNIFORM, f"returned by {name}: the same in every lane of the warp"
        )

    def _vote(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if not values:
            return None
        predicate = values[-1]
        if predicate.variance is Variance.UNIFORM:
            return sym.operation("!=", predicate, sym.ZERO)
        return self._same_in_the_warp(name, values, expr)

    def _warp_reduction(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if not values:
            return None
        if values[-1].variance is Variance.UNIFORM:
            return values[-1]
        if len(values) == 2 and values[0].constant == _FULL_MASK:
            return self._warp_reduced(values[-1], f"{name}(...)", name)
        return self._same_in_the_warp(name, values, expr)

    def _warp_reduced(self, value: Sym, name: str, how: str) -> Sym:
        """A value reduced over all 32 lanes of each warp: the same across the warp, and
        across the block when every warp reduces the same values lane for lane (a partial
        result per warp read back from shared memory after a barrier, then reduced again)."""
        if self._same_in_every_warp(value):
            return self._fresh(
                name,
                Variance.UNIFORM,
                f"reduced over each full warp by {how} from values every warp holds alike, lane for lane: "
                "the same in every thread of the block",
            )
        return self._fresh(
            name, Variance.WARP_UNIFORM, f"reduced over the full warp by {how}: the same across the warp"
        )

    def _same_in_every_warp(self, value: Sym) -> bool:
        """Whether ``value`` is, lane for lane, the same in every warp of the block: made of
        block-uniform values, lane indices and shared reads at such addresses."""
        replacements = {}
        for atom in value.atoms():
            if atom.kind in (AtomKind.VARYING, AtomKind.WARP_UNIFORM):
                address = self.shared_reads.get(atom)
                if address is None:
                    return False
                replacements[atom] = address
        by_address = sym.substitute(value, replacements) if replacements else value
        if by_address.variance is Variance.UNIFORM or self.shape.warps() == 1:
            return by_address.variance <= Variance.THREAD
        if by_address.variance is not Variance.THREAD:
            return False
        for evaluator in evaluators(self.shape, by_address):
            first = evaluator.lanes(by_address, 0)
            if None in first:
                return False
            if any(evaluator.lanes(by_address, warp) != first for warp in range(1, min(self.shape.warps(), 4))):
                return False
        return True

    def _per_lane(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym:
        return self._fresh(f"{name}(...)", Variance.DATA, _PER_LANE[name])

    def _inline(self, callee: ir.Function, arguments: list[Value], call: ir.Expr) -> Value:
        saved_env = self.env
        self.env = dict(self.env)
        for param, argument in zip(callee.params, arguments, strict=False):
            self.env[param.decl] = (
                argument
                if isinstance(argument, (Alias, Reference, Group, Triple))
                else self._convert(argument, param.type)
            )
        self.call_stack.append(callee.decl)
        self.call_names.append(callee.display_name)
        self._returns.append([])
        self._return_depths.append(len(self.guards))
        try:
            self._block(callee.body)
        finally:
            returned = self._returns.pop()
            self._return_depths.pop()
            self.call_stack.pop()
            self.call_names.pop()
            inner, self.env = self.env, saved_env
        # The caller sees what the helper wrote through references and pointers to its
        # variables, and what it stored to memory.
        for decl, value in inner.items():
            if decl in saved_env and value is not saved_env[decl]:
                saved_env[decl] = value
        saved_env[MEMORY] = inner.get(MEMORY, {})
        return _returned_value(callee, returned)

    def _lambda(self, expr: ir.Expr) -> Value:
        return self._fresh("lambda", Variance.UNIFORM)

    # ---- cooperative groups

    def _cooperative(self, expr: ir.Expr, name: str) -> Value:
        """A cooperative_groups function or method: group handles, ranks, sizes, barriers."""
        receiver = self._expr(expr.receiver) if expr.receiver is not None else None
        arguments = [self._expr(c) for c in expr.children]
        made = _new_group(name, expr, arguments)
        if made is not None:
            return made
        group = (
            receiver
            if isinstance(receiver, Group)
            else next((a for a in arguments if isinstance(a, Group)), None) or _group_of(expr.decl or "")
        )
        if expr.op == "construct" or name.startswith("operator "):
            if group is not None:
                return group  # A copy or conversion of a group handle.
        if name in ("sync", "barrier_wait"):
            self._barrier(expr, name, _barrier_scope(group))
            return sym.ZERO
        value = _group_value(name, group)
        if value is not None:
            return value
        if name == "reduce" and len(arguments) >= 2:
            return self._group_shared(name, group, arguments[1])
        if name in ("shfl", "shfl_up", "shfl_down", "shfl_xor") and arguments:
            value = self._int(arguments[0])
            if value.variance is Variance.UNIFORM:
                return value
            broadcast = (
                name == "shfl"
                and len(arguments) > 1
                and refine_variance(self._int(arguments[1]), self.shape) <= Variance.WARP_UNIFORM
            )
            return (
                self._group_shared(name, group, value)
                if broadcast
                else self._fresh(f"{name}(...)", Variance.DATA, f"read from another lane by {name}", inputs=(value,))
            )
        if name in ("any", "all", "ballot", "match_all"):
            return self._group_shared(name, group, self._int(arguments[0]) if arguments else sym.ZERO)
        return self._computed(f"{name}(...)", *arguments)

    def _group_shared(self, name: str, group: Group | None, value: Value) -> Sym:
        """A value every thread of ``group`` shares (a reduction, a broadcast, a vote)."""
        value = self._int(value)
        if value.variance is Variance.UNIFORM:
            return value
        size = group.size if group is not None and group.kind == "tile" else None
        if size is not None and size % 32 == 0:
            return self._fresh(
                f"{name}(...)",
                Variance.WARP_UNIFORM,
                f"computed by {name} over a tile of {size} threads: the same across the warp",
            )
        what = f"tiles of {size} threads" if size is not None else "the threads of the group"
        return self._fresh(
            f"{name}(...)",
            Variance.DATA,
            f"computed by {name} over {what}: the same within a tile, different between tiles",
        )


_CALL_HANDLERS = {
    **dict.fromkeys((*_BARRIERS, *_COUNTING_BARRIERS, "__syncwarp"), Interpreter._barrier_call),
    **dict.fromkeys(_LOADS, Interpreter._cache_hinted_load),
    **dict.fromkeys(_STORES, Interpreter._cache_hinted_store),
    _ATOMIC: Interpreter._atomic,
    "operator=": Interpreter._assign_call,
    "__cvta_generic_to_shared": Interpreter._shared_address_call,
    "__pipeline_memcpy_async": Interpreter._pipeline_copy,
}
"""Calls the interpreter runs itself, by name (every atomic function under ``_ATOMIC``)."""

_INTRINSIC_HANDLERS = {
    "__umul24": Interpreter._mul24,
    "__mul24": Interpreter._mul24,
    **dict.fromkeys(_BIT_FUNCTIONS, Interpreter._bit_function),
    **dict.fromkeys(_MIN_MAX, Interpreter._min_max),
    **dict.fromkeys(_BROADCAST_SHUFFLES, Interpreter._broadcast_shuffle),
    **dict.fromkeys(_EXCHANGE_SHUFFLES, Interpreter._exchange_shuffle),
    **dict.fromkeys(_BALLOTS, Interpreter._same_in_the_warp),
    **dict.fromkeys(_VOTES, Interpreter._vote),
    **dict.fromkeys(_WARP_REDUCTIONS, Interpreter._warp_reduction),
    **dict.fromkeys(_PER_LANE, Interpreter._per_lane),
}
"""Intrinsics modelled as functions of their operands' values, by name."""


# ---------------------------------------------------------------------- helpers


_STORAGE_SPACES = {
    ir.StorageClass.SHARED: MemorySpace.SHARED,
    ir.StorageClass.CONSTANT: MemorySpace.CONSTANT,
    ir.StorageClass.DEVICE: MemorySpace.GLOBAL,
    ir.StorageClass.MANAGED: MemorySpace.GLOBAL,
}


def _argument_spaces(
    tu: ir.TranslationUnit, function: ir.Function, globals_: Mapping[str, ir.VarDecl]
) -> dict[str, MemorySpace]:
    """The pointer parameters of ``function`` that every call of it in the translation unit
    binds to an address into a ``__shared__`` array (`reduce(tile, t)`), by declaration. Calls
    that clang could not resolve (in a template, `reduce(s, t)` with `s` a `T*`) are matched
    by name: ``function`` is then analyzed on its own, and its accesses are shared ones."""
    pointers = [index for index, param in enumerate(function.params) if param.type.kind is ir.TypeKind.POINTER]
    if not pointers:
        return {}
    spaces: dict[int, set[MemorySpace | None]] = {index: set() for index in pointers}
    for site in _UnitIndex.of(tu).calling(function):
        aliases, shared = site.caller.locals()
        for index in pointers:
            argument = site.call.children[index] if index < len(site.call.children) else None
            spaces[index].add(_argument_space(argument, shared, aliases, globals_))
    return {
        function.params[index].decl: MemorySpace.SHARED
        for index, found in spaces.items()
        if found == {MemorySpace.SHARED}
    }


class _Caller:
    """A function with a body that calls others: its locals, read once the first call of
    interest in it asks for them."""

    def __init__(self, function: ir.Function):
        self.function = function
        self._locals: tuple[dict[str, ir.Expr], set[str]] | None = None

    def locals(self) -> tuple[dict[str, ir.Expr], set[str]]:
        """The local pointers set once where they are declared (`float* row = tile + 32 *
        warp;`: they point where their initializer does), by declaration, and the
        ``__shared__`` variables declared inside."""
        if self._locals is None:
            declared = {var.decl: var for var in _declared_variables(self.function)}
            assigned = _assigned_in(self.function)
            aliases = {
                decl: var.init
                for decl, var in declared.items()
                if var.init is not None and var.type.kind is ir.TypeKind.POINTER and decl not in assigned
            }
            shared = {decl for decl, var in declared.items() if var.storage is ir.StorageClass.SHARED}
            self._locals = aliases, shared
        return self._locals


@dataclass(frozen=True, slots=True)
class _CallSite:
    caller: _Caller
    call: ir.Expr


class _UnitIndex:
    """What every function analyzed in a translation unit looks up in it, built once: the
    functions with a body by declaration, and every call in those bodies, by the declaration
    it resolves to and, for those clang left unresolved, by the last part of the name (each
    device function analyzed on its own finds its callers without walking every body again)."""

    _last: tuple[ir.TranslationUnit, _UnitIndex] | None = None

    def __init__(self, tu: ir.TranslationUnit):
        self.functions = {f.decl: f for f in tu.functions if f.body is not None}
        self.by_decl: dict[str, list[_CallSite]] = {}
        self.by_name: dict[str, list[_CallSite]] = {}
        for function in tu.functions:
            if function.body is None:
                continue
            caller = _Caller(function)
            for stmt in function.body.walk():
                for expr in stmt.expressions():
                    for call in expr.walk():
                        if call.kind is not ir.ExprKind.CALL:
                            continue
                        if call.decl is not None:
                            self.by_decl.setdefault(call.decl, []).append(_CallSite(caller, call))
                        elif call.name is not None:
                            self.by_name.setdefault(call.name.split("::")[-1], []).append(_CallSite(caller, call))

    @classmethod
    def of(cls, tu: ir.TranslationUnit) -> _UnitIndex:
        """The index of ``tu``, built once for the functions of one unit analyzed in turn."""
        if cls._last is None or cls._last[0] is not tu:
            cls._last = (tu, cls(tu))
        return cls._last[1]

    def calling(self, function: ir.Function) -> list[_CallSite]:
        """The calls of ``function`` in the other functions: those clang resolved to it, and
        the unresolved ones that name it."""
        sites = self.by_decl.get(function.decl, []) + self.by_name.get(function.name.split("::")[-1], [])
        return [site for site in sites if site.caller.function.decl != function.decl]


def _declared_variables(function: ir.Function):
    for stmt in function.body.walk() if function.body is not None else ():
        yield from stmt.decls


def _assigned_in(function: ir.Function) -> set[str]:
    """Declarations of the variables ``function`` assigns or steps after declaring them."""
    assigned = set()
    for stmt in function.body.walk() if function.body is not None else ():
        for expr in stmt.expressions():
            for node in expr.walk():
                written = (
                    node.kind is ir.ExprKind.ASSIGN
                    or (node.kind is ir.ExprKind.UNARY and node.op in ("++", "post++", "--", "post--"))
                    or _unresolved_operator(node)  # `p += k` on a `T*` in a template: maybe a write
                )
                if written and node.children and node.children[0].kind is ir.ExprKind.DECL_REF:
                    assigned.add(node.children[0].decl)
    return assigned


def _argument_space(
    argument: ir.Expr | None,
    shared: set[str],
    aliases: Mapping[str, ir.Expr],
    globals_: Mapping[str, ir.VarDecl],
) -> MemorySpace | None:
    """The space of the array an argument points into (`tile`, `&tile[k]`, `tile + k`, a
    local pointer initialized to one), when it names one."""
    followed: set[str] = set()
    while argument is not None:
        if argument.kind is ir.ExprKind.DECL_REF:
            var = globals_.get(argument.decl or "")
            if argument.decl in shared or (var is not None and var.storage is ir.StorageClass.SHARED):
                return MemorySpace.SHARED
            if argument.decl in aliases and argument.decl not in followed:
                followed.add(argument.decl)
                argument = aliases[argument.decl]
                continue
            return None
        if argument.kind in (ir.ExprKind.CAST, ir.ExprKind.SUBSCRIPT) or (
            argument.kind is ir.ExprKind.UNARY and argument.op == "&"
        ):
            argument = argument.children[0] if argument.children else None
        elif (
            argument.kind is ir.ExprKind.BINARY and argument.op in ("+", "-") or _unresolved_operator(argument)
        ) and argument.children:
            argument = argument.children[0]  # An address plus an offset (`tile + k` on a `T` array in a template).
        else:
            return None
    return None


def _unresolved_operator(expr: ir.Expr) -> bool:
    """An operator clang left unresolved in a template (on a `T*` or a `T` array): a call
    with no name whose first operand is a variable."""
    return (
        expr.kind is ir.ExprKind.CALL
        and not expr.name
        and expr.decl is None
        and bool(expr.children)
        and expr.children[0].kind is ir.ExprKind.DECL_REF
    )


def _linear_thread_index() -> Sym:
    """threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y."""
    x, y, z = (sym.builtin("threadIdx", c) for c in "xyz")
    bx, by = sym.builtin("blockDim", "x"), sym.builtin("blockDim", "y")
    return x + y * bx + z * bx * by


def _block_threads() -> Sym:
    return sym.builtin("blockDim", "x") * sym.builtin("blockDim", "y") * sym.builtin("blockDim", "z")


_TILE_SIZE = re.compile(r"(?:thread_block_tile|tile_base)>#Vi(\d+)")


def _group_of(decl: str) -> Group | None:
    """The group a cooperative_groups member belongs to, from its declaration (methods of
    a ``thread_block`` are static: the call names no object)."""
    size = _TILE_SIZE.search(decl)
    if size:
        return Group("tile", int(size.group(1)))
    for kind, marker in (
        ("block", "@S@thread_block@"),
        ("grid", "@S@grid_group@"),
        ("cluster", "@S@cluster_group@"),
        ("coalesced", "@S@coalesced_group@"),
    ):
        if marker in decl:
            return Group(kind)
    return None


def _new_group(name: str, expr: ir.Expr, arguments: list[Value]) -> Group | None:
    if name == "this_thread_block":
        return Group("block")
    if name in ("this_grid", "this_multi_grid"):
        return Group("grid")
    if name == "this_cluster":
        return Group("cluster")
    if name in ("coalesced_threads", "binary_partition", "labeled_partition"):
        return Group("coalesced")
    if name == "this_thread":
        return Group("tile", 1)
    if name != "tiled_partition":
        return None
    parent = next((a for a in arguments if isinstance(a, Group)), None)
    parent_size = parent.size if parent is not None and parent.kind == "tile" else None
    size = re.search(r"thread_block_tile<(\d+)", expr.type.spelling)
    if size:
        return Group("tile", int(size.group(1)), parent_size)
    count = arguments[1].constant if len(arguments) > 1 and isinstance(arguments[1], Sym) else None
    if parent is not None and parent.kind == "coalesced":
        return Group("coalesced")
    return Group("tile", count, parent_size)


def _group_value(name: str, group: Group | None) -> Value | None:
    """Ranks, sizes and indices of a group, as functions of the thread and block indices."""
    if group is None:
        return None
    linear = _linear_thread_index()
    threads = _block_threads()
    block_index = Triple(*(sym.builtin("blockIdx", c) for c in "xyz"))
    if group.kind == "block":
        values = {
            "thread_rank": linear,
            "size": threads,
            "num_threads": threads,
            "group_index": block_index,
            "thread_index": Triple(*(sym.builtin("threadIdx", c) for c in "xyz")),
            "group_dim": Triple(*(sym.builtin("blockDim", c) for c in "xyz")),
            "dim_threads": Triple(*(sym.builtin("blockDim", c) for c in "xyz")),
        }
        return values.get(name)
    if group.kind == "grid":
        gx, gy, gz = (sym.builtin("gridDim", c) for c in "xyz")
        block_rank = block_index.x + block_index.y * gx + block_index.z * gx * gy
        values = {
            "thread_rank": block_rank * threads + linear,
            "block_rank": block_rank,
            "block_index": block_index,
            "dim_blocks": Triple(gx, gy, gz),
            "num_blocks": gx * gy * gz,
            "size": gx * gy * gz * threads,
            "num_threads": gx * gy * gz * threads,
        }
        return values.get(name)
    if group.kind == "tile" and group.size:
        within = sym.operation("%", linear, Sym.const(group.parent)) if group.parent else linear
        parent_threads = Sym.const(group.parent) if group.parent else threads
        values = {
            "thread_rank": sym.operation("%", linear, Sym.const(group.size)),
            "size": Sym.const(group.size),
            "num_threads": Sym.const(group.size),
            "meta_group_rank": sym.operation("/", within, Sym.const(group.size)),
            "meta_group_size": sym.operation("/", parent_threads, Sym.const(group.size)),
        }
        return values.get(name)
    if name in ("thread_rank",):
        return sym.unknown("thread_rank(...)", Variance.DATA)
    return None


def _barrier_scope(group: Group | None) -> BarrierScope:
    if group is None:
        return BarrierScope.PARTIAL
    if group.kind == "block":
        return BarrierScope.BLOCK
    if group.kind in ("grid", "cluster"):
        return BarrierScope.GRID
    if group.kind == "tile" and group.size is not None and group.size >= 32:
        return BarrierScope.WARP
    return BarrierScope.PARTIAL


def _describe(expr: ir.Expr) -> str:
    """A short readable name for the value of ``expr`` (``s_done``, ``row_start[...]``)."""
    kind = expr.kind
    if kind is ir.ExprKind.DECL_REF:
        return expr.name or "value"
    if kind is ir.ExprKind.SUBSCRIPT and expr.children:
        return f"{_describe(expr.children[0])}[...]"
    if kind is ir.ExprKind.MEMBER and expr.children:
        return f"{_describe(expr.children[0])}{expr.op or '.'}{expr.name}"
    if kind is ir.ExprKind.UNARY and expr.op == "*" and expr.children:
        return f"*{_describe(expr.children[0])}"
    if kind is ir.ExprKind.CAST and expr.children:
        return _describe(expr.children[0])
    if kind is ir.ExprKind.CALL:
        return f"{(expr.name or 'call').removeprefix('::')}(...)"
    return "value"


def _is_integral(ctype: ir.CType) -> bool:
    return ctype.kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM)


def _lane_type(size: int) -> ir.CType:
    """The type of what one lane of an inline-PTX instruction moves: ``size`` bytes."""
    return ir.CType(ir.TypeKind.INTEGER, f".b{size * 8}", size, size, False)


def _advance(pointer: Pointer, elements: Sym, pointee: ir.CType | None) -> Pointer:
    """``pointer + elements``: the offset grows by the size of what it points to."""
    element = pointer.pointee
    size = element.size if element is not None else None
    if size is None:
        offset = sym.operation("+", pointer.offset, sym.unknown("sizeof(...)", Variance.UNIFORM) * elements)
    else:
        offset = pointer.offset + elements * size
    return Pointer(pointer.space, pointer.base, offset, pointee if pointee is not None else element)


def _select(condition: Sym, then: Value, otherwise: Value) -> Value:
    if then == otherwise:
        return then
    if isinstance(then, Sym) and isinstance(otherwise, Sym):
        return sym.operation("select", condition, then, otherwise)
    if (
        isinstance(then, Pointer)
        and isinstance(otherwise, Pointer)
        and (then.space, then.base) == (otherwise.space, otherwise.base)
    ):
        return Pointer(
            then.space, then.base, sym.operation("select", condition, then.offset, otherwise.offset), then.pointee
        )
    return _opaque("select", condition, then, otherwise)


def _forget_memory(env: dict, keep_local: bool = False) -> None:
    env[MEMORY] = {
        key: value for key, value in env.get(MEMORY, {}).items() if keep_local and key.space is MemorySpace.LOCAL
    }


def _returned_value(callee: ir.Function, returned: list[tuple[Value, tuple[Guard, ...]]]) -> Value:
    """What a helper returns: the last return's value, overridden by each earlier return
    under the conditions it ran under."""
    if not returned:
        return sym.unknown(f"{callee.name}(...)", Variance.UNIFORM)
    result = returned[-1][0]
    for value, guards in reversed(returned[:-1]):
        if not guards:
            result = value
            continue
        condition = None
        for guard in guards:
            part = guard.condition if guard.holds else sym.operation("!", guard.condition)
            condition = part if condition is None else sym.operation("&&", condition, part)
        result = _select(condition, value, result)
    return result


def _closed_form(start: Value, placeholder: Sym, after: Value | None, iteration: Sym, name: str) -> Value:
    """A variable a loop updates: ``x += c`` each trip gives ``x0 + c * k``; one a trip moves
    by an amount the same across each warp, under a guard or not (``if (k & 1) j += n;``),
    is its start moved by an unknown of that variance, its lanes as far apart as at the
    start; else an unknown that varies as its start and its updates do."""
    if after == start:
        return start  # Every trip ends with the value it started with (`k = restart;`).
    if isinstance(after, Sym) and isinstance(start, Sym):
        step = after - placeholder
        if all(atom != placeholder.terms[0][0][0] for atom in step.atoms()):
            return start + step * iteration
        moved = _moved_by(after, placeholder)
        if moved is not None and moved.variance <= Variance.WARP_UNIFORM:
            return start + sym.unknown(f"{name} steps", moved.variance)
        variance = max(_join_variance(start), _join_variance(step))
        return sym.unknown(name, Variance.DATA if variance is Variance.THREAD else variance)
    return _opaque(name, start)


_LAUNCH_CONSTANTS = frozenset((AtomKind.PARAMETER, AtomKind.BLOCK_DIM, AtomKind.GRID_DIM, AtomKind.BLOCK_INDEX))


def _moved_by(value: Sym, start: Sym) -> Sym | None:
    """How far ``value`` is from ``start`` when it is ``start`` plus amounts free of it, also
    through selects (``c ? start + n : start`` is ``start`` moved by ``c ? n : 0``); None
    when ``value`` is some other function of ``start``."""
    if not start.terms:
        return None
    # Launch constants (a row stride `K`, blockDim) may appear on both sides: `p + 8 * K`
    # from a start `(lane / 4) * K` still moves it by an amount free of where it started.
    start_atoms = {atom for atom in start.atoms() if atom.kind not in _LAUNCH_CONSTANTS}
    difference = value - start
    if not start_atoms & set(difference.atoms()):
        return difference
    selects = [
        (monomial, coefficient)
        for monomial, coefficient in value.terms
        if len(monomial) == 1 and monomial[0].kind is AtomKind.OPERATION and monomial[0].name == "select"
    ]
    if len(selects) != 1 or selects[0][1] != 1:
        return None
    ((select,), _) = selects[0]
    rest = value - Sym.atom(select)
    if start_atoms & set(rest.atoms()) or start_atoms & set(select.args[0].atoms()):
        return None
    then, otherwise = (_moved_by(branch, start) for branch in select.args[1:])
    if then is None or otherwise is None:
        return None
    return sym.operation("select", select.args[0], then, otherwise) + rest


def _shifted(start: Value, value: Value, name: str) -> Value | None:
    """``start`` moved by an unknown amount the same across each warp, when ``value`` is
    ``start`` moved by such an amount (a variable or pointer a loop stepped by uniform
    amounts, its trips uniform too): the lanes keep their spacing; None otherwise."""
    if isinstance(start, Pointer) and isinstance(value, Pointer):
        if (start.space, start.base) != (value.space, value.base):
            return None
        moved = _shifted(start.offset, value.offset, name)
        return None if moved is None else Pointer(start.space, start.base, moved, value.pointee)
    if not isinstance(start, Sym) or not isinstance(value, Sym):
        return None
    if start.constant is not None:
        return None  # No lanes' spacing to keep.
    moved = _moved_by(value, start)
    if moved is None or moved.variance > Variance.WARP_UNIFORM:
        return None
    return start if moved.constant == 0 else start + sym.unknown(f"{name} steps", moved.variance)


def _update(expr: ir.Expr) -> tuple[str, str, ir.Expr | None] | None:
    """``(variable, operator, amount)`` of an update statement (``i += s``, ``++i``,
    ``s = s * 2``, ``s >>= 1``); the amount is None for ``++``/``--``."""
    target = expr.children[0] if expr.children else None
    if target is None or target.kind is not ir.ExprKind.DECL_REF or not target.decl:
        return None
    if expr.kind is ir.ExprKind.UNARY and expr.op in ("++", "post++", "--", "post--"):
        return target.decl, "+" if "++" in expr.op else "-", None
    if expr.kind is not ir.ExprKind.ASSIGN or len(expr.children) != 2:
        return None
    rhs = expr.children[1]
    if expr.op in ("+=", "-=", "*=", "/=", "<<=", ">>="):
        return target.decl, expr.op[:-1], rhs
    while rhs.kind is ir.ExprKind.CAST and rhs.children:
        rhs = rhs.children[0]
    if expr.op != "=" or rhs.kind is not ir.ExprKind.BINARY or rhs.op not in ("+", "-", "*", "/", "<<", ">>"):
        return None
    left, right = rhs.children
    if _refers_to(left, target.decl):
        return target.decl, rhs.op, right
    if rhs.op in ("+", "*") and _refers_to(right, target.decl):
        return target.decl, rhs.op, left
    return None


_INVARIANT_KINDS = frozenset(
    (
        ir.ExprKind.INT_LITERAL,
        ir.ExprKind.BOOL_LITERAL,
        ir.ExprKind.CHAR_LITERAL,
        ir.ExprKind.DECL_REF,
        ir.ExprKind.BUILTIN_INDEX,
        ir.ExprKind.BINARY,
        ir.ExprKind.CAST,
        ir.ExprKind.SIZEOF,
        ir.ExprKind.CONDITIONAL,
    )
)


def _invariant(amount: ir.Expr | None, assigned: dict[str, str]) -> bool:
    """An update amount that is the same on every trip: literals, builtins and variables
    the loop does not assign, combined without calls or memory reads."""
    if amount is None:
        return True
    for node in amount.walk():
        if node.kind not in _INVARIANT_KINDS and not (node.kind is ir.ExprKind.UNARY and node.op in ("-", "~", "!")):
            return False
        if node.kind is ir.ExprKind.DECL_REF and node.decl in assigned:
            return False
    return True


def _top_level_statements(loop: ir.Stmt) -> list[ir.Stmt]:
    """The statements every trip of ``loop`` runs in order: its body's, outside any branch."""
    statements: list[ir.Stmt] = []
    pending = list(loop.body)
    while pending:
        stmt = pending.pop(0)
        if stmt.kind is ir.StmtKind.COMPOUND:
            pending[:0] = stmt.body
        else:
            statements.append(stmt)
    return statements


def _leaves_early(loop: ir.Stmt) -> bool:
    """Whether the loop can end before its condition fails (``break``, ``return``, ``goto``)."""
    pending = list(loop.body)
    while pending:
        stmt = pending.pop()
        if stmt.kind in (ir.StmtKind.RETURN, ir.StmtKind.GOTO, ir.StmtKind.BREAK):
            return True
        if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO, ir.StmtKind.SWITCH):
            # Their breaks are their own; a return inside still leaves this loop.
            pending.extend(node for node in stmt.walk() if node.kind in (ir.StmtKind.RETURN, ir.StmtKind.GOTO))
            continue
        pending.extend(stmt.body)
        if stmt.orelse is not None:
            pending.append(stmt.orelse)
    return False


def _continues(loop: ir.Stmt) -> bool:
    """Whether a ``continue`` of this loop (not of a nested one) can skip part of its body."""
    pending = list(loop.body)
    while pending:
        stmt = pending.pop()
        if stmt.kind is ir.StmtKind.CONTINUE:
            return True
        if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
            continue
        pending.extend(stmt.body)
        if stmt.orelse is not None:
            pending.append(stmt.orelse)
    return False


def _writes(loop: ir.Stmt):
    """(declaration, name) of every variable written in the loop's header step and body."""
    expressions = []
    for stmt in loop.walk():  # The loop's own expressions (condition, step) come with it.
        if stmt is loop.init:
            continue
        expressions.extend(stmt.expressions())
    for expr in expressions:
        for node in expr.walk():
            if node.kind is ir.ExprKind.ASSIGN or (
                node.kind is ir.ExprKind.UNARY and node.op in ("++", "--", "post++", "post--")
            ):
                target = node.children[0] if node.children else None
                if target is not None and target.kind is ir.ExprKind.DECL_REF and target.decl:
                    yield target.decl, target.name or "variable"


def _assigned_variables(loop: ir.Stmt) -> dict[str, str]:
    """Variables a loop writes (its header and body), in order of first write, with their names."""
    found: dict[str, str] = {}
    for decl, name in _writes(loop):
        found.setdefault(decl, name)
    return found


def _write_counts(loop: ir.Stmt) -> dict[str, int]:
    counts: dict[str, int] = {}
    for decl, _ in _writes(loop):
        counts[decl] = counts.get(decl, 0) + 1
    return counts


def _copied(expr: ir.Expr) -> ir.Expr:
    """What a struct argument copies: ``args`` in ``f(args)``, under the copy constructor."""
    while expr.children and (
        expr.kind is ir.ExprKind.CAST
        or (
            expr.kind is ir.ExprKind.CALL
            and expr.op == "construct"
            and len(expr.children) == 1
            and expr.children[0].type.record == expr.type.record
        )
    ):
        expr = expr.children[0]
    return expr


def _refers_to(expr: ir.Expr, decl: str) -> bool:
    return (
        expr.kind is ir.ExprKind.DECL_REF
        and expr.decl == decl
        or (expr.kind is ir.ExprKind.CAST and bool(expr.children) and _refers_to(expr.children[0], decl))
    )


_ABORTING_CALLS = frozenset(
    (
        "__assert_fail",
        "__assertfail",
        "__assert_rtn",
        "_wassert",
        "abort",
        "exit",
        "_Exit",
        "quick_exit",
        "__trap",
        "__builtin_trap",
        "__builtin_unreachable",
    )
)
"""What ``assert`` and abort paths call: the C library's assertion handlers (glibc,
CUDA's device ``assert``, macOS, MSVC), exits and traps."""


def _aborts(node: ir.Expr | ir.Stmt | None) -> bool:
    """A call that never returns: an assertion handler, an exit or trap, a function declared
    ``[[noreturn]]``; with what the comma operator evaluates before it."""
    if isinstance(node, ir.Stmt):
        node = node.expr if node.kind is ir.StmtKind.EXPR else None
    node = _uncast(node) if node is not None else None
    if node is None:
        return False
    if node.kind is ir.ExprKind.BINARY and node.op == ",":
        return _aborts(node.children[-1]) or _aborts(node.children[0])
    return node.kind is ir.ExprKind.CALL and (
        node.op == "noreturn" or (node.name or "").removeprefix("std::").removeprefix("::") in _ABORTING_CALLS
    )


def _flattened(body: tuple[ir.Stmt, ...]) -> list[ir.Stmt]:
    """The statements of a body, compound statements opened."""
    found = []
    for stmt in body:
        found += _flattened(stmt.body) if stmt.kind is ir.StmtKind.COMPOUND else [stmt]
    return found


def _last_statement(stmt: ir.Stmt) -> ir.Stmt:
    while stmt.kind is ir.StmtKind.COMPOUND and stmt.body:
        stmt = stmt.body[-1]
    return stmt


def _uncast(expr: ir.Expr) -> ir.Expr:
    while expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    return expr


def exits_early(stmt: ir.Stmt) -> bool:
    """``if (c) return;`` without an else: the rest of the block runs only where c is false."""
    if stmt.kind is not ir.StmtKind.IF or stmt.orelse is not None or not stmt.body:
        return False
    branch = stmt.body[0]
    last = branch.body[-1] if branch.kind is ir.StmtKind.COMPOUND and branch.body else branch
    return last.kind is ir.StmtKind.RETURN


def _size(function: ir.Function) -> int:
    """Statements and expressions in the function's body."""
    if function.body is None:
        return 0
    return sum(1 + sum(1 for expr in stmt.expressions() for _ in expr.walk()) for stmt in function.body.walk())


def _calls(function: ir.Function) -> list[str]:
    if function.body is None:
        return []
    return [
        node.decl
        for stmt in function.body.walk()
        for expr in stmt.expressions()
        for node in expr.walk()
        if node.kind is ir.ExprKind.CALL and node.decl
    ]


def _budget(function: ir.Function, functions: dict[str, ir.Function]) -> int:
    """Steps an entry point may take: proportional to the code it runs, each helper counted
    once per call site it is inlined at."""
    memo: dict[tuple[str, int], int] = {}

    def inlined_size(current: ir.Function, depth: int, stack: tuple[str, ...]) -> int:
        key = (current.decl, depth)
        if key not in memo:
            total = _size(current)
            if depth < MAX_INLINE_DEPTH:
                for decl in _calls(current):
                    callee = functions.get(decl)
                    if callee is not None and callee.kind.runs_on_device and decl not in stack:
                        total += inlined_size(callee, depth + 1, (*stack, decl))
                        if total > MAX_BUDGET:
                            break
            memo[key] = total
        return memo[key]

    return max(MIN_BUDGET, min(MAX_BUDGET, STEPS_PER_NODE * inlined_size(function, 0, (function.decl,))))


def static_trips(
    stmt: ir.Stmt,
    condition: Sym,
    counter: Atom,
    geometric: bool,
    shape: BlockShape,
    bindings: Mapping[str, int] | None = None,
) -> int | None:
    """The trip count of a ``for`` or ``while`` whose condition involves only constants,
    the block's (and a known grid's) dimensions, the trip counter and the parameters in
    ``bindings``: looked for up to ``MAX_STATIC_TRIPS`` trips when a variable doubles or
    halves (each trip counts), else up to the trips the evaluators sample anyway."""
    if stmt.kind is ir.StmtKind.DO or stmt.cond is None:
        return None
    for trip in range(MAX_STATIC_TRIPS + 1 if geometric else SAMPLE_ROUNDS + 1):
        value = uniform_value(condition, shape, {counter: trip}, bindings)
        if value is None:
            return None
        if value == 0:
            return trip
    return None


def trace_kernel(tu: ir.TranslationUnit, function: ir.Function, shape: BlockShape = ASSUMED_SHAPE) -> KernelTrace:
    return Interpreter(tu, function, shape).run()
