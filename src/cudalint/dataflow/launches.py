"""The values a translation unit's host code launches its kernels with.

Each launch (``<<<>>>`` or the runtime's ``cudaLaunchKernel*``) is evaluated where it is
written, over the host function around it: literals, macros, enumerators, ``sizeof`` and
``const``/``constexpr`` values (clang folds those), arithmetic on them, ``dim3``
variables, template arguments (an instantiated host template is lowered with them),
variables assigned a few values (``d_mul = 1; ... d_mul = 512;``) or counted by a loop
over a constant range (``for (int d = 16; d <= 64; d *= 2)``), and the parameters of
host functions that forward them to a launch, from the calls of those functions in the
unit (up to ``MAX_WRAPPER_DEPTH`` callers up), each call on its own: a wrapper called
twice with two kernels and two strides gives two launches, not four. Whatever depends on ``argv``, a file, the
device or a value the evaluation does not follow is unknown.

A launch site gives one ``LaunchRecord`` per combination of the values its host code
gives (at most ``MAX_CONFIGURATIONS``): a launch in a loop over three strides is three
configurations, each judged on its own.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from cudalint import ir
from cudalint.launches import LaunchRecord

MAX_VALUES = 16
"""Values one variable may take before it counts as unknown (a loop over a long range)."""
MAX_CONFIGURATIONS = 8
"""Configurations one launch site may give; beyond, its most varied value counts as unknown."""
MAX_WRAPPER_DEPTH = 3
"""Callers followed up from a launch to find the values of a wrapper's parameters."""
MAX_CALL_PATHS = 16
"""Chains of calls one launch is evaluated along, at most."""

_ARITHMETIC = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: _divide(a, b),
    "%": lambda a, b: a - b * _divide(a, b) if b else None,
    "<<": lambda a, b: a << b if 0 <= b < 64 else None,
    ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
}
_ROUNDING = {"ceil": math.ceil, "ceilf": math.ceil, "floor": math.floor, "floorf": math.floor}
_FLOATING = (ir.TypeKind.HALF, ir.TypeKind.FLOAT, ir.TypeKind.DOUBLE, ir.TypeKind.LONG_DOUBLE)
_COMPARISONS = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "!=": lambda a, b: a != b,
    "==": lambda a, b: a == b,
}
_CONFIG_FIELDS = ("gridDim", "blockDim", "dynamicSmemBytes")
"""``cudaLaunchConfig_t``'s first members, in order."""

Choice = dict[tuple[int, str], int]
"""Values chosen for the variables that take several, by (frame, variable)."""


def _divide(a: int, b: int) -> int | None:
    """C's integer division: toward zero."""
    if not b:
        return None
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _bare(expr: ir.Expr | None) -> ir.Expr | None:
    while expr is not None and expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    return expr


def _target(expr: ir.Expr) -> tuple[str | None, str | None]:
    """The variable (and member, for ``block.x = 16``) an assignment writes."""
    target = _bare(expr.children[0]) if expr.children else None
    member = None
    if target is not None and target.kind is ir.ExprKind.MEMBER and target.children:
        member = target.name
        target = _bare(target.children[0])
    if target is not None and target.kind is ir.ExprKind.DECL_REF and target.decl:
        return target.decl, member
    return None, None


