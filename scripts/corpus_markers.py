"""The markers a corpus file carries on the lines of its findings, and what each one asserts.

A marker sits in a ``//`` comment on the line the finding belongs to (after other text of
the comment, as ``// cudalint: ignore[CL401]  expect: CL001 warning``); one comment may
hold several, each starting at its keyword:

``// expect: CODE LEVEL [@COLUMN] ["PART OF THE MESSAGE"][, CODE LEVEL ...]``
    cudalint reports CODE at LEVEL on this line, once per item (a line with a load and a
    store of one conflict names ``CL201 warning`` twice); with ``@COLUMN`` the finding
    starts at that column (1-based, as the text report prints it), with a quoted part its
    message contains that text (no double quote inside it).
``// expect-miss: CODE [LEVEL] REASON``
    the hardware shows the hazard CODE names here and cudalint does not report it: at
    LEVEL or above when given (a miss at ``warning`` leaves a note standing), at no level
    otherwise. REASON says why the tool misses it.
``// known false positive: CODE LEVEL [@COLUMN] ["PART OF THE MESSAGE"] REASON``
    cudalint reports CODE at LEVEL here although the hardware shows no such hazard; it
    counts as an expected finding (the line needs no ``expect:`` for it). REASON says why
    the finding is wrong.

A reason runs to the end of the comment or to the next marker, so it must not itself
hold ``expect:``, ``expect-miss:`` or ``known false positive:``.

A fix that makes the tool report a missed hazard, or drop a false positive, fails the
corpus test until the marker becomes an ``expect:`` or goes; ``scripts/rule_accuracy.py``
checks the two kinds against the per-line hardware figures.

    python scripts/corpus_markers.py FILE...   # the markers as parsed, one a line
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

EXPECT = "expect"
MISS = "expect-miss"
FALSE_POSITIVE = "known false positive"
LEVELS = ("note", "warning", "error")
"""From the least severe."""

_COMMENT = re.compile(r"//(.*)$")
_KEYWORD = re.compile(r"\b(expect-miss|expect|known false positive):")
_ITEM = re.compile(
    r"\s*(?P<code>CL\d{3})(?:\s+(?P<level>error|warning|note)\b)?"
    r'(?:\s+@(?P<column>\d+)\b)?(?:\s+"(?P<message>[^"]+)")?'
)
_SEPARATOR = re.compile(r"^[\s,:;\u2014-]+|[\s/]+$")


class MarkerError(ValueError):
    """A marker that does not follow the syntax: the file's test cannot say what it asserts."""


@dataclass(frozen=True, order=True)
class Marker:
    line: int
    code: str
    kind: str
    """``expect``, ``expect-miss`` or ``known false positive``."""
    level: str | None
    """None only for a miss at every level."""
    column: int | None = None
    message: str | None = None
    reason: str | None = None

    @property
    def reported(self) -> bool:
        """Whether the marker names a finding cudalint makes."""
        return self.kind != MISS

    def matches(self, code: str, level: str, column: int, message: str) -> bool:
        """Whether a finding reported on the marker's line is the one a reported marker names."""
        return (
            code == self.code
            and level == self.level
            and (self.column is None or column == self.column)
            and (self.message is None or self.message in message)
        )

    def misses(self, code: str, level: str) -> bool:
        """Whether a finding of ``code`` at ``level`` is one an ``expect-miss`` marker says is not made."""
        floor = LEVELS.index(self.level) if self.level else 0
        return code == self.code and LEVELS.index(level) >= floor

    def describe(self) -> str:
        parts = [f"{self.kind}: {self.code}"]
        if self.level:
            parts.append(self.level)
        if self.column is not None:
            parts.append(f"@{self.column}")
        if self.message is not None:
            parts.append(f'"{self.message}"')
        if self.reason:
            parts.append(f"({self.reason})")
        return " ".join(parts)


def line_markers(text: str, number: int) -> list[Marker]:
    """The markers of one source line (``number``: its 1-based line number)."""
    comment = _COMMENT.search(text)
    if not comment:
        return []
    body = comment.group(1)
    starts = list(_KEYWORD.finditer(body))
    markers = []
    for keyword, following in zip(starts, [*starts[1:], None], strict=False):
        content = body[keyword.end() : following.start() if following else len(body)]
        markers += _parse(keyword.group(1), content, number)
    return markers


