"""Padding a shared tile for 32 banks: the row length that makes one access conflict-free.

A shared array ``T tile[R][C]`` is laid out row after row, ``C * sizeof(T)`` bytes apart.
Padding each row by ``p`` elements moves row ``r`` by ``r * p * sizeof(T)`` bytes, which
spreads a walk down a column over the banks. Which ``p`` works depends on how the warp
walks the tile: ``[32][33]`` suits a warp that reads one column of 32 rows, but the warp
of a 16x16 block reads two columns of 16 rows, where ``[16][17]`` (a padding meant for 16
banks) still puts two lanes on one bank and ``[16][18]`` does not. So the padding is
searched, not assumed: each lane's address is mapped back to its row and column in the
declared layout, laid out again with each candidate padding, smallest first, and costed
like the access itself (``banks.request_wavefronts``), over every warp of the block.

Padding changes what the program computes unless every use of the tile goes through its
declared rows and columns: ``tile[i][j]`` names the same element whatever the row
length, but a pointer to the tile or a row (``float* p = tile[0]``, ``&tile[i][j]``, a
call, ``memcpy``, ``sizeof``, a cast) walks memory that padding has rearranged, and a
tile declared outside the kernel (``extern``, at file scope) is laid out for other code
too. ``shared_arrays`` tells the two apart from a kernel's uses of each shared array.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cudalint import ir
from cudalint.dataflow.banks import BANK_BYTES, BANKS, Request, access_rounds, matrix_access, request_wavefronts
from cudalint.dataflow.facts import Access, LoopRun
from cudalint.dataflow.symbolic import Atom
from cudalint.dataflow.threads import BlockShape

PADDING_PERIOD_BYTES = BANKS * BANK_BYTES
"""Padding by a whole bank cycle maps every address to the same bank as no padding."""


class TileRequests:
    """The requests of a kernel's shared accesses, each computed once: the padding search
    of every finding on a tile costs all of the tile's accesses."""

    def __init__(
        self, shape: BlockShape, bindings: Mapping[str, int] | None = None, loops: Mapping[Atom, LoopRun] | None = None
    ):
        self.shape = shape
        self.bindings = bindings
        self.loops = loops
        self._found: dict[int, Counter[tuple[int | None, ...]]] = {}
        self._kept: list[Access] = []  # Keeps the ids above from being reused.

    def of(self, access: Access) -> Counter[tuple[int | None, ...]]:
        """Each distinct warp request of ``access`` over the values tried, with how often it
        comes; empty when an address is not known."""
        if id(access) not in self._found:
            rounds = access_rounds(access, self.shape, self.bindings, self.loops) if access.size else None
            self._found[id(access)] = Counter(tuple(r) for _, requests in rounds or () for r in requests.values())
            self._kept.append(access)
        return self._found[id(access)]


