"""CL504 math-slow-path-local-memory: a math function whose argument reduction keeps its
state in local memory.

The rule's documentation is its class docstring (docs/rules/CL504.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from collections.abc import Iterable

from cudalint.dataflow import Facts, KernelFacts, MathSlowPath
from cudalint.diagnostics import Finding, Level
from cudalint.ir import FunctionKind
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class MathSlowPathLocalMemory(FactRule):
    """A math function whose argument reduction keeps its state in local memory.

    ## What it does
    Reports the calls of math functions whose slow path ptxas compiles to local memory
    (measured with nvcc 13.0 for sm_90):

    - `sin`, `cos`, `tan`, `sincos` in double precision: for `|x| >= 2^31` the argument is
      reduced by a function nvcc does not inline, with a 40-byte stack frame; so are the
      Bessel functions `j0`, `j1`, `y0`, `y1`, `jn`;
    - `sinf`, `cosf`, `tanf`, `sincosf`, once a kernel has two call sites or more (several
      calls, or one in an unrolled loop): the reduction of `|x| >= 105615` keeps a 28-byte
      table in a 32-byte stack frame (with one call site ptxas keeps it in registers);
      `j0f`, `j1f`, `y0f`, `y1f`, `ynf` from one call.

    It warns when the argument is read from memory or comes from a kernel parameter
    (through assignments and helper parameters): nothing keeps it in the fast range, and
    every large argument runs the slow path's local loads and stores. An argument computed
    only from thread and block indices, loop counters and constants gets a `note`: the
    frame is compiled in, but the slow path most likely never runs. With `--ptxas` a
    finding needs the kernel's stack frame to be there.

    The finding is on the call. Nsight Compute's source view shows the float reduction's
    local loads and stores on that line too (it is inlined there); those of the double
    reduction's call sequence appear on the kernel's closing line (checked with
    `nvdisasm -gi`, tests/test_math_paths.py).

    ## Why is this bad?
    Local memory is per-thread memory in DRAM, cached in L1: the slow path's table and
    stack frame go through the same L1 and L2 as the kernel's data, and a warp whose lanes
    take it runs tens of local loads and stores with the rest of the warp waiting. The
    kernel also carries the stack frame and a call that ptxas must keep registers around.

    ## Example
    ```cuda
    __global__ void rotate(const double* phase, double2* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            double s, c;
            sincos(phase[i], &s, &c);
            out[i] = make_double2(c, s);
        }
    }
    ```

    ## Use instead
    ```cuda
    __global__ void rotate(const double* turns, double2* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            double s, c;
            sincospi(2.0 * turns[i], &s, &c);
            out[i] = make_double2(c, s);
        }
    }
    ```

    ## References
    - [CUDA Math API: sincos, sincospi](https://docs.nvidia.com/cuda/cuda-math-api/cuda_math_api/group__CUDA__MATH__DOUBLE.html)
    - [CUDA C++ Best Practices Guide: Math Libraries](https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#math-libraries)
    """

    code = "CL504"
    name = "math-slow-path-local-memory"
    category = "registers"
    default_level = Level.WARNING
    precision = "high"
    tags = ("performance", "registers", "local-memory")

    def check(self, facts: Facts) -> Iterable[Finding]:
        for kernel in facts.kernels:
            if kernel.function.kind is not FunctionKind.KERNEL:
                continue
            resources = kernel.resources
            if facts.build.resources is not None and (resources is None or resources.stack_frame == 0):
                continue
            for path in kernel.math_slow_paths:
                yield self._finding(facts, kernel, path)

    def _finding(self, facts: Facts, kernel: KernelFacts, path: MathSlowPath) -> Finding:
        call = wording.code(facts.source_text(path.call.span), f"`{path.function}`")
        slow = f"for {path.fast_range.replace('<', '>=')}" if path.fast_range else "for large arguments"
        frame = (
            f"a {kernel.resources.stack_frame}-byte stack frame (ptxas)"
            if kernel.resources is not None
            else f"a {path.frame_bytes}-byte stack frame"
        )
        head = f"{call} reduces its argument {slow} in local memory, {frame} per thread"
        if path.unbounded is not None:
            message = f"{head}; its argument is {path.unbounded}, so nothing keeps it in range: {path.remedy}"
            level = Level.WARNING
        else:
            message = (
                f"{head}; its argument comes from indices and constants and likely stays in range, "
                f"so the slow path is compiled in but may never run"
            )
            level = Level.NOTE
        return self.finding(
            message,
            path.call.span,
            level=level,
            function=kernel.function.display_name,
            properties={
                "mathFunction": path.function,
                "stackFrame": kernel.resources.stack_frame if kernel.resources is not None else path.frame_bytes,
                "fastRange": path.fast_range,
                "argumentUnbounded": path.unbounded,
            },
        )
