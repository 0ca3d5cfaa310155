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
from cudalint.config import selector_matches
from cudalint.diagnostics import Finding
from cudalint.rules import RULES, RuleKind, rule_name

# The lookahead keeps a misspelt directive (`ignore-nextline[...]`) from silently
# acting as a blanket `ignore` on the wrong line.
_CUDALINT = re.compile(r"cudalint:\s*(ignore-next-line|ignore-file|ignore)(?![\w-])(?:\s*\[([^\]]*)\])?")
_NOLINT = re.compile(r"\bNOLINT(NEXTLINE)?\b(?:\(([^)]*)\))?")
_SCOPES = {"ignore": "line", "ignore-next-line": "next-line", "ignore-file": "file"}
_GLOB_CHARACTERS = "*?["


def _reads_suppressions(code: str) -> bool:
    """A rule that reports on suppressions is silenced only by naming it: otherwise a blanket
    `ignore` or `NOLINT(cudalint-*)` would hide the report that it is itself unused."""
    row = RULES.get(code)
    return row is not None and row.kind is RuleKind.SUPPRESSIONS


@dataclass
class Selector:
    text: str
    explicit: bool
    """Names cudalint specifically, so leaving it unused is worth reporting."""
    used: bool = False

    def matches(self, code: str, name: str, is_glob: bool) -> bool:
        if is_glob:
            # clang-tidy check names are lower case; accept `cudalint-CL401` as well.
            pattern = self.text.lower()
            if _reads_suppressions(code) and any(char in pattern for char in _GLOB_CHARACTERS):
                return False
            return any(fnmatch.fnmatchcase(f"cudalint-{check}", pattern) for check in (name, code.lower()))
        if self.text == "ALL" and _reads_suppressions(code):
            return False
        return selector_matches(self.text, code)


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
            if _reads_suppressions(code):
                return False
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
            suppression = Suppression(comment.line, comment.column, _SCOPES[match.group(1)], "cudalint")
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
                suppression.selectors = [Selector(n, explicit=n.lower().startswith("cudalint-")) for n in names]
                # NOLINT(bugprone-*) is another tool's business; NOLINT(*) is ours too.
                if not any(
                    s.explicit or fnmatch.fnmatchcase("cudalint-x", s.text.lower()) for s in suppression.selectors
                ):
                    continue
            found.append(suppression)
    return found


@dataclass(frozen=True)
class UnusedSuppression:
    line: int
    column: int
    text: str | None
    """The unused code or check name; None for a comment without a list."""
    style: str
    scope: str
    unknown: bool = False
    """``text`` names no rule at all (a typo rather than a stale comment)."""
    name: str = ""
    """The name of the rule whose code ``text`` is, if it is one."""


def apply_suppressions(findings: list[Finding], suppressions: list[Suppression]) -> list[Finding]:
    """Drop suppressed findings; marks which suppressions were used."""
    kept = []
    for finding in findings:
        suppressed = False
        for suppression in suppressions:
            covered = suppression.covers(finding.span.line) or (
                finding.first_line is not None and suppression.covers(finding.first_line)
            )
            if covered and suppression.claim(finding.code, rule_name(finding.code)):
                suppressed = True
        if not suppressed:
            kept.append(finding)
    return kept


def unused_suppressions(suppressions: list[Suppression], enabled: list[str]) -> list[UnusedSuppression]:
    """Suppressions (or codes in them) that silenced nothing although their rules ran.

    ``enabled`` holds the codes of the rules that ran. A suppression is judged only when
    every rule it covers that can run ran: a narrower ``--select`` must not make valid
    comments look stale, and neither may the code of a removed rule. A blanket comment
    covers what ``ALL`` selects.
    """
    unused = []
    for suppression in suppressions:
        where = (suppression.line, suppression.column)
        if not suppression.selectors:
            # A bare NOLINT also serves clang-tidy, so only cudalint's own comment is judged.
            everything_ran = all(
                code in enabled
                for code, row in RULES.items()
                if row.selected_by("ALL") and row.kind is not RuleKind.MEASURED
            )
            if suppression.style == "cudalint" and not suppression.blanket_used and everything_ran:
                unused.append(UnusedSuppression(*where, None, suppression.style, suppression.scope))
            continue
        for selector in suppression.selectors:
            if selector.used or not selector.explicit:
                continue
            targets = [
                code for code, row in RULES.items() if selector.matches(code, row.name, suppression.style == "nolint")
            ]
            runnable = [code for code in targets if RULES[code].location is not None]
            if targets and not (runnable and all(code in enabled for code in runnable)):
                continue
            unused.append(
                UnusedSuppression(
                    *where,
                    selector.text,
                    suppression.style,
                    suppression.scope,
                    unknown=not targets,
                    name=rule_name(selector.text),
                )
            )
    return unused
