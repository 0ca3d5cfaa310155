"""Symbolic execution of one kernel: every memory access with its per-thread address,
every branch with its condition, every barrier.

The kernel body is run once over symbolic values (``symbolic.Sym``). Branches run
both ways and merge their variables with a ``select`` on the condition, so values
stay exact per lane; loops bind their induction variable to ``init + step * iteration``
(or a shift of it) and run their body once more with that binding; ``__device__``
helpers are inlined with their arguments, to a bounded depth.
"""

from __future__ import annotations

import enum
import itertools
import re
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.symbolic import Atom, Sym, Variance
from cudalint.dataflow.threads import ASSUMED_SHAPE, BlockShape, refine_variance

MAX_INLINE_DEPTH = 4

_WARP_UNIFORM_INTRINSICS = frozenset(
    ("__ballot_sync", "__all_sync", "__any_sync", "__activemask", "__ballot", "__all", "__any",
     "__match_any_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
     "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync")
)
_VARYING_INTRINSICS = frozenset(
    ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__shfl", "__shfl_up",
     "__shfl_down", "__shfl_xor", "clock", "clock64", "__lanemask_lt", "curand", "curand_uniform")
)
_BARRIERS = frozenset(
    ("__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__barrier_sync")
)
# cooperative_groups types whose sync() only waits for the lanes of a warp.
_WARP_GROUPS = ("thread_block_tile", "tiled_partition", "coalesced_group")
# Inline PTX block barriers: `bar.sync`, `barrier.sync` (with or without `.aligned`).
_ASM_BARRIER = re.compile(r"\b(?:bar|barrier)(?:\.cta)?\.sync\b")
_VOID = ir.CType(ir.TypeKind.VOID, "void")
_LOADS = frozenset(("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"))
_STORES = frozenset(("__stcg", "__stcs", "__stwb", "__stwt"))
_NAMED_CONSTANTS = frozenset((ir.ExprKind.DECL_REF, ir.ExprKind.MEMBER, ir.ExprKind.CALL))
_MIN_MAX = {"min": "min", "max": "max", "umin": "min", "umax": "max", "llmin": "min", "llmax": "max",
            "std::min": "min", "std::max": "max"}


class MemorySpace(enum.Enum):
    GLOBAL = "global"
    SHARED = "shared"
    LOCAL = "local"
    CONSTANT = "constant"
    UNKNOWN = "generic"


class AccessKind(enum.Enum):
    LOAD = "load"
    STORE = "store"
    ATOMIC = "atomic"


@dataclass(frozen=True)
class Pointer:
    """Where a pointer points: a named allocation and a symbolic byte offset into it."""

    space: MemorySpace
    base: str
    offset: Sym
    pointee: ir.CType | None


@dataclass(frozen=True)
class Reference:
    """A C++ reference bound to memory: reading it is a load."""

    location: Pointer


Value = Sym | Pointer | Reference


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


@dataclass(frozen=True)
class LoopRun:
    """A loop as the interpreter ran it: its trip counter and the condition in terms of it."""

    stmt: ir.Stmt
    iteration: Atom
    condition: Sym


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


def _uniform_unknown(name: str) -> Sym:
    return sym.unknown(name, Variance.UNIFORM)


def _join_variance(*values: Value) -> Variance:
    worst = Variance.UNIFORM
    for value in values:
        if isinstance(value, Sym):
            worst = max(worst, value.variance)
        elif isinstance(value, Pointer):
            worst = max(worst, value.offset.variance)
    return worst


def _opaque(name: str, *inputs: Value) -> Sym:
    """A value computed from ``inputs`` in a way we do not model (floating point, calls)."""
    variance = _join_variance(*inputs)
    if variance is Variance.THREAD:
        variance = Variance.DATA
    return sym.unknown(name, variance)