def _parse(kind: str, content: str, number: int) -> list[Marker]:
    if kind == EXPECT:
        items = []
        for part in _split_items(content):
            item = _ITEM.fullmatch(part)
            if not item or not item.group("level"):
                raise MarkerError(
                    f'line {number}: `expect: {content.strip()}`: each item is CODE LEVEL [@COLUMN] ["TEXT"]'
                )
            items.append(_marker(kind, item, number))
        if not items:
            raise MarkerError(f"line {number}: `expect:` names no finding")
        return items
    item = _ITEM.match(content)
    reason = _SEPARATOR.sub("", content[item.end() :]) if item else ""
    if not item or (kind == FALSE_POSITIVE and not item.group("level")):
        form = "CODE [LEVEL] REASON" if kind == MISS else 'CODE LEVEL [@COLUMN] ["TEXT"] REASON'
        raise MarkerError(f"line {number}: `{kind}: {content.strip()}`: write {form}")
    if not reason:
        raise MarkerError(f"line {number}: `{kind}: {content.strip()}` gives no reason")
    if kind == MISS and (item.group("column") or item.group("message")):
        raise MarkerError(f"line {number}: `{kind}:` names no column or message: nothing is reported")
    return [_marker(kind, item, number, reason)]


def _split_items(content: str) -> list[str]:
    """``expect:`` items, split at commas outside quoted message parts."""
    items, current, quoted = [], [], False
    for char in content.rstrip().rstrip("/").rstrip():
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    items.append("".join(current).strip())
    return [item for item in items if item]


def _marker(kind: str, item: re.Match, number: int, reason: str | None = None) -> Marker:
    column = item.group("column")
    return Marker(
        number,
        item.group("code"),
        kind,
        item.group("level"),
        int(column) if column else None,
        item.group("message"),
        reason,
    )


def file_markers(path: Path) -> list[Marker]:
    """Every marker of a file, in line order; a malformed one raises ``MarkerError`` naming the file."""
    markers = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            markers += line_markers(text, number)
        except MarkerError as error:
            raise MarkerError(f"{path.name}:{error}") from None
    return markers


@dataclass(frozen=True)
class Shown:
    """What a user sees of a finding on a marked line."""

    code: str
    level: str
    column: int
    message: str

    def describe(self) -> str:
        return f"{self.code} {self.level} @{self.column} {self.message!r}"


def unmet(marked: list[Marker], found: list[Shown]) -> list[str]:
    """What the markers of one line assert that the findings on it contradict: a finding a
    miss says is not made, or markers with a column or message part that no one-to-one
    pairing with the findings satisfies. (The count of findings per code and level is the
    multiset comparison's to judge.)"""
    problems = [
        f"{shown.describe()}, where `{marker.describe()}` says it is missed"
        for marker in marked
        if marker.kind == MISS
        for shown in found
        if marker.misses(shown.code, shown.level)
    ]
    wanted = [m for m in marked if m.reported]
    if any(m.column is not None or m.message is not None for m in wanted) and not _paired(wanted, found):
        said = "; ".join(shown.describe() for shown in found) or "nothing"
        problems.append(f"{' and '.join(m.describe() for m in wanted)}, where cudalint reports {said}")
    return problems


def _paired(wanted: list[Marker], found: list[Shown]) -> bool:
    """Whether each marker can be given a finding of its own that it matches."""
    if not wanted:
        return True
    first, rest = wanted[0], wanted[1:]
    return any(
        first.matches(s.code, s.level, s.column, s.message) and _paired(rest, found[:i] + found[i + 1 :])
        for i, s in enumerate(found)
    )


def main(argv: list[str]) -> int:
    status = 0
    for name in argv:
        try:
            for marker in file_markers(Path(name)):
                print(f"{name}:{marker.line}: {marker.describe()}")
        except (MarkerError, OSError) as error:
            print(f"{name}: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
