"""CL301 divergent-branch: a branch, loop bound or switch whose lanes disagree within a
warp, where the idle lanes cost.

The rule's documentation is its class docstring (docs/rules/CL301.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import Branch, BranchPattern, Cost, Facts, Idiom, KernelFacts, Variance
from cudalint.diagnostics import Level
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class DivergentBranch(FactRule):
    """A branch, loop bound or switch whose lanes disagree within a warp, where the idle lanes cost.

    ## What it does
    Evaluates each condition in every lane of the block's warps (the block shape comes
    from the launch, `__launch_bounds__`, or is assumed a multiple of 32 wide) under
    sampled loop trips and parameter values, and estimates what the split costs as
    Nsight Compute counts it: idle lane slots, that is the lanes that do not take a path
    times the instructions of that path (estimated from the source: operations, memory
    accesses, math calls, helpers, loops at their trip counts, a bound the launch sets
    included), times the trips of the loops around the branch, as a share of the lane
    slots its function issues; a share that used a launch's loop bound names it. Idle
    lanes are counted out of the warp's 32, as Nsight Compute counts them (32 slots per
    warp instruction, less the threads predicated on): the lanes an enclosing guard
    already switched off idle through a nested guard's body too (`if (threadIdx.y == 3)`
    inside `if (threadIdx.x == 3)` in a 4x4x8 block runs 2 lanes of 32, not 2 of the 8
    that reached it), and so do the lanes a block narrower than a warp never had. nvcc
    predicates a short body instead of branching around it: then every warp that reaches
    it issues the body with the other lanes switched off, and that counts too, save at
    the kernel's end, where the lanes that skip the body exit before it and only the warps
    with a lane on it issue it (measured on real code: the last `if (threadIdx.x == 0)` of
    a kernel runs its body one thread per instruction, in one warp of each block). An early
    `return`, `continue` or `break` idles the lanes that leave for the rest of the
    function or trip. The message gives the split and the estimated share; `cudalint
    facts` prints it for every branch.

    The function's issued lane slots, the share's denominator, are counted as the warps
    issue them: a path is issued by the warps that have a lane on it, so the body of
    `if (threadIdx.x == 0)` counts once per block, not once per warp (counted once per
    warp, a serial loop written for one thread looked like a tenth of its real share),
    and a loop issues as many trips as its warp's longest lane. Where a loop's condition
    can be evaluated in every lane (thread coordinates, block shape, launch values, its
    own counter entering linearly), its trips are counted lane by lane for each warp of
    the block: `for (t = threadIdx.x % 32; t < T; t++)` runs T trips in every warp and
    leaves lane l idle for l of them; a warp-stride walk over per-warp segments
    (`for (j = lane; j < len; j += 32)`, `len` differing between warps) idles the
    ragged last round of each warp; `k < 256` costs 256 trips, not a guess. Such a loop
    is reported when its idle lane-trips cost at least 0.5% of the lane slots and its
    lanes disagree at 5% or more of its branch executions (Nsight Compute's divergent
    branches); a long stride walk whose only ragged round is its last stays below that.
    A loop whose body does nothing costs nothing (nvcc deletes it). `bench/realcode/
    branch_costs.py` measures the estimate against the hardware's per-line counters.

    Levels:
    - `warning`: the lanes of a warp disagree whatever the run-time values (thread-index
      arithmetic such as `threadIdx.x % 2`, `lane < 16`, a loop bound of `threadIdx.x % 8`,
      a single lane running a loop or a long body, a loop whose trips, counted lane by
      lane with the block shape and launch values, differ within a warp), and the idle
      lanes cost at least 0.5% of the function's lane slots. On the real-code
      measurements (H100, per source line) a divergence idling less than that is counted
      as no hazard.
    - `note`: whether the lanes disagree depends on data each thread loaded, on values
      computed in ways cudalint does not follow (thread coordinates passed through a call
      whose body it cannot see), or on a size known only at run time (`if (x[i] > t)`,
      `while (node != NIL)`, a border test against a run-time width, a tile's ragged
      edge `if (threadIdx.x < width)`), and it would cost at least 0.5% if half the lanes
      took each path. Measured on real code,
      such conditions split the warps in a little over half the cases: a lead for the
      profiler, not a verdict. A bound the host code gives the launch (`half = 16`
      passed by a wrapper, a `#define` width, `rows` in `j == rows - 1`) is evaluated
      with that value, once per launch configuration, and the message names the launch.
      Where every run-time value of the condition comes from the launch, the split is
      known, not sampled, and judged as a warning like any other (measured on real code:
      the first and last rows of pencils 2 lanes wide and 128 rows tall, `j == 0` and
      `j == my - 1` with `my = 128` from the host, split the first and the last warp of
      each block, 2 lanes from 30, for 4.6% of the kernel's lane slots; a mask width of 3
      from the host, `threadIdx.x >= blockDim.x - n`, splits a warp of every block). A
      single lane chosen by a launch value (`pick == threadIdx.x`) with a short body
      stays unreported, as below. Where the launch's grid is known and the condition
      compares block coordinates with launch values (an image border, `x - radius >= 0
      && x + radius < width` with `x = blockIdx.x * 16 + threadIdx.x`), the grid's edge
      blocks are judged beside the inner ones, each standing for as many blocks as it
      does: the inner blocks run such a border whole, the edge blocks' warps split it,
      and the share counts both (measured on a 16x16-block 8x8 grid: 140 of 512 branch
      executions divergent, all in the edge blocks; the message names the block it
      counts the split in).
    - Nothing, where the split is inherent or cheap (measured on H100, Nsight Compute
      SourceCounters):
      - a body that only assigns register values (`if (v > m) m = v;`, `sum += t`) compiles
        to selects: predicated-on threads equal active threads, no lane waits;
      - a bounds guard on a grid-wide index (`if (i < n)`, `i` built from `blockIdx`) and
        the last trip of a grid- or block-stride loop split only the warp that holds the
        limit: a stride loop's ragged last round diverged once in 32 branch executions,
        and the partial warp of a bounds guard exits through a predicated branch. The
        same guard on a block-local index (`threadIdx.x < width`) splits a warp of every
        block and is a note. A loop's lanes walk together only when each trip moves the
        index further than the lanes lie apart (`j += 32` over `j = lane`): a start spread
        over the lanes with a smaller step (`t = threadIdx.x % 32; t < T; t++`) is no
        stride loop, and its lanes run up to 31 trips apart;
      - a single lane's short body (`if (threadIdx.x == 0) out[blockIdx.x] = s[0];`):
        the other lanes idle for a store or two (a single lane running a loop idles 31 of
        32 lanes for every instruction of it and is reported with its share, which for a
        serial scan or a block's final normalization written for one thread can be most
        of the kernel; a short loop in a long kernel stays under 0.5%). An assignment to a
        `__shared__` or file-scope variable is a store, issued predicated, not a select;
      - a path taken on a ticket from a fetch-and-add (`if (atomicInc(&count,
        gridDim.x - 1) == gridDim.x - 1)`, `if (atomicSub(&left, 1) == 0)`): the value
        it returns differs in every thread of the grid, so one thread of the grid takes
        the path (the last block's combine): the path counts once per grid, one block's
        worth in as many as the grid has (the launch's, or as many as a loop over them is
        taken to run), not once per block (measured on real code: a one-lane guard around
        a ticket and its combine idled 2.2% of a bounding-box reduction's lane slots;
        estimated 34% with the combine in every block, 1.4% with it once per grid);
      - any other split whose idle lanes stay under 0.5% of the function's lane slots:
        halo loads of a stencil tile in a kernel whose work is the stencil, a reduction's
        `if (t < s)` in a kernel that does much else. A tree reduction's tail in a kernel
        that is mostly the reduction does cost (12% of the threads predicated on at
        `s[t] += s[t + s]` in the probe) and is reported with that share, judged over
        the trips its loop runs: a doubling `stride < n` runs about log2(n) trips, not
        every trip a 32-bit counter allows;
      - warp-uniform conditions (`threadIdx.x / 32`, `blockIdx`, parameters, `threadIdx.y`
        when blockDim.x is a multiple of 32), also on loads at an address the same
        across the warp and on variables a loop carries from a warp-uniform start by
        warp-uniform steps (a tree walked one warp at a time: its stack depth, the node
        read from the warp's stack, `__all_sync` deciding whether to open it).

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
            reported: set[int] = set()
            for branch, pattern in kernel.branches:
                cost = pattern.cost
                if cost not in (Cost.COSTLY, Cost.POSSIBLE) or id(branch.stmt) in reported:
                    continue
                reported.add(id(branch.stmt))
                yield self._finding(facts, kernel, branch, pattern)

    def _finding(self, facts: Facts, kernel: KernelFacts, branch: Branch, pattern: BranchPattern):
        stmt = branch.stmt
        # " `cond`", or nothing when the condition's text is not in this file.
        text = facts.source_text(stmt.cond.span) if stmt.cond is not None else ""
        condition = (" " + wording.code(text, "")).rstrip()
        work = _statements(stmt)
        is_loop = stmt.kind in (ir.StmtKind.FOR, ir.StmtKind.WHILE, ir.StmtKind.DO)
        what = "loop trip count" if is_loop else f"{stmt.kind.value} condition"
        share = pattern.idle_share if pattern.cost is Cost.COSTLY else pattern.potential_share
        where = _function_of(branch)
        cost = f"about {_percent(share)} of the lane slots {where} issues"
        properties = {
            "takenLanes": pattern.taken_lanes,
            "activeLanes": pattern.active_lanes,
            "variance": pattern.variance.name.lower(),
            "guardedStatements": work,
            "idleShare": round(share, 4),
            "cost": pattern.cost.value,
            **kernel.launch_properties(branch.condition, *kernel.launch_trip_conditions),
        }
        common = {"function": kernel.function.display_name, "properties": properties}
        if is_loop:
            serial = "finished lanes idle until the warp's last lane is done" + (
                f" ({wording.count(work, 'statement')} per trip)" if work else ""
            )
        elif pattern.leaves:
            leaves_loop = any(s.kind in (ir.StmtKind.CONTINUE, ir.StmtKind.BREAK) for s in stmt.walk())
            rest = "this trip" if leaves_loop else where
            serial = f"the lanes that leave idle while the others run the rest of {rest}"
        else:
            serial = "the other lanes idle while the warp runs " + (
                f"its {wording.count(work, 'guarded statement')}" if work else "the guarded code"
            )
        launch = kernel.launch_note(branch.condition, *kernel.launch_trip_conditions)
        if pattern.cost is Cost.POSSIBLE:
            loaded = kernel.fed_by_loads(branch.condition, lane_addresses_only=False)
            cause = (
                ("data each thread loaded" if loaded else "values computed in ways cudalint does not follow")
                if pattern.variance is Variance.DATA
                else f"values its launch sets ({launch})"
                if launch
                else "values known only at run time"
            )
            return self.finding(
                f"{what}{condition} depends on {cause}: where the lanes of a warp disagree, {serial}; "
                f"if half of them did, {cost}",
                stmt.span,
                level=Level.NOTE,
                **common,
            )
        shape = (
            " (assuming blockDim.x is a multiple of 32)"
            if kernel.shape.assumed
            else f" (block {kernel.shape.x}x{kernel.shape.y}x{kernel.shape.z}" + (f", {launch}" if launch else "") + ")"
        )
        if pattern.taken_lanes == 1 and pattern.active_lanes > 1:
            return self.finding(
                f"only one lane runs this {stmt.kind.value}{condition or ' statement'}{shape}; the other "
                f"{pattern.active_lanes - 1} idle while it runs {wording.count(work, 'statement')}: {cost}",
                stmt.span,
                **common,
            )
        if pattern.trips is not None and pattern.trips.lane_varying:
            split = f"its lanes run {pattern.trips.fewest} to {pattern.trips.most} trips"
        elif pattern.taken_lanes is not None and pattern.taken_lanes not in (0, pattern.active_lanes):
            split = f"{pattern.taken_lanes} of {pattern.active_lanes} lanes take it"
            if pattern.edge_block is not None:
                split += f" in the grid's edge block ({', '.join(map(str, pattern.edge_block))})"
        else:
            split = "lanes disagree"
        idiom = " (a tree reduction's shrinking active set)" if pattern.idiom is Idiom.REDUCTION_TAIL else ""
        return self.finding(
            f"{what}{condition} diverges within a warp{idiom}: {split}{shape}; {serial}: {cost}", stmt.span, **common
        )


def _percent(share: float) -> str:
    return f"{share:.1%}" if share < 0.1 else f"{share:.0%}"


def _function_of(branch: Branch) -> str:
    return f"`{branch.inlined_from[-1]}`" if branch.inlined_from else "the kernel"


def _statements(stmt: ir.Stmt) -> int:
    """Statements the decision guards (its bodies), as a measure of the serialized work."""
    guarded = list(stmt.body) + ([stmt.orelse] if stmt.orelse is not None else [])
    return sum(
        1 for part in guarded for node in part.walk() if node.kind not in (ir.StmtKind.COMPOUND, ir.StmtKind.NULL)
    )
