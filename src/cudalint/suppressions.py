"""Suppression comments.

``// cudalint: ignore[CL401]`` (this line), ``// cudalint: ignore-next-line[...]``,
``// cudalint: ignore-file[...]``, and clang-tidy's ``NOLINT(cudalint-...)`` /
``NOLINTNEXTLINE(...)``. Codes may be prefixes (``CL4``); no list means every rule.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.diagnostics import Finding

_CUDALINT = re.compile(r"cudalint:\s*(ignore-next-line|ignore-file|ignore)\b(?:\s*\[([^\]]*)\])?")
_NOLINT = re.compile(r"\bNOLINT(NEXTLINE)?\b(?:\(([^)]*)\))?")


@dataclass
class Selector:
    text: str
    explicit: bool
    """Names cudalint specifically, so leaving it unused is worth reporting."""
    used: bool = False

    def matches(self, code: str, name: str, is_glob: bool) -> bool:
        if is_glob:
            return fnmatch.fnmatchcase(f"cudalint-{name}", self.text) or fnmatch.fnmatchcase(
                f"cudalint-{code}", self.text
            )
        return self.text == "ALL" or code.startswith(self.text)


@dataclass
class Suppression:
    line: int
    column: int
    scope: str
    """``line``, ``next-line`` or ``file``."""
    style: str
    """``cudalint`` or ``nolint``."""
    selectors: list[Selector] = field(default_factory=list)
    blanket_used: bool = False

    def covers(self, line: int) -> bool:
        if self.scope == "file":
            return True
        return line == (self.line + 1 if self.scope == "next-line" else self.line)

    def claim(self, code: str, name: str) -> bool:
        if not self.selectors:
            self.blanket_used = True
            return True
        hit = False
        for selector in self.selectors:
            if selector.matches(code, name, is_glob=self.style == "nolint"):
                selector.used = True
                hit = True
        return hit


def parse_suppressions(comments: tuple[ir.Comment, ...]) -> list[Suppression]:
    found = []
    for comment in comments:
        for match in _CUDALINT.finditer(comment.text):
            scope = {"ignore": "line", "ignore-next-line": "next-line", "ignore-file": "file"}[match.group(1)]
            suppression = Suppression(comment.line, comment.column, scope, "cudalint")
            if match.group(2) is not None:
                suppression.selectors = [
                    Selector(code.strip().upper(), explicit=True) for code in match.group(2).split(",") if code.strip()
                ]
            found.append(suppression)
        for match in _NOLINT.finditer(comment.text):
            scope = "next-line" if match.group(1) else "line"
            suppression = Suppression(comment.line, comment.column, scope, "nolint")
            if match.group(2) is not None:
                names = [n.strip() for n in match.group(2).split(",") if n.strip()]
                suppression.selectors = [Selector(n, explicit=n.startswith("cudalint-")) for n in names]
                if not any(fnmatch.fnmatchcase("cudalint-x", n) or n.startswith("cudalint-") for n in names):
                    continue
            found.append(suppression)
    return found


@dataclass(frozen=True)
class UnusedSuppression:
    line: int
    column: int
    text: str
    """What is unused: the whole comment, or one code in it."""
    style: str


def apply_suppressions(
    findings: list[Finding],
    suppressions: list[Suppression],
    names: dict[str, str],
) -> list[Finding]:
    """Drop suppressed findings; marks which suppressions were used."""
    kept = []
    for finding in findings:
        suppressed = False
        for suppression in suppressions:
            if suppression.covers(finding.span.line) and suppression.claim(finding.code, names.get(finding.code, "")):
                suppressed = True
        if not suppressed:
            kept.append(finding)
    return kept


def unused_suppressions(
    suppressions: list[Suppression], enabled: dict[str, str], known: dict[str, str]
) -> list[UnusedSuppression]:
    """Suppressions (or codes in them) that silenced nothing although their rules ran.

    ``enabled`` and ``known`` map codes to names: the rules that ran, and every code
    in the catalog. A code whose rule did not run this time is not reported: a
    narrower ``--select`` must not make valid comments look stale.
    """
    unused = []
    for suppression in suppressions:
        if not suppression.selectors:
            if not suppression.blanket_used and suppression.style == "cudalint":
                unused.append(UnusedSuppression(suppression.line, suppression.column, "ignore", suppression.style))
            continue
        for selector in suppression.selectors:
            if selector.used or not selector.explicit:
                continue
            glob = suppression.style == "nolint"
            targets = [c for c in known if selector.matches(c, known[c], glob)]
            if targets and not any(c in enabled for c in targets):
                continue
            unused.append(UnusedSuppression(suppression.line, suppression.column, selector.text, suppression.style))
    return unused
