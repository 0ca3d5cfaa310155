"""How findings quote code and values: only what the user wrote, in plain words.

The dataflow gives what it cannot compute made-up names (a loaded value, a value carried
around a loop, a loop's trip counter). Those names are internal and must never reach a
message. Every rule quotes source, symbolic values and the names a cost depends on
through this module: a value is spelled out only when each part of it is something the
source spells (a literal, a parameter or template constant of the function, a builtin
index); otherwise the caller says something plain and true instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cudalint import ir
from cudalint.dataflow import Atom, AtomKind, Sym

_BUILTINS = (AtomKind.THREAD_INDEX, AtomKind.BLOCK_INDEX, AtomKind.BLOCK_DIM, AtomKind.GRID_DIM)
_LOOP = re.compile(r"the loop at line \d+")


def code(text: str, fallback: str) -> str:
    """``text`` (source the finding is about) in backticks, or ``fallback`` when there is
    none to show (code written in another file or produced by a macro)."""
    text = " ".join(text.split())
    return f"`{text}`" if text else fallback


def source_names(function: ir.Function) -> frozenset[str]:
    """Names a message may use for values of ``function``: its parameters and template constants."""
    return frozenset(p.name for p in function.params if p.name) | frozenset(function.template_parameters)


def _spelled(atom: Atom, names: frozenset[str]) -> bool:
    if atom.kind in _BUILTINS:
        return True
    if atom.kind is AtomKind.PARAMETER:
        return atom.name in names
    if atom.kind is AtomKind.OPERATION:
        return all(spelled_value(argument, names) is not None for argument in atom.args)
    return False


def spelled_value(value: Sym | None, names: frozenset[str]) -> str | None:
    """``value`` as source-like text (``4*stride``), or None when any part of it has no
    name in the source (data loaded at run time, a loop's trip count)."""
    if value is None:
        return None
    if all(_spelled(atom, names) for monomial, _ in value.terms for atom in monomial):
        return str(value)
    return None


def spelled_names(candidates: Iterable[str], names: frozenset[str]) -> list[str]:
    """The ``candidates`` a reader can find in the source: parameters and template constants
    of the function, and loops named by their line."""
    return [name for name in candidates if name in names or _LOOP.fullmatch(name)]


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``1 statement``, ``3 statements``."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
