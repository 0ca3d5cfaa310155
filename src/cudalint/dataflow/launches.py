"""The values a translation unit's host code launches its kernels with.

Each launch (``<<<>>>`` or the runtime's ``cudaLaunchKernel*``) is evaluated where it is
written, over the host function around it: literals, macros, enumerators, ``sizeof`` and
``const``/``constexpr`` values (clang folds those), arithmetic on them, ``dim3``
variables, template arguments (an instantiated host template is lowered with them),
variables assigned a few values (``d_mul = 1; ... d_mul = 512;``) or counted by a loop
over a constant range (``for (int d = 16; d <= 64; d *= 2)``), and the parameters of
host functions that forward them to a launch, from the calls of those functions in the
unit (up to ``MAX_WRAPPER_DEPTH`` callers up). Whatever depends on ``argv``, a file, the
device or a value the evaluation does not follow is unknown.

A launch site gives one ``LaunchRecord`` per combination of the values its host code
gives (at most ``MAX_CONFIGURATIONS``): a launch in a loop over three strides is three
configurations, each judged on its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cached_property

from cudalint import ir
from cudalint.launches import LaunchRecord

MAX_VALUES = 16
"""Values one variable may take before it counts as unknown (a loop over a long range)."""
MAX_CONFIGURATIONS = 8
"""Configurations one launch site may give; beyond, its most varied value counts as unknown."""
MAX_WRAPPER_DEPTH = 3
"""Callers followed up from a launch to find the values of a wrapper's parameters."""

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

Choice = dict[str, int]


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
        self.parameters = {p.decl: index for index, p in enumerate(function.params)}
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


