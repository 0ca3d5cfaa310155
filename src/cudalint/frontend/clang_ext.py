"""libclang entry points that the Python bindings 18.1.1 do not wrap.

They exist in the shipped libclang.so; we bind them once with ctypes.
"""

from __future__ import annotations

import ctypes
import os
from functools import cache

from clang import cindex

# CXBinaryOperatorKind / CXUnaryOperatorKind from clang-c/Index.h (LLVM 18).
_BINARY_OPERATORS = (
    None,
    ".*",
    "->*",
    "*",
    "/",
    "%",
    "+",
    "-",
    "<<",
    ">>",
    "<=>",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "&",
    "^",
    "|",
    "&&",
    "||",
    "=",
    "*=",
    "/=",
    "%=",
    "+=",
    "-=",
    "<<=",
    ">>=",
    "&=",
    "^=",
    "|=",
    ",",
)
_UNARY_OPERATORS = (
    None,
    "post++",
    "post--",
    "++",
    "--",
    "&",
    "*",
    "+",
    "-",
    "~",
    "!",
    "__real",
    "__imag",
    "__extension__",
    "co_await",
)

_CXEval_Int = 1
_CXEval_Float = 2


class _Lib:
    """ctypes prototypes, bound lazily so importing the package never loads libclang."""

    @staticmethod
    @cache
    def get():
        lib = cindex.conf.lib
        lib.clang_getCursorBinaryOperatorKind.argtypes = [cindex.Cursor]
        lib.clang_getCursorBinaryOperatorKind.restype = ctypes.c_int
        lib.clang_getCursorUnaryOperatorKind.argtypes = [cindex.Cursor]
        lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
        lib.clang_getFileLocation.argtypes = [
            cindex.SourceLocation,
            ctypes.POINTER(cindex.c_object_p),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
        ]
        lib.clang_getFileLocation.restype = None
        lib.clang_Cursor_getVarDeclInitializer.argtypes = [cindex.Cursor]
        lib.clang_Cursor_getVarDeclInitializer.restype = cindex.Cursor
        lib.clang_Cursor_getVarDeclInitializer.errcheck = cindex.Cursor.from_result
        lib.clang_getSpecializedCursorTemplate.argtypes = [cindex.Cursor]
        lib.clang_getSpecializedCursorTemplate.restype = cindex.Cursor
        lib.clang_getSpecializedCursorTemplate.errcheck = cindex.Cursor.from_result
        lib.clang_isVirtualBase.argtypes = [cindex.Cursor]
        lib.clang_isVirtualBase.restype = ctypes.c_uint
        lib.clang_Cursor_isFunctionInlined.argtypes = [cindex.Cursor]
        lib.clang_Cursor_isFunctionInlined.restype = ctypes.c_uint
        lib.clang_Cursor_Evaluate.argtypes = [cindex.Cursor]
        lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_isUnsignedInt.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_isUnsignedInt.restype = ctypes.c_uint
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_getAsUnsigned.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsUnsigned.restype = ctypes.c_ulonglong
        lib.clang_EvalResult_getAsDouble.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsDouble.restype = ctypes.c_double
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_dispose.restype = None
        lib.clang_Location_isInSystemHeader.argtypes = [cindex.SourceLocation]
        lib.clang_Location_isInSystemHeader.restype = ctypes.c_int
        lib.clang_getCursorLocation.argtypes = [cindex.Cursor]
        lib.clang_getCursorLocation.restype = cindex.SourceLocation
        return lib


def _lenient_value(string: cindex.c_interop_string) -> str | None:
    raw = ctypes.c_char_p.value.__get__(string)
    return None if raw is None else raw.decode("utf-8", errors="replace")


@cache
def decode_strings_leniently() -> None:
    """Make every string libclang returns (token spellings, literals, messages) decode
    bytes that are not UTF-8 as replacement characters instead of raising: compilers
    accept such bytes in comments and strings (a Windows-1252 apostrophe), and the
    bindings would otherwise fail on the first token that holds one."""
    cindex.c_interop_string.value = property(_lenient_value)


