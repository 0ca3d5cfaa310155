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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from cudalint import ir
from cudalint.dataflow.banks import BANK_BYTES, BANKS, Request, access_rounds, request_wavefronts
from cudalint.dataflow.interpret import Access, LoopRun
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
    size = access.size or 0
    others = [
        (found, sibling.size or 0)
        for sibling in siblings
        if sibling is not access and (found := requests_of.of(sibling))
    ]
    everything = [(requests, size), *others]
    before = sum(_cost(found, size_, row_bytes, row_bytes) for found, size_ in everything)
    for padding in range(1, PADDING_PERIOD_BYTES // element_bytes):
        padded_row = row_bytes + padding * element_bytes
        if any(
            cost.taken > cost.ideal
            for cost in (request_wavefronts(laid_out(request, row_bytes, padded_row), size) for request in requests)
        ):
            continue
        if sum(_cost(found, size_, row_bytes, padded_row) for found, size_ in everything) < before:
            return padding
    return None


def _cost(requests: Counter[tuple[int | None, ...]], size: int, row_bytes: int, padded_row: int) -> int:
    """The wavefronts the requests take with rows ``padded_row`` bytes apart."""
    return sum(
        count * request_wavefronts(laid_out(request, row_bytes, padded_row), size).taken
        for request, count in requests.items()
    )


def laid_out(request: Request, row_bytes: int, padded_row: int) -> Request:
    return [
        None if address is None else (address // row_bytes) * padded_row + address % row_bytes for address in request
    ]


def shared_declarations(tu: ir.TranslationUnit, function: ir.Function) -> dict[str, ir.VarDecl]:
    """Shared arrays by name as ``function`` sees them: its own, else file-scope ones."""
    found = {var.name: var for var in tu.globals if var.storage is ir.StorageClass.SHARED}
    if function.body is not None:
        for stmt in function.body.walk():
            for var in stmt.decls:
                if var.storage is ir.StorageClass.SHARED:
                    found[var.name] = var
    return found


def row_layout(var: ir.VarDecl | None) -> tuple[int, int] | None:
    """Bytes per row and per element of a shared array of rows (``T tile[R][C]``); None
    for any other declaration, whose rows cannot be padded."""
    row = var.type.pointee if var is not None and var.type.kind is ir.TypeKind.ARRAY else None
    if row is None or row.kind is not ir.TypeKind.ARRAY or row.size is None or row.pointee is None:
        return None
    return (row.size, row.pointee.size) if row.pointee.size else None


def tile_padding(
    access: Access, accesses: Iterable[Access], requests_of: TileRequests, layout: tuple[int, int]
) -> int | None:
    """``conflict_free_padding`` for ``access`` among the kernel's ``accesses`` to its array."""
    siblings = [
        other for other in accesses if other.space is access.space and other.location.base == access.location.base
    ]
    return conflict_free_padding(access, siblings, requests_of, *layout)