class Interpreter:
    def __init__(self, tu: ir.TranslationUnit, function: ir.Function, shape: BlockShape = ASSUMED_SHAPE):
        self.tu = tu
        self.function = function
        self.shape = shape
        """The block shape: it decides whether a load's address is the same across a warp."""
        self.trace = KernelTrace(function)
        self.functions = {f.decl: f for f in tu.functions if f.body is not None}
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
        self._iteration_keys = itertools.count(1)
        self._returns: list[list[Value]] = []

    # ------------------------------------------------------------------ entry

    def run(self) -> KernelTrace:
        for param in self.function.params:
            self.env[param.decl] = self._parameter_value(param)
        if self.function.body is not None:
            self._block(self.function.body)
        return self.trace

    def _parameter_value(self, param: ir.VarDecl) -> Value:
        kind = param.type.kind
        if kind is ir.TypeKind.POINTER:
            return Pointer(MemorySpace.GLOBAL, param.name, sym.ZERO, param.type.pointee)
        if kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM):
            return sym.parameter(param.name)
        return _uniform_unknown(param.name)

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
        del self.guards[len(self.guards) - pushed:]

    def _stmt(self, stmt: ir.Stmt) -> Sym | None:
        """Runs one statement; returns an ``if``'s condition, for early-exit tracking."""
        if not self.call_stack:
            self.statement = stmt
        kind = stmt.kind
        if kind is ir.StmtKind.COMPOUND:
            self._block(stmt)
        elif kind is ir.StmtKind.EXPR:
            self._expr(stmt.expr)
        elif kind is ir.StmtKind.DECL:
            for var in stmt.decls:
                self._declare(var)
        elif kind is ir.StmtKind.IF:
            return self._if(stmt)
        elif kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
            self._loop(stmt)
        elif kind is ir.StmtKind.SWITCH:
            self._switch(stmt)
        elif kind is ir.StmtKind.ASM and _ASM_BARRIER.search(stmt.label or "") and self.recording:
            marker = ir.Expr(ir.ExprKind.UNKNOWN, _VOID, stmt.span, name="bar.sync")
            self.trace.barriers.append(Barrier(marker, "bar.sync", tuple(self.guards), tuple(self.loops), self.statement,
                                               tuple(self.call_names)))
        elif kind is ir.StmtKind.RETURN:
            value = self._expr(stmt.expr) if stmt.expr is not None else None
            if self._returns and value is not None:
                self._returns[-1].append(value)
        elif kind in (ir.StmtKind.CASE, ir.StmtKind.DEFAULT, ir.StmtKind.LABEL, ir.StmtKind.UNKNOWN):
            if stmt.expr is not None:
                self._expr(stmt.expr)
            for child in stmt.body:
                self._stmt(child)
        return None

    def _declare(self, var: ir.VarDecl) -> None:
        if var.type.kind is ir.TypeKind.ARRAY:
            space = {
                ir.StorageClass.SHARED: MemorySpace.SHARED,
                ir.StorageClass.CONSTANT: MemorySpace.CONSTANT,
                ir.StorageClass.DEVICE: MemorySpace.GLOBAL,
            }.get(var.storage, MemorySpace.LOCAL)
            if space is MemorySpace.LOCAL and self.recording:
                self.trace.local_arrays.setdefault(var.name, var)
            self.env[var.decl] = Pointer(space, var.name, sym.ZERO, var.type.pointee)
            if var.init is not None:
                self._expr(var.init)
            return
        if var.type.kind is ir.TypeKind.REFERENCE and var.init is not None:
            location = self._location(var.init)
            if location is not None:
                self.env[var.decl] = Reference(location)
                return
        if var.init is None:
            self.env[var.decl] = _uniform_unknown(var.name) if var.type.kind is not ir.TypeKind.POINTER else Pointer(
                MemorySpace.UNKNOWN, var.name, sym.ZERO, var.type.pointee)
            return
        self.env[var.decl] = self._convert(self._expr(var.init), var.type)

    def _branch(self, stmt: ir.Stmt, condition: Sym) -> None:
        if self.recording:
            self.trace.branches.append(
                Branch(stmt, condition, tuple(self.guards), tuple(self.loops), tuple(self.call_names))
            )

    def _if(self, stmt: ir.Stmt) -> Sym:
        if stmt.init is not None:
            self._stmt(stmt.init)
        condition = self._int(self._expr(stmt.cond)) if stmt.cond is not None else _uniform_unknown("cond")
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
        self.env = _merge(condition, after_then, self.env)
        return condition

    def _switch(self, stmt: ir.Stmt) -> None:
        condition = self._int(self._expr(stmt.cond)) if stmt.cond is not None else _uniform_unknown("switch")
        self._branch(stmt, condition)
        before = dict(self.env)
        for child in stmt.body:
            self._stmt(child)
        # Which case ran depends on the value: variables assigned in any case take it in.
        self.env = _merge(condition, self.env, before)

    # ------------------------------------------------------------------ loops

    def _loop(self, stmt: ir.Stmt) -> None:
        if stmt.init is not None:
            self._stmt(stmt.init)
        assigned = _assigned_variables(stmt)
        key = next(self._iteration_keys)
        iteration = sym.iteration(f"L{stmt.span.line}", key)
        induction = self._induction(stmt, iteration)
        entry = dict(self.env)

        # First pass, not recorded: what does one trip do to the variables it assigns?
        recording, self.recording = self.recording, False
        placeholders = {decl: _uniform_unknown(f"carried{index}") for index, decl in enumerate(assigned)
                        if decl in self.env and decl not in induction and isinstance(self.env[decl], Sym)}
        self.env.update(placeholders)
        self.env.update(induction)
        self._loop_body(stmt)
        after_one_trip = self.env
        self.recording = recording

        self.env = dict(entry)
        self.env.update(induction)
        for decl, placeholder in placeholders.items():
            self.env[decl] = _closed_form(entry[decl], placeholder, after_one_trip.get(decl), iteration)
        self.loops.append(stmt)
        condition = self._int(self._expr(stmt.cond)) if stmt.cond is not None else Sym.const(1)
        self._branch(stmt, condition)
        if self.recording:
            counter = next(iter(iteration.atoms()))
            self.trace.loops[counter] = LoopRun(stmt, counter, condition)
        self.guards.append(Guard(condition, True, stmt))
        self._loop_body(stmt)
        self.guards.pop()
        self.loops.pop()
        # After the loop, what it assigned depends on how many trips ran.
        exit_variance = _join_variance(condition)
        for decl in assigned:
            if decl in entry:
                value = self.env.get(decl, entry[decl])
                variance = max(exit_variance, _join_variance(value))
                self.env[decl] = value if isinstance(value, Pointer) and variance is Variance.UNIFORM else (
                    _opaque("after-loop", value) if variance > Variance.UNIFORM else _uniform_unknown("after-loop"))
        for decl in set(self.env) - set(entry):
            if decl in induction:
                self.env[decl] = sym.unknown("after-loop", max(exit_variance, _join_variance(induction[decl])))

    def _loop_body(self, stmt: ir.Stmt) -> None:
        for child in stmt.body:
            self._stmt(child)
        if stmt.step is not None:
            self._expr(stmt.step)
        if stmt.kind is ir.StmtKind.DO and stmt.cond is not None:
            self._expr(stmt.cond)

    def _induction(self, stmt: ir.Stmt, iteration: Sym) -> dict[str, Value]:
        """``i`` in ``for (...; ...; i += s)`` as a function of the iteration count."""
        if stmt.kind is not ir.StmtKind.FOR or stmt.step is None:
            return {}
        step = stmt.step
        target = step.children[0] if step.children else None
        if target is None or target.kind is not ir.ExprKind.DECL_REF or target.decl not in self.env:
            return {}
        start = self.env[target.decl]
        if not isinstance(start, Sym):
            return {}
        op = step.op
        if step.kind is ir.ExprKind.UNARY and op in ("++", "post++", "--", "post--"):
            sign = 1 if "++" in op else -1
            return {target.decl: start + iteration * sign}
        if step.kind is not ir.ExprKind.ASSIGN or len(step.children) != 2:
            return {}
        amount = self._expr(step.children[1]) if op != "=" else None
        if op == "=":
            rhs = step.children[1]
            if rhs.kind is ir.ExprKind.BINARY and rhs.op in ("+", "-") and _refers_to(rhs.children[0], target.decl):
                amount = self._expr(rhs.children[1])
                op = rhs.op + "="
            else:
                return {}
        if not isinstance(amount, Sym) or amount.variance > Variance.WARP_UNIFORM and op in ("<<=", ">>=", "*=", "/="):
            return {}
        if op == "+=":
            return {target.decl: start + amount * iteration}
        if op == "-=":
            return {target.decl: start - amount * iteration}
        if op in ("<<=", "*=") and (amount.constant == 1 and op == "<<=" or amount.constant == 2 and op == "*="):
            return {target.decl: sym.operation("<<", start, iteration)}
        if op in (">>=", "/=") and (amount.constant == 1 and op == ">>=" or amount.constant == 2 and op == "/="):
            return {target.decl: sym.operation(">>", start, iteration)}
        return {}

    # ------------------------------------------------------------------ expressions

    def _int(self, value: Value) -> Sym:
        if isinstance(value, Sym):
            return value
        if isinstance(value, Reference):
            return self._load_reference(value, None)
        return _opaque("pointer", value)

    def _convert(self, value: Value, target: ir.CType) -> Value:
        if target.kind is ir.TypeKind.POINTER and isinstance(value, Pointer):
            return Pointer(value.space, value.base, value.offset, target.pointee)
        if isinstance(value, Reference):
            return self._load_reference(value, None)
        if target.kind in (ir.TypeKind.FLOAT, ir.TypeKind.DOUBLE, ir.TypeKind.HALF) and isinstance(value, Sym):
            return value if value.constant is not None else _opaque("float", value)
        return value

    def _expr(self, expr: ir.Expr) -> Value:
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
        return _opaque(expr.kind.value, *inputs)

    def _int_literal(self, expr: ir.Expr) -> Value:
        return Sym.const(expr.value) if isinstance(expr.value, int) else _uniform_unknown("literal")

    def _bool_literal(self, expr: ir.Expr) -> Value:
        return Sym.const(1 if expr.value else 0)

    def _float_literal(self, expr: ir.Expr) -> Value:
        return _uniform_unknown("float-literal")

    _char_literal = _float_literal
    _string_literal = _float_literal
    _nullptr = _float_literal

    def _sizeof(self, expr: ir.Expr) -> Value:
        return Sym.const(expr.value) if isinstance(expr.value, int) else _uniform_unknown("sizeof")

    def _builtin_index(self, expr: ir.Expr) -> Value:
        if expr.member is None:
            return sym.unknown(f"{expr.name}.?", Variance.DATA)
        return sym.builtin(expr.name, expr.member)

    def _decl_ref(self, expr: ir.Expr) -> Value:
        if expr.decl in self.env:
            value = self.env[expr.decl]
            return self._load_reference(value, expr) if isinstance(value, Reference) else value
        if isinstance(expr.value, int):
            return Sym.const(expr.value)
        if expr.name == "warpSize":
            return Sym.const(32)
        if expr.decl is None and expr.name in self.function.template_parameters:
            return sym.parameter(expr.name)  # A template constant: symbolic, like a parameter.
        var = self.globals.get(expr.decl or "")
        if var is not None:
            space = {ir.StorageClass.SHARED: MemorySpace.SHARED, ir.StorageClass.CONSTANT: MemorySpace.CONSTANT}.get(
                var.storage, MemorySpace.GLOBAL)
            if var.type.kind is ir.TypeKind.ARRAY:
                return Pointer(space, var.name, sym.ZERO, var.type.pointee)
            if var.init is not None and var.init.kind is ir.ExprKind.INT_LITERAL and isinstance(var.init.value, int):
                return Sym.const(var.init.value)
        return _uniform_unknown(expr.name or "global")

    def _load_reference(self, reference: Reference, expr: ir.Expr | None) -> Sym:
        location = reference.location
        if expr is not None:
            self._record(expr, AccessKind.LOAD, location, location.pointee)
        return self._loaded_value(location)

    def _loaded_value(self, location: Pointer) -> Sym:
        """What a load yields: the same in all threads only if they all read the same address."""
        variance = refine_variance(location.offset, self.shape)
        if variance is Variance.UNIFORM:
            return _uniform_unknown(f"{location.base}[]")
        if variance is Variance.WARP_UNIFORM:
            return sym.unknown(f"{location.base}[]", Variance.WARP_UNIFORM)
        return sym.unknown(f"{location.base}[]", Variance.DATA)

    def _cast(self, expr: ir.Expr) -> Value:
        value = self._expr(expr.children[0]) if expr.children else _uniform_unknown("cast")
        if expr.type.kind is ir.TypeKind.POINTER:
            if isinstance(value, Pointer):
                return Pointer(value.space, value.base, value.offset, expr.type.pointee)
            return Pointer(MemorySpace.UNKNOWN, "cast", sym.ZERO, expr.type.pointee)
        if isinstance(value, Reference):
            value = self._load_reference(value, None)
        if expr.type.kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM):
            source = expr.children[0].type.kind if expr.children else None
            if source in (ir.TypeKind.FLOAT, ir.TypeKind.DOUBLE, ir.TypeKind.HALF):
                return _opaque("float-to-int", value)
            return value if isinstance(value, Sym) else _opaque("cast", value)
        return self._convert(value, expr.type)

    # ---- memory

    def _location(self, expr: ir.Expr) -> Pointer | None:
        """The memory an lvalue designates, or None for registers (locals, struct copies)."""
        kind = expr.kind
        if kind is ir.ExprKind.SUBSCRIPT and len(expr.children) == 2:
            base, index = (self._expr(c) for c in expr.children)
            if isinstance(index, Pointer) and isinstance(base, Sym):  # `i[p]` spelling
                base, index = index, base
            if not isinstance(base, Pointer):
                return None
            return _advance(base, self._int(index), expr.type)
        if kind is ir.ExprKind.UNARY and expr.op == "*" and expr.children:
            pointer = self._expr(expr.children[0])
            return Pointer(pointer.space, pointer.base, pointer.offset, expr.type) if isinstance(pointer, Pointer) else None
        if kind is ir.ExprKind.MEMBER and expr.children:
            base_expr = expr.children[0]
            if expr.op == "->":
                base = self._expr(base_expr)
            else:
                base = self._location(base_expr)
            if not isinstance(base, Pointer):
                return None
            record = self.tu.records.get((base.pointee.record if base.pointee else None) or "")
            offset = next((f.offset for f in record.fields if f.name == expr.name), None) if record else None
            if offset is None:
                return Pointer(base.space, base.base, sym.operation("+", base.offset, _uniform_unknown("field")), expr.type)
            return Pointer(base.space, base.base, base.offset + offset, expr.type)
        if kind is ir.ExprKind.DECL_REF and isinstance(self.env.get(expr.decl or ""), Reference):
            return self.env[expr.decl].location
        if kind is ir.ExprKind.CAST and expr.children:
            return self._location(expr.children[0])
        return None

    def _record(self, expr: ir.Expr, kind: AccessKind, location: Pointer, type_: ir.CType | None) -> None:
        if not self.recording or type_ is None or type_.kind is ir.TypeKind.ARRAY:
            return
        self.trace.accesses.append(Access(
            expr=expr, kind=kind, location=location, size=type_.size, type=type_,
            guards=tuple(self.guards), loops=tuple(self.loops), stmt=self.statement,
            inlined_from=tuple(self.call_names),
        ))

    def _memory_read(self, expr: ir.Expr) -> Value:
        location = self._location(expr)
        if location is None:
            return self._generic(expr)
        if expr.type.kind is ir.TypeKind.ARRAY:
            # Indexing a row of a multi-dimensional array: an address, not a load.
            return Pointer(location.space, location.base, location.offset, expr.type.pointee)
        self._record(expr, AccessKind.LOAD, location, expr.type)
        if expr.type.kind is ir.TypeKind.POINTER:
            return Pointer(MemorySpace.UNKNOWN, f"{location.base}[]", sym.ZERO, expr.type.pointee)
        return self._loaded_value(location)

    _subscript = _memory_read

    def _member(self, expr: ir.Expr) -> Value:
        location = self._location(expr)
        if location is not None:
            return self._memory_read(expr)
        inputs = [self._expr(c) for c in expr.children]
        return _opaque(f".{expr.name}", *inputs)

    def _unary(self, expr: ir.Expr) -> Value:
        op = expr.op
        operand = expr.children[0] if expr.children else None
        if operand is None:
            return _uniform_unknown("unary")
        if op == "*":
            return self._memory_read(expr)
        if op == "&":
            location = self._location(operand)
            return location if location is not None else _opaque("address", self._expr(operand))
        if op in ("++", "--", "post++", "post--"):
            old = self._expr(operand)
            delta = 1 if "++" in op else -1
            new = _advance(old, Sym.const(delta), operand.type) if isinstance(old, Pointer) else self._int(old) + delta
            self._store(operand, new, expr)
            return new if not op.startswith("post") else old
        value = self._expr(operand)
        if op == "-":
            return -self._int(value) if isinstance(value, Sym) else _opaque("neg", value)
        if op == "+":
            return value
        if op in ("!", "~"):
            return sym.operation(op, self._int(value))
        return _opaque(op or "unary", value)

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
            return _opaque("pointer-op", left, right)
        left, right = self._int(left), self._int(right)
        if not _is_integral(expr.type) and op not in sym.COMPARISONS and op not in ("&&", "||"):
            return _opaque(op or "op", left, right)  # Floating point: only its variance matters.
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op in sym.OPERATORS:
            return sym.operation(op, left, right)
        return _opaque(op or "op", left, right)

    def _conditional(self, expr: ir.Expr) -> Value:
        condition, then, otherwise = (self._expr(c) for c in expr.children)
        condition = self._int(condition)
        if isinstance(then, Pointer) and isinstance(otherwise, Pointer) and (then.space, then.base) == (otherwise.space, otherwise.base):
            return Pointer(then.space, then.base, sym.operation("select", condition, then.offset, otherwise.offset), then.pointee)
        if isinstance(then, Sym) and isinstance(otherwise, Sym):
            return sym.operation("select", condition, then, otherwise)
        return _opaque("select", condition, then, otherwise)

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
        if target.kind is ir.ExprKind.DECL_REF and target.decl and not isinstance(self.env.get(target.decl), Reference):
            self.env[target.decl] = value
            return
        location = self._location(target)
        if location is not None:
            self._record(target, AccessKind.STORE, location, target.type)

    # ---- calls

    def _call(self, expr: ir.Expr) -> Value:
        name = (expr.name or "").removeprefix("::")
        if self.recording:
            self.trace.calls.add(name.removeprefix("std::"))
        if name == "sync" and not expr.children:
            # cooperative_groups: a block's sync() is a block barrier, a tile's a warp barrier.
            name = "__syncwarp" if any(t in (expr.decl or "") for t in _WARP_GROUPS) else "__syncthreads"
        if name in _BARRIERS or name == "__syncwarp":
            arguments = [self._expr(c) for c in expr.children]
            if self.recording:
                self.trace.barriers.append(Barrier(expr, name, tuple(self.guards), tuple(self.loops), self.statement,
                                                   tuple(self.call_names)))
            return _opaque(name, *arguments)
        if name == "thread_rank" and not expr.children:
            if "@S@thread_block@" in (expr.decl or ""):
                return _linear_thread_index()
            return sym.unknown("thread_rank", Variance.DATA)  # A tile's rank: lane-varying, size unknown.
        if name in _LOADS and expr.children:
            pointer = self._expr(expr.children[0])
            if isinstance(pointer, Pointer):
                self._record(expr, AccessKind.LOAD, pointer, expr.type)
                return self._loaded_value(pointer)
        if name in _STORES and len(expr.children) == 2:
            pointer = self._expr(expr.children[0])
            self._expr(expr.children[1])
            if isinstance(pointer, Pointer):
                self._record(expr, AccessKind.STORE, pointer, expr.children[1].type)
            return _uniform_unknown(name)
        if name.startswith("atomic") and expr.children:
            pointer = self._expr(expr.children[0])
            arguments = [self._expr(c) for c in expr.children[1:]]
            if isinstance(pointer, Pointer):
                self._record(expr, AccessKind.ATOMIC, pointer, expr.type)
            return sym.unknown(name, Variance.DATA)
        if name == "operator=" and len(expr.children) == 2:
            # Assignment of a struct or vector type (float4, a user struct) into memory.
            value = self._expr(expr.children[1])
            self._store(expr.children[0], value, expr)
            return value
        arguments = [self._expr(c) for c in expr.children]
        if name in _MIN_MAX and len(arguments) == 2 and all(isinstance(a, Sym) for a in arguments):
            if _is_integral(expr.type):
                return sym.operation(_MIN_MAX[name], *arguments)
        if name in _WARP_UNIFORM_INTRINSICS:
            return sym.unknown(name, Variance.WARP_UNIFORM)
        if name in _VARYING_INTRINSICS:
            return sym.unknown(name, Variance.DATA)
        callee = self.functions.get(expr.decl or "")
        if callee is not None and callee.kind.runs_on_device and len(self.call_stack) < MAX_INLINE_DEPTH \
                and callee.decl not in self.call_stack and callee.decl != self.function.decl:
            return self._inline(callee, arguments, expr)
        return _opaque(name or "call", *arguments)

    def _inline(self, callee: ir.Function, arguments: list[Value], call: ir.Expr) -> Value:
        saved_env = self.env
        self.env = dict(self.env)
        for param, argument in zip(callee.params, arguments):
            self.env[param.decl] = self._convert(argument, param.type)
        self.call_stack.append(callee.decl)
        self.call_names.append(callee.display_name)
        self._returns.append([])
        try:
            self._block(callee.body)
        finally:
            returned = self._returns.pop()
            self.call_stack.pop()
            self.call_names.pop()
            self.env = saved_env
        if len(returned) == 1 or (returned and all(r == returned[0] for r in returned)):
            return returned[0]
        return _opaque(callee.name, *returned) if returned else _uniform_unknown(callee.name)

    def _lambda(self, expr: ir.Expr) -> Value:
        return _uniform_unknown("lambda")


