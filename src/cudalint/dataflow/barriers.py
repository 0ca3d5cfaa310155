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
(another trip would bring the skipping threads to the barrier again). What they do
before they exit matters too: a thread that leaves a loop holding a barrier at an earlier
trip than the others and then reads or writes a shared array the loop writes runs that
access while the others are still in the loop, with no barrier between them (the barrier
that would order them is the one it skipped): compute-sanitizer's racecheck reports
those accesses.

An ``if`` with an ``else`` whose two arms each reach exactly one block barrier, straight
down their statements (no loop or condition of their own around it), sends every thread to
one barrier once: ``__syncthreads()`` is ``bar.sync 0`` on both arms, the same hardware
barrier, which counts the warps that arrive wherever they arrive from. When the decision
keeps warps whole, each warp arrives once and the block meets, though the CUDA rules ask
for the same barrier in every thread.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from cudalint import ir
from cudalint.dataflow.cfg import ControlFlow
from cudalint.dataflow.facts import Access, AccessKind, Barrier, MemorySpace
from cudalint.dataflow.interpret.statements import exits_early

_LOOPS = (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)

Conflict = Callable[[Access, Access], bool]
"""Whether two shared accesses can touch one address from two different threads."""


def _may_conflict(first: Access, second: Access) -> bool:
    return True


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
    accesses: Sequence[Access] = (),
    conflict: Conflict = _may_conflict,
) -> bool:
    """No barrier of ``barriers`` follows any decision ``barrier`` depends on whose id is in
    ``block_varying``, none of those decisions sits in a loop, and no access of a shared
    array a looping decision writes follows it: a thread that skips the barrier (or
    leaves the loop early) meets no barrier again and touches none of that shared memory
    before it exits."""
    met = skipped_then(barrier, control_flow, barriers, block_varying, accesses, conflict)
    return met is None and _decided_here(barrier, control_flow)


def skipped_then(
    barrier: Barrier,
    control_flow: ControlFlow,
    barriers: Sequence[Barrier],
    block_varying: Collection[int],
    accesses: Sequence[Access] = (),
    conflict: Conflict = _may_conflict,
) -> ir.Stmt | Access | None:
    """What a thread that skips ``barrier`` under a decision of ``block_varying`` meets
    after that decision, before it exits: a later barrier's statement (the decision itself
    when an enclosing loop brings the thread back to it), or an access of shared memory
    that another thread accesses in the decision's loop, one of them a store (the first
    met, in source order); None when it meets neither,
    or where the function's graph does not hold the barrier (see ``_decided_here``)."""
    if not _decided_here(barrier, control_flow):
        return None
    others = [b.stmt for b in barriers if b is not barrier]
    for decision in _controlling(barrier, control_flow) or ():
        if id(decision) not in block_varying:
            continue
        inside = {id(node) for node in decision.walk()}
        end = (decision.span.end_line, decision.span.end_column)
        if any(other is None for other in others):
            return decision
        later: list[ir.Stmt | Access] = [
            other for other in others if id(other) not in inside and (other.span.line, other.span.column) >= end
        ]
        if decision.kind in _LOOPS:
            touched = _shared_after(decision, inside, end, accesses, conflict)
            later += [touched] if touched is not None else []
        if later:
            return min(later, key=lambda met: (met.span.line, met.span.column))
        body = control_flow.function.body
        if body is not None and any(id(loop) != id(decision) and loop.kind in _LOOPS for loop in _path(body, decision)):
            return decision
    return None


def _decided_here(barrier: Barrier, control_flow: ControlFlow) -> bool:
    return not barrier.inlined_from and _controlling(barrier, control_flow) is not None


def _shared_after(
    loop: ir.Stmt, inside: set[int], end: tuple[int, int], accesses: Sequence[Access], conflict: Conflict
) -> Access | None:
    """The first access, after ``loop``, of shared memory that another thread accesses in
    the loop, one of the two a store (``conflict`` compares their addresses thread by thread)."""
    shared = [access for access in accesses if access.space is MemorySpace.SHARED and not access.inlined_from]
    in_loop = [access for access in shared if access.stmt is not None and id(access.stmt) in inside]
    later = [
        access
        for access in shared
        if (access.span.line, access.span.column) >= end
        and (access.stmt is None or id(access.stmt) not in inside)
        and any(
            earlier.location.base == access.location.base
            and not (earlier.kind is AccessKind.LOAD and access.kind is AccessKind.LOAD)
            and conflict(earlier, access)
            for earlier in in_loop
        )
    ]
    return min(later, key=lambda access: (access.span.line, access.span.column), default=None)


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
