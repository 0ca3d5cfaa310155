"""CL302 barrier-in-divergent-code: a block barrier that only some threads reach.

The rule's documentation is its class docstring (docs/rules/CL302.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import Access, AccessKind, Barrier, BarrierScope, Facts, KernelFacts, Variance
from cudalint.diagnostics import Level
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class BarrierInDivergentCode(FactRule):
    """A block barrier that only some threads reach.

    ## What it does
    Finds block barriers reached under a condition that differs between threads of the
    block, or inside a loop whose trip count does: `__syncthreads()` and
    `__syncthreads_count/and/or`, inline PTX `bar.sync`, and cooperative groups' block
    and grid barriers in every form (`cg::sync(block)`, `block.sync()`,
    `this_thread_block().sync()`, `block.barrier_wait(...)`, `grid.sync()`). Warp
    barriers (`__syncwarp()` with a full mask, `sync()` of a tile of 32 threads) are
    checked against conditions that differ between the lanes of a warp; barriers over
    some lanes only (a partial mask, a tile narrower than a warp, a coalesced group) are
    meant for divergent code and stay quiet. Threads that have returned no longer take
    part in a barrier, so a barrier after a thread-dependent early `return` is fine and
    stays quiet. Conditions on values every thread of the block reads alike are
    uniform: a `__shared__` flag or work item read after a barrier, the block's record
    in global memory (`d_tiles[blockIdx.x].rows`), `__constant__` data, the result of
    `__syncthreads_or`, and a reduction over each full warp (`__reduce_or_sync`, a
    butterfly of `__shfl_xor_sync`) of values every warp reads alike, lane for lane, from
    shared memory after a barrier (the per-warp partial results, reduced again). For a
    warp barrier, values the same across each warp are uniform too: loads at an address
    the same across the warp, the results of `__all_sync`/`__any_sync`/`__ballot_sync`,
    and a variable a loop carries from such a start by such steps under such conditions
    (the stack depth of a tree walked one warp at a time, its top read by every lane
    after lane 0 pushed): the `__syncwarp()` calls inside such a walk are met by all
    lanes together (measured: synccheck 0 errors, `bar_ok_warp_stack_walk` in
    `tests/corpus/barriers/divergent_barriers.cu`).

    Levels:
    - `error`: certain from thread indices alone: the lanes of one warp split at the
      barrier (an `if` on `threadIdx.x % 2` around it, a barrier in each arm), or whole
      warps of the launched block shape skip it and then meet another barrier (an `if` on
      `(threadIdx.x / 32) % 2` around it, a `__syncthreads()` after). Undefined by the CUDA
      programming model, and compute-sanitizer's synccheck reports both on the GPU
      ("Divergent thread(s) in warp", or barriers passed by different threads together;
      about one error per offending thread in the measured corpus).
    - `warning`: the same where it is not certain (the condition depends on data or on a
      size known only at run time, often uniform in practice, or the block shape is
      assumed), and threads that leave a loop holding the barrier at different trips,
      when the threads that leave early then meet a barrier (a later `__syncthreads()`,
      or the same one on another trip of an enclosing loop: `bar.sync 0` counts the
      warps that arrive wherever they arrive from, so their arrival releases the others'
      barrier inside the loop). Where lanes leave such a loop early and then touch shared
      memory that another thread accesses in the loop, one of the two a store, the
      warning sits on that access, naming the barrier they skipped: it runs while the
      others are still in the loop, with no barrier between them, and compute-sanitizer's
      racecheck reports the race there (measured: `tests/corpus/barriers/
      barrier_trips.cu`), while synccheck finds the barriers themselves clean.
    - `error` (`warning` where the block shape is assumed) for a loop holding a barrier
      whose trip count, counted lane by lane over every warp of the launched block,
      differs between whole warps (`k < 1 + threadIdx.x / 64`): the warps that finish
      early stop arriving at the barrier while the others wait at it, and synccheck
      reports the block's threads divergent at the loop's first barrier (measured: about
      one error per thread of the early warps, the kernel finishing). One finding per
      loop, at its first barrier. Where only lanes of a warp differ and every warp runs
      the same longest trip count (a ragged block-stride loop, `j < threadIdx.x % 4`),
      each warp still arrives at every barrier and synccheck reports nothing.
    - `note`: a barrier on each arm of an `if`/`else` whose condition keeps warps whole
      (`warp % 2 == 0`), each arm reaching exactly one: both are `bar.sync 0`, the same
      hardware barrier, which every warp reaches once, so the block meets there (measured:
      the kernel runs; synccheck still reports the barriers passed together). And as
      for a warning, but the threads that skip the barrier meet no barrier
      again before they exit. Exited threads no longer hold a barrier up: measured
      synccheck runs of such code (a barrier skipped by odd warps, a barrier in a loop
      of `threadIdx.x % 4` trips, a tree-building loop whose threads leave one by one)
      report 0 errors and the kernels finish. Still undefined by the CUDA rules, so worth
      knowing, not a verdict.
    - Nothing for a barrier in a loop whose trip count is written per thread but which
      every thread of the launched block runs equally often (`for (i = threadIdx.x;
      i < 1024; i += blockDim.x)` in a block of 256): the trips are counted lane by lane
      over every warp of the block, with the launch's values; every thread reaches the
      barrier the same number of times. Where the count depends on a value the launch
      does not give, the level is the one above.

    ## Why is this bad?
    Every thread of the block must reach the same barrier the same number of times.
    Otherwise the behaviour is undefined: the block hangs, or threads pass different
    barriers and read shared memory before it is written.

    ## Example
    ```cuda
    __global__ void stage(float* a) {
        __shared__ float s[256];
        int t = threadIdx.x;
        if (t < 32) {
            s[t] = a[t];
            __syncthreads();
            a[t] = s[31 - t];
        }
    }
    ```

    ## Use instead
    ```cuda
    __global__ void stage(float* a) {
        __shared__ float s[256];
        int t = threadIdx.x;
        if (t < 32) s[t] = a[t];
        __syncthreads();
        if (t < 32) a[t] = s[31 - t];
    }
    ```

    ## References
    - CUDA C++ Programming Guide, "Synchronization Functions"
    - compute-sanitizer `--tool synccheck`
    """

    code = "CL302"
    name = "barrier-in-divergent-code"
    category = "control-flow"
    default_level = Level.ERROR
    precision = "high"
    tags = ("correctness", "synchronization")

    def check(self, facts: Facts):
        for kernel in facts.kernels:
            reported: set[int] = set()
            for barrier in kernel.barriers:
                if barrier.scope is BarrierScope.PARTIAL:
                    continue
                decision = _divergent_decision(kernel, barrier)
                if decision is None:
                    continue
                pattern = next(p for b, p in kernel.branches if b.stmt is decision)
                is_loop = decision.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)
                if is_loop and barrier.scope is BarrierScope.BLOCK:
                    verdict = self._loop_finding(facts, kernel, barrier, decision, reported)
                    if verdict is not _GENERAL:
                        if verdict is not None:
                            yield verdict
                        continue
                splits_a_warp = pattern.variance >= Variance.THREAD and not is_loop
                skippers_exit = not splits_a_warp and kernel.skippers_exit(barrier)
                condition = wording.code(
                    facts.source_text(decision.cond.span) if decision.cond is not None else "",
                    f"the {decision.kind.value} condition",
                )
                where = "a loop whose trip count" if is_loop else f"{condition}, which"
                scope = "lanes of a warp" if barrier.scope is BarrierScope.WARP else "threads of the block"
                call = wording.code(facts.source_text(barrier.expr.span) or barrier.name, "the barrier")
                consequence = "threads that skip it leave the others waiting or racing"
                other_arm = None if splits_a_warp or is_loop else kernel.other_arm_barrier(barrier, decision)
                if other_arm is not None:
                    other_call = wording.code(facts.source_text(other_arm.expr.span) or other_arm.name, "the barrier")
                    consequence = (
                        f"the warps that skip it reach {other_call} on the other arm (line "
                        f"{other_arm.expr.span.line}) instead, the same hardware barrier, which every warp "
                        "reaches once: the block meets there and the kernel runs, though the CUDA rules ask every "
                        "thread to reach the same barrier and compute-sanitizer's synccheck reports it"
                    )
                elif skippers_exit:
                    consequence = (
                        "threads that skip it exit without meeting another barrier, and exited threads no "
                        "longer hold a barrier up: it runs, though the CUDA rules leave it undefined"
                    )
                elif is_loop and not splits_a_warp:
                    consequence = _after_the_loop(kernel, barrier, decision) or consequence
                level = _level(kernel, pattern, is_loop, splits_a_warp, skippers_exit or other_arm is not None)
                yield self.finding(
                    f"{call} is reached under {where} differs between {scope} "
                    f"(line {decision.span.line}): {consequence}; move the barrier out of the divergent code",
                    barrier.expr.span,
                    level=level,
                    function=kernel.function.display_name,
                    properties={
                        "decisionLine": decision.span.line,
                        "splitsAWarp": splits_a_warp,
                        "skippersExit": skippers_exit and other_arm is None,
                        **({"otherArmLine": other_arm.expr.span.line} if other_arm is not None else {}),
                    },
                )

    def _loop_finding(self, facts: Facts, kernel: KernelFacts, barrier: Barrier, decision: ir.Stmt, reported):
        """A barrier loop whose trips were counted: whole warps that leave early (one
        finding, at the loop's first barrier), or early leavers that touch shared memory
        others use in the loop (one finding, at that access); ``_GENERAL`` otherwise."""
        call = wording.code(facts.source_text(barrier.expr.span) or barrier.name, "the barrier")
        common = {"function": kernel.function.display_name}
        if kernel.warps_leave_early(decision):
            if id(decision) in reported:
                return None
            reported.add(id(decision))
            profile = kernel.barrier_loop_trips[id(decision)]
            return self.finding(
                f"{call} is reached in a loop whose trip count differs between warps of the block (line "
                f"{decision.span.line}: warps run {profile.shortest_warp} to {profile.most} trips"
                + ("" if not kernel.shape.assumed else ", assuming blockDim.x is a multiple of 32")
                + "): the warps that finish early stop arriving at this barrier while the others still wait at "
                "it, which compute-sanitizer's synccheck reports as threads of the block divergent at it; give "
                "every warp the same number of trips, or move the barrier out of the loop",
                barrier.expr.span,
                level=Level.WARNING if kernel.shape.assumed else Level.ERROR,
                properties={"decisionLine": decision.span.line, "warpsLeaveEarly": True},
                **common,
            )
        met = kernel.skipped_then(barrier)
        if not isinstance(met, Access):
            return _GENERAL
        if id(met) in reported:
            return None
        reported.add(id(met))
        what = "write" if met.kind is not AccessKind.LOAD else "read"
        return self.finding(
            f"threads that leave the loop at line {decision.span.line} early (its trip count differs between "
            f"threads of the block) {what} shared memory here while the others are still in the loop: the "
            f"barrier they skipped ({call}, line {barrier.expr.span.line}) no longer orders this access after "
            "theirs, a race on shared memory (compute-sanitizer's racecheck reports it); give every thread the "
            "same number of trips, or synchronize before this access",
            met.span,
            level=Level.WARNING,
            properties={"decisionLine": decision.span.line, "barrierLine": barrier.expr.span.line},
            **common,
        )


_GENERAL = object()
"""The barrier is judged by the general rule (no counted trips settle it)."""


def _after_the_loop(kernel: KernelFacts, barrier: Barrier, loop: ir.Stmt) -> str | None:
    """What the threads that leave the loop early meet while the others are still in it:
    another barrier, or this one again on the next trip of a loop around ``loop``."""
    met = kernel.skipped_then(barrier)
    if met is loop:
        return (
            "threads that leave it early come back to it on the next trip of the loop around it and "
            "arrive at this barrier while the others still wait at it a trip behind: they pass it together "
            "at different trips"
        )
    if met is not None and not isinstance(met, Access):
        return (
            f"threads that leave the loop early reach the barrier at line {met.span.line} while the others "
            "wait at this one: they pass different barriers together"
        )
    return None


def _level(kernel: KernelFacts, pattern, is_loop: bool, splits_a_warp: bool, skippers_exit: bool) -> Level:
    """An error only where the split is certain: it follows from thread indices alone (not
    from data or a run-time size) and, for whole warps, from the block shape of a launch."""
    if skippers_exit:
        return Level.NOTE
    certain = pattern.variance is not Variance.DATA and not pattern.size_dependent
    if splits_a_warp:
        return Level.ERROR if certain else Level.WARNING
    whole_warps = pattern.variance is Variance.WARP_UNIFORM and not is_loop and not kernel.shape.assumed
    return Level.ERROR if certain and whole_warps else Level.WARNING


def _divergent_decision(kernel: KernelFacts, barrier: Barrier) -> ir.Stmt | None:
    """The innermost thread-varying decision the barrier depends on, early exits aside."""
    block_wide = barrier.scope is not BarrierScope.WARP
    varying = {
        id(b.stmt)
        for b, p in kernel.branches
        if (_block_varying(kernel, b.stmt, p) if block_wide else p.variance >= Variance.THREAD and not _all_agree(p))
    }
    return next((d for d in reversed(kernel.barrier_decisions(barrier)) if id(d) in varying), None)


def _block_varying(kernel: KernelFacts, stmt: ir.Stmt, pattern) -> bool:
    """Threads of the block decide differently; for a loop holding the barrier whose trips
    were counted for every thread of the launched block, whether the counts differ."""
    equal = kernel.equal_trips(stmt)
    return not pattern.block_uniform if equal is None else not equal


def _all_agree(pattern) -> bool:
    return (
        pattern.taken_lanes is not None
        and pattern.taken_lanes in (0, pattern.active_lanes)
        and pattern.variance is not Variance.DATA
    )
