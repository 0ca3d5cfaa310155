"""Constants: literals (their text as written, a macro's included) and the integer values
clang evaluates at compile time: named constants (enumerators, ``const``/``constexpr``
variables and static members) and calls that fold (``constexpr`` functions)."""

from __future__ import annotations

import re

from clang import cindex
from clang.cindex import CursorKind as CK

from cudalint import ir
from cudalint.frontend import clang_ext
from cudalint.frontend.lower.types import integral


class Constants:
    """How the lowering reads literals and the constants clang evaluates."""

    def _literal_text(self, cursor: cindex.Cursor, pattern: re.Pattern, parse) -> str | None:
        file, _, _, offset = self._locate(cursor.location)
        view = self._view(file)
        expansion = view.macro_map.expansion_at(offset) if view is not None else None
        if expansion is None or offset != expansion.start:
            return self.sources.literal_at(file, offset, pattern)
        # From a macro body: the definition's literal with the value clang computed.
        value = clang_ext.evaluate(cursor)
        candidates = {t for t in expansion.body if pattern.fullmatch(t.encode()) and parse(t) == value}
        return candidates.pop() if len(candidates) == 1 else None

    def _numeric_literal_node(self, cursor: cindex.Cursor, kind: ir.ExprKind, pattern: re.Pattern, parse) -> ir.Expr:
        text = self._literal_text(cursor, pattern, parse)
        value = parse(text) if text else None
        if value is None:
            value = clang_ext.evaluate(cursor)
        return self._node(cursor, kind, value=value, text=text)

    def _bool_literal(self, cursor: cindex.Cursor) -> ir.Expr:
        tokens = [t.spelling for t in cursor.get_tokens()]
        if tokens[:1] in (["true"], ["false"]):
            value = tokens[0] == "true"
        else:
            # A substituted template argument (`if constexpr (kFlag)`) spells the parameter's
            # name where it is used: the value is clang's.
            value = bool(clang_ext.evaluate(cursor))
        return self._node(cursor, ir.ExprKind.BOOL_LITERAL, value=value, text=tokens[0] if tokens else None)

    def _named_constant(self, cursor: cindex.Cursor, referenced: cindex.Cursor | None) -> int | None:
        """The value of a name the language makes an integral constant: an enumerator, or a
        ``const``/``constexpr`` variable or static member with a constant initializer
        (``kTile``, ``Traits<T>::kVec``, ``frag.num_elements``). clang evaluates it, so
        ``sizeof``, template arguments and other constants inside the initializer count."""
        if referenced is None or not integral(cursor.type):
            return None
        if referenced.kind == CK.ENUM_CONSTANT_DECL:
            return referenced.enum_value
        if referenced.kind != CK.VAR_DECL or not referenced.type.is_const_qualified():
            return None
        value = clang_ext.evaluate(cursor)
        return value if isinstance(value, int) else None

    @staticmethod
    def _constant_call(cursor: cindex.Cursor, arguments: list[ir.Expr]) -> int | None:
        """The value of a call clang folds to an integer at compile time (a ``constexpr``
        function such as ``std::numeric_limits<int>::max()`` or ``tiles(kN)``). Only calls
        whose arguments are all constants are asked: others cannot fold."""
        if not integral(cursor.type) or not all(_constant(argument) for argument in arguments):
            return None
        value = clang_ext.evaluate(cursor)
        return value if isinstance(value, int) else None


def _constant(expr: ir.Expr) -> bool:
    """A compile-time integer: a literal, or a name or call the frontend evaluated."""
    while expr.kind is ir.ExprKind.CAST and expr.children:
        expr = expr.children[0]
    return isinstance(expr.value, int) and expr.kind in (
        ir.ExprKind.INT_LITERAL,
        ir.ExprKind.BOOL_LITERAL,
        ir.ExprKind.SIZEOF,
        ir.ExprKind.DECL_REF,
        ir.ExprKind.MEMBER,
        ir.ExprKind.CALL,
    )


def numeric_literal_handler(kind: ir.ExprKind, pattern: re.Pattern, parse):
    def handler(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._numeric_literal_node(cursor, kind, pattern, parse)

    return handler


def token_literal_handler(kind: ir.ExprKind):
    def handler(self, cursor: cindex.Cursor) -> ir.Expr:
        tokens = [t.spelling for t in cursor.get_tokens()]
        text = tokens[0] if len(tokens) == 1 else None
        return self._node(cursor, kind, value=text, text=text)

    return handler
