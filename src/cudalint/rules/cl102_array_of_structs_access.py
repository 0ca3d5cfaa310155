"""CL102 array-of-structs-access: structs read across a warp one field or one piece at a
time: each lane fetches a whole struct.

The rule's documentation is its class docstring (docs/rules/CL102.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

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
    on_instruction_line,
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
      own with the struct's size between lanes. A struct whose members have copy code of
      their own (`__half2`, `__nv_bfloat162`) is copied member by member whatever its
      alignment: an `alignas(16)` struct of four `__half2` moves as four 4-byte pieces
      (LDG.E, not LDG.E.128). The message names the struct, its size and alignment (or
      the member type that copies itself), the piece and the fields the kernel reads.

    **Levels.**
    - `warning`: the costliest request needs at least twice its ideal sectors (Nsight
      Compute's "L2 theoretical sectors global" against its ideal, per instruction), and
      so do the lines the warp brings in for the data it uses: one field of each struct,
      or the fields a whole-struct copy reads when they are at most half of it.
    - `note`: a whole struct moved in pieces whose requests each need twice their ideal
      sectors, but whose pieces together touch little more than the struct's bytes. The
      pieces are consecutive instructions of the warp on the same 128-byte lines: L1
      serves the later pieces from the sectors the first brought (or has in flight), and
      L2 merges the partial writes of stored pieces before DRAM sees them, so what L2 and
      DRAM move is the ideal and the time shows little of the sectors per request.
      Measured on an H100 (`bench/kernel_times/element_widths_timing.cu`, 32 Mi
      threads, median of 20): a `float3` array read whole ran 1.6% slower than three
      `float` arrays (written whole: 1.6% faster), and a 32-byte struct of two `float4`
      copied 2.2% slower than the same bytes as `float4`; one field of a 24-byte struct
      (a `warning`) ran 2.6 times slower than its own array.
      A struct copied member by member straight from memory to memory (`out[i] = in[i]`,
      pointers not `__restrict__`) stays a `warning`: nvcc must issue each piece's load
      after the previous piece's store, as the pointers may alias, so one piece per lane is
      in flight; the `alignas(16)` struct of four `__half2` took 2.1 times as long as the
      same bytes copied as `float4`.

    **What it stays quiet on.**
    Structs copied whole in one access (`float4`, `double2`, a 16-byte `__align__(16)`
    struct, an 8-byte `__align__(8)` pair), structs read at an address the whole warp
    shares (`Body other = bodies[j];` in an n-body loop: a broadcast), and kernels that
    read most of each struct field by field through the same element (the compiler
    merges those into wide loads when the alignment allows; never through a `volatile`
    struct, whose fields nvcc moves one by one as written).

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
                    finding = self._whole_struct_finding(facts, kernel, access, pattern, record)
                    yield on_instruction_line(facts, finding, access)
                continue
            member = array_of_structs_field(facts, access, pattern)
            if member is None or not uncoalesced(pattern, EFFICIENCY_THRESHOLD):
                continue
            if fields_used_together(facts, kernel, access, member) * 2 > member.record.size and not _volatile(access):
                continue  # Most of each struct is used: the compiler merges these into wide loads.
            record = member.record.name.removeprefix("struct ")
            finding = self.finding(
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
            yield on_instruction_line(facts, finding, access)

    def _whole_struct_finding(
        self, facts: Facts, kernel: KernelFacts, access: Access, pattern: AccessPattern, record: ir.Record
    ) -> Finding:
        name = record.name.removeprefix("struct ")
        fields = fields_read(kernel, access)
        used = f", of which the kernel reads {', '.join(f'`{f}`' for f in fields)}" if fields else ""
        stride = pattern.lane_stride.constant if pattern.lane_stride is not None else None
        apart = f"lanes {abs(stride)} bytes apart" if stride else "lanes apart"
        member = _copying_member(record, access)
        interleaved = member is not None and _interleaved_copy(kernel, access)
        used_sectors = (
            None if interleaved or _rewritten_in_place(kernel, access) else _used_line_sectors(record, fields, pattern)
        )
        if used_sectors is not None and used_sectors / pattern.line_sectors > EFFICIENCY_THRESHOLD:
            level = Level.NOTE
            served = "L1 serves the later pieces" if access.kind.value == "load" else "L2 merges the pieces"
            per_request = pattern.sectors / pattern.ideal_sectors
            lines = (
                f"; but the pieces share lines: together they touch {pattern.line_sectors} sectors for "
                f"{used_sectors} sectors of data the kernel uses and {served}, so DRAM moves "
                f"{pattern.line_sectors / used_sectors:.1f}x the data, not {per_request:.0f}x"
            )
        else:
            level = Level.WARNING
            lines = (
                "; and each piece's load waits for the previous piece's store (the pointers may alias), so one "
                "piece per lane is in flight (an H100 took 2.1x the time of the same bytes copied as `float4`)"
                if interleaved
                else ""
            )
        why = (
            f"its members are copied one by one, by `{member}`'s own copy code, so nvcc moves it only"
            if member is not None
            else f"its {record.align}-byte alignment lets nvcc move it only"
        )
        remedy = (
            f"or copy it as raw {min(record.size, 16)}-byte words "
            f"(`reinterpret_cast<const {_RAW_WORDS.get(min(record.size, 16), 'uint4')}*>`), which nvcc moves whole"
            if member is not None
            else _wider_pieces(record)
        )
        return self.finding(
            f"global {access.kind.value} of a whole `{name}` ({record.size} bytes{used}) in each lane: {why} "
            f"{pattern.piece_bytes} bytes at a time, each piece "
            f"a request with {apart}: {pattern.sectors} sectors per request for {pattern.ideal_sectors} sectors of "
            f"data{kernel_context(kernel, access)}{lines}; keep each field in its own array (structure of arrays), "
            f"{remedy}",
            access.span,
            level=level,
            function=kernel.function.display_name,
            properties={
                "sectorsPerRequest": pattern.sectors,
                "idealSectors": pattern.ideal_sectors,
                **kernel.launch_properties(access.location.offset),
                "lineSectors": pattern.line_sectors,
                "lineIdealSectors": pattern.line_ideal_sectors,
                "struct": name,
                "structBytes": record.size,
                "pieceBytes": pattern.piece_bytes,
                "fieldsRead": fields,
            },
        )


def _volatile(access: Access) -> bool:
    """An access through a `volatile` struct: nvcc issues each field's load or store as
    written, never merged with its neighbours'."""
    return "volatile" in access.type.spelling.split()


