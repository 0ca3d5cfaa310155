"""Control flow and control dependence inside one function.

The graph has one node per *basic statement* (EXPR, DECL, RETURN, BREAK, CONTINUE,
GOTO, ASM, NULL, UNKNOWN), one per *decision* (IF, FOR, WHILE, DO, SWITCH: the node
stands for evaluating the condition), one per for-loop step clause (the ``ir.Expr``
itself, since the IR has no statement for it), and the two terminals ``ENTRY`` and
``EXIT``. Every ``return`` and the end of the body lead to ``EXIT``. Statements are
keyed by identity (``ir.Stmt`` compares by identity).

COMPOUND, LABEL, CASE and DEFAULT get no node of their own: control entering them
enters the first node inside them.

Where the IR says less than the source, the graph errs towards more paths:

- a loop whose condition is a literal (``while (1)``, ``do ... while (0)``, a ``for``
  without one) takes only the edge the literal picks; a ``for`` header written by a
  macro may have lost its condition in the IR, so there a missing one is unknown;
- an UNKNOWN statement with statements inside (the IR's range-based ``for``) may
  run them any number of times, and ``break``/``continue`` inside stop at it; it is
  no decision, so ``controlling`` never reports it;
- a ``goto`` whose label is not in the function (computed ``goto``) leads to EXIT.

Control dependence comes from post-dominance, so it follows the paths code really
takes rather than its nesting: code after ``if (c) return;`` depends on that ``if``,
while code after a loop left through ``if (c) break;`` does not depend on ``c``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from cudalint import ir

__all__ = ["ENTRY", "EXIT", "ControlFlow", "FlowGraph", "Node", "Terminal"]

S = ir.StmtKind


class Terminal(enum.Enum):
    ENTRY = "entry"
    EXIT = "exit"


ENTRY = Terminal.ENTRY
EXIT = Terminal.EXIT

Node = ir.Stmt | ir.Expr | Terminal
"""A graph node: a statement, a for-loop step expression, or a terminal."""

_DECISION_KINDS = frozenset({S.IF, S.FOR, S.WHILE, S.DO, S.SWITCH})
_REGION_KINDS = frozenset({S.COMPOUND, S.LABEL, S.CASE, S.DEFAULT})


class ControlFlow:
    """The control-flow graph of one function and the control dependence derived from it.

    ``graph`` is a ``FlowGraph`` over ``Node``. Edges added only so that code which
    never terminates still reaches ``EXIT`` (one per endless loop, from a node inside
    it) are virtual; they make the post-dominator tree exist but never make their
    source a decision.

    ``decisions`` holds every IF, FOR, WHILE, DO and SWITCH statement, in source order.
    """

    def __init__(self, function: ir.Function):
        self.function = function
        builder = _Builder()
        self.graph = builder.build(function.body)
        self._order = {node: index for index, node in enumerate(_source_order(function.body))}
        self._region_entries = builder.region_entries
        self._enclosing_loop = builder.enclosing_loop
        self.decisions: tuple[ir.Stmt, ...] = tuple(
            node for node in self._order if isinstance(node, ir.Stmt) and node.kind in _DECISION_KINDS
        )
        _connect_endless_loops(self.graph, self._order)
        self._deciders = _control_dependence(self.graph)
        self._deciding = {node for node in self.decisions if len(self.graph.real_successors(node)) > 1}

    def controlling(self, stmt: ir.Stmt) -> tuple[ir.Stmt, ...]:
        """The decisions that decide whether ``stmt`` runs, or how often, in source order.

        Transitive: a statement in a loop nested in an ``if`` depends on the loop's
        condition and on the ``if``. A loop statement stands for its condition, which is
        evaluated once per iteration and so depends on itself. A loop whose condition
        is a literal (``for (;;)``, ``while (1)``, ``do ... while (0)``), or a decision
        whose outcomes all lead to the same place, controls nothing. Code that cannot
        be reached from ``ENTRY`` (after a ``return``, in ``while (0)``) depends only
        on decisions inside that dead code.

        COMPOUND, LABEL, CASE and DEFAULT answer for the point where control enters
        them: the decisions controlling their first node, less those inside them.
        Raises ``ValueError`` for one that holds no node (``{}``) and ``KeyError`` for
        a statement not in this function.
        """
        self._require_member(stmt)
        entry: Node = stmt
        inside: set[ir.Stmt] = set()
        if stmt.kind in _REGION_KINDS:
            entry = self._region_entries[stmt]
            inside = set(stmt.walk())
            if entry not in inside:
                raise ValueError(f"{stmt.kind.value} statement at line {stmt.span.line} holds no statement to control")
        found: set[Node] = set()
        pending: list[Node] = [entry]
        while pending:
            for decider in self._deciders.get(pending.pop(), ()):
                if decider not in found:
                    found.add(decider)
                    pending.append(decider)
        decisions = (node for node in found if node in self._deciding and node not in inside)
        return tuple(sorted(decisions, key=self._order.__getitem__))

    def loop_of(self, stmt: ir.Stmt) -> ir.Stmt | None:
        """The innermost FOR, WHILE or DO whose body holds ``stmt``, or None.

        A loop's own init clause and the loop statement itself belong to the loop
        around it. Raises ``KeyError`` for a statement not in this function.
        """
        self._require_member(stmt)
        return self._enclosing_loop[stmt]

    def _require_member(self, stmt: ir.Stmt) -> None:
        if stmt not in self._enclosing_loop:
            raise KeyError(f"{stmt.kind.value} statement at line {stmt.span.line} is not in {self.function.name}")


@dataclass
class _OpenSwitch:
    targets: list[Node] = field(default_factory=list)
    has_default: bool = False


class _Builder:
    """Lowers a statement tree back to front: each statement learns its successor first."""

    def __init__(self) -> None:
        self.graph = FlowGraph()
        self.region_entries: dict[ir.Stmt, Node] = {}
        self.enclosing_loop: dict[ir.Stmt, ir.Stmt | None] = {}
        self._labels: dict[str, Node] = {}
        self._gotos: list[ir.Stmt] = []
        self._loops: list[ir.Stmt] = []
        self._break_targets: list[Node] = []
        self._continue_targets: list[Node] = []
        self._switches: list[_OpenSwitch] = []

    def build(self, body: ir.Stmt | None) -> FlowGraph:
        self.graph.add_node(EXIT)
        self.graph.add_edge(ENTRY, self._lower(body, EXIT) if body is not None else EXIT)
        # Labels are known only once the whole body is lowered, and a goto may jump back.
        for goto in self._gotos:
            self.graph.add_edge(goto, self._labels.get(goto.label or "", EXIT))
        return self.graph

    def _sequence(self, statements: tuple[ir.Stmt, ...], successor: Node) -> Node:
        for stmt in reversed(statements):
            successor = self._lower(stmt, successor)
        return successor

    def _lower(self, stmt: ir.Stmt, successor: Node) -> Node:
        """Adds ``stmt``'s nodes and edges; returns the node where control enters it."""
        self.enclosing_loop[stmt] = self._loops[-1] if self._loops else None
        kind = stmt.kind
        if kind in _REGION_KINDS:
            return self._region(stmt, successor)
        if kind is S.IF:
            return self._if(stmt, successor)
        if kind is S.FOR:
            return self._for(stmt, successor)
        if kind is S.WHILE:
            self.graph.add_node(stmt)
            body = self._loop_body(stmt, successor, continue_to=stmt)
            self._branch(stmt, body, successor, _literal_truth(stmt.cond))
            return stmt
        if kind is S.DO:
            self.graph.add_node(stmt)
            body = self._loop_body(stmt, successor, continue_to=stmt)
            self._branch(stmt, body, successor, _literal_truth(stmt.cond))
            return body
        if kind is S.SWITCH:
            return self._switch(stmt, successor)
        if kind is S.UNKNOWN and stmt.body:
            return self._unknown(stmt, successor)
        return self._basic(stmt, successor)

    def _basic(self, stmt: ir.Stmt, successor: Node) -> Node:
        self.graph.add_node(stmt)
        kind = stmt.kind
        if kind is S.RETURN:
            self.graph.add_edge(stmt, EXIT)
        elif kind is S.BREAK:
            # Outside any loop or switch the code does not compile; fall through.
            self.graph.add_edge(stmt, self._break_targets[-1] if self._break_targets else successor)
        elif kind is S.CONTINUE:
            self.graph.add_edge(stmt, self._continue_targets[-1] if self._continue_targets else successor)
        elif kind is S.GOTO:
            self._gotos.append(stmt)
        else:
            self.graph.add_edge(stmt, successor)
        return stmt

    def _region(self, stmt: ir.Stmt, successor: Node) -> Node:
        entry = self._sequence(stmt.body, successor)
        self.region_entries[stmt] = entry
        if stmt.kind is S.LABEL and stmt.label:
            self._labels[stmt.label] = entry
        elif stmt.kind in (S.CASE, S.DEFAULT) and self._switches:
            self._switches[-1].targets.append(entry)
            self._switches[-1].has_default |= stmt.kind is S.DEFAULT
        return entry

    def _if(self, stmt: ir.Stmt, successor: Node) -> Node:
        self.graph.add_node(stmt)
        then = self._sequence(stmt.body, successor)
        orelse = self._lower(stmt.orelse, successor) if stmt.orelse is not None else successor
        # Not folded on a literal condition: dead code under ``if (0)`` keeps its ``if``.
        self._branch(stmt, then, orelse, None)
        return self._lower(stmt.init, stmt) if stmt.init is not None else stmt

    def _for(self, loop: ir.Stmt, successor: Node) -> Node:
        self.graph.add_node(loop)
        continue_to: Node = loop
        if loop.step is not None:
            self.graph.add_edge(loop.step, loop)
            continue_to = loop.step
        body = self._loop_body(loop, successor, continue_to)
        self._branch(loop, body, successor, _for_condition_truth(loop))
        return self._lower(loop.init, loop) if loop.init is not None else loop

    def _unknown(self, stmt: ir.Stmt, successor: Node) -> Node:
        # The IR leaves a range-based for unmodelled, so any statement it does not know
        # may run what it holds any number of times, and break/continue stop at it.
        self.graph.add_node(stmt)
        self._break_targets.append(successor)
        self._continue_targets.append(stmt)
        body = self._sequence(stmt.body, stmt)
        self._break_targets.pop()
        self._continue_targets.pop()
        self.graph.add_edge(stmt, body)
        self.graph.add_edge(stmt, successor)
        return stmt

    def _loop_body(self, loop: ir.Stmt, successor: Node, continue_to: Node) -> Node:
        self._loops.append(loop)
        self._break_targets.append(successor)
        self._continue_targets.append(continue_to)
        entry = self._sequence(loop.body, continue_to)
        self._loops.pop()
        self._break_targets.pop()
        self._continue_targets.pop()
        return entry

    def _switch(self, stmt: ir.Stmt, successor: Node) -> Node:
        self.graph.add_node(stmt)
        self._break_targets.append(successor)
        self._switches.append(_OpenSwitch())
        # Code before the first case label is unreachable; its entry is not needed.
        self._sequence(stmt.body, successor)
        switch = self._switches.pop()
        self._break_targets.pop()
        for target in switch.targets:
            self.graph.add_edge(stmt, target)
        if not switch.has_default:
            self.graph.add_edge(stmt, successor)
        return stmt

    def _branch(self, decision: ir.Stmt, when_true: Node, when_false: Node, always: bool | None) -> None:
        if always is not False:
            self.graph.add_edge(decision, when_true)
        if always is not True:
            self.graph.add_edge(decision, when_false)


