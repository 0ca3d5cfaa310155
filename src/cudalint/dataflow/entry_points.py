"""Which functions of a translation unit are analyzed as entry points."""

from __future__ import annotations

from cudalint import ir


def entry_points(tu: ir.TranslationUnit) -> list[ir.Function]:
    """The functions analyzed on their own: every kernel, and each device function no code
    of the unit calls (a library's helper is analyzed where a kernel inlines it)."""
    called: set[str] = set()
    instantiated: set[str] = set()
    for function in tu.functions:
        if function.template_args:
            instantiated.add(function.name)
        if function.body is None:
            continue
        for stmt in function.body.walk():
            for expr in stmt.expressions():
                called.update(callees(expr))
    device_code = {function.decl for function in tu.device_functions()}
    entries = []
    for function in tu.device_functions():
        if function.is_template_pattern and function.name in instantiated:
            continue  # Its instantiations carry the concrete types and constants.
        if function.written_in in device_code:
            continue  # A lambda in device code runs where it is called, inlined there.
        if function.kind is ir.FunctionKind.KERNEL or function.decl not in called:
            entries.append(function)
    return entries


def callees(expr: ir.Expr):
    """The ids of the functions ``expr`` calls, those called for the object of a member
    call included (``t.engine().begin()`` calls ``engine``)."""
    for node in expr.walk():
        if node.kind is ir.ExprKind.CALL and node.decl:
            yield node.decl
