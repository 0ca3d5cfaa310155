from __future__ import annotations

import re

from cudalint import ir
from cudalint.dataflow import Access, Confidence, Facts, MemorySpace
from cudalint.diagnostics import Edit, Fix, Level
from cudalint.rules.base import FactRule

_DIMENSION = re.compile(r"\[\s*([^\[\]]+?)\s*\]")


class SharedBankConflict(FactRule):
    """Lanes of a warp hit the same shared-memory bank at different addresses.

    ## What it does
    Computes, for each shared-memory access, which of the 32 four-byte banks every lane
    touches, and warns when a request needs more than one wavefront because lanes
    collide in a bank: power-of-two strides (`s[2 * t]`, `s[32 * t]`), the column of a
    `float[32][32]` tile (`tile[tx][ty]`), reduction loops whose stride doubles
    (reported with the worst iteration), arrays of structs in shared memory. The message
    states the n-way conflict; for 2-D tiles whose rows are a multiple of 32 words it
    offers to pad the row (`[32][33]`). Odd strides, padded tiles, broadcasts, 1- and
    2-byte types and contiguous 8-byte accesses are conflict-free and stay quiet.

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
            declarations = _shared_declarations(facts.tu, kernel.function)
            for access, pattern in kernel.accesses:
                if access.space is not MemorySpace.SHARED or pattern.single_lane:
                    continue
                degree = pattern.conflict_degree
                if degree is None or degree < 2:
                    continue
                level = None
                qualifier = ""
                if pattern.confidence is Confidence.SYMBOLIC:
                    values = [name for name in pattern.depends_on if not name.startswith("the loop")]
                    if values:
                        # Only some values of a runtime stride collide: worth a look, not a verdict.
                        level, qualifier = Level.NOTE, f" for some values of {', '.join(values)}"
                    else:
                        qualifier = " in the worst loop iteration"
                declaration = declarations.get(access.location.base)
                fix = _padding_fix(facts.tu, declaration) if declaration is not None else None
                advice = f"pad the row ({fix.edits[0].replacement})" if fix else "use an odd stride or swap the indices"
                yield self.finding(
                    f"{degree}-way bank conflict on shared {access.kind.value} "
                    f"`{facts.source_text(access.span) or access.location.base}`{qualifier}: "
                    f"{pattern.wavefronts} wavefronts per request instead of {pattern.ideal_wavefronts}; {advice}",
                    access.span, level=level, fix=fix, function=kernel.function.display_name,
                    properties={"conflictDegree": degree, "wavefrontsPerRequest": pattern.wavefronts,
                                "laneStrideBytes": str(pattern.lane_stride)},
                )


def _shared_declarations(tu: ir.TranslationUnit, function: ir.Function) -> dict[str, ir.VarDecl]:
    """Shared arrays by name as ``function`` sees them: its own, else file-scope ones."""
    found = {var.name: var for var in tu.globals if var.storage is ir.StorageClass.SHARED}
    if function.body is not None:
        for stmt in function.body.walk():
            for var in stmt.decls:
                if var.storage is ir.StorageClass.SHARED:
                    found[var.name] = var
    return found


def _padding_fix(tu: ir.TranslationUnit, var: ir.VarDecl) -> Fix | None:
    """``[32][32]`` -> ``[32][33]`` when each row is a multiple of 32 four-byte words."""
    element = var.type.pointee
    if var.type.kind is not ir.TypeKind.ARRAY or element is None or element.kind is not ir.TypeKind.ARRAY:
        return None
    if element.size is None or element.size % 128 or var.span.from_macro or var.span.file != tu.path:
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
    padded = str(int(written) + 1) if written.isdigit() else f"{written} + 1"
    span = ir.Span(tu.path, var.span.line, last.start() + 1, var.span.line, last.end() + 1)
    return Fix(f"pad each row of `{var.name}` by one element", (Edit(span, f"[{padded}]"),))
