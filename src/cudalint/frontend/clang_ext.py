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
    None, ".*", "->*", "*", "/", "%", "+", "-", "<<", ">>", "<=>", "<", ">", "<=", ">=",
    "==", "!=", "&", "^", "|", "&&", "||", "=", "*=", "/=", "%=", "+=", "-=", "<<=",
    ">>=", "&=", "^=", "|=", ",",
)
_UNARY_OPERATORS = (
    None, "post++", "post--", "++", "--", "&", "*", "+", "-", "~", "!", "__real",
    "__imag", "__extension__", "co_await",
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


def binary_operator(cursor: cindex.Cursor) -> str | None:
    code = _Lib.get().clang_getCursorBinaryOperatorKind(cursor)
    return _BINARY_OPERATORS[code] if 0 <= code < len(_BINARY_OPERATORS) else None


def unary_operator(cursor: cindex.Cursor) -> str | None:
    code = _Lib.get().clang_getCursorUnaryOperatorKind(cursor)
    return _UNARY_OPERATORS[code] if 0 <= code < len(_UNARY_OPERATORS) else None


def file_location(location: cindex.SourceLocation) -> tuple[str | None, int, int, int]:
    """(file, line, column, byte offset) of ``location`` in a real file: for code from a
    macro body the invocation, for a macro argument where the argument is written."""
    lib = _Lib.get()
    file_handle = cindex.c_object_p()
    line, column, offset = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    lib.clang_getFileLocation(
        location, ctypes.byref(file_handle), ctypes.byref(line), ctypes.byref(column), ctypes.byref(offset)
    )
    name = file_name(cindex.File(file_handle)) if file_handle else None
    return name, line.value, column.value, offset.value


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
