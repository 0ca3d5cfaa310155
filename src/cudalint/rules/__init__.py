"""The rule catalog.

Codes are fixed so users' configurations stay valid as rules arrive; only rules that
are implemented are registered. The registry imports every rule and, through them, the
dataflow analysis: it is built on first use, so that a run whose results all come from
the cache, which needs only the codes, imports none of that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cudalint.rules.base import Rule

CATALOG = {
    "CL001": "unused-suppression",
    "CL101": "uncoalesced-global-access",
    "CL102": "array-of-structs-access",
    "CL201": "shared-bank-conflict",
    "CL301": "divergent-branch",
    "CL302": "barrier-in-divergent-code",
    "CL401": "implicit-fp64",
    "CL501": "register-spill-risk",
    "CL502": "local-array-dynamic-index",
}


IMPLEMENTED = ("CL001", "CL101", "CL102", "CL201", "CL301", "CL302", "CL401", "CL501", "CL502")
"""The codes of the registered rules, in order (the registry checks that it holds exactly these)."""


def _register(*rules: type[Rule]) -> dict[str, type[Rule]]:
    from cudalint.rules.base import RuleDefinitionError

    registry: dict[str, type[Rule]] = {}
    for rule in rules:
        if rule.code in registry:
            raise RuleDefinitionError(f"{rule.code} is registered twice")
        if CATALOG.get(rule.code) != rule.name:
            raise RuleDefinitionError(f"{rule.code} must be named {CATALOG.get(rule.code)!r} (catalog)")
        registry[rule.code] = rule
    return dict(sorted(registry.items()))


def _registry() -> dict[str, type[Rule]]:
    from cudalint.rules.cl001_unused_suppression import UnusedSuppression
    from cudalint.rules.cl101_uncoalesced_global_access import UncoalescedGlobalAccess
    from cudalint.rules.cl102_array_of_structs_access import ArrayOfStructsAccess
    from cudalint.rules.cl201_shared_bank_conflict import SharedBankConflict
    from cudalint.rules.cl301_divergent_branch import DivergentBranch
    from cudalint.rules.cl302_barrier_in_divergent_code import BarrierInDivergentCode
    from cudalint.rules.cl401_implicit_fp64 import ImplicitFp64
    from cudalint.rules.cl501_register_spill_risk import RegisterSpillRisk
    from cudalint.rules.cl502_local_array_dynamic_index import LocalArrayDynamicIndex

    from cudalint.rules.base import RuleDefinitionError

    registry = _register(
        UnusedSuppression,
        UncoalescedGlobalAccess,
        ArrayOfStructsAccess,
        SharedBankConflict,
        DivergentBranch,
        BarrierInDivergentCode,
        ImplicitFp64,
        RegisterSpillRisk,
        LocalArrayDynamicIndex,
    )
    if tuple(registry) != IMPLEMENTED:
        raise RuleDefinitionError(f"IMPLEMENTED must list the registered codes {list(registry)}")
    return registry


def __getattr__(name: str):
    if name == "REGISTRY":
        globals()["REGISTRY"] = registry = _registry()
        return registry
    if name == "Rule":
        from cudalint.rules.base import Rule

        return Rule
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CATALOG", "IMPLEMENTED", "REGISTRY", "Rule"]
