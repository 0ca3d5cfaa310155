"""Control flow and control dependence (``cudalint.dataflow.cfg``) on small kernels.

Each snippet defines a kernel ``k``, marks statements with calls ``s(N);`` and is
checked by the names of the decisions as written, so assertions read like the
source. All snippets are parsed together, once, each in a namespace of its own.
"""

from __future__ import annotations

import networkx as nx
import pytest

from cudalint import ir
from cudalint.dataflow.cfg import ENTRY, EXIT, ControlFlow, FlowGraph, _immediate_post_dominators

S = ir.StmtKind
_SNIPPETS: list[str] = []


def snippet(source: str) -> str:
    """Registers a snippet; returns the namespace its kernel ``k`` will live in."""
    _SNIPPETS.append(source)
    return f"snippet{len(_SNIPPETS)}"


@pytest.fixture(scope="module")
def translation_unit(snippets) -> ir.TranslationUnit:
    namespaces = (f"namespace snippet{number} {{\n{source}\n}}\n" for number, source in enumerate(_SNIPPETS, 1))
    return snippets.unit("__device__ void s(int);\n" + "".join(namespaces), "snippets.cu")


class Kernel:
    """The control flow of one snippet's kernel, with lookups by marker and by condition."""

    def __init__(self, tu: ir.TranslationUnit, namespace: str):
        self.tu = tu
        (self.function,) = [f for f in tu.functions if f.qualified_name == f"{namespace}::k"]
        self.flow = ControlFlow(self.function)
        self.statements = list(self.function.body.walk())
        # Whatever the snippet does, every node must have an immediate post-dominator,
        # the one networkx (an independent implementation) finds.
        reference = nx.immediate_dominators(as_networkx(self.flow.graph).reverse(), EXIT)
        reference[EXIT] = EXIT
        assert set(reference) == set(self.flow.graph)
        assert _immediate_post_dominators(self.flow.graph) == reference

    def s(self, marker: int) -> ir.Stmt:
        """The statement ``s(marker);``."""
        found = [
            stmt
            for stmt in self.statements
            if stmt.kind is S.EXPR
            and stmt.expr.kind is ir.ExprKind.CALL
            and stmt.expr.name == "s"
            and stmt.expr.children[0].value == marker
        ]
        assert len(found) == 1, marker
        return found[0]

    def text(self, decision: ir.Stmt) -> str:
        """A decision as written: its condition, or its keyword when it has none."""
        if decision.cond is None:
            return decision.kind.value
        span = decision.cond.span
        return self.tu.source_lines[span.line - 1][span.column - 1 : span.end_column - 1]

    def decision(self, condition: str) -> ir.Stmt:
        (found,) = [d for d in self.flow.decisions if self.text(d) == condition]
        return found

    def controllers(self, stmt: ir.Stmt | int) -> list[str]:
        return [self.text(d) for d in self.flow.controlling(self.s(stmt) if isinstance(stmt, int) else stmt)]

    def first(self, kind: S) -> ir.Stmt:
        return next(stmt for stmt in self.statements if stmt.kind is kind)

    def virtual_edges(self) -> list[tuple]:
        return [(a, b) for a, b, virtual in self.flow.graph.edges() if virtual]


def as_networkx(graph: FlowGraph) -> nx.DiGraph:
    reference = nx.DiGraph()
    reference.add_nodes_from(graph)
    reference.add_edges_from((source, target) for source, target, _ in graph.edges())
    return reference


@pytest.fixture
def kernel(translation_unit):
    return lambda namespace: Kernel(translation_unit, namespace)


# ------------------------------------------------------------------ straight line and branches


STRAIGHT_LINE = snippet('__global__ void k(int n) { s(1); int x = n; s(2); asm("nop;"); ; }')


def test_straight_line_has_no_control_dependence(kernel):
    k = kernel(STRAIGHT_LINE)
    assert k.flow.decisions == ()
    for stmt in k.statements[1:]:
        assert k.flow.controlling(stmt) == ()
    graph = k.flow.graph
    assert len(graph) == 7  # ENTRY, five statements, EXIT
    assert all(graph.out_degree(node) == 1 for node in graph if node is not EXIT)


def test_function_without_body_goes_from_entry_to_exit():
    declaration = ir.Function("f", "f", "f", ir.FunctionKind.DEVICE, None, (), None, None)
    assert ControlFlow(declaration).graph.edges() == [(ENTRY, EXIT, False)]


IF_ELSE = snippet("__global__ void k(bool c) { s(1); if (c) s(2); else s(3); s(4); }")