class HostValues:
    """Evaluates host expressions of one translation unit."""

    def __init__(self, tu: ir.TranslationUnit):
        self.tu = tu
        self.functions = {f.decl: f for f in tu.functions if f.body is not None}
        self.constants = {var.decl: var.init for var in tu.globals if var.type.is_const and var.init is not None}
        self._hosts: dict[str, _HostFunction] = {}
        self._parameter_values: dict[tuple[str, int], frozenset[int] | None] = {}

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

    # -------------------------------------------------------------- which values vary

    def roots(self, host: _HostFunction, expr: ir.Expr | None, seen: frozenset[str] = frozenset()) -> set[str]:
        """The variables whose choice decides ``expr``: loop counters, variables assigned
        several values and the function's parameters, found through the single
        definitions of the other variables it names."""
        found: set[str] = set()
        if expr is None:
            return found
        for node in expr.walk():
            if node.kind is not ir.ExprKind.DECL_REF or not node.decl or isinstance(node.value, int):
                continue
            decl = node.decl
            if decl in seen:
                continue
            if decl in host.loops or decl in host.parameters or len(host.definitions.get(decl, ())) > 1:
                found.add(decl)
                continue
            for definition in host.definitions.get(decl, ()):
                found |= self.roots(host, definition, seen | {decl})
            for (variable, _), assigned in host.members.items():
                if variable == decl:
                    for definition in assigned:
                        found |= self.roots(host, definition, seen | {decl})
        return found

    def choices(self, host: _HostFunction, roots: set[str], depth: int) -> Iterator[Choice]:
        """Every combination of the roots' values (unknown ones left out of the choice)."""
        known = {}
        for root in sorted(roots):
            values = self.root_values(host, root, depth)
            if values is not None:
                known[root] = sorted(values)
        while known and _product(len(v) for v in known.values()) > MAX_CONFIGURATIONS:
            del known[max(known, key=lambda name: (len(known[name]), name))]
        names = list(known)
        for combination in itertools.product(*(known[name] for name in names)):
            yield dict(zip(names, combination, strict=True))

    def root_values(self, host: _HostFunction, decl: str, depth: int) -> frozenset[int] | None:
        if decl in host.opaque:
            return None
        if decl in host.loops:
            return self._loop_values(host, host.loops[decl], decl, depth)
        if decl in host.parameters:
            return self._parameter(host.function.decl, host.parameters[decl], depth)
        return self.value_set(host, host.definitions.get(decl, ()), depth)

    def value_set(self, host: _HostFunction, expressions, depth: int) -> frozenset[int] | None:
        """Every value the expressions may take; None when any is unknown or there are too many."""
        values: set[int] = set()
        for expr in expressions:
            roots = self.roots(host, expr)
            for choice in self.choices(host, roots, depth):
                value = self.integer(host, expr, choice)
                if value is None:
                    return None
                values.add(value)
            if len(values) > MAX_VALUES:
                return None
        return frozenset(values) if values else None

    def _parameter(self, function: str, index: int, depth: int) -> frozenset[int] | None:
        """The values a host function's parameter takes over the calls of the function in
        the unit: a launch wrapper's grid, block or size."""
        key = (function, index)
        if key in self._parameter_values:
            return self._parameter_values[key]
        self._parameter_values[key] = None  # A recursive call decides nothing.
        values: set[int] = set()
        calls = self._calls.get(function, [])
        result: frozenset[int] | None = None
        if calls and depth < MAX_WRAPPER_DEPTH:
            for caller, call in calls:
                host = self.host(caller)
                found = (
                    self.value_set(host, [call.children[index]], depth + 1)
                    if host is not None and index < len(call.children)
                    else None
                )
                if found is None:
                    values.clear()
                    break
                values |= found
            result = frozenset(values) if values and len(values) <= MAX_VALUES else None
        self._parameter_values[key] = result
        return result

    def _loop_values(self, host: _HostFunction, loop: ir.Stmt, decl: str, depth: int) -> frozenset[int] | None:
        start = self.value_set(host, host.definitions[decl], depth)
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
        bound = self.value_set(host, [bound_expr], depth)
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
            following = self._step(host, step, value, depth)
            if following is None or following == value:
                return None
            value = following
        return frozenset(values) or None

    def _step(self, host: _HostFunction, step: ir.Expr, value: int, depth: int) -> int | None:
        if step.kind is ir.ExprKind.UNARY:
            return value + 1 if step.op in ("++", "post++") else value - 1
        amount = self.value_set(host, [step.children[1]], depth) if len(step.children) == 2 else None
        if amount is None or len(amount) != 1:
            return None
        operation = _ARITHMETIC.get((step.op or "").removesuffix("="))
        return operation(value, next(iter(amount))) if operation is not None else None

    # -------------------------------------------------------------- one value

    def integer(
        self, host: _HostFunction, expr: ir.Expr | None, choice: Choice, seen: frozenset[str] = frozenset()
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
            return self._variable(host, expr.decl, choice, seen)
        if kind is ir.ExprKind.BINARY and len(expr.children) == 2:
            left, right = (self.integer(host, c, choice, seen) for c in expr.children)
            if left is None or right is None:
                return None
            if expr.op in _COMPARISONS:
                return int(_COMPARISONS[expr.op](left, right))
            operation = _ARITHMETIC.get(expr.op or "")
            return operation(left, right) if operation is not None else None
        if kind is ir.ExprKind.UNARY and expr.children and expr.op in ("-", "+", "~"):
            operand = self.integer(host, expr.children[0], choice, seen)
            if operand is None:
                return None
            return {"-": -operand, "+": operand, "~": ~operand}[expr.op]
        if kind is ir.ExprKind.CONDITIONAL and len(expr.children) == 3:
            condition = self.integer(host, expr.children[0], choice, seen)
            if condition is None:
                return None
            return self.integer(host, expr.children[1 if condition else 2], choice, seen)
        if kind is ir.ExprKind.CALL and expr.name in ("min", "max") and len(expr.children) == 2:
            values = [self.integer(host, c, choice, seen) for c in expr.children]
            if None in values:
                return None
            return min(values) if expr.name == "min" else max(values)
        if kind is ir.ExprKind.CALL and expr.op == "construct" and len(expr.children) == 1:
            return self.integer(host, expr.children[0], choice, seen)
        return None

    def _variable(self, host: _HostFunction, decl: str, choice: Choice, seen: frozenset[str]) -> int | None:
        if decl in choice:
            return choice[decl]
        if decl in seen or decl in host.opaque or decl in host.loops or decl in host.parameters:
            return None
        definitions = host.definitions.get(decl)
        if definitions is None:
            constant = self.constants.get(decl)
            return self.integer(host, constant, {}, seen | {decl}) if constant is not None else None
        if len(definitions) != 1:
            return None
        return self.integer(host, definitions[0], choice, seen | {decl})

    def dims(self, host: _HostFunction, expr: ir.Expr | None, choice: Choice, seen: frozenset[str] = frozenset()):
        """``256``, ``dim3(16, 16)``, a ``dim3`` variable (with ``block.x = ...`` assigned)."""
        expr = _bare(expr)
        if expr is None:
            return None
        if expr.kind is ir.ExprKind.DECL_REF and expr.decl and expr.type.kind is ir.TypeKind.RECORD:
            decl = expr.decl
            if decl in seen or decl in host.opaque:
                return None
            definitions = host.definitions.get(decl, [])
            if len(definitions) > 1:
                return None
            if definitions:
                base = self.dims(host, definitions[0], choice, seen | {decl})
            elif decl in host.declared_bare:
                base = (1, 1, 1)
            else:
                base = self.dims(host, self.constants.get(decl), choice, seen | {decl})
            if base is None:
                return None
            result = list(base)
            for position, axis in enumerate("xyz"):
                assigned = host.members.get((decl, axis), [])
                if len(assigned) > 1:
                    return None
                if assigned:
                    value = self.integer(host, assigned[0], choice, seen)
                    if value is None:
                        return None
                    result[position] = value
            return tuple(result)
        if expr.kind is ir.ExprKind.CALL and expr.op == "construct":
            if len(expr.children) == 1 and expr.children[0].type.record == expr.type.record:
                return self.dims(host, expr.children[0], choice, seen)
            values = [self.integer(host, c, choice, seen) for c in expr.children[:3]]
            values += [1] * (3 - len(values))
            return tuple(values) if all(v is not None for v in values) else None
        if expr.kind is ir.ExprKind.INIT_LIST:
            values = [self.integer(host, c, choice, seen) for c in expr.children[:3]]
            values += [1] * (3 - len(values))
            return tuple(values) if all(v is not None for v in values) else None
        value = self.integer(host, expr, choice, seen)
        return (value, 1, 1) if value is not None else None


def _product(numbers) -> int:
    result = 1
    for number in numbers:
        result *= number
    return result


def launch_records(tu: ir.TranslationUnit) -> tuple[LaunchRecord, ...]:
    """Every launch of the unit, one record per configuration its host code gives."""
    values = HostValues(tu)
    records: list[LaunchRecord] = []
    for launch in tu.launches:
        host = values.host(launch.caller or "")
        if host is None:
            continue
        grid, block, shared, arguments = _launch_expressions(values, host, launch)
        roots: set[str] = set()
        for expr in (grid, block, shared, *arguments):
            roots |= values.roots(host, expr)
        for choice in values.choices(host, roots, 0):
            record = LaunchRecord(
                kernel=launch.kernel,
                kernel_name=launch.kernel_name,
                file=launch.span.file,
                line=launch.span.line,
                grid=values.dims(host, grid, choice),
                block=values.dims(host, block, choice),
                shared_bytes=values.integer(host, shared, choice) if shared is not None else 0,
                arguments=tuple(values.integer(host, a, choice) for a in arguments),
                api=launch.api,
            )
            if record not in records:
                records.append(record)
    return tuple(records)


def _launch_expressions(values: HostValues, host: _HostFunction, launch: ir.LaunchSite):
    """Grid, block, dynamic shared bytes and arguments of a launch as expressions of its
    host function: for ``cudaLaunchKernel``, the arguments the ``void*`` array points to;
    for ``cudaLaunchKernelEx``, the configuration's members."""
    grid, block, shared = launch.grid, launch.block, launch.shared_bytes
    arguments = list(launch.arguments)
    if launch.api in ("cudaLaunchKernel", "cudaLaunchCooperativeKernel"):
        arguments = _pointed_arguments(host, arguments[0] if arguments else None)
    elif launch.config is not None:
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
    return grid, block, shared, arguments


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
