"""Intrinsics modelled as functions of their operands' values (``_INTRINSIC_HANDLERS``,
by name): integer and bit functions, warp shuffles, votes and reductions, and
cooperative-groups tiles."""

from __future__ import annotations

import re

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import Alias, BarrierScope, Group, Reference, Triple, Value
from cudalint.dataflow.interpret.common import _FULL_MASK, _is_integral
from cudalint.dataflow.symbolic import AtomKind, Sym, Variance
from cudalint.dataflow.threads import evaluators, refine_variance

_MIN_MAX = {
    "min": "min",
    "max": "max",
    "umin": "min",
    "umax": "max",
    "llmin": "min",
    "llmax": "max",
    "ullmin": "min",
    "ullmax": "max",
    "std::min": "min",
    "std::max": "max",
}
_BIT_FUNCTIONS = {
    "__popc": "popc",
    "__popcll": "popc",
    "__ffs": "ffs",
    "__clz": "clz",
    "__brev": "brev",
    "__ffsll": "ffs64",
    "__clzll": "clz64",
    "__brevll": "brev64",
    "abs": "abs",
    "labs": "abs",
    "llabs": "abs",
    "__mulhi": "mulhi",
    "__umulhi": "mulhi",
}
_BALLOTS = frozenset(("__ballot_sync", "__ballot", "__activemask", "__match_all_sync"))
_VOTES = frozenset(("__any_sync", "__all_sync", "__uni_sync", "__any", "__all"))
_WARP_REDUCTIONS = frozenset(
    (
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
    )
)
_BROADCAST_SHUFFLES = {"__shfl_sync": 2, "__shfl": 1}
"""Shuffles that read one given lane, by the index of their source-lane argument."""
_EXCHANGE_SHUFFLES = {
    "__shfl_up_sync": 1,
    "__shfl_down_sync": 1,
    "__shfl_xor_sync": 1,
    "__shfl_up": 0,
    "__shfl_down": 0,
    "__shfl_xor": 0,
}
"""Shuffles where each lane reads another lane, by the index of their value argument."""
_PER_LANE = {
    "clock": "a clock reading",
    "clock64": "a clock reading",
    "__globaltimer": "a clock reading",
    "__match_any_sync": "the mask of the lanes holding the same value",
    "curand": "a per-thread random number",
    "curand_uniform": "a per-thread random number",
    "curand_normal": "a per-thread random number",
}