def test_if_else_branches_depend_on_the_condition(kernel):
    k = kernel(IF_ELSE)
    assert k.controllers(1) == []
    assert k.controllers(2) == ["c"]
    assert k.controllers(3) == ["c"]
    assert k.controllers(4) == []
    assert k.controllers(k.decision("c")) == []


NESTED_IF = snippet("""
__global__ void k(bool a, bool b) {
    if (a) {
        if (b) { s(1); }
        s(2);
    }
    s(3);
}""")


def test_nested_if_depends_on_both_conditions(kernel):
    k = kernel(NESTED_IF)
    assert k.controllers(1) == ["a", "b"]
    assert k.controllers(2) == ["a"]
    assert k.controllers(k.decision("b")) == ["a"]
    assert k.controllers(3) == []


IF_WITH_INIT = snippet("__global__ void k(int n) { if (int x = n) s(1); }")


def test_if_with_init_runs_the_init_unconditionally(kernel):
    k = kernel(IF_WITH_INIT)
    init = k.decision("n").init
    assert init.kind is S.DECL and k.flow.controlling(init) == ()
    assert k.controllers(1) == ["n"]


EMPTY_THEN = snippet("__global__ void k(bool c) { if (c) {} s(1); }")


def test_branches_that_rejoin_at_once_control_nothing(kernel):
    k = kernel(EMPTY_THEN)
    assert k.controllers(1) == []


# ------------------------------------------------------------------ return


EARLY_RETURN = snippet("""
__global__ void k(int n) {
    s(1);
    if (threadIdx.x >= n) return;
    s(2);
    if (n > 4) s(3);
    s(4);
}""")


def test_code_after_early_return_depends_on_its_if(kernel):
    k = kernel(EARLY_RETURN)
    assert k.controllers(1) == []
    assert k.controllers(k.first(S.RETURN)) == ["threadIdx.x >= n"]
    assert k.controllers(2) == ["threadIdx.x >= n"]
    assert k.controllers(3) == ["threadIdx.x >= n", "n > 4"]
    assert k.controllers(4) == ["threadIdx.x >= n"]


RETURN_IN_BOTH_BRANCHES = snippet("""
__global__ void k(bool c) {
    if (c) { s(1); return; } else { s(2); return; }
    s(3);
}""")


def test_return_in_both_branches_leaves_the_rest_unreachable(kernel):
    k = kernel(RETURN_IN_BOTH_BRANCHES)
    assert k.controllers(1) == ["c"]
    assert k.controllers(2) == ["c"]
    assert k.s(3) not in nx.descendants(as_networkx(k.flow.graph), ENTRY)
    assert k.controllers(3) == []


# ------------------------------------------------------------------ loops


FOR_AND_WHILE = snippet("""
__global__ void k(int n) {
    for (int i = 0; i < n; ++i) { s(1); }
    s(2);
    while (n > 0) { s(3); }
}""")


def test_loop_body_depends_on_the_condition_and_code_after_does_not(kernel):
    k = kernel(FOR_AND_WHILE)
    loop = k.decision("i < n")
    assert k.controllers(1) == ["i < n"]
    assert k.controllers(loop) == ["i < n"]  # evaluated once more per iteration
    assert k.flow.controlling(loop.init) == ()
    assert k.controllers(2) == []
    assert k.controllers(3) == ["n > 0"]
    # The step runs after the body and leads back to the condition.
    assert k.flow.graph.has_edge(k.s(1), loop.step)
    assert k.flow.graph.has_edge(loop.step, loop)


CONDITIONAL_BREAK = snippet("""
__global__ void k(int n, bool c) {
    for (int i = 0; i < n; ++i) {
        s(1);
        if (c) break;
        s(2);
    }
    s(3);
}""")


def test_conditional_break_does_not_control_code_after_the_loop(kernel):
    k = kernel(CONDITIONAL_BREAK)
    assert k.controllers(1) == ["i < n", "c"]  # c decides how often it runs
    assert k.controllers(2) == ["i < n", "c"]
    assert k.controllers(3) == []


CONDITIONAL_CONTINUE = snippet("""
__global__ void k(int n, bool c) {
    for (int i = 0; i < n; ++i) {
        s(1);
        if (c) continue;
        s(2);
    }
    s(3);
}""")


def test_conditional_continue_controls_the_rest_of_the_body_only(kernel):
    k = kernel(CONDITIONAL_CONTINUE)
    loop = k.decision("i < n")
    assert k.flow.graph.has_edge(k.first(S.CONTINUE), loop.step)
    assert k.controllers(1) == ["i < n"]
    assert k.controllers(2) == ["i < n", "c"]
    assert k.controllers(3) == []


