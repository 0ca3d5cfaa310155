from __future__ import annotations

from collections.abc import Iterable

from cudalint import ir
from cudalint.diagnostics import Finding, Level
from cudalint.rules.base import Rule
from cudalint.suppressions import UnusedSuppression as UnusedEntry


class UnusedSuppression(Rule):
    """A suppression comment that silences nothing.

    ## What it does
    Reports `// cudalint: ignore[...]`, `ignore-next-line`, `ignore-file` and
    `NOLINT(cudalint-...)` comments, or single codes inside them, that matched no
    finding although their rules ran. Unknown codes are reported too.

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
    runs_on_facts = False

    def report(self, path: str, unused: Iterable[UnusedEntry], known: dict[str, str]) -> list[Finding]:
        findings = []
        for entry in unused:
            span = ir.Span(path, entry.line, entry.column, entry.line, entry.column)
            if entry.text == "ignore":
                message = "unused suppression: no finding on the line it covers"
            elif entry.style == "cudalint" and not any(code.startswith(entry.text) or entry.text == "ALL" for code in known):
                message = f"unused suppression: unknown rule code `{entry.text}`"
            else:
                message = f"unused suppression: `{entry.text}` matched no finding"
            findings.append(self.finding(message, span))
        return findings
