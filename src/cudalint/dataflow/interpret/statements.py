"""Statements and control flow: blocks, declarations, ``if`` (both ways, merged with a
``select``), ``switch``, assertions and assumptions, early exits."""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import MEMORY, Alias, Branch, Guard, MemoryKey, MemorySpace, Pointer, Reference, Value
from cudalint.dataflow.interpret.common import _STORAGE_SPACES, _select, _uncast
from cudalint.dataflow.symbolic import Sym, Variance


class Statements:
    """How the interpreter runs statements."""

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


def _last_statement(stmt: ir.Stmt) -> ir.Stmt:
    while stmt.kind is ir.StmtKind.COMPOUND and stmt.body:
        stmt = stmt.body[-1]
    return stmt


def exits_early(stmt: ir.Stmt) -> bool:
    """``if (c) return;`` without an else: the rest of the block runs only where c is false."""
    if stmt.kind is not ir.StmtKind.IF or stmt.orelse is not None or not stmt.body:
        return False
    branch = stmt.body[0]
    last = branch.body[-1] if branch.kind is ir.StmtKind.COMPOUND and branch.body else branch
    return last.kind is ir.StmtKind.RETURN
