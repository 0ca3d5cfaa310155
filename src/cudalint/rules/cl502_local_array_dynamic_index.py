from __future__ import annotations

from cudalint.dataflow import Facts, KernelFacts, LocalArray
from cudalint.diagnostics import Level
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class LocalArrayDynamicIndex(FactRule):
    """A per-thread array indexed by a value the compiler cannot turn into a constant.

    ## What it does
    Registers cannot be addressed by a run-time index, so a per-thread array stays in
    registers only when every access uses a constant index once loops are unrolled. This
    rule follows each access to a per-thread array: an index that depends on
    `threadIdx`, on data, on a parameter, or on the counter of a loop the compiler keeps
    rolled (`#pragma unroll 1`, a trip count not known at compile time, a body too large
    to unroll fully) puts the whole array in local memory when the access repeats in a
    loop that stays rolled. The message gives the array, its size, and the index. Loops
    with a constant trip count are taken as unrolled when `#pragma unroll` asks for it or
    when they are small enough for nvcc to do it unasked; constants count whatever their
    spelling: literals, `constexpr` variables and functions, static members
    (`Traits<T>::kItems`), enumerators, `sizeof`, template arguments and a wmma
    fragment's `num_elements`. A lone dynamic access to a small
    array is often compiled to a chain of selects, so it is left to `--ptxas`.

    With `--ptxas` a finding is kept only when the kernel's stack frame can hold the
    array; lone dynamic accesses and arrays the compiler failed to unroll are then
    reported too.

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
                    dynamic = next(d for d in array.dynamic if d.repeated)
                    yield self._report(facts, kernel, array, dynamic.access, dynamic.reason, {})

    def _compiled(self, facts: Facts, kernel: KernelFacts, array: LocalArray):
        resources = kernel.resources
        if resources is None or kernel.array_stack_bytes < array.bytes:
            return
        figures = {"stackFrame": resources.stack_frame}
        if array.dynamic:
            yield self._report(facts, kernel, array, array.dynamic[0].access, array.dynamic[0].reason, figures)
        elif array.unrolled_access is not None and not resources.spills:
            # A stack frame this size with nothing spilled: the loops over it were not unrolled.
            access = array.unrolled_access
            yield self._report(facts, kernel, array, access, "the counter of a loop the compiler did not unroll", figures)

    def _report(self, facts: Facts, kernel: KernelFacts, array: LocalArray, access, reason: str, figures: dict):
        confirmed = f" (ptxas: {figures['stackFrame']}-byte stack frame)" if figures else ""
        return self.finding(
            f"{wording.code(facts.source_text(access.span), 'an access')} indexes per-thread array "
            f"`{array.declaration}` ({array.bytes} bytes) with "
            f"{reason}: the array lives in local memory, off-chip, instead of registers{confirmed}",
            access.span, function=kernel.function.display_name,
            properties={"array": array.var.name, "arrayBytes": array.bytes, **figures},
        )

