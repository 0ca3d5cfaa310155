"""Statements: one handler per statement cursor kind (``_STMT_HANDLERS``; a kind the IR
does not name lowers to an UNKNOWN statement that keeps the statements inside it), the
``#pragma unroll`` before a loop, and inline assembly's text and operands (``asm_parts``)."""

from __future__ import annotations

import re

from clang import cindex
from clang.cindex import CursorKind as CK

from cudalint import interruptions, ir
from cudalint.frontend import clang_ext, literals
from cudalint.frontend.lower.common import NOWHERE

_BOOL = ir.CType(ir.TypeKind.BOOL, "bool", 1, 1)

# ------------------------------------------------------------------ statements


class Statements:
    """How the lowering turns statement cursors into ``ir.Stmt``."""

    def _unroll_before(self, span: ir.Span) -> ir.Unroll | None:
        view = self._view(span.file) if span.file else None
        lines = view.lines if view is not None else ()
        index = span.line - 2
        while index >= 0:
            text = lines[index].strip() if index < len(lines) else ""
            match = literals.PRAGMA_UNROLL.match(text)
            if match:
                argument = match.group(1)
                count = literals.evaluate_integer_text(argument, self._named_integers) if argument else None
                return ir.Unroll(count, "" if count is not None else argument)
            if text and not text.startswith(("//", "#pragma", "/*", "*")):
                return None
            index -= 1
        return None

    def _children(self, cursor: cindex.Cursor) -> list[cindex.Cursor]:
        skipped = clang_ext.kind_ids("is_attribute", "is_reference")
        return [c for c in cursor.get_children() if c._kind_id not in skipped]

    def _stmt_or_expr(self, cursor: cindex.Cursor) -> ir.Stmt:
        if cursor._kind_id in clang_ext.kind_ids("is_expression"):
            return ir.Stmt(ir.StmtKind.EXPR, self._span(cursor), expr=self.expr(cursor))
        if cursor.kind == CK.VAR_DECL:
            return ir.Stmt(ir.StmtKind.DECL, self._span(cursor), decls=(self._var_decl(cursor),))
        return self._stmt(cursor)

    def _stmt(self, cursor: cindex.Cursor) -> ir.Stmt:
        interruptions.checkpoint()  # A time limit or a cancellation that came in the bindings.
        kind = cursor.kind
        span = self._span(cursor) or NOWHERE
        children = self._children(cursor)
        if cursor._kind_id in clang_ext.kind_ids("is_expression"):
            return self._stmt_or_expr(cursor)
        return _STMT_HANDLERS.get(kind, Statements._unknown_stmt)(self, cursor, span, children)

    def _unknown_stmt(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        """A statement the IR has no kind for, with the statements inside it."""
        return ir.Stmt(ir.StmtKind.UNKNOWN, span, body=tuple(self._stmt_or_expr(c) for c in children))

    def _compound(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(ir.StmtKind.COMPOUND, span, body=tuple(self._stmt_or_expr(c) for c in children))

    def _decl_stmt(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        decls = tuple(self._var_decl(child) for child in children if child.kind == CK.VAR_DECL)
        return ir.Stmt(ir.StmtKind.DECL, span, decls=decls)

    def _while(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        cond, body = self._condition_and_body(children)
        return ir.Stmt(ir.StmtKind.WHILE, span, cond=cond, body=body, unroll=self._unroll_before(span))

    def _do(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        body = tuple(self._stmt_or_expr(c) for c in children[:1])
        cond = self.expr(children[1]) if len(children) > 1 else None
        return ir.Stmt(ir.StmtKind.DO, span, cond=cond, body=body, unroll=self._unroll_before(span))

    def _switch(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        cond, body = self._condition_and_body(children)
        return ir.Stmt(ir.StmtKind.SWITCH, span, cond=cond, body=body)

    def _case(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        value = self.expr(children[0]) if children else None
        return ir.Stmt(ir.StmtKind.CASE, span, expr=value, body=tuple(self._stmt_or_expr(c) for c in children[1:]))

    def _default(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(ir.StmtKind.DEFAULT, span, body=tuple(self._stmt_or_expr(c) for c in children))

    def _return(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(ir.StmtKind.RETURN, span, expr=self.expr(children[0]) if children else None)

    def _goto(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(ir.StmtKind.GOTO, span, label=next((c.spelling for c in cursor.get_children()), None))

    def _label(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(
            ir.StmtKind.LABEL, span, label=cursor.spelling, body=tuple(self._stmt_or_expr(c) for c in children)
        )

    def _asm(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        """Inline assembly: its instruction text and its operands. libclang gives the operand
        expressions (outputs, then inputs) but neither the text nor the constraints; they are
        read from the tokens, the macro's definition where a macro writes the statement
        (``LDMATRIX_X4(r0, r1, r2, r3, addr)``)."""
        extent = cursor.extent
        file = clang_ext.file_name(extent.start.file)
        text = self._tokens_between(file, extent.start.offset, extent.end.offset)
        parts = asm_parts(text)
        if parts is None:
            view = self._view(file)
            expansion = view.macro_map.expansion_at(extent.start.offset) if view is not None else None
            parts = asm_parts(list(expansion.body)) if expansion is not None else None
        if parts is None:
            return ir.Stmt(ir.StmtKind.ASM, span, label=" ".join(text))
        instruction, constraints = parts
        operands: tuple[ir.AsmOperand, ...] = ()
        if len(constraints) == len(children):
            operands = tuple(ir.AsmOperand(c, self.expr(child)) for c, child in zip(constraints, children, strict=True))
        return ir.Stmt(ir.StmtKind.ASM, span, label=instruction, operands=operands)

    def _unexposed_stmt(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        if len(children) == 1 and children[0]._kind_id not in clang_ext.kind_ids("is_expression"):
            # An attributed statement (``#pragma unroll`` on a loop) wraps the statement itself.
            return self._stmt(children[0])
        return self._unknown_stmt(cursor, span, children)

    def _condition_and_body(self, children: list[cindex.Cursor]) -> tuple[ir.Expr | None, tuple[ir.Stmt, ...]]:
        cond = None
        body: list[ir.Stmt] = []
        for child in children:
            if child._kind_id in clang_ext.kind_ids("is_expression") and not body and child is not children[-1]:
                cond = self.expr(child)
            elif child.kind == CK.VAR_DECL and not body:
                var = self._var_decl(child)
                cond = var.init
            else:
                body.append(self._stmt_or_expr(child))
        return cond, tuple(body)

    def _if(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        init = None
        cond = None
        branches: list[ir.Stmt] = []
        for index, child in enumerate(children):
            remaining = len(children) - index
            if cond is None and child.kind == CK.DECL_STMT and remaining > 2:
                init = self._stmt(child)
            elif cond is None and child.kind == CK.VAR_DECL:
                var = self._var_decl(child)
                init = ir.Stmt(ir.StmtKind.DECL, var.span, decls=(var,))
                cond = var.init
            elif cond is None and child._kind_id in clang_ext.kind_ids("is_expression") and remaining >= 2:
                cond = self.expr(child)
            elif cond is None and child._kind_id in clang_ext.kind_ids("is_statement") and remaining > 2:
                init = self._stmt_or_expr(child)
            else:
                branches.append(self._stmt_or_expr(child))
        return ir.Stmt(
            ir.StmtKind.IF,
            span,
            cond=cond,
            init=init,
            body=tuple(branches[:1]),
            orelse=branches[1] if len(branches) > 1 else None,
        )

    def _for(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        # Every clause is optional, so place each child by where it sits relative to the
        # header's two semicolons.
        extent = cursor.extent
        view = self._view(clang_ext.file_name(extent.start.file))
        semicolons: list[int] = []
        close_paren = None
        depth = 0
        for begin, spelling, kind in view.tokens(extent.start.offset, extent.end.offset) if view is not None else ():
            if kind == cindex.TokenKind.COMMENT:
                continue
            if spelling == "(":
                depth += 1
            elif spelling == ")":
                depth -= 1
                if depth == 0:
                    close_paren = begin
                    break
            elif spelling == ";" and depth == 1:
                semicolons.append(begin)
        init = cond = step = None
        body: list[ir.Stmt] = []
        if len(semicolons) == 2 and close_paren is not None:
            for child in children:
                offset = child.extent.start.offset
                if offset < semicolons[0]:
                    init = self._stmt_or_expr(child)
                elif offset < semicolons[1]:
                    if child.kind == CK.VAR_DECL:
                        cond = self._var_decl(child).init
                    else:
                        cond = self.expr(child)
                elif offset < close_paren:
                    step = self.expr(child)
                else:
                    body.append(self._stmt_or_expr(child))
        elif children:
            # A loop header written by a macro has no tokens here; only a complete header
            # can be placed without them.
            body = [self._stmt_or_expr(children[-1])]
            if len(children) == 4:
                init, cond, step = self._stmt_or_expr(children[0]), self.expr(children[1]), self.expr(children[2])
            else:
                # Which clauses the macro wrote is unknown: say so rather than imply `for (;;)`.
                cond = ir.Expr(ir.ExprKind.UNKNOWN, _BOOL, span, name="loop condition written by a macro")
        return ir.Stmt(
            ir.StmtKind.FOR, span, init=init, cond=cond, step=step, body=tuple(body), unroll=self._unroll_before(span)
        )


def _bare_stmt(kind: ir.StmtKind):
    """A handler for a statement that is its kind alone (``break``, ``continue``, ``;``)."""

    def handler(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(kind, span)

    return handler


_STMT_HANDLERS = {
    CK.COMPOUND_STMT: Statements._compound,
    CK.DECL_STMT: Statements._decl_stmt,
    CK.IF_STMT: Statements._if,
    CK.FOR_STMT: Statements._for,
    CK.WHILE_STMT: Statements._while,
    CK.DO_STMT: Statements._do,
    CK.SWITCH_STMT: Statements._switch,
    CK.CASE_STMT: Statements._case,
    CK.DEFAULT_STMT: Statements._default,
    CK.BREAK_STMT: _bare_stmt(ir.StmtKind.BREAK),
    CK.CONTINUE_STMT: _bare_stmt(ir.StmtKind.CONTINUE),
    CK.NULL_STMT: _bare_stmt(ir.StmtKind.NULL),
    CK.RETURN_STMT: Statements._return,
    CK.GOTO_STMT: Statements._goto,
    CK.LABEL_STMT: Statements._label,
    CK.ASM_STMT: Statements._asm,
    CK.MS_ASM_STMT: Statements._asm,
    CK.UNEXPOSED_STMT: Statements._unexposed_stmt,
}
"""Statement cursors by kind; any other kind lowers to an UNKNOWN statement (``_unknown_stmt``)."""


_ASM_KEYWORDS = frozenset(("asm", "__asm__", "__asm"))
_ASM_QUALIFIERS = frozenset(("volatile", "__volatile__", "__volatile", "inline", "goto"))
_STRING_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'"}


def asm_parts(tokens: list[str]) -> tuple[str, list[str]] | None:
    """(instruction text, operand constraints in order: outputs, then inputs) of the tokens
    of an ``asm`` statement; None when they do not spell one."""
    start = next((i for i, token in enumerate(tokens) if token in _ASM_KEYWORDS), None)
    if start is None:
        return None
    # C++ lexes `::` as one token: `"..." :: "r"(a)` has no outputs, then inputs.
    tokens = [piece for token in tokens[start:] for piece in ((":", ":") if token == "::" else (token,))]
    position = 1
    while position < len(tokens) and tokens[position] in _ASM_QUALIFIERS:
        position += 1
    if position >= len(tokens) or tokens[position] != "(":
        return None
    position += 1
    pieces = []
    while position < len(tokens) and _is_string(tokens[position]):
        pieces.append(_string_value(tokens[position]))
        position += 1
    if not pieces:
        return None
    constraints: list[str] = []
    for _section in range(2):  # outputs, inputs (clobbers and labels name no operand)
        if position >= len(tokens) or tokens[position] != ":":
            break
        position += 1
        while position < len(tokens) and tokens[position] not in (":", ")"):
            if tokens[position] == "[":  # a named operand, `[addr] "r"(a)`
                position = tokens.index("]", position) + 1 if "]" in tokens[position:] else len(tokens)
                continue
            if not _is_string(tokens[position]) or position + 1 >= len(tokens) or tokens[position + 1] != "(":
                return None
            constraints.append(_string_value(tokens[position]))
            position = _after_parentheses(tokens, position + 1)
            if position < len(tokens) and tokens[position] == ",":
                position += 1
    return "".join(pieces), constraints


def _is_string(token: str) -> bool:
    return token.endswith('"') and '"' in token[:-1]


def _string_value(token: str) -> str:
    body = token[token.index('"') + 1 : -1]
    return re.sub(r"\\(.)", lambda m: _STRING_ESCAPES.get(m.group(1), m.group(1)), body)


def _after_parentheses(tokens: list[str], open_at: int) -> int:
    depth = 0
    for position in range(open_at, len(tokens)):
        depth += {"(": 1, ")": -1}.get(tokens[position], 0)
        if depth == 0:
            return position + 1
    return len(tokens)