def _literal_truth(cond: ir.Expr | None) -> bool | None:
    """The value of a literal condition (``true``, ``1``, ``0``), None for anything else."""
    while cond is not None and cond.kind is ir.ExprKind.CAST and cond.children:
        cond = cond.children[0]
    if cond is not None and cond.kind in (ir.ExprKind.INT_LITERAL, ir.ExprKind.BOOL_LITERAL) and cond.value is not None:
        return bool(cond.value)
    return None


def _for_condition_truth(loop: ir.Stmt) -> bool | None:
    # A header written by a macro carries an UNKNOWN condition, which is no literal.
    return _literal_truth(loop.cond) if loop.cond is not None else True


def _source_order(body: ir.Stmt | None) -> Iterator[Node]:
    yield ENTRY
    for stmt in body.walk() if body is not None else ():
        yield stmt
        if stmt.kind is S.FOR and stmt.step is not None:
            yield stmt.step
    yield EXIT


class FlowGraph:
    """A directed graph over ``Node``, each edge real or virtual; nodes and successors in
    the order they were added, an edge added twice kept once."""

    def __init__(self) -> None:
        self._successors: dict[Node, dict[Node, bool]] = {}

    def add_node(self, node: Node) -> None:
        self._successors.setdefault(node, {})

    def add_edge(self, source: Node, target: Node, *, virtual: bool = False) -> None:
        self.add_node(target)
        self._successors.setdefault(source, {})[target] = virtual

    def __iter__(self) -> Iterator[Node]:
        return iter(self._successors)

    def __len__(self) -> int:
        return len(self._successors)

    def __contains__(self, node: object) -> bool:
        return node in self._successors

    def successors(self, node: Node) -> list[Node]:
        return list(self._successors[node])

    def real_successors(self, node: Node) -> list[Node]:
        return [target for target, virtual in self._successors[node].items() if not virtual]

    def out_degree(self, node: Node) -> int:
        return len(self._successors[node])

    def has_edge(self, source: Node, target: Node) -> bool:
        return target in self._successors.get(source, {})

    def edges(self) -> list[tuple[Node, Node, bool]]:
        """(source, target, virtual) for every edge."""
        return [
            (source, target, virtual)
            for source, targets in self._successors.items()
            for target, virtual in targets.items()
        ]

    def predecessors(self) -> dict[Node, list[Node]]:
        found: dict[Node, list[Node]] = {node: [] for node in self._successors}
        for source, targets in self._successors.items():
            for target in targets:
                found[target].append(source)
        return found