_FIRST_DECLARATION, _LAST_DECLARATION = 1, 39  # CXCursor_FirstDecl, CXCursor_LastDecl
_TRANSLATION_UNIT = 350  # CXCursor_TranslationUnit


def user_children(cursor: cindex.Cursor) -> list[cindex.Cursor]:
    """The children of ``cursor`` outside system headers. A translation unit's top level
    holds thousands of declarations of the CUDA and C++ headers; filtering them inside the
    visit costs a fraction of visiting them all from Python.

    An index that leaves out the declarations of a precompiled header lists the unit's own
    top-level declarations as the parser saw them, implicit template instantiations among
    them; the translation unit's own children never include those, and neither does this."""
    lib = _Lib.get()
    found: list[cindex.Cursor] = []

    def visit(child, parent, data):
        location = lib.clang_getCursorLocation(child)
        if not lib.clang_Location_isInSystemHeader(location):
            child._tu = cursor._tu  # Keeps the translation unit alive as long as the cursor.
            if not _implicit_instantiation(lib, child, location):
                found.append(child)
        return 1  # CXChildVisit_Continue

    lib.clang_visitChildren(cursor, cindex.callbacks["cursor_visit"](visit), None)
    return found


def _implicit_instantiation(lib, cursor: cindex.Cursor, location: cindex.SourceLocation) -> bool:
    """A declaration instantiated from a template: it stands where its template is declared
    or defined (an explicit specialization is written, and stands elsewhere), or inside
    another scope (a member of a class template, defined in a namespace)."""
    if not _FIRST_DECLARATION <= cursor._kind_id <= _LAST_DECLARATION:
        return False
    scope = lib.clang_getCursorLexicalParent(cursor)
    if scope is None or scope._kind_id != _TRANSLATION_UNIT:
        return True
    pattern = lib.clang_getSpecializedCursorTemplate(cursor)
    if pattern is None:
        return False
    # The template may be declared before it is defined: an instantiation stands where the definition does.
    written = (pattern, lib.clang_getCursorDefinition(pattern))
    return any(lib.clang_equalLocations(lib.clang_getCursorLocation(c), location) for c in written if c is not None)


TOKEN_KINDS = {
    kind.value: kind
    for kind in (
        cindex.TokenKind.PUNCTUATION,
        cindex.TokenKind.KEYWORD,
        cindex.TokenKind.IDENTIFIER,
        cindex.TokenKind.LITERAL,
        cindex.TokenKind.COMMENT,
    )
}


def file_tokens(tu: cindex.TranslationUnit, file: cindex.File, length: int) -> list[tuple[int, int, int]]:
    """(kind, byte offset, byte length) of every token of ``file``'s first ``length`` bytes.

    The bindings' token objects ask libclang for each token's kind, spelling and extent;
    the token array itself holds them (kind, raw location, length), which is all we need:
    the spelling is in the file's bytes. Read that way, a large header tokenizes about
    fifteen times faster."""
    lib = cindex.conf.lib
    start = cindex.SourceLocation.from_offset(tu, file, 0)
    extent = cindex.SourceRange.from_locations(start, cindex.SourceLocation.from_offset(tu, file, length))
    memory = ctypes.POINTER(cindex.Token)()
    count = ctypes.c_uint()
    lib.clang_tokenize(tu, extent, ctypes.byref(memory), ctypes.byref(count))
    try:
        base = start.int_data
        tokens = [
            (token.int_data[0], token.int_data[1] - base, token.int_data[2])
            for token in (memory[index] for index in range(count.value))
        ]
    finally:
        if count.value:
            lib.clang_disposeTokens(tu, memory, count)
    if any(not 0 <= offset <= offset + size <= length for _, offset, size in tokens):
        # Not a layout we know: ask the slow way.
        return [
            (token.kind.value, token.extent.start.offset, token.extent.end.offset - token.extent.start.offset)
            for token in tu.get_tokens(extent=extent)
        ]
    return tokens


def binary_operator(cursor: cindex.Cursor) -> str | None:
    code = _Lib.get().clang_getCursorBinaryOperatorKind(cursor)
    return _BINARY_OPERATORS[code] if 0 <= code < len(_BINARY_OPERATORS) else None


