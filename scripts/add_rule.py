"""Start a new rule: its module, its row in the rule table, its documentation and a corpus file.

    python scripts/add_rule.py --code CL503 --name shared-atomic-contention --category shared-memory \
        --summary "Lanes of a warp update the same shared-memory word with atomics."

writes

- src/cudalint/rules/cl503_shared_atomic_contention.py: a ``FactRule`` whose docstring has
  every section the documentation needs, for you to fill in, and whose ``check`` finds
  nothing yet;
- its row in the rule table (src/cudalint/rules/__init__.py), as ``Status.PREVIEW``: it
  runs only where its whole code is selected until you make it ``Status.STABLE``;
- docs/rules/CL503.md and the README's rules table (scripts/generate_rule_docs.py);
- tests/corpus/rules/cl503_shared_atomic_contention.cu: a kernel with the hazard and its
  ``// expect:`` marker, and a kernel without it.

The corpus test and the documentation tests fail until ``check`` finds the hazard and the
docstring's examples show it: that is the list of what is left to do (CONTRIBUTING.md).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_CODE = re.compile(r"CL\d{3}")
_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_TABLE = re.compile(r"^RULES = _table\(\n(?P<rows>(?:    RuleCode\([^()]*\),\n)+)\)", re.MULTILINE)
_ROW = re.compile(r"    RuleCode\([^()]*\),\n")

RULE_MODULE = '''\
from __future__ import annotations

from collections.abc import Iterable

from cudalint.dataflow import Facts
from cudalint.diagnostics import Finding, Level
from cudalint.rules.base import FactRule


class {class_name}(FactRule):
    """{summary}

    ## What it does
    Say which accesses, branches or kernels it reports, from which facts, and at which
    level (a `note` where the cost depends on something the source does not decide).

    ## Why is this bad?
    Say what the hardware does, with the figure Nsight Compute shows for it.

    ## Example
    ```cuda
    __global__ void {snake}_example(float* out, const float* in) {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = in[i];
    }}
    ```

    ## Use instead
    ```cuda
    __global__ void {snake}_fixed(float* out, const float* in) {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = in[i];
    }}
    ```
    """

    code = "{code}"
    name = "{name}"
    category = "{category}"
    default_level = Level.{level}

    def check(self, facts: Facts) -> Iterable[Finding]:
        # Read what cudalint.dataflow exports (facts.kernels: accesses, branches, barriers
        # with their patterns); a decision the facts do not hold yet belongs in dataflow.
        return ()
'''

CORPUS_FILE = """\
// {code} {name}: a kernel with the hazard, whose line carries the expected finding, and
// one without it. Launch each from main() so that scripts/measure_gpu.py --lines can
// measure them.

__global__ void {snake}_hazard(float* out, const float* in) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];  // expect: {code} {level_value}
}}

__global__ void {snake}_clean(float* out, const float* in) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}}

int main() {{
    float *out, *in;
    cudaMalloc(&out, 1 << 20);
    cudaMalloc(&in, 1 << 20);
    {snake}_hazard<<<64, 128>>>(out, in);
    {snake}_clean<<<64, 128>>>(out, in);
    cudaDeviceSynchronize();
    return 0;
}}
"""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", required=True, help="the new code, CL followed by three digits")
    parser.add_argument("--name", required=True, help="kebab-case name, e.g. shared-atomic-contention")
    parser.add_argument("--category", required=True, help="one of the categories in rules/base.py")
    parser.add_argument("--summary", required=True, help="one sentence: what the rule finds")
    parser.add_argument("--level", default="warning", choices=("error", "warning", "note"), help="default level")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository to write into (default: this one)")
    return parser.parse_args(argv)


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def register(init_text: str, code: str, name: str, module: str, cls: str) -> str:
    """``rules/__init__.py`` with the rule's row in the table, in code order."""
    table = _TABLE.search(init_text)
    if table is None:
        raise SystemExit("rules/__init__.py has no `RULES = _table(` block to extend")
    rows = _ROW.findall(table.group("rows"))
    rows.append(f'    RuleCode("{code}", "{name}", Status.PREVIEW, "{module}:{cls}"),\n')
    rows.sort(key=lambda row: _CODE.search(row).group())
    return init_text[: table.start("rows")] + "".join(rows) + init_text[table.end("rows") :]


def _check_new(root: Path, code: str, name: str, category: str) -> None:
    sys.path.insert(0, str(root / "src"))
    from cudalint.rules import RULES
    from cudalint.rules.base import CATEGORIES

    if not _CODE.fullmatch(code):
        raise SystemExit(f"--code {code!r} is not of the form CL123")
    if not _NAME.fullmatch(name):
        raise SystemExit(f"--name {name!r} is not kebab-case")
    if category not in CATEGORIES:
        raise SystemExit(f"--category must be one of {', '.join(CATEGORIES)}")
    taken = [row.code for row in RULES.values() if code == row.code or name == row.name]
    if taken:
        raise SystemExit(f"{taken[0]} already has that code or name; codes are never reused")


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    root = options.root.resolve()
    code, name = options.code.upper(), options.name
    _check_new(root, code, name, options.category)
    snake = name.replace("-", "_")
    module = f"{code.lower()}_{snake}"
    cls = class_name(name)
    summary = options.summary.strip().rstrip(".") + "."
    rule_path = root / "src" / "cudalint" / "rules" / f"{module}.py"
    rule_path.write_text(
        RULE_MODULE.format(
            class_name=cls,
            summary=summary,
            snake=snake,
            code=code,
            name=name,
            category=options.category,
            level=options.level.upper(),
        ),
        encoding="utf-8",
    )
    init_path = root / "src" / "cudalint" / "rules" / "__init__.py"
    init_path.write_text(register(init_path.read_text(encoding="utf-8"), code, name, module, cls), encoding="utf-8")
    corpus_path = root / "tests" / "corpus" / "rules" / f"{module}.cu"
    corpus_path.parent.mkdir(parents=True, exist_ok=True)
    corpus_path.write_text(
        CORPUS_FILE.format(code=code, name=name, snake=snake, level_value=options.level), encoding="utf-8"
    )
    # A fresh interpreter: this one imported the table as it was.
    subprocess.run(
        [sys.executable, str(root / "scripts" / "generate_rule_docs.py")],
        check=True,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    )
    for path in (rule_path, init_path, root / "docs" / "rules" / f"{code}.md", corpus_path):
        print(f"wrote {path.relative_to(root)}")
    print("next: CONTRIBUTING.md, 'Adding a rule'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
