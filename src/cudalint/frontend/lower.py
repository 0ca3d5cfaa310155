"""Lowering: libclang cursors -> cudalint IR."""

from __future__ import annotations

import ast
import operator
import re
from bisect import bisect_right
from pathlib import Path

from clang import cindex
from clang.cindex import CursorKind as CK
from clang.cindex import TypeKind as TK

from cudalint import ir
from cudalint.frontend import clang_ext

_INTEGER_KINDS = {
    TK.CHAR_U: False, TK.UCHAR: False, TK.CHAR16: False, TK.CHAR32: False, TK.USHORT: False,
    TK.UINT: False, TK.ULONG: False, TK.ULONGLONG: False, TK.UINT128: False, TK.CHAR_S: True,
    TK.SCHAR: True, TK.WCHAR: True, TK.SHORT: True, TK.INT: True, TK.LONG: True,
    TK.LONGLONG: True, TK.INT128: True,
}
_SIMPLE_KINDS = {
    TK.VOID: ir.TypeKind.VOID, TK.BOOL: ir.TypeKind.BOOL, TK.HALF: ir.TypeKind.HALF,
    TK.FLOAT128: ir.TypeKind.LONG_DOUBLE, TK.FLOAT: ir.TypeKind.FLOAT,
    TK.DOUBLE: ir.TypeKind.DOUBLE, TK.LONGDOUBLE: ir.TypeKind.LONG_DOUBLE, TK.ENUM: ir.TypeKind.ENUM,
    TK.FUNCTIONPROTO: ir.TypeKind.FUNCTION, TK.FUNCTIONNOPROTO: ir.TypeKind.FUNCTION,
    TK.DEPENDENT: ir.TypeKind.DEPENDENT,
}
_ARRAY_KINDS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)
_LAYOUT_KINDS = frozenset((
    *_INTEGER_KINDS, TK.BOOL, TK.HALF, TK.FLOAT, TK.DOUBLE, TK.LONGDOUBLE, TK.FLOAT128, TK.POINTER,
    TK.LVALUEREFERENCE, TK.RVALUEREFERENCE, TK.CONSTANTARRAY, TK.RECORD, TK.ENUM, TK.VECTOR, TK.EXTVECTOR,
))

_CASTS = {
    CK.CSTYLE_CAST_EXPR: ir.CastKind.C_STYLE,
    CK.CXX_FUNCTIONAL_CAST_EXPR: ir.CastKind.FUNCTIONAL,
    CK.CXX_STATIC_CAST_EXPR: ir.CastKind.STATIC,
    CK.CXX_REINTERPRET_CAST_EXPR: ir.CastKind.REINTERPRET,
    CK.CXX_CONST_CAST_EXPR: ir.CastKind.CONST,
    CK.CXX_DYNAMIC_CAST_EXPR: ir.CastKind.DYNAMIC,
}
_BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
_TRANSPARENT_EXPRS = (CK.PAREN_EXPR,)

_FLOAT_LITERAL = re.compile(
    rb"(?:0[xX](?:[0-9a-fA-F']*\.?[0-9a-fA-F']+|[0-9a-fA-F']+\.?)[pP][+-]?\d+"
    rb"|(?:\d[\d']*\.?[\d']*|\.\d[\d']*)(?:[eE][+-]?\d+)?)[fFlL]?(?:16|32|64|128)?"
)
_INT_LITERAL = re.compile(rb"(?:0[xX][0-9a-fA-F']+|0[bB][01']+|\d[\d']*)[uUlLzZ]*")
_PRAGMA_UNROLL = re.compile(r"^\s*#\s*pragma\s+unroll\b\s*\(?\s*([^)\s]*)")
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\s+(.+?)\s*(?://.*)?$")

_UNSIGNED_INT = ir.CType(ir.TypeKind.INTEGER, "unsigned int", 4, 4, is_signed=False)
_UNKNOWN_TYPE = ir.CType(ir.TypeKind.OTHER, "<unknown>")


class _Sources:
    """File contents by path: literal text is read where clang says it is spelled."""

    def __init__(self, main_path: str, main_text: str):
        self._bytes: dict[str, bytes | None] = {main_path: main_text.encode("utf-8")}

    def data(self, path: str) -> bytes | None:
        if path not in self._bytes:
            try:
                self._bytes[path] = Path(path).read_bytes()
            except OSError:
                self._bytes[path] = None
        return self._bytes[path]

    def literal_at(self, path: str | None, offset: int, pattern: re.Pattern) -> str | None:
        """The literal matching ``pattern`` at byte ``offset`` of ``path``."""
        data = self.data(path) if path else None
        if data is None:
            return None
        match = pattern.match(data, offset)
        return match.group(0).decode("ascii") if match else None


def _parse_int_literal(text: str) -> int | None:
    digits = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if digits[:2] in ("0x", "0X"):
            return int(digits, 16)
        if digits[:2] in ("0b", "0B"):
            return int(digits, 2)
        if len(digits) > 1 and digits.startswith("0"):
            return int(digits, 8)
        return int(digits)
    except ValueError:
        return None


def _parse_float_literal(text: str) -> float | None:
    body = re.sub(r"(?:[fFlL](?:16|32|64|128)?|[fF](?:16|32|64|128))$", "", text.replace("'", ""))
    try:
        return float.fromhex(body) if body[:2] in ("0x", "0X") else float(body)
    except ValueError:
        return None


_SAFE_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.LShift: operator.lshift}


