"""CL092 measured-bank-conflicts: shared accesses the profiler measured at twice their ideal
wavefronts or more, where no rule has a finding.

The rule's documentation is its class docstring (docs/rules/CL092.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.diagnostics import Level
from cudalint.rules.base import MeasuredRule


class MeasuredBankConflicts(MeasuredRule):
    """Shared accesses the profiler measured at twice their ideal wavefronts or more, where no rule has a finding.

    ## What it does
    Only with `cudalint check --profile FILE`: on each source line, Nsight Compute's
    SourceCounters give every shared load and store instruction its L1 wavefronts and
    the wavefronts a conflict-free access of the same size would take. Where one
    significant access of the line took 1.95 times its ideal or more (a 2-way bank
    conflict or worse) and CL201 does not report the line at any level, this rule does,
    with the measured ratio and what cudalint derived for the line's shared accesses
    (the index formula, the values only the run knows).

    A CL201 finding on the line is joined instead: a note the measurement confirms
    becomes a warning carrying the measured ratio, one it refutes is kept as a
    measured-clean note, a warning it contradicts is kept and marked
    `measured: clean in this run`.

    ## Why is this bad?
    Lanes whose addresses fall in the same bank at different words are served one
    wavefront after another: an n-way conflict runs the access n times slower.

    ## Example
    A transpose through dynamic shared memory sized by the launch: with a 32x32 block the
    column read is a 32-way conflict; the analysis does not know `blockDim` here.
    ```cuda
    __global__ void transpose(float* out, const float* in, int n) {
        extern __shared__ float tile[];
        int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
        tile[threadIdx.y * blockDim.x + threadIdx.x] = in[y * n + x];
        __syncthreads();
        out[y * n + x] = tile[threadIdx.x * blockDim.y + threadIdx.y];
    }
    ```

    ## Use instead
    Rows padded by one word (launch with `blockDim.y * (blockDim.x + 1)` floats): a column
    falls in 32 different banks.
    ```cuda
    __global__ void transpose(float* out, const float* in, int n) {
        extern __shared__ float tile[];
        int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
        tile[threadIdx.y * (blockDim.x + 1) + threadIdx.x] = in[y * n + x];
        __syncthreads();
        out[y * n + x] = tile[threadIdx.x * (blockDim.x + 1) + threadIdx.y];
    }
    ```
    """

    code = "CL092"
    name = "measured-bank-conflicts"
    category = "shared-memory"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "memory", "measured")
    hazard_class = "shared"
