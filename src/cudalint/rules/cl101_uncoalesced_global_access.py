"""CL101 uncoalesced-global-access: a warp's global load or store touches far more 32-byte
sectors than it uses.

The rule's documentation is its class docstring (docs/rules/CL101.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

import itertools

from cudalint.dataflow import (
    WARP_SIZE,
    Access,
    AccessPattern,
    AtomKind,
    Confidence,
    DataPattern,
    Facts,
    KernelFacts,
    MemorySpace,
    Sym,
    Variance,
)
from cudalint.diagnostics import Finding, Level
from cudalint.rules import wording
from cudalint.rules.base import FactRule
from cudalint.rules.memory import (
    LARGE_SIZE,
    array_of_structs_field,
    global_accesses,
    kernel_context,
    on_instruction_line,
    uncoalesced,
    whole_struct,
)

# At or below this fraction of useful bytes per sector a warp moves at least twice the
# data it uses: half the memory bandwidth or worse.
EFFICIENCY_THRESHOLD = 0.5


class UncoalescedGlobalAccess(FactRule):
    """A warp's global load or store touches far more 32-byte sectors than it uses.

    ## What it does
    Derives the address every lane of a warp accesses and counts the 32-byte sectors a
    request needs against the sectors its lanes' bytes would fill if contiguous,
    `ceil(active lanes * bytes / 32)` (Nsight Compute's ideal for the instruction). It
    looks for lanes strided apart (`a[2 * i]`, `a[i * 32]`), transposed 2-D indexing
    (`b[col * n + row]` with `col` from `threadIdx.x`), per-thread contiguous chunks
    (`a[tid * k + j]`), blocks so narrow that a warp spans many rows, rows of a narrow
    block shifted off sector boundaries by a constant (a halo's `k - 4` under 8x8x8
    blocks), and ranges each lane walks from a start it loaded itself (a CSR row or an
    adjacency list per thread: `for (j = row_start[r]; j < row_start[r + 1]; ++j)
    value[j]`, or a partition's output filled from a prefix sum of the lanes' counts,
    one element per trip the lane chooses: `from = base + counts[tid]; for (...) if (x <
    pivot) out[from++] = x;`), where the lanes of a warp are as far apart as their ranges
    are long. Such a range is judged only through a pointer known to be global: one read
    back from memory may point to shared memory, and gets the data-dependent note. A
    pointer that is one of two allocations, picked by a condition the same for the whole
    warp (ping-pong buffers by a block's direction, `s = dir ? a : b`), is costed by the
    lanes' offsets into whichever it is.
    Stores or loads that move the channels of one element one at a time (`out[4*i+0] =
    r; out[4*i+1] = g; ...`) are told to use one vector access per lane. Whole structs
    and single fields of structs are CL102's.

    **Warps that take different paths.** Where the thread index sits inside a select, a
    division or a remainder (a halo loaded by the block's first threads: two warps take
    the rows above and below, a third the columns left and right), the warps of a block
    reach their addresses by different paths and the first warp is no sample of the
    others. Nsight Compute sums a line's requests over every warp that runs it; so does
    the verdict, over the warps of a block (the first 8) that run the access, when the
    first warp's request alone is coalesced: rows of a halo shifted by one float cost 5
    sectors for 4, its columns a sector per lane, 27 sectors where 11 would do in a block
    (averaged over the launch's edge and inner blocks where the grid is known; 2.47x
    measured). The
    lanes a condition leaves out are taken through selects whose own condition is known
    (`halo = t < 84 ? x < width : false`: lanes 84 and up never run it, whatever `width`
    is), and a row length inside either side of a select is judged at 1024 like any other.
    Warps run an access with different lanes, too, when a condition on the thread index
    around it picks a block's edges: the `else` of "inside the block's interior" (a
    smoothing window read from shared memory where it fits, from global memory at the
    block's border) leaves the first warp of a 16x16 block a whole row and the lanes at
    each end of the next, and every other warp 4 lanes in 4 sectors: 34 sectors where 12
    would do over the block, which the first warp's 5 for 3 does not show.

    **Stores merged after a branch.** When every arm of an if/else (or of an else-if
    chain) stores to the same address (`if (j == 0) df[g] = a; else if (j == n - 1) df[g]
    = b; else df[g] = c;`), nvcc's optimizer sinks the stores into one store of the
    selected value after the branch: one instruction that every lane reaching the branch
    runs, which Nsight Compute counts on one of the arms' lines. Only the store that ends
    its arm moves: with `out[2*i] = a; out[2*i+1] = b;` in both arms the `out[2*i+1]`
    stores merge and the `out[2*i]` stores stay in their arms. Each merged store is then
    judged with the lanes of the whole branch, not those of its arm (under blocks 2
    threads wide, the end rows' arm alone would be 2 lanes in one sector; the merged store
    is 16 rows, 16 sectors for 4), and the message names the stores it is merged with.

    **Levels.**
    - `warning`: the hardware shows the cost. The request needs at least twice its
      ideal sectors (50% efficiency or worse) for every value the source leaves open,
      or for any realistic value of a size the kernel compares against (a row length is
      judged at 1024; so is a run-time divisor that splits a flat thread index into a
      column and a row, `x = i % W; y = i / W`, whose lanes walk along a row of W). On
      the real-code benchmark (bench/realcode) warnings are held to a per-line precision
      of 0.90.
    - `note`: plausible but unproven. A stride that is a runtime parameter or template
      constant (the note names the value that would make it coalesced; none where the
      code asserts it, `assert(stride == 1)` or an assertion macro that aborts), and gathers and
      scatters through an index each lane loaded (`x[column[j]]`, `key_array[bucket]`,
      a tree's `child[node * 8 + j]`): where they land is data, from a broadcast to one
      sector per lane. Only an address that data loaded per lane flows into gets this
      note: one computed from thread coordinates in ways the analysis does not follow
      (`(int)sqrtf(i)`) gets none, and an index or pointer stepped by amounts the same
      across the warp (`j += n` under a condition, `p += stride`, `j += rows[k]`) keeps
      its lanes' spacing. Measured on real programs, 40 such lines needed twice their ideal
      sectors and 24 did not (table lookups, sorted permutations, neighbouring nodes of
      a tree): 62%, short of what a warning promises.

    **Values from the launches.** A stride or row length the host code sets (`C / NH`
    computed in `main`, a `#define`, an enumerator, each value of a host loop over
    constant strides, a wrapper's argument) is read at the launch, in whichever file of
    the run (or beside it) the launch is written, and the kernel is judged once per
    launch configuration: `a[i * hs]` launched with `hs = 64` needs 32 sectors whatever
    else the source leaves open, the same verdict the hardware gives that launch. The
    message names the launch and the values it used (`at the launch in main.cu:40 with
    hs = 64`); where launches disagree, the finding is the most severe one, for the first
    launch (by file, line and value) that gives it. A value read from `argv`, a file or
    the device stays unknown. A block the launch gives in part is used in part: the
    hardware forms warps from consecutive thread ids along x first, so a known
    `blockDim.x` below 32 decides how many rows a warp spans whatever the other axes
    hold (`dim3 b; b.x = 1; b.y = rows;` with `rows` from the command line: each warp is
    32 rows of one thread, 32 sectors for a byte-wide row-major access, as the hardware
    measures). The open axis is taken so that the block keeps 128 threads, and the
    message says so; with `blockDim.x` itself open, the whole shape stays assumed.

    **What it stays quiet on.**
    Contiguous and misaligned-but-contiguous accesses (at most one extra sector),
    single-lane accesses, and broadcasts: lanes that read one address share its sector,
    so a warp of two 16-thread rows reading `A[row * n + k]` costs two sectors where its
    lanes' bytes would fill four. A term of the address that is the same for the whole
    warp and known only at run time (a box's offset read from memory, a parameter's
    halo offset `lz`, `plane * pitch`) moves the whole request; whether it misaligns it
    is not in the source, so it is taken as aligned. Contiguous lanes some of which sit
    idle under a branch are divergence (CL301), not indexing.

    ## Why is this bad?
    Global memory moves whole sectors. A warp reading every other float fetches twice
    the bytes it uses; one reading a float per 128 bytes fetches 32 sectors for 4
    sectors of data. The kernel then runs at a fraction of the memory bandwidth.

    ## Example
    ```cuda
    __global__ void column_sum(const float* m, float* out, int n) {
        int col = blockIdx.x * blockDim.x + threadIdx.x;
        float s = 0.0f;
        for (int row = 0; row < n; ++row) s += m[col * n + row];
        out[col] = s;
    }
    ```

    ## Use instead
    ```cuda
    __global__ void column_sum(const float* m, float* out, int n) {
        int col = blockIdx.x * blockDim.x + threadIdx.x;
        float s = 0.0f;
        for (int row = 0; row < n; ++row) s += m[row * n + col];
        out[col] = s;
    }
    ```

    ## References
    - CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory"
    - Nsight Compute, `smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct`
    """

    code = "CL101"
    name = "uncoalesced-global-access"
    category = "global-memory"
    default_level = Level.WARNING
    precision = "high"
    tags = ("performance", "memory")

    def check(self, facts: Facts):
        for kernel, access, pattern in global_accesses(facts):
            if (
                array_of_structs_field(facts, access, pattern) is not None
                or whole_struct(facts, access, pattern) is not None
            ):
                continue  # CL102 says it better.
            finding = self._finding(facts, kernel, access, pattern)
            if finding is not None:
                yield on_instruction_line(facts, finding, access)

    def _finding(self, facts: Facts, kernel: KernelFacts, access: Access, pattern: AccessPattern) -> Finding | None:
        what = f"global {access.kind.value} {wording.code(facts.source_text(access.span), 'at this line')}"
        names = wording.source_names(kernel.function)
        properties = {
            "sectorsPerRequest": pattern.sectors,
            "idealSectors": pattern.ideal_sectors,
            "laneStrideBytes": str(pattern.lane_stride),
            "confidence": pattern.confidence.value,
            **kernel.launch_properties(access.location.offset),
        }
        if pattern.confidence is Confidence.UNKNOWN:
            if access.location.offset.variance is not Variance.DATA or not kernel.fed_by_loads(access.location.offset):
                # Unknown for another reason (a dependent type's size, thread coordinates combined
                # in ways the analysis does not follow): nothing to say.
                return None
            if pattern.data_pattern is DataPattern.LANE_RANGES and access.size and access.space is MemorySpace.GLOBAL:
                loop = pattern.data_loop.stmt.span.line if pattern.data_loop is not None else access.span.line
                properties.update(dataPattern=pattern.data_pattern.value, idealSectors=access.size)
                fills = pattern.data_loop is not None and bool(
                    pattern.data_loop.lane_steps & set(access.location.offset.atoms())
                )
                walk = (
                    "each lane fills its own range from a start it loaded, one element per trip that keeps one"
                    if fills
                    else "each lane walks its own range from a start it loaded"
                )
                cure = (
                    "let the lanes of a warp fill consecutive slots of one range (rank the warp's kept elements "
                    "with a ballot)"
                    if fills
                    else "let the lanes of a warp take consecutive elements of one range (a warp per row)"
                )
                return self.finding(
                    f"{what}: {walk} (the loop at line {loop}), so the lanes of a warp are as far apart as their "
                    f"ranges are long: up to 32 sectors per request where {access.size} would do; {cure}",
                    access.span,
                    function=kernel.function.display_name,
                    properties=properties,
                )
            return self.finding(
                f"{what}: the address depends on data loaded at run time, so its coalescing is unknown; "
                "if the index is scattered, every lane may need its own sector",
                access.span,
                level=Level.NOTE,
                function=kernel.function.display_name,
                properties=properties,
            )
        if not uncoalesced(pattern, EFFICIENCY_THRESHOLD):
            return self._block_finding(kernel, access, pattern, what, names, properties)
        if (
            pattern.lane_stride is not None
            and pattern.lane_stride.constant == access.size
            and pattern.active_lanes < WARP_SIZE
        ):
            return None  # Contiguous lanes, some idle under a branch: divergence (CL301), not indexing.
        stride = _stride(kernel, access, pattern, names)
        advice = _advice(kernel, access, pattern)
        sizes = sorted(kernel.size_parameters_of(access) & set(pattern.depends_on))
        if pattern.confidence is Confidence.SYMBOLIC and sizes:
            # The stride is a size the kernel loops or bounds-checks against (a row length):
            # judge it at a realistic size rather than at 1.
            pattern = kernel.pattern_with(access, {name: LARGE_SIZE for name in sizes})
            properties.update(sectorsPerRequest=pattern.sectors, assumedSizes={name: LARGE_SIZE for name in sizes})
            if not uncoalesced(pattern, EFFICIENCY_THRESHOLD):
                return None
            stride = _stride(kernel, access, pattern, names)
            return self.finding(
                f"{what} needs {pattern.sectors} sectors per request where {pattern.ideal_sectors} would do for any "
                f"realistic {' and '.join(sizes)} ({stride}{kernel_context(kernel, access)}); {advice}",
                access.span,
                function=kernel.function.display_name,
                properties=properties,
            )
        if pattern.confidence is Confidence.SYMBOLIC and not uncoalesced(pattern, EFFICIENCY_THRESHOLD, best=True):
            when = _coalescing_value(access, pattern, names)
            return self.finding(
                f"{what} needs up to {pattern.sectors} sectors per request where {pattern.ideal_sectors} would do "
                f"({stride}); it is coalesced only {when}",
                access.span,
                level=Level.NOTE,
                function=kernel.function.display_name,
                properties=properties,
            )
        efficiency = pattern.efficiency or 0.0
        return self.finding(
            f"{what} needs {pattern.sectors} sectors per request where {pattern.ideal_sectors} would do "
            f"({efficiency:.0%} efficiency; {stride}{kernel_context(kernel, access)}); {advice}",
            access.span,
            function=kernel.function.display_name,
            properties=properties,
        )

    def _block_finding(
        self,
        kernel: KernelFacts,
        access: Access,
        pattern: AccessPattern,
        what: str,
        names: frozenset[str],
        properties: dict,
    ) -> Finding | None:
        """A request whose first warp is coalesced, while the warps of the block that run it
        need together twice the sectors of their data for every value tried (halo lanes in
        a warp of their own)."""
        sizes = sorted(kernel.size_parameters_of(access) & set(pattern.depends_on))
        block = _block_pattern(kernel, access, pattern).block
        if block is None or max(block.efficiency, block.best_efficiency) > EFFICIENCY_THRESHOLD:
            return None
        realistic = taken = ""
        if pattern.confidence is Confidence.SYMBOLIC and sizes:
            *first, last = sizes
            named = f"{', '.join(first) + ' and ' if first else ''}{last}"
            realistic, taken = f", for any realistic {named}", f"; {named} taken as {LARGE_SIZE}"
            properties.update(assumedSizes=dict.fromkeys(sizes, LARGE_SIZE))
        properties.update(
            sectorsPerRequest=round(block.sectors / block.warps, 2),
            idealSectors=round(block.ideal_sectors / block.warps, 2),
            blockWarps=block.warps,
        )
        return self.finding(
            f"{what} needs {block.sectors} sectors where {block.ideal_sectors} would do over the {block.warps} warps "
            f"of a block that run it{realistic} ({block.efficiency:.0%} efficiency{taken}; {_warps_differ_note(block)}"
            f"{kernel_context(kernel, access)}); give each warp a run of consecutive addresses, or stage the "
            "halo through shared memory",
            access.span,
            function=kernel.function.display_name,
            properties=properties,
        )


def _warps_differ_note(block) -> str:
    how = (
        "run it with different lanes, as its conditions leave them"
        if block.lanes_differ
        else "reach their addresses by different paths"
    )
    return (
        f"the warps of a block {how}: warp {block.worst_warp} alone needs "
        f"{block.worst_warp_sectors} sectors where {block.worst_warp_ideal} would do"
    )


def _block_pattern(kernel: KernelFacts, access: Access, pattern: AccessPattern) -> AccessPattern:
    """``pattern`` with the sizes the address compares against taken at a realistic value."""
    sizes = sorted(kernel.size_parameters_of(access) & set(pattern.depends_on))
    if pattern.confidence is Confidence.SYMBOLIC and sizes:
        return kernel.pattern_with(access, dict.fromkeys(sizes, LARGE_SIZE))
    return pattern


def _rows_per_warp(kernel: KernelFacts, access: Access, pattern: AccessPattern) -> int:
    """Rows of the block one warp covers when they, not the index order, are what costs:
    ``_rows_spanned``, with the lanes of a row contiguous or reading one address. 1 otherwise."""
    stride = pattern.lane_stride.constant if pattern.lane_stride is not None else None
    return _rows_spanned(kernel, access) if stride in (0, access.size) else 1


def _rows_spanned(kernel: KernelFacts, access: Access) -> int:
    """Rows of the block (along y or z) one warp covers, for a block narrower than a warp
    whose ``threadIdx.y`` or ``threadIdx.z`` is in the address: each row is a run of its own
    addresses. 1 otherwise."""
    shape = kernel.shape
    if shape.assumed or shape.x >= WARP_SIZE or shape.y * shape.z == 1:
        return 1
    if not any(a.kind is AtomKind.THREAD_INDEX and a.name in ("y", "z") for a in access.location.offset.atoms()):
        return 1
    return min(WARP_SIZE // shape.x, shape.y * shape.z)


def _stride(kernel: KernelFacts, access: Access, pattern: AccessPattern, names: frozenset[str]) -> str:
    """Where a warp's addresses spread: across the rows it spans, or between its lanes;
    for a store nvcc merges with the other arms' stores, which lanes run the merged one."""
    spread = _spread(kernel, access, pattern, names)
    if not pattern.sunk_with:
        return spread
    others = wording.count(len(pattern.sunk_with), "store")
    *first, last = [str(line) for line in pattern.sunk_with]
    lines = f"lines {', '.join(first)} and {last}" if first else f"line {last}"
    return (
        f"{spread}; nvcc merges it with the other arms' {others} to the same address ({lines}) into one "
        "store after the branch, which every lane reaching the branch runs"
    )


def _spread(kernel: KernelFacts, access: Access, pattern: AccessPattern, names: frozenset[str]) -> str:
    """Where a warp's addresses spread: across the rows it spans, or between its lanes."""
    rows = _rows_spanned(kernel, access)
    distance = pattern.lane_stride
    # Lanes that walk backwards (`a[(n - tid) * k]`) are as far apart as forwards.
    descending = distance is not None and bool(distance.terms) and all(c < 0 for _, c in distance.terms)
    stride = wording.spelled_value(-distance if descending else distance, names)
    apart = f"{stride} bytes apart{', each below the one before' if descending else ''}"
    if rows > 1:
        contiguous = distance is not None and distance.constant in (0, access.size)
        within = "" if contiguous or stride is None else f"; within a row, lanes are {apart}"
        shape = kernel.shape
        width = f"{shape.x} thread{'s' if shape.x != 1 else ''}"
        # A row count that rests on an axis the launch leaves open says so.
        taken = f"; {shape.taken.replace(' = ', ', open at the launch, taken as ')}" if shape.taken else ""
        return f"a warp spans {rows} rows of {width}, each row its own addresses{within}{taken}"
    return f"lanes are {apart}" if stride is not None else "lanes' addresses are spread apart"


def _advice(kernel: KernelFacts, access: Access, pattern: AccessPattern) -> str:
    if _rows_per_warp(kernel, access, pattern) > 1:
        return "make blocks at least 32 threads wide so that each warp walks along one row"
    return (
        _vector_advice(kernel, access, pattern)
        or "put threadIdx.x in the fastest-varying index, or stage the tile through shared memory"
    )


def _coalescing_value(access: Access, pattern: AccessPattern, names: frozenset[str]) -> str:
    """``when stride == 1`` for a lane stride of the form ``c * stride``."""
    stride = pattern.lane_stride
    if stride is not None and len(stride.terms) == 1:
        monomial, coefficient = stride.terms[0]
        if (
            len(monomial) == 1
            and monomial[0].kind is AtomKind.PARAMETER
            and monomial[0].name in names
            and access.size
            and coefficient
        ):
            value, remainder = divmod(access.size, coefficient)
            if not remainder:
                return f"when {monomial[0].name} == {value}"
    spelled = wording.spelled_names(pattern.depends_on, names)
    return f"for some values of {', '.join(spelled)}" if spelled else "for some values computed at run time"


# CUDA's vector types by the spelling of their component type.
_VECTOR_PREFIXES = {
    "float": "float",
    "double": "double",
    "int": "int",
    "unsigned int": "uint",
    "char": "char",
    "signed char": "char",
    "unsigned char": "uchar",
    "short": "short",
    "unsigned short": "ushort",
    "long long": "longlong",
    "unsigned long long": "ulonglong",
}
MAX_VECTOR_BYTES = 16
"""The widest load or store one lane can issue."""
MAX_CHANNEL_TRIPS = 16


def _vector_advice(kernel: KernelFacts, access: Access, pattern: AccessPattern) -> str | None:
    """Advice for a lane that moves the channels of one element one by one (a pixel's
    ``out[4*i+0] = r; out[4*i+1] = g; ...`` or ``img[3*i+c]`` in a loop over ``c``): each
    access is strided, but together they cover every byte of the element, so the cure is
    one vector access per lane, not another index order."""
    stride = pattern.lane_stride.constant if pattern.lane_stride is not None else None
    size = access.size
    prefix = _VECTOR_PREFIXES.get(access.type.spelling.removeprefix("const ").strip())
    if not stride or not size or stride <= size or stride % size or prefix is None:
        return None
    channels = stride // size
    if _channels_covered(kernel, access, stride) < set(range(channels)):
        return None
    kind = access.kind.value
    if channels <= 4 and stride <= MAX_VECTOR_BYTES and channels != 3:
        return f"{kind} the {channels} channels of each element as one `{prefix}{channels}` per lane"
    if channels == 3 and 4 * size <= MAX_VECTOR_BYTES:
        return f"pad each element to 4 channels and {kind} one `{prefix}4` per lane"
    return f"{kind} each element's {channels} channels with vector types, or stage them through shared memory"


def _channels_covered(kernel: KernelFacts, access: Access, stride: int) -> set[int]:
    """Which channels of this lane's element the kernel's accesses of the same kind to the
    same array move: their addresses differ from this one's by less than an element,
    counting the trips of short loops over the channels."""
    own, _ = _without_channel_loops(kernel, access.location.offset, stride)
    covered: set[int] = set()
    for other, _ in kernel.accesses:
        if other.location.base != access.location.base or other.kind is not access.kind or other.size != access.size:
            continue
        rest, loops = _without_channel_loops(kernel, other.location.offset, stride)
        start = (rest - own).constant
        if start is None:
            continue
        for trips in itertools.product(*(range(count) for _, count in loops)):
            position = start + sum(trip * step for trip, (step, _) in zip(trips, loops, strict=False))
            if abs(position) < stride and position % access.size == 0:
                covered.add(position % stride // access.size)
    return covered


def _without_channel_loops(kernel: KernelFacts, offset: Sym, stride: int) -> tuple[Sym, list[tuple[int, int]]]:
    """``offset`` less its terms ``step * counter`` of loops that step within an element,
    and those loops as (step, trips)."""
    loops = []
    rest = offset
    for monomial, step in offset.terms:
        if len(monomial) != 1 or monomial[0].kind is not AtomKind.ITERATION or not 0 < abs(step) < stride:
            continue
        run = kernel.trace.loops.get(monomial[0])
        trips = kernel.unroll_model.trip_count(run) if run is not None else None
        if trips is None or trips > MAX_CHANNEL_TRIPS:
            continue
        loops.append((step, trips))
        rest = rest - Sym.atom(monomial[0]) * step
    return rest, loops
