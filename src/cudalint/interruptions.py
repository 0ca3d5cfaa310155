"""Interruptions of an analysis from a signal handler: a time limit reached, an analysis
cancelled.

A handler raises its exception at once where the interrupted code is cudalint's own. Inside
libclang's bindings (and ctypes) an exception would leave libclang's objects half made or
half freed: leaked, or in a finalizer freed twice, which corrupts the heap and aborts the
process later. There the exception waits, pending, and the lowering (the one stage that
drives the bindings at length) raises it at its next statement.
"""

from __future__ import annotations

import ctypes
import os

_BINDING_FILES = (os.path.join("clang", "cindex.py"), os.path.join("cudalint", "frontend", "clang_ext.py"))
_CTYPES_DIRECTORY = os.path.dirname(ctypes.__file__)

_pending: BaseException | None = None


def interruptible(frame) -> bool:
    """Whether an exception may be raised in ``frame``: neither it nor any of its callers
    runs libclang's bindings or ctypes."""
    while frame is not None:
        name = frame.f_code.co_filename
        if name.endswith(_BINDING_FILES) or name.startswith(_CTYPES_DIRECTORY):
            return False
        frame = frame.f_back
    return True


def interrupt(frame, exception: BaseException) -> None:
    """Raise ``exception`` in the code a signal interrupted at ``frame``, now if it may be
    raised there, else at the next ``checkpoint``."""
    global _pending
    if interruptible(frame):
        _pending = None
        raise exception
    _pending = exception


def checkpoint() -> None:
    """Raise the interruption that is waiting, if one is."""
    global _pending
    if _pending is not None:
        exception, _pending = _pending, None
        raise exception


def clear() -> None:
    """Forget a waiting interruption: the code it was meant for has ended."""
    global _pending
    _pending = None
