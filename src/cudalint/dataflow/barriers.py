"""Which decisions a barrier waits on, and whether the threads that skip it meet another.

A barrier is reached by the threads for which every decision it is control dependent on
(``cfg.ControlFlow.controlling``) came out the same way. One kind of decision does not
count: an earlier ``if (c) return;`` with the barrier after it. Threads that returned are
gone and no longer take part in barriers, so the others meet at the barrier without them;
a ``continue`` or ``break`` instead keeps the thread alive to reach other barriers, so it
does count. For a barrier inlined from a helper, the kernel's graph does not hold the
helper's statements: the conditions it runs under at the call stand for its decisions.

Threads that skip a barrier under a decision that differs between them and then meet no
barrier before they exit leave nobody waiting: exited threads no longer hold a barrier
up. That holds when no barrier follows the decision and the decision sits in no loop
(another trip would bring the skipping threads to the barrier again).

An ``if`` with an ``else`` whose two arms each reach exactly one block barrier, straight
down their statements (no loop or condition of their own around it), sends every thread to
one barrier once: ``__syncthreads()`` is ``bar.sync 0`` on both arms, the same hardware
barrier, which counts the warps that arrive wherever they arrive from. When the decision
keeps warps whole, each warp arrives once and the block meets, though the CUDA rules ask
for the same barrier in every thread.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cudalint import ir
from cudalint.dataflow.cfg import ControlFlow
from cudalint.dataflow.interpret import Barrier, exits_early

_LOOPS = (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)


def reaching_decisions(barrier: Barrier, control_flow: ControlFlow) -> tuple[ir.Stmt, ...]:
    """The decisions that decide whether threads reach ``barrier``, outermost first, an
    early ``return`` before it left out (see the module's docstring)."""
    if barrier.inlined_from:
        return tuple(g.decision for g in barrier.guards if g.decision is not None and not g.after_exit)
    decisions = _controlling(barrier, control_flow) or ()
    return tuple(decision for decision in decisions if not _exits_before(decision, barrier.stmt))


def skippers_exit(
    barrier: Barrier,
    control_flow: ControlFlow,
    barriers: Sequence[Barrier],
    block_varying: Collection[int],
) -> bool:
    """No barrier of ``barriers`` follows any decision ``barrier`` depends on whose id is in
    ``block_varying``, and none of those decisions sits in a loop: a thread that skips the
    barrier (or leaves the loop early) meets no barrier again before it exits."""
    if barrier.inlined_from or barrier.stmt is None:
        return False
    decisions = _controlling(barrier, control_flow)
    if decisions is None:
        return False
    others = [b.stmt for b in barriers if b is not barrier]
    for decision in decisions:
        if id(decision) not in block_varying:
            continue
        inside = {id(node) for node in decision.walk()}
        end = (decision.span.end_line, decision.span.end_column)
        if any(
            other is None or (id(other) not in inside and (other.span.line, other.span.column) >= end)
            for other in others
        ):
            return False
        body = control_flow.function.body
        if body is not None and any(id(loop) != id(decision) and loop.kind in _LOOPS for loop in _path(body, decision)):
            return False
    return True


def other_arm_barrier(barrier: Barrier, decision: ir.Stmt, barriers: Sequence[Barrier]) -> Barrier | None:
    """The barrier the threads that skip ``barrier`` reach instead: ``decision`` is an ``if``
    with an ``else``, and each arm reaches exactly one block barrier, straight down its
    statements (see the module's docstring); None otherwise."""
    if decision.kind is not ir.StmtKind.IF or decision.orelse is None or barrier.stmt is None:
        return None
    found = []
    for arm in (decision.body, (decision.orelse,)):
        inside = [
            other
            for other in barriers
            if other.scope is barrier.scope
            and other.stmt is not None
            and any(node is other.stmt for part in arm for node in part.walk())
        ]
        if len(inside) != 1 or inside[0].inlined_from:
            return None
        path = next((p for part in arm if (p := _path(part, inside[0].stmt))), [])
        if any(step.kind is not ir.StmtKind.COMPOUND for step in path[:-1]):
            return None
        found.append(inside[0])
    if not any(other is barrier for other in found):
        return None
    return found[1] if found[0] is barrier else found[0]


def _controlling(barrier: Barrier, control_flow: ControlFlow) -> tuple[ir.Stmt, ...] | None:
    """The barrier statement's decisions; None where the function's graph does not hold it."""
    if barrier.stmt is None:
        return None
    try:
        return control_flow.controlling(barrier.stmt)
    except (KeyError, ValueError):
        return None


def _exits_before(decision: ir.Stmt, stmt: ir.Stmt) -> bool:
    """``if (c) return;`` with ``stmt`` after it rather than inside it."""
    if not exits_early(decision):
        return False
    inside = any(
        node is stmt for part in (*decision.body, *(p for p in (decision.orelse,) if p)) for node in part.walk()
    )
    return not inside


def _path(root: ir.Stmt, target: ir.Stmt) -> list[ir.Stmt]:
    """The statements from ``root`` down to ``target``, both included (empty when absent)."""
    if root is target:
        return [root]
    for child in (root.init, *root.body, root.orelse):
        if child is not None:
            path = _path(child, target)
            if path:
                return [root, *path]
    return []