WHILE_TRUE_WITH_BREAK = snippet("""
__global__ void k(bool c) {
    while (true) {
        s(1);
        if (c) break;
        s(2);
    }
    s(3);
}""")


def test_while_true_with_break(kernel):
    k = kernel(WHILE_TRUE_WITH_BREAK)
    assert k.virtual_edges() == []
    assert k.controllers(1) == ["c"]  # the literal condition decides nothing
    assert k.controllers(2) == ["c"]
    assert k.controllers(3) == []


ENDLESS_FOR = snippet("""
__global__ void k(bool c) {
    s(1);
    for (;;) {
        s(2);
        if (c) s(3);
    }
}""")


def test_endless_for_without_break_still_reaches_exit(kernel):
    k = kernel(ENDLESS_FOR)
    loop = k.first(S.FOR)
    assert k.virtual_edges() == [(loop, EXIT)]
    assert k.controllers(1) == []
    assert k.controllers(2) == []
    assert k.controllers(3) == ["c"]
    assert k.controllers(loop) == []


ENDLESS_WHILE_AND_GOTO_LOOP = snippet("""
__global__ void k(bool a, bool b) {
    if (a) { while (1) { s(1); } }
again:
    s(2);
    if (b) s(3);
    goto again;
}""")


def test_endless_while_one_and_goto_loop(kernel):
    k = kernel(ENDLESS_WHILE_AND_GOTO_LOOP)
    assert len(k.virtual_edges()) == 2
    assert k.controllers(1) == ["a"]
    assert k.controllers(2) == ["a"]  # a thread that took the endless loop never gets here
    assert k.controllers(3) == ["a", "b"]
    assert k.controllers(k.first(S.GOTO)) == ["a"]


DO_WHILE = snippet("""
__global__ void k(bool a, bool b) {
    do { s(1); if (b) continue; s(2); } while (a);
    s(3);
    do { s(4); } while (0);
}""")


def test_do_while_runs_its_body_at_least_once(kernel):
    k = kernel(DO_WHILE)
    assert k.controllers(1) == ["a"]  # only how often
    assert k.controllers(2) == ["a", "b"]
    assert k.flow.graph.has_edge(k.first(S.CONTINUE), k.decision("a"))
    assert k.controllers(3) == []
    assert k.controllers(4) == []
    assert not k.flow.graph.has_edge(k.decision("0"), k.s(4))


THREE_NESTED_LOOPS = snippet("""
__global__ void k(float *out, const float *a, int n, int m, int p) {
    if (threadIdx.x >= n) return;
    for (int i = 0; i < n; ++i) {
        s(1);
        for (int j = 0; j < m; ++j) {
            float acc = 0.0f;
            for (int l = 0; l < p; ++l) {
                acc += a[l];
                s(2);
            }
            __syncthreads();
            out[j] = acc;
        }
        s(3);
    }
    s(4);
}""")


def test_three_nested_loops(kernel):
    k = kernel(THREE_NESTED_LOOPS)
    guard = "threadIdx.x >= n"
    outer, middle, inner = k.decision("i < n"), k.decision("j < m"), k.decision("l < p")
    assert k.controllers(1) == [guard, "i < n"]
    assert k.controllers(2) == [guard, "i < n", "j < m", "l < p"]
    barrier = next(stmt for stmt in k.statements if stmt.kind is S.EXPR and stmt.expr.name == "__syncthreads")
    assert k.controllers(barrier) == [guard, "i < n", "j < m"]
    assert k.controllers(3) == [guard, "i < n"]
    assert k.controllers(4) == [guard]
    assert k.flow.loop_of(k.s(2)) is inner
    assert k.flow.loop_of(barrier) is middle
    assert k.flow.loop_of(inner) is middle
    assert k.flow.loop_of(inner.init) is middle
    assert k.flow.loop_of(k.s(3)) is outer
    assert k.flow.loop_of(outer) is None
    assert k.flow.loop_of(k.s(4)) is None


# ------------------------------------------------------------------ switch and goto


SWITCH_FALLTHROUGH = snippet("""
__global__ void k(int n) {
    switch (n) {
    case 0:
        s(1);
    case 1:
    case 2:
        s(2);
        break;
    default:
        s(3);
    }
    s(4);
}""")


