"""Expressions: literals, variables, casts, members, unary and binary operators,
conditionals and assignments. ``Expressions._expr`` dispatches on the expression's kind to
the method ``_<kind>`` of the interpreter."""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import AccessKind, Alias, Guard, MemorySpace, Pointer, Reference, Triple, Value
from cudalint.dataflow.interpret.common import (
    _STORAGE_SPACES,
    _advance,
    _describe,
    _is_integral,
    _join_variance,
    _select,
)
from cudalint.dataflow.symbolic import Sym, Variance

_NAMED_CONSTANTS = frozenset((ir.ExprKind.DECL_REF, ir.ExprKind.MEMBER, ir.ExprKind.CALL))


class Expressions:
    """How the interpreter evaluates expressions."""

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
        self._store(target, value, expr, source if expr.op == "=" else None)
        return value

    def _store(self, target: ir.Expr, value: Value, expr: ir.Expr, assigned: ir.Expr | None = None) -> None:
        """Store ``value`` to ``target``; ``assigned``: the expression assigned, for a plain
        assignment."""
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
            self._record(target, AccessKind.STORE, location, target.type, stored_value=assigned)
            self._remember(location, value)

    def _lambda(self, expr: ir.Expr) -> Value:
        return self._fresh("lambda", Variance.UNIFORM)
