from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import Facts, Variance
from cudalint.diagnostics import Level
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
    multiple of 32, a value read from an address every lane shares such as a `__shared__`
    flag after a barrier, a ballot or a shuffle from one lane) and bounds guards against a
    limit known only at run time (only the last warp, or a warp-strided loop's last trip,
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
                condition = facts.source_text(stmt.cond.span) if stmt.cond is not None else ""
                work = _statements(stmt)
                if _select_like(stmt):
                    continue  # Compiled to a select or a predicated instruction: no branch to diverge.
                if pattern.variance is Variance.DATA:
                    # Whether lanes disagree depends on the data: worth knowing, not a verdict.
                    yield self.finding(
                        f"{stmt.kind.value}{_quoted(condition)} depends on data each thread loaded: lanes that read "
                        f"values on different sides diverge, and the warp then runs both paths ({_work(work)})",
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
                        f"only one lane runs this {stmt.kind.value}{_quoted(condition, '(', ')')}; the other 31 idle while its "
                        f"{work} statement{'s' if work != 1 else ''} run",
                        stmt.span, level=Level.NOTE, function=kernel.function.display_name,
                        properties={"takenLanes": 1, "guardedStatements": work},
                    )
                    continue
                per_trip = f", {work} statement{'s' if work != 1 else ''} per trip" if work else ""
                guarded = f", {_work(work)}" if work else ""
                if stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO):
                    cost = f"the warp keeps looping until its last lane is done{per_trip} with finished lanes idle"
                else:
                    cost = f"the warp runs both paths{guarded} with the other lanes idle"
                yield self.finding(
                    f"{what}{_quoted(condition)} diverges within a warp: {split}{shape}; {cost}",
                    stmt.span, function=kernel.function.display_name,
                    properties={"takenLanes": pattern.taken_lanes, "activeLanes": pattern.active_lanes,
                                "variance": pattern.variance.name.lower(), "guardedStatements": work},
                )


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


def _quoted(condition: str, before: str = "", after: str = "") -> str:
    """`` `cond` `` as the message shows it; nothing when the source text is not available."""
    return f" {before}`{condition}`{after}" if condition else ""


def _work(count: int) -> str:
    return "an empty body" if count == 0 else f"{count} guarded statement{'s' if count != 1 else ''}"


def _statements(stmt: ir.Stmt) -> int:
    """Statements the decision guards (its bodies), as a measure of the serialized work."""
    guarded = list(stmt.body) + ([stmt.orelse] if stmt.orelse is not None else [])
    return sum(1 for part in guarded for node in part.walk()
               if node.kind not in (ir.StmtKind.COMPOUND, ir.StmtKind.NULL))