def test_switch_with_fallthrough_and_default(kernel):
    k = kernel(SWITCH_FALLTHROUGH)
    graph = k.flow.graph
    switch = k.decision("n")
    assert set(graph.successors(switch)) == {k.s(1), k.s(2), k.s(3)}
    assert graph.has_edge(k.s(1), k.s(2))  # fallthrough
    assert not graph.has_edge(k.s(2), k.s(3))  # break
    for marker in (1, 2, 3):
        assert k.controllers(marker) == ["n"]
    assert k.controllers(4) == []


SWITCH_WITHOUT_DEFAULT = snippet("""
__global__ void k(int n, bool c) {
    for (int i = 0; i < n; ++i) {
        switch (n) { case 0: if (c) continue; s(1); }
        s(2);
    }
}""")


def test_switch_without_default_can_skip_every_case(kernel):
    k = kernel(SWITCH_WITHOUT_DEFAULT)
    switch = k.decision("n")
    assert k.flow.graph.has_edge(switch, k.s(2))
    assert k.controllers(1) == ["i < n", "n", "c"]
    assert k.controllers(2) == ["i < n", "n", "c"]  # continue skips it
    assert k.flow.loop_of(k.s(1)) is k.decision("i < n")


FORWARD_GOTO = snippet("""
__global__ void k(bool c) {
    s(1);
    if (c) goto done;
    s(2);
done:
    s(3);
}""")


def test_forward_goto_skips_code(kernel):
    k = kernel(FORWARD_GOTO)
    assert k.flow.graph.has_edge(k.first(S.GOTO), k.s(3))
    assert k.controllers(2) == ["c"]
    assert k.controllers(3) == []


BACKWARD_GOTO = snippet("""
__global__ void k(bool c) {
again:
    s(1);
    if (c) goto again;
    s(2);
}""")


def test_backward_goto_repeats_code(kernel):
    k = kernel(BACKWARD_GOTO)
    assert k.controllers(1) == ["c"]
    assert k.controllers(2) == []


# ------------------------------------------------------------------ statements without nodes


REGIONS = snippet("""
__global__ void k(int n, bool c) {
    if (c) {
        while (n > 0) { s(1); }
    }
    switch (n) { case 3: s(2); }
here:
    s(3);
}""")


def test_regions_answer_for_where_control_enters_them(kernel):
    k = kernel(REGIONS)
    branch = k.decision("c").body[0]
    assert branch.kind is S.COMPOUND
    assert k.controllers(branch) == ["c"]  # not the while loop it starts with
    assert k.controllers(k.first(S.CASE)) == ["n"]
    assert k.controllers(k.first(S.LABEL)) == []
    assert k.controllers(k.function.body) == []


def test_empty_region_and_foreign_statement_are_rejected(kernel):
    k = kernel(EMPTY_THEN)
    with pytest.raises(ValueError, match="holds no statement"):
        k.flow.controlling(k.decision("c").body[0])
    stranger = ir.Stmt(S.NULL, k.s(1).span)
    with pytest.raises(KeyError, match="not in k"):
        k.flow.controlling(stranger)
    with pytest.raises(KeyError):
        k.flow.loop_of(stranger)


# ------------------------------------------------------------------ what the IR leaves out


RANGE_FOR = snippet("""
__global__ void k(int n, bool c) {
    int values[4] = {1, 2, 3, 4};
    for (int i = 0; i < n; ++i) {
        for (int v : values) {
            if (c) break;
            s(1);
        }
        s(2);
    }
}""")


def test_range_for_is_unknown_but_still_a_loop_for_break(kernel):
    k = kernel(RANGE_FOR)
    range_for = k.first(S.UNKNOWN)
    assert k.flow.graph.has_edge(k.first(S.BREAK), k.s(2))
    assert k.flow.graph.has_edge(range_for, k.s(2))  # it may run no iteration
    assert k.controllers(1) == ["i < n", "c"]
    assert k.controllers(2) == ["i < n"]
    assert range_for not in k.flow.decisions


MACRO_FOR = snippet("""
#define UNTIL(i, n) for (int i = 0; i < n;)
#define EACH(i, n) for (int i = 0; i < n; ++i)
__global__ void k(int n) {
    UNTIL(j, n) { s(1); ++j; }
    EACH(q, n) { s(2); }
    s(3);
}""")


def test_for_header_from_a_macro(kernel):
    k = kernel(MACRO_FOR)
    lost, complete = (d for d in k.flow.decisions if d.kind is S.FOR)
    assert lost.cond.kind is ir.ExprKind.UNKNOWN  # clauses unknown; the loop must not turn endless
    assert k.virtual_edges() == []
    assert k.flow.controlling(k.s(1)) == (lost,)
    assert k.flow.controlling(k.s(2)) == (complete,)
    assert k.controllers(3) == []
