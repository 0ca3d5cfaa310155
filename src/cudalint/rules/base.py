"""The rule contract: metadata checked when a rule class is defined, docs parsed from its docstring."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

from cudalint.diagnostics import Finding, Level

if TYPE_CHECKING:
    from cudalint.dataflow import Facts
    from cudalint.suppressions import UnusedSuppression

DOCS_URL = "https://github.com/cudalint/cudalint/blob/main/docs/rules/{code}.md"

# What a rule is about: its ``category``, one of these names (a rule with another fails
# when its class is defined). The docs/rules pages and SARIF's tags name it. Codes come in
# hundreds, one per category (CL1xx global memory ... CL5xx registers; CL0xx holds
# cudalint's own rules and those that report a measurement, of any category): a rule that
# fits none starts a category and a hundred of its own (CL6xx and beyond) with
# `scripts/add_rule.py --new-category NAME --range CL6 --describe TEXT`, which adds the
# line here and the hundred to CONTRIBUTING.md.
CATEGORIES = {
    "meta": "cudalint's own bookkeeping",
    "global-memory": "global memory access efficiency",
    "shared-memory": "shared memory bank conflicts",
    "control-flow": "warp divergence and barriers",
    "precision": "floating-point precision and throughput",
    "registers": "register pressure and local memory",
}
PRECISIONS = ("very-high", "high", "medium", "low")
REQUIRED_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead")
OPTIONAL_SECTIONS = ("Fix safety", "References")

_CODE = re.compile(r"CL\d{3}")
_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_SECTION = re.compile(r"^## (.+?)\s*$", re.MULTILINE)
_CUDA_BLOCK = re.compile(r"```cuda\n(.*?)```", re.DOTALL)


class RuleKind(Enum):
    """What a rule reads; the engine runs each kind at its own stage."""

    FACTS = "facts"
    """The dataflow facts of one translation unit (``FactRule.check``)."""
    SUPPRESSIONS = "suppressions"
    """A file's suppression comments, after the other rules' findings were matched against
    them (``SuppressionRule.report``)."""
    MEASURED = "measured"
    """Nsight Compute's figures per source line (``cudalint check --profile``): the hazards
    the hardware showed where no other rule has a finding (``MeasuredRule``)."""


class RuleDefinitionError(TypeError):
    """A rule class whose metadata or documentation is incomplete."""


@dataclass(frozen=True)
class RuleDoc:
    summary: str
    sections: dict[str, str]

    @property
    def markdown(self) -> str:
        parts = [self.summary, ""]
        for title, body in self.sections.items():
            parts += [f"## {title}", body, ""]
        return "\n".join(parts).strip() + "\n"

    @property
    def text(self) -> str:
        parts = [self.summary, ""]
        for title, body in self.sections.items():
            parts += [title, _strip_fences(body), ""]
        return "\n".join(parts).strip() + "\n"

    def code_block(self, section: str) -> str:
        match = _CUDA_BLOCK.search(self.sections.get(section, ""))
        if not match:
            raise RuleDefinitionError(f"section {section!r} has no ```cuda block")
        return match.group(1)


def _strip_fences(body: str) -> str:
    lines = [line for line in body.splitlines() if not line.startswith("```")]
    return "\n".join(lines)


def parse_doc(owner: str, docstring: str | None) -> RuleDoc:
    text = inspect.cleandoc(docstring or "")
    headings = list(_SECTION.finditer(text))
    if not headings:
        raise RuleDefinitionError(f"{owner}: docstring has no '## ' sections")
    summary = text[: headings[0].start()].strip()
    if not summary:
        raise RuleDefinitionError(f"{owner}: docstring needs a one-line summary first")
    sections: dict[str, str] = {}
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        sections[heading.group(1)] = text[heading.end() : end].strip()
    expected = [s for s in (*REQUIRED_SECTIONS, *OPTIONAL_SECTIONS) if s in sections]
    missing = [s for s in REQUIRED_SECTIONS if s not in sections]
    unknown = [s for s in sections if s not in REQUIRED_SECTIONS + OPTIONAL_SECTIONS]
    if missing or unknown or list(sections) != expected:
        raise RuleDefinitionError(
            f"{owner}: docstring sections must be {', '.join(REQUIRED_SECTIONS + OPTIONAL_SECTIONS)} in order"
            + (f"; missing {missing}" if missing else "")
            + (f"; unknown {unknown}" if unknown else "")
        )
    return RuleDoc(summary, sections)


class Rule:
    """Base of every rule. Subclasses set the metadata and implement ``check``."""

    code: ClassVar[str]
    name: ClassVar[str]
    category: ClassVar[str]
    default_level: ClassVar[Level]
    precision: ClassVar[str] = "high"
    tags: ClassVar[tuple[str, ...]] = ()
    kind: ClassVar[RuleKind]
    """Set by the base a rule derives from: ``FactRule``, ``SuppressionRule`` or ``MeasuredRule``."""
    doc: ClassVar[RuleDoc]

    def __init_subclass__(cls, abstract: bool = False, **kwargs):
        super().__init_subclass__(**kwargs)
        if abstract:
            return
        owner = cls.__name__
        for attribute in ("code", "name", "category", "default_level"):
            if attribute not in cls.__dict__:
                raise RuleDefinitionError(f"{owner}: missing class attribute {attribute!r}")
        if not _CODE.fullmatch(cls.code):
            raise RuleDefinitionError(f"{owner}: code {cls.code!r} is not of the form CL123")
        if not _NAME.fullmatch(cls.name):
            raise RuleDefinitionError(f"{owner}: name {cls.name!r} is not kebab-case")
        if cls.category not in CATEGORIES:
            raise RuleDefinitionError(f"{owner}: unknown category {cls.category!r}")
        if not isinstance(getattr(cls, "kind", None), RuleKind):
            raise RuleDefinitionError(f"{owner}: derive from FactRule, SuppressionRule or MeasuredRule")
        if not isinstance(cls.default_level, Level):
            raise RuleDefinitionError(f"{owner}: default_level must be a Level")
        if cls.precision not in PRECISIONS:
            raise RuleDefinitionError(f"{owner}: precision must be one of {PRECISIONS}")
        cls.doc = parse_doc(owner, cls.__doc__)
        cls.doc.code_block("Example")
        cls.doc.code_block("Use instead")

    @classmethod
    def help_uri(cls) -> str:
        return DOCS_URL.format(code=cls.code)

    def finding(self, message: str, span, level: Level | None = None, **extra) -> Finding:
        return Finding(self.code, level or self.default_level, message, span, **extra)


class FactRule(Rule, abstract=True):
    """A rule that reads the dataflow facts of one translation unit."""

    kind = RuleKind.FACTS

    def check(self, facts: Facts) -> Iterable[Finding]:
        raise NotImplementedError(f"{type(self).__name__} must implement check()")


class SuppressionRule(Rule, abstract=True):
    """A rule that reads a file's suppression comments once the other rules' findings were
    matched against them."""

    kind = RuleKind.SUPPRESSIONS

    def report(self, path: str, unused: Iterable[UnusedSuppression]) -> list[Finding]:
        raise NotImplementedError(f"{type(self).__name__} must implement report()")


class MeasuredRule(Rule, abstract=True):
    """A hazard the hardware measured on a source line where no rule of its class has a
    finding: reported by ``cudalint check --profile`` (``cudalint.profile.join``), never by
    the static analysis."""

    kind = RuleKind.MEASURED
    hazard_class: ClassVar[str]
    """The class of the measured verdict (``cudalint.profile.source_lines.CLASSES``)."""
