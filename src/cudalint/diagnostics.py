"""What a run produces: findings on source lines, and notices about files."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from cudalint.ir import Span


class Level(enum.Enum):
    """Severity of a finding; the values are SARIF's ``level`` names."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "note": 2}[self.value]


class Safety(enum.Enum):
    """Whether applying a fix leaves what the program computes as it was (``--fix`` applies
    only these) or may change it (``--unsafe-fixes`` adds these); the rule decides, from
    what the compiler makes of the code before and after."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Edit:
    span: Span
    replacement: str


@dataclass(frozen=True, slots=True)
class Fix:
    description: str
    edits: tuple[Edit, ...]
    safety: Safety = Safety.UNSAFE
    """A fix that does not say it is safe is not applied without ``--unsafe-fixes``."""

    def applies(self, unsafe: bool) -> bool:
        """Whether ``--fix`` applies it, with ``--unsafe-fixes`` or without."""
        return unsafe or self.safety is Safety.SAFE


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    level: Level
    message: str
    span: Span
    fix: Fix | None = None
    function: str | None = None
    """The kernel or device function the finding is in."""
    properties: dict = field(default_factory=dict, compare=False, hash=False)
    """Measured or predicted figures behind the finding (machine-readable output)."""
    first_line: int | None = None
    """The line the code the finding is about starts on, where that is above ``span``'s (an
    access written over several lines, reported on the line nvcc counts its instruction):
    a suppression comment for that line covers the finding too."""

    @property
    def path(self) -> str:
        return self.span.file

    def sort_key(self):
        return (self.span.file, self.span.line, self.span.column, self.code, self.message)


class NoticeKind(enum.Enum):
    ERROR = "error"
    """The file could not be analyzed at all."""
    INCOMPLETE = "incomplete"
    """The file parsed with errors, or its analysis was cut short; findings cover only what was analyzed."""
    NOTE = "note"
    """Something the run did that the user may want to know (a project directory it searched)."""


@dataclass(frozen=True, slots=True)
class Notice:
    path: str
    kind: NoticeKind
    message: str
    line: int | None = None
    column: int | None = None

    def one_line(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}:{self.column or 1}"
        prefix = {NoticeKind.ERROR: "error", NoticeKind.INCOMPLETE: "analysis incomplete", NoticeKind.NOTE: "note"}[
            self.kind
        ]
        return f"{where}: {prefix}: {self.message}"
