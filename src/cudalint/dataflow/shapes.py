"""How a kernel's blocks are shaped: from its launches in the translation unit (its own file
or one that includes it), or its launch bounds."""

from __future__ import annotations

import os

from cudalint import ir
from cudalint.dataflow.threads import ASSUMED_SHAPE, BlockShape


def _integer(expr: ir.Expr | None, variables: dict[str, ir.Expr]) -> int | None:
    while expr is not None and expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    if expr is None:
        return None
    if expr.kind is ir.ExprKind.INT_LITERAL and isinstance(expr.value, int):
        return expr.value
    if expr.kind is ir.ExprKind.DECL_REF and expr.decl in variables:
        return _integer(variables[expr.decl], variables)
    if expr.kind is ir.ExprKind.BINARY and expr.op in ("*", "+", "-", "/") and len(expr.children) == 2:
        left, right = (_integer(c, variables) for c in expr.children)
        if left is None or right is None:
            return None
        if expr.op == "/":
            return left // right if right else None
        return {"*": left * right, "+": left + right, "-": left - right}[expr.op]
    return None


def _dimensions(expr: ir.Expr | None, variables: dict[str, ir.Expr]) -> tuple[int, int, int] | None:
    """``256``, ``dim3(16, 16)`` or a ``dim3`` variable initialized with constants."""
    while expr is not None and expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    if expr is None:
        return None
    if expr.kind is ir.ExprKind.DECL_REF and expr.decl in variables:
        return _dimensions(variables[expr.decl], variables)
    if expr.kind is ir.ExprKind.CALL and expr.op == "construct":
        if len(expr.children) == 1 and expr.children[0].type.record == expr.type.record:
            return _dimensions(expr.children[0], variables)  # copy of another dim3
        values = [_integer(c, variables) for c in expr.children]
        values += [1] * (3 - len(values))
        return tuple(values[:3]) if all(v is not None for v in values[:3]) else None
    value = _integer(expr, variables)
    return (value, 1, 1) if value is not None else None


def _local_initializers(function: ir.Function | None) -> dict[str, ir.Expr]:
    """Initial values of the function's variables that are never assigned again
    (``dim3 block; block.x = 256;`` says nothing through its declaration)."""
    found: dict[str, ir.Expr] = {}
    if function is None or function.body is None:
        return found
    reassigned: set[str] = set()
    for stmt in function.body.walk():
        for var in stmt.decls:
            if var.init is not None:
                found[var.decl] = var.init
        for expr in stmt.expressions():
            for node in expr.walk():
                if node.kind is ir.ExprKind.ASSIGN or (node.kind is ir.ExprKind.CALL and node.name == "operator="):
                    target = node.children[0] if node.children else None
                    while (
                        target is not None and target.kind in (ir.ExprKind.MEMBER, ir.ExprKind.CAST) and target.children
                    ):
                        target = target.children[0]
                    if target is not None and target.kind is ir.ExprKind.DECL_REF and target.decl:
                        reassigned.add(target.decl)
    return {decl: init for decl, init in found.items() if decl not in reassigned}


def _constants(tu: ir.TranslationUnit) -> dict[str, ir.Expr]:
    """File-scope constants (``constexpr unsigned X(4);``), which a launch's ``dim3`` may name."""
    return {var.decl: var.init for var in tu.globals if var.type.is_const and var.init is not None}


def _uses_y_or_z(function: ir.Function) -> bool:
    if function.body is None:
        return False
    for stmt in function.body.walk():
        for expr in stmt.expressions():
            for node in expr.walk():
                if (
                    node.kind is ir.ExprKind.BUILTIN_INDEX
                    and node.name in ("threadIdx", "blockDim")
                    and node.member in ("y", "z")
                ):
                    return True
    return False


def block_shape(tu: ir.TranslationUnit, kernel: ir.Function) -> BlockShape:
    functions = {f.decl: f for f in tu.functions}
    shapes = set()
    where = ""
    for launch in tu.launches:
        if launch.kernel != kernel.decl:
            continue
        dims = _dimensions(launch.block, {**_constants(tu), **_local_initializers(functions.get(launch.caller or ""))})
        if dims is None:
            return ASSUMED_SHAPE
        shapes.add(dims)
        # A launch in the file that includes the kernel's file says so.
        at = (
            f"line {launch.span.line}"
            if launch.span.file == kernel.span.file
            else f"{os.path.basename(launch.span.file)}:{launch.span.line}"
        )
        where = f"launch at {at}"
    if len(shapes) == 1:
        x, y, z = shapes.pop()
        return BlockShape(x, y, z, where)
    bounds = kernel.launch_bounds
    if not shapes and bounds is not None and bounds.max_threads and not _uses_y_or_z(kernel):
        return BlockShape(bounds.max_threads, 1, 1, f"__launch_bounds__({bounds.max_threads})")
    return ASSUMED_SHAPE
