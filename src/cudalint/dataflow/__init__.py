"""Facts derived from the IR. Rules read these; they never re-derive them.

This module is the whole of what rules and figures may import from the analysis: the facts
(``Facts``, ``KernelFacts`` and what they hold), the vocabulary needed to read them
(``Sym`` and its atoms, access and barrier kinds, the warp and bank geometry), and the
lane-level models the figures draw one warp with (the same ones that cost the facts). A decision
a rule needs is a fact computed here, never a helper of a submodule imported by the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from cudalint import ir
from cudalint.dataflow.banks import (
    BANK_BYTES,
    BANKS,
    Collision,
    Request,
    SharedInstruction,
    WideAccess,
    access_rounds,
    lane_words,
    matrix_access,
    merged_accesses,
    phase_lanes,
    request_phases,
    request_wavefronts,
    shared_access_pattern,
    shared_instruction,
    worst_collision,
)
from cudalint.dataflow.barriers import other_arm_barrier, reaching_decisions, skipped_then, skippers_exit
from cudalint.dataflow.cfg import ControlFlow
from cudalint.dataflow.divergence import (
    BranchPattern,
    Cost,
    DeviceFunctions,
    Idiom,
    Workload,
    branch_pattern,
    examined_warps,
    issue_fractions,
    most_split,
)
from cudalint.dataflow.entry_points import entry_points
from cudalint.dataflow.facts import (
    Access,
    AccessKind,
    Barrier,
    BarrierScope,
    Branch,
    Cut,
    KernelTrace,
    LoopRun,
    MemorySpace,
)
from cudalint.dataflow.interpret import trace_kernel
from cudalint.dataflow.interpret.loops import static_trips
from cudalint.dataflow.launches import launch_records
from cudalint.dataflow.local_arrays import LocalArray, local_arrays, math_library_stack
from cudalint.dataflow.math_paths import MathSlowPath, math_slow_paths
from cudalint.dataflow.occupancy import (
    LaunchOccupancy,
    Limiter,
    Occupancy,
    Step,
    launch_occupancy,
    source_shared_bytes,
)
from cudalint.dataflow.padding import (
    SharedArray,
    TileRequests,
    conflict_free_padding,
    laid_out,
    row_layout,
    shared_arrays,
)
from cudalint.dataflow.precision import Fp64Region, find_fp64_regions
from cudalint.dataflow.registers import (
    RegisterBudget,
    RegisterEstimate,
    estimate_registers,
    launch_bounds_registers,
    register_budget,
)
from cudalint.dataflow.shapes import configurations, launch_place
from cudalint.dataflow.symbolic import COMPARISONS, Atom, AtomKind, Sym, Variance
from cudalint.dataflow.threads import SAMPLE_BLOCK, WARP_SIZE, BlockShape, LaneEvaluator, evaluators, refine_variance
from cudalint.dataflow.trips import TripProfile, trip_profile, trip_profiles
from cudalint.dataflow.unrolling import UnrollModel, UnrollReason, counter_indices
from cudalint.dataflow.warps import (
    SECTOR_BYTES,
    AccessPattern,
    Confidence,
    DataPattern,
    SunkStore,
    access_pattern,
    active_lanes,
    costliest_piece,
    lane_relevant,
    loop_trips,
    sampled_warps,
    sunk_stores,
    transfer_bytes,
)
from cudalint.launches import LaunchRecord
from cudalint.ptxas import KernelResources

__all__ = [
    "BANKS",
    "BANK_BYTES",
    "SAMPLE_BLOCK",
    "WARP_SIZE",
    "Access",
    "AccessKind",
    "AccessPattern",
    "Atom",
    "AtomKind",
    "Barrier",
    "BarrierScope",
    "BlockShape",
    "BuildContext",
    "Branch",
    "Collision",
    "BranchPattern",
    "Confidence",
    "Cost",
    "Cut",
    "DataPattern",
    "Facts",
    "Fp64Region",
    "Idiom",
    "KernelFacts",
    "KernelResources",
    "LaunchContext",
    "LaunchOccupancy",
    "LaunchRecord",
    "Limiter",
    "LocalArray",
    "LoopRun",
    "MathSlowPath",
    "MemorySpace",
    "Occupancy",
    "RegisterBudget",
    "RegisterEstimate",
    "SharedArray",
    "Step",
    "Sym",
    "Variance",
    "row_layout",
    # The lane-level models the figures (cudalint.figures) draw a warp with, the same
    # ones that cost the facts: lanes, sectors, banks and phases, a branch's sides.
    "SECTOR_BYTES",
    "LaneEvaluator",
    "Request",
    "access_rounds",
    "active_lanes",
    "costliest_piece",
    "examined_warps",
    "laid_out",
    "lane_relevant",
    "lane_words",
    "matrix_access",
    "most_split",
    "phase_lanes",
    "request_phases",
    "request_wavefronts",
    "sampled_warps",
    "transfer_bytes",
]


MIN_TILE_WORDS = 8
"""Per-thread values in registers from which a kernel counts as hiding latency with its
own independent work (``KernelFacts.latency_exposed``)."""


@dataclass(frozen=True)
class BuildContext:
    """How the project builds the file, as far as the register analysis needs it."""

    arch: int = 90
    max_registers: int | None = None
    """The build's ``-maxrregcount``."""
    resources: Mapping[str, KernelResources] | None = None
    """ptxas's figures by kernel label (``k``, ``k<8>``) when the file was compiled; None otherwise."""


