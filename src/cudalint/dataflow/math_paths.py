"""Local memory that no array of the kernel asks for: the slow paths of the CUDA math
library's argument reductions.

Measured with ptxas (nvcc 13.0, sm_90; tests/corpus/registers/math_slow_paths.cu):

* ``sin``, ``cos``, ``tan`` and ``sincos`` in double precision reduce an argument with
  ``|x| >= 2^31`` by Payne-Hanek in ``__internal_trig_reduction_slowpathd``, a function
  nvcc does not inline: every kernel that calls one gets a 40-byte stack frame in local
  memory, and the slow path's loads and stores run for every large argument. So do the
  Bessel functions (``j0``, ``j1``, ``y0``, ``y1``, ``jn``), which reduce through it.
* ``sinf``, ``cosf``, ``tanf`` and ``sincosf`` reduce ``|x| >= 105615`` the same way,
  inlined, with a 28-byte table: ptxas keeps the table in registers for one call site, but
  from two call sites on (several calls, or one in an unrolled loop) the kernel gets a
  32-byte stack frame. ``j0f``, ``j1f``, ``y0f``, ``y1f`` and ``ynf`` take 32 bytes from one call.
* ``sinpi``/``cospi``/``sincospi`` (and their float forms), the intrinsics ``__sinf`` and
  ``__cosf`` (what ``-use_fast_math`` maps the float functions to), and the double
  division, square root, ``pow``, ``exp`` and ``log`` use no stack.

Nothing here proves an argument small: a call whose argument is read from memory or
comes from a kernel parameter (through any assignments and helper parameters) is
``unbounded``; one computed only from thread and block indices, loop counters and
constants is usually small, but is not proven so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cudalint import ir

DOUBLE_TRIG = frozenset(("sin", "cos", "tan", "sincos"))
FLOAT_TRIG = frozenset(("sinf", "cosf", "tanf", "sincosf"))
DOUBLE_BESSEL = frozenset(("j0", "j1", "y0", "y1", "jn"))
FLOAT_BESSEL = frozenset(("j0f", "j1f", "y0f", "y1f", "ynf"))
DOUBLE_FRAME = 40
FLOAT_FRAME = 32
FLOAT_FAST_RANGE = "|x| < 105615"
DOUBLE_FAST_RANGE = "|x| < 2^31"


@dataclass(frozen=True)
class MathSlowPath:
    """A call of a math function whose slow path keeps its state in local memory."""

    call: ir.Expr
    function: str
    frame_bytes: int
    """The stack frame ptxas gives a kernel for it (nvcc 13.0, sm_90)."""
    fast_range: str | None
    """Arguments that never take the slow path (None: not measured for this function)."""
    argument: ir.Expr | None
    unbounded: str | None
    """Why nothing bounds the argument (``read from memory``, ``kernel parameter 'phase'``);
    None when it is computed from indices and constants only."""

    @property
    def double(self) -> bool:
        return self.function in DOUBLE_TRIG or self.function in DOUBLE_BESSEL

    @property
    def remedy(self) -> str:
        if self.function in DOUBLE_TRIG:
            return "keep the angle in turns and call `sinpi`/`cospi`/`sincospi` (an exact reduction, no table)"
        if self.function in FLOAT_TRIG:
            return (
                "`__sinf`/`__cosf` (what `-use_fast_math` uses) where their accuracy is enough, "
                "or `sinpif`/`cospif`/`sincospif` on an angle in turns"
            )
        return "bound the argument before the call"


def math_slow_paths(function: ir.Function, helpers: Mapping[str, ir.Function]) -> list[MathSlowPath]:
    """The calls of ``function`` and the helpers it calls whose slow paths take local memory."""
    chain = _reachable(function, helpers)
    calls = [(owner, node) for owner in chain for node in _calls(owner) if _name(node) in _FRAMES]
    float_sites = sum(1 for _, node in calls if _name(node) in FLOAT_TRIG)
    provenance = _Provenance(function, chain)
    found = []
    for owner, node in calls:
        name = _name(node)
        if name in FLOAT_TRIG and float_sites < 2:
            continue
        argument = _argument(node)
        found.append(
            MathSlowPath(
                node,
                name,
                _FRAMES[name],
                _RANGES.get(name),
                argument,
                None if argument is None else provenance.unbounded(owner, argument),
            )
        )
    return found


_FRAMES = {
    **dict.fromkeys(DOUBLE_TRIG | DOUBLE_BESSEL, DOUBLE_FRAME),
    **dict.fromkeys(FLOAT_TRIG | FLOAT_BESSEL, FLOAT_FRAME),
}
_RANGES = {**dict.fromkeys(DOUBLE_TRIG, DOUBLE_FAST_RANGE), **dict.fromkeys(FLOAT_TRIG, FLOAT_FAST_RANGE)}


def _name(node: ir.Expr) -> str:
    """The function as the library names it: C++'s float overloads (``sin(float)``,
    ``std::cos``) by their float names."""
    name = (node.name or "").removeprefix("std::").removeprefix("::")
    if node.type.kind is ir.TypeKind.FLOAT and name in DOUBLE_TRIG:
        return name + "f"
    if name == "sincos" and node.children and node.children[0].type.kind is ir.TypeKind.FLOAT:
        return "sincosf"
    return name


def _argument(call: ir.Expr) -> ir.Expr | None:
    """The argument the reduction works on: the last for ``jn``/``ynf`` (order first), else the first."""
    if not call.children:
        return None
    return call.children[-1] if _name(call) in ("jn", "ynf") else call.children[0]


def _calls(function: ir.Function):
    for stmt in function.body.walk() if function.body is not None else ():
        for expr in stmt.expressions():
            yield from (node for node in expr.walk() if node.kind is ir.ExprKind.CALL)


def _reachable(function: ir.Function, helpers: Mapping[str, ir.Function]) -> list[ir.Function]:
    """``function`` and the helpers it calls, directly or not, each once."""
    found = {function.decl: function}
    pending = [function]
    while pending:
        for node in _calls(pending.pop()):
            callee = helpers.get(node.decl or "")
            if callee is not None and callee.decl not in found:
                found[callee.decl] = callee
                pending.append(callee)
    return list(found.values())


class _Provenance:
    """Where a value comes from, read from the code: memory, the kernel's parameters, or
    only indices, counters and constants."""

    def __init__(self, kernel: ir.Function, chain: list[ir.Function]):
        self.kernel = kernel
        self.chain = chain
        self.assignments: dict[str, list[tuple[ir.Function, ir.Expr]]] = {}
        self.parameters: dict[str, tuple[ir.Function, int]] = {}
        for function in chain:
            for position, param in enumerate(function.params):
                self.parameters[param.decl] = (function, position)
            for stmt in function.body.walk() if function.body is not None else ():
                for var in stmt.decls:
                    if var.init is not None:
                        self.assignments.setdefault(var.decl, []).append((function, var.init))
                for expr in stmt.expressions():
                    for node in expr.walk():
                        target = node.children[0] if node.kind is ir.ExprKind.ASSIGN and node.children else None
                        while target is not None and target.kind is ir.ExprKind.SUBSCRIPT:
                            target = target.children[0]  # an element of a per-thread array
                        if target is not None and target.kind is ir.ExprKind.DECL_REF and target.decl:
                            self.assignments.setdefault(target.decl, []).append((function, node.children[-1]))
        self.verdicts: dict[str, str | None] = {}
        """By declaration; a variable being looked at counts as bounded meanwhile (a cycle
        of assignments adds nothing the others do not say)."""

    def unbounded(self, owner: ir.Function, expr: ir.Expr) -> str | None:
        for node in expr.walk():
            if node.kind is ir.ExprKind.SUBSCRIPT and not self._own_array(node.children[0]):
                return "read from memory"
            if node.kind is ir.ExprKind.UNARY and node.op == "*":
                return "read from memory"
            if node.kind is ir.ExprKind.MEMBER and node.op in ("->", "arrow"):
                return "read from memory"
            if node.kind is ir.ExprKind.DECL_REF and node.decl:
                if node.decl not in self.verdicts:
                    self.verdicts[node.decl] = None
                    self.verdicts[node.decl] = self._variable(node)
                if self.verdicts[node.decl] is not None:
                    return self.verdicts[node.decl]
        return None

    def _own_array(self, base: ir.Expr) -> bool:
        """Whether ``base`` names a per-thread array of the kernel or a helper: its elements
        are what the code assigns them (a table of constants), not memory the kernel reads."""
        while base.kind is ir.ExprKind.CAST and base.children:
            base = base.children[0]
        return (
            base.kind is ir.ExprKind.DECL_REF
            and base.type.kind is ir.TypeKind.ARRAY
            and bool(base.decl)
            and base.decl in self.assignments
            and base.decl not in self.parameters
        )

    def _variable(self, node: ir.Expr) -> str | None:
        decl = node.decl or ""
        if decl in self.parameters:
            function, position = self.parameters[decl]
            if function is self.kernel:
                return f"kernel parameter '{node.name}'"
            for caller in self.chain:
                for call in _calls(caller):
                    if call.decl == function.decl and position < len(call.children):
                        reason = self.unbounded(caller, call.children[position])
                        if reason is not None:
                            return reason
            return None
        for function, value in self.assignments.get(decl, ()):
            reason = self.unbounded(function, value)
            if reason is not None:
                return reason
        return None