# ---------------------------------------------------------------------- helpers


def _linear_thread_index() -> Sym:
    """threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y."""
    x, y, z = (sym.builtin("threadIdx", c) for c in "xyz")
    bx, by = sym.builtin("blockDim", "x"), sym.builtin("blockDim", "y")
    return x + y * bx + z * bx * by


def _is_integral(ctype: ir.CType) -> bool:
    return ctype.kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM)


def _advance(pointer: Pointer, elements: Sym, pointee: ir.CType | None) -> Pointer:
    """``pointer + elements``: the offset grows by the size of what it points to."""
    element = pointer.pointee
    size = element.size if element is not None else None
    if size is None:
        offset = sym.operation("+", pointer.offset, sym.unknown("element-size", Variance.UNIFORM) * elements)
    else:
        offset = pointer.offset + elements * size
    return Pointer(pointer.space, pointer.base, offset, pointee if pointee is not None else element)


def _merge(condition: Sym, taken: dict[str, Value], not_taken: dict[str, Value]) -> dict[str, Value]:
    merged = dict(not_taken)
    for decl, value in taken.items():
        other = not_taken.get(decl)
        if other is None or other == value:
            merged[decl] = value
        elif isinstance(value, Sym) and isinstance(other, Sym):
            merged[decl] = sym.operation("select", condition, value, other)
        elif isinstance(value, Pointer) and isinstance(other, Pointer) and (value.space, value.base) == (other.space, other.base):
            merged[decl] = Pointer(value.space, value.base, sym.operation("select", condition, value.offset, other.offset), value.pointee)
        else:
            merged[decl] = _opaque("merge", condition, value, other)
    return merged