def _evaluate_integer_text(text: str, macros: dict[str, str], depth: int = 0) -> int | None:
    """Value of a small integer expression such as ``256``, ``BLOCK*2`` or ``(1 << 8)``."""
    if depth > 8:
        return None
    expression = text.strip().replace("/", "//")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return None

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in macros:
            return _evaluate_integer_text(macros[node.id], macros, depth + 1)
        if isinstance(node, ast.BinOp) and type(node.op) in _SAFE_BINOPS:
            left, right = value(node.left), value(node.right)
            if left is None or right is None:
                return None
            try:
                return _SAFE_BINOPS[type(node.op)](left, right)
            except ZeroDivisionError:
                return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = value(node.operand)
            return None if inner is None else -inner
        return None

    return value(tree.body)


class Lowering:
    """Converts one parsed translation unit into ``ir.TranslationUnit``."""

    def __init__(self, tu: cindex.TranslationUnit, path: str, text: str, header_mode: ir.HeaderMode):
        self.tu = tu
        self.path = path
        self.text = text
        self.lines = tuple(text.splitlines())
        self.header_mode = header_mode
        self.sources = _Sources(path, text)
        self.records: dict[str, ir.Record] = {}
        self._types: dict[tuple[str, str], ir.CType] = {}
        self._functions: dict[str, ir.Function] = {}
        self._pending_instantiations: list[cindex.Cursor] = []
        self.launches: list[ir.LaunchSite] = []
        self._current_function: str | None = None
        self._macros = self._collect_macros()
        self._token_offsets: list[int] = []
        self._tokens: list[tuple[int, int, str, cindex.TokenKind]] = []
        self._comments: list[ir.Comment] = []
        self._scan_tokens()

    # ------------------------------------------------------------------ entry point

    def run(self) -> ir.TranslationUnit:
        globals_: list[ir.VarDecl] = []
        for cursor in self.tu.cursor.get_children():
            self._top_level(cursor, globals_)
        while self._pending_instantiations:
            cursor = self._pending_instantiations.pop()
            self._function(cursor, instantiation=True)
        return ir.TranslationUnit(
            path=self.path,
            header_mode=self.header_mode,
            functions=tuple(self._functions.values()),
            globals=tuple(globals_),
            launches=tuple(self.launches),
            records=self.records,
            comments=tuple(self._comments),
            diagnostics=self._diagnostics(),
            source_lines=self.lines,
        )

    def _in_user_code(self, cursor: cindex.Cursor) -> bool:
        location = cursor.location
        return location.file is not None and not location.is_in_system_header

    def _top_level(self, cursor: cindex.Cursor, globals_: list[ir.VarDecl]) -> None:
        if not self._in_user_code(cursor):
            return
        kind = cursor.kind
        if kind in (CK.NAMESPACE, CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL):
            for child in cursor.get_children():
                self._top_level(child, globals_)
        elif kind in (CK.FUNCTION_DECL, CK.FUNCTION_TEMPLATE, CK.CXX_METHOD):
            if cursor.is_definition():
                self._function(cursor, instantiation=False)
        elif kind in (CK.STRUCT_DECL, CK.CLASS_DECL, CK.CLASS_TEMPLATE):
            for child in cursor.get_children():
                if child.kind in (CK.CXX_METHOD, CK.FUNCTION_TEMPLATE) and child.is_definition():
                    self._function(child, instantiation=False)
        elif kind == CK.VAR_DECL:
            globals_.append(self._var_decl(cursor, at_namespace_scope=True))

    # ------------------------------------------------------------------ tokens & text

    def _scan_tokens(self) -> None:
        main = self.tu.get_file(self.path)
        start = cindex.SourceLocation.from_offset(self.tu, main, 0)
        end = cindex.SourceLocation.from_offset(self.tu, main, len(self.text.encode("utf-8")))
        for token in self.tu.get_tokens(extent=cindex.SourceRange.from_locations(start, end)):
            extent = token.extent
            begin_offset = extent.start.offset
            if token.kind == cindex.TokenKind.COMMENT:
                self._comments.append(ir.Comment(extent.start.line, extent.start.column, token.spelling))
            self._tokens.append((begin_offset, extent.end.offset, token.spelling, token.kind))
        self._token_offsets = [t[0] for t in self._tokens]

    def _tokens_between(self, start: int, end: int) -> list[str]:
        first = bisect_right(self._token_offsets, start - 1)
        result = []
        for begin, _, spelling, kind in self._tokens[first:]:
            if begin >= end:
                break
            if kind != cindex.TokenKind.COMMENT:
                result.append(spelling)
        return result

    def _collect_macros(self) -> dict[str, str]:
        macros = {}
        for line in self.lines:
            match = _DEFINE.match(line)
            if match:
                macros[match.group(1)] = match.group(2)
        return macros

    # ------------------------------------------------------------------ spans & types

    def _span(self, cursor: cindex.Cursor) -> ir.Span:
        extent = cursor.extent
        start, end = extent.start, extent.end
        file = start.file.name if start.file else self.path
        if start.line == 0:
            location = cursor.location
            file = location.file.name if location.file else file
            return ir.Span(file, location.line, location.column, location.line, location.column)
        spelling = None
        spelled_file, line, column, _ = clang_ext.spelling_location(cursor.location)
        location = cursor.location
        if spelled_file and (spelled_file, line, column) != (
            location.file.name if location.file else None, location.line, location.column
        ):
            spelling = ir.Position(spelled_file, line, column)
        end_line, end_column = end.line, end.column
        if (end_line, end_column) < (start.line, start.column):
            end_line, end_column = start.line, start.column
        column = self._character_column(file, start.line, start.column)
        end_column = self._character_column(file, end_line, end_column)
        return ir.Span(file, start.line, column, end_line, end_column, spelling)

    def _character_column(self, file: str, line: int, byte_column: int) -> int:
        """clang counts bytes; reports count characters (they differ after non-ASCII text)."""
        if file != self.path or not 0 < line <= len(self.lines):
            return byte_column
        text = self.lines[line - 1]
        if text.isascii():
            return byte_column
        return len(text.encode("utf-8")[: byte_column - 1].decode("utf-8", errors="ignore")) + 1

    def ctype(self, cx_type: cindex.Type) -> ir.CType:
        key = (cx_type.spelling, cx_type.get_canonical().spelling)
        cached = self._types.get(key)
        if cached is not None:
            return cached
        # Placeholder breaks cycles through self-referential records.
        self._types[key] = _UNKNOWN_TYPE
        result = self._build_type(cx_type)
        self._types[key] = result
        return result

    def _build_type(self, cx_type: cindex.Type) -> ir.CType:
        canonical = cx_type.get_canonical()
        kind = canonical.kind
        size = align = -1
        # Layout queries on dependent or error-recovery types abort inside libclang.
        if kind in _LAYOUT_KINDS:
            size = canonical.get_size()
            align = canonical.get_align()
        common = dict(
            spelling=cx_type.spelling,
            size=size if size >= 0 else None,
            align=align if align >= 0 else None,
            is_const=cx_type.is_const_qualified(),
        )
        if kind in _INTEGER_KINDS:
            return ir.CType(ir.TypeKind.INTEGER, is_signed=_INTEGER_KINDS[kind], **common)
        if kind in _SIMPLE_KINDS:
            return ir.CType(_SIMPLE_KINDS[kind], **common)
        if kind == TK.POINTER:
            return ir.CType(ir.TypeKind.POINTER, pointee=self.ctype(canonical.get_pointee()), **common)
        if kind in (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE):
            return ir.CType(ir.TypeKind.REFERENCE, pointee=self.ctype(canonical.get_pointee()), **common)
        if kind in _ARRAY_KINDS:
            count = canonical.get_array_size() if kind == TK.CONSTANTARRAY else None
            return ir.CType(ir.TypeKind.ARRAY, pointee=self.ctype(canonical.get_array_element_type()),
                            count=count if count is not None and count >= 0 else None, **common)
        if kind == TK.RECORD:
            name = canonical.get_declaration().type.get_canonical().spelling
            if name not in self.records:
                self.records[name] = ir.Record(name, common["size"], common["align"], ())
                fields = []
                for field in canonical.get_fields():
                    offset = field.get_field_offsetof()
                    fields.append(ir.Field(
                        field.spelling,
                        offset // 8 if offset >= 0 and not field.is_bitfield() else None,
                        self.ctype(field.type),
                    ))
                self.records[name] = ir.Record(name, common["size"], common["align"], tuple(fields))
            return ir.CType(ir.TypeKind.RECORD, record=name, **common)
        if kind == TK.UNEXPOSED and ("type-parameter" in canonical.spelling or "<dependent" in canonical.spelling):
            return ir.CType(ir.TypeKind.DEPENDENT, **common)
        return ir.CType(ir.TypeKind.OTHER, **common)

    # ------------------------------------------------------------------ declarations

    def _decl_id(self, cursor: cindex.Cursor) -> str:
        usr = cursor.get_usr()
        if usr:
            return usr
        location = cursor.location
        return f"{location.file.name if location.file else ''}:{location.offset}:{cursor.spelling}"

    def _function_id(self, cursor: cindex.Cursor) -> str:
        args = self._template_args(cursor)
        base = self._decl_id(cursor)
        if args:
            return base + "<" + ",".join(str(a.value) for a in args) + ">"
        return base

    def _template_args(self, cursor: cindex.Cursor) -> tuple[ir.TemplateArg, ...]:
        count = cursor.get_num_template_arguments()
        args = []
        for index in range(max(count, 0)):
            kind = cursor.get_template_argument_kind(index)
            if kind == cindex.TemplateArgumentKind.TYPE:
                args.append(ir.TemplateArg("type", cursor.get_template_argument_type(index).spelling))
            elif kind == cindex.TemplateArgumentKind.INTEGRAL:
                args.append(ir.TemplateArg("integral", cursor.get_template_argument_value(index)))
            else:
                args.append(ir.TemplateArg("other", "?"))
        return tuple(args)

    def _function_kind(self, cursor: cindex.Cursor) -> ir.FunctionKind:
        attrs = {child.kind for child in cursor.get_children() if child.kind.is_attribute()}
        if CK.CUDAGLOBAL_ATTR in attrs:
            return ir.FunctionKind.KERNEL
        if CK.CUDADEVICE_ATTR in attrs:
            return ir.FunctionKind.HOST_DEVICE if CK.CUDAHOST_ATTR in attrs else ir.FunctionKind.DEVICE
        return ir.FunctionKind.HOST

    def _qualified_name(self, cursor: cindex.Cursor) -> str:
        parts = [cursor.spelling]
        parent = cursor.semantic_parent
        while parent is not None and parent.kind in (CK.NAMESPACE, CK.STRUCT_DECL, CK.CLASS_DECL, CK.CLASS_TEMPLATE):
            parts.append(parent.spelling or "(anonymous)")
            parent = parent.semantic_parent
        return "::".join(reversed(parts))

    def _attribute_calls(self, cursor: cindex.Cursor) -> dict[str, list[str]]:
        """``__launch_bounds__(...)``/``__maxnreg__(...)`` arguments, read from the tokens."""
        extent = cursor.extent
        if extent.start.file is None or extent.start.file.name != self.path:
            return {}
        body_start = extent.end.offset
        for child in cursor.get_children():
            if child.kind == CK.COMPOUND_STMT:
                body_start = child.extent.start.offset
        tokens = self._tokens_between(extent.start.offset, body_start)
        # The attribute may precede the extent clang reports (it starts at the return type).
        line_start = self.sources.data(self.path).rfind(b"\n", 0, max(extent.start.offset - 1, 0))
        tokens = self._tokens_between(max(line_start, 0), extent.start.offset) + tokens
        found: dict[str, list[str]] = {}
        for index, token in enumerate(tokens):
            if token in ("__launch_bounds__", "__maxnreg__") and index + 1 < len(tokens) and tokens[index + 1] == "(":
                depth, current, args = 0, [], []
                for inner in tokens[index + 1:]:
                    if inner == "(":
                        depth += 1
                        if depth == 1:
                            continue
                    elif inner == ")":
                        depth -= 1
                        if depth == 0:
                            args.append(" ".join(current))
                            break
                    elif inner == "," and depth == 1:
                        args.append(" ".join(current))
                        current = []
                        continue
                    current.append(inner)
                found[token] = args
        return found

    def _function(self, cursor: cindex.Cursor, instantiation: bool) -> None:
        function_id = self._function_id(cursor)
        if function_id in self._functions:
            return
        is_pattern = cursor.kind == CK.FUNCTION_TEMPLATE
        kind = self._function_kind(cursor)
        attributes = self._attribute_calls(cursor)
        if not attributes and cursor.canonical != cursor:
            attributes = self._attribute_calls(cursor.canonical)
        bounds = None
        if "__launch_bounds__" in attributes:
            values = [_evaluate_integer_text(a, self._macros) for a in attributes["__launch_bounds__"]]
            values += [None] * (3 - len(values))
            bounds = ir.LaunchBounds(values[0], values[1], values[2], ", ".join(attributes["__launch_bounds__"]))
        max_registers = None
        if attributes.get("__maxnreg__"):
            max_registers = _evaluate_integer_text(attributes["__maxnreg__"][0], self._macros)
        previous = self._current_function
        self._current_function = function_id
        params = tuple(
            self._var_decl(child, parameter=True) for child in cursor.get_children() if child.kind == CK.PARM_DECL
        )
        body = None
        for child in cursor.get_children():
            if child.kind == CK.COMPOUND_STMT:
                body = self._stmt(child)
        self._current_function = previous
        location = cursor.location
        self._functions[function_id] = ir.Function(
            name=cursor.spelling,
            qualified_name=self._qualified_name(cursor),
            decl=function_id,
            kind=kind,
            return_type=self.ctype(cursor.result_type),
            params=params,
            span=self._span(cursor),
            body=body,
            launch_bounds=bounds,
            max_registers=max_registers,
            template_args=self._template_args(cursor) if instantiation else (),
            is_template_pattern=is_pattern,
            in_main_file=location.file is not None and location.file.name == self.path,
        )

    def _storage(self, cursor: cindex.Cursor, parameter: bool, at_namespace_scope: bool) -> ir.StorageClass:
        if parameter:
            return ir.StorageClass.PARAMETER
        attrs = {child.kind for child in cursor.get_children() if child.kind.is_attribute()}
        if CK.CUDASHARED_ATTR in attrs:
            return ir.StorageClass.SHARED
        if CK.CUDACONSTANT_ATTR in attrs:
            return ir.StorageClass.CONSTANT
        if CK.CUDADEVICE_ATTR in attrs:
            return ir.StorageClass.DEVICE
        if any(child.kind == CK.UNEXPOSED_ATTR and "managed" in (child.spelling or "") for child in cursor.get_children()):
            return ir.StorageClass.MANAGED
        if cursor.storage_class == cindex.StorageClass.STATIC:
            return ir.StorageClass.STATIC
        return ir.StorageClass.GLOBAL if at_namespace_scope else ir.StorageClass.LOCAL

    def _var_decl(self, cursor: cindex.Cursor, parameter: bool = False, at_namespace_scope: bool = False) -> ir.VarDecl:
        init_cursor = None if parameter else clang_ext.var_initializer(cursor)
        return ir.VarDecl(
            name=cursor.spelling,
            decl=self._decl_id(cursor),
            type=self.ctype(cursor.type),
            storage=self._storage(cursor, parameter, at_namespace_scope),
            span=self._span(cursor),
            init=self.expr(init_cursor) if init_cursor is not None else None,
            is_extern=cursor.storage_class == cindex.StorageClass.EXTERN,
        )

    # ------------------------------------------------------------------ statements

    def _unroll_before(self, line: int) -> ir.Unroll | None:
        index = line - 2
        while index >= 0:
            text = self.lines[index].strip() if index < len(self.lines) else ""
            match = _PRAGMA_UNROLL.match(text)
            if match:
                count = _evaluate_integer_text(match.group(1), self._macros) if match.group(1) else None
                return ir.Unroll(count)
            if text and not text.startswith(("//", "#pragma", "/*", "*")):
                return None
            index -= 1
        return None

    def _children(self, cursor: cindex.Cursor) -> list[cindex.Cursor]:
        return [c for c in cursor.get_children() if not c.kind.is_attribute() and not c.kind.is_reference()]

    def _stmt_or_expr(self, cursor: cindex.Cursor) -> ir.Stmt:
        if cursor.kind.is_expression():
            return ir.Stmt(ir.StmtKind.EXPR, self._span(cursor), expr=self.expr(cursor))
        if cursor.kind == CK.VAR_DECL:
            return ir.Stmt(ir.StmtKind.DECL, self._span(cursor), decls=(self._var_decl(cursor),))
        return self._stmt(cursor)

    def _stmt(self, cursor: cindex.Cursor) -> ir.Stmt:
        kind = cursor.kind
        span = self._span(cursor)
        children = self._children(cursor)
        if kind.is_expression():
            return self._stmt_or_expr(cursor)
        if kind == CK.COMPOUND_STMT:
            return ir.Stmt(ir.StmtKind.COMPOUND, span, body=tuple(self._stmt_or_expr(c) for c in children))
        if kind == CK.DECL_STMT:
            decls = []
            for child in children:
                if child.kind == CK.VAR_DECL:
                    decls.append(self._var_decl(child))
            return ir.Stmt(ir.StmtKind.DECL, span, decls=tuple(decls))
        if kind == CK.IF_STMT:
            return self._if(span, children)
        if kind == CK.FOR_STMT:
            return self._for(cursor, span, children)
        if kind == CK.WHILE_STMT:
            cond, body = self._condition_and_body(children)
            return ir.Stmt(ir.StmtKind.WHILE, span, cond=cond, body=body, unroll=self._unroll_before(span.line))
        if kind == CK.DO_STMT:
            body = tuple(self._stmt_or_expr(c) for c in children[:1])
            cond = self.expr(children[1]) if len(children) > 1 else None
            return ir.Stmt(ir.StmtKind.DO, span, cond=cond, body=body, unroll=self._unroll_before(span.line))
        if kind == CK.SWITCH_STMT:
            cond, body = self._condition_and_body(children)
            return ir.Stmt(ir.StmtKind.SWITCH, span, cond=cond, body=body)
        if kind == CK.CASE_STMT:
            value = self.expr(children[0]) if children else None
            return ir.Stmt(ir.StmtKind.CASE, span, expr=value, body=tuple(self._stmt_or_expr(c) for c in children[1:]))
        if kind == CK.DEFAULT_STMT:
            return ir.Stmt(ir.StmtKind.DEFAULT, span, body=tuple(self._stmt_or_expr(c) for c in children))
        if kind == CK.BREAK_STMT:
            return ir.Stmt(ir.StmtKind.BREAK, span)
        if kind == CK.CONTINUE_STMT:
            return ir.Stmt(ir.StmtKind.CONTINUE, span)
        if kind == CK.RETURN_STMT:
            return ir.Stmt(ir.StmtKind.RETURN, span, expr=self.expr(children[0]) if children else None)
        if kind == CK.GOTO_STMT:
            return ir.Stmt(ir.StmtKind.GOTO, span, label=next((c.spelling for c in cursor.get_children()), None))
        if kind == CK.LABEL_STMT:
            return ir.Stmt(ir.StmtKind.LABEL, span, label=cursor.spelling, body=tuple(self._stmt_or_expr(c) for c in children))
        if kind == CK.NULL_STMT:
            return ir.Stmt(ir.StmtKind.NULL, span)
        if kind in (CK.ASM_STMT, CK.MS_ASM_STMT):
            return ir.Stmt(ir.StmtKind.ASM, span, label=" ".join(self._tokens_between(cursor.extent.start.offset, cursor.extent.end.offset)))
        if kind == CK.UNEXPOSED_STMT and len(children) == 1 and not children[0].kind.is_expression():
            # An attributed statement (``#pragma unroll`` on a loop) wraps the statement itself.
            return self._stmt(children[0])
        return ir.Stmt(ir.StmtKind.UNKNOWN, span, body=tuple(self._stmt_or_expr(c) for c in children))

    def _condition_and_body(self, children: list[cindex.Cursor]) -> tuple[ir.Expr | None, tuple[ir.Stmt, ...]]:
        cond = None
        body: list[ir.Stmt] = []
        for child in children:
            if child.kind.is_expression() and not body and child is not children[-1]:
                cond = self.expr(child)
            elif child.kind == CK.VAR_DECL and not body:
                var = self._var_decl(child)
                cond = var.init
            else:
                body.append(self._stmt_or_expr(child))
        return cond, tuple(body)

    def _if(self, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
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
            elif cond is None and child.kind.is_expression() and remaining >= 2:
                cond = self.expr(child)
            elif cond is None and child.kind.is_statement() and remaining > 2:
                init = self._stmt_or_expr(child)
            else:
                branches.append(self._stmt_or_expr(child))
        return ir.Stmt(
            ir.StmtKind.IF, span, cond=cond, init=init,
            body=tuple(branches[:1]), orelse=branches[1] if len(branches) > 1 else None,
        )

    def _for(self, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        # Every clause is optional, so place each child by where it sits relative to the
        # header's two semicolons.
        extent = cursor.extent
        first = bisect_right(self._token_offsets, extent.start.offset - 1)
        semicolons: list[int] = []
        close_paren = None
        depth = 0
        for begin, _, spelling, kind in self._tokens[first:]:
            if begin >= extent.end.offset or kind == cindex.TokenKind.COMMENT:
                if begin >= extent.end.offset:
                    break
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
        if len(semicolons) == 2 and close_paren is not None and extent.start.file and extent.start.file.name == self.path:
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
        return ir.Stmt(ir.StmtKind.FOR, span, init=init, cond=cond, step=step, body=tuple(body),
                       unroll=self._unroll_before(span.line))

    # ------------------------------------------------------------------ expressions

    def _expr_children(self, cursor: cindex.Cursor) -> list[cindex.Cursor]:
        return [c for c in cursor.get_children() if c.kind.is_expression()]

    def expr(self, cursor: cindex.Cursor) -> ir.Expr:
        kind = cursor.kind
        while kind in _TRANSPARENT_EXPRS:
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
        return ir.Expr(kind=kind, type=self.ctype(cursor.type), span=self._span(cursor), children=tuple(children), **fields)

    def _unknown(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(cursor, ir.ExprKind.UNKNOWN, [self.expr(c) for c in self._expr_children(cursor)],
                          name=cursor.kind.name.lower())

    def _literal_text(self, cursor: cindex.Cursor, pattern: re.Pattern) -> str | None:
        file, _, _, offset = clang_ext.spelling_location(cursor.location)
        return self.sources.literal_at(file, offset, pattern)

    def _integer_literal(self, cursor: cindex.Cursor) -> ir.Expr:
        text = self._literal_text(cursor, _INT_LITERAL)
        value = _parse_int_literal(text) if text else None
        if value is None:
            value = clang_ext.evaluate(cursor)
        return self._node(cursor, ir.ExprKind.INT_LITERAL, value=value, text=text)

    def _floating_literal(self, cursor: cindex.Cursor) -> ir.Expr:
        text = self._literal_text(cursor, _FLOAT_LITERAL)
        value = _parse_float_literal(text) if text else None
        if value is None:
            value = clang_ext.evaluate(cursor)
        return self._node(cursor, ir.ExprKind.FLOAT_LITERAL, value=value, text=text)

    def _bool_literal(self, cursor: cindex.Cursor) -> ir.Expr:
        tokens = [t.spelling for t in cursor.get_tokens()]
        return self._node(cursor, ir.ExprKind.BOOL_LITERAL, value=tokens[:1] == ["true"], text=tokens[0] if tokens else None)

    def _decl_ref(self, cursor: cindex.Cursor) -> ir.Expr:
        referenced = cursor.referenced
        inner = self._expr_children(cursor)
        if referenced is None and len(inner) == 1:
            # A substituted non-type template parameter: the value is the child.
            return self.expr(inner[0])
        if referenced is not None and referenced.kind == CK.TEMPLATE_NON_TYPE_PARAMETER and len(inner) == 1:
            return self.expr(inner[0])
        decl = self._decl_id(referenced) if referenced is not None else None
        value = None
        if referenced is not None and referenced.kind == CK.ENUM_CONSTANT_DECL:
            value = referenced.enum_value
        return self._node(cursor, ir.ExprKind.DECL_REF, name=cursor.spelling, decl=decl, value=value)

    def _member(self, cursor: cindex.Cursor) -> ir.Expr:
        inner = self._expr_children(cursor)
        if len(inner) == 1 and inner[0].kind == CK.DECL_REF_EXPR and inner[0].spelling in _BUILTIN_VARIABLES:
            tokens = [t.spelling for t in cursor.get_tokens()]
            member = tokens[-1] if tokens else cursor.spelling
            if member in ("x", "y", "z") or cursor.spelling in ("x", "y", "z"):
                return ir.Expr(ir.ExprKind.BUILTIN_INDEX, _UNSIGNED_INT, self._span(cursor),
                               name=inner[0].spelling, member=cursor.spelling or member)
        base = [self.expr(c) for c in inner]
        arrow = bool(base) and base[0].type.kind is ir.TypeKind.POINTER
        referenced = cursor.referenced
        return self._node(cursor, ir.ExprKind.MEMBER, base, op="->" if arrow else ".", name=cursor.spelling,
                          decl=self._decl_id(referenced) if referenced is not None else None)

    def _subscript(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(cursor, ir.ExprKind.SUBSCRIPT, [self.expr(c) for c in self._expr_children(cursor)])

    def _binary(self, cursor: cindex.Cursor) -> ir.Expr:
        op = clang_ext.binary_operator(cursor)
        children = [self.expr(c) for c in self._expr_children(cursor)]
        kind = ir.ExprKind.ASSIGN if op and op.endswith("=") and op not in ("==", "!=", "<=", ">=") else ir.ExprKind.BINARY
        return self._node(cursor, kind, children, op=op)

    def _unary(self, cursor: cindex.Cursor) -> ir.Expr:
        return self._node(cursor, ir.ExprKind.UNARY, [self.expr(c) for c in self._expr_children(cursor)],
                          op=clang_ext.unary_operator(cursor))

    def _unary_expr(self, cursor: cindex.Cursor) -> ir.Expr:
        value = clang_ext.evaluate(cursor)
        tokens = [t.spelling for t in cursor.get_tokens()]
        return self._node(cursor, ir.ExprKind.SIZEOF, [self.expr(c) for c in self._expr_children(cursor)],
                          op=tokens[0] if tokens else None, value=value)

    def _call(self, cursor: cindex.Cursor) -> ir.Expr:
        referenced = cursor.referenced
        children = list(cursor.get_children())
        config = next((c for c in children if c.kind == CK.CALL_EXPR and c.spelling == "__cudaPushCallConfiguration"), None)
        arguments = [self.expr(a) for a in cursor.get_arguments()]
        decl = None
        if referenced is not None:
            decl = self._function_id(referenced)
            if referenced.get_num_template_arguments() > 0 and referenced.is_definition() is False:
                definition = referenced.get_definition()
                if definition is not None:
                    referenced = definition
            if (referenced.get_num_template_arguments() > 0 and referenced.kind in (CK.FUNCTION_DECL, CK.CXX_METHOD)
                    and decl not in self._functions):
                self._pending_instantiations.append(referenced)
        op = "construct" if referenced is not None and referenced.kind == CK.CONSTRUCTOR else None
        node = self._node(cursor, ir.ExprKind.CALL, arguments, name=cursor.spelling, decl=decl, op=op)
        if config is not None:
            self._launch(cursor, node, config)
        return node

    def _launch(self, cursor: cindex.Cursor, call: ir.Expr, config: cindex.Cursor) -> None:
        config_args = [self.expr(a) for a in config.get_arguments()]
        config_args += [None] * (4 - len(config_args))
        self.launches.append(ir.LaunchSite(
            kernel=call.decl or call.name or "",
            kernel_name=call.name or "",
            grid=config_args[0],
            block=config_args[1],
            shared_bytes=config_args[2],
            span=call.span,
            caller=self._current_function,
        ))

    def _cast(self, cursor: cindex.Cursor) -> ir.Expr:
        operands = self._expr_children(cursor)
        children = [self.expr(operands[-1])] if operands else []
        return self._node(cursor, ir.ExprKind.CAST, children, cast=_CASTS[cursor.kind])

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
            return ir.Expr(ir.ExprKind.CAST, own, self._span(cursor), (child,), cast=ir.CastKind.IMPLICIT)
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
        return self._node(cursor, ir.ExprKind.LAMBDA)

    # ------------------------------------------------------------------ diagnostics

    def _diagnostics(self) -> tuple[ir.ParseDiagnostic, ...]:
        result = []
        for diagnostic in self.tu.diagnostics:
            if diagnostic.severity < cindex.Diagnostic.Error:
                continue
            location = diagnostic.location
            span = None
            if location.file is not None:
                span = ir.Span(location.file.name, location.line, location.column, location.line, location.column)
            result.append(ir.ParseDiagnostic(ir.Severity.ERROR, diagnostic.spelling, span))
        return tuple(result)


def _token_literal(kind: ir.ExprKind):
    def handler(self: Lowering, cursor: cindex.Cursor) -> ir.Expr:
        tokens = [t.spelling for t in cursor.get_tokens()]
        text = tokens[0] if len(tokens) == 1 else None
        return self._node(cursor, kind, value=text, text=text)
    return handler


_EXPR_HANDLERS = {
    CK.INTEGER_LITERAL: Lowering._integer_literal,
    CK.FLOATING_LITERAL: Lowering._floating_literal,
    CK.CXX_BOOL_LITERAL_EXPR: Lowering._bool_literal,
    CK.CHARACTER_LITERAL: _token_literal(ir.ExprKind.CHAR_LITERAL),
    CK.STRING_LITERAL: _token_literal(ir.ExprKind.STRING_LITERAL),
    CK.CXX_NULL_PTR_LITERAL_EXPR: _token_literal(ir.ExprKind.NULLPTR),
    CK.DECL_REF_EXPR: Lowering._decl_ref,
    CK.MEMBER_REF_EXPR: Lowering._member,
    CK.ARRAY_SUBSCRIPT_EXPR: Lowering._subscript,
    CK.BINARY_OPERATOR: Lowering._binary,
    CK.COMPOUND_ASSIGNMENT_OPERATOR: Lowering._binary,
    CK.UNARY_OPERATOR: Lowering._unary,
    CK.CXX_UNARY_EXPR: Lowering._unary_expr,
    CK.CALL_EXPR: Lowering._call,
    CK.UNEXPOSED_EXPR: Lowering._unexposed,
    CK.CONDITIONAL_OPERATOR: Lowering._conditional,
    CK.INIT_LIST_EXPR: Lowering._init_list,
    CK.LAMBDA_EXPR: Lowering._lambda,
    **{kind: Lowering._cast for kind in _CASTS},
}
