"""The facts the interpreter derives from one kernel: what rules, figures and the
``facts`` command read.

Every memory access with its per-thread address (``Access``), every branch with its
condition (``Branch``), every barrier with its scope (``Barrier``), every loop run
(``LoopRun``), gathered per kernel in a ``KernelTrace``; the values they hold are
``symbolic.Sym`` expressions over the thread index, or the pointer and memory kinds below.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.dataflow import ptx
from cudalint.dataflow.symbolic import Atom, Sym, Variance


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
    stored_value: ir.Expr | None = None
    """For a store made by an assignment: the value assigned."""

    @property
    def span(self) -> ir.Span:
        return self.expr.span

    @property
    def instruction_line(self) -> int:
        """The line nvcc's line table gives the access's instruction, the line Nsight
        Compute's source view counts it on. For an access written over several lines:
        where its address closes (a subscript's ``]``, the end of ``*``'s operand; a
        ``.field`` of an element takes the element's line), except that a whole struct or
        vector stored from a variable takes the variable's line."""
        value = self.stored_value
        if (
            value is not None
            and self.kind is AccessKind.STORE
            and self.type.kind is ir.TypeKind.RECORD
            and value.unconverted.kind is ir.ExprKind.DECL_REF
        ):
            return value.span.end_line
        return _address_line(self.expr)

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
    entry, a prefix sum of the lanes' counts): each lane walks its own range."""
    lane_steps: frozenset[Atom] = frozenset()
    """For a counter each lane moves forward on the trips it chooses (``if (keep)
    out[from++] = x;``): the unknown number of steps it has taken, added to its start."""


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

    def fed_by_loads(self, value: Sym, lane_addresses_only: bool = True) -> bool:
        """Whether data a thread loaded flows into ``value`` (following what was computed from
        it), rather than only thread coordinates combined in ways the analysis does not follow;
        with ``lane_addresses_only``, only data loaded at an address that differs between lanes."""
        pending = [atom.key for atom in value.atoms() if atom.key]
        seen: set[int] = set()
        while pending:
            key = pending.pop()
            if key in seen:
                continue
            seen.add(key)
            origin = self.origins.get(key)
            if origin is not None and origin.loaded and (origin.variance is Variance.DATA or not lane_addresses_only):
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


def _address_line(expr: ir.Expr) -> int:
    if expr.kind is ir.ExprKind.MEMBER and expr.op == "." and expr.children:
        return _address_line(expr.children[0])
    if expr.kind in (ir.ExprKind.SUBSCRIPT, ir.ExprKind.MEMBER) or (expr.kind is ir.ExprKind.UNARY and expr.op == "*"):
        return expr.span.end_line
    return expr.span.line
