"""CL502 local-array-dynamic-index: a per-thread array that nvcc leaves in local memory, and
every line that pays for it.

The rule's documentation is its class docstring (docs/rules/CL502.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.dataflow import Access, AccessKind, Facts, KernelFacts, LocalArray
from cudalint.diagnostics import Level
from cudalint.ir import Span
from cudalint.rules import wording
from cudalint.rules.base import FactRule
from cudalint.rules.memory import on_instruction_line


class LocalArrayDynamicIndex(FactRule):
    """A per-thread array that nvcc leaves in local memory, and every line that pays for it.

    ## What it does
    Registers cannot be addressed by a run-time index. nvcc keeps a per-thread array in
    registers when every access has a constant index once loops are unrolled; otherwise the
    array is an allocation in local memory, and ptxas can still hold it in registers only by
    picking the element with predicated moves ("selects"). This rule predicts which arrays
    end up in local memory, from what nvcc 13 does for sm_90:

    - An index is a run-time value when it depends on `threadIdx`, `blockIdx`, data, a
      parameter, or the counter of a loop nvcc keeps rolled: `#pragma unroll 1`, a trip
      count known only at run time (even under `#pragma unroll`, whose copies still index at
      run time; a bound every launch passes the same value is still one: nvcc compiles
      the kernel before it is launched), or a body too large to repeat that many times. Loops with a constant trip
      count and a small body are unrolled unasked. What counts is the size of the whole
      nest once unrolled, whatever its depth: ptxas stops unrolling a 128-trip loop and a
      4 x 8 x 4 nest around the same body of chained multiply-adds at the same body size
      (seven per element unroll, eight do not, inside a rolled loop). An index made of
      loop counters and constants costs nothing there, since each unrolled copy indexes at
      a constant (`acc[(i * TM + m) * TN + n]`), while one that goes through `%` or `/`
      counts its arithmetic: the accumulators of a warp-tiled GEMM, updated by a 4-deep
      nest of one multiply-add each, stay in registers. Constants count whatever their
      spelling: literals, `constexpr` variables and functions, static members
      (`Traits<T>::kItems`), enumerators, `sizeof`, template arguments (`if constexpr` on
      them included), a lambda's `std::integral_constant` argument, a wmma fragment's
      `num_elements`, and reads of a per-thread table initialized with constants
      (`const int order[] = {0, 4, 2, 6}`) at constant indices. In a template analyzed
      without an instantiation (its launches are in another file), the parameters and the
      names that depend on them (`tile::ne`) are constants whose values only an
      instantiation knows: a `#pragma unroll` loop over them is unrolled in every
      instantiation, and one without the pragma may be or not, so an array it indexes is
      not reported. A double buffer's index toggled with `st ^= 1` alternates with the
      trip: toggled twice in each trip of a rolled loop (once for each half of the trip's
      work, as tensor-core pipelines do, written out or as an inner loop of two trips), it
      starts every trip with the same value and each access indexes at a constant; toggled
      once per trip of an unrolled loop, each copy indexes at a constant; toggled once per
      trip of a rolled loop, it alternates at run time (ptxas: `wmma` operand fragments
      `A[2][4]` stay in registers in the first two cases, and take a 384-byte stack frame
      in the third).
    - A load that reads back, at the same run-time index, what an earlier store of the same
      pass wrote (`t[b][k] = x; ... s += t[b][k]`) takes the stored value: it needs no memory.
    - Arrays of 64-bit, 16-bit or 8-bit values (`double`, `long long`, `short`, `half`,
      `char`) go to local memory at the first run-time index: ptxas selects only among
      32-bit values.
    - Arrays of 32-bit values (`float`, `int`, `float4`): outside rolled loops, a few
      run-time accesses become selects; the array goes to local memory beyond 80 values, or
      from three accesses that pick among 128 values or more altogether. In a rolled loop it
      goes to local memory from 24 values, from 16 unless indexed only by the counter of a
      loop with a run-time trip count, and whenever the loops store at one run-time index
      and load at another (an insertion sort, a stack, a rotation, filling the array in one
      loop and reading it in another).
    - Once one array of a kernel, or the argument reduction of a precise `sin`/`cos`, is in
      local memory, every array of the kernel indexed at run time is too.

    For an array in local memory, the rule reports each line that loads or stores it
    there: the first run-time-indexed access says why the array is there (the array, its
    size, the index and, for a loop counter, the loop and why nvcc does not unroll it); the
    others say what each costs: accesses at run-time indices, stores a later load from
    memory reads (initializers included), and loads that follow a store at a run-time
    index. Loads nvcc can take from registers are not reported.

    It stays quiet where ptxas's choice cannot be told from the source: arrays of 32-bit
    values with a few run-time accesses in rolled loops that only read, only write, or
    update one element in place (ptxas weighs the selects against the loop's own work),
    and a handful of outside-loop accesses between the limits above. Local memory used by
    the math library itself, and spill code, are not this rule's (spills are CL501's).

    With `--ptxas` a finding is kept only when the kernel's stack frame can hold the
    array; arrays the compiler failed to unroll are then reported too, and the arrays the
    source leaves undecided are reported when the stack frame shows them.

    ## Why is this bad?
    Local memory is off-chip: each access is a load or store through L1 with global
    memory latency when it misses, where a register access is free. A small array
    indexed dynamically in an inner loop can make a kernel several times slower.

    ## Example
    ```cuda
    __global__ void bins(const int* keys, int* out, int n) {
        int count[16] = {};
        for (int i = threadIdx.x; i < n; i += blockDim.x) count[keys[i] & 15]++;
    #pragma unroll
        for (int b = 0; b < 16; ++b) out[b * blockDim.x + threadIdx.x] = count[b];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void bins(const int* keys, int* out, int n) {
        int count[16] = {};
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            int key = keys[i] & 15;
    #pragma unroll
            for (int b = 0; b < 16; ++b) count[b] += key == b;
        }
    #pragma unroll
        for (int b = 0; b < 16; ++b) out[b * blockDim.x + threadIdx.x] = count[b];
    }
    ```

    ## References
    - CUDA C++ Best Practices Guide, "Local Memory"
    - `nvcc -Xptxas -v`: the stack frame holds local arrays
    """

    code = "CL502"
    name = "local-array-dynamic-index"
    category = "registers"
    default_level = Level.WARNING
    precision = "high"
    tags = ("performance", "registers", "local-memory")

    def check(self, facts: Facts):
        compiled = facts.build.resources is not None
        for kernel in facts.kernels:
            for array in kernel.local_arrays:
                if compiled:
                    yield from self._compiled(facts, kernel, array)
                elif array.in_local_memory:
                    yield from self._lines(facts, kernel, array, {})

    def _compiled(self, facts: Facts, kernel: KernelFacts, array: LocalArray):
        resources = kernel.resources
        if resources is None or kernel.array_stack_bytes < array.bytes:
            return
        figures = {"stackFrame": resources.stack_frame}
        if array.dynamic:
            yield from self._lines(facts, kernel, array, figures)
        elif array.unrolled_access is not None and not resources.spills:
            # A stack frame this size with nothing spilled: the loops over it were not unrolled.
            access = array.unrolled_access
            yield self._finding(
                facts,
                f"{wording.code(facts.source_text(access.span), 'an access')} indexes per-thread array "
                f"`{array.declaration}` ({array.bytes} bytes) with the counter of a loop the compiler did not "
                f"unroll: the array lives in local memory, off-chip, instead of registers{_confirmed(figures)}",
                kernel,
                array,
                access,
                figures,
            )

    def _lines(self, facts: Facts, kernel: KernelFacts, array: LocalArray, figures: dict):
        """One finding per line that loads or stores the array in local memory: the first
        run-time-indexed access says why the array is there, the others what they cost."""
        cause = array.cause
        assert cause is not None
        by_line: dict[tuple[str, int], list[Access]] = {}
        for access in array.memory_accesses:
            by_line.setdefault((access.span.file, access.instruction_line), []).append(access)
        declaration = array.var.span
        there = (
            f"per-thread array `{array.declaration}`, which lives in local memory because line "
            f"{cause.access.instruction_line} indexes it at run time"
        )
        if array.initialized_in_memory and (declaration.file, declaration.line) not in by_line:
            yield self._finding(
                facts,
                f"{wording.code(facts.source_text(declaration), 'the declaration')} initializes {there}: the "
                f"initial values are stored there{_confirmed(figures)}",
                kernel,
                array,
                declaration,
                figures,
            )
        reasons = {id(d.access): d.reason for d in array.dynamic}
        for accesses in by_line.values():
            if any(access is cause.access for access in accesses):
                why = f"; {array.why}" if array.why else ""
                yield self._finding(
                    facts,
                    f"{wording.code(facts.source_text(cause.access.span), 'an access')} indexes per-thread array "
                    f"`{array.declaration}` ({array.bytes} bytes) with {cause.reason}{why}: the array lives in "
                    f"local memory, off-chip, instead of registers{_confirmed(figures)}",
                    kernel,
                    array,
                    cause.access,
                    figures,
                )
                continue
            shown = next((a for a in accesses if id(a) in reasons), accesses[0])
            yield self._finding(
                facts,
                f"{wording.code(facts.source_text(shown.span), 'an access')} uses {there}: "
                f"{_cost(accesses, reasons.get(id(shown)))}{_confirmed(figures)}",
                kernel,
                array,
                shown,
                figures,
            )

    def _finding(
        self, facts: Facts, message: str, kernel: KernelFacts, array: LocalArray, where: Access | Span, figures: dict
    ):
        """A finding at ``where``: a declaration, or an access on the line its instruction is counted on."""
        finding = self.finding(
            message,
            where if isinstance(where, Span) else where.span,
            function=kernel.function.display_name,
            properties={"array": array.var.name, "arrayBytes": array.bytes, **figures},
        )
        return finding if isinstance(where, Span) else on_instruction_line(facts, finding, where)


def _cost(accesses: list[Access], reason: str | None) -> str:
    """What the accesses of one line do in local memory; ``reason``: why the index of one of
    them is a run-time value (None when all are constant)."""
    kinds = {a.kind is AccessKind.LOAD for a in accesses}
    what, one = (
        ("the load and the store here", False)
        if kinds == {True, False}
        else ("this load" if kinds == {True} else "this store", True)
    )
    if reason is not None:
        return f"{what} index{'es' if one else ''} it with {reason}"
    if False in kinds:
        return f"{what} go{'es' if one else ''} to local memory, where a run-time-indexed access reads it"
    return f"{what} come{'s' if one else ''} from local memory, after a store at a run-time index"


def _confirmed(figures: dict) -> str:
    return f" (ptxas: {figures['stackFrame']}-byte stack frame)" if figures else ""
