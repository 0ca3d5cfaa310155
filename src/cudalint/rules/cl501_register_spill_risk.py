"""CL501 register-spill-risk: a kernel whose per-thread state does not fit the registers its
build allows.

The rule's documentation is its class docstring (docs/rules/CL501.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.dataflow import Facts, KernelFacts
from cudalint.diagnostics import Level
from cudalint.ir import FunctionKind, Span
from cudalint.rules.base import FactRule


class RegisterSpillRisk(FactRule):
    """A kernel whose per-thread state does not fit the registers its build allows.

    ## What it does
    Works out the register cap of each kernel: `__launch_bounds__(maxThreads, minBlocks)`
    (64K registers per SM shared by `minBlocks` blocks of `maxThreads` threads, rounded
    down to the allocation unit of 8, at most 255), `__maxnreg__(N)`, the build's
    `-maxrregcount` (configuration `max-registers` or compile_commands.json), or the
    hardware's 255. It then estimates what one thread keeps live: per-thread arrays the
    compiler holds in registers once loops over them are unrolled (accumulator tiles),
    structs that hold arrays (a wmma fragment keeps its `num_elements` values, one
    register per 32-bit word, two halves sharing one), values carried across the loops
    that stay rolled (64-bit values count twice) and a fixed overhead. When the estimate
    exceeds the cap, it warns, naming the cap's source and the largest contributors.

    Tensor-core tiles are counted as ptxas allocates them. Fragments cost their
    `num_elements` in 32-bit words: a wmma `fragment<accumulator, 16, 16, 16, float>` 8
    registers, a `matrix_a` or `matrix_b` half fragment 8 (16 halves, two per register);
    an `mma.sync` m16n8k16 tile's `float RC[..][..][4]` 4 per tile, its A operand 4 `b32`
    registers and its B operand 2. The accumulator tile declared outside the rolled loop
    over K is live throughout it. The operand arrays declared inside that loop (`a[WM]`
    and `b[WN]`, `RA` and `RB`) are not all live at once: in the unrolled outer product
    each `a[i]` meets every `b[j]`, so one side stays whole while ptxas loads the other
    one element (fragment) at a time, just before use. The estimate counts all operands
    but one plus one element of that one, whichever is less.

    Measured with ptxas (nvcc 13.0, sm_90) on warp tiles shaped like tensor-core GEMMs
    (tests/corpus/registers/fragment_tiles*.cu), accumulator registers of the tile, the
    estimate, and the registers ptxas needs without spilling (caps tried 8 apart):

    | tile                     | accumulators | estimate | spill-free at | spills at |
    |--------------------------|-------------:|---------:|--------------:|----------:|
    | wmma 2 x 4               |           64 |      102 |           128 |         - |
    | wmma 2 x 6               |           96 |      134 |           136 |       128 |
    | wmma 3 x 4               |           96 |      142 |           136 |         - |
    | wmma 4 x 4               |          128 |      182 |           176 |       168 |
    | wmma 4 x 6               |          192 |      246 |           255 |         - |
    | wmma 4 x 8               |          256 |      310 |             - |       255 |
    | mma.sync m16n8k16 4 x 6  |           96 |      126 |           128 |         - |
    | mma.sync m16n8k16 4 x 7  |          112 |      144 |           144 |       136 |
    | mma.sync m16n8k16 4 x 8  |          128 |      160 |           176 |       168 |
    | mma.sync m16n8k16 8 x 8  |          256 |      290 |             - |       255 |

    The estimate lands within 16 registers of ptxas's need; a cap inside that margin can
    go either way (the 4 x 8 `mma.sync` tile under `-maxrregcount=160` spills 52 bytes
    unflagged), and `--ptxas` settles it.

    With `--ptxas` the verdict is ptxas's own: the warning gives the exact spill bytes.
    How the registers a kernel uses limit the warps an SM holds is CL503's.

    ## Why is this bad?
    What does not fit is spilled to local memory: per-thread off-chip storage, cached in
    L1 but competing with it. Each spill is an extra load or store on the kernel's
    critical path, and a kernel that spills in its main loop typically loses most of
    what its register tiling was meant to gain.

    ## Example
    ```cuda
    __global__ void __launch_bounds__(256, 4) tile(const float* a, float* c, int n) {
        float acc[8][8] = {};
        for (int k = 0; k < n; ++k) {
            float v = a[k * 256 + threadIdx.x];
    #pragma unroll
            for (int i = 0; i < 8; ++i)
    #pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] += v * (i + j);
        }
    #pragma unroll
        for (int i = 0; i < 8; ++i)
    #pragma unroll
            for (int j = 0; j < 8; ++j) c[(i * 8 + j) * 256 + threadIdx.x] = acc[i][j];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void __launch_bounds__(256, 2) tile(const float* a, float* c, int n) {
        float acc[8][8] = {};
        for (int k = 0; k < n; ++k) {
            float v = a[k * 256 + threadIdx.x];
    #pragma unroll
            for (int i = 0; i < 8; ++i)
    #pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] += v * (i + j);
        }
    #pragma unroll
        for (int i = 0; i < 8; ++i)
    #pragma unroll
            for (int j = 0; j < 8; ++j) c[(i * 8 + j) * 256 + threadIdx.x] = acc[i][j];
    }
    ```

    ## References
    - CUDA C++ Programming Guide, "Launch Bounds" and "Maximum Number of Registers per Thread"
    - `nvcc -Xptxas -v`: registers, stack frame, spill stores and loads per kernel
    """

    code = "CL501"
    name = "register-spill-risk"
    category = "registers"
    default_level = Level.WARNING
    precision = "medium"
    tags = ("performance", "registers")

    def check(self, facts: Facts):
        for kernel in facts.kernels:
            if kernel.function.kind is not FunctionKind.KERNEL:
                continue
            if facts.build.resources is not None:
                yield from self._compiled(kernel, facts.build.arch)
            else:
                yield from self._estimated(kernel, facts.build.arch)

    def _estimated(self, kernel: KernelFacts, arch: int):
        budget, estimate = kernel.register_budget, kernel.register_estimate
        if estimate.registers <= budget.registers:
            return
        parts = ", ".join(f"{c.what}: {c.registers}" for c in estimate.contributors[:3])
        cap = (
            f"{budget.source} allows {budget.registers} on sm_{arch}"
            if budget.explicit
            else f"a thread can have at most {budget.registers}"
        )
        yield self.finding(
            f"kernel '{kernel.function.display_name}' needs about {estimate.registers} registers per thread "
            f"({parts}) but {cap}: expect spills to local memory",
            _header(kernel),
            function=kernel.function.display_name,
            properties={
                "estimatedRegisters": estimate.registers,
                "registerCap": budget.registers,
                "capSource": budget.source,
            },
        )

    def _compiled(self, kernel: KernelFacts, arch: int):
        resources = kernel.resources
        if resources is None:
            return
        budget = kernel.register_budget
        figures = {
            "registers": resources.registers,
            "spillStores": resources.spill_stores,
            "spillLoads": resources.spill_loads,
            "stackFrame": resources.stack_frame,
            "registerCap": budget.registers,
            "capSource": budget.source,
        }
        name = kernel.function.display_name
        if resources.spills:
            cap = f" (cap {budget.registers} from {budget.source} on sm_{arch})" if budget.explicit else ""
            yield self.finding(
                f"ptxas: kernel '{name}' spills {resources.spill_stores} bytes (stores) and "
                f"{resources.spill_loads} bytes (loads) per thread at {resources.registers} registers{cap}",
                _header(kernel),
                function=name,
                properties=figures,
            )


def _header(kernel: KernelFacts) -> Span:
    """The first line of the kernel's declaration (``template <...>`` for a template)."""
    span = kernel.function.span
    return Span(span.file, span.line, span.column, span.line, span.column + 1)