class _HostFunction:
    """What one host function's code says about its variables: each one's definitions
    (initializer and plain assignments), the loops that count it, and those changed in a
    way the evaluation does not follow."""

    def __init__(self, function: ir.Function):
        self.function = function
        self.parameters: dict[str, list[int]] = {}
        """Each parameter's position; several for a parameter pack (``Args... args``)."""
        for index, parameter in enumerate(function.params):
            self.parameters.setdefault(parameter.decl, []).append(index)
        self.definitions: dict[str, list[ir.Expr]] = {}
        self.members: dict[tuple[str, str], list[ir.Expr]] = {}
        self.declared_bare: set[str] = set()
        """Variables declared without an initializer (``dim3 block;``)."""
        self.loops: dict[str, ir.Stmt] = {}
        self.opaque: set[str] = set()
        steps: set[int] = set()
        if function.body is None:
            return
        for stmt in function.body.walk():
            if stmt.kind is ir.StmtKind.FOR and stmt.step is not None:
                counter = self._counter(stmt)
                if counter is not None:
                    self.loops[counter] = stmt
                    steps.add(id(stmt.step))
            for var in stmt.decls:
                if var.init is not None:
                    self.definitions.setdefault(var.decl, []).append(var.init)
                else:
                    self.declared_bare.add(var.decl)
            for expr in stmt.expressions():
                if id(expr) in steps:
                    continue
                for node in expr.walk():
                    self._note(node)
        for counter in list(self.loops):
            if counter in self.opaque or len(self.definitions.get(counter, ())) != 1:
                del self.loops[counter]  # Changed in its body too, or not started by the loop.

    def _note(self, node: ir.Expr) -> None:
        if node.kind is ir.ExprKind.ASSIGN or (node.kind is ir.ExprKind.CALL and node.name == "operator="):
            decl, member = _target(node)
            if decl is None:
                return
            if node.op not in (None, "=") or len(node.children) != 2:
                self.opaque.add(decl)
            elif member is not None:
                self.members.setdefault((decl, member), []).append(node.children[1])
            else:
                self.definitions.setdefault(decl, []).append(node.children[1])
        elif node.kind is ir.ExprKind.UNARY and node.op in ("++", "--", "post++", "post--") and node.children:
            operand = _bare(node.children[0])
            if operand is not None and operand.kind is ir.ExprKind.MEMBER and operand.children:
                operand = _bare(operand.children[0])
            if operand is not None and operand.kind is ir.ExprKind.DECL_REF and operand.decl:
                self.opaque.add(operand.decl)
        elif node.kind is ir.ExprKind.CALL:
            for argument in node.children:
                argument = _bare(argument)
                if argument is not None and argument.kind is ir.ExprKind.UNARY and argument.op == "&":
                    operand = _bare(argument.children[0]) if argument.children else None
                    if operand is not None and operand.kind is ir.ExprKind.DECL_REF and operand.decl:
                        self.opaque.add(operand.decl)  # `scanf("%d", &n)`: written where we cannot see.

    @staticmethod
    def _counter(loop: ir.Stmt) -> str | None:
        """The variable a ``for`` loop steps by a constant: ``i++``, ``d *= 2``, ``s <<= 1``."""
        step = _bare(loop.step)
        if step is None or not step.children:
            return None
        if step.kind is ir.ExprKind.UNARY and step.op in ("++", "--", "post++", "post--"):
            operand = _bare(step.children[0])
            return operand.decl if operand is not None and operand.kind is ir.ExprKind.DECL_REF else None
        if step.kind is ir.ExprKind.ASSIGN and step.op in ("+=", "-=", "*=", "/=", "<<=", ">>="):
            return _target(step)[0] if _target(step)[1] is None else None
        return None


@dataclass(frozen=True, eq=False)
class _Frame:
    """A host function as one call runs it: its parameters are that call's arguments,
    evaluated in the caller's frame (None: a function nothing in the unit calls)."""

    host: _HostFunction
    call: ir.Expr | None = None
    caller: _Frame | None = None

    def argument(self, position: int) -> tuple[ir.Expr, _Frame] | None:
        if self.call is None or self.caller is None or position >= len(self.call.children):
            return None
        return self.call.children[position], self.caller


