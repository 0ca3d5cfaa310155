from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import Facts, Variance
from cudalint.diagnostics import Level
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class DivergentBranch(FactRule):
    """A branch, loop bound or switch whose condition differs between the lanes of a warp.

    ## What it does
    Evaluates each condition for the 32 lanes of a warp: a thread-id parity
    (`threadIdx.x % 2`), a lane range (`threadIdx.x < 16`), data each thread read, a
    trip count that depends on the thread. When the lanes disagree, the warp runs both
    sides one after the other with the other lanes idle; the message gives how many
    lanes take the branch and how much work it guards. Warp-uniform conditions
    (`threadIdx.x / 32`, `blockIdx`, parameters, `threadIdx.y` when blockDim.x is a
    multiple of 32) and bounds guards against a uniform limit (only the last warp
    splits) stay quiet; single-lane idioms (`if (threadIdx.x == 0)`) are a `note`.

    ## Why is this bad?
    A warp executes one instruction stream. Lanes that do not take a path sit idle
    while it runs, so a 50/50 split halves throughput in the guarded code, and a loop
    whose trip count varies runs as long as its longest lane.

    ## Example
    ```cuda
    __global__ void alternate(float* a) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (threadIdx.x % 2) a[i] = sqrtf(a[i]);
        else a[i] = a[i] * a[i];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void alternate(float* a) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if ((threadIdx.x / 32) % 2) a[i] = sqrtf(a[i]);
        else a[i] = a[i] * a[i];
    }
    ```

    ## References
    - CUDA C++ Programming Guide, "SIMT Architecture"
    - Nsight Compute, `smsp__sass_branch_targets_threads_divergent.sum`
    """

    code = "CL301"
    name = "divergent-branch"
    category = "control-flow"
    default_level = Level.WARNING
    precision = "high"
    tags = ("performance", "divergence")

    def check(self, facts: Facts):
        for kernel in facts.kernels:
            for branch, pattern in kernel.branches:
                if pattern.variance < Variance.THREAD or pattern.bounds_guard:
                    continue
                if pattern.taken_lanes is not None and pattern.taken_lanes in (0, pattern.active_lanes):
                    continue  # Every lane of the warp agrees under this block shape.
                stmt = branch.stmt
                # " `cond`", or nothing when the condition's text is not in this file.
                condition = " " + wording.code(facts.source_text(stmt.cond.span) if stmt.cond is not None else "", "")
                condition = condition.rstrip()
                work = _statements(stmt)
                if _select_like(stmt):
                    continue  # Compiled to a select or a predicated instruction: no branch to diverge.
                if pattern.variance is Variance.DATA:
                    # Whether lanes disagree depends on the data: worth knowing, not a verdict.
                    yield self.finding(
                        f"{stmt.kind.value} condition{condition} depends on data each thread loaded: lanes that read "
                        f"values on different sides diverge, and the warp then runs both paths{_guarding(work)}",
                        stmt.span, level=Level.NOTE, function=kernel.function.display_name,
                        properties={"variance": "data", "guardedStatements": work},
                    )
                    continue
                split = (f"{pattern.taken_lanes} of {pattern.active_lanes} lanes take it"
                         if pattern.taken_lanes is not None else "lanes disagree")
                what = "loop trip count" if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO) else \
                    f"{stmt.kind.value} condition"
                shape = " (assuming blockDim.x is a multiple of 32)" if kernel.shape.assumed else \
                    f" (block {kernel.shape.x}x{kernel.shape.y}x{kernel.shape.z})"
                if pattern.taken_lanes == 1:
                    if work <= 1:
                        continue  # `if (lane == 0) out[w] = v;`: the intended single-lane idiom.
                    yield self.finding(
                        f"only one lane runs this {stmt.kind.value}{condition or ' statement'}; the other "
                        f"{pattern.active_lanes - 1} idle while its {wording.count(work, 'statement')} run",
                        stmt.span, level=Level.NOTE, function=kernel.function.display_name,
                        properties={"takenLanes": 1, "guardedStatements": work},
                    )
                    continue
                if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
                    per_trip = f", {wording.count(work, 'statement')} per trip" if work else ""
                    cost = f"the warp keeps looping until its last lane is done{per_trip} with finished lanes idle"
                else:
                    guarded = f", {wording.count(work, 'guarded statement')}" if work else ""
                    cost = f"the warp runs both paths{guarded} with the other lanes idle"
                yield self.finding(
                    f"{what}{condition} diverges within a warp: {split}{shape}; {cost}",
                    stmt.span, function=kernel.function.display_name,
                    properties={"takenLanes": pattern.taken_lanes, "activeLanes": pattern.active_lanes,
                                "variance": pattern.variance.name.lower(), "guardedStatements": work},
                )


def _guarding(work: int) -> str:
    return f" ({wording.count(work, 'guarded statement')})" if work else ""


def _select_like(stmt: ir.Stmt) -> bool:
    """An `if` whose arms each assign one register value: the compiler emits a select or a
    predicated instruction, so no lane waits for another."""
    if stmt.kind is not ir.StmtKind.IF:
        return False
    arms = [arm for arm in (*stmt.body, stmt.orelse) if arm is not None]
    for arm in arms:
        statements = [s for s in arm.walk() if s.kind not in (ir.StmtKind.COMPOUND, ir.StmtKind.NULL)]
        if len(statements) != 1 or statements[0].kind is not ir.StmtKind.EXPR or statements[0].expr is None:
            return False
        expr = statements[0].expr
        if expr.kind is not ir.ExprKind.ASSIGN or expr.children[0].kind is not ir.ExprKind.DECL_REF:
            return False
        if any(node.kind in (ir.ExprKind.CALL, ir.ExprKind.SUBSCRIPT, ir.ExprKind.MEMBER) or
               (node.kind is ir.ExprKind.UNARY and node.op == "*") for node in expr.walk()):
            return False
    return bool(arms)


def _statements(stmt: ir.Stmt) -> int:
    """Statements the decision guards (its bodies), as a measure of the serialized work."""
    guarded = list(stmt.body) + ([stmt.orelse] if stmt.orelse is not None else [])
    return sum(1 for part in guarded for node in part.walk()
               if node.kind not in (ir.StmtKind.COMPOUND, ir.StmtKind.NULL))
