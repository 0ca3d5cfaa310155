from __future__ import annotations

from cudalint.dataflow import Access, AccessPattern, Confidence, DataPattern, Facts, KernelFacts
from cudalint.dataflow.symbolic import AtomKind, Variance
from cudalint.dataflow.threads import WARP_SIZE
from cudalint.diagnostics import Finding, Level
from cudalint.rules.base import FactRule
from cudalint.rules.memory import array_of_structs_field, global_accesses, kernel_context, uncoalesced

# At or below this fraction of useful bytes per sector a warp moves at least twice the
# data it uses: half the memory bandwidth or worse.
EFFICIENCY_THRESHOLD = 0.5
# A size parameter (a row length, a trip count) is judged at this value.
LARGE_SIZE = 1024


class UncoalescedGlobalAccess(FactRule):
    """A warp's global load or store touches far more 32-byte sectors than it uses.

    ## What it does
    Derives the address every lane of a warp accesses and counts the 32-byte sectors a
    request needs against the sectors its bytes would fill if contiguous. Warns when
    the access is at most 50% efficient: lanes strided apart (`a[2 * i]`,
    `a[i * 32]`), transposed 2-D indexing (`b[col * n + row]` with `col` from
    `threadIdx.x`), per-thread contiguous chunks (`a[tid * k + j]`), and ranges each
    lane walks from a start it loaded itself (a CSR row or an adjacency list per thread:
    `for (j = row_start[r]; j < row_start[r + 1]; ++j) value[j]`), where the lanes of a
    warp are as far apart as their ranges are long. A base that is data but the same for
    the whole warp (`&particles[boxes[blockIdx.x].offset]`, a row pointer read from
    memory) only shifts the request: the lanes' offsets from it are judged as with a
    known base. Strides that come from a runtime parameter or template constant are a
    `note` naming the value that would make the access coalesced. Gathers through an
    index each lane loaded (`x[column[j]]`) are a `note`: where they land is data, from a
    broadcast (every index equal) to one sector per lane; the level waits for measured
    real-code gathers. Contiguous, misaligned-but-contiguous, broadcast and single-lane
    accesses are fine.

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
            if array_of_structs_field(facts, access, pattern) is not None:
                continue  # CL102 says it better.
            finding = self._finding(facts, kernel, access, pattern)
            if finding is not None:
                yield finding

    def _finding(self, facts: Facts, kernel: KernelFacts, access: Access, pattern: AccessPattern) -> Finding | None:
        what = f"global {access.kind.value} `{facts.source_text(access.span) or access.location.base}`"
        properties = {"sectorsPerRequest": pattern.sectors, "idealSectors": pattern.ideal_sectors,
                      "laneStrideBytes": str(pattern.lane_stride), "confidence": pattern.confidence.value}
        if pattern.confidence is Confidence.UNKNOWN:
            if access.location.offset.variance is not Variance.DATA:
                return None  # Unknown for another reason (a dependent type's size): nothing to say.
            if pattern.data_pattern is DataPattern.LANE_RANGES and access.size:
                loop = pattern.data_loop.stmt.span.line if pattern.data_loop is not None else access.span.line
                properties.update(dataPattern=pattern.data_pattern.value, idealSectors=access.size)
                return self.finding(
                    f"{what}: each lane walks its own range from a start it loaded (the loop at line {loop}), so the "
                    f"lanes of a warp are as far apart as their ranges are long: up to 32 sectors per request where "
                    f"{access.size} would do; let the lanes of a warp take consecutive elements of one range "
                    "(a warp per row)",
                    access.span, function=kernel.function.display_name, properties=properties)
            return self.finding(
                f"{what}: the address depends on data loaded at run time, so its coalescing is unknown; "
                "if the index is scattered, every lane may need its own sector",
                access.span, level=Level.NOTE, function=kernel.function.display_name, properties=properties)
        if not uncoalesced(pattern, EFFICIENCY_THRESHOLD):
            return None
        if pattern.lane_stride is not None and pattern.lane_stride.constant == access.size \
                and pattern.active_lanes < WARP_SIZE:
            return None  # Contiguous lanes, some idle under a branch: divergence (CL301), not indexing.
        stride = _stride_text(pattern)
        sizes = sorted(kernel.size_parameters_of(access) & set(pattern.depends_on))
        if pattern.confidence is Confidence.SYMBOLIC and sizes:
            # The stride is a size the kernel loops or bounds-checks against (a row length):
            # judge it at a realistic size rather than at 1.
            pattern = kernel.pattern_with(access, {name: LARGE_SIZE for name in sizes})
            properties.update(sectorsPerRequest=pattern.sectors, assumedSizes={name: LARGE_SIZE for name in sizes})
            if not uncoalesced(pattern, EFFICIENCY_THRESHOLD):
                return None
            stride = _stride_text(pattern)
            return self.finding(
                f"{what} needs {pattern.sectors} sectors per request where {pattern.ideal_sectors} would do for any "
                f"realistic {' and '.join(sizes)} ({stride}{kernel_context(kernel, access)}); put threadIdx.x in "
                "the fastest-varying index, or stage the tile through shared memory",
                access.span, function=kernel.function.display_name, properties=properties)
        if pattern.confidence is Confidence.SYMBOLIC and not uncoalesced(pattern, EFFICIENCY_THRESHOLD, best=True):
            when = _coalescing_value(access, pattern)
            return self.finding(
                f"{what} needs up to {pattern.sectors} sectors per request where {pattern.ideal_sectors} would do "
                f"({stride}); it is coalesced only {when}",
                access.span, level=Level.NOTE, function=kernel.function.display_name, properties=properties)
        efficiency = pattern.efficiency or 0.0
        return self.finding(
            f"{what} needs {pattern.sectors} sectors per request where {pattern.ideal_sectors} would do "
            f"({efficiency:.0%} efficiency; {stride}{kernel_context(kernel, access)}); put threadIdx.x in the "
            "fastest-varying index, or stage the tile through shared memory",
            access.span, function=kernel.function.display_name, properties=properties)


def _stride_text(pattern: AccessPattern) -> str:
    if pattern.lane_stride is None:
        return "lanes' addresses are scattered"
    return f"lanes are {pattern.lane_stride} bytes apart"


def _coalescing_value(access: Access, pattern: AccessPattern) -> str:
    """``when stride == 1`` for a lane stride of the form ``c * stride``."""
    stride = pattern.lane_stride
    if stride is not None and len(stride.terms) == 1:
        monomial, coefficient = stride.terms[0]
        if len(monomial) == 1 and monomial[0].kind is AtomKind.PARAMETER and access.size and coefficient:
            value, remainder = divmod(access.size, coefficient)
            if not remainder:
                return f"when {monomial[0].name} == {value}"
    names = ", ".join(pattern.depends_on)
    return f"for some values of {names}" if names else "for some launch configurations"
