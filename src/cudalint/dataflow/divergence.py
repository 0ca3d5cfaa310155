"""How a branch splits the lanes of a warp.

A warp runs one instruction stream: where its lanes disagree on a condition it runs
both paths, each with the other lanes idle. The split is computed by evaluating the
condition in every lane of a warp of the block (the block's shape decides: a
``threadIdx.y % 2`` splits a 16x16 block's warps, not a 32x8 block's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow.interpret import Branch, LoopRun
from cudalint.dataflow.symbolic import Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import BlockShape, LaneEvaluator, evaluators, refine_variance, value_dependent
from cudalint.dataflow.warps import first_running_warp, loop_trips


@dataclass(frozen=True)
class BranchPattern:
    variance: Variance
    taken_lanes: int | None
    """Lanes of the first warp that take the branch, when it can be computed."""
    active_lanes: int
    bounds_guard: bool
    """A comparison of a thread index against a uniform limit: only the last warp splits."""
    block_uniform: bool
    """Every thread of the block decides the same way (what a block barrier needs)."""


def branch_pattern(branch: Branch, shape: BlockShape, bindings: Mapping[str, int] | None = None,
                   loops: Mapping[Atom, LoopRun] | None = None) -> BranchPattern:
    condition = branch.condition
    variance = refine_variance(condition, shape, loop_trips(loops))
    # Over the loop iterations (and parameter values) tried, keep the one that splits the
    # warp most evenly: a reduction's `t < stride` diverges only in its last iterations.
    best = None
    for evaluator in evaluators(shape, condition, *(g.condition for g in branch.guards), bindings=bindings,
                                trips=loop_trips(loops)):
        warp, active = first_running_warp(branch.guards, evaluator)
        values = evaluator.lanes(condition, warp)
        taken = None if None in values else sum(1 for v, on in zip(values, active) if on and v)
        count = sum(active)
        split = min(taken, count - taken) if taken is not None else -1
        if best is None or split > best[0]:
            best = (split, taken, count, evaluator)
    _, taken, count, evaluator = best
    loop = branch.stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)
    return BranchPattern(variance, taken, count, _is_bounds_guard(condition, loop),
                         _block_uniform(condition, variance, evaluator))


def _block_uniform(condition: Sym, variance: Variance, evaluator: LaneEvaluator) -> bool:
    if variance is Variance.UNIFORM:
        return True
    if variance is not Variance.WARP_UNIFORM or value_dependent(condition):
        return False
    outcomes = set()
    for warp in range(evaluator.shape.warps()):
        outcomes.update(bool(v) for v in evaluator.lanes(condition, warp) if v is not None)
    return len(outcomes) <= 1


def _is_bounds_guard(condition: Sym, loop: bool = False) -> bool:
    """A thread index compared against a limit known only at run time: only the warp that
    holds the limit splits. In a loop the lanes walk together (``j = start + lane; j < end;
    j += 32``) the limit may be one per warp: only each warp's last trip splits."""
    if len(condition.terms) != 1 or condition.terms[0][1] != 1 or len(condition.terms[0][0]) != 1:
        return False
    atom = condition.terms[0][0][0]
    if atom.kind is not AtomKind.OPERATION or atom.name not in ("<", ">", "<=", ">=", "&&"):
        return False
    if atom.name == "&&":
        return all(_is_bounds_guard(argument, loop) for argument in atom.args)
    left, right = atom.args
    limits = {Variance.UNIFORM, Variance.WARP_UNIFORM} if loop else {Variance.UNIFORM}
    if Variance.THREAD not in (left.variance, right.variance):
        return False
    limit = right if left.variance is Variance.THREAD else left
    return limit.variance in limits and value_dependent(limit)
