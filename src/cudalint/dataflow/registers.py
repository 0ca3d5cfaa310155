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

import enum
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.dataflow.interpret import Access, KernelTrace, LoopRun, MemorySpace
from cudalint.dataflow.symbolic import Atom, AtomKind

REGISTERS_PER_SM = 65536
MAX_REGISTERS_PER_THREAD = 255
WARP_ALLOCATION_UNIT = 256
"""Registers are given to a warp in blocks of 256: 8 per thread."""
THREAD_OVERHEAD = 8
"""Registers a kernel needs besides its arrays and loop-carried values (thread index,
addresses, loop counter): ptxas gives a kernel holding an unrolled ``float a[N]`` about N + 8."""
UNROLL_BUDGET = 1550
"""Unrolled size (trip count times body operations, as counted by ``_body_cost``) up to
which nvcc fully unrolls a loop with a constant trip count and no pragma."""
MAX_TRIP_COUNT = 4096
MAX_RECORD_NESTING = 8
"""Structs inside structs followed when looking for an array member."""


@dataclass(frozen=True)
class ArchLimits:
    max_warps: int
    max_blocks: int

    @property
    def max_threads(self) -> int:
        return self.max_warps * 32


# Per-SM residency limits by compute capability (CUDA Programming Guide, table of
# technical specifications); newer architectures use the closest older entry.
_ARCH_LIMITS = {
    70: ArchLimits(64, 32), 75: ArchLimits(32, 16), 80: ArchLimits(64, 32), 86: ArchLimits(48, 16),
    87: ArchLimits(48, 16), 89: ArchLimits(48, 24), 90: ArchLimits(64, 32), 100: ArchLimits(64, 32),
    120: ArchLimits(48, 32),
}


def arch_limits(arch: int) -> ArchLimits:
    known = [a for a in _ARCH_LIMITS if a <= arch]
    return _ARCH_LIMITS[max(known)] if known else _ARCH_LIMITS[min(_ARCH_LIMITS)]


def _round_down_to_allocation(registers: float) -> int:
    step = WARP_ALLOCATION_UNIT // 32
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
        limits = arch_limits(arch)
        warps = math.ceil(bounds.max_threads / 32)
        blocks = bounds.min_blocks or 1
        if blocks > limits.max_blocks or warps * blocks > limits.max_warps:
            blocks = 1
        cap = _round_down_to_allocation(REGISTERS_PER_SM / (warps * blocks) / 32)
        text = bounds.text or ", ".join(str(v) for v in (bounds.max_threads, bounds.min_blocks) if v)
        return RegisterBudget(min(cap, MAX_REGISTERS_PER_THREAD), f"__launch_bounds__({text})")
    if function.max_registers:
        return RegisterBudget(min(function.max_registers, MAX_REGISTERS_PER_THREAD), f"__maxnreg__({function.max_registers})")
    if max_registers:
        return RegisterBudget(min(max_registers, MAX_REGISTERS_PER_THREAD), f"-maxrregcount={max_registers}")
    return RegisterBudget(MAX_REGISTERS_PER_THREAD, "the hardware limit", explicit=False)


@dataclass(frozen=True)
class Occupancy:
    warps: int
    """Resident warps per SM."""
    max_warps: int
    limited_by_registers: bool

    @property
    def percent(self) -> int:
        return round(100 * self.warps / self.max_warps)


