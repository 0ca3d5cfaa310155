"""Expressions: one handler per expression cursor kind (``_EXPR_HANDLERS``): names and
members (the builtin indices among them), operators, casts, conditionals, initializer
lists and lambdas here; literals and the values clang folds in ``constants.py``, calls and
launches in ``calls.py``; any other kind lowers to an UNKNOWN expression over its operands."""

from __future__ import annotations

from clang import cindex
from clang.cindex import CursorKind as CK

from cudalint import ir
from cudalint.frontend import clang_ext, literals, recovery
from cudalint.frontend.lower.calls import Calls
from cudalint.frontend.lower.common import NOWHERE, TRANSPARENT_EXPRS
from cudalint.frontend.lower.constants import Constants, numeric_literal_handler, token_literal_handler

_CASTS = {
    CK.CSTYLE_CAST_EXPR: ir.CastKind.C_STYLE,
    CK.CXX_FUNCTIONAL_CAST_EXPR: ir.CastKind.FUNCTIONAL,
    CK.CXX_STATIC_CAST_EXPR: ir.CastKind.STATIC,
    CK.CXX_REINTERPRET_CAST_EXPR: ir.CastKind.REINTERPRET,
    CK.CXX_CONST_CAST_EXPR: ir.CastKind.CONST,
    CK.CXX_DYNAMIC_CAST_EXPR: ir.CastKind.DYNAMIC,
}
_BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim"}

_UNSIGNED_INT = ir.CType(ir.TypeKind.INTEGER, "unsigned int", 4, 4, is_signed=False)

# ------------------------------------------------------------------ expressions


