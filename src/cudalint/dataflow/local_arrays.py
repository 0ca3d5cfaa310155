"""Where each per-thread array lives (``Placement``): in registers when every index is a
constant once the loops over them are unrolled (``unrolling.py``), in predicated selects
between registers when ptxas can afford them, else in local memory; once one array or the
math library's argument reduction (``math_library_stack``) is in local memory, every array
indexed at run time is.

Calibrated against ptxas (nvcc 13, sm_90); the exact figures come from ``--ptxas``
(``cudalint.ptxas``).
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow.facts import Access, AccessKind, KernelTrace, LoopRun, MemorySpace
from cudalint.dataflow.symbolic import OPERATORS, Atom, AtomKind, Sym, operation
from cudalint.dataflow.unrolling import UnrollModel, UnrollReason

MAX_RECORD_NESTING = 8
"""Structs inside structs followed when looking for an array member."""


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
            f"[{n}]" for n in array_dimensions(self.var.type)
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


def array_dimensions(ctype: ir.CType) -> list[int]:
    """The element counts of an array type, outermost first (``float a[4][8]``: 4, 8)."""
    counts = []
    while ctype is not None and ctype.kind is ir.TypeKind.ARRAY:
        counts.append(ctype.count or 0)
        ctype = ctype.pointee
    return counts
