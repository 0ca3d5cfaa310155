"""Helpers the interpreter's parts share: values joined or selected under a condition,
expressions described, pointers advanced, memory forgotten."""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import MEMORY, MemorySpace, Pointer, Triple, Value
from cudalint.dataflow.symbolic import Sym, Variance

MAX_INLINE_DEPTH = ir.INLINE_DEPTH


_FULL_MASK = 0xFFFFFFFF


def _join_variance(*values: Value) -> Variance:
    worst = Variance.UNIFORM
    for value in values:
        if isinstance(value, Sym):
            worst = max(worst, value.variance)
        elif isinstance(value, Pointer):
            worst = max(worst, value.offset.variance)
        elif isinstance(value, Triple):
            worst = max(worst, value.x.variance, value.y.variance, value.z.variance)
    return worst


def _opaque(name: str, *inputs: Value) -> Sym:
    """A value computed from ``inputs`` in a way we do not model (floating point, calls)."""
    variance = _join_variance(*inputs)
    if variance is Variance.THREAD:
        variance = Variance.DATA
    return sym.unknown(name, variance)


_STORAGE_SPACES = {
    ir.StorageClass.SHARED: MemorySpace.SHARED,
    ir.StorageClass.CONSTANT: MemorySpace.CONSTANT,
    ir.StorageClass.DEVICE: MemorySpace.GLOBAL,
    ir.StorageClass.MANAGED: MemorySpace.GLOBAL,
}


def _describe(expr: ir.Expr) -> str:
    """A short readable name for the value of ``expr`` (``s_done``, ``row_start[...]``)."""
    kind = expr.kind
    if kind is ir.ExprKind.DECL_REF:
        return expr.name or "value"
    if kind is ir.ExprKind.SUBSCRIPT and expr.children:
        return f"{_describe(expr.children[0])}[...]"
    if kind is ir.ExprKind.MEMBER and expr.children:
        return f"{_describe(expr.children[0])}{expr.op or '.'}{expr.name}"
    if kind is ir.ExprKind.UNARY and expr.op == "*" and expr.children:
        return f"*{_describe(expr.children[0])}"
    if kind is ir.ExprKind.CAST and expr.children:
        return _describe(expr.children[0])
    if kind is ir.ExprKind.CALL:
        return f"{(expr.name or 'call').removeprefix('::')}(...)"
    return "value"


def _is_integral(ctype: ir.CType) -> bool:
    return ctype.kind in (ir.TypeKind.INTEGER, ir.TypeKind.BOOL, ir.TypeKind.ENUM)


def _advance(pointer: Pointer, elements: Sym, pointee: ir.CType | None) -> Pointer:
    """``pointer + elements``: the offset grows by the size of what it points to."""
    element = pointer.pointee
    size = element.size if element is not None else None
    if size is None:
        offset = sym.operation("+", pointer.offset, sym.unknown("sizeof(...)", Variance.UNIFORM) * elements)
    else:
        offset = pointer.offset + elements * size
    return Pointer(pointer.space, pointer.base, offset, pointee if pointee is not None else element)


def _select(condition: Sym, then: Value, otherwise: Value) -> Value:
    if then == otherwise:
        return then
    if isinstance(then, Sym) and isinstance(otherwise, Sym):
        return sym.operation("select", condition, then, otherwise)
    if (
        isinstance(then, Pointer)
        and isinstance(otherwise, Pointer)
        and (then.space, then.base) == (otherwise.space, otherwise.base)
    ):
        return Pointer(
            then.space, then.base, sym.operation("select", condition, then.offset, otherwise.offset), then.pointee
        )
    if (
        isinstance(then, Pointer)
        and isinstance(otherwise, Pointer)
        and then.space is otherwise.space
        and then.space in _DEVICE_MEMORY
        and condition.variance <= Variance.WARP_UNIFORM
    ):
        # One of two allocations, the same for the whole warp (ping-pong buffers picked by a
        # block's direction): a request is the lanes' offsets into whichever it is.
        offset = (
            then.offset
            if then.offset == otherwise.offset
            else sym.operation("select", condition, then.offset, otherwise.offset)
        )
        return Pointer(then.space, f"{then.base}|{otherwise.base}", offset, then.pointee or otherwise.pointee)
    return _opaque("select", condition, then, otherwise)


_DEVICE_MEMORY = (MemorySpace.GLOBAL, MemorySpace.UNKNOWN)
"""Spaces whose requests cost the same in any allocation (sectors of the lanes' offsets)."""


def _forget_memory(env: dict, keep_local: bool = False) -> None:
    env[MEMORY] = {
        key: value for key, value in env.get(MEMORY, {}).items() if keep_local and key.space is MemorySpace.LOCAL
    }


def _uncast(expr: ir.Expr) -> ir.Expr:
    while expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    return expr