def conflict_free_padding(
    access: Access, siblings: Iterable[Access], requests_of: TileRequests, row_bytes: int, element_bytes: int
) -> int | None:
    """Elements to add to each row of the array ``access`` reads so that none of its warps'
    requests takes more wavefronts than its conflict-free minimum, for every value of the
    unknowns tried, and the accesses to the array together (``siblings``, the access
    among them) need fewer wavefronts than now. None when the addresses are not known or
    no padding short of a bank cycle does both."""
    requests = requests_of.of(access)
    if not requests or row_bytes <= 0 or element_bytes <= 0:
        return None
    size, matrix = access.size or 0, matrix_access(access)
    others = [
        (found, sibling.size or 0, matrix_access(sibling))
        for sibling in siblings
        if sibling is not access and (found := requests_of.of(sibling))
    ]
    everything = [(requests, size, matrix), *others]
    before = sum(_cost(found, size_, matrix_, row_bytes, row_bytes) for found, size_, matrix_ in everything)
    for padding in range(1, PADDING_PERIOD_BYTES // element_bytes):
        padded_row = row_bytes + padding * element_bytes
        if any(
            cost.taken > cost.ideal
            for cost in (
                request_wavefronts(laid_out(request, row_bytes, padded_row), size, matrix) for request in requests
            )
        ):
            continue
        if sum(_cost(found, size_, matrix_, row_bytes, padded_row) for found, size_, matrix_ in everything) < before:
            return padding
    return None


def _cost(requests: Counter[tuple[int | None, ...]], size: int, matrix: bool, row_bytes: int, padded_row: int) -> int:
    """The wavefronts the requests take with rows ``padded_row`` bytes apart."""
    return sum(
        count * request_wavefronts(laid_out(request, row_bytes, padded_row), size, matrix).taken
        for request, count in requests.items()
    )


def laid_out(request: Request, row_bytes: int, padded_row: int) -> Request:
    return [
        None if address is None else (address // row_bytes) * padded_row + address % row_bytes for address in request
    ]


@dataclass(frozen=True)
class SharedArray:
    """A shared array as one kernel sees it."""

    var: ir.VarDecl
    in_kernel: bool
    """Declared in the kernel's body (not at file scope)."""
    escape: ir.Span | None
    """The first use that is not a subscript down to an element (``tile[i][j]``): where
    the array or one of its rows is used as a pointer, or its size is taken, or code
    the analysis does not model (inline assembly) names it. None when there is none."""

    @property
    def layout_is_private(self) -> bool:
        """Whether the kernel alone decides the layout and reaches the elements only by
        their row and column, so that padding its rows changes nothing it computes."""
        return self.in_kernel and not self.var.is_extern and self.escape is None


def shared_arrays(tu: ir.TranslationUnit, function: ir.Function) -> dict[str, SharedArray]:
    """Shared arrays by name as ``function`` sees them: its own, else file-scope ones."""
    found = {var.name: SharedArray(var, False, var.span) for var in tu.globals if var.storage is ir.StorageClass.SHARED}
    if function.body is None:
        return found
    statements = list(function.body.walk())
    for stmt in statements:
        for var in stmt.decls:
            if var.storage is ir.StorageClass.SHARED:
                found[var.name] = SharedArray(var, True, _first_escape(tu, statements, var))
    return found


def _first_escape(tu: ir.TranslationUnit, statements: list[ir.Stmt], var: ir.VarDecl) -> ir.Span | None:
    rank = _rank(var.type)
    name = re.compile(rf"\b{re.escape(var.name)}\b")
    for stmt in statements:
        if stmt.kind is ir.StmtKind.ASM and name.search(stmt.label or ""):
            return stmt.span
        for root in stmt.expressions():
            parents: dict[int, ir.Expr] = {}
            for node in root.walk():
                for child in node.children:
                    parents[id(child)] = node
                # A lambda's body is not lowered: whatever it does with the array is unknown.
                if node.kind is ir.ExprKind.LAMBDA and _mentions(tu, node.span, name):
                    return node.span
                if node.kind is ir.ExprKind.DECL_REF and _names(node, var) and not _element_use(node, parents, rank):
                    return node.span
    return None


def _names(node: ir.Expr, var: ir.VarDecl) -> bool:
    return node.decl == var.decl if node.decl is not None else node.name == var.name


def _rank(ctype: ir.CType) -> int:
    rank = 0
    while ctype is not None and ctype.kind is ir.TypeKind.ARRAY:
        rank, ctype = rank + 1, ctype.pointee
    return rank


def _element_use(reference: ir.Expr, parents: dict[int, ir.Expr], rank: int) -> bool:
    """Whether ``reference`` is subscripted ``rank`` times down to one element, and that
    element's address is not taken, but to update it atomically (``atomicAdd(&s[i][j], v)``
    touches that element alone)."""
    node = reference
    for _ in range(rank):
        parent = parents.get(id(node))
        if parent is not None and parent.kind is ir.ExprKind.CAST and parent.cast is ir.CastKind.IMPLICIT:
            node, parent = parent, parents.get(id(parent))  # the decay a subscript applies
        if parent is None or parent.kind is not ir.ExprKind.SUBSCRIPT or parent.children[0] is not node:
            return False
        node = parent
    outer = parents.get(id(node))
    if rank == 0:
        return False
    if outer is None or outer.kind is not ir.ExprKind.UNARY or outer.op != "&":
        return True
    call = parents.get(id(outer))
    return call is not None and call.kind is ir.ExprKind.CALL and (call.name or "").startswith("atomic")


def _mentions(tu: ir.TranslationUnit, span: ir.Span, name: re.Pattern) -> bool:
    lines = tu.lines_of(span.file)
    text = "\n".join(lines[max(0, span.line - 1) : span.end_line])
    return bool(name.search(text))


def row_layout(var: ir.VarDecl | None) -> tuple[int, int] | None:
    """Bytes per row and per element of a shared array of rows (``T tile[R][C]``); None
    for any other declaration, whose rows cannot be padded."""
    row = var.type.pointee if var is not None and var.type.kind is ir.TypeKind.ARRAY else None
    if row is None or row.kind is not ir.TypeKind.ARRAY or row.size is None or row.pointee is None:
        return None
    return (row.size, row.pointee.size) if row.pointee.size else None