def unary_operator(cursor: cindex.Cursor) -> str | None:
    code = _Lib.get().clang_getCursorUnaryOperatorKind(cursor)
    return _UNARY_OPERATORS[code] if 0 <= code < len(_UNARY_OPERATORS) else None


class FileLocations:
    """``(file, line, column, byte offset)`` of source locations in one translation unit: for
    code from a macro body the invocation, for a macro argument where the argument is
    written. File names are looked up once per file (they are asked for every node)."""

    def __init__(self):
        self._names: dict[int, str] = {}
        self._file = cindex.c_object_p()
        self._line, self._column, self._offset = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        self._outputs = (
            ctypes.byref(self._file),
            ctypes.byref(self._line),
            ctypes.byref(self._column),
            ctypes.byref(self._offset),
        )

    def __call__(self, location: cindex.SourceLocation) -> tuple[str | None, int, int, int]:
        _Lib.get().clang_getFileLocation(location, *self._outputs)
        handle = ctypes.cast(self._file, ctypes.c_void_p).value
        name = None
        if handle:
            name = self._names.get(handle)
            if name is None:
                name = self._names[handle] = file_name(cindex.File(self._file))
        return name, self._line.value, self._column.value, self._offset.value


def file_name(file: cindex.File | None) -> str | None:
    """The file's path without ``..`` steps: clang keeps ``src/../include/a.h`` as written."""
    return normalized_path(file.name) if file is not None else None


@cache
def normalized_path(name: str) -> str:
    """``name`` without ``..`` steps when dropping them names the same file (through a
    symbolic link, ``link/../x`` is not ``x``)."""
    if ".." not in name:
        return name
    shorter = os.path.normpath(name)
    try:
        return shorter if os.path.samefile(shorter, name) else name
    except OSError:
        return name


def var_initializer(cursor: cindex.Cursor) -> cindex.Cursor | None:
    init = _Lib.get().clang_Cursor_getVarDeclInitializer(cursor)
    if init is None or init.kind.is_invalid():
        return None
    return init


def specialized_template(cursor: cindex.Cursor) -> cindex.Cursor | None:
    """The template an instantiation was made from."""
    pattern = _Lib.get().clang_getSpecializedCursorTemplate(cursor)
    if pattern is None or pattern.kind.is_invalid():
        return None
    return pattern


def is_virtual_base(cursor: cindex.Cursor) -> bool:
    """Whether a base-class specifier is ``virtual``."""
    return bool(_Lib.get().clang_isVirtualBase(cursor))


@cache
def kind_ids(*predicates: str) -> frozenset[int]:
    """The ids of the cursor kinds for which one of ``CursorKind``'s ``predicates``
    (``"is_expression"``, ``"is_attribute"``...) holds. Each predicate is a call into
    libclang: asked once per kind here, filtering a node's children by ``cursor._kind_id``
    costs none per child."""
    return frozenset(
        kind.value
        for kind in cindex.CursorKind.get_all_kinds()
        if any(getattr(kind, predicate)() for predicate in predicates)
    )


def is_inline(function: cindex.Cursor) -> bool:
    """Whether a function is inline in the language's sense: declared ``inline`` (or
    ``__forceinline__``), ``constexpr``, or a member defined in its class's body. A
    compiler emits code for such a function only where a translation unit uses it."""
    return bool(_Lib.get().clang_Cursor_isFunctionInlined(function))


def evaluate(cursor: cindex.Cursor) -> int | float | None:
    """The compile-time value of an integer or floating expression, if clang can fold it."""
    lib = _Lib.get()
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        kind = lib.clang_EvalResult_getKind(result)
        if kind == _CXEval_Int:
            if lib.clang_EvalResult_isUnsignedInt(result):
                return lib.clang_EvalResult_getAsUnsigned(result)
            return lib.clang_EvalResult_getAsLongLong(result)
        if kind == _CXEval_Float:
            return lib.clang_EvalResult_getAsDouble(result)
        return None
    finally:
        lib.clang_EvalResult_dispose(result)
