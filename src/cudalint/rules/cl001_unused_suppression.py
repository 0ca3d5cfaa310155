"""CL001 unused-suppression: a suppression comment that silences nothing.

The rule's documentation is its class docstring (docs/rules/CL001.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cudalint import ir
from cudalint.diagnostics import Finding, Level
from cudalint.rules.base import SuppressionRule

if TYPE_CHECKING:
    # Only a type: cudalint.suppressions imports the rule table, which imports this module.
    from cudalint.suppressions import UnusedSuppression as UnusedEntry

_BLANKET_MESSAGES = {
    "line": "unused suppression: no finding on this line",
    "next-line": "unused suppression: no finding on the next line",
    "file": "unused suppression: no finding in this file",
}


class UnusedSuppression(SuppressionRule):
    """A suppression comment that silences nothing.

    ## What it does
    Reports `// cudalint: ignore[...]`, `ignore-next-line`, `ignore-file` and
    `NOLINT(cudalint-...)` comments, or single codes inside them, that matched no
    finding although their rules ran. Unknown codes are reported too.

    A comment is judged only when every rule it covers ran, so a narrower `--select`
    does not make it look stale; a comment without a list (or with `ALL`) covers
    every rule. A bare `NOLINT` also serves clang-tidy and is never reported. Only a
    comment that names CL001 can silence this rule: a blanket `ignore` cannot hide
    the report that it is itself unused.

    ## Why is this bad?
    Stale suppressions hide future regressions on that line and mislead readers into
    thinking a hazard exists. A typo in a code silently suppresses nothing.

    ## Example
    ```cuda
    __global__ void copy(float* out, const float* in) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = in[i];  // cudalint: ignore[CL401]
    }
    ```

    ## Use instead
    ```cuda
    __global__ void copy(float* out, const float* in) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = in[i];
    }
    ```
    """

    code = "CL001"
    name = "unused-suppression"
    category = "meta"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("maintainability",)

    def report(self, path: str, unused: Iterable[UnusedEntry]) -> list[Finding]:
        """One finding per unused entry."""
        findings = []
        for entry in unused:
            span = ir.Span(path, entry.line, entry.column, entry.line, entry.column)
            if entry.text is None:
                message = _BLANKET_MESSAGES[entry.scope]
            elif entry.unknown:
                message = f"unused suppression: unknown rule `{entry.text}`"
            elif entry.name:
                message = f"unused suppression: `{entry.text}` ({entry.name}) matched no finding"
            else:
                message = f"unused suppression: `{entry.text}` matched no finding"
            findings.append(self.finding(message, span))
        return findings
