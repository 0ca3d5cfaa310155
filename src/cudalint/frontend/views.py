"""One file of a translation unit as the lowering reads it: bytes, lines, tokens, comments
and macro expansions.

A translation unit holds code from several files of the project: the file parsed and
the headers (or included ``.cu`` files) it includes. libclang gives positions as byte
offsets and byte columns in the file the code is written in; a view per file answers
the questions the lowering asks about those positions (which tokens lie between two
offsets, which macro invocation covers one, what a byte column is in characters), so
code in a header is lowered as faithfully as code in the file parsed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property

from clang import cindex

from cudalint import ir
from cudalint.frontend import clang_ext
from cudalint.frontend.macros import Expansion, MacroMap

_CONTINUATION = re.compile(rb"\\\r?\n")


def split_lines(data: bytes) -> list[bytes]:
    """Lines as clang counts them: ended by ``\\n``, ``\\r\\n`` or ``\\r`` and nothing else."""
    return data.splitlines()


def decode(data: bytes) -> str:
    """Text for display. Source is bytes to the compiler: a byte that is not UTF-8 (a
    Windows-1252 apostrophe in a comment) reads as one replacement character."""
    return data.decode("utf-8", errors="replace")


class FileView:
    def __init__(self, tu: cindex.TranslationUnit, path: str, data: bytes, expansions: list[cindex.Cursor]):
        """``expansions``: the macro instantiations the preprocessing record holds for the file."""
        self.tu = tu
        self._expansions = expansions
        self.path = path
        self.data = data
        self.raw_lines = split_lines(data)
        self.lines = tuple(decode(line) for line in self.raw_lines)
        self.file = tu.get_file(path)
        self.comments: list[ir.Comment] = []
        self._tokens: list[tuple[int, int, str, cindex.TokenKind]] = []
        self._offset_spans: dict[tuple[int, int, ir.Position | None], ir.Span] = {}
        self._argument_ranges: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self._scan_tokens()
        self._token_offsets = [t[0] for t in self._tokens]

    def _scan_tokens(self) -> None:
        """Index the file's tokens and collect its comments."""
        for kind_value, offset, length in clang_ext.file_tokens(self.tu, self.file, len(self.data)):
            kind = clang_ext.TOKEN_KINDS[kind_value]
            raw = self.data[offset : offset + length]
            if kind == cindex.TokenKind.COMMENT:
                line, column = self.position(offset)
                spelling = decode(raw)
                self.comments.append(ir.Comment(line, column, spelling))
            else:
                # A backslash-newline inside a token is not part of its spelling.
                spelling = decode(_CONTINUATION.sub(b"", raw) if b"\\" in raw else raw)
            self._tokens.append((offset, offset + length, spelling, kind))

    @cached_property
    def macro_map(self) -> MacroMap:
        return MacroMap(self._expansions)

    def tokens(self, start: int, end: int):
        """(begin offset, spelling, kind) of the tokens that begin in ``[start, end)``."""
        first = bisect_right(self._token_offsets, start - 1)
        for begin, _, spelling, kind in self._tokens[first:]:
            if begin >= end:
                break
            yield begin, spelling, kind

    def tokens_between(self, start: int, end: int) -> list[str]:
        return [spelling for _, spelling, kind in self.tokens(start, end) if kind != cindex.TokenKind.COMMENT]

    def character_column(self, line: int, byte_column: int) -> int:
        """clang counts bytes; reports count characters (they differ after non-ASCII text)."""
        if not 0 < line <= len(self.raw_lines):
            return byte_column
        raw = self.raw_lines[line - 1]
        if raw.isascii():
            return byte_column
        return len(decode(raw[: byte_column - 1])) + 1

    def within_one_argument(self, expansion: Expansion, start: int, end: int) -> bool:
        """Whether bytes ``[start, end)`` lie inside one argument of a macro invocation."""
        key = (expansion.start, expansion.end)
        if key not in self._argument_ranges:
            self._argument_ranges[key] = self._arguments(*key)
        return any(first <= start and end <= last for first, last in self._argument_ranges[key])

    def _arguments(self, start: int, end: int) -> tuple[tuple[int, int], ...]:
        """Byte ranges of the arguments of the invocation ``[start, end)``: split at the
        commas outside any bracket, between its first ``(`` and the matching ``)``."""
        ranges: list[tuple[int, int]] = []
        depth, first = 0, None
        for begin, spelling, kind in self.tokens(start, end):
            if kind == cindex.TokenKind.COMMENT:
                continue
            if spelling in ("(", "[", "{"):
                depth += 1
                if depth == 1 and spelling == "(" and first is None:
                    first = begin + 1
                    continue
            elif spelling in (")", "]", "}"):
                depth -= 1
                if depth == 0 and first is not None:
                    ranges.append((first, begin))
                    break
            elif spelling == "," and depth == 1 and first is not None:
                ranges.append((first, begin))
                first = begin + 1
        return tuple(ranges)

    @cached_property
    def _line_starts(self) -> list[int]:
        starts = [0]
        for line in self.data.splitlines(keepends=True):
            starts.append(starts[-1] + len(line))
        return starts

    def position(self, offset: int) -> tuple[int, int]:
        """(line, character column) of a byte offset."""
        line = bisect_right(self._line_starts, offset)
        return line, self.character_column(line, offset - self._line_starts[line - 1] + 1)

    def offset_span(self, start: int, end: int, spelling: ir.Position | None) -> ir.Span:
        """The span between two byte offsets of this file (every node of a macro's expansion
        asks for the same one)."""
        key = (start, end, spelling)
        span = self._offset_spans.get(key)
        if span is None:
            span = self._offset_spans[key] = ir.Span(self.path, *self.position(start), *self.position(end), spelling)
        return span

    def source_file(self) -> ir.SourceFile:
        return ir.SourceFile(self.path, self.lines, tuple(self.comments))
