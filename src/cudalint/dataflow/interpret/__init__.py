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

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import Cut, Guard, KernelTrace, MemorySpace, Origin, Pointer, Reference, Triple, Value
from cudalint.dataflow.interpret.calls import Calls
from cudalint.dataflow.interpret.common import MAX_INLINE_DEPTH, _opaque
from cudalint.dataflow.interpret.expressions import Expressions
from cudalint.dataflow.interpret.intrinsics import Intrinsics
from cudalint.dataflow.interpret.loops import Loops
from cudalint.dataflow.interpret.memory import Memory
from cudalint.dataflow.interpret.statements import Statements
from cudalint.dataflow.symbolic import Atom, Sym, Variance
from cudalint.dataflow.threads import ASSUMED_SHAPE, BlockShape

# Steps (statements and expressions evaluated) allowed per node of the code an entry
# point runs: each node runs once per enclosing loop plus once, and loops rarely nest
# deeper than a handful of levels.
STEPS_PER_NODE = 48
MIN_BUDGET = 20_000
MAX_BUDGET = 200_000
"""Ceiling on any entry point's steps: 10 to 20 seconds of this interpreter on large
kernels (50 to 100 microseconds a step, lane evaluations included)."""


class _OutOfBudget(Exception):
    pass


def _atoms(value: Value):
    if isinstance(value, Sym):
        yield from value.atoms()
    elif isinstance(value, Pointer):
        yield from value.offset.atoms()
    elif isinstance(value, Triple):
        for part in (value.x, value.y, value.z):
            yield from part.atoms()


class Interpreter(Statements, Loops, Expressions, Memory, Calls, Intrinsics):
    """Runs one kernel (or device function) over symbolic values and records its facts in a
    ``KernelTrace``; each part of the language is handled by the class of its module."""

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


def trace_kernel(tu: ir.TranslationUnit, function: ir.Function, shape: BlockShape = ASSUMED_SHAPE) -> KernelTrace:
    return Interpreter(tu, function, shape).run()
