"""Applying fixes: ``cudalint check --fix``, ``--unsafe-fixes`` and ``--diff``.

A fix is a set of edits on the source, each a span in lines and character columns as the
frontend reports them (the text decoded as UTF-8, any invalid byte one replacement
character, a byte-order mark left out). Edits are applied to the file's bytes: what lies
outside them (line endings, the byte-order mark, bytes that are not UTF-8) is written back
exactly as it was read.

A pass applies, file by file, every applicable fix that overlaps none applied before it
(a fix identical to one applied counts as applied; an overlapping one waits for the next
pass, when the file has been analyzed again and its findings speak of the new text). The
files are analyzed again after each pass, up to ``MAX_PASSES`` passes, until no fix
applies. A file whose fixes brought parse errors it did not have is put back as it was
before that pass and fixed no further; a file that changed on disk while it was analyzed
is left alone. Both are said in one notice. ``--diff`` computes the first pass in memory
and writes nothing.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.diagnostics import Fix, Notice, NoticeKind
from cudalint.engine import FileResult, RunResult
from cudalint.frontend.views import decode

MAX_PASSES = 10
"""Passes of fixing and analyzing again before giving up on a file that keeps changing."""
_BOM = b"\xef\xbb\xbf"


@dataclass
class Applied:
    """One pass over one file."""

    data: bytes
    """The file's bytes with the fixes applied."""
    fixes: list[Fix] = field(default_factory=list)
    """The fixes applied, those already applied by an identical one included."""
    codes: tuple[str, ...] = ()
    """The rules whose fixes were applied."""


def apply_fixes(data: bytes, fixes: Iterable[Fix], path: str) -> Applied:
    """``data`` (the bytes of ``path``) with every fix applied that overlaps none before it
    in source order; a fix with an edit in another file, or outside the text, is left out."""
    bom = _BOM if data.startswith(_BOM) else b""
    text = Positions(data[len(bom) :])
    located: list[tuple[list[tuple[int, int, bytes]], Fix]] = []
    for fix in fixes:
        edits = [text.interval(edit.span, edit.replacement) if edit.span.file == path else None for edit in fix.edits]
        if edits and all(edit is not None for edit in edits):
            located.append((sorted(e for e in edits if e is not None), fix))
    located.sort(key=lambda item: item[0][0][:2])
    chosen: list[tuple[int, int, bytes]] = []
    result = Applied(data)
    for edits, fix in located:
        if all(edit in chosen for edit in edits):
            result.fixes.append(fix)  # Said by another finding (one tile, several conflicting accesses).
            continue
        # Touching counts as overlapping: two insertions at one place have no order.
        if _overlapping(edits) or any(s <= end and start <= e for s, e, _ in edits for start, end, _ in chosen):
            continue
        chosen.extend(edits)
        result.fixes.append(fix)
    body = text.data
    for start, end, replacement in sorted(chosen, reverse=True):
        body = body[:start] + replacement + body[end:]
    result.data = bom + body
    return result


def _overlapping(edits: list[tuple[int, int, bytes]]) -> bool:
    return any(first[1] >= second[0] for first, second in zip(edits, edits[1:], strict=False))


class Positions:
    """Byte offsets of the frontend's (line, character column) positions in a file's bytes."""

    def __init__(self, data: bytes):
        self.data = data
        self._starts = [0]
        for line in data.splitlines(keepends=True):  # \n, \r\n and \r, as clang counts lines
            self._starts.append(self._starts[-1] + len(line))

    def interval(self, span, replacement: str) -> tuple[int, int, bytes] | None:
        start = self.offset(span.line, span.column)
        end = self.offset(span.end_line, span.end_column)
        if start is None or end is None or end < start:
            return None
        return start, end, replacement.encode("utf-8")

    def offset(self, line: int, column: int) -> int | None:
        if not 0 < line < len(self._starts) or column < 1:
            return None
        begin = self._starts[line - 1]
        raw = self.data[begin : self._starts[line]].rstrip(b"\r\n")
        if raw.isascii():
            return begin + column - 1 if column - 1 <= len(raw) else None
        # A character column counts decoded characters; find the byte boundary that has
        # exactly the first ``column - 1`` of them before it and the rest after it.
        decoded = decode(raw)
        for cut in range(len(raw) + 1):
            head = decode(raw[:cut])
            if len(head) == column - 1 and head + decode(raw[cut:]) == decoded:
                return begin + cut
        return None


# ---------------------------------------------------------------------------- a run with fixes


@dataclass
class FixSettings:
    unsafe: bool = False
    """Apply the unsafe fixes too."""
    write: bool = True
    """False: compute what would change (``--diff``) and write nothing."""


@dataclass
class FixOutcome:
    result: RunResult
    """The findings left (with ``write``), or those found (without)."""
    changes: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)
    """Each file changed (or that would be), its bytes before and after."""
    fixed: int = 0
    """Fixes applied (with ``write``) or that would be (without)."""


def fixes_of(result: FileResult, unsafe: bool) -> list[Fix]:
    return [f.fix for f in result.findings if f.fix is not None and f.fix.applies(unsafe)]