class Intrinsics:
    """How the interpreter evaluates intrinsics and cooperative groups."""

    def _intrinsic(self, name: str, arguments: list[Value], expr: ir.Expr) -> Value | None:
        """CUDA's integer and warp intrinsics, as functions of their operands' values; None
        for any other function (no handler in ``_INTRINSIC_HANDLERS``), for operands that are
        not integers, and for a form the handler does not model (it answers None)."""
        handler = _INTRINSIC_HANDLERS.get(name)
        if handler is None:
            return None
        values = [self._int(a) if isinstance(a, (Sym, Reference, Alias)) else a for a in arguments]
        if not all(isinstance(v, Sym) for v in values):
            return None
        return handler(self, name, values, expr)

    def _mul24(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) != 2:
            return None
        return values[0] * values[1]  # Exact for the 24-bit operands these are used with.

    def _bit_function(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) != (2 if "mulhi" in name else 1) or not _is_integral(expr.type):
            return None
        return sym.operation(_BIT_FUNCTIONS[name], *values)

    def _min_max(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) != 2 or not _is_integral(expr.type):
            return None
        return sym.operation(_MIN_MAX[name], *values)

    def _broadcast_shuffle(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        source_index = _BROADCAST_SHUFFLES[name]
        if len(values) <= source_index:
            return None
        value, source = values[source_index - 1], values[source_index]
        width = values[source_index + 1] if len(values) > source_index + 1 else None
        if value.variance is Variance.UNIFORM:
            return value
        if refine_variance(source, self.shape) <= Variance.WARP_UNIFORM and (
            width is None or (width.constant or 0) >= 32
        ):
            return self._fresh(
                f"{name}(...)",
                Variance.WARP_UNIFORM,
                f"broadcast from one lane by {name}: the same across the warp",
            )
        return self._fresh(f"{name}(...)", Variance.DATA, f"read from another lane by {name}", inputs=(value,))

    def _exchange_shuffle(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if len(values) <= _EXCHANGE_SHUFFLES[name]:
            return None
        value = values[_EXCHANGE_SHUFFLES[name]]
        if value.variance is Variance.UNIFORM:
            return value
        return self._fresh(f"{name}(...)", Variance.DATA, f"read from another lane by {name}", inputs=(value,))

    def _same_in_the_warp(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym:
        """What a ballot, a vote or a warp reduction returns: one value for every lane."""
        return self._fresh(
            f"{name}(...)", Variance.WARP_UNIFORM, f"returned by {name}: the same in every lane of the warp"
        )

    def _vote(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if not values:
            return None
        predicate = values[-1]
        if predicate.variance is Variance.UNIFORM:
            return sym.operation("!=", predicate, sym.ZERO)
        return self._same_in_the_warp(name, values, expr)

    def _warp_reduction(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym | None:
        if not values:
            return None
        if values[-1].variance is Variance.UNIFORM:
            return values[-1]
        if len(values) == 2 and values[0].constant == _FULL_MASK:
            return self._warp_reduced(values[-1], f"{name}(...)", name)
        return self._same_in_the_warp(name, values, expr)

    def _warp_reduced(self, value: Sym, name: str, how: str) -> Sym:
        """A value reduced over all 32 lanes of each warp: the same across the warp, and
        across the block when every warp reduces the same values lane for lane (a partial
        result per warp read back from shared memory after a barrier, then reduced again)."""
        if self._same_in_every_warp(value):
            return self._fresh(
                name,
                Variance.UNIFORM,
                f"reduced over each full warp by {how} from values every warp holds alike, lane for lane: "
                "the same in every thread of the block",
            )
        return self._fresh(
            name, Variance.WARP_UNIFORM, f"reduced over the full warp by {how}: the same across the warp"
        )

    def _same_in_every_warp(self, value: Sym) -> bool:
        """Whether ``value`` is, lane for lane, the same in every warp of the block: made of
        block-uniform values, lane indices and shared reads at such addresses."""
        replacements = {}
        for atom in value.atoms():
            if atom.kind in (AtomKind.VARYING, AtomKind.WARP_UNIFORM):
                address = self.shared_reads.get(atom)
                if address is None:
                    return False
                replacements[atom] = address
        by_address = sym.substitute(value, replacements) if replacements else value
        if by_address.variance is Variance.UNIFORM or self.shape.warps() == 1:
            return by_address.variance <= Variance.THREAD
        if by_address.variance is not Variance.THREAD:
            return False
        for evaluator in evaluators(self.shape, by_address):
            first = evaluator.lanes(by_address, 0)
            if None in first:
                return False
            if any(evaluator.lanes(by_address, warp) != first for warp in range(1, min(self.shape.warps(), 4))):
                return False
        return True

    def _per_lane(self, name: str, values: list[Sym], expr: ir.Expr) -> Sym:
        return self._fresh(f"{name}(...)", Variance.DATA, _PER_LANE[name])

    def _cooperative(self, expr: ir.Expr, name: str) -> Value:
        """A cooperative_groups function or method: group handles, ranks, sizes, barriers."""
        receiver = self._expr(expr.receiver) if expr.receiver is not None else None
        arguments = [self._expr(c) for c in expr.children]
        made = _new_group(name, expr, arguments)
        if made is not None:
            return made
        group = (
            receiver
            if isinstance(receiver, Group)
            else next((a for a in arguments if isinstance(a, Group)), None) or _group_of(expr.decl or "")
        )
        if expr.op == "construct" or name.startswith("operator "):
            if group is not None:
                return group  # A copy or conversion of a group handle.
        if name in ("sync", "barrier_wait"):
            self._barrier(expr, name, _barrier_scope(group))
            return sym.ZERO
        value = _group_value(name, group)
        if value is not None:
            return value
        if name == "reduce" and len(arguments) >= 2:
            return self._group_shared(name, group, arguments[1])
        if name in ("shfl", "shfl_up", "shfl_down", "shfl_xor") and arguments:
            value = self._int(arguments[0])
            if value.variance is Variance.UNIFORM:
                return value
            broadcast = (
                name == "shfl"
                and len(arguments) > 1
                and refine_variance(self._int(arguments[1]), self.shape) <= Variance.WARP_UNIFORM
            )
            return (
                self._group_shared(name, group, value)
                if broadcast
                else self._fresh(f"{name}(...)", Variance.DATA, f"read from another lane by {name}", inputs=(value,))
            )
        if name in ("any", "all", "ballot", "match_all"):
            return self._group_shared(name, group, self._int(arguments[0]) if arguments else sym.ZERO)
        return self._computed(f"{name}(...)", *arguments)

    def _group_shared(self, name: str, group: Group | None, value: Value) -> Sym:
        """A value every thread of ``group`` shares (a reduction, a broadcast, a vote)."""
        value = self._int(value)
        if value.variance is Variance.UNIFORM:
            return value
        size = group.size if group is not None and group.kind == "tile" else None
        if size is not None and size % 32 == 0:
            return self._fresh(
                f"{name}(...)",
                Variance.WARP_UNIFORM,
                f"computed by {name} over a tile of {size} threads: the same across the warp",
            )
        what = f"tiles of {size} threads" if size is not None else "the threads of the group"
        return self._fresh(
            f"{name}(...)",
            Variance.DATA,
            f"computed by {name} over {what}: the same within a tile, different between tiles",
        )


_INTRINSIC_HANDLERS = {
    "__umul24": Intrinsics._mul24,
    "__mul24": Intrinsics._mul24,
    **dict.fromkeys(_BIT_FUNCTIONS, Intrinsics._bit_function),
    **dict.fromkeys(_MIN_MAX, Intrinsics._min_max),
    **dict.fromkeys(_BROADCAST_SHUFFLES, Intrinsics._broadcast_shuffle),
    **dict.fromkeys(_EXCHANGE_SHUFFLES, Intrinsics._exchange_shuffle),
    **dict.fromkeys(_BALLOTS, Intrinsics._same_in_the_warp),
    **dict.fromkeys(_VOTES, Intrinsics._vote),
    **dict.fromkeys(_WARP_REDUCTIONS, Intrinsics._warp_reduction),
    **dict.fromkeys(_PER_LANE, Intrinsics._per_lane),
}
"""Intrinsics modelled as functions of their operands' values, by name."""


def _linear_thread_index() -> Sym:
    """threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y."""
    x, y, z = (sym.builtin("threadIdx", c) for c in "xyz")
    bx, by = sym.builtin("blockDim", "x"), sym.builtin("blockDim", "y")
    return x + y * bx + z * bx * by


def _block_threads() -> Sym:
    return sym.builtin("blockDim", "x") * sym.builtin("blockDim", "y") * sym.builtin("blockDim", "z")


_TILE_SIZE = re.compile(r"(?:thread_block_tile|tile_base)>#Vi(\d+)")


def _group_of(decl: str) -> Group | None:
    """The group a cooperative_groups member belongs to, from its declaration (methods of
    a ``thread_block`` are static: the call names no object)."""
    size = _TILE_SIZE.search(decl)
    if size:
        return Group("tile", int(size.group(1)))
    for kind, marker in (
        ("block", "@S@thread_block@"),
        ("grid", "@S@grid_group@"),
        ("cluster", "@S@cluster_group@"),
        ("coalesced", "@S@coalesced_group@"),
    ):
        if marker in decl:
            return Group(kind)
    return None


def _new_group(name: str, expr: ir.Expr, arguments: list[Value]) -> Group | None:
    if name == "this_thread_block":
        return Group("block")
    if name in ("this_grid", "this_multi_grid"):
        return Group("grid")
    if name == "this_cluster":
        return Group("cluster")
    if name in ("coalesced_threads", "binary_partition", "labeled_partition"):
        return Group("coalesced")
    if name == "this_thread":
        return Group("tile", 1)
    if name != "tiled_partition":
        return None
    parent = next((a for a in arguments if isinstance(a, Group)), None)
    parent_size = parent.size if parent is not None and parent.kind == "tile" else None
    size = re.search(r"thread_block_tile<(\d+)", expr.type.spelling)
    if size:
        return Group("tile", int(size.group(1)), parent_size)
    count = arguments[1].constant if len(arguments) > 1 and isinstance(arguments[1], Sym) else None
    if parent is not None and parent.kind == "coalesced":
        return Group("coalesced")
    return Group("tile", count, parent_size)


def _group_value(name: str, group: Group | None) -> Value | None:
    """Ranks, sizes and indices of a group, as functions of the thread and block indices."""
    if group is None:
        return None
    linear = _linear_thread_index()
    threads = _block_threads()
    block_index = Triple(*(sym.builtin("blockIdx", c) for c in "xyz"))
    if group.kind == "block":
        values = {
            "thread_rank": linear,
            "size": threads,
            "num_threads": threads,
            "group_index": block_index,
            "thread_index": Triple(*(sym.builtin("threadIdx", c) for c in "xyz")),
            "group_dim": Triple(*(sym.builtin("blockDim", c) for c in "xyz")),
            "dim_threads": Triple(*(sym.builtin("blockDim", c) for c in "xyz")),
        }
        return values.get(name)
    if group.kind == "grid":
        gx, gy, gz = (sym.builtin("gridDim", c) for c in "xyz")
        block_rank = block_index.x + block_index.y * gx + block_index.z * gx * gy
        values = {
            "thread_rank": block_rank * threads + linear,
            "block_rank": block_rank,
            "block_index": block_index,
            "dim_blocks": Triple(gx, gy, gz),
            "num_blocks": gx * gy * gz,
            "size": gx * gy * gz * threads,
            "num_threads": gx * gy * gz * threads,
        }
        return values.get(name)
    if group.kind == "tile" and group.size:
        within = sym.operation("%", linear, Sym.const(group.parent)) if group.parent else linear
        parent_threads = Sym.const(group.parent) if group.parent else threads
        values = {
            "thread_rank": sym.operation("%", linear, Sym.const(group.size)),
            "size": Sym.const(group.size),
            "num_threads": Sym.const(group.size),
            "meta_group_rank": sym.operation("/", within, Sym.const(group.size)),
            "meta_group_size": sym.operation("/", parent_threads, Sym.const(group.size)),
        }
        return values.get(name)
    if name in ("thread_rank",):
        return sym.unknown("thread_rank(...)", Variance.DATA)
    return None


def _barrier_scope(group: Group | None) -> BarrierScope:
    if group is None:
        return BarrierScope.PARTIAL
    if group.kind == "block":
        return BarrierScope.BLOCK
    if group.kind in ("grid", "cluster"):
        return BarrierScope.GRID
    if group.kind == "tile" and group.size is not None and group.size >= 32:
        return BarrierScope.WARP
    return BarrierScope.PARTIAL