class HostValues:
    """Evaluates host expressions of one translation unit."""

    def __init__(self, tu: ir.TranslationUnit):
        self.tu = tu
        self.functions = {f.decl: f for f in tu.functions if f.body is not None}
        self.constants = {var.decl: var.init for var in tu.globals if var.type.is_const and var.init is not None}
        self._hosts: dict[str, _HostFunction] = {}
        self._root_values: dict[tuple[int, str], frozenset[int] | None] = {}
        self._frames: list[_Frame] = []
        """Every frame made, kept alive so that their ids stay theirs."""

    def host(self, decl: str) -> _HostFunction | None:
        function = self.functions.get(decl)
        if function is None:
            return None
        if decl not in self._hosts:
            self._hosts[decl] = _HostFunction(function)
        return self._hosts[decl]

    @cached_property
    def _calls(self) -> dict[str, list[tuple[str, ir.Expr]]]:
        """Every call in the unit's host code, by callee: (caller, call)."""
        found: dict[str, list[tuple[str, ir.Expr]]] = {}
        for function in self.functions.values():
            if function.kind is not ir.FunctionKind.HOST:
                continue
            for stmt in function.body.walk():
                for expr in stmt.expressions():
                    for node in expr.walk():
                        if node.kind is ir.ExprKind.CALL and node.decl:
                            found.setdefault(node.decl, []).append((function.decl, node))
        return found

    def frames(self, host: _HostFunction, depth: int = 0) -> list[_Frame]:
        """``host`` as each chain of calls in the unit runs it (as itself, when none does)."""
        calls = self._calls.get(host.function.decl, []) if depth < MAX_WRAPPER_DEPTH else []
        found: list[_Frame] = []
        for caller, call in calls:
            outer = self.host(caller)
            if outer is None or outer is host:
                continue
            for frame in self.frames(outer, depth + 1):
                found.append(_Frame(host, call, frame))
                self._frames.append(found[-1])
                if len(found) == MAX_CALL_PATHS:
                    return found
        if not found:
            found.append(_Frame(host))
            self._frames.append(found[-1])
        return found

    def parameter(self, frame: _Frame, decl: str, position: int | None = None) -> tuple[ir.Expr, _Frame] | None:
        """The argument a call gave parameter ``decl`` (``position``: which element of a pack)."""
        positions = frame.host.parameters.get(decl, [])
        if position is None:
            if len(positions) != 1:
                return None
            position = positions[0]
        return frame.argument(position)

    def kernel(self, frame: _Frame, launch: ir.LaunchSite) -> tuple[str, str] | None:
        """The launched kernel's id and name; for ``kernel<<<...>>>`` on a wrapper's
        parameter, the function its caller passed."""
        decl, name = launch.kernel, launch.kernel_name
        seen = 0
        while decl in frame.host.parameters and seen < MAX_WRAPPER_DEPTH:
            passed = self.parameter(frame, decl)
            if passed is None:
                return None
            expr, frame = passed
            expr = _bare(expr)
            if expr is not None and expr.kind is ir.ExprKind.UNARY and expr.op == "&" and expr.children:
                expr = _bare(expr.children[0])
            if expr is None or expr.kind is not ir.ExprKind.DECL_REF or not expr.decl:
                return None
            decl, name = expr.decl, expr.name or name
            seen += 1
        return decl, name

    # -------------------------------------------------------------- which values vary

    def roots(self, frame: _Frame, expr: ir.Expr | None, seen: frozenset[str] = frozenset()) -> set[tuple[_Frame, str]]:
        """The variables whose choice decides ``expr``: loop counters and variables assigned
        several values, in the frame that holds them, found through the single definitions
        of the other variables it names and through the arguments of calls."""
        found: set[tuple[_Frame, str]] = set()
        if expr is None:
            return found
        host = frame.host
        for node in expr.walk():
            if node.kind is not ir.ExprKind.DECL_REF or not node.decl or isinstance(node.value, int):
                continue
            decl = node.decl
            if decl in seen:
                continue
            if decl in host.parameters:
                passed = self.parameter(frame, decl)
                if passed is not None:
                    found |= self.roots(passed[1], passed[0])
                continue
            if decl in host.loops or len(host.definitions.get(decl, ())) > 1:
                found.add((frame, decl))
                continue
            for definition in host.definitions.get(decl, ()):
                found |= self.roots(frame, definition, seen | {decl})
            for (variable, _), assigned in host.members.items():
                if variable == decl:
                    for definition in assigned:
                        found |= self.roots(frame, definition, seen | {decl})
        return found

    def choices(self, roots: set[tuple[_Frame, str]]) -> Iterator[Choice]:
        """Every combination of the roots' values (unknown ones left out of the choice)."""
        known: dict[tuple[int, str], list[int]] = {}
        for frame, decl in sorted(roots, key=lambda root: (id(root[0]), root[1])):
            values = self.root_values(frame, decl)
            if values is not None:
                known[(id(frame), decl)] = sorted(values)
        while known and _product(len(v) for v in known.values()) > MAX_CONFIGURATIONS:
            del known[max(known, key=lambda key: (len(known[key]), key[1]))]
        keys = list(known)
        for combination in itertools.product(*(known[key] for key in keys)):
            yield dict(zip(keys, combination, strict=True))

    def root_values(self, frame: _Frame, decl: str) -> frozenset[int] | None:
        """The values a variable takes; None when unknown, or when they depend on the
        variable itself (``sense = 1 - sense``)."""
        key = (id(frame), decl)
        if key not in self._root_values:
            self._root_values[key] = None  # Asked again while being evaluated: unknown.
            self._root_values[key] = self._evaluate_root(frame, decl)
        return self._root_values[key]

    def _evaluate_root(self, frame: _Frame, decl: str) -> frozenset[int] | None:
        host = frame.host
        if decl in host.opaque:
            return None
        if decl in host.loops:
            return self._loop_values(frame, host.loops[decl], decl)
        return self.value_set(frame, host.definitions.get(decl, ()))

    def value_set(self, frame: _Frame, expressions) -> frozenset[int] | None:
        """Every value the expressions may take; None when any is unknown or there are too many."""
        values: set[int] = set()
        for expr in expressions:
            for choice in self.choices(self.roots(frame, expr)):
                value = self.integer(frame, expr, choice)
                if value is None:
                    return None
                values.add(value)
            if len(values) > MAX_VALUES:
                return None
        return frozenset(values) if values else None

    def _loop_values(self, frame: _Frame, loop: ir.Stmt, decl: str) -> frozenset[int] | None:
        host = frame.host
        start = self.value_set(frame, host.definitions[decl])
        condition = _bare(loop.cond)
        step = _bare(loop.step)
        if start is None or len(start) != 1 or condition is None or step is None:
            return None
        if condition.kind is not ir.ExprKind.BINARY or condition.op not in _COMPARISONS or len(condition.children) != 2:
            return None
        left, right = (_bare(c) for c in condition.children)
        if left is not None and left.kind is ir.ExprKind.DECL_REF and left.decl == decl:
            bound_expr, counter_left = right, True
        elif right is not None and right.kind is ir.ExprKind.DECL_REF and right.decl == decl:
            bound_expr, counter_left = left, False
        else:
            return None
        bound = self.value_set(frame, [bound_expr])
        if bound is None or len(bound) != 1:
            return None
        (limit,) = bound
        (value,) = start
        compare = _COMPARISONS[condition.op]
        values: set[int] = set()
        while compare(value, limit) if counter_left else compare(limit, value):
            values.add(value)
            if len(values) > MAX_VALUES:
                return None
            following = self._step(frame, step, value)
            if following is None or following == value:
                return None
            value = following
        return frozenset(values) or None

    def _step(self, frame: _Frame, step: ir.Expr, value: int) -> int | None:
        if step.kind is ir.ExprKind.UNARY:
            return value + 1 if step.op in ("++", "post++") else value - 1
        amount = self.value_set(frame, [step.children[1]]) if len(step.children) == 2 else None
        if amount is None or len(amount) != 1:
            return None
        operation = _ARITHMETIC.get((step.op or "").removesuffix("="))
        return operation(value, next(iter(amount))) if operation is not None else None

    # -------------------------------------------------------------- one value

    def integer(
        self, frame: _Frame, expr: ir.Expr | None, choice: Choice, seen: frozenset[str] = frozenset()
    ) -> int | None:
        expr = _bare(expr)
        if expr is None:
            return None
        if isinstance(expr.value, bool):
            return int(expr.value)
        if isinstance(expr.value, int) and expr.kind in (
            ir.ExprKind.INT_LITERAL,
            ir.ExprKind.CHAR_LITERAL,
            ir.ExprKind.DECL_REF,
            ir.ExprKind.MEMBER,
            ir.ExprKind.SIZEOF,
            ir.ExprKind.CALL,
            ir.ExprKind.UNKNOWN,
        ):
            return expr.value
        kind = expr.kind
        if kind is ir.ExprKind.DECL_REF and expr.decl:
            return self._variable(frame, expr.decl, choice, seen)
        if kind is ir.ExprKind.BINARY and len(expr.children) == 2:
            left, right = (self.integer(frame, c, choice, seen) for c in expr.children)
            if left is None or right is None:
                return None
            if expr.op in _COMPARISONS:
                return int(_COMPARISONS[expr.op](left, right))
            operation = _ARITHMETIC.get(expr.op or "")
            return operation(left, right) if operation is not None else None
        if kind is ir.ExprKind.UNARY and expr.children and expr.op in ("-", "+", "~"):
            operand = self.integer(frame, expr.children[0], choice, seen)
            if operand is None:
                return None
            return {"-": -operand, "+": operand, "~": ~operand}[expr.op]
        if kind is ir.ExprKind.CONDITIONAL and len(expr.children) == 3:
            condition = self.integer(frame, expr.children[0], choice, seen)
            if condition is None:
                return None
            return self.integer(frame, expr.children[1 if condition else 2], choice, seen)
        if kind is ir.ExprKind.CALL:
            return self._call(frame, expr, choice, seen)
        return None

    def _call(self, frame: _Frame, expr: ir.Expr, choice: Choice, seen: frozenset[str]) -> int | None:
        """``min``/``max`` of integers, a constructor's one argument, ``ceil``/``floor`` of a
        floating-point quotient."""
        if expr.name in ("min", "max") and len(expr.children) == 2:
            values = [self.integer(frame, c, choice, seen) for c in expr.children]
            if None in values:
                return None
            return min(values) if expr.name == "min" else max(values)
        if expr.op == "construct" and len(expr.children) == 1:
            return self.integer(frame, expr.children[0], choice, seen)
        if expr.name in _ROUNDING and len(expr.children) == 1:
            value = self.real(frame, expr.children[0], choice, seen)
            return _ROUNDING[expr.name](value) if value is not None and math.isfinite(value) else None
        return None

    def real(
        self, frame: _Frame, expr: ir.Expr | None, choice: Choice, seen: frozenset[str] = frozenset()
    ) -> float | None:
        """The value of a floating-point expression of host code, where a grid is rounded up
        from a quotient of sizes (``ceil((float)n / 256)``, PolyBench's grids): casts to a
        floating type keep the fraction, ``/`` between floating operands divides exactly,
        and integer parts are evaluated as integers."""
        if expr is None:
            return None
        if expr.kind is ir.ExprKind.CAST and expr.children:
            inner = self.real(frame, expr.children[0], choice, seen)
            if inner is None or expr.type.kind in _FLOATING:
                return inner
            return float(math.trunc(inner)) if math.isfinite(inner) else None
        if expr.kind is ir.ExprKind.FLOAT_LITERAL and isinstance(expr.value, float):
            return expr.value
        if expr.kind is ir.ExprKind.BINARY and len(expr.children) == 2 and expr.op in ("+", "-", "*", "/"):
            left, right = expr.children
            if expr.type.kind not in _FLOATING:
                value = self.integer(frame, expr, choice, seen)
                return float(value) if value is not None else None
            a, b = self.real(frame, left, choice, seen), self.real(frame, right, choice, seen)
            if a is None or b is None or (expr.op == "/" and b == 0):
                return None
            return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0}[expr.op]
        if expr.kind is ir.ExprKind.CALL and expr.name in _ROUNDING and len(expr.children) == 1:
            value = self.integer(frame, expr, choice, seen)
            return float(value) if value is not None else None
        value = self.integer(frame, expr, choice, seen)
        return float(value) if value is not None else None

    def _variable(self, frame: _Frame, decl: str, choice: Choice, seen: frozenset[str]) -> int | None:
        host = frame.host
        if (id(frame), decl) in choice:
            return choice[(id(frame), decl)]
        if decl in host.parameters:
            passed = self.parameter(frame, decl)
            return self.integer(passed[1], passed[0], choice) if passed is not None else None
        if decl in seen or decl in host.opaque or decl in host.loops:
            return None
        definitions = host.definitions.get(decl)
        if definitions is None:
            constant = self.constants.get(decl)
            return self.integer(frame, constant, {}, seen | {decl}) if constant is not None else None
        if len(definitions) != 1:
            return None
        return self.integer(frame, definitions[0], choice, seen | {decl})

    def dims(self, frame: _Frame, expr: ir.Expr | None, choice: Choice, seen: frozenset[str] = frozenset()):
        """``256``, ``dim3(16, 16)``, a ``dim3`` variable (with ``block.x = ...`` assigned)
        or a wrapper's ``dim3`` parameter: each axis's value, None for an axis the host code
        does not decide (``dim3 b(1, atoi(argv[1]))`` is ``(1, None, 1)``); None when no axis
        is known."""
        axes = self._axes(frame, expr, choice, seen)
        return axes if axes is not None and any(a is not None for a in axes) else None

    def _axes(self, frame: _Frame, expr: ir.Expr | None, choice: Choice, seen: frozenset[str]):
        expr = _bare(expr)
        if expr is None:
            return None
        if expr.kind is ir.ExprKind.DECL_REF and expr.decl and expr.type.kind is ir.TypeKind.RECORD:
            return self._dim3_variable(frame, expr.decl, choice, seen)
        if expr.kind is ir.ExprKind.CALL and expr.op == "construct":
            if len(expr.children) == 1 and expr.children[0].type.record == expr.type.record:
                return self._axes(frame, expr.children[0], choice, seen)
            return self._listed_axes(frame, expr.children, choice, seen)
        if expr.kind is ir.ExprKind.INIT_LIST:
            return self._listed_axes(frame, expr.children, choice, seen)
        return (self.integer(frame, expr, choice, seen), 1, 1)

    def _listed_axes(self, frame: _Frame, children, choice: Choice, seen: frozenset[str]):
        """``dim3(x, y)``, ``{x, y}``: the axes not written are 1."""
        values = [self.integer(frame, c, choice, seen) for c in children[:3]]
        return tuple(values + [1] * (3 - len(values)))

    def _dim3_variable(self, frame: _Frame, decl: str, choice: Choice, seen: frozenset[str]):
        """A ``dim3`` variable: its initializer, with the members assigned after it."""
        host = frame.host
        if decl in host.parameters:
            passed = self.parameter(frame, decl)
            return self._axes(passed[1], passed[0], choice, frozenset()) if passed is not None else None
        if decl in seen or decl in host.opaque:
            return None
        definitions = host.definitions.get(decl, [])
        if len(definitions) > 1:
            return None
        if definitions:
            base = self._axes(frame, definitions[0], choice, seen | {decl})
        elif decl in host.declared_bare:
            base = (1, 1, 1)
        else:
            base = self._axes(frame, self.constants.get(decl), choice, seen | {decl})
        if base is None:
            return None
        result = list(base)
        for position, axis in enumerate("xyz"):
            assigned = host.members.get((decl, axis), [])
            if len(assigned) > 1:
                result[position] = None
            elif assigned:
                result[position] = self.integer(frame, assigned[0], choice, seen)
        return tuple(result)


