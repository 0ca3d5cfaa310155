"""Loops: inductions bound to the trip number, a summary run for the other variables the
loop assigns, the recorded run, and what the loop leaves behind (``LoopRun``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import Guard, LoopRun, Pointer, Value
from cudalint.dataflow.interpret.common import _FULL_MASK, _forget_memory, _join_variance, _opaque, _uncast
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import SAMPLE_ROUNDS, BlockShape, refine_variance, uniform_value

# Trips tried to find a loop's constant trip count (a counter that halves from 2^31 needs 32).
MAX_STATIC_TRIPS = 64


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


class Loops:
    """How the interpreter runs loops."""

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
        # A carried variable's value at the start of a trip: unknown, varying at least as its
        # start does lane by lane (a per-warp stack's top `j = 32 * (threadIdx.x / 32)` is the
        # same across each warp, though it names threadIdx).
        placeholders = {
            decl: self._fresh(assigned[decl], self._lane_variance(entry[decl]))
            for decl in assigned
            if decl in entry and decl not in inductions and isinstance(entry[decl], Sym)
        }
        walks: dict[Atom, Sym] = {}  # Per-lane counters of trips taken, by the start they move.
        before = _PreLoopAtoms(entry)
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
                after = after_one_trip.get(decl)
                if _walks_own_range(entry[decl], placeholder, after):
                    steps = self._fresh(f"{assigned[decl]} steps", Variance.DATA, inputs=(entry[decl], after))
                    self.env[decl] = entry[decl] + steps
                    walks[steps.terms[0][0][0]] = entry[decl]
                    continue
                self.env[decl] = _closed_form(
                    entry[decl], placeholder, after, iteration, assigned[decl], before, self._lane_variance
                )
                self._derived_from(self.env[decl], entry[decl], after)
        else:
            # Inside a summary run: one run of the body over placeholders is enough.
            self.env.update(placeholders)
            self.env.update(bound)
        condition = self._trip(stmt, recorded=self.recording)
        geometric = any(induction.operator != "+" for induction in inductions.values())
        # Inside a summary run the values after the loop need not be exact, save a double
        # buffer's index toggled once per trip (`st ^= 1`): an inner loop of two trips leaves
        # it as it came in, so each trip of the loop around starts with the same index.
        toggles = {} if self.recording else _toggles(self.env, placeholders)
        trips = static_trips(stmt, condition, counter, geometric, self.shape) if self.recording or toggles else None
        if self.recording:
            self.trace.loops[counter] = LoopRun(
                stmt,
                counter,
                condition,
                trips,
                geometric,
                lane_starts=frozenset(
                    atom
                    for start in (
                        *(i.start for i in inductions.values() if i.operator == "+"),
                        *walks.values(),
                    )
                    if start.variance is Variance.DATA
                    for atom in start.atoms()
                    if atom.kind is AtomKind.VARYING
                ),
                lane_steps=frozenset(walks),
            )
        exit_trips = None if _leaves_early(stmt) else trips
        self._leave_loop(entry, assigned, inductions, condition, exit_trips, counter, before)
        if exit_trips is not None:
            for decl, mask in toggles.items():
                self.env[decl] = sym.operation("^", entry[decl], Sym.const(mask if exit_trips % 2 else 0))
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
        self,
        entry: dict,
        assigned: dict[str, str],
        inductions: dict[str, Induction],
        condition: Sym,
        trips: int | None,
        counter: Atom,
        before: _PreLoopAtoms,
    ) -> None:
        """After the loop, what it assigned depends on how many trips ran: exact when the trip
        count is a constant and the variable an induction or a function of the trip and of
        what the loop found (a double buffer's toggled index), or when every trip leaves it
        as it came in; else an unknown that varies as the values and the trip count do."""
        _forget_memory(self.env)
        exit_variance = self._lane_variance(condition)
        for decl, name in assigned.items():
            if decl not in entry:
                continue
            if trips is not None and decl in inductions:
                self.env[decl] = inductions[decl].at(Sym.const(trips))
                continue
            value = self.env.get(decl, entry[decl])
            if isinstance(value, Sym) and value == entry[decl]:
                continue  # Each trip ends with the value it started with: so do zero trips.
            if trips and isinstance(value, Sym):
                last = sym.substitute(value, {counter: Sym.const(trips - 1)})
                if before.invariant(last):
                    self.env[decl] = last  # The last trip's value: the trip count is known.
                    continue
            shifted = _shifted(entry[decl], value, name) if exit_variance <= Variance.WARP_UNIFORM else None
            if shifted is not None:
                self.env[decl] = shifted  # Stepped by uniform amounts for a uniform number of trips.
                continue
            # Zero trips leave the value it came in with.
            variance = max(exit_variance, self._lane_variance(value), self._lane_variance(entry[decl]))
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

    def _lane_variance(self, value: Value) -> Variance:
        """How ``value`` varies, with thread-index arithmetic that is equal across each warp
        of the block (``32 * (threadIdx.x / 32)``) counted as warp-uniform."""
        if isinstance(value, Pointer):
            value = value.offset
        if isinstance(value, Sym):
            return refine_variance(value, self.shape)
        return _join_variance(value)

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


class _PreLoopAtoms:
    """The unknowns the variables held before a loop (computed once, when first asked):
    what a trip cannot change. Anything the body loads or computes is a new unknown."""

    _FIXED = frozenset(
        (AtomKind.THREAD_INDEX, AtomKind.BLOCK_INDEX, AtomKind.BLOCK_DIM, AtomKind.GRID_DIM, AtomKind.PARAMETER)
    )

    def __init__(self, entry: Mapping[str, Value]) -> None:
        self._entry = entry
        self._atoms: set[Atom] | None = None

    def invariant(self, value: Sym) -> bool:
        """Whether ``value`` is the same on every trip: made of launch values and of
        unknowns that existed before the loop."""
        if self._atoms is None:
            self._atoms = set()
            for held in self._entry.values():
                if isinstance(held, Sym):
                    self._atoms.update(held.atoms())
                elif isinstance(held, Pointer):
                    self._atoms.update(held.offset.atoms())
        return all(
            atom.kind in self._FIXED or atom.kind is AtomKind.OPERATION or atom in self._atoms for atom in value.atoms()
        )


def _closed_form(
    start: Value,
    placeholder: Sym,
    after: Value | None,
    iteration: Sym,
    name: str,
    before: _PreLoopAtoms,
    lane_variance: Callable[[Value], Variance],
) -> Value:
    """A variable a loop updates: ``x += c`` each trip gives ``x0 + c * k``; so does one a
    trip moves under a condition no trip changes (``if (halo) idx += pitch;``, a lane's role
    fixed before the loop): ``x0 + (halo ? pitch : 0) * k``, exact for every lane. One a trip
    moves by an amount the same across each warp, under a guard that changes or not (``if
    (k & 1) j += n;``), is its start moved by an unknown of that variance, its lanes as far
    apart as at the start; else an unknown that varies as its start and its updates do.
    ``before`` tells what no trip changes; ``lane_variance`` how a value varies lane by lane."""
    if after == start or after == placeholder:
        # Every trip ends with the value it started with (`k = restart;`, or a double
        # buffer's index toggled twice per trip): the value of each copy of the body is the
        # start's.
        return start
    if isinstance(after, Sym) and isinstance(start, Sym):
        mask = _toggle_mask(after, placeholder)
        if mask is not None:
            # `buf ^= 1` once per trip: period 2, the start on even trips and toggled on odd
            # ones; in each copy of an unrolled loop, a constant.
            parity = sym.operation("&", iteration, Sym.const(1))
            return sym.operation("^", start, parity * mask)
        step = after - placeholder
        if all(atom != placeholder.terms[0][0][0] for atom in step.atoms()):
            return start + step * iteration
        moved = _moved_by(after, placeholder)
        if moved is not None and before.invariant(moved):
            return start + moved * iteration
        if moved is not None and moved.variance <= Variance.WARP_UNIFORM:
            return start + sym.unknown(f"{name} steps", moved.variance)
        variance = max(lane_variance(start), lane_variance(step))
        return sym.unknown(name, Variance.DATA if variance is Variance.THREAD else variance)
    return _opaque(name, start)


def _toggle_mask(after: Value | None, placeholder: Sym) -> int | None:
    """The constant a trip toggles a variable with (``st ^= 1``: ``placeholder ^ 1`` after
    the trip); None for any other update."""
    toggled = sym.xor_operands(after) if isinstance(after, Sym) else None
    return toggled[1] if toggled is not None and toggled[0] == placeholder else None


def _toggles(env: Mapping[str, Value], placeholders: Mapping[str, Sym]) -> dict[str, int]:
    """The variables one trip toggles with a constant, with the constant."""
    masks = {decl: _toggle_mask(env.get(decl), placeholder) for decl, placeholder in placeholders.items()}
    return {decl: mask for decl, mask in masks.items() if mask is not None}


def _walks_own_range(start: Value, placeholder: Sym, after: Value | None) -> bool:
    """Whether a variable that starts from data each lane loaded (a prefix sum of the lanes'
    counts, ``from = base + offsets[lane]``) moves forward by zero or a constant on each trip,
    as the lane decides (``if (keep) out[from++] = x;``): each lane fills its own range of
    consecutive elements from its start, one element per trip that takes it."""
    if not isinstance(start, Sym) or not isinstance(after, Sym) or start.variance is not Variance.DATA:
        return False
    if not any(atom.kind is AtomKind.VARYING for atom in start.atoms()):
        return False
    moved = _moved_by(after, placeholder)
    return moved is not None and moved.variance > Variance.WARP_UNIFORM and _forward_steps(moved)


def _forward_steps(moved: Sym) -> bool:
    """``moved`` is a constant at least zero on every path, and above zero on some (``c ? 1 : 0``)."""
    if moved.constant is not None:
        return moved.constant > 0
    select = moved.sole_operation
    if select is None or select.name != "select":
        return False
    paths = select.args[1:]
    return all(path.constant == 0 or _forward_steps(path) for path in paths) and any(
        path.constant != 0 for path in paths
    )


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


def _refers_to(expr: ir.Expr, decl: str) -> bool:
    return (
        expr.kind is ir.ExprKind.DECL_REF
        and expr.decl == decl
        or (expr.kind is ir.ExprKind.CAST and bool(expr.children) and _refers_to(expr.children[0], decl))
    )


def _flattened(body: tuple[ir.Stmt, ...]) -> list[ir.Stmt]:
    """The statements of a body, compound statements opened."""
    found = []
    for stmt in body:
        found += _flattened(stmt.body) if stmt.kind is ir.StmtKind.COMPOUND else [stmt]
    return found


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
