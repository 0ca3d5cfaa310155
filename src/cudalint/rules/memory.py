"""What the memory rules share: when an access wastes bandwidth, and how to say where."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow import Access, AccessPattern, AtomKind, Facts, KernelFacts, MemorySpace
from cudalint.diagnostics import Finding

LARGE_SIZE = 1024
"""A size parameter (a row length, a trip count) the memory rules judge at a realistic value: this."""


def global_accesses(facts: Facts):
    """(kernel, access, pattern) for every global access that more than one lane runs and
    that issues an instruction (a load the compiler reuses from an earlier one does not)."""
    for kernel in facts.kernels:
        for access, pattern in kernel.accesses:
            if (
                access.space in (MemorySpace.GLOBAL, MemorySpace.UNKNOWN)
                and not pattern.single_lane
                and access.repeats is None
            ):
                yield kernel, access, pattern


def uncoalesced(pattern: AccessPattern, threshold: float, best: bool = False) -> bool:
    """At most ``threshold`` of each fetched sector is used (in the worst case, or the best)."""
    sectors = pattern.best_sectors if best else pattern.sectors
    if not sectors or pattern.ideal_sectors is None:
        return False
    return pattern.ideal_sectors / sectors <= threshold


def on_instruction_line(facts: Facts, finding: Finding, access: Access) -> Finding:
    """``finding`` about ``access`` (made at the access's span) moved to the line nvcc's line
    table gives the access's instruction (``Access.instruction_line``), which is where Nsight
    Compute's source view counts it: the access's source on that line. The line the access
    starts on stays recorded (``Finding.first_line``), where a suppression comment may stand."""
    span, line = access.span, access.instruction_line
    lines = facts.tu.lines_of(span.file)
    if line == span.line or span.from_macro or not 0 < line <= len(lines):
        return finding
    text = lines[line - 1]
    end_column = span.end_column if line == span.end_line else len(text.rstrip()) + 1
    moved = ir.Span(span.file, line, len(text) - len(text.lstrip()) + 1, line, end_column)
    return dataclasses.replace(finding, span=moved, first_line=span.line)


def kernel_context(kernel: KernelFacts, access: Access) -> str:
    """What a verdict rests on besides the kernel's own code: the block-shape assumption,
    when the address uses threadIdx.y/z or blockDim and nothing says how blocks are shaped;
    the launch whose argument values decided the address (``at the launch in main.cu:40
    with n = 3072``)."""
    shape_dependent = any(
        (atom.kind is AtomKind.THREAD_INDEX and atom.name in ("y", "z")) or atom.kind is AtomKind.BLOCK_DIM
        for atom in access.location.offset.atoms()
    )
    context = "; assuming blockDim.x is a multiple of 32" if kernel.shape.assumed and shape_dependent else ""
    launch = kernel.launch_note(access.location.offset)
    return f"{context}; {launch}" if launch else context


@dataclass(frozen=True)
class StructField:
    record: ir.Record
    field: ir.Field


def array_of_structs_field(facts: Facts, access: Access, pattern: AccessPattern) -> StructField | None:
    """The field when ``access`` reads one member of consecutive array elements (``p[i].x``),
    so that each lane's sector is mostly the neighbouring fields."""
    expr = access.expr
    if expr.kind is not ir.ExprKind.MEMBER or not expr.children or pattern.lane_stride is None:
        return None
    base_type = expr.children[0].type
    if expr.op == "->" and base_type.pointee is not None:
        base_type = base_type.pointee
    record = facts.tu.records.get(base_type.record or "")
    if record is None or record.size is None or access.size is None or record.size <= access.size:
        return None
    if pattern.lane_stride.constant != record.size:
        return None
    field = next((f for f in record.fields if f.name == expr.name), None)
    return StructField(record, field) if field is not None else None


def fields_used_together(facts: Facts, kernel: KernelFacts, access: Access, member: StructField) -> int:
    """Bytes of each struct the kernel reads through accesses like this one: the same
    array and element, different fields."""
    element_start = access.location.offset - (member.field.offset or 0)
    used = set()
    for other, pattern in kernel.accesses:
        if other.location.base != access.location.base or other.kind is not access.kind:
            continue
        sibling = array_of_structs_field(facts, other, pattern)
        if (
            sibling is not None
            and sibling.record is member.record
            and other.location.offset - (sibling.field.offset or 0) == element_start
        ):
            used.add((sibling.field.name, other.size or 0))
    return sum(size for _, size in used)


def whole_struct(facts: Facts, access: Access, pattern: AccessPattern) -> ir.Record | None:
    """The struct when ``access`` reads or writes a whole struct in pieces narrower than it
    (``Particle p = ps[i];``, ``ps[i] = p;``): each piece is its own request with the
    struct's size between lanes."""
    if pattern.piece_bytes is None:
        return None
    return facts.tu.records.get(access.type.record or "")


def fields_read(kernel: KernelFacts, access: Access) -> list[str]:
    """The fields the kernel reads of the variable a whole-struct load initializes
    (``auto p = ps[i]; ... p.mass``): nvcc loads only those. Empty when the load does not
    initialize a variable."""
    stmt = access.stmt
    if stmt is None or stmt.kind is not ir.StmtKind.DECL:
        return []
    declared = {var.decl for var in stmt.decls if var.init is not None and _contains(var.init, access.expr)}
    if not declared or kernel.function.body is None:
        return []
    names: dict[str, None] = {}
    for node in kernel.function.body.walk():
        for expr in node.expressions():
            for member in expr.walk():
                if (
                    member.kind is ir.ExprKind.MEMBER
                    and member.children
                    and member.name
                    and _names_variable(member.children[0], declared)
                ):
                    names.setdefault(member.name, None)
    return list(names)


def _contains(expr: ir.Expr, part: ir.Expr) -> bool:
    return any(node is part for node in expr.walk())


def _names_variable(expr: ir.Expr, decls: set[str]) -> bool:
    while expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    return expr.kind is ir.ExprKind.DECL_REF and expr.decl in decls