_RAW_WORDS = {4: "unsigned int", 8: "uint2", 16: "uint4"}


def _copying_member(record: ir.Record, access: Access) -> str | None:
    """The member type whose own copy code makes nvcc copy ``record`` member by member
    (``__half2``), when that is why it moves in pieces (``ir.CType.copy_bytes``)."""
    if not access.type.copy_bytes:
        return None
    for field in record.fields:
        element = field.type
        while element.kind is ir.TypeKind.ARRAY and element.pointee is not None:
            element = element.pointee
        if element.kind is ir.TypeKind.RECORD and element.size == access.type.copy_bytes:
            return element.spelling.removeprefix("const ").removeprefix("struct ")
    return "a member"


def _interleaved_copy(kernel: KernelFacts, access: Access) -> bool:
    """A struct copied member by member straight from memory to memory (`out[i] = in[i]`)
    where the pointers may alias: nvcc must issue each piece's load after the previous
    piece's store, one piece per lane in flight."""
    stmt = access.stmt
    if stmt is None:
        return False
    ends = [other for other, _ in kernel.accesses if other.stmt is stmt and other.type.copy_bytes]
    loads = [other for other in ends if other.kind.value == "load"]
    stores = [other for other in ends if other.kind.value == "store"]
    if not loads or not stores:
        return False
    restricted = {param.name for param in kernel.function.params if "restrict" in (param.type.spelling or "")}
    return not all(other.location.base in restricted for other in (*loads, *stores))


def _rewritten_in_place(kernel: KernelFacts, access: Access) -> bool:
    """A struct stored back where the kernel loaded it (`b = bodies[i]; ...; bodies[i] = b;`):
    nvcc stores only the fields that changed, so the pieces need not cover the lines."""
    return access.kind.value == "store" and any(
        other.kind.value == "load" and other.location == access.location for other, _ in kernel.accesses
    )


def _used_line_sectors(record: ir.Record, fields: list[str], pattern: AccessPattern) -> int | None:
    """The sectors' worth of data the kernel uses of what a whole struct's pieces bring
    together (``pattern.line_sectors``): the struct's bytes, or those of the fields it reads
    when it reads only some (nvcc loads only those; the others come along in the sectors)."""
    if not pattern.line_sectors or pattern.line_ideal_sectors is None or not record.size:
        return None
    sizes = {f.name: f.type.size for f in record.fields}
    share = 1.0
    if fields and all(sizes.get(f) for f in fields):
        share = min(1.0, sum(sizes[f] for f in fields) / record.size)
    return max(1, round(min(pattern.line_ideal_sectors, pattern.line_sectors) * share))


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
