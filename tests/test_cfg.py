"""Control flow and control dependence (``cudalint.dataflow.cfg``) on small kernels.

Each snippet marks statements with calls ``s(N);`` and names decisions by the
condition as written, so assertions read like the source.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from cudalint import frontend, ir
from cudalint.dataflow.cfg import ENTRY, EXIT, ControlFlow

S = ir.StmtKind
PRELUDE = "__device__ void s(int);\n"

_ENVIRONMENT: list[frontend.ParseEnvironment] = []


def environment() -> frontend.ParseEnvironment:
    if not _ENVIRONMENT:
        _ENVIRONMENT.append(frontend.build_environment(frontend.FrontendOptions(header_mode="embedded")))
    return _ENVIRONMENT[0]


class Kernel:
    """The control flow of kernel ``k`` in a snippet, with lookups by marker and condition."""

    def __init__(self, tmp_path: Path, source: str):
        path = tmp_path / "snippet.cu"
        path.write_text(PRELUDE + source, encoding="utf-8")
        self.tu = frontend.parse_file(str(path), environment())
        assert not self.tu.errors, self.tu.errors
        (self.function,) = [f for f in self.tu.functions if f.name == "k"]
        self.flow = ControlFlow(self.function)
        self.statements = list(self.function.body.walk())
        # Whatever the snippet does, every node must have an immediate post-dominator.
        post_dominated = set(nx.immediate_dominators(self.flow.graph.reverse(), EXIT)) | {EXIT}
        assert post_dominated == set(self.flow.graph)

    def s(self, marker: int) -> ir.Stmt:
        """The statement ``s(marker);``."""
        found = [
            stmt for stmt in self.statements
            if stmt.kind is S.EXPR and stmt.expr.kind is ir.ExprKind.CALL and stmt.expr.name == "s"
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
        return [(a, b) for a, b, virtual in self.flow.graph.edges(data="virtual") if virtual]


@pytest.fixture
def kernel(tmp_path):
    return lambda source: Kernel(tmp_path, source)


# ------------------------------------------------------------------ straight line and branches


def test_straight_line_has_no_control_dependence(kernel):
    k = kernel("__global__ void k(int n) { s(1); int x = n; s(2); asm(\"nop;\"); ; }")
    assert k.flow.decisions == ()
    for stmt in k.statements[1:]:
        assert k.flow.controlling(stmt) == ()
    chain = list(nx.dfs_preorder_nodes(k.flow.graph, ENTRY))
    assert chain[0] is ENTRY and chain[-1] is EXIT and len(chain) == 7


def test_function_without_body_goes_from_entry_to_exit():
    declaration = ir.Function("f", "f", "f", ir.FunctionKind.DEVICE, None, (), None, None)
    assert list(ControlFlow(declaration).graph.edges) == [(ENTRY, EXIT)]


def test_if_else_branches_depend_on_the_condition(kernel):
    k = kernel("__global__ void k(bool c) { s(1); if (c) s(2); else s(3); s(4); }")
    assert k.controllers(1) == []
    assert k.controllers(2) == ["c"]
    assert k.controllers(3) == ["c"]
    assert k.controllers(4) == []
    assert k.controllers(k.decision("c")) == []


def test_nested_if_depends_on_both_conditions(kernel):
    k = kernel("""
    __global__ void k(bool a, bool b) {
        if (a) {
            if (b) { s(1); }
            s(2);
        }
        s(3);
    }""")
    assert k.controllers(1) == ["a", "b"]
    assert k.controllers(2) == ["a"]
    assert k.controllers(k.decision("b")) == ["a"]
    assert k.controllers(3) == []


def test_if_with_init_runs_the_init_unconditionally(kernel):
    k = kernel("__global__ void k(int n) { if (int x = n) s(1); }")
    init = k.decision("n").init
    assert init.kind is S.DECL and k.flow.controlling(init) == ()
    assert k.controllers(1) == ["n"]


def test_branches_that_rejoin_at_once_control_nothing(kernel):
    k = kernel("__global__ void k(bool c) { if (c) {} s(1); }")
    assert k.controllers(1) == []


# ------------------------------------------------------------------ return


def test_code_after_early_return_depends_on_its_if(kernel):
    k = kernel("""
    __global__ void k(int n) {
        s(1);
        if (threadIdx.x >= n) return;
        s(2);
        if (n > 4) s(3);
        s(4);
    }""")
    assert k.controllers(1) == []
    assert k.controllers(k.first(S.RETURN)) == ["threadIdx.x >= n"]
    assert k.controllers(2) == ["threadIdx.x >= n"]
    assert k.controllers(3) == ["threadIdx.x >= n", "n > 4"]
    assert k.controllers(4) == ["threadIdx.x >= n"]


def test_return_in_both_branches_leaves_the_rest_unreachable(kernel):
    k = kernel("""
    __global__ void k(bool c) {
        if (c) { s(1); return; } else { s(2); return; }
        s(3);
    }""")
    assert k.controllers(1) == ["c"]
    assert k.controllers(2) == ["c"]
    assert k.s(3) not in nx.descendants(k.flow.graph, ENTRY)
    assert k.controllers(3) == []


# ------------------------------------------------------------------ loops


def test_loop_body_depends_on_the_condition_and_code_after_does_not(kernel):
    k = kernel("""
    __global__ void k(int n) {
        for (int i = 0; i < n; ++i) { s(1); }
        s(2);
        while (n > 0) { s(3); }
    }""")
    loop = k.decision("i < n")
    assert k.controllers(1) == ["i < n"]
    assert k.controllers(loop) == ["i < n"]  # evaluated once more per iteration
    assert k.flow.controlling(loop.init) == ()
    assert k.controllers(2) == []
    assert k.controllers(3) == ["n > 0"]
    # The step runs after the body and leads back to the condition.
    assert k.flow.graph.has_edge(k.s(1), loop.step)
    assert k.flow.graph.has_edge(loop.step, loop)


def test_conditional_break_does_not_control_code_after_the_loop(kernel):
    k = kernel("""
    __global__ void k(int n, bool c) {
        for (int i = 0; i < n; ++i) {
            s(1);
            if (c) break;
            s(2);
        }
        s(3);
    }""")
    assert k.controllers(1) == ["i < n", "c"]  # c decides how often it runs
    assert k.controllers(2) == ["i < n", "c"]
    assert k.controllers(3) == []


def test_conditional_continue_controls_the_rest_of_the_body_only(kernel):
    k = kernel("""
    __global__ void k(int n, bool c) {
        for (int i = 0; i < n; ++i) {
            s(1);
            if (c) continue;
            s(2);
        }
        s(3);
    }""")
    loop = k.decision("i < n")
    assert k.flow.graph.has_edge(k.first(S.CONTINUE), loop.step)
    assert k.controllers(1) == ["i < n"]
    assert k.controllers(2) == ["i < n", "c"]
    assert k.controllers(3) == []


def test_while_true_with_break(kernel):
    k = kernel("""
    __global__ void k(bool c) {
        while (true) {
            s(1);
            if (c) break;
            s(2);
        }
        s(3);
    }""")
    assert k.virtual_edges() == []
    assert k.controllers(1) == ["c"]  # the literal condition decides nothing
    assert k.controllers(2) == ["c"]
    assert k.controllers(3) == []


def test_endless_for_without_break_still_reaches_exit(kernel):
    k = kernel("""
    __global__ void k(bool c) {
        s(1);
        for (;;) {
            s(2);
            if (c) s(3);
        }
    }""")
    loop = k.first(S.FOR)
    assert k.virtual_edges() == [(loop, EXIT)]
    assert k.controllers(1) == []
    assert k.controllers(2) == []
    assert k.controllers(3) == ["c"]
    assert k.controllers(loop) == []


def test_endless_while_one_and_goto_loop(kernel):
    k = kernel("""
    __global__ void k(bool c) {
        if (c) { while (1) { s(1); } }
    again:
        s(2);
        if (c) s(3);
        goto again;
    }""")
    assert len(k.virtual_edges()) == 2
    assert k.controllers(1) == ["c"]
    assert k.controllers(2) == []
    assert k.controllers(3) == ["c"]


def test_do_while_runs_its_body_at_least_once(kernel):
    k = kernel("""
    __global__ void k(bool c) {
        do { s(1); if (c) continue; s(2); } while (c);
        s(3);
        do { s(4); } while (0);
    }""")
    (loop,) = [d for d in k.flow.decisions if d.kind is S.DO and k.text(d) == "c"]
    assert k.controllers(1) == ["c"]
    assert [d.kind for d in k.flow.controlling(k.s(2))] == [S.DO, S.IF]
    assert k.flow.graph.has_edge(k.first(S.CONTINUE), loop)
    assert k.controllers(3) == []
    assert k.controllers(4) == []
    assert not k.flow.graph.has_edge(k.decision("0"), k.s(4))


def test_three_nested_loops(kernel):
    k = kernel("""
    __global__ void k(float *out, const float *a, int n, int m, int p) {
        __shared__ float tile[32];
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
    guard = "threadIdx.x >= n"
    outer, middle, inner = k.decision("i < n"), k.decision("j < m"), k.decision("l < p")
    assert k.controllers(1) == [guard, "i < n"]
    assert k.controllers(2) == [guard, "i < n", "j < m", "l < p"]
    barrier = next(s for s in k.statements if s.kind is S.EXPR and s.expr.name == "__syncthreads")
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


def test_switch_with_fallthrough_and_default(kernel):
    k = kernel("""
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
    graph = k.flow.graph
    switch = k.decision("n")
    assert set(graph.successors(switch)) == {k.s(1), k.s(2), k.s(3)}
    assert graph.has_edge(k.s(1), k.s(2))  # fallthrough
    assert not graph.has_edge(k.s(2), k.s(3))  # break
    for marker in (1, 2, 3):
        assert k.controllers(marker) == ["n"]
    assert k.controllers(4) == []


def test_switch_without_default_can_skip_every_case(kernel):
    k = kernel("""
    __global__ void k(int n, bool c) {
        for (int i = 0; i < n; ++i) {
            switch (n) { case 0: if (c) continue; s(1); }
            s(2);
        }
    }""")
    switch = k.decision("n")
    assert k.flow.graph.has_edge(switch, k.s(2))
    assert k.controllers(1) == ["i < n", "n", "c"]
    assert k.controllers(2) == ["i < n", "n", "c"]  # continue skips it
    assert k.flow.loop_of(k.s(1)) is k.decision("i < n")


def test_forward_goto_skips_code(kernel):
    k = kernel("""
    __global__ void k(bool c) {
        s(1);
        if (c) goto done;
        s(2);
    done:
        s(3);
    }""")
    assert k.flow.graph.has_edge(k.first(S.GOTO), k.s(3))
    assert k.controllers(2) == ["c"]
    assert k.controllers(3) == []


def test_backward_goto_repeats_code(kernel):
    k = kernel("""
    __global__ void k(bool c) {
    again:
        s(1);
        if (c) goto again;
        s(2);
    }""")
    assert k.controllers(1) == ["c"]
    assert k.controllers(2) == []


# ------------------------------------------------------------------ statements without nodes


def test_regions_answer_for_where_control_enters_them(kernel):
    k = kernel("""
    __global__ void k(int n, bool c) {
        if (c) {
            while (n > 0) { s(1); }
        }
        switch (n) { case 3: s(2); }
    here:
        s(3);
    }""")
    branch = k.decision("c").body[0]
    assert branch.kind is S.COMPOUND
    assert k.controllers(branch) == ["c"]  # not the while loop it starts with
    assert k.controllers(k.first(S.CASE)) == ["n"]
    assert k.controllers(k.first(S.LABEL)) == []
    assert k.controllers(k.function.body) == []


def test_empty_region_and_foreign_statement_are_rejected(kernel):
    k = kernel("__global__ void k(bool c) { if (c) {} s(1); }")
    with pytest.raises(ValueError, match="holds no statement"):
        k.flow.controlling(k.decision("c").body[0])
    stranger = ir.Stmt(S.NULL, k.s(1).span)
    with pytest.raises(KeyError, match="not in k"):
        k.flow.controlling(stranger)
    with pytest.raises(KeyError):
        k.flow.loop_of(stranger)
