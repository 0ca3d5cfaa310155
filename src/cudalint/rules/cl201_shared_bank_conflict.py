"""CL201 shared-bank-conflict: lanes of a warp hit the same shared-memory bank at different
addresses.

The rule's documentation is its class docstring (docs/rules/CL201.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

import re

from cudalint import ir
from cudalint.dataflow import (
    BANK_BYTES,
    BANKS,
    Access,
    AccessPattern,
    Confidence,
    Facts,
    KernelFacts,
    MemorySpace,
    SharedArray,
    row_layout,
)
from cudalint.diagnostics import Edit, Fix, Level, Safety
from cudalint.rules import wording
from cudalint.rules.base import FactRule
from cudalint.rules.memory import LARGE_SIZE, on_instruction_line

_DIMENSION = re.compile(r"\[\s*([^\[\]]+?)\s*\]")


class SharedBankConflict(FactRule):
    """Lanes of a warp hit the same shared-memory bank at different addresses.

    ## What it does
    Computes, for each shared-memory access, the wavefronts every warp of the block
    needs, the way Hopper serves the request, and warns when the block's requests take
    at least twice the wavefronts their data needs (the conflict-free figure Nsight
    Compute calls "ideal"): power-of-two strides (`s[2 * t]`, `s[32 * t]`), the column
    of a `float[32][32]` tile (`tile[tx][ty]`), a loop whose counter walks the columns
    of each thread's row, the planes of a 3-D tile a block's warps span, compare-exchange
    and reduction loops whose distance doubles or halves, arrays of structs in shared
    memory. The message states the n-way conflict and the wavefronts per request; for a
    2-D tile it offers the padding of the rows that removes the conflict for the way this
    block's warps walk the tile, when one does without costing the tile's other accesses
    more: `[32][33]` for a 32-wide warp reading a column, `[16][18]` for a 16x16 block
    whose warps read two columns at once (where `[16][17]`, a padding meant for 16
    banks, still conflicts).

    How it counts: 32 banks of 4-byte words; a wavefront delivers one word per bank, and lanes asking
    for the same word share it. Words of up to 4 bytes are served a warp at a time,
    8-byte words in half-warp phases and 16-byte words in quarter-warp phases, each
    phase taking as many wavefronts as the most distinct words one bank holds for it;
    when each pair of neighbouring lanes asks for one address, the phases are twice as
    wide. So an 8x8 tile of doubles written by the lanes `x < 8` of a 16x16 block takes
    two wavefronts for data that fits in one (a 2-way cost with no two lanes on a bank),
    and `double s[t / 2]` takes one. The figures are summed over the warps the launch runs,
    as Nsight Compute sums them: a conflict in one warp of eight shows diluted, and is
    reported only when the sum still doubles. Where the launch gives the grid and the bound
    of a guard on the block's coordinates (`if (j >= n) return;` at a launch with `n = 10`),
    the blocks at the grid's edges, whose lanes past the bound do not run, are costed beside
    the inner ones: an 8x8x8 block reading `s[z][y][x]` of a `float[16][16][16]` tile
    conflicts 2-way where rows y and y + 2 both run, but a domain of 10 points leaves the
    warps of the far y edge two rows, conflict-free, and the launch shows 1.67x
    (tests/corpus/shared/launch_edges.cu); a bound known only at run time leaves every
    block whole. A loop whose trips change the addresses is summed over its trips where
    nvcc keeps it rolled (one instruction serves them all); a loop nvcc unrolls whole makes
    each trip an instruction of its own, which Nsight Compute counts apart, so its trips
    are judged apart: the costliest trip among those that take at least a tenth of the
    busiest trip's wavefronts, with the number of trips that conflict (a bitonic merge over
    `j = 128 .. 1`: 2-way in 5 of its 8 trips, 1.6x summed, tests/corpus/shared/
    unrolled_trips.cu). Loads or stores of neighbouring words that nvcc merges into one
    wider instruction (`s[2 * t]` and `s[2 * t + 1]` with nothing between them, the
    first word aligned for the wide one) are costed as that instruction: an 8-byte
    contiguous access, conflict-free; so are the trips of a loop nvcc unrolls that walk
    a row word by word (two doubles or four floats per 16-byte load), also inside outer
    loops that move the whole request by whole 16-byte words (a warp tile's registers
    filled row by row over `k`: LDS.128 where one float at a time would be 2-way,
    tests/corpus/shared/register_tiles.cu). nvcc merges only within one basic block: a
    loop body that branches (an `if` whose paths do more than select register values)
    gives each unrolled trip blocks of its own, and a load used only under the branch is
    sunk into it, so its trips stay one instruction each (checked in the SASS: `double wk
    = w[y][k]` followed by `if (k < 8 && x < 8) acc += wk * ...` issues one LDS.64 per
    trip, two rows of a warp 128 bytes apart in the same banks, 2-way; measured 2x on
    real code; tests/corpus/shared/branchy_trips.cu). Every figure of the probe
    bench/realcode/probes/shared_widths.cu, measured on an H100, follows from this.

    Shared accesses written in inline PTX (`asm volatile`, often behind macros such as
    `LDMATRIX_X4` or `CP_ASYNC_CG`) are costed from the instruction and the address its
    operand holds, followed back through `__cvta_generic_to_shared` (or `cvta.to.shared`)
    and integer arithmetic on the 32-bit address to the `__shared__` array element:
    - `ldmatrix.sync.aligned.m8n8.x1/.x2/.x4{.trans}.b16` (and sm_90's `stmatrix`) moves 1,
      2 or 4 matrices of 8x8 16-bit elements; each matrix is eight rows of 16 bytes whose
      addresses lanes 8m to 8m+7 give. The hardware serves one matrix per wavefront at
      best; rows of one matrix in the same four banks (a 16-byte bank group) at different
      addresses take a wavefront each. The tensor-core tile `half tile[..][32]` read by
      `&tile[lane % 16][(lane / 16) * 8]` has 64-byte rows: rows 0, 2, 4 and 6 of each
      matrix share banks 0-3, 4 wavefronts per matrix (measured 4x on an H100); rows
      padded to 80 bytes, or 16-byte chunks permuted by the row (`chunk ^ row % 8`), are
      conflict-free. The message names the instruction and the rows that collide; the
      advice is a padding of one 16-byte chunk where that removes the conflict, else a
      permutation of each row's chunks (padding by more would waste the memory a
      swizzle saves).
    - `cp.async.ca/.cg.shared.global [dst], [src], 4/8/16` (and `__pipeline_memcpy_async`)
      writes each lane's bytes to shared memory at least as a store of that width is
      written (16 bytes per lane: 8 lanes per wavefront); its global side is a load of
      that width, judged by CL101. Measured on an H200 and again on an H100 (tests/
      corpus/shared/cp_async_tiles.cu), 4- and 8-byte copies cost exactly that; 16-byte copies cost
      more where the copy is split: lanes whose 16-byte pieces of one 32-byte global
      sector do not land in one aligned 32 bytes of shared memory are written apart
      (rows padded to 80 bytes: 3.75x where a 16-byte store is 2x; lanes 32 bytes apart:
      8x where a store is 2x), and a phase of 8 lanes reading two global 128-byte lines
      takes a wavefront per line (2x into a conflict-free tile; 3x with chunks permuted
      by the row). cudalint costs 16-byte copies as the store plus that split by global
      lines (where the lanes' global addresses are known exactly) and gives the figure
      as a lower bound ("at least"); the split 32-byte pieces it does not model. Global
      rows a run-time row length apart (`src + (lane / 4) * K`, the tile loads of GEMMs)
      are judged at a realistic row length, 1024 elements as CL101 judges row lengths,
      where `K` is a size of the kernel (it loops or bounds-checks against it, or it is
      the row length of a 2-D index): the lanes of a phase then read different lines for
      any K of 64 16-bit elements or more. The message says "for any realistic K". Any
      other run-time spacing of the lanes leaves the split uncounted. Measured on an
      H100: the permuted tile load with K = 1024 takes 3x, as with a constant row
      length; lanes a run-time 8 halves apart that no size governs copy at the ideal.
    - `ld.shared`/`st.shared` with `.v2`/`.v4`: loads and stores of that width, at the
      operand's address plus the instruction's immediate offset.

    A warning is a cost the hardware shows on that line (Nsight Compute's shared
    wavefronts at least twice its ideal); where that depends on what only the run
    knows, the rule stays quiet or only notes:
    - Odd strides, padded tiles, broadcasts, 1- and 2-byte types read contiguously and
      contiguous 8- and 16-byte accesses: conflict-free.
    - An access only one lane runs (`if (threadIdx.x == best)`): one lane cannot
      conflict.
    - Addresses made of data read at run time (a histogram's `s[bin]`): which banks the
      lanes hit is the data's choice, not the code's; nothing is reported.
    - A stride or tile size known only at run time that collides for some values, or an
      access under a condition on data read per lane (only the lanes the data lets
      through run it, and they may not collide): a note, not a warning.

    A stride, tile size or block shape the host code sets (`d = 64` in the launcher, a
    `dim3(16, 16)` in another file, the values of a host loop, a wrapper's arguments) is
    not left open: the kernel is judged once per launch configuration with those values,
    as the hardware runs that launch, and the message names the launch and the values
    (`at the launch in attention.cu:612 with d = 64`); where launches disagree, the
    finding is the most severe one, for the first launch that gives it. The launch's grid
    gives `gridDim` its value, and a loop bounded by a value the launch sets
    (`for (p = 0; p < passes; ++p)`) is summed over the trips it runs at that launch only.

    ## Why is this bad?
    An n-way conflict serializes the request into n wavefronts: shared-memory
    throughput drops by n, and a transposed tile read becomes 32 times slower.

    ## Example
    ```cuda
    __global__ void transpose(const float* in, float* out) {
        __shared__ float tile[32][32];
        tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
        __syncthreads();
        out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    }
    void launch(const float* in, float* out) { transpose<<<1, dim3(32, 32)>>>(in, out); }
    ```

    ## Use instead
    ```cuda
    __global__ void transpose(const float* in, float* out) {
        __shared__ float tile[32][33];
        tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
        __syncthreads();
        out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    }
    void launch(const float* in, float* out) { transpose<<<1, dim3(32, 32)>>>(in, out); }
    ```

    ## Fix safety
    The fix grows the declaration's last dimension (`[32][32]` -> `[32][33]`).
    - Safe when the tile is declared in the kernel (not `extern`, not at file scope) and
      every use subscripts it down to an element (`tile[i][j]`): each element keeps its
      row and column, only its bank changes, and `cudalint check --fix` applies it.
    - Unsafe otherwise: a pointer to the tile or one of its rows (`float* p = tile[0]`,
      `&tile[i][j]`, a call, `memcpy`, a cast), `sizeof(tile)`, or other code sharing a
      file-scope or `extern` declaration would see the elements moved; applied only with
      `--unsafe-fixes`, after adapting that code.

    ## References
    - CUDA C++ Programming Guide, "Shared Memory" (bank conflicts)
    - Nsight Compute, `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`
    """

    code = "CL201"
    name = "shared-bank-conflict"
    category = "shared-memory"
    default_level = Level.WARNING
    precision = "high"
    tags = ("performance", "memory")

    def check(self, facts: Facts):
        for kernel in facts.kernels:
            for access, pattern in kernel.accesses:
                if access.space is not MemorySpace.SHARED or pattern.single_lane:
                    continue
                degree = pattern.conflict_degree
                qualifier = ""
                if (degree is None or degree < CONFLICT_RATIO) and pattern.split_depends_on:
                    pattern, qualifier = _at_realistic_row_length(kernel, access, pattern)
                    degree = pattern.conflict_degree
                if degree is None or degree < CONFLICT_RATIO:
                    continue
                level = None
                if pattern.confidence is Confidence.SYMBOLIC:
                    values = [name for name in pattern.depends_on if not name.startswith("the loop")]
                    if values:
                        # Only some values of a runtime stride collide: worth a look, not a verdict.
                        spelled = wording.spelled_names(values, wording.source_names(kernel.function))
                        level = Level.NOTE
                        qualifier = (
                            f" for some values of {', '.join(spelled)}"
                            if spelled
                            else " for some values computed at run time"
                        )
                    elif pattern.trip_degrees:
                        conflicting = sum(1 for each in pattern.trip_degrees if each >= CONFLICT_RATIO)
                        trips = pattern.unrolled_trips
                        qualifier = (
                            f" in each of the {trips} trips nvcc unrolls its loop into"
                            if conflicting == trips
                            else f" in {conflicting} of the {trips} trips nvcc unrolls its loop into"
                        )
                    else:
                        qualifier = " over the loop's trips"
                launch = kernel.launch_note(access.location.offset)
                if launch:
                    qualifier += f" {launch}"
                array = kernel.shared_arrays.get(access.location.base)
                fix, advice = _padding_advice(facts.tu, kernel, access, array)
                if _split_by_global_lines(kernel, access):
                    fix, advice = None, _CONTIGUOUS_SOURCE
                cost = (
                    _per_request(pattern.wavefronts, pattern.ideal_wavefronts)
                    if access.instruction is None
                    else _instruction_cost(kernel, access, pattern.wavefronts, pattern.ideal_wavefronts)
                )
                if pattern.trip_degrees and pattern.confidence is Confidence.SYMBOLIC and level is None:
                    cost += " in the costliest trip"
                finding = self.finding(
                    f"{_figure(degree)}-way bank conflict on shared {access.kind.value} "
                    f"{wording.code(facts.source_text(access.span), 'at this line')}{qualifier}: "
                    f"{cost}; {advice}",
                    access.span,
                    level=level,
                    fix=fix,
                    function=kernel.function.display_name,
                    properties={
                        "conflictDegree": round(degree, 2),
                        "wavefrontsPerRequest": round(pattern.wavefronts, 2),
                        "laneStrideBytes": str(pattern.lane_stride),
                        **kernel.launch_properties(access.location.offset),
                    },
                )
                yield on_instruction_line(facts, finding, access)


CONFLICT_RATIO = 1.95
"""Wavefronts over the conflict-free minimum, averaged over the block's warps, from which
a conflict is reported: a 2-way conflict in every warp, or nearly every warp (one warp of
a large block spared still shows 1.97)."""


def _figure(value: float) -> str:
    """A per-request average as a reader expects it: whole numbers whole, others to 0.1."""
    return str(round(value)) if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def _per_request(wavefronts: float, ideal: float) -> str:
    """The figures, said to be averages when the block's warps (or a loop's trips) differ."""
    text = f"{_figure(wavefronts)} wavefronts per request instead of {_figure(ideal)}"
    whole = all(abs(value - round(value)) < 0.05 for value in (wavefronts, ideal))
    return text if whole else f"on average {text}"


def _instruction_cost(kernel: KernelFacts, access: Access, wavefronts: float, ideal: float) -> str:
    """The cost of an access written in PTX, said the way the instruction moves data: rows
    of 8x8 matrices for ldmatrix/stmatrix, lanes of a phase for cp.async and ld/st.shared,
    with the rows or lanes that share banks in the worst phase."""
    instruction = access.instruction
    collision = kernel.collision(access)
    verb = "writes" if instruction.store else "reads"
    if instruction.matrices:
        what = f"`{instruction.name}` {verb} 8 rows of 16 bytes per matrix"
        who, phase = "rows", 8
        figures = f"{_figure(wavefronts / ideal)} wavefronts per matrix instead of 1" if ideal else ""
    else:
        phase = max(1, BANKS * BANK_BYTES // instruction.bytes)
        side = " to shared memory" if instruction.source is not None else ""
        what = f"`{instruction.name}` {verb} {instruction.bytes} bytes per lane{side}, {phase} lanes per wavefront"
        who = "lanes"
        figures = _per_request(wavefronts, ideal)
        if instruction.source is not None and instruction.bytes == SWIZZLE_CHUNK:
            figures = f"at least {figures}"  # The hardware splits such copies further (see the docs).
    if collision is None:
        if instruction.source is not None:
            return f"{what}; the lanes of a phase read different 128-byte global lines, a wavefront each: {figures}"
        return f"{what}: {figures}"
    span = f"bank {collision.bank}"
    if collision.banks > 1:
        span = f"banks {collision.bank}-{collision.bank + collision.banks - 1}"
    colliding = f"all {phase} {who}" if len(collision.lanes) == phase else f"{who} {_listed(collision.lanes)}"
    return f"{what}; {colliding} share {span}: {figures}"


_CONTIGUOUS_SOURCE = "let the 8 lanes of each phase copy 128 contiguous bytes of one global line"


def _at_realistic_row_length(kernel: KernelFacts, access: Access, pattern: AccessPattern):
    """A 16-byte cp.async whose lanes copy from global rows a run-time row length apart
    (``src + (lane / 4) * K``), judged as CL101 judges such strides: at a realistic row
    length, where the lanes of a phase read different 128-byte lines. The pattern then,
    and how the message says so; the pattern unchanged where another run-time value decides."""
    sizes = kernel.size_parameters_of(access, access.copy_source.offset)
    if not set(pattern.split_depends_on) <= sizes:
        return pattern, ""
    names = sorted(pattern.split_depends_on)
    realistic = kernel.pattern_with(access, dict.fromkeys(names, LARGE_SIZE))
    spelled = wording.spelled_names(names, wording.source_names(kernel.function)) or names
    return realistic, f" for any realistic {' and '.join(spelled)} ({' and '.join(spelled)} taken as {LARGE_SIZE})"


def _split_by_global_lines(kernel: KernelFacts, access: Access) -> bool:
    """A cp.async conflict-free in shared memory whose cost comes from its phases' lanes
    reading several global lines."""
    return access.instruction is not None and access.instruction.source is not None and kernel.collision(access) is None


def _listed(numbers: tuple[int, ...]) -> str:
    """``0, 2, 4 and 6``."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


SWIZZLE_CHUNK = 16
"""Bytes of the chunks an ldmatrix row or a 16-byte cp.async moves per lane."""
_SWIZZLE = (
    "place each row's 16-byte chunks so that the lanes of a phase fall in different bank groups "
    "(XOR the chunk index with the row index, as swizzled tensor-core tiles do)"
)


def _padding_advice(
    tu: ir.TranslationUnit, kernel: KernelFacts, access: Access, array: SharedArray | None
) -> tuple[Fix | None, str]:
    """The advice, and the fix when there is one: the padding of a 2-D tile's rows that
    makes this access conflict-free and the tile's accesses cheaper together. The
    padding is searched for the way this block's warps walk the tile, so a row padded
    for 16 banks (``[16][17]``) gets the padding that works on 32."""
    var = array.var if array is not None else None
    layout = row_layout(var)
    chunks = access.instruction is not None and access.instruction.bytes == SWIZZLE_CHUNK
    if var is None or layout is None:
        return None, "use an odd stride or swap the indices"
    padding = kernel.conflict_free_padding(access, *layout)
    if chunks and (padding is None or padding * layout[1] > SWIZZLE_CHUNK):
        # Rows of 16-byte chunks: a padding of more than one chunk wastes memory a
        # permutation of the chunks does without.
        return None, _SWIZZLE
    if padding is None:
        return None, f"padding the rows of `{var.name}` cannot remove it without costing its other accesses more"
    # Padding moves the elements: safe only where nothing reaches them but `tile[i][j]`.
    fix = _padding_fix(tu, var, padding, Safety.SAFE if array.layout_is_private else Safety.UNSAFE)
    banks = " for 32 banks" if layout[0] % (BANKS * BANK_BYTES) else ""
    if fix is None:
        return None, f"pad each row{banks} by {wording.count(padding, 'element')}"
    return fix, f"pad the row{banks} ({fix.edits[0].replacement})"


def _padding_fix(tu: ir.TranslationUnit, var: ir.VarDecl, padding: int, safety: Safety) -> Fix | None:
    """The declaration's last dimension grown by ``padding`` (``[32][32]`` -> ``[32][33]``)."""
    if var.span.from_macro or var.span.file != tu.path:
        return None
    line = tu.source_lines[var.span.line - 1] if 0 < var.span.line <= len(tu.source_lines) else ""
    declarator = re.compile(rf"\b{re.escape(var.name)}\s*((?:\[[^\[\]]+\]\s*)+)").search(line, var.span.column - 1)
    if declarator is None:
        return None
    dimensions = list(_DIMENSION.finditer(line, declarator.start(1), declarator.end(1)))
    if len(dimensions) < 2:
        return None
    last = dimensions[-1]
    written = last.group(1)
    padded = str(int(written) + padding) if written.isdigit() else f"{written} + {padding}"
    span = ir.Span(tu.path, var.span.line, last.start() + 1, var.span.line, last.end() + 1)
    return Fix(
        f"pad each row of `{var.name}` by {wording.count(padding, 'element')}", (Edit(span, f"[{padded}]"),), safety
    )
