"""CL503 occupancy-cliff: a launch whose occupancy a small change of registers or shared
memory would raise.

The rule's documentation is its class docstring (docs/rules/CL503.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from collections.abc import Iterable

from cudalint.dataflow import Facts, KernelFacts, LaunchOccupancy, Limiter
from cudalint.diagnostics import Finding, Level
from cudalint.ir import FunctionKind
from cudalint.rules.base import FactRule

MAX_SAVING = 0.25
"""The largest share of a kernel's registers or shared bytes a change may take away and
still count as small."""
MIN_GAIN = 1.25
"""The least rise in resident warps that counts as substantial."""
MAX_OCCUPANCY = 0.5
"""Above half the SM's warps, a latency-bound kernel usually has warps enough to switch to."""


class OccupancyCliff(FactRule):
    """A launch whose occupancy a small change of registers or shared memory would raise.

    ## What it does
    Computes the theoretical occupancy of every launch of every kernel, as the CUDA
    Occupancy Calculator and Nsight Compute's launch statistics do (`cudalint facts`
    prints the table): the block size and dynamic shared memory of the launch, the static
    shared memory, the registers per thread (ptxas's with `--ptxas`, else the estimate
    within `__launch_bounds__`, `__maxnreg__` or `-maxrregcount`), and the limits of the
    target architecture (resident warps and blocks per SM, registers allocated per warp in
    units of 256, shared memory at the largest carve-out with the 1 KiB the driver keeps
    per block from sm_80 on). It names what limits the occupancy and the cliff: how many
    registers or shared bytes fewer would let one more block in.

    It warns when all of these hold, and gives a `note` for the other launches that
    registers or shared memory limit (those that registers limit only with `--ptxas`: the
    estimate without it is too rough to place a register cliff):

    - the figures are exact: ptxas's registers (`--ptxas`) and the launch's shared bytes;
    - the change is small: at most a quarter of the registers or shared bytes;
    - the gain is substantial: a quarter more resident warps or better, from half the
      SM's warps or less;
    - the kernel is likely latency-bound: it reads global memory and keeps no tile of 8
      or more values per thread in registers (arrays, wmma fragments), so that its loads
      in flight grow only with its warps.

    A launch whose block cannot fit at all (more registers than a block may have) is a
    warning too, with `--ptxas`: the launch fails with `cudaErrorLaunchOutOfResources`.

    The occupancy is Nsight Compute's: with `--ptxas`, the warps per SM and the register,
    warp and block limits equal ncu's in each of 42 launches of the occupancy corpus on an
    H200, and the model equals ncu's warps per SM on 107 launches of 25 real programs
    (README, "Occupancy figures are checked against Nsight Compute").

    ## Why is this bad?
    An SM hides the latency of a warp's memory access by issuing from other warps. By
    Little's law the bytes in flight an SM needs are its share of the bandwidth times the
    latency: on an H100 or H200 (about 3.35 to 4.8 TB/s over 132 SMs, 600 to 800 ns from
    DRAM) that is 15 to 30 KB per SM, while a warp that loads one 4-byte value per thread
    before using it keeps 128 B in flight. A kernel of that kind reaches its bandwidth only
    with many warps, and gains from each step of occupancy; a register cliff (one
    register above 64 with 256-thread blocks takes an SM from 32 to 24 warps) costs it a
    quarter of its throughput.

    Higher occupancy is not always faster: a kernel that keeps many independent values
    per thread (a register tile, loads the compiler batches from an unrolled loop) hides
    latency with its own instruction parallelism and can run best at low occupancy, and
    capping its registers may spill. That is why the rule warns only for kernels without a
    register tile, and only for a small change; the note gives the figures for the others.
    Loads batched by unrolling are not seen: a kernel whose registers go to them can be
    warned about although it hides latency already, which the `note` level of the other
    cases does not risk.

    ## Example
    ```cuda
    __global__ void __launch_bounds__(256) gather(const float* in, const int* index, float* out, int n) {
        __shared__ float staging[7424];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (int k = threadIdx.x; k < 7424; k += blockDim.x) staging[k] = in[index[k]];
        __syncthreads();
        if (i < n) out[i] = staging[threadIdx.x * 29 % 7424] + in[i];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void __launch_bounds__(256) gather(const float* in, const int* index, float* out, int n) {
        __shared__ float staging[7040];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (int k = threadIdx.x; k < 7040; k += blockDim.x) staging[k] = in[index[k]];
        __syncthreads();
        if (i < n) out[i] = staging[threadIdx.x * 27 % 7040] + in[i];
    }
    ```

    ## References
    - [CUDA C++ Best Practices Guide: Occupancy](https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy)
    - [Nsight Compute: Occupancy Calculator](https://docs.nvidia.com/nsight-compute/NsightCompute/index.html#occupancy-calculator)
    - [V. Volkov, Better Performance at Lower Occupancy (GTC 2010)](https://www.nvidia.com/content/gtc-2010/pdfs/2238_gtc2010.pdf)
    """

    code = "CL503"
    name = "occupancy-cliff"
    category = "registers"
    default_level = Level.WARNING
    precision = "medium"
    tags = ("performance", "registers", "occupancy")

    def check(self, facts: Facts) -> Iterable[Finding]:
        seen: set[str] = set()
        for kernel in facts.kernels:
            if kernel.function.decl in seen or kernel.function.kind is not FunctionKind.KERNEL:
                continue
            seen.add(kernel.function.decl)
            for row in facts.occupancies(kernel):
                finding = self._judge(kernel, row)
                if finding is not None:
                    yield finding

    def _judge(self, kernel: KernelFacts, row: LaunchOccupancy) -> Finding | None:
        occupancy = row.occupancy
        name = kernel.function.display_name
        arch = f"sm_{occupancy.arch}"
        properties = {"occupancy": row.record()}
        if occupancy.blocks == 0:
            if not row.exact or Limiter.REGISTERS not in occupancy.limiters:
                return None
            return self.finding(
                f"ptxas: kernel '{name}' uses {row.registers} registers per thread: a block of "
                f"{row.block_threads} threads ({row.where}) needs more than the 65536 registers a block may have "
                f"on {arch}, and the launch fails",
                row.span,
                function=name,
                properties=properties,
            )
        step = row.step
        if step is None or (step.limiter is Limiter.REGISTERS and not row.registers_exact):
            # Without ptxas the registers are an estimate: too rough to place a register cliff.
            return None
        raised = step.occupancy
        what = (
            f"{row.registers} registers per thread ({'ptxas' if row.registers_exact else 'estimated'})"
            if step.limiter is Limiter.REGISTERS
            else f"{row.static_shared + (row.dynamic_shared or 0)} bytes of shared memory per block"
        )
        change = _change(kernel, row)
        message = (
            f"kernel '{name}' holds {occupancy.warps} of {occupancy.max_warps} warps per SM "
            f"({occupancy.percent:g}% occupancy) with blocks of {row.block_threads} threads ({row.where}) on {arch}: "
            f"{what} allow {_blocks(occupancy.blocks)}; {change} would allow {raised.blocks}, "
            f"{raised.warps} warps ({raised.percent:g}%)"
        )
        small = step.saving <= MAX_SAVING * step.now
        substantial = raised.warps >= MIN_GAIN * occupancy.warps and occupancy.fraction <= MAX_OCCUPANCY
        if row.exact and small and substantial and kernel.latency_exposed:
            return self.finding(
                message + ": its threads keep no register tile to cover memory latency with",
                row.span,
                function=name,
                properties=properties,
            )
        return self.finding(message, row.span, level=Level.NOTE, function=name, properties=properties)


def _blocks(count: int) -> str:
    return f"{count} block" if count == 1 else f"{count} blocks"


def _change(kernel: KernelFacts, row: LaunchOccupancy) -> str:
    """The smallest change, as the user would make it."""
    step = row.step
    assert step is not None
    if step.limiter is Limiter.SHARED_MEMORY:
        return f"{step.saving} bytes fewer ({step.target})"
    bounds = kernel.function.launch_bounds
    threads = bounds.max_threads if bounds is not None and bounds.max_threads else row.block_threads
    if (
        kernel.function.max_registers is None
        and kernel.launch_bounds_cap(threads, step.occupancy.blocks) <= step.target
    ):
        spelled = f"`__launch_bounds__({threads}, {step.occupancy.blocks})`"
    else:
        spelled = f"`__maxnreg__({step.target})`"
    return f"{step.target} registers ({step.saving} fewer, {spelled})"
