"""Macro expansions in a file, from libclang's preprocessing record.

libclang reports code produced by a macro at the macro's invocation and has no call
for where the characters are really spelled. This map says, for a byte offset in the
file, which invocation covers it and what the macro's definition says, so the IR can
mark such spans and recover literal text and builtin member names.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from clang import cindex

from cudalint import ir
from cudalint.frontend import clang_ext


@dataclass(frozen=True)
class Expansion:
    start: int
    end: int
    """Byte offsets of the whole invocation (``NAME`` or ``NAME(args)``) in the main file."""
    name: str
    definition: ir.Position | None
    body: tuple[str, ...]
    """Replacement tokens, with nested object-like macros expanded."""


def _definition_parts(definition: cindex.Cursor) -> tuple[list[str], bool]:
    """(replacement tokens, is function-like) of a ``#define``."""
    tokens = list(definition.get_tokens())
    spellings = [t.spelling for t in tokens]
    # Function-like only when '(' touches the name: `#define F(x)` versus `#define F (x)`.
    if len(tokens) >= 2 and spellings[1] == "(" and tokens[0].extent.end.offset == tokens[1].extent.start.offset:
        close = spellings.index(")", 1) if ")" in spellings[1:] else len(spellings) - 1
        return spellings[close + 1 :], True
    return spellings[1:], False


class MacroMap:
    def __init__(self, instantiations: list[cindex.Cursor]):
        """``instantiations``: the preprocessing record's macro expansions in one file."""
        self._object_like: dict[str, tuple[str, ...]] = {}
        expansions: list[Expansion] = []
        definitions: dict[int, tuple[tuple[str, ...], ir.Position | None]] = {}
        for cursor in instantiations:
            spelling = cursor.spelling
            definition = cursor.referenced
            body: tuple[str, ...] = ()
            position = None
            if definition is not None and definition.kind == cindex.CursorKind.MACRO_DEFINITION:
                key = definition.hash
                if key not in definitions:
                    parts, function_like = _definition_parts(definition)
                    if not function_like:
                        self._object_like[spelling] = tuple(parts)
                    location = definition.location
                    where = None
                    if location.file is not None:
                        path = clang_ext.normalized_path(location.file.name)
                        where = ir.Position(path, location.line, location.column)
                    definitions[key] = (tuple(parts), where)
                body, position = definitions[key]
            extent = cursor.extent
            expansions.append(Expansion(extent.start.offset, extent.end.offset, spelling, position, body))
        expansions.sort(key=lambda e: e.start)
        self._expansions = [
            Expansion(e.start, e.end, e.name, e.definition, self._expand(e.body, depth=0)) for e in expansions
        ]
        self._starts = [e.start for e in self._expansions]
        self._longest = max((e.end - e.start for e in self._expansions), default=0)

    def _expand(self, tokens: tuple[str, ...], depth: int) -> tuple[str, ...]:
        if depth > 8:
            return tokens
        result: list[str] = []
        for token in tokens:
            nested = self._object_like.get(token)
            result.extend(self._expand(nested, depth + 1) if nested is not None else (token,))
        return tuple(result)

    def object_like_definitions(self) -> dict[str, str]:
        """``#define NAME body`` as this parse saw them, for macros used in the main file."""
        return {name: " ".join(self._expand(body, depth=0)) for name, body in self._object_like.items()}

    def expansion_at(self, offset: int) -> Expansion | None:
        """The innermost invocation covering ``offset``."""
        index = bisect_right(self._starts, offset) - 1
        while index >= 0 and offset - self._expansions[index].start <= self._longest:
            expansion = self._expansions[index]
            if offset < max(expansion.end, expansion.start + 1):
                return expansion
            index -= 1
        return None

    def __bool__(self) -> bool:
        return bool(self._expansions)
