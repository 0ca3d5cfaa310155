from __future__ import annotations

import re

from cudalint import ir
from cudalint.dataflow import Access, AccessPattern, Facts, KernelFacts
from cudalint.diagnostics import Finding, Level
from cudalint.rules.base import FactRule
from cudalint.rules.cl101_uncoalesced_global_access import EFFICIENCY_THRESHOLD
from cudalint.rules.memory import (
    array_of_structs_field,
    fields_read,
    fields_used_together,
    global_accesses,
    kernel_context,
    uncoalesced,
    whole_struct,
)


class ArrayOfStructsAccess(FactRule):
    """Structs read across a warp one field or one piece at a time: each lane fetches a whole struct.

    ## What it does
    Flags two shapes of array-of-structs access in global memory:

    - one member of consecutive array elements (`p[i].x` on an array of structs, `v[i].y`
      on a `float4` array), also when the array starts at an offset loaded at run time
      that is the same for the whole block (`&particles[boxes[blockIdx.x].offset]`); the
      message names the struct, its size and the field;
    - a whole struct copied in or out (`Particle p = ps[i];`, `ps[i] = p;`). nvcc moves a
      struct in pieces no wider than its alignment, 16 bytes at most (a 4-byte aligned
      40-byte particle as 4-byte loads, a `float3` as three, an 8-byte aligned struct as
      8-byte pieces), and only the fields the code uses: every piece is a request of its
      own with the struct's size between lanes. The message names the struct, its size
      and alignment, the piece and the fields the kernel reads.

    **Levels.**
    `warning` only, when the costliest request needs at least twice its ideal sectors
    (Nsight Compute's "L2 theoretical sectors global" against its ideal, per
    instruction): the hardware shows it on every launch.

    **What it stays quiet on.**
    Structs copied whole in one access (`float4`, `double2`, a 16-byte `__align__(16)`
    struct, an 8-byte `__align__(8)` pair), structs read at an address the whole warp
    shares (`Body other = bodies[j];` in an n-body loop: a broadcast), and kernels that
    read most of each struct field by field through the same element (the compiler
    merges those into wide loads when the alignment allows).

    ## Why is this bad?
    Lane `i` reads 4 bytes at `i * sizeof(struct)`: for a 24-byte particle a warp pulls
    24 sectors to use 4 sectors' worth of data. The other fields come along and are
    thrown away, or fetched again by the next statement.

    ## Example
    ```cuda
    struct Particle { float x, y, z, vx, vy, vz; };
    __global__ void advance(Particle* p, float dt) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        p[i].x = p[i].x + dt;
    }
    ```

    ## Use instead
    ```cuda
    __global__ void advance(float* x, const float* vx, float dt) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        x[i] = x[i] + vx[i] * dt;
    }
    ```

    ## References
    - CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory"
    """

    code = "CL102"
    name = "array-of-structs-access"
    category = "global-memory"
    default_level = Level.WARNING
    precision = "high"
    tags = ("performance", "memory")

    def check(self, facts: Facts):
        for kernel, access, pattern in global_accesses(facts):
            record = whole_struct(facts, access, pattern)
            if record is not None:
                if uncoalesced(pattern, EFFICIENCY_THRESHOLD):
                    yield self._whole_struct_finding(facts, kernel, access, pattern, record)
                continue
            member = array_of_structs_field(facts, access, pattern)
            if member is None or not uncoalesced(pattern, EFFICIENCY_THRESHOLD):
                continue
            if fields_used_together(facts, kernel, access, member) * 2 > member.record.size:
                continue  # Most of each struct is used: the compiler merges these into wide loads.
            record = member.record.name.removeprefix("struct ")
            yield self.finding(
                f"global {access.kind.value} of field `{member.field.name}` ({access.size} bytes) of `{record}` "
                f"({member.record.size} bytes) in each lane: {pattern.sectors} sectors per request for "
                f"{pattern.ideal_sectors} sectors of data{kernel_context(kernel, access)}; store the field in its own "
                "array (structure of arrays), or load whole elements with vector types",
                access.span,
                function=kernel.function.display_name,
                properties={
                    "sectorsPerRequest": pattern.sectors,
                    "idealSectors": pattern.ideal_sectors,
                    "struct": record,
                    "structBytes": member.record.size,
                    "field": member.field.name,
                },
            )

    def _whole_struct_finding(
        self, facts: Facts, kernel: KernelFacts, access: Access, pattern: AccessPattern, record: ir.Record
    ) -> Finding:
        name = record.name.removeprefix("struct ")
        fields = fields_read(kernel, access)
        used = f", of which the kernel reads {', '.join(f'`{f}`' for f in fields)}" if fields else ""
        stride = pattern.lane_stride.constant if pattern.lane_stride is not None else None
        apart = f"lanes {abs(stride)} bytes apart" if stride else "lanes apart"
        return self.finding(
            f"global {access.kind.value} of a whole `{name}` ({record.size} bytes{used}) in each lane: its "
            f"{record.align}-byte alignment lets nvcc move it only {pattern.piece_bytes} bytes at a time, each piece "
            f"a request with {apart}: {pattern.sectors} sectors per request for {pattern.ideal_sectors} sectors of "
            f"data{kernel_context(kernel, access)}; keep each field in its own array (structure of arrays), "
            f"{_wider_pieces(record)}",
            access.span,
            function=kernel.function.display_name,
            properties={
                "sectorsPerRequest": pattern.sectors,
                "idealSectors": pattern.ideal_sectors,
                **kernel.launch_properties(access.location.offset),
                "struct": name,
                "structBytes": record.size,
                "pieceBytes": pattern.piece_bytes,
                "fieldsRead": fields,
            },
        )


_THREE_WIDE = re.compile(r"(?:struct )?(?P<base>u?(?:char|short|int)|float)3")


def _wider_pieces(record: ir.Record) -> str:
    """The other remedy: an alignment that lets nvcc move wider pieces, when one exists (a
    built-in three-wide vector cannot be realigned: its four-wide sibling is the remedy)."""
    three_wide = _THREE_WIDE.fullmatch(record.name)
    if three_wide:
        return f"or store `{three_wide.group('base')}4` elements, which nvcc moves whole"
    widest = min(16, 1 << max(record.size - 1, 0).bit_length())
    if record.align >= widest:
        return "or copy the structs through shared memory with consecutive lanes on consecutive words"
    padded_size = -(-record.size // widest) * widest
    padded = f", padded to {padded_size} bytes" if padded_size != record.size else ""
    return f"or align it (`__align__({widest})`{padded}) so that nvcc moves it {widest} bytes at a time"