@dataclass
class KernelFacts:
    """One analyzed entry point: a kernel, or a device function no kernel here calls."""

    function: ir.Function
    shape: BlockShape
    trace: KernelTrace
    bindings: Mapping[str, int] = field(default_factory=dict)
    """Known values of parameters and template constants (e.g. from a recorded launch)."""
    build: BuildContext = field(default_factory=BuildContext)
    records: Mapping[str, ir.Record] = field(default_factory=dict)
    """The translation unit's struct layouts (which per-thread structs hold arrays)."""
    helpers: DeviceFunctions = field(default_factory=DeviceFunctions)
    """The translation unit's device functions by declaration: the work a call runs."""
    tu: ir.TranslationUnit | None = None
    """The translation unit the kernel is in (the file-scope shared arrays it may use)."""
    launch: LaunchRecord | None = None
    """The launch this analysis is for (its block shape and ``bindings``); None when no
    launch of the run speaks for the kernel."""

    def launch_values(self, *values: Sym | None) -> dict[str, int]:
        """The parameters and grid dimensions among ``values``' atoms that the launch
        decides, with their values, and those that decide the trip counts of the loops whose
        counters they name: what a verdict on those values took from the host code."""
        used: dict[str, int] = {}
        pending = [value for value in values if value is not None]
        seen: set[Atom] = set()
        while pending:
            for atom in pending.pop().atoms():
                if atom in seen:
                    continue
                seen.add(atom)
                if atom.kind is AtomKind.PARAMETER and atom.name in self.bindings:
                    used[atom.name] = self.bindings[atom.name]
                elif atom.kind is AtomKind.GRID_DIM and self.shape.grid is not None:
                    used[f"gridDim.{atom.name}"] = self.shape.grid["xyz".index(atom.name)]
                elif atom.kind is AtomKind.ITERATION and atom in self.launch_trips:
                    pending.append(self.loops[atom].condition)
        return {name: used[name] for name in sorted(used)}

    def launch_note(self, *values: Sym | None) -> str:
        """``at the launch in main.cu:40 with n = 3072`` when a verdict on ``values`` used the
        values of a launch; empty otherwise."""
        used = self.launch_values(*values)
        if self.launch is None or not used:
            return ""
        spelled = ", ".join(f"{name} = {value}" for name, value in used.items())
        return f"at the launch in {self.launch.where} with {spelled}"

    def launch_properties(self, *values: Sym | None) -> dict[str, object]:
        """What a finding records of the launch its verdict used (none when it used none)."""
        used = self.launch_values(*values)
        if self.launch is None or not used:
            return {}
        return {"launch": self.launch.where, "launchValues": used}

    @cached_property
    def loops(self) -> dict[Atom, LoopRun]:
        """The kernel's loops as this launch runs them: a loop whose bound is a parameter
        the launch gives (``k < K``) makes the trips that value makes. The compiler does not
        know the launch: what it unrolls is judged on ``trace.loops`` (``unroll_model``)."""
        return {
            atom: run if atom not in self.launch_trips else replace(run, trips=self.launch_trips[atom])
            for atom, run in self.trace.loops.items()
        }

    @cached_property
    def launch_trips(self) -> dict[Atom, int]:
        """Trip counts that only the launch's values decide, by trip counter (the trace
        already counts those the block shape and grid decide)."""
        found = {}
        for atom, run in self.trace.loops.items():
            if run.trips is None and self.bindings:
                trips = static_trips(run.stmt, run.condition, atom, run.geometric, self.shape, self.bindings)
                if trips is not None:
                    found[atom] = trips
        return found

    @property
    def launch_trip_conditions(self) -> tuple[Sym, ...]:
        """The conditions of the loops whose trip counts the launch decides: what a verdict
        weighted by the kernel's work (``workload``) took from the launch."""
        return tuple(self.loops[atom].condition for atom in self.launch_trips)

    @property
    def launch_place(self) -> str | None:
        """Where the launch this analysis is for is written, as messages name it."""
        return None if self.launch is None else launch_place(self.launch, self.function)

    @property
    def label(self) -> str:
        """The kernel as ptxas and launch records name it: ``k`` or ``k<8,float>``."""
        return self.function.display_name.replace(", ", ",")

    @cached_property
    def shared_arrays(self) -> dict[str, SharedArray]:
        """The shared arrays the kernel can name, by name, with how it uses each."""
        return shared_arrays(self.tu, self.function) if self.tu is not None else {}

    @cached_property
    def unroll_model(self) -> UnrollModel:
        """Which loops the compiler unrolls: shared by the local-array and register analyses."""
        return UnrollModel(self.trace.loops, frozenset(self.trace.template_constants), counter_indices(self.trace))

    @cached_property
    def local_arrays(self) -> list[LocalArray]:
        return local_arrays(self.trace, self.unroll_model, self.records)

    @cached_property
    def register_budget(self) -> RegisterBudget:
        return register_budget(self.function, self.build.arch, self.build.max_registers)

    @cached_property
    def register_estimate(self) -> RegisterEstimate:
        return estimate_registers(self.function, self.unroll_model, self.local_arrays, self.records)

    @property
    def resources(self) -> KernelResources | None:
        """ptxas's figures for this kernel, when the file was compiled."""
        compiled = self.build.resources
        return None if compiled is None else compiled.get(self.label)

    @property
    def array_stack_bytes(self) -> int | None:
        """ptxas's stack frame less what the math library may use: room taken by arrays and spills."""
        resources = self.resources
        return None if resources is None else resources.stack_frame - math_library_stack(self.trace)

    @property
    def occupancy_registers(self) -> tuple[int, bool]:
        """Registers per thread for the occupancy, and whether they are ptxas's: else the
        source-level estimate, within the kernel's budget."""
        if self.resources is not None:
            return self.resources.registers, True
        return min(self.register_estimate.registers, self.register_budget.registers), False

    @cached_property
    def static_shared(self) -> tuple[int, bool]:
        """Static shared bytes per block (ptxas's with ``--ptxas``, else the declarations'),
        and whether the kernel or a function it calls sizes a dynamic shared array."""
        file_scope = [var for var in self.tu.globals if var.storage is ir.StorageClass.SHARED] if self.tu else []
        functions = [self.function, *self.called_functions]
        declared, dynamic = source_shared_bytes(functions, file_scope)
        return (declared if self.resources is None else self.resources.shared_bytes), dynamic

    @cached_property
    def called_functions(self) -> list[ir.Function]:
        """The device functions the kernel calls, directly or not."""
        found: dict[str, ir.Function] = {}
        pending = [self.function]
        while pending:
            function = pending.pop()
            for stmt in function.body.walk() if function.body is not None else ():
                for expr in stmt.expressions():
                    for node in expr.walk():
                        callee = self.helpers.get(node.decl) if node.kind is ir.ExprKind.CALL and node.decl else None
                        if callee is not None and callee.decl not in found:
                            found[callee.decl] = callee
                            pending.append(callee)
        return list(found.values())

    def launch_bounds_cap(self, max_threads: int, min_blocks: int) -> int:
        """The registers per thread ptxas would allow under ``__launch_bounds__(max_threads, min_blocks)``."""
        return launch_bounds_registers(max_threads, min_blocks, self.build.arch)

    @cached_property
    def math_slow_paths(self) -> list[MathSlowPath]:
        """The math library calls whose slow paths keep their state in local memory (``math_paths``)."""
        return math_slow_paths(self.function, self.helpers)

    @property
    def latency_exposed(self) -> bool:
        """Whether the kernel's threads wait on global memory with little independent work of
        their own: it loads from global memory and keeps no tile of 8 or more values in
        registers (arrays, fragments). Without such a tile, the loads in flight on an SM, and
        with them the bandwidth it reaches, grow only with its resident warps (Little's law)."""
        reads = any(a.space is MemorySpace.GLOBAL and a.kind is AccessKind.LOAD for a in self.trace.accesses)
        return reads and self.register_estimate.tile_words < MIN_TILE_WORDS

    def launch_occupancy(
        self, block_threads: int, dynamic_shared: int | None, where: str, span: ir.Span
    ) -> LaunchOccupancy:
        """The theoretical occupancy of blocks of ``block_threads`` threads with
        ``dynamic_shared`` bytes at the launch (None: not known), written at ``span``."""
        registers, exact = self.occupancy_registers
        static, dynamic = self.static_shared
        barriers = self.resources.barriers if self.resources is not None else int(bool(self.barriers))
        known = dynamic_shared if dynamic_shared is not None or not dynamic else None
        return launch_occupancy(where, span, self.build.arch, block_threads, registers, exact, static, known, barriers)

    @cached_property
    def accesses(self) -> list[tuple[Access, AccessPattern]]:
        return [(access, self.pattern_with(access, {})) for access in self.trace.accesses]

    @cached_property
    def trip_profiles(self) -> dict[int, TripProfile]:
        """The loops whose trips can be counted lane by lane for this block shape and launch
        (trips.py), by statement identity."""
        return trip_profiles(self.trace.branches, self.shape, self.bindings, self.loops, examined_warps(self.shape))

    @cached_property
    def workload(self) -> Workload:
        """Instructions per thread of the kernel and its helpers, estimated from the IR."""
        fractions = issue_fractions(self.trace.branches, self.shape, self.bindings, self.loops)
        grid = self.shape.grid
        blocks = grid[0] * grid[1] * grid[2] if grid is not None else None
        return Workload(self.function, self.helpers, self.loops, self.trip_profiles, fractions, blocks)

    @cached_property
    def branches(self) -> list[tuple[Branch, BranchPattern]]:
        return [
            (branch, branch_pattern(branch, self.shape, self.bindings, self.loops, self.workload))
            for branch in self.trace.branches
        ]

    @property
    def cut(self) -> Cut | None:
        """Where the analysis stopped when the kernel outran its budget (None: it ran to the end)."""
        return self.trace.cut

    def fed_by_loads(self, value, lane_addresses_only: bool = True) -> bool:
        """Whether data loaded flows into ``value`` (an index read from memory, a loop bound
        loaded per lane), not only thread coordinates combined in ways the analysis does not
        follow; with ``lane_addresses_only``, data loaded at an address that differs between lanes."""
        return self.trace.fed_by_loads(value, lane_addresses_only)

    def lane_variance(self, value: Sym) -> Variance:
        """How ``value`` differs between threads, checked lane by lane in this block shape
        (with the loops' trips as this launch runs them): a thread-index value equal in all
        lanes of every warp (``threadIdx.y`` in 32-wide blocks) is warp-uniform, the same
        check a branch's variance has (``BranchPattern.variance``)."""
        return refine_variance(value, self.shape, loop_trips(self.loops))

    def why(self, value, variance: Variance | None = None) -> list[str]:
        """Why the loaded or computed unknowns in ``value`` vary as they do (with ``variance``:
        only those that vary so), one ``name: reason`` line each."""
        return self.trace.why(value, variance)

    @property
    def barriers(self) -> list[Barrier]:
        return self.trace.barriers

    @cached_property
    def size_parameters(self) -> frozenset[str]:
        """Parameters compared against in conditions (``j < n``, ``x < width``): sizes, not strides."""
        names = set()
        for branch in self.trace.branches:
            for atom in branch.condition.atoms():
                if atom.kind is AtomKind.OPERATION and atom.name in COMPARISONS:
                    names.update(
                        a.name for argument in atom.args for a in argument.atoms() if a.kind is AtomKind.PARAMETER
                    )
        return frozenset(names)

    def size_parameters_of(self, access: Access, offset: Sym | None = None) -> frozenset[str]:
        """Parameters that act as sizes in this access's address (or in ``offset``, another
        address it uses: a cp.async's global source): compared against somewhere,
        the row length of a 2-D index (``col * n + row``, with ``row`` varying too), or the
        row length a flat thread index is decomposed by (``i % W``, ``i / W``): consecutive
        lanes walk along a row of W, and cross at most one row end. A parameter the launch
        gives is no size to guess: its value is known."""
        offset = access.location.offset if offset is None else offset
        varying = {AtomKind.THREAD_INDEX, AtomKind.ITERATION}
        row_lengths = {
            divisor.name
            for atom in offset.atoms()
            if atom.kind is AtomKind.OPERATION and atom.name in ("/", "%") and len(atom.args) == 2
            for divisor in [next(iter(atom.args[1].atoms()), None)]
            if divisor is not None
            and divisor.kind is AtomKind.PARAMETER
            and atom.args[1] == Sym.atom(divisor)
            and any(a.kind in varying for a in atom.args[0].atoms())
        }

        def varies(atom: Atom) -> bool:
            # A thread index or loop counter, also inside a select or a division (a halo's row).
            if atom.kind in varying:
                return True
            return atom.kind is AtomKind.OPERATION and any(varies(a) for arg in atom.args for a in arg.atoms())

        def row_strides(value: Sym) -> set[str]:
            found = set()
            for monomial, _ in value.terms:
                parameters = [a.name for a in monomial if a.kind is AtomKind.PARAMETER]
                if parameters and any(varies(a) for a in monomial):
                    others = [m for m, _ in value.terms if not set(parameters) & {a.name for a in m}]
                    if any(varies(a) for m in others for a in m):
                        found.update(parameters)
                for atom in monomial:
                    # Each side of a select is an address of its own lanes (a halo's, an interior's).
                    if atom.kind is AtomKind.OPERATION and atom.name == "select" and len(atom.args) == 3:
                        found |= row_strides(atom.args[1]) | row_strides(atom.args[2])
            return found

        row_lengths |= row_strides(offset)
        return (frozenset(row_lengths) | self.size_parameters) - self.bindings.keys()

    def pattern_with(self, access: Access, bindings: Mapping[str, int]) -> AccessPattern:
        """The access's cost with some parameter values fixed."""
        if access.space is MemorySpace.SHARED:
            return shared_access_pattern(
                access,
                self.shape,
                {**self.bindings, **bindings},
                self.loops,
                self._merged_shared.get(id(access)),
                self._unrolled_trips,
            )
        sunk = self._sunk_stores.get(id(access))
        if sunk is None:
            return access_pattern(access, self.shape, {**self.bindings, **bindings}, self.loops)
        pattern = access_pattern(
            replace(access, guards=sunk.guards), self.shape, {**self.bindings, **bindings}, self.loops
        )
        return replace(pattern, sunk_with=sunk.lines)

    @cached_property
    def _sunk_stores(self) -> dict[int, SunkStore]:
        """Global stores nvcc sinks into one store after their branch (see ``warps.sunk_stores``)."""
        return sunk_stores([a for a in self.trace.accesses if a.space is not MemorySpace.SHARED])

    def shared_instruction(self, access: Access) -> SharedInstruction:
        """The instruction that serves a shared access: its own, or a wider one nvcc merged it into."""
        return shared_instruction(
            access, self.shape, self.loops, self._merged_shared.get(id(access)), self._unrolled_trips
        )

    def collision(self, access: Access) -> Collision | None:
        """The worst phase of a shared access's requests over the block's warps and the
        values tried: the lanes (an ldmatrix's rows) whose words share a bank."""
        instruction = self.shared_instruction(access)
        rounds = access_rounds(
            access, self.shape, self.bindings, self.loops, instruction.offset, instruction.merged_trips
        )
        requests = [request for _, by_warp in rounds or () for request in by_warp.values()]
        return worst_collision(requests, instruction.size, matrix_access(access)) if requests else None

    def _unrolled_trips(self, run: LoopRun) -> int | None:
        """Trips of a loop the compiler unrolls fully; None for a loop it keeps rolled."""
        return self.unroll_model.trip_count(run) if self.unroll_model.verdict(run) is UnrollReason.UNROLLED else None

    @cached_property
    def _merged_shared(self) -> dict[int, WideAccess]:
        """Shared accesses nvcc merges into wider instructions (see ``banks``)."""
        return merged_accesses(self.trace.accesses, self.trace.barriers, self.shape, self.bindings)

    @cached_property
    def _tile_requests(self) -> TileRequests:
        return TileRequests(self.shape, self.bindings, self.loops)

    def conflict_free_padding(self, access: Access, row_bytes: int, element_bytes: int) -> int | None:
        """Elements to add to each row (``row_bytes`` long, of ``element_bytes`` elements)
        of the 2-D shared tile ``access`` reads or writes, so that the access is free of
        bank conflicts and the tile's accesses together cost fewer wavefronts than now;
        None when the addresses are not known or no padding short of a bank cycle does both."""
        tile = [
            other
            for other in self.trace.accesses
            if other.space is MemorySpace.SHARED and other.location.base == access.location.base
        ]
        return conflict_free_padding(access, tile, self._tile_requests, row_bytes, element_bytes)

    @cached_property
    def control_flow(self) -> ControlFlow:
        return ControlFlow(self.function)

    def barrier_decisions(self, barrier: Barrier) -> tuple[ir.Stmt, ...]:
        """The ifs and loops that decide whether threads reach ``barrier``, outermost first.
        An earlier ``if (c) return;`` is not among them: threads that returned no longer
        take part in barriers (``barriers.reaching_decisions``)."""
        return reaching_decisions(barrier, self.control_flow)

    def skippers_exit(self, barrier: Barrier) -> bool:
        """Threads that skip ``barrier`` exit without meeting another: no barrier follows
        any decision it depends on that differs between threads of the block, and none of
        those decisions sits in a loop (``barriers.skippers_exit``)."""
        return skippers_exit(
            barrier, self.control_flow, self.barriers, self._block_varying, self.trace.accesses, self.threads_collide
        )

    def skipped_then(self, barrier: Barrier) -> ir.Stmt | Access | None:
        """What threads that skip ``barrier`` meet next: a later barrier, the same one again
        on another trip of an enclosing loop, or an access of a shared array the skipped loop
        writes (``barriers.skipped_then``); None when they only exit."""
        return skipped_then(
            barrier, self.control_flow, self.barriers, self._block_varying, self.trace.accesses, self.threads_collide
        )

    def threads_collide(self, first: Access, second: Access) -> bool:
        """Whether a thread's ``second`` access can touch an address another thread of the
        block touches with ``first``, over every warp of the block and the sampled values
        (True where an address cannot be computed)."""
        for evaluator in evaluators(self.shape, first.location.offset, second.location.offset, bindings=self.bindings):
            owners: dict[int, set[int]] = {}
            reached: list[tuple[int, int]] = []
            for warp in range(self.shape.warps()):
                base = warp * WARP_SIZE
                ours = evaluator.lanes(first.location.offset, warp)
                theirs = evaluator.lanes(second.location.offset, warp)
                if None in ours or None in theirs:
                    return True
                for lane, address in enumerate(ours):
                    owners.setdefault(address, set()).add(base + lane)
                reached += [(base + lane, address) for lane, address in enumerate(theirs)]
            if any(owners.get(address, set()) - {thread} for thread, address in reached):
                return True
        return False

    @cached_property
    def _block_varying(self) -> set[int]:
        """Decisions that differ between threads of the block, by statement identity: a loop
        whose trip counts are counted for the whole block decides by them."""
        varying = set()
        for branch, pattern in self.branches:
            equal = self.equal_trips(branch.stmt)
            if equal is False or (equal is None and not pattern.block_uniform):
                varying.add(id(branch.stmt))
        return varying

    def equal_trips(self, stmt: ir.Stmt) -> bool | None:
        """Whether every thread of the block runs the loop ``stmt``, which holds a barrier,
        the same number of times, counted lane by lane over every warp of the launched block
        (trips.py); None where the trips cannot be counted, or depend on a block shape the
        launch does not give."""
        profile = self.barrier_loop_trips.get(id(stmt))
        return None if profile is None else profile.fewest == profile.most

    def warps_leave_early(self, stmt: ir.Stmt) -> bool | None:
        """Whether whole warps run fewer trips of the barrier loop ``stmt`` than other warps
        of the block (each warp's longest lane counted); None where not counted."""
        profile = self.barrier_loop_trips.get(id(stmt))
        return None if profile is None else profile.shortest_warp != profile.most

    @cached_property
    def barrier_loop_trips(self) -> dict[int, TripProfile]:
        """The trips of each loop holding a barrier, counted over every warp of the block."""
        holding = {id(b.stmt) for b in self.barriers if b.stmt is not None}
        runs = {id(run.stmt): run for run in self.loops.values()}
        every_warp = list(range(self.shape.warps()))
        profiles: dict[int, TripProfile] = {}
        for branch in self.trace.branches:
            run = runs.get(id(branch.stmt))
            if run is None or id(branch.stmt) in profiles or not any(id(n) in holding for n in branch.stmt.walk()):
                continue
            if self.shape.assumed and any(a.kind is AtomKind.BLOCK_DIM for a in branch.condition.atoms()):
                continue
            profile = trip_profile(branch, run, self.shape, self.bindings, self.loops, every_warp)
            if profile is not None:
                profiles[id(branch.stmt)] = profile
        return profiles

    def other_arm_barrier(self, barrier: Barrier, decision: ir.Stmt) -> Barrier | None:
        """The barrier on the other arm of ``decision`` that the threads skipping ``barrier``
        reach instead, each arm reaching exactly one (``barriers.other_arm_barrier``)."""
        return other_arm_barrier(barrier, decision, self.barriers)

    @cached_property
    def _decision_variance(self) -> dict[int, Variance]:
        worst: dict[int, Variance] = {}
        for branch, pattern in self.branches:
            key = id(branch.stmt)
            worst[key] = max(worst.get(key, Variance.UNIFORM), pattern.variance)
        return worst

    def control_variance(self, stmt: ir.Stmt | None) -> tuple[Variance, ir.Stmt | None]:
        """How much the decisions that ``stmt`` depends on differ between threads, and the
        most varying of them: a value assigned or a barrier reached under thread-varying
        control is itself thread-varying."""
        if stmt is None:
            return Variance.UNIFORM, None
        try:
            decisions = self.control_flow.controlling(stmt)
        except (KeyError, ValueError):
            return Variance.UNIFORM, None
        worst, culprit = Variance.UNIFORM, None
        for decision in decisions:
            variance = self._decision_variance.get(id(decision), Variance.UNIFORM)
            if variance > worst:
                worst, culprit = variance, decision
        return worst, culprit