def _reaching(start: Node, neighbours: dict[Node, list[Node]]) -> set[Node]:
    """``start`` and every node reached from it through ``neighbours``."""
    seen, pending = {start}, [start]
    while pending:
        for neighbour in neighbours[pending.pop()]:
            if neighbour not in seen:
                seen.add(neighbour)
                pending.append(neighbour)
    return seen


def _strong_components(nodes: Iterable[Node], successors) -> list[list[Node]]:
    """The strongly connected components of the graph ``nodes`` span (Tarjan, without recursion)."""
    index: dict[Node, int] = {}
    lowest: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    components: list[list[Node]] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = lowest[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, remaining = work[-1]
            for target in remaining:
                if target not in index:
                    index[target] = lowest[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(successors(target))))
                    break
                if target in on_stack:
                    lowest[node] = min(lowest[node], index[target])
            else:
                work.pop()
                if work:
                    lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[node])
                if lowest[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member is node:
                            break
                    components.append(component)
    return components


def _connect_endless_loops(graph: FlowGraph, order: dict[Node, int]) -> None:
    """Gives every region that never reaches EXIT one virtual edge to it.

    The edge leaves from a node with a single successor where there is one (the
    condition of ``for (;;)``, a ``goto``), so no real decision gains an outcome.
    """
    stuck = set(graph) - _reaching(EXIT, graph.predecessors())
    # Code that cannot reach EXIT reaches only such code: a component with no edge out of
    # itself is a region control never leaves.
    components = _strong_components(sorted(stuck, key=order.__getitem__), graph.successors)
    for members in components:
        inside = set(members)
        if all(target in inside for member in members for target in graph.successors(member)):
            source = min(members, key=lambda node: (len(graph.real_successors(node)) != 1, order[node]))
            graph.add_edge(source, EXIT, virtual=True)


def _immediate_post_dominators(graph: FlowGraph) -> dict[Node, Node]:
    """Each node's immediate post-dominator (EXIT's is EXIT), for the nodes that reach EXIT:
    immediate dominators on the reversed graph (Cooper, Harvey and Kennedy's iteration)."""
    predecessors = graph.predecessors()
    # Post-order of the reversed graph from EXIT.
    post_order: list[Node] = []
    seen = {EXIT}
    work = [(EXIT, iter(predecessors[EXIT]))]
    while work:
        node, remaining = work[-1]
        for source in remaining:
            if source not in seen:
                seen.add(source)
                work.append((source, iter(predecessors[source])))
                break
        else:
            work.pop()
            post_order.append(node)
    number = {node: position for position, node in enumerate(post_order)}
    dominator: dict[Node, Node] = {EXIT: EXIT}

    def common(first: Node, second: Node) -> Node:
        while first is not second:
            while number[first] < number[second]:
                first = dominator[first]
            while number[second] < number[first]:
                second = dominator[second]
        return first

    changed = True
    while changed:
        changed = False
        for node in reversed(post_order[:-1]):
            found: Node | None = None
            for successor in graph.successors(node):
                if successor in dominator:
                    found = successor if found is None else common(successor, found)
            if found is not None and dominator.get(node) is not found:
                dominator[node] = found
                changed = True
    return dominator


def _control_dependence(graph: FlowGraph) -> dict[Node, set[Node]]:
    """For each node, the nodes with several successors it is directly control dependent on.

    A node depends on a branching node when one of its successors leads to the node
    without passing the branching node's immediate post-dominator (Ferrante et al.).
    Virtual edges and UNKNOWN statements count here: they are no decisions, but
    dependence must pass through them (an endless loop under ``if (c)`` depends on
    ``c``).
    """
    post_dominator = _immediate_post_dominators(graph)
    deciders: dict[Node, set[Node]] = {}
    for branching in graph:
        if graph.out_degree(branching) < 2:
            continue
        joins_at = post_dominator[branching]
        for node in graph.successors(branching):
            while node is not joins_at:
                deciders.setdefault(node, set()).add(branching)
                node = post_dominator[node]
    return deciders