def _whole(axes):
    """All three axes, or None: a grid is used only whole (``gridDim`` is sampled otherwise)."""
    return axes if axes is not None and all(a is not None for a in axes) else None


def _product(numbers) -> int:
    result = 1
    for number in numbers:
        result *= number
    return result


Located = tuple[ir.Expr | None, _Frame]
"""An expression with the frame it is evaluated in."""


def launch_records(tu: ir.TranslationUnit) -> tuple[LaunchRecord, ...]:
    """Every launch of the unit, one record per call path and configuration its host code gives."""
    values = HostValues(tu)
    records: list[LaunchRecord] = []
    for launch in tu.launches:
        host = values.host(launch.caller or "")
        if host is None:
            continue
        for frame in values.frames(host):
            kernel = values.kernel(frame, launch)
            if kernel is None:
                continue
            grid, block, shared, arguments = _launch_expressions(values, frame, launch)
            roots: set[tuple[_Frame, str]] = set()
            for expr, where in (grid, block, shared, *arguments):
                roots |= values.roots(where, expr)
            for choice in values.choices(roots):
                record = LaunchRecord(
                    kernel=kernel[0],
                    kernel_name=kernel[1],
                    file=launch.span.file,
                    line=launch.span.line,
                    grid=_whole(values.dims(grid[1], grid[0], choice)),
                    block=values.dims(block[1], block[0], choice),
                    shared_bytes=values.integer(shared[1], shared[0], choice) if shared[0] is not None else 0,
                    arguments=tuple(values.integer(where, expr, choice) for expr, where in arguments),
                    api=launch.api,
                )
                if record not in records:
                    records.append(record)
    return tuple(records)


