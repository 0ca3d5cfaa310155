"""Macro expansions in the main file, from libclang's preprocessing record.

libclang reports code produced by a macro at the macro's invocation and has no call
for where the characters are really spelled. This map says, for a byte offset in the
main file, which invocation covers it and what the macro's definition says, so the
IR can mark such spans and recover literal text and builtin member names.
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
    def __init__(self, tu: cindex.TranslationUnit, main_file: cindex.File, identifiers: list[tuple[int, str]]):
        """``identifiers``: (byte offset, spelling) of every identifier token in the main file."""
        self._object_like: dict[str, tuple[str, ...]] = {}
        expansions: list[Expansion] = []
        not_macros: set[str] = set()
        for offset, spelling in identifiers:
            # Arguments of a macro can be macros themselves (`__launch_bounds__(BLOCK)`), so
            # names inside another invocation are looked at too.
            if spelling in not_macros:
                continue
            cursor = cindex.Cursor.from_location(tu, cindex.SourceLocation.from_offset(tu, main_file, offset))
            if cursor is None or cursor.kind != cindex.CursorKind.MACRO_INSTANTIATION:
                not_macros.add(spelling)
                continue
            definition = cursor.referenced
            body: list[str] = []
            position = None
            if definition is not None and definition.kind == cindex.CursorKind.MACRO_DEFINITION:
                body, function_like = _definition_parts(definition)
                if not function_like:
                    self._object_like[spelling] = tuple(body)
                location = definition.location
                if location.file is not None:
                    position = ir.Position(clang_ext.normalized_path(location.file.name), location.line, location.column)
            extent = cursor.extent
            expansions.append(Expansion(extent.start.offset, extent.end.offset, spelling, position, tuple(body)))
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
