"""Lowering: libclang cursors -> cudalint IR."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from clang import cindex
from clang.cindex import CursorKind as CK
from clang.cindex import TypeKind as TK

from cudalint import interruptions, ir
from cudalint.frontend import clang_ext, literals, recovery
from cudalint.frontend.views import FileView

_INTEGER_KINDS = {
    TK.CHAR_U: False,
    TK.UCHAR: False,
    TK.CHAR16: False,
    TK.CHAR32: False,
    TK.USHORT: False,
    TK.UINT: False,
    TK.ULONG: False,
    TK.ULONGLONG: False,
    TK.UINT128: False,
    TK.CHAR_S: True,
    TK.SCHAR: True,
    TK.WCHAR: True,
    TK.SHORT: True,
    TK.INT: True,
    TK.LONG: True,
    TK.LONGLONG: True,
    TK.INT128: True,
}
_SIMPLE_KINDS = {
    TK.VOID: ir.TypeKind.VOID,
    TK.BOOL: ir.TypeKind.BOOL,
    TK.HALF: ir.TypeKind.HALF,
    TK.FLOAT128: ir.TypeKind.LONG_DOUBLE,
    TK.FLOAT: ir.TypeKind.FLOAT,
    TK.DOUBLE: ir.TypeKind.DOUBLE,
    TK.LONGDOUBLE: ir.TypeKind.LONG_DOUBLE,
    TK.ENUM: ir.TypeKind.ENUM,
    TK.FUNCTIONPROTO: ir.TypeKind.FUNCTION,
    TK.FUNCTIONNOPROTO: ir.TypeKind.FUNCTION,
    TK.DEPENDENT: ir.TypeKind.DEPENDENT,
}
_ARRAY_KINDS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)
_LAYOUT_KINDS = frozenset(
    (
        *_INTEGER_KINDS,
        TK.BOOL,
        TK.HALF,
        TK.FLOAT,
        TK.DOUBLE,
        TK.LONGDOUBLE,
        TK.FLOAT128,
        TK.POINTER,
        TK.LVALUEREFERENCE,
        TK.RVALUEREFERENCE,
        TK.CONSTANTARRAY,
        TK.RECORD,
        TK.ENUM,
        TK.VECTOR,
        TK.EXTVECTOR,
    )
)

_CASTS = {
    CK.CSTYLE_CAST_EXPR: ir.CastKind.C_STYLE,
    CK.CXX_FUNCTIONAL_CAST_EXPR: ir.CastKind.FUNCTIONAL,
    CK.CXX_STATIC_CAST_EXPR: ir.CastKind.STATIC,
    CK.CXX_REINTERPRET_CAST_EXPR: ir.CastKind.REINTERPRET,
    CK.CXX_CONST_CAST_EXPR: ir.CastKind.CONST,
    CK.CXX_DYNAMIC_CAST_EXPR: ir.CastKind.DYNAMIC,
}
_BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
# What a `<<<...>>>` launch calls first (clang targeting CUDA >= 9.2).
_TEMPLATE_PARAMETERS = (CK.TEMPLATE_TYPE_PARAMETER, CK.TEMPLATE_NON_TYPE_PARAMETER, CK.TEMPLATE_TEMPLATE_PARAMETER)
_LAUNCH_CONFIGURATION = "__cudaPushCallConfiguration"
_LAUNCH_FUNCTIONS = (b"cudaLaunchKernel", b"cudaLaunchCooperativeKernel")
"""The runtime's launch calls (``cudaLaunchKernelEx`` among them): ``(kernel, grid, block,
args, shared bytes, stream)``, or ``(&config, kernel, arguments...)`` for the ``Ex`` form."""
_TRANSPARENT_EXPRS = (CK.PAREN_EXPR,)
# What clang wraps the callee of an unresolved call in: an unnamed reference or an unexposed
# expression around the reference to the overload set.
_CALLEE_WRAPPERS = (CK.UNEXPOSED_EXPR, CK.DECL_REF_EXPR, CK.PAREN_EXPR)
_MEMBER_FUNCTIONS = (CK.CXX_METHOD, CK.CONVERSION_FUNCTION, CK.FUNCTION_TEMPLATE)
_CLASS_TEMPLATES = (CK.CLASS_TEMPLATE, CK.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION)
_DEVICE_CODE = (ir.FunctionKind.DEVICE, ir.FunctionKind.HOST_DEVICE)

# A macro whose body launches a kernel (`#define LAUNCH(k) k<<<grid, block>>>`).
_LAUNCH_MACRO = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[^\n]*\\\r?\n)*[^\n]*<<<", re.MULTILINE)

_UNSIGNED_INT = ir.CType(ir.TypeKind.INTEGER, "unsigned int", 4, 4, is_signed=False)
_BOOL = ir.CType(ir.TypeKind.BOOL, "bool", 1, 1)
_NOWHERE = ir.Span("", 0, 0, 0, 0)
"""Placeholder for nodes without a location until their parent anchors them."""


class _Sources:
    """File contents by path: literal text is read where clang says it is spelled."""

    def __init__(self, main_path: str, main_data: bytes, buffers: Mapping[str, bytes]):
        self._bytes: dict[str, bytes | None] = {**buffers, main_path: main_data}

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


class Lowering:
    """Converts one parsed translation unit into ``ir.TranslationUnit``."""

    def __init__(
        self,
        tu: cindex.TranslationUnit,
        path: str,
        text: str | bytes,
        header_mode: ir.HeaderMode,
        errors: tuple[ir.ParseError, ...],
        unknown_names: frozenset[str] = frozenset(),
        dependencies: tuple[str, ...] = (),
        buffers: Mapping[str, bytes] | None = None,
        own: Sequence[str] = (),
    ):
        """``path`` is the file to lower, the one ``tu`` was parsed from or one it includes;
        ``text`` its contents as clang read them.
        ``unknown_names`` were declared by ``recovery``: their uses keep the name and lose
        the made-up declaration, so that they read as unknown values.
        ``dependencies``: files the result depends on besides those ``tu`` includes.
        ``buffers``: the contents clang was given for files instead of what is on disk.
        ``own``: headers whose functions are lowered as written, as ``path``'s are (see
        ``_definition``)."""
        self.tu = tu
        self.path = path
        self.errors = errors
        self.unknown_names = unknown_names
        self.dependencies = dependencies
        self.header_mode = header_mode
        self._own_files = {path, *own}
        self.sources = _Sources(path, text if isinstance(text, bytes) else text.encode("utf-8"), buffers or {})
        self.records: dict[str, ir.Record] = {}
        self._types: dict[tuple[int, int | None], ir.CType] = {}
        self._copy_bytes: dict[str, int | None] = {}
        """By record: the widest piece a member-by-member copy moves (``ir.CType.copy_bytes``)."""
        self._functions: dict[str, ir.Function] = {}
        self._pending: list[tuple[cindex.Cursor, bool]] = []
        """Functions lowered code reached that are still to lower, each with whether it is an instantiation."""
        self._unreached: dict[str, cindex.Cursor] = {}
        """A header's inline device functions that wait for lowered code to reach them (``_definition``), by id."""
        self._reached: set[str] = set()
        """Ids of the functions lowered code called or named."""
        self.launches: list[ir.LaunchSite] = []
        self._current_function: str | None = None
        self._functions_in_progress: list[ir.FunctionKind] = []
        """Kinds of the functions being lowered, innermost last (lambdas inherit theirs)."""
        self._lambdas: dict[str, tuple[ir.FunctionKind, str, str | None]] = {}
        """The kind, name and enclosing function of each lambda's closure type met so far."""
        self._generic_lambdas: dict[str, str] = {}
        """The call operator template of each generic lambda, by its closure type."""
        self._called_closures: set[str] = set()
        """Closure types whose call operator a call here names."""
        self._locate = clang_ext.FileLocations()
        self._top_level_cursors = clang_ext.user_children(self.tu.cursor)
        # The preprocessing record lists every macro expansion among the top-level cursors.
        self._expansions: dict[str | None, list[cindex.Cursor]] = {}
        for cursor in self._top_level_cursors:
            if cursor.kind == CK.MACRO_INSTANTIATION:
                self._expansions.setdefault(self._locate(cursor.location)[0], []).append(cursor)
        self._views: dict[str, FileView | None] = {}
        self._main = self._view(path)
        self.lines = self._main.lines
        # Integer names for __launch_bounds__ and #pragma unroll arguments: the macros as this
        # parse defined them, then constexpr variables as they are declared.
        self._named_integers: dict[str, str] = self._main.macro_map.object_like_definitions()
        self._builtin_members_seen: dict[tuple[str | None, int], int] = {}
        self._noreturn: dict[str, bool] = {}

    # ------------------------------------------------------------------ entry point

    def run(self) -> ir.TranslationUnit:
        globals_: list[ir.VarDecl] = []
        for cursor in self._top_level_cursors:
            interruptions.checkpoint()
            self._top_level(cursor, globals_)
        while self._pending:
            self._function(*self._pending.pop())
        for closure in self._called_closures & self._generic_lambdas.keys():
            # Its calls' instantiations hold the concrete `auto` arguments; the pattern would
            # be analyzed as a function nothing calls.
            self._functions.pop(self._generic_lambdas[closure], None)
        return ir.TranslationUnit(
            path=self.path,
            header_mode=self.header_mode,
            functions=tuple(self._functions.values()),
            globals=tuple(globals_),
            launches=tuple(self.launches),
            records=self.records,
            comments=tuple(self._main.comments),
            errors=self.errors,
            source_lines=self.lines,
            includes=tuple(sorted(set(self._included_files) - {recovery.UNKNOWNS_HEADER} | set(self.dependencies))),
            headers=tuple(
                view.source_file()
                for name, view in sorted(self._views.items())
                if view is not None and name != self.path
            ),
        )

    @functools.cached_property
    def _included_files(self) -> list[str]:
        return [clang_ext.file_name(inclusion.include) for inclusion in self.tu.get_includes()]

    @functools.cached_property
    def _launch_macros(self) -> tuple[bytes, ...]:
        """Names of the macros of the translation unit whose body launches a kernel."""
        names: set[bytes] = set()
        for path in (self.path, *self._included_files):
            data = self.sources.data(path) or b""
            if b"<<<" in data:
                names.update(_LAUNCH_MACRO.findall(data))
        return tuple(names)

    def _cursor_text(self, cursor: cindex.Cursor) -> bytes | None:
        extent = cursor.extent
        data = self.sources.data(clang_ext.file_name(extent.start.file))
        return None if data is None else data[extent.start.offset : extent.end.offset]

    def _launches(self, text: bytes) -> bool:
        return (
            b"<<<" in text
            or any(name in text for name in _LAUNCH_FUNCTIONS)
            or any(name in text for name in self._launch_macros)
        )

    @functools.cached_property
    def _launching_templates(self) -> re.Pattern[bytes] | None:
        """The names of the kernel templates, and of the host functions and function templates
        that launch a kernel or name a kernel template, directly or through another such
        function (a launch wrapper), as one pattern (None: there are none). A kernel template
        launched only from a host template, or handed as a function pointer to a launch wrapper
        (``kernel_t k = tile<D, 4>;``), is instantiated where the host template is, and the
        values a wrapper launches with come from its callers: code that mentions one must be
        lowered too."""
        texts: dict[bytes, bytes] = {}
        kernel_templates: set[bytes] = set()
        pending = list(self._top_level_cursors)
        while pending:
            cursor = pending.pop()
            if cursor.kind in (CK.NAMESPACE, CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL):
                pending.extend(cursor.get_children())
            elif (
                cursor.kind in (CK.FUNCTION_TEMPLATE, CK.FUNCTION_DECL)
                and cursor.is_definition()
                and self._in_user_code(cursor)
            ):
                name = cursor.spelling.encode()
                texts[name] = texts.get(name, b"") + (self._cursor_text(cursor) or b"")
                if any(child.kind == CK.CUDAGLOBAL_ATTR for child in cursor.get_children()):
                    kernel_templates.add(name)
        launching = {name for name, text in texts.items() if self._launches(text)} | kernel_templates
        while launching:
            mentions = _mentions(launching)
            callers = {name for name, text in texts.items() if name not in launching and mentions.search(text)}
            if not callers:
                return mentions
            launching |= callers
        return None

    def _unused_host_code(self, cursor: cindex.Cursor) -> bool:
        """Host code that neither launches a kernel (itself or through a host template that
        does) nor holds a device lambda: the analysis reads nothing of it, and in host-heavy
        headers it is most of what there is to lower."""
        text = self._cursor_text(cursor)
        if text is None:
            return False
        launchers = self._launching_templates
        return not (self._launches(text) or b"__device__" in text or (launchers is not None and launchers.search(text)))

    def _in_user_code(self, cursor: cindex.Cursor) -> bool:
        location = cursor.location
        # The system-header test is cheap; asking for the file is not, and the CUDA headers
        # put thousands of declarations before the user's.
        return not location.is_in_system_header and location.file is not None

    def _top_level(self, cursor: cindex.Cursor, globals_: list[ir.VarDecl]) -> None:
        if not self._in_user_code(cursor):
            return
        kind = cursor.kind
        if kind in (CK.NAMESPACE, CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL):
            for child in cursor.get_children():
                self._top_level(child, globals_)
        elif kind in (CK.FUNCTION_DECL, CK.FUNCTION_TEMPLATE, CK.CXX_METHOD):
            if cursor.is_definition():
                self._definition(cursor)
            elif cursor.get_num_template_arguments() > 0:
                # `template __global__ void k<8>(...);`: an explicit instantiation.
                definition = cursor.get_definition()
                if definition is not None:
                    self._function(definition, instantiation=True)
        elif kind in (CK.STRUCT_DECL, CK.CLASS_DECL, CK.CLASS_TEMPLATE):
            for child in cursor.get_children():
                if child.kind in _MEMBER_FUNCTIONS and child.is_definition():
                    self._definition(child)
        elif kind == CK.VAR_DECL:
            globals_.append(self._var_decl(cursor, at_namespace_scope=True))

    def _definition(self, cursor: cindex.Cursor) -> None:
        """A function defined at the top level: lowered now, or once lowered code reaches it.

        A header's device code that nvcc compiles only for its uses waits for one: a
        template or a member of a class template (its instantiations are the code, and the
        calls that name them lower them), and an inline function (``inline``,
        ``__forceinline__``, ``constexpr``, defined in its class). In a template library such
        as CuTe that is thousands of functions per unit, nearly all of which the unit's
        kernels never call: those are neither lowered nor analyzed, since no thread runs
        them. Kernels, host code, the functions of the file parsed and of the headers of the
        run it is the first unit to cover (``own``: those a user asked about), and a header's
        non-inline device functions (emitted in every unit, callable from others) are
        lowered as written."""
        if clang_ext.file_name(cursor.location.file) not in self._own_files:
            parent = cursor.semantic_parent
            template = cursor.kind == CK.FUNCTION_TEMPLATE or (parent is not None and parent.kind in _CLASS_TEMPLATES)
            # The cheap questions first: the function's kind takes a walk over its children.
            if (template or clang_ext.is_inline(cursor)) and self._function_kind(cursor) in _DEVICE_CODE:
                if template:
                    return
                function_id = self._function_id(cursor)
                if function_id not in self._reached:
                    self._unreached[function_id] = cursor
                    return
        self._function(cursor, instantiation=False)

    def _lowered_for_host_only(self, callee: cindex.Cursor) -> bool:
        """Whether host code calls a header's device code (``make_layout`` while setting up a
        launch): the launch index reads host code's own values, and the analysis reads device
        code from kernels, so nothing would read what the call reaches."""
        if not self._functions_in_progress or self._functions_in_progress[-1] is not ir.FunctionKind.HOST:
            return False
        return (
            clang_ext.file_name(callee.location.file) not in self._own_files
            and self._function_kind(callee) in _DEVICE_CODE
        )

    def _reach(self, function_id: str) -> None:
        """Lowered code calls or names ``function_id``: a header function that waited for it is lowered."""
        cursor = self._unreached.pop(function_id, None)
        if cursor is not None:
            self._pending.append((cursor, False))
        else:
            self._reached.add(function_id)

    # ------------------------------------------------------------------ tokens & text

    def _view(self, path: str | None) -> FileView | None:
        """The view of a file code was lowered from; None for files that cannot be read."""
        if path is None:
            return None
        if path not in self._views:
            data = self.sources.data(path)
            expansions = self._expansions.get(path, [])
            self._views[path] = FileView(self.tu, path, data, expansions) if data is not None else None
        return self._views[path]

    def _tokens_between(self, file: str | None, start: int, end: int) -> list[str]:
        view = self._view(file)
        return view.tokens_between(start, end) if view is not None else []

    # ------------------------------------------------------------------ spans & types

    def _span(self, cursor: cindex.Cursor) -> ir.Span | None:
        """Where the node is in the written source; None for nodes with no location
        (defaulted arguments), which callers anchor to their parent."""
        extent = cursor.extent
        file, line, column, offset = self._locate(extent.start)
        if file is None or line == 0:
            return None
        end_file, end_line, end_column, end_offset = self._locate(extent.end)
        view = self._view(file)
        if view is None:
            return ir.Span(file, line, column, line, column)
        expansion = view.macro_map.expansion_at(offset)
        if (
            expansion is not None
            and (end_file != file or end_offset <= expansion.end)
            and (offset == expansion.start or not view.within_one_argument(expansion, offset, end_offset))
        ):
            # Spelled inside a macro body: report the whole invocation. (A declaration that
            # merely starts with a macro, `__shared__ float t[32];`, runs past it; code that
            # lies in one argument, `STORE(a, i * 2)`'s `i * 2`, is where it is written.)
            return view.offset_span(expansion.start, expansion.end, expansion.definition)
        if end_file != file or (end_line, end_column) < (line, column):
            end_line, end_column = line, column
        return ir.Span(
            file, line, view.character_column(line, column), end_line, view.character_column(end_line, end_column)
        )

    def ctype(self, cx_type: cindex.Type) -> ir.CType:
        # A type is the same object for the whole translation unit (clang uniques them): its
        # identity is a cheaper key than its spellings.
        key = (cx_type._kind_id, cx_type.data[0])
        cached = self._types.get(key)
        if cached is not None:
            return cached
        # Recursion through self-referential records stops at the record table.
        result = self._build_type(cx_type)
        self._types[key] = result
        return result

    def _build_type(self, cx_type: cindex.Type) -> ir.CType:
        canonical = cx_type.get_canonical()
        try:
            kind = canonical.kind
        except ValueError:  # A type kind newer than the Python bindings (e.g. _Float16).
            return ir.CType(ir.TypeKind.OTHER, cx_type.spelling)
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
            return ir.CType(
                ir.TypeKind.ARRAY,
                pointee=self.ctype(canonical.get_array_element_type()),
                count=count if count is not None and count >= 0 else None,
                **common,
            )
        if kind == TK.RECORD:
            name = canonical.get_declaration().type.get_canonical().spelling
            if name not in self.records:
                self.records[name] = ir.Record(name, common["size"], common["align"], ())
                fields = self._inherited_fields(canonical)
                for field in canonical.get_fields():
                    offset = field.get_field_offsetof()
                    fields.append(
                        ir.Field(
                            field.spelling,
                            offset // 8 if offset >= 0 and not field.is_bitfield() else None,
                            self.ctype(field.type),
                        )
                    )
                self.records[name] = ir.Record(name, common["size"], common["align"], tuple(fields))
                self._copy_bytes[name] = _member_copy_bytes(canonical, fields)
            return ir.CType(ir.TypeKind.RECORD, record=name, copy_bytes=self._copy_bytes.get(name), **common)
        if kind == TK.UNEXPOSED and ("type-parameter" in canonical.spelling or "<dependent" in canonical.spelling):
            return ir.CType(ir.TypeKind.DEPENDENT, **common)
        return ir.CType(ir.TypeKind.OTHER, **common)

    def _inherited_fields(self, record: cindex.Type) -> list[ir.Field]:
        """Fields of the base classes, at their offsets in ``record`` (``frag.x`` of a wmma
        fragment is declared in its base). Non-virtual bases of a class without a vtable
        are laid out in order, each at the next offset its alignment allows; an empty base
        takes no room. Dynamic classes put a vtable pointer first: their bases are left out."""
        declaration = record.get_declaration()
        bases = [c for c in declaration.get_children() if c.kind == CK.CXX_BASE_SPECIFIER]
        if not bases or any(c.kind == CK.CXX_METHOD and c.is_virtual_method() for c in declaration.get_children()):
            return []
        fields: list[ir.Field] = []
        end = 0
        for base in bases:
            base_type = self.ctype(base.type)
            layout = self.records.get(base_type.record or "")
            if clang_ext.is_virtual_base(base) or layout is None or base_type.size is None or not base_type.align:
                return []
            if not layout.fields:
                continue  # Empty base optimization.
            start = -(-end // base_type.align) * base_type.align
            fields += [ir.Field(f.name, None if f.offset is None else start + f.offset, f.type) for f in layout.fields]
            end = start + base_type.size
        return fields

    # ------------------------------------------------------------------ declarations

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

    def _function(self, cursor: cindex.Cursor, instantiation: bool) -> None:
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
        previous = self._current_function
        self._current_function = function_id
        self._functions_in_progress.append(kind)
        params = tuple(self._var_decl(child, parameter=True) for child in children if child.kind == CK.PARM_DECL)
        body = None
        for child in children:
            if child.kind == CK.COMPOUND_STMT:
                body = self._stmt(child)
        self._functions_in_progress.pop()
        self._current_function = previous
        location = cursor.location
        self._functions[function_id] = ir.Function(
            name=name or cursor.spelling,
            qualified_name=name or self._qualified_name(cursor),
            decl=function_id,
            kind=kind,
            return_type=self.ctype(cursor.result_type),
            params=params,
            span=self._span(cursor) or _NOWHERE,
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
            span=self._span(cursor) or _NOWHERE,
            init=self.expr(init_cursor) if init_cursor is not None else None,
            is_extern=cursor.storage_class == cindex.StorageClass.EXTERN,
        )

    # ------------------------------------------------------------------ statements

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
        span = self._span(cursor) or _NOWHERE
        children = self._children(cursor)
        if cursor._kind_id in clang_ext.kind_ids("is_expression"):
            return self._stmt_or_expr(cursor)
        return _STMT_HANDLERS.get(kind, Lowering._unknown_stmt)(self, cursor, span, children)

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

    # ------------------------------------------------------------------ expressions

    def _expr_children(self, cursor: cindex.Cursor, children: list[cindex.Cursor] | None = None) -> list[cindex.Cursor]:
        """``children``: all of ``cursor``'s, when the caller has them already."""
        expressions = clang_ext.kind_ids("is_expression")
        return [c for c in children or cursor.get_children() if c._kind_id in expressions]

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
        return ir.Expr(
            kind=kind,
            type=self.ctype(cursor.type),
            span=self._span(cursor) or _NOWHERE,
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

    def _named_function(self, referenced: cindex.Cursor) -> str:
        """A function named without a call (``kernel_t k = tile<D, 4>;``, a launch wrapper's
        argument): an instantiation it names is lowered as a call's would be."""
        decl = self._function_id(referenced)
        if referenced.get_num_template_arguments() > 0 and decl not in self._functions:
            definition = referenced if referenced.is_definition() else referenced.get_definition()
            if definition is not None and self._in_user_code(definition):
                self._pending.append((definition, True))
        self._reach(decl)
        return decl

    def _named_constant(self, cursor: cindex.Cursor, referenced: cindex.Cursor | None) -> int | None:
        """The value of a name the language makes an integral constant: an enumerator, or a
        ``const``/``constexpr`` variable or static member with a constant initializer
        (``kTile``, ``Traits<T>::kVec``, ``frag.num_elements``). clang evaluates it, so
        ``sizeof``, template arguments and other constants inside the initializer count."""
        if referenced is None or not _integral(cursor.type):
            return None
        if referenced.kind == CK.ENUM_CONSTANT_DECL:
            return referenced.enum_value
        if referenced.kind != CK.VAR_DECL or not referenced.type.is_const_qualified():
            return None
        value = clang_ext.evaluate(cursor)
        return value if isinstance(value, int) else None

    def _member(self, cursor: cindex.Cursor) -> ir.Expr:
        inner = self._expr_children(cursor)
        if len(inner) == 1 and inner[0].kind == CK.DECL_REF_EXPR and inner[0].spelling in _BUILTIN_VARIABLES:
            variable = inner[0].spelling
            return ir.Expr(
                ir.ExprKind.BUILTIN_INDEX,
                _UNSIGNED_INT,
                self._span(cursor) or _NOWHERE,
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

    def _call(self, cursor: cindex.Cursor) -> ir.Expr:
        referenced = cursor.referenced
        children = list(cursor.get_children())
        config = next((c for c in children if c.kind == CK.CALL_EXPR and c.spelling == _LAUNCH_CONFIGURATION), None)
        decl = None
        if referenced is not None and not self._declared_as_unknown(cursor, referenced):
            decl = self._function_id(referenced)
            if referenced.semantic_parent is not None and referenced.semantic_parent.kind == CK.CLASS_DECL:
                self._called_closures.add(self._decl_id(referenced.semantic_parent))
            if referenced.get_num_template_arguments() > 0 and not referenced.is_definition():
                referenced = referenced.get_definition() or referenced
            instantiated = referenced.get_num_template_arguments() > 0 and referenced.kind in (
                CK.FUNCTION_DECL,
                CK.CXX_METHOD,
            )
            # A member of a class template specialization (`SharedMemory<float>::operator float*`)
            # exists only as the instantiation the call names.
            if self._lowered_for_host_only(referenced):
                pass
            elif (
                (instantiated or referenced.kind in _MEMBER_FUNCTIONS)
                and referenced.is_definition()
                and self._in_user_code(referenced)
                and decl not in self._functions
            ):
                self._pending.append((referenced, True))
                self._reach(decl)
            else:
                self._reach(decl)
        op = None
        if referenced is not None:
            op = (
                "construct"
                if referenced.kind == CK.CONSTRUCTOR
                else "noreturn"
                if self._never_returns(decl, referenced)
                else None
            )
        span = self._span(cursor) or _NOWHERE
        arguments = self._anchored([self.expr(a) for a in cursor.get_arguments()], span)
        receiver = self._receiver(cursor, children)
        if (
            referenced is not None
            and referenced.kind == CK.CXX_METHOD
            and referenced.spelling == "operator()"
            and len(arguments) == len(list(referenced.get_arguments())) + 1
        ):
            # `functor(a, b)`, a lambda's call: clang lists the object as the call operator's
            # first argument. (Other operators keep it there: `p[i] = pi` is a store into p[i].)
            receiver, arguments = arguments[0], arguments[1:]
        node = ir.Expr(
            ir.ExprKind.CALL,
            self.ctype(cursor.type),
            span,
            tuple(arguments),
            name=cursor.spelling or self._dependent_callee(children),
            decl=decl,
            op=op,
            value=self._constant_call(cursor, arguments),
            receiver=receiver,
        )
        if config is not None:
            # A launch names its kernel only once clang resolved it (the name of an unresolved
            # one is no kernel's).
            self._launch(dataclasses.replace(node, name=cursor.spelling), config)
        elif cursor.spelling.encode().startswith(_LAUNCH_FUNCTIONS) and self._current_function is not None:
            self._runtime_launch(node, cursor)
        return node

    def _never_returns(self, decl: str | None, function: cindex.Cursor) -> bool:
        """Whether a function is declared ``[[noreturn]]`` (an assertion macro's abort); asked
        once per function, not at each of its calls."""
        if decl is not None and decl in self._noreturn:
            return self._noreturn[decl]
        attributes = clang_ext.kind_ids("is_attribute")
        never = any(
            child.kind == CK.UNEXPOSED_ATTR and any(t.spelling in _NORETURN for t in child.get_tokens())
            for child in function.get_children()
            if child._kind_id in attributes
        )
        if decl is not None:
            self._noreturn[decl] = never
        return never

    def _dependent_callee(self, children: list[cindex.Cursor]) -> str | None:
        """The name a call in a template names when its arguments' types are not known yet
        (`reduce(s, t)` with `s` a `T*`): clang leaves the call unnamed and unresolved, the
        name only on the reference to the overload set. ``children``: the call's."""
        callee = next(iter(children), None)
        while callee is not None and not callee.spelling and callee.kind in _CALLEE_WRAPPERS:
            callee = next(iter(callee.get_children()), None)
        # Only a reference to an overload set names a callee: an unresolved operator's first
        # child is its left operand (`tile + k` on a `T` array).
        if callee is None or callee.kind != CK.OVERLOADED_DECL_REF:
            return None
        return callee.spelling or None

    def _receiver(self, cursor: cindex.Cursor, children: list[cindex.Cursor]) -> ir.Expr | None:
        """The object of ``object.method(...)``: the expression under the callee's member reference."""
        callee = next(iter(self._expr_children(cursor, children)), None)
        while callee is not None and callee.kind in (CK.UNEXPOSED_EXPR, *_TRANSPARENT_EXPRS):
            callee = next(iter(self._expr_children(callee)), None)
        if callee is None or callee.kind != CK.MEMBER_REF_EXPR:
            return None
        objects = self._expr_children(callee)
        return self.expr(objects[0]) if objects else None

    @staticmethod
    def _constant_call(cursor: cindex.Cursor, arguments: list[ir.Expr]) -> int | None:
        """The value of a call clang folds to an integer at compile time (a ``constexpr``
        function such as ``std::numeric_limits<int>::max()`` or ``tiles(kN)``). Only calls
        whose arguments are all constants are asked: others cannot fold."""
        if not _integral(cursor.type) or not all(_constant(argument) for argument in arguments):
            return None
        value = clang_ext.evaluate(cursor)
        return value if isinstance(value, int) else None

    @staticmethod
    def _anchored(expressions: list[ir.Expr], span: ir.Span) -> list[ir.Expr]:
        """Give location-less nodes (defaulted arguments) their call's span."""
        return [dataclasses.replace(e, span=span) if e.span is _NOWHERE else e for e in expressions]

    def _launch(self, call: ir.Expr, config: cindex.Cursor) -> None:
        config_args: list[ir.Expr | None] = list(
            self._anchored([self.expr(a) for a in config.get_arguments()], call.span)
        )
        config_args += [None] * (4 - len(config_args))
        self.launches.append(
            ir.LaunchSite(
                kernel=call.decl or call.name or "",
                kernel_name=call.name or "",
                grid=config_args[0],
                block=config_args[1],
                shared_bytes=config_args[2],
                span=call.span,
                caller=self._current_function,
                arguments=call.children,
            )
        )

    def _runtime_launch(self, call: ir.Expr, cursor: cindex.Cursor) -> None:
        """``cudaLaunchKernel(k, grid, block, args, shared, stream)`` (and the cooperative
        form), or ``cudaLaunchKernelEx(&config, k, arguments...)``: a launch of ``k``."""
        extended = call.name == "cudaLaunchKernelEx"
        arguments = list(cursor.get_arguments())
        position = 1 if extended else 0
        if len(arguments) <= position:
            return
        kernel = self._referenced_function(arguments[position])
        if kernel is None:
            return
        values = list(call.children) + [None] * 5
        self.launches.append(
            ir.LaunchSite(
                kernel=self._function_id(kernel),
                kernel_name=kernel.spelling,
                grid=None if extended else values[1],
                block=None if extended else values[2],
                shared_bytes=None if extended else values[4],
                span=call.span,
                caller=self._current_function,
                arguments=tuple(call.children[2:]) if extended else (values[3],) if values[3] is not None else (),
                api=call.name or "",
                config=values[0] if extended else None,
            )
        )

    @staticmethod
    def _referenced_function(cursor: cindex.Cursor) -> cindex.Cursor | None:
        """The kernel an argument names, through casts and ``&``: ``(void*)k``, ``&k<8>``."""
        for node in cursor.walk_preorder():
            if node.kind in (CK.DECL_REF_EXPR, CK.OVERLOADED_DECL_REF):
                referenced = node.referenced
                if referenced is not None and referenced.kind in (CK.FUNCTION_DECL, CK.FUNCTION_TEMPLATE):
                    return referenced
        return None

    def _cast(self, cursor: cindex.Cursor) -> ir.Expr:
        operands = self._expr_children(cursor)
        children = [self.expr(operands[-1])] if operands else []
        own = self.ctype(cursor.type)
        # clang nests the conversion itself as an implicit cast inside the explicit one.
        if children and children[0].cast is ir.CastKind.IMPLICIT and children[0].type == own:
            children = list(children[0].children)
        return ir.Expr(ir.ExprKind.CAST, own, self._span(cursor) or _NOWHERE, tuple(children), cast=_CASTS[cursor.kind])

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
        span = self._span(cursor) or _NOWHERE
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
        self._function(operator, instantiation=False)
        if operator.kind == CK.FUNCTION_TEMPLATE:
            self._generic_lambdas[self._decl_id(closure)] = self._function_id(operator)
        return ir.Expr(ir.ExprKind.LAMBDA, self.ctype(cursor.type), span, decl=self._function_id(operator))


_NORETURN = frozenset(("noreturn", "__noreturn__", "_Noreturn"))


def _integral_argument(cursor: cindex.Cursor, index: int) -> int:
    """An integral template argument's value. libclang sign-extends it: a ``bool`` argument
    ``true`` (one bit, set) reads as -1 signed and 1 unsigned; its value is 1."""
    value = cursor.get_template_argument_value(index)
    if value == -1 and cursor.get_template_argument_unsigned_value(index) == 1:
        return 1
    return value


def _integral(cx_type: cindex.Type) -> bool:
    try:
        kind = cx_type.get_canonical().kind
    except ValueError:  # A type kind newer than the Python bindings.
        return False
    return kind in _INTEGER_KINDS or kind in (TK.BOOL, TK.ENUM)


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


def _numeric_literal(kind: ir.ExprKind, pattern: re.Pattern, parse):
    def handler(self: Lowering, cursor: cindex.Cursor) -> ir.Expr:
        return self._numeric_literal_node(cursor, kind, pattern, parse)

    return handler


def _token_literal(kind: ir.ExprKind):
    def handler(self: Lowering, cursor: cindex.Cursor) -> ir.Expr:
        tokens = [t.spelling for t in cursor.get_tokens()]
        text = tokens[0] if len(tokens) == 1 else None
        return self._node(cursor, kind, value=text, text=text)

    return handler


def _bare_stmt(kind: ir.StmtKind):
    """A handler for a statement that is its kind alone (``break``, ``continue``, ``;``)."""

    def handler(self: Lowering, cursor: cindex.Cursor, span: ir.Span, children: list[cindex.Cursor]) -> ir.Stmt:
        return ir.Stmt(kind, span)

    return handler


_STMT_HANDLERS = {
    CK.COMPOUND_STMT: Lowering._compound,
    CK.DECL_STMT: Lowering._decl_stmt,
    CK.IF_STMT: Lowering._if,
    CK.FOR_STMT: Lowering._for,
    CK.WHILE_STMT: Lowering._while,
    CK.DO_STMT: Lowering._do,
    CK.SWITCH_STMT: Lowering._switch,
    CK.CASE_STMT: Lowering._case,
    CK.DEFAULT_STMT: Lowering._default,
    CK.BREAK_STMT: _bare_stmt(ir.StmtKind.BREAK),
    CK.CONTINUE_STMT: _bare_stmt(ir.StmtKind.CONTINUE),
    CK.NULL_STMT: _bare_stmt(ir.StmtKind.NULL),
    CK.RETURN_STMT: Lowering._return,
    CK.GOTO_STMT: Lowering._goto,
    CK.LABEL_STMT: Lowering._label,
    CK.ASM_STMT: Lowering._asm,
    CK.MS_ASM_STMT: Lowering._asm,
    CK.UNEXPOSED_STMT: Lowering._unexposed_stmt,
}
"""Statement cursors by kind; any other kind lowers to an UNKNOWN statement (``_unknown_stmt``)."""


_EXPR_HANDLERS = {
    CK.INTEGER_LITERAL: _numeric_literal(ir.ExprKind.INT_LITERAL, literals.INT_LITERAL, literals.parse_int_literal),
    CK.FLOATING_LITERAL: _numeric_literal(
        ir.ExprKind.FLOAT_LITERAL, literals.FLOAT_LITERAL, literals.parse_float_literal
    ),
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


def _mentions(names: set[bytes]) -> re.Pattern[bytes]:
    """A pattern that finds any of ``names`` as a whole word."""
    return re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(name) for name in sorted(names)))


_MAX_PIECE_BYTES = 16
"""The widest load or store of one lane (LDG.E.128)."""


def _member_copy_bytes(record: cindex.Type, fields: list[ir.Field]) -> int | None:
    """The widest piece nvcc moves when it copies ``record`` member by member, which it does
    when a member's type has a copy constructor or assignment of its own (``__half2``,
    ``__nv_bfloat162``): each member is copied by its own code, never merged into wider
    loads (an ``alignas(16)`` struct of four ``__half2`` moves as four 4-byte pieces). None
    when every member copies as plain bytes, or when ``record`` has copy code of its own (it
    moves as one unit then)."""
    if _copies_itself(record):
        return None
    declared = {f.spelling: f.type.get_canonical() for f in record.get_fields()}
    pieces = []
    member_wise = False
    for field in fields:
        element = field.type
        while element.kind is ir.TypeKind.ARRAY and element.pointee is not None:
            element = element.pointee
        member = declared.get(field.name)
        while member is not None and member.kind in _ARRAY_KINDS:
            member = member.get_array_element_type().get_canonical()
        if element.copy_bytes:
            member_wise = True
            pieces.append(element.copy_bytes)
            continue
        if member is not None and member.kind == TK.RECORD and _copies_itself(member):
            member_wise = True
        size = element.size or _MAX_PIECE_BYTES
        pieces.append(min(size, element.align or size, _MAX_PIECE_BYTES))
    return min(pieces) if member_wise and pieces else None


def _copies_itself(record: cindex.Type) -> bool:
    """Whether ``record`` has a user-provided copy constructor or copy assignment."""
    for child in record.get_declaration().get_children():
        copies = (child.kind == CK.CONSTRUCTOR and child.is_copy_constructor()) or (
            child.kind == CK.CXX_METHOD and child.is_copy_assignment_operator_method()
        )
        if copies and not child.is_default_method() and not child.is_deleted_method():
            return True
    return False


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
