"""Lowering: libclang cursors -> cudalint IR.

``Lowering`` (here) decides what of a translation unit is lowered: its top level, which
definitions wait until lowered code reaches them, which host code is left out, the files
code was read from and the spans of nodes. Each part of the language is lowered by the
class of its module:

| module | lowers |
| --- | --- |
| ``statements.py`` | statement cursors (``_STMT_HANDLERS``), ``#pragma unroll``, inline assembly |
| ``expressions.py`` | expression cursors (``_EXPR_HANDLERS``): names, members, operators, casts, lambdas |
| ``calls.py`` | calls, the functions they reach, launches |
| ``constants.py`` | literals and the integer constants clang evaluates |
| ``declarations.py`` | declaration ids, template arguments, functions, variables |
| ``types.py`` | types and record layouts |
"""

from __future__ import annotations

import functools
import heapq
import itertools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from clang import cindex
from clang.cindex import CursorKind as CK

from cudalint import interruptions, ir
from cudalint.frontend import clang_ext, recovery
from cudalint.frontend.lower.calls import Calls
from cudalint.frontend.lower.common import LAUNCH_FUNCTIONS, MEMBER_FUNCTIONS
from cudalint.frontend.lower.constants import Constants
from cudalint.frontend.lower.declarations import Declarations
from cudalint.frontend.lower.expressions import Expressions
from cudalint.frontend.lower.statements import Statements
from cudalint.frontend.lower.types import Types
from cudalint.frontend.views import FileView

_CLASS_TEMPLATES = (CK.CLASS_TEMPLATE, CK.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION)
_DEVICE_CODE = (ir.FunctionKind.DEVICE, ir.FunctionKind.HOST_DEVICE)

# A macro whose body launches a kernel (`#define LAUNCH(k) k<<<grid, block>>>`).
_LAUNCH_MACRO = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[^\n]*\\\r?\n)*[^\n]*<<<", re.MULTILINE)


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


class Lowering(Statements, Expressions, Calls, Constants, Declarations, Types):
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
        self._pending: list[tuple[int, int, cindex.Cursor, bool]] = []
        """Functions lowered code reached that are still to lower, a heap: each with its depth
        (``_callee_depth``), its place in the order they were reached (the latest first) and
        whether it is an instantiation."""
        self._reached_order = itertools.count(0, -1)
        self._unreached: dict[str, cindex.Cursor] = {}
        """A header's inline device functions that wait for lowered code to reach them (``_definition``), by id."""
        self._reached: dict[str, int] = {}
        """The functions lowered code called or named, by id, with the least depth of a call that reached each."""
        self._depth = 0
        """The depth of the function being lowered (``_callee_depth``)."""
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
            depth, _, cursor, instantiation = heapq.heappop(self._pending)
            self._function(cursor, instantiation, depth)
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
            or any(name in text for name in LAUNCH_FUNCTIONS)
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
                if child.kind in MEMBER_FUNCTIONS and child.is_definition():
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
        depth = 0
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
                depth = self._reached[function_id]
        self._function(cursor, instantiation=False, depth=depth)

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

    def _callee_depth(self, callee: cindex.Cursor, launch: bool = False) -> int | None:
        """The depth of a call of ``callee`` from the function being lowered: 0 from host code
        and for a launch, else one more than the caller's (kernels and what is lowered as
        written are at 0, ``_definition``). None past ``ir.INLINE_DEPTH`` for a callee outside
        the user's files: no analysis reads code that deep below an entry point (the
        interpreter computes such a call from its arguments), and in a template library
        nearly all the code a kernel reaches is deeper (CuTe's ``sgemm_2.cu``: 6,919
        functions reached, 622 of them within four calls of its kernels)."""
        if launch or not self._functions_in_progress or self._functions_in_progress[-1] is ir.FunctionKind.HOST:
            return 0
        depth = self._depth + 1
        if depth > ir.INLINE_DEPTH and clang_ext.file_name(callee.location.file) not in self._own_files:
            return None
        return depth

    def _lower_later(self, cursor: cindex.Cursor, instantiation: bool, depth: int) -> None:
        """Lower a function lowered code reached once the functions it reached at a lesser depth are."""
        heapq.heappush(self._pending, (depth, next(self._reached_order), cursor, instantiation))

    def _reach(self, function_id: str, depth: int) -> None:
        """Lowered code calls or names ``function_id`` at ``depth``: a header function that waited for it is lowered."""
        cursor = self._unreached.pop(function_id, None)
        if cursor is not None:
            self._lower_later(cursor, False, depth)
        elif depth < self._reached.get(function_id, depth + 1):
            self._reached[function_id] = depth

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


def _mentions(names: set[bytes]) -> re.Pattern[bytes]:
    """A pattern that finds any of ``names`` as a whole word."""
    return re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(name) for name in sorted(names)))
