"""Declarations: ids of declarations and instantiations, template arguments, function
kinds and attributes (``__launch_bounds__``, ``__maxnreg__``), functions with their
parameters and bodies, variables with their storage and initializers."""

from __future__ import annotations

import re

from clang import cindex
from clang.cindex import CursorKind as CK

from cudalint import ir
from cudalint.frontend import clang_ext, literals
from cudalint.frontend.lower.common import NOWHERE

_TEMPLATE_PARAMETERS = (CK.TEMPLATE_TYPE_PARAMETER, CK.TEMPLATE_NON_TYPE_PARAMETER, CK.TEMPLATE_TEMPLATE_PARAMETER)

# ------------------------------------------------------------------ declarations


class Declarations:
    """How the lowering names declarations and lowers functions and variables."""

    def _decl_id(self, cursor: cindex.Cursor) -> str:
        usr = cursor.get_usr()
        if usr and "@Sa" in usr:
            # Unnamed classes, lambdas' among them, of one template instantiation share a USR.
            return f"{usr}@{cursor.location.offset}"
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
            try:
                kind = cursor.get_template_argument_kind(index)
            except ValueError:  # Packs and expressions: kinds the Python bindings do not name.
                args.append(ir.TemplateArg("other", "..."))
                continue
            if kind == cindex.TemplateArgumentKind.TYPE:
                args.append(ir.TemplateArg("type", cursor.get_template_argument_type(index).spelling))
            elif kind == cindex.TemplateArgumentKind.INTEGRAL:
                args.append(ir.TemplateArg("integral", _integral_argument(cursor, index)))
            else:
                args.append(ir.TemplateArg("other", "?"))
        return tuple(args)

    def _template_bindings(self, cursor: cindex.Cursor) -> dict[str, str]:
        """Integral template arguments of an instantiation, by parameter name."""
        pattern = clang_ext.specialized_template(cursor)
        if pattern is None:
            return {}
        parameters = [c for c in pattern.get_children() if c.kind in _TEMPLATE_PARAMETERS]
        return {
            parameter.spelling: str(argument.value)
            for parameter, argument in zip(parameters, self._template_args(cursor), strict=False)
            if argument.kind == "integral" and parameter.kind == CK.TEMPLATE_NON_TYPE_PARAMETER
        }

    def _function_kind(self, cursor: cindex.Cursor, children: list[cindex.Cursor] | None = None) -> ir.FunctionKind:
        """``children``: the function's, when the caller has them already."""
        attributes = clang_ext.kind_ids("is_attribute")
        attrs = {child.kind for child in children or cursor.get_children() if child._kind_id in attributes}
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

    def _declaration_tokens(self, cursor: cindex.Cursor) -> list[str]:
        """The tokens of a declaration up to its body, with attributes written before it on its line
        (clang's extent starts at the type, after ``__managed__`` or ``__launch_bounds__``)."""
        extent = cursor.extent
        view = self._view(clang_ext.file_name(extent.start.file))
        if view is None:
            return [t.spelling for t in cursor.get_tokens()]
        end = extent.end.offset
        for child in cursor.get_children():
            if child.kind == CK.COMPOUND_STMT:
                end = child.extent.start.offset
        line_start = view.data.rfind(b"\n", 0, extent.start.offset)
        return view.tokens_between(max(line_start, 0), end)

    def _attribute_calls(self, cursor: cindex.Cursor) -> dict[str, list[str]]:
        """``__launch_bounds__(...)``/``__maxnreg__(...)`` arguments, read from the tokens."""
        if not self._may_name_attribute_calls(cursor):
            return {}
        tokens = self._declaration_tokens(cursor)
        found: dict[str, list[str]] = {}
        for index, token in enumerate(tokens):
            if token in ("__launch_bounds__", "__maxnreg__") and index + 1 < len(tokens) and tokens[index + 1] == "(":
                depth, current, args = 0, [], []
                for inner in tokens[index + 1 :]:
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

    def _may_name_attribute_calls(self, cursor: cindex.Cursor) -> bool:
        """False when the bytes from the declaration's line to its end spell neither attribute:
        most functions, whose declarations then need no tokens (a backslash-newline may split
        a name, so text that has one is tokenized)."""
        extent = cursor.extent
        file = clang_ext.file_name(extent.start.file)
        view = self._view(file)
        if view is None or clang_ext.file_name(extent.end.file) != file:
            return True
        start = max(view.data.rfind(b"\n", 0, extent.start.offset), 0)
        end = extent.end.offset
        data = view.data
        return any(data.find(text, start, end) >= 0 for text in (b"__launch_bounds__", b"__maxnreg__", b"\\"))

    def _function(self, cursor: cindex.Cursor, instantiation: bool, depth: int = 0) -> None:
        """``depth``: how deep below an entry point the calls that reached it are (``_callee_depth``)."""
        function_id = self._function_id(cursor)
        if function_id in self._functions:
            return
        is_pattern = cursor.kind == CK.FUNCTION_TEMPLATE
        children = list(cursor.get_children())
        kind = self._function_kind(cursor, children)
        name = enclosing = None
        parent = cursor.semantic_parent
        if parent is not None and parent.kind == CK.CLASS_DECL:
            # A lambda's call operator runs where the lambda was written.
            kind, name, enclosing = self._lambdas.get(self._decl_id(parent), (kind, None, None))
        if kind is ir.FunctionKind.HOST and self._unused_host_code(cursor):
            return
        attributes = self._attribute_calls(cursor)
        if not attributes and cursor.canonical != cursor:
            attributes = self._attribute_calls(cursor.canonical)
        names = self._named_integers
        written_in = clang_ext.file_name(cursor.location.file)
        if written_in is not None and written_in != self.path and (view := self._view(written_in)) is not None:
            names = {**view.macro_map.object_like_definitions(), **names}
        if instantiation:
            names = {**names, **self._template_bindings(cursor)}
        bounds = None
        if "__launch_bounds__" in attributes:
            values = [literals.evaluate_integer_text(a, names) for a in attributes["__launch_bounds__"]]
            values += [None] * (3 - len(values))
            bounds = ir.LaunchBounds(values[0], values[1], values[2], ", ".join(attributes["__launch_bounds__"]))
        max_registers = None
        if attributes.get("__maxnreg__"):
            max_registers = literals.evaluate_integer_text(attributes["__maxnreg__"][0], names)
        previous, previous_depth = self._current_function, self._depth
        self._current_function = function_id
        self._depth = 0 if kind is ir.FunctionKind.KERNEL else depth
        self._functions_in_progress.append(kind)
        params = tuple(self._var_decl(child, parameter=True) for child in children if child.kind == CK.PARM_DECL)
        body = None
        for child in children:
            if child.kind == CK.COMPOUND_STMT:
                body = self._stmt(child)
        self._functions_in_progress.pop()
        self._current_function, self._depth = previous, previous_depth
        location = cursor.location
        self._functions[function_id] = ir.Function(
            name=name or cursor.spelling,
            qualified_name=name or self._qualified_name(cursor),
            decl=function_id,
            kind=kind,
            return_type=self.ctype(cursor.result_type),
            params=params,
            span=self._span(cursor) or NOWHERE,
            body=body,
            launch_bounds=bounds,
            max_registers=max_registers,
            template_args=self._template_args(cursor) if instantiation else (),
            template_parameters=tuple(c.spelling for c in children if c.kind in _TEMPLATE_PARAMETERS)
            if is_pattern
            else (),
            is_template_pattern=is_pattern,
            in_main_file=clang_ext.file_name(location.file) == self.path,
            written_in=enclosing,
        )

    def _storage(self, cursor: cindex.Cursor, parameter: bool, at_namespace_scope: bool) -> ir.StorageClass:
        if parameter:
            return ir.StorageClass.PARAMETER
        attributes = clang_ext.kind_ids("is_attribute")
        attrs = {child.kind for child in cursor.get_children() if child._kind_id in attributes}
        if CK.CUDASHARED_ATTR in attrs:
            return ir.StorageClass.SHARED
        if CK.CUDACONSTANT_ATTR in attrs:
            return ir.StorageClass.CONSTANT
        if CK.CUDADEVICE_ATTR in attrs:
            # libclang exposes __managed__ only as its implied device attribute.
            if "__managed__" in self._declaration_tokens(cursor):
                return ir.StorageClass.MANAGED
            return ir.StorageClass.DEVICE
        if cursor.storage_class == cindex.StorageClass.STATIC:
            return ir.StorageClass.STATIC
        return ir.StorageClass.GLOBAL if at_namespace_scope else ir.StorageClass.LOCAL

    def _var_decl(self, cursor: cindex.Cursor, parameter: bool = False, at_namespace_scope: bool = False) -> ir.VarDecl:
        init_cursor = None if parameter else clang_ext.var_initializer(cursor)
        if at_namespace_scope and init_cursor is not None and init_cursor.kind == CK.INIT_LIST_EXPR:
            # A table's elements are data, not code any thread runs, and generated tables
            # run to megabytes: the analysis reads only scalar constants of globals.
            init_cursor = None
        declared = self.ctype(cursor.type)
        if init_cursor is not None and declared.is_const and declared.kind is ir.TypeKind.INTEGER:
            value = clang_ext.evaluate(cursor)
            if isinstance(value, int):
                self._named_integers[cursor.spelling] = str(value)
        return ir.VarDecl(
            name=cursor.spelling,
            decl=self._decl_id(cursor),
            type=_decayed(declared) if parameter else declared,
            storage=self._storage(cursor, parameter, at_namespace_scope),
            span=self._span(cursor) or NOWHERE,
            init=self.expr(init_cursor) if init_cursor is not None else None,
            is_extern=cursor.storage_class == cindex.StorageClass.EXTERN,
        )


def _integral_argument(cursor: cindex.Cursor, index: int) -> int:
    """An integral template argument's value. libclang sign-extends it: a ``bool`` argument
    ``true`` (one bit, set) reads as -1 signed and 1 unsigned; its value is 1."""
    value = cursor.get_template_argument_value(index)
    if value == -1 and cursor.get_template_argument_unsigned_value(index) == 1:
        return 1
    return value


def _decayed(parameter_type: ir.CType) -> ir.CType:
    """A parameter written as an array is a pointer to its element (``float g[2][3]`` is ``float (*)[3]``)."""
    element = parameter_type.pointee
    if parameter_type.kind is not ir.TypeKind.ARRAY or element is None:
        return parameter_type
    if element.kind is ir.TypeKind.ARRAY:
        spelling = re.sub(r"\s*\[[^\]]*\]", " (*)", parameter_type.spelling, count=1)
    else:
        spelling = f"{element.spelling} *"
    return ir.CType(ir.TypeKind.POINTER, spelling, 8, 8, pointee=element)