def occupancy(registers: int, block_threads: int | None, arch: int) -> Occupancy:
    """Resident warps per SM with ``registers`` per thread (shared memory not considered).
    Without a known block size, warps are counted one by one."""
    limits = arch_limits(arch)
    per_warp = math.ceil(max(registers, 1) * 32 / WARP_ALLOCATION_UNIT) * WARP_ALLOCATION_UNIT
    if not block_threads:
        warps = min(REGISTERS_PER_SM // per_warp, limits.max_warps)
        return Occupancy(warps, limits.max_warps, warps < limits.max_warps)
    block_warps = math.ceil(block_threads / 32)
    by_registers = REGISTERS_PER_SM // (per_warp * block_warps)
    by_other_limits = min(limits.max_warps // block_warps, limits.max_blocks)
    blocks = min(by_registers, by_other_limits)
    return Occupancy(blocks * block_warps, limits.max_warps, by_registers < by_other_limits)


# ---------------------------------------------------------------------------- unrolling


class UnrollReason(enum.Enum):
    UNROLLED = "unrolled"
    PRAGMA_ONE = "`#pragma unroll 1` keeps it rolled"
    TRIP_NOT_CONSTANT = "its trip count is not a compile-time constant"
    TOO_LARGE = "it is too large for the compiler to unroll fully"


# Operation counts of CUDA math functions once inlined, for the unrolling model: the
# precise trigonometric functions carry a long slow path, intrinsics are one instruction.
_HEAVY_CALLS = frozenset((
    "sinf", "cosf", "tanf", "sincosf", "powf", "sin", "cos", "tan", "sincos", "pow", "exp", "log", "erfinvf",
    "acosf", "asinf", "atan2f", "lgammaf", "tgammaf",
))
_MODERATE_CALLS = frozenset((
    "expf", "exp2f", "exp10f", "logf", "log2f", "log10f", "log1pf", "expm1f", "tanhf", "sinhf", "coshf",
    "erff", "erfcf", "atanf", "cbrtf", "sqrt", "fmod", "fmodf", "hypotf", "normcdff",
))
HEAVY_CALL_COST = 40
MODERATE_CALL_COST = 10
CHEAP_CALL_COST = 2


@dataclass
class UnrollModel:
    """Which loops of one kernel the compiler unrolls fully, and how many trips they make."""

    loops: dict[Atom, LoopRun]
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
        counts = [self._trips(run, dict(zip(outer, values))) for values in itertools.islice(
            itertools.product(*ranges), MAX_TRIP_COUNT)]
        return None if not counts or None in counts else max(counts)

    def _trips(self, run: LoopRun, fixed: dict[Atom, int]) -> int | None:
        for trips in range(MAX_TRIP_COUNT + 1):
            value = run.condition.evaluate(lambda atom: trips if atom == run.iteration else fixed.get(atom))
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
            return UnrollReason.TRIP_NOT_CONSTANT
        if unroll is not None and unroll.full:
            return UnrollReason.UNROLLED
        return UnrollReason.UNROLLED if trips * self._body_cost(run.stmt) <= UNROLL_BUDGET else UnrollReason.TOO_LARGE

    def _body_cost(self, loop: ir.Stmt) -> int:
        cost = sum(_expression_cost(expr) for expr in (loop.cond, loop.step) if expr is not None)
        for child in loop.body:
            cost += self._statement_cost(child)
        return cost

    def _statement_cost(self, stmt: ir.Stmt) -> int:
        if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
            run = next((r for r in self.loops.values() if r.stmt is stmt), None)
            trips = self.trip_count(run) if run is not None else None
            inner = self._body_cost(stmt)
            return inner * trips if trips is not None and self.verdict(run) is UnrollReason.UNROLLED else inner
        cost = sum(_expression_cost(expr) for expr in stmt.expressions())
        for child in (*stmt.body, stmt.init, stmt.orelse):
            if child is not None:
                cost += self._statement_cost(child)
        return cost


def _expression_cost(expr: ir.Expr) -> int:
    cost = 0
    for node in expr.walk():
        if node.kind is ir.ExprKind.CALL:
            name = (node.name or "").removeprefix("std::").removeprefix("::")
            cost += HEAVY_CALL_COST if name in _HEAVY_CALLS else MODERATE_CALL_COST if name in _MODERATE_CALLS else CHEAP_CALL_COST
        elif node.kind in (ir.ExprKind.BINARY, ir.ExprKind.UNARY, ir.ExprKind.ASSIGN, ir.ExprKind.SUBSCRIPT,
                           ir.ExprKind.CONDITIONAL, ir.ExprKind.MEMBER):
            cost += 1
    return cost


# ---------------------------------------------------------------------------- local arrays


@dataclass(frozen=True)
class DynamicIndex:
    """Why an access's index is not a constant once loops are unrolled."""

    access: Access
    reason: str
    repeated: bool
    """Inside a loop that stays rolled: the access runs again and again with a run-time
    index. A lone dynamic access to a small array is often turned into selects instead."""


@dataclass(frozen=True)
class LocalArray:
    var: ir.VarDecl
    accesses: tuple[Access, ...]
    dynamic: tuple[DynamicIndex, ...]
    """Accesses whose index stays a run-time value: they put the array in local memory."""

    @property
    def bytes(self) -> int:
        return self.var.type.size or 0

    @property
    def words(self) -> int:
        return math.ceil(self.bytes / 4)

    @property
    def in_local_memory(self) -> bool:
        """Predicted from the source: indexed at run time over and over."""
        return any(d.repeated for d in self.dynamic)

    @property
    def declaration(self) -> str:
        """As declared: ``float acc[8][8]``."""
        element = self.var.type
        while element.pointee is not None and element.kind is ir.TypeKind.ARRAY:
            element = element.pointee
        return f"{element.spelling} {self.var.name}" + "".join(f"[{n}]" for n in _dimensions(self.var.type))

    @property
    def unrolled_access(self) -> Access | None:
        """The first access whose index is a constant only because its loop is predicted to unroll."""
        return next((access for access in self.accesses
                     if any(a.kind is AtomKind.ITERATION for a in access.location.offset.atoms())), None)


def local_arrays(trace: KernelTrace, model: UnrollModel) -> list[LocalArray]:
    by_array: dict[str, list[Access]] = {}
    for access in trace.accesses:
        if access.space is MemorySpace.LOCAL and access.location.base in trace.local_arrays:
            by_array.setdefault(access.location.base, []).append(access)
    arrays = []
    for name, var in trace.local_arrays.items():
        if var.type.size is None:
            continue
        accesses = by_array.get(name, [])
        dynamic = [d for d in (_dynamic_index(access, model, trace.function) for access in accesses)
                   if d is not None]
        arrays.append(LocalArray(var, tuple(accesses), tuple(dynamic)))
    return arrays


def _dynamic_index(access: Access, model: UnrollModel, function: ir.Function) -> DynamicIndex | None:
    """Why the access's index is not a constant once loops unroll; None when it is. A
    template's constant parameters are constants to the compiler, like literals."""
    rolled = [run for run in model.loops.values() if run.stmt in access.loops and model.verdict(run) is not UnrollReason.UNROLLED]
    reason = None
    for atom in access.location.offset.atoms():
        if atom.kind is AtomKind.OPERATION:
            continue  # Its arguments' atoms come next.
        if atom.kind is AtomKind.ITERATION:
            run = model.loops.get(atom)
            verdict = model.verdict(run) if run is not None else UnrollReason.TRIP_NOT_CONSTANT
            if verdict is not UnrollReason.UNROLLED:
                reason = f"the counter of a loop that stays rolled ({verdict.value})"
                break
        elif atom.kind is AtomKind.THREAD_INDEX:
            reason = "a value computed from the thread index"
            break
        elif atom.kind is AtomKind.PARAMETER:
            if atom.name in function.template_parameters:
                continue
            named = any(p.name == atom.name for p in function.params)
            reason = f"the parameter `{atom.name}`, known only at run time" if named else \
                "a value known only at run time"
            break
        elif atom.kind in (AtomKind.VARYING, AtomKind.WARP_UNIFORM, AtomKind.UNIFORM):
            reason = "a value loaded or computed at run time"
            break
        else:
            reason = "a value that depends on the launch (block or grid index or size)"
            break
    return DynamicIndex(access, reason, bool(rolled)) if reason is not None else None


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


def estimate_registers(function: ir.Function, model: UnrollModel, arrays: Iterable[LocalArray],
                       records: Mapping[str, ir.Record]) -> RegisterEstimate:
    """Registers one thread needs at its busiest: the arrays kept in registers, the structs
    that hold arrays (wmma fragments), the values carried across the loops that stay rolled,
    and a fixed overhead. Arrays and structs are counted as live together (they usually
    are, around the main loop)."""
    contributors = [Contributor(a.declaration, a.words) for a in arrays if not a.in_local_memory and a.words]
    aggregates = _array_holders(function, records)
    contributors += [Contributor(f"{var.type.spelling} {var.name}", _words(var.type)) for var in aggregates]
    rolled = [run.stmt for run in model.loops.values() if model.verdict(run) is not UnrollReason.UNROLLED]
    carried = _carried_values(function, rolled, {var.decl for var in aggregates})
    if carried:
        names = ", ".join(name for name, _ in carried[:4]) + (", ..." if len(carried) > 4 else "")
        contributors.append(Contributor(f"values live across loops ({names})", sum(words for _, words in carried)))
    contributors.sort(key=lambda c: -c.registers)
    return RegisterEstimate(THREAD_OVERHEAD + sum(c.registers for c in contributors), tuple(contributors))


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
    return [var for stmt in function.body.walk() for var in stmt.decls
            if var.storage is ir.StorageClass.LOCAL and var.type.kind is ir.TypeKind.RECORD
            and _holds_array(records.get(var.type.record or ""), records)]


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
            if var is None or var.decl in local or var.decl in carried or var.decl in counted \
                    or var.type.kind is ir.TypeKind.ARRAY:
                continue
            if var.storage is ir.StorageClass.PARAMETER and var.type.kind is not ir.TypeKind.POINTER:
                continue
            carried[var.decl] = (var.name, _words(var.type))
    return list(carried.values())