def _launch_expressions(
    values: HostValues, frame: _Frame, launch: ir.LaunchSite
) -> tuple[Located, Located, Located, list[Located]]:
    """Grid, block, dynamic shared bytes and arguments of a launch, each with the frame it
    is evaluated in: for ``cudaLaunchKernel``, the arguments the ``void*`` array points to;
    for ``cudaLaunchKernelEx``, the configuration's members; the elements of a wrapper's
    parameter pack (``kernel<<<g, b>>>(args...)``), the caller's arguments."""
    host = frame.host
    grid, block, shared = launch.grid, launch.block, launch.shared_bytes
    arguments: list[Located] = []
    if launch.api in ("cudaLaunchKernel", "cudaLaunchCooperativeKernel"):
        pointed = _pointed_arguments(host, launch.arguments[0] if launch.arguments else None)
        arguments = [(expr, frame) for expr in pointed]
    else:
        pack_used: dict[str, int] = {}
        for expr in launch.arguments:
            bare = _bare(expr)
            positions = host.parameters.get(bare.decl or "", []) if bare is not None else []
            if len(positions) > 1:
                # The next element of the pack `args...` expands to.
                index = pack_used.get(bare.decl, 0)
                pack_used[bare.decl] = index + 1
                passed = values.parameter(frame, bare.decl, positions[index]) if index < len(positions) else None
                arguments.append(passed if passed is not None else (None, frame))
            else:
                arguments.append((expr, frame))
    if launch.config is not None:
        config = _bare(launch.config)
        if config is not None and config.kind is ir.ExprKind.UNARY and config.op == "&" and config.children:
            config = _bare(config.children[0])
        decl = config.decl if config is not None and config.kind is ir.ExprKind.DECL_REF else None
        fields: dict[str, ir.Expr | None] = {}
        for position, name in enumerate(_CONFIG_FIELDS):
            assigned = host.members.get((decl or "", name), [])
            initial = host.definitions.get(decl or "", [])
            if len(assigned) == 1:
                fields[name] = assigned[0]
            elif not assigned and len(initial) == 1 and _bare(initial[0]).kind is ir.ExprKind.INIT_LIST:
                elements = _bare(initial[0]).children
                fields[name] = elements[position] if position < len(elements) else None
        grid, block, shared = (fields.get(name) for name in _CONFIG_FIELDS)
    return (grid, frame), (block, frame), (shared, frame), arguments


def _pointed_arguments(host: _HostFunction, array: ir.Expr | None) -> list[ir.Expr | None]:
    """``{&n, &x}`` of ``void* args[] = {&n, &x}``: the variables the array points to."""
    array = _bare(array)
    if array is None or array.kind is not ir.ExprKind.DECL_REF or not array.decl:
        return []
    definitions = host.definitions.get(array.decl, [])
    if len(definitions) != 1 or _bare(definitions[0]).kind is not ir.ExprKind.INIT_LIST:
        return []
    pointed: list[ir.Expr | None] = []
    for element in _bare(definitions[0]).children:
        element = _bare(element)
        if element is not None and element.kind is ir.ExprKind.UNARY and element.op == "&" and element.children:
            pointed.append(element.children[0])
        else:
            pointed.append(None)
    return pointed
