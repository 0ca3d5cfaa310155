"""The rule table: every code cudalint has assigned, with its name, status and rule class.

This table is the one list of rules. Configuration selectors, suppression comments, the
engine, the reports, `cudalint rule`, docs/rules/*.md and the README's rule table all read
it. Codes are never reused, so that users' configurations and comments stay valid: a rule
taken out stays here as ``REMOVED``, with no class.

A rule's kind (``RuleKind``, from the base class it derives from) says what it reads:
``FACTS`` rules read one translation unit's dataflow facts; ``SUPPRESSIONS`` rules read a
file's suppression comments once every other rule's findings were matched against them;
``MEASURED`` rules report what Nsight Compute measured where no other rule has a finding
(``cudalint check --profile``).

A row names its rule's module, imported on first use: the rules import the dataflow
analysis, which a run whose results all come from the cache never needs.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from enum import Enum

from cudalint.rules.base import FactRule, MeasuredRule, Rule, RuleDefinitionError, RuleKind, SuppressionRule


class Status(Enum):
    STABLE = "stable"
    """Runs when selected by its code, a prefix of it or ALL (the default selection is ALL)."""
    PREVIEW = "preview"
    """Runs only when its whole code is selected: ALL and prefixes leave it out until it is stable."""
    REMOVED = "removed"
    """Never runs; its code stays valid in configurations and suppression comments."""


@dataclass(frozen=True)
class RuleCode:
    code: str
    name: str
    status: Status
    since: str
    """The first release that had the rule (``0.4.0``): a user reading an older version's
    documentation, or a configuration written for it, knows which codes it lacks."""
    location: str | None
    """``module:Class`` of the implementing class, under ``cudalint.rules``; None exactly when the rule was removed."""

    @property
    def rule(self) -> type[Rule] | None:
        """The implementing class, imported on first use."""
        return _load(self) if self.location is not None else None

    @property
    def kind(self) -> RuleKind | None:
        return self.rule.kind if self.location is not None else None

    def selected_by(self, selector: str) -> bool:
        """Whether ``selector`` (``ALL``, a code or a prefix of one) turns this rule on."""
        if self.status is Status.REMOVED:
            return False
        if self.status is Status.PREVIEW:
            return selector == self.code
        return selector == "ALL" or self.code.startswith(selector)


_LOADED: dict[str, type[Rule]] = {}
_VERSION = re.compile(r"\d+\.\d+\.\d+")


def _load(row: RuleCode) -> type[Rule]:
    """``row``'s class, checked against the row's code and name."""
    rule = _LOADED.get(row.location)
    if rule is None:
        module, name = row.location.split(":")
        rule = _LOADED[row.location] = getattr(importlib.import_module(f"cudalint.rules.{module}"), name)
    if (rule.code, rule.name) != (row.code, row.name):
        raise RuleDefinitionError(
            f"{rule.__name__} is {rule.code} {rule.name!r}; the table says {row.code} {row.name!r}"
        )
    return rule


def _table(*rows: RuleCode) -> dict[str, RuleCode]:
    table: dict[str, RuleCode] = {}
    for row in rows:
        if row.code in table:
            raise RuleDefinitionError(f"{row.code} is in the rule table twice")
        if (row.location is None) != (row.status is Status.REMOVED):
            raise RuleDefinitionError(f"{row.code}: a rule has a class unless it was removed")
        if not _VERSION.fullmatch(row.since):
            raise RuleDefinitionError(f"{row.code}: since {row.since!r} is not a release version (0.4.0)")
        table[row.code] = row
    return dict(sorted(table.items()))


RULES = _table(
    RuleCode("CL001", "unused-suppression", Status.STABLE, "0.1.0", "cl001_unused_suppression:UnusedSuppression"),
    RuleCode(
        "CL091",
        "measured-excess-sectors",
        Status.STABLE,
        "0.4.0",
        "cl091_measured_excess_sectors:MeasuredExcessSectors",
    ),
    RuleCode(
        "CL092",
        "measured-bank-conflicts",
        Status.STABLE,
        "0.4.0",
        "cl092_measured_bank_conflicts:MeasuredBankConflicts",
    ),
    RuleCode("CL093", "measured-divergence", Status.STABLE, "0.4.0", "cl093_measured_divergence:MeasuredDivergence"),
    RuleCode("CL094", "measured-fp64", Status.STABLE, "0.4.0", "cl094_measured_fp64:MeasuredFp64"),
    RuleCode(
        "CL095", "measured-local-memory", Status.STABLE, "0.4.0", "cl095_measured_local_memory:MeasuredLocalMemory"
    ),
    RuleCode(
        "CL101",
        "uncoalesced-global-access",
        Status.STABLE,
        "0.1.0",
        "cl101_uncoalesced_global_access:UncoalescedGlobalAccess",
    ),
    RuleCode(
        "CL102", "array-of-structs-access", Status.STABLE, "0.1.0", "cl102_array_of_structs_access:ArrayOfStructsAccess"
    ),
    RuleCode("CL201", "shared-bank-conflict", Status.STABLE, "0.1.0", "cl201_shared_bank_conflict:SharedBankConflict"),
    RuleCode("CL301", "divergent-branch", Status.STABLE, "0.1.0", "cl301_divergent_branch:DivergentBranch"),
    RuleCode(
        "CL302",
        "barrier-in-divergent-code",
        Status.STABLE,
        "0.1.0",
        "cl302_barrier_in_divergent_code:BarrierInDivergentCode",
    ),
    RuleCode("CL401", "implicit-fp64", Status.STABLE, "0.1.0", "cl401_implicit_fp64:ImplicitFp64"),
    RuleCode("CL501", "register-spill-risk", Status.STABLE, "0.1.0", "cl501_register_spill_risk:RegisterSpillRisk"),
    RuleCode(
        "CL502",
        "local-array-dynamic-index",
        Status.STABLE,
        "0.1.0",
        "cl502_local_array_dynamic_index:LocalArrayDynamicIndex",
    ),
    RuleCode("CL503", "occupancy-cliff", Status.PREVIEW, "0.4.0", "cl503_occupancy_cliff:OccupancyCliff"),
    RuleCode(
        "CL504",
        "math-slow-path-local-memory",
        Status.PREVIEW,
        "0.4.0",
        "cl504_math_slow_path_local_memory:MathSlowPathLocalMemory",
    ),
)


def implemented() -> dict[str, type[Rule]]:
    """Code -> class of every rule that can run (stable and preview), in code order."""
    return {code: row.rule for code, row in RULES.items() if row.location is not None}


def rule_name(code: str) -> str:
    """The name of a code in the table; empty for a code it does not hold."""
    row = RULES.get(code)
    return row.name if row is not None else ""


def of_kind(kind: RuleKind, codes: list[str]) -> list[type[Rule]]:
    """The classes of the rules among ``codes`` that read what ``kind`` names, in the order given."""
    return [RULES[code].rule for code in codes if RULES[code].kind is kind]


__all__ = [
    "RULES",
    "FactRule",
    "MeasuredRule",
    "Rule",
    "RuleCode",
    "RuleKind",
    "Status",
    "SuppressionRule",
    "implemented",
    "of_kind",
    "rule_name",
]