class Expressions:
    """How the lowering turns expression cursors into ``ir.Expr``."""

    def _expr_children(self, cursor: cindex.Cursor, children: list[cindex.Cursor] | None = None) -> list[cindex.Cursor]:
        """``children``: all of ``cursor``'s, when the caller has them already."""
        expressions = clang_ext.kind_ids("is_expression")
        return [c for c in children or cursor.get_children() if c._kind_id in expressions]

    def expr(self, cursor: cindex.Cursor) -> ir.Expr:
        kind = cursor.kind
        while kind in TRANSPARENT_EXPRS:
            inner = self._expr_children(cursor)
            if len(inner) != 1:
                break
            cursor = inner[0]
            kind = cursor.kind
        handler = _EXPR_HANDLERS.get(kind)
        if handler is not None:
            return handler(self, cursor)
        return self._unknown(cursor)

    def _node(self, cursor: cindex.Cursor, kind: ir.ExprKind, children=(), **fields) -> ir.Expr:
        return ir.Expr(
            kind=kind,
            type=self.ctype(cursor.type),
            span=self._span(cursor) or NOWHERE,
            children=tuple(children),
            **fields,
        )

    def _unknown(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(
            cursor,
            ir.ExprKind.UNKNOWN,
            [self.expr(c) for c in self._expr_children(cursor)],
            name=cursor.kind.name.lower(),
        )

    def _declared_as_unknown(self, cursor: cindex.Cursor, referenced: cindex.Cursor | None) -> bool:
        if referenced is None or not self.unknown_names or cursor.spelling not in self.unknown_names:
            return False
        location = referenced.location.file
        return location is not None and location.name == recovery.UNKNOWNS_HEADER

    def _decl_ref(self, cursor: cindex.Cursor) -> ir.Expr:
        referenced = cursor.referenced
        if self._declared_as_unknown(cursor, referenced):
            return self._node(cursor, ir.ExprKind.DECL_REF, name=cursor.spelling)
        if referenced is None or referenced.kind == CK.TEMPLATE_NON_TYPE_PARAMETER:
            inner = self._expr_children(cursor)
            if len(inner) == 1:
                # A substituted non-type template parameter: the value is the child.
                return self.expr(inner[0])
            if referenced is not None:
                return self._node(cursor, ir.ExprKind.DECL_REF, name=cursor.spelling)
            if not cursor.spelling:
                # A name in a template that depends on its parameters (`Traits<T>::kItems`):
                # clang names it only by its tokens.
                spelled = "".join(t.spelling for t in cursor.get_tokens())
                return self._node(cursor, ir.ExprKind.DECL_REF, name=spelled or None)
        decl = self._decl_id(referenced) if referenced is not None else None
        if referenced is not None and referenced.kind == CK.FUNCTION_DECL:
            decl = self._named_function(referenced)
        return self._node(
            cursor,
            ir.ExprKind.DECL_REF,
            name=cursor.spelling,
            decl=decl,
            value=self._named_constant(cursor, referenced),
        )

    def _member(self, cursor: cindex.Cursor) -> ir.Expr:
        inner = self._expr_children(cursor)
        if len(inner) == 1 and inner[0].kind == CK.DECL_REF_EXPR and inner[0].spelling in _BUILTIN_VARIABLES:
            variable = inner[0].spelling
            return ir.Expr(
                ir.ExprKind.BUILTIN_INDEX,
                _UNSIGNED_INT,
                self._span(cursor) or NOWHERE,
                name=variable,
                member=self._builtin_member(cursor, variable),
            )
        base = [self.expr(c) for c in inner]
        arrow = bool(base) and base[0].type.kind is ir.TypeKind.POINTER
        referenced = cursor.referenced
        return self._node(
            cursor,
            ir.ExprKind.MEMBER,
            base,
            op="->" if arrow else ".",
            name=cursor.spelling,
            decl=self._decl_id(referenced) if referenced is not None else None,
            value=self._named_constant(cursor, referenced),
        )

    def _builtin_member(self, cursor: cindex.Cursor, variable: str) -> str | None:
        """``x``/``y``/``z`` of a builtin access; the AST leaves the member name unspelled."""
        if cursor.spelling in ("x", "y", "z"):
            return cursor.spelling
        file, _, _, offset = self._locate(cursor.extent.start)
        view = self._view(file)
        if view is None:
            return None
        expansion = view.macro_map.expansion_at(offset)
        if expansion is None or offset != expansion.start:
            tokens = view.tokens_between(offset, self._locate(cursor.extent.end)[3])
            return tokens[-1] if tokens and tokens[-1] in ("x", "y", "z") else None
        # Inside a macro body the accesses appear in definition order: take the next
        # `variable . member` of the definition not yet used by this function.
        key = (self._current_function, expansion.start)
        position = self._builtin_members_seen.get(key, 0)
        body = expansion.body
        for index in range(position, len(body) - 2):
            if body[index] == variable and body[index + 1] == "." and body[index + 2] in ("x", "y", "z"):
                self._builtin_members_seen[key] = index + 3
                return body[index + 2]
        return None

    def _subscript(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(cursor, ir.ExprKind.SUBSCRIPT, [self.expr(c) for c in self._expr_children(cursor)])

    def _binary(self, cursor: cindex.Cursor) -> ir.Expr:
        op = clang_ext.binary_operator(cursor)
        children = [self.expr(c) for c in self._expr_children(cursor)]
        kind = (
            ir.ExprKind.ASSIGN if op and op.endswith("=") and op not in ("==", "!=", "<=", ">=") else ir.ExprKind.BINARY
        )
        return self._node(cursor, kind, children, op=op)

    def _unary(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(
            cursor,
            ir.ExprKind.UNARY,
            [self.expr(c) for c in self._expr_children(cursor)],
            op=clang_ext.unary_operator(cursor),
        )

    def _unary_expr(self, cursor: cindex.Cursor) -> ir.Expr:
        value = clang_ext.evaluate(cursor)
        tokens = [t.spelling for t in cursor.get_tokens()]
        return self._node(
            cursor,
            ir.ExprKind.SIZEOF,
            [self.expr(c) for c in self._expr_children(cursor)],
            op=tokens[0] if tokens else None,
            value=value,
        )

    def _cast(self, cursor: cindex.Cursor) -> ir.Expr:
        operands = self._expr_children(cursor)
        children = [self.expr(operands[-1])] if operands else []
        own = self.ctype(cursor.type)
        # clang nests the conversion itself as an implicit cast inside the explicit one.
        if children and children[0].cast is ir.CastKind.IMPLICIT and children[0].type == own:
            children = list(children[0].children)
        return ir.Expr(ir.ExprKind.CAST, own, self._span(cursor) or NOWHERE, tuple(children), cast=_CASTS[cursor.kind])

    def _unexposed(self, cursor: cindex.Cursor) -> ir.Expr:
        inner = self._expr_children(cursor)
        if len(inner) == 1:
            child = self.expr(inner[0])
            own = self.ctype(cursor.type)
            # Value-category and qualification conversions change nothing the analysis sees.
            if own.spelling.startswith("<") or (
                own.kind is child.type.kind and own.size == child.type.size and own.is_signed == child.type.is_signed
            ):
                return child
            return ir.Expr(ir.ExprKind.CAST, own, self._span(cursor) or child.span, (child,), cast=ir.CastKind.IMPLICIT)
        if not inner:
            value = clang_ext.evaluate(cursor)
            if isinstance(value, int):
                return self._node(cursor, ir.ExprKind.INT_LITERAL, value=value)
            if isinstance(value, float):
                return self._node(cursor, ir.ExprKind.FLOAT_LITERAL, value=value)
        return self._unknown(cursor)

    def _conditional(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(cursor, ir.ExprKind.CONDITIONAL, [self.expr(c) for c in self._expr_children(cursor)])

    def _init_list(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(cursor, ir.ExprKind.INIT_LIST, [self.expr(c) for c in self._expr_children(cursor)])

    def _lambda(self, cursor: cindex.Cursor) -> ir.Expr:
        """A lambda's call operator becomes a function of its own: a call of the lambda
        (``body(std::integral_constant<int, 3>{})``) names it and is inlined with the
        enclosing function's variables, and a lambda no call here names (one handed to a
        host template) is still analyzed. A generic lambda's operator is a template: each
        call names the instantiation whose ``decltype(ic)::value`` clang evaluated."""
        span = self._span(cursor) or NOWHERE
        enclosing = self._functions_in_progress[-1] if self._functions_in_progress else ir.FunctionKind.HOST
        attributes = {c.kind for c in cursor.get_children() if c._kind_id in clang_ext.kind_ids("is_attribute")}
        # A lambda in a kernel is device code, not a kernel of its own.
        kind = (
            ir.FunctionKind.DEVICE
            if CK.CUDADEVICE_ATTR in attributes or enclosing is ir.FunctionKind.KERNEL
            else enclosing
        )
        closure = cursor.type.get_declaration()
        operator = next(
            (c for c in closure.get_children() if c.kind in (CK.CXX_METHOD, CK.FUNCTION_TEMPLATE)),
            None,
        )
        if operator is None or operator.spelling != "operator()":
            return ir.Expr(ir.ExprKind.LAMBDA, self.ctype(cursor.type), span)
        self._lambdas[self._decl_id(closure)] = (kind, f"lambda@{span.line}", self._current_function)
        self._function(operator, instantiation=False, depth=self._depth)
        if operator.kind == CK.FUNCTION_TEMPLATE:
            self._generic_lambdas[self._decl_id(closure)] = self._function_id(operator)
        return ir.Expr(ir.ExprKind.LAMBDA, self.ctype(cursor.type), span, decl=self._function_id(operator))


_EXPR_HANDLERS = {
    CK.INTEGER_LITERAL: numeric_literal_handler(
        ir.ExprKind.INT_LITERAL, literals.INT_LITERAL, literals.parse_int_literal
    ),
    CK.FLOATING_LITERAL: numeric_literal_handler(
        ir.ExprKind.FLOAT_LITERAL, literals.FLOAT_LITERAL, literals.parse_float_literal
    ),
    CK.CXX_BOOL_LITERAL_EXPR: Constants._bool_literal,
    CK.CHARACTER_LITERAL: token_literal_handler(ir.ExprKind.CHAR_LITERAL),
    CK.STRING_LITERAL: token_literal_handler(ir.ExprKind.STRING_LITERAL),
    CK.CXX_NULL_PTR_LITERAL_EXPR: token_literal_handler(ir.ExprKind.NULLPTR),
    CK.DECL_REF_EXPR: Expressions._decl_ref,
    CK.MEMBER_REF_EXPR: Expressions._member,
    CK.ARRAY_SUBSCRIPT_EXPR: Expressions._subscript,
    CK.BINARY_OPERATOR: Expressions._binary,
    CK.COMPOUND_ASSIGNMENT_OPERATOR: Expressions._binary,
    CK.UNARY_OPERATOR: Expressions._unary,
    CK.CXX_UNARY_EXPR: Expressions._unary_expr,
    CK.CALL_EXPR: Calls._call,
    CK.UNEXPOSED_EXPR: Expressions._unexposed,
    CK.CONDITIONAL_OPERATOR: Expressions._conditional,
    CK.INIT_LIST_EXPR: Expressions._init_list,
    CK.LAMBDA_EXPR: Expressions._lambda,
    **{kind: Expressions._cast for kind in _CASTS},
}