def _closed_form(start: Value, placeholder: Sym, after: Value | None, iteration: Sym) -> Value:
    """A variable a loop updates: ``x += c`` each trip gives ``x0 + c * k``; else an unknown."""
    if isinstance(after, Sym) and isinstance(start, Sym):
        step = after - placeholder
        if all(atom != placeholder.terms[0][0][0] for atom in step.atoms()):
            return start + step * iteration
        return sym.unknown("carried", max(_join_variance(start), _join_variance(step)))
    return _opaque("carried", start)


def _refers_to(expr: ir.Expr, decl: str) -> bool:
    return expr.kind is ir.ExprKind.DECL_REF and expr.decl == decl or (
        expr.kind is ir.ExprKind.CAST and bool(expr.children) and _refers_to(expr.children[0], decl))


def _assigned_variables(loop: ir.Stmt) -> list[str]:
    """Variables a loop writes (its header and body), in order of first write."""
    found: dict[str, None] = {}
    expressions = []
    for stmt in loop.walk():
        if stmt is loop.init:
            continue
        expressions.extend(stmt.expressions())
    if loop.step is not None:
        expressions.append(loop.step)
    for expr in expressions:
        for node in expr.walk():
            if node.kind is ir.ExprKind.ASSIGN or (node.kind is ir.ExprKind.UNARY and node.op in ("++", "--", "post++", "post--")):
                target = node.children[0] if node.children else None
                if target is not None and target.kind is ir.ExprKind.DECL_REF and target.decl:
                    found.setdefault(target.decl, None)
    return list(found)


def exits_early(stmt: ir.Stmt) -> bool:
    """``if (c) return;`` without an else: the rest of the block runs only where c is false."""
    if stmt.kind is not ir.StmtKind.IF or stmt.orelse is not None or not stmt.body:
        return False
    branch = stmt.body[0]
    last = branch.body[-1] if branch.kind is ir.StmtKind.COMPOUND and branch.body else branch
    return last.kind is ir.StmtKind.RETURN


def trace_kernel(tu: ir.TranslationUnit, function: ir.Function, shape: BlockShape = ASSUMED_SHAPE) -> KernelTrace:
    return Interpreter(tu, function, shape).run()