@dataclass(frozen=True)
class LaunchContext:
    """What is known about how a kernel is launched, beyond what the source says."""

    shape: BlockShape
    bindings: Mapping[str, int] = field(default_factory=dict)


class Facts:
    """Everything the rules may ask about one translation unit, computed on first use.

    ``launches`` gives, by kernel name (``k`` or ``k<8>``), a block shape and parameter
    values to analyze it with; other kernels are analyzed once for each configuration their
    launches give them: those of this unit (``launch_records``) and ``external`` ones, the
    launches of other units of the run (see ``cudalint.launches``).
    """

    def __init__(
        self,
        tu: ir.TranslationUnit,
        launches: Mapping[str, LaunchContext] | None = None,
        build: BuildContext | None = None,
        external: Sequence[LaunchRecord] = (),
    ):
        self.tu = tu
        self.launches = launches or {}
        self.build = build or BuildContext()
        self.external = tuple(external)

    @cached_property
    def launch_records(self) -> tuple[LaunchRecord, ...]:
        """This unit's launches, evaluated in its host code."""
        return launch_records(self.tu)

    def launches_of(self, function: ir.Function) -> list[LaunchRecord]:
        """Every launch of ``function`` this analysis knows, from this unit and others."""
        return [r for r in (*self.launch_records, *self.external) if r.kernel == function.decl]

    def occupancies(self, kernel: KernelFacts) -> list[LaunchOccupancy]:
        """The theoretical occupancy of each distinct block size and dynamic shared size the
        kernel is launched with, in launch order; with no launch, that of its
        ``__launch_bounds__`` block; none when neither says how many threads a block has."""
        rows: dict[tuple[int, int | None], LaunchOccupancy] = {}
        for record in self.launches_of(kernel.function):
            # A block with an axis its launch leaves open has no thread count to judge.
            if record.block is None or None in record.block or min(record.block) <= 0:
                continue
            threads = record.block[0] * record.block[1] * record.block[2]
            key = (threads, record.shared_bytes)
            if key not in rows:
                where = launch_place(record, kernel.function)
                rows[key] = kernel.launch_occupancy(threads, record.shared_bytes, where, self._line_span(record))
        if not rows and kernel.launch is None and not kernel.shape.assumed:
            header = kernel.function.span
            span = ir.Span(header.file, header.line, header.column, header.line, header.column + 1)
            rows[kernel.shape.threads, None] = kernel.launch_occupancy(
                kernel.shape.threads, None, kernel.shape.source, span
            )
        return list(rows.values())

    def _line_span(self, record: LaunchRecord) -> ir.Span:
        """The launch's line, from its first non-blank character."""
        lines = self.tu.lines_of(record.file)
        text = lines[record.line - 1] if 0 < record.line <= len(lines) else ""
        column = len(text) - len(text.lstrip()) + 1
        return ir.Span(record.file, record.line, column, record.line, max(column + 1, len(text.rstrip()) + 1))

    @cached_property
    def fp64_regions(self) -> tuple[Fp64Region, ...]:
        return tuple(find_fp64_regions(self.tu))

    @cached_property
    def kernels(self) -> tuple[KernelFacts, ...]:
        """One analysis per entry point and configuration it is launched with."""
        return tuple(kernel for function in entry_points(self.tu) for kernel in self._kernel(function))

    def _kernel(self, function: ir.Function) -> list[KernelFacts]:
        context = self.launches.get(function.display_name.replace(", ", ",")) or self.launches.get(function.name)
        if context is not None:
            return [self._analysis(function, context.shape, context.bindings, None, {})]
        records = [*self.launch_records, *self.external]
        traces: dict[BlockShape, KernelTrace] = {}
        return [
            self._analysis(function, c.shape, dict(c.bindings), c.launch, traces)
            for c in configurations(function, records)
        ]

    def _analysis(
        self,
        function: ir.Function,
        shape: BlockShape,
        bindings: Mapping[str, int],
        launch: LaunchRecord | None,
        traces: dict[BlockShape, KernelTrace],
    ) -> KernelFacts:
        # The trace depends on the block shape (and grid) only: configurations that differ
        # in their parameter values share it.
        key = shape
        if key not in traces:
            traces[key] = trace_kernel(self.tu, function, shape)
        return KernelFacts(
            function, shape, traces[key], bindings, self.build, self.tu.records, self._helpers, self.tu, launch
        )

    @cached_property
    def _helpers(self) -> DeviceFunctions:
        return DeviceFunctions((f.decl, f) for f in self.tu.device_functions() if f.body is not None)

    def source_text(self, span: ir.Span, limit: int = 60) -> str:
        """The source a span covers, on one line and shortened, for messages."""
        lines = self.tu.lines_of(span.file)
        if not 0 < span.line <= span.end_line <= len(lines):
            return ""
        if span.line == span.end_line:
            text = lines[span.line - 1][span.column - 1 : span.end_column - 1]
        else:
            parts = [
                lines[span.line - 1][span.column - 1 :],
                *lines[span.line : span.end_line - 1],
                lines[span.end_line - 1][: span.end_column - 1],
            ]
            text = " ".join(parts)
        text = " ".join(text.split())
        return text if len(text) <= limit else text[: limit - 3] + "..."