def run_with_fixes(files: list[str], analyze: Callable[[], RunResult], settings: FixSettings) -> FixOutcome:
    """Analyze with ``analyze`` and fix ``files`` (the files the run covers) until no fix applies."""
    if settings.write:
        return _Passes(files, analyze, settings.unsafe).run()
    before = _read_all(files)
    result = analyze()
    planned = _plan(result, before, settings.unsafe, frozen=set())
    changes = {path: (before[path], applied.data) for path, applied in planned.items() if applied.data != before[path]}
    return FixOutcome(result, changes, sum(len(applied.fixes) for applied in planned.values()))


class _Passes:
    """``--fix``: passes of fixing and analyzing again."""

    def __init__(self, files: list[str], analyze: Callable[[], RunResult], unsafe: bool):
        self.files, self.analyze, self.unsafe = files, analyze, unsafe
        self.frozen: set[str] = set()
        """Files fixed no further: changed on disk, unwritable, or put back after a parse error."""
        self.notices: list[Notice] = []
        self.before: dict[str, bytes | None] = {}
        """Each file's bytes as read right before the latest analysis."""
        self.result = RunResult([])
        self.outcome = FixOutcome(self.result)

    def run(self) -> FixOutcome:
        self._analyze_again()
        for _ in range(MAX_PASSES):
            previous, written = self.before, self._write_pass()
            if not written:
                break
            errors = {path: Counter(_file(self.result, path).parse_errors) for path in written}
            self._analyze_again()
            broken = {path for path in written if self._roll_back(path, written[path], previous[path], errors[path])}
            for path, applied in written.items():
                if path not in broken:
                    self.outcome.fixed += len(applied.fixes)
                    first = self.outcome.changes.get(path, (previous[path],))[0]
                    self.outcome.changes[path] = (first, applied.data)
            if broken:
                self._analyze_again()  # The findings of the files put back.
        else:
            for path in _plan(self.result, self.before, self.unsafe, self.frozen):
                self.notices.append(Notice(path, NoticeKind.NOTE, f"fixes still apply after {MAX_PASSES} passes"))
        files = [
            dataclasses.replace(file, notices=[*file.notices, *(n for n in self.notices if n.path == file.path)])
            for file in self.result.files
        ]
        self.outcome.result = dataclasses.replace(self.result, files=files, fixed=self.outcome.fixed)
        return self.outcome

    def _analyze_again(self) -> None:
        # Read first: a file changed on disk after this read is caught before it is written.
        self.before = _read_all(self.files)
        self.result = self.analyze()

    def _write_pass(self) -> dict[str, Applied]:
        written = {}
        for path, applied in _plan(self.result, self.before, self.unsafe, self.frozen).items():
            if applied.data == self.before[path]:
                continue
            if _read(path) != self.before[path]:
                self._stop(path, NoticeKind.NOTE, "changed on disk while it was analyzed: not fixed")
                continue
            problem = _write(path, applied.data)
            if problem is not None:
                self._stop(path, NoticeKind.ERROR, f"cannot write the fixes: {problem}")
                continue
            written[path] = applied
        return written

    def _roll_back(self, path: str, applied: Applied, previous: bytes, errors: Counter[str]) -> bool:
        """Put ``path`` back as it was before ``applied`` when that brought a parse error."""
        new = Counter(_file(self.result, path).parse_errors) - errors
        if not new:
            return False
        if _read(path) == applied.data:
            _write(path, previous)
        message = f"fixes ({', '.join(applied.codes)}) rolled back: they introduce a parse error: {next(iter(new))}"
        self._stop(path, NoticeKind.ERROR, message)
        return True

    def _stop(self, path: str, kind: NoticeKind, message: str) -> None:
        self.frozen.add(path)
        self.notices.append(Notice(path, kind, message))


def _plan(result: RunResult, contents: dict[str, bytes | None], unsafe: bool, frozen: set[str]) -> dict[str, Applied]:
    """Each file's pass: the applicable fixes of its findings, on its bytes as read in ``contents``."""
    planned = {}
    for file in result.files:
        data = contents.get(file.path)
        fixes = fixes_of(file, unsafe)
        if data is not None and fixes and file.path not in frozen:
            applied = apply_fixes(data, fixes, file.path)
            if applied.fixes:
                applied.codes = tuple(sorted({f.code for f in file.findings if f.fix in applied.fixes}))
                planned[file.path] = applied
    return planned


def _file(result: RunResult, path: str) -> FileResult:
    return next((f for f in result.files if f.path == path), FileResult(path))


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def _read_all(files: list[str]) -> dict[str, bytes | None]:
    return {path: _read(path) for path in files}


def _write(path: str, data: bytes) -> str | None:
    """Why ``path`` could not be written, or None when it was."""
    try:
        # In place, not renamed over: the file keeps its permissions, owner and links.
        with open(path, "r+b") as handle:
            handle.write(data)
            handle.truncate()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


# ---------------------------------------------------------------------------- --diff


def unified_diff(changes: dict[str, tuple[bytes, bytes]], display: Callable[[str], str]) -> str:
    """A unified diff of every change, files in order, ``display`` naming them."""
    out = []
    for path in sorted(changes):
        before, after = (_diff_lines(data) for data in changes[path])
        name = display(path)
        out.extend(difflib.unified_diff(before, after, name, name))
    return "".join(out)


def _diff_lines(data: bytes) -> list[str]:
    lines = decode(data).splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines
