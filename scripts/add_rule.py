"""Start a new rule: every file a rule needs, written so that the suite passes from the start.

    python scripts/add_rule.py --code CL505 --name shared-atomic-contention --category shared-memory \
        --summary "Lanes of a warp update the same shared-memory word with atomics."

writes

- src/cudalint/rules/cl505_shared_atomic_contention.py: a ``FactRule`` with a module
  docstring, a class docstring that has every section the documentation needs, explicit
  ``precision`` and ``tags``, and a working placeholder ``check`` (a global store that
  writes back the value just loaded from the same address) for you to replace;
- its row in the rule table (src/cudalint/rules/__init__.py), as ``ruff format`` leaves
  it: ``Status.PREVIEW`` (it runs only where its whole code is selected until you make it
  ``Status.STABLE``), ``since`` the version in src/cudalint/__init__.py;
- tests/corpus/<area>/cl505_shared_atomic_contention.cu: a kernel with the hazard, whose
  line carries its ``// expect:`` marker, and a kernel without it, each under a
  ``// launch:`` line (scripts/measure_gpu.py's format), and the findings snapshot of
  that file (tests/snapshots/findings/);
- docs/rules/CL505.md and the README's rules table (scripts/generate_rule_docs.py);
- the rule's entry in ``RULE_KERNELS`` (tests/test_messages.py), the corpus hazard that
  the message edge cases bend;
- an entry under "Unreleased" in CHANGELOG.md.

A rule that fits no category starts a new hundred of codes with a category of its own:

    python scripts/add_rule.py --code CL601 --name fragment-layout-mismatch \
        --new-category tensor-cores --range CL6 --describe "tensor-core fragments and matrix instructions" \
        --summary "..."

adds ``tensor-cores`` to ``CATEGORIES`` (src/cudalint/rules/base.py) and its hundred to
the table of hundreds in CONTRIBUTING.md.

Then replace the placeholder: the check, the docstring, the corpus kernels, the messages
kernel (CONTRIBUTING.md, "Adding a rule"). The script starts no rule while another's check
is still its placeholder: the two would report each other's corpus hazard.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_CODE = re.compile(r"CL\d{3}")
_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_RANGE = re.compile(r"CL[1-9]")
_TABLE = re.compile(r"^RULES = _table\(\n(?P<rows>(?:    RuleCode\([^()]*\),\n)+)\)", re.MULTILINE)
_ROW = re.compile(r"    RuleCode\([^()]*\),\n")
_CATEGORIES = re.compile(r"^CATEGORIES = \{\n(?P<entries>(?:    .*\n)*?)\}", re.MULTILINE)
_HUNDREDS = re.compile(r"^(?P<indent> *)\| CL\dxx \|.*\n", re.MULTILINE)
# The table ends at a line holding only its brace before a blank line: a kernel's own
# closing brace sits at the start of a line too, followed by the string's end.
_RULE_KERNELS = re.compile(r"^RULE_KERNELS: dict\[str, str\] = \{(?P<body>|\n.*?\n)\}\n\n", re.MULTILINE | re.DOTALL)
_RULE_KERNEL = re.compile(r'    "(CL\d{3})": """.*?""",\n', re.DOTALL)
_UNRELEASED = "## Unreleased"
_NEW = "### New"
_RELEASE = re.compile(r"^## ", re.MULTILINE)
_SUBSECTION = re.compile(r"^### ", re.MULTILINE)

PRECISIONS = ("very-high", "high", "medium", "low")
# Opens the "What it does" of a rule add_rule.py wrote, until its author replaces it: two
# such rules would report each other's corpus hazard, so a second one waits for the first.
PLACEHOLDER = "Placeholder written by scripts/add_rule.py"

RULE_MODULE = '''\
"""{code} {name}: {summary_lower}

The rule's documentation is its class docstring (docs/rules/{code}.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from collections.abc import Iterable

from cudalint import ir
from cudalint.dataflow import Access, AccessKind, Facts, MemorySpace
from cudalint.diagnostics import Finding, Level
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class {class_name}(FactRule):
    """{summary}

    ## What it does
    {placeholder}: reports a global store that writes back
    the value the same statement just loaded from the same address (`{hazard_statement}`).
    Replace this with what the rule reports, from which facts, and at which level (a
    `note` where the cost depends on something the source does not decide).

    ## Why is this bad?
    Say what the hardware does, with the figure Nsight Compute shows for it; the
    placeholder's store moves no new data.

    ## Example
    ```cuda
    __global__ void {snake}_example(float* data) {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        {hazard_statement}
    }}
    ```

    ## Use instead
    ```cuda
    __global__ void {snake}_fixed(float* data, const float* in) {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        {clean_statement}
    }}
    ```
    """

    code = "{code}"
    name = "{name}"
    category = "{category}"
    default_level = Level.{level}
    precision = "{precision}"
    tags = {tags}

    def check(self, facts: Facts) -> Iterable[Finding]:
        # Read what cudalint.dataflow exports (facts.kernels: accesses, branches, barriers
        # with their patterns); a decision the facts do not hold yet belongs in dataflow.
        for kernel in facts.kernels:
            loads = {{id(access.expr): access for access, _ in kernel.accesses if access.kind is AccessKind.LOAD}}
            for access, pattern in kernel.accesses:
                if pattern.single_lane or not _writes_back_its_load(access, loads):
                    continue
                yield self.finding(
                    f"global store of {{wording.code(facts.source_text(access.span), 'a value')}} writes back the "
                    f"value {{pattern.active_lanes}} lanes just loaded from the same address",
                    access.span,
                    function=kernel.function.name,
                )


def _writes_back_its_load(store: Access, loads: dict[int, Access]) -> bool:
    """Whether ``store`` is a global ``a[i] = a[i]``: it stores the value its statement loads
    from the same address (``loads``: the kernel's loads by expression)."""
    if store.kind is not AccessKind.STORE or store.space is not MemorySpace.GLOBAL or store.stmt is None:
        return False
    assignment = store.stmt.expr
    if assignment is None or assignment.kind is not ir.ExprKind.ASSIGN or assignment.op != "=":
        return False
    target, value = assignment.children
    while value.kind is ir.ExprKind.CAST and value.cast is ir.CastKind.IMPLICIT:
        value = value.children[0]
    load = loads.get(id(value))
    if target is not store.expr or load is None:
        return False
    return (load.location.base, load.location.offset) == (store.location.base, store.location.offset)
'''

HAZARD_STATEMENT = "data[i] = data[i];"
CLEAN_STATEMENT = "data[i] = in[i];"

HAZARD_KERNEL = """\
__global__ void {snake}_hazard(float* data, const float* in) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    {hazard_statement}{marker}
}}
"""

CORPUS_FILE = """\
// {code} {name}: a kernel with the hazard, whose line carries the expected finding, and
// one without it. Launch lines use scripts/measure_gpu.py's format (`--lines` measures
// each line); write the figures that explain each verdict above its kernel.

// The hazard.
// launch: grid=64 block=128
{hazard_kernel}
// Its absence.
// launch: grid=64 block=128
__global__ void {snake}_clean(float* data, const float* in) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    {clean_statement}
}}
"""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", required=True, help="the new code, CL followed by three digits")
    parser.add_argument("--name", required=True, help="kebab-case name, e.g. shared-atomic-contention")
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--category", help="one of CATEGORIES in src/cudalint/rules/base.py")
    kind.add_argument("--new-category", metavar="NAME", help="a category of its own, in a hundred no rule uses yet")
    parser.add_argument("--range", help="with --new-category: its hundred, e.g. CL6")
    parser.add_argument("--describe", help="with --new-category: what its rules are about, in a few words")
    parser.add_argument("--summary", required=True, help="one sentence: what the rule finds")
    parser.add_argument("--level", default="warning", choices=("error", "warning", "note"), help="default level")
    parser.add_argument(
        "--precision",
        default="medium",
        choices=PRECISIONS,
        help="how often a finding is right (SARIF's precision); raise it once measured (default: medium)",
    )
    parser.add_argument("--tags", default="performance", help="comma-separated SARIF tags (default: performance)")
    parser.add_argument("--area", default="rules", help="the corpus folder under tests/corpus (default: rules)")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository to write into (default: this one)")
    options = parser.parse_args(argv)
    if options.new_category is not None and (options.range is None or options.describe is None):
        parser.error("--new-category needs --range (its hundred, e.g. CL6) and --describe")
    if options.new_category is None and (options.range is not None or options.describe is not None):
        parser.error("--range and --describe go with --new-category")
    return options


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def line_length(root: Path) -> int:
    """ruff's line length, from pyproject.toml."""
    with open(root / "pyproject.toml", "rb") as pyproject:
        return tomllib.load(pyproject)["tool"]["ruff"]["line-length"]


def current_version(root: Path) -> str:
    """``cudalint.__version__`` as written in src/cudalint/__init__.py (pyproject reads it there)."""
    tree = ast.parse((root / "src" / "cudalint" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("src/cudalint/__init__.py sets no __version__")


def table_row(arguments: list[str], limit: int) -> str:
    """A ``RuleCode(...)`` row of the table as ``ruff format`` writes it: on one line when it
    fits, else its arguments on one line of their own, else one argument a line."""
    joined = ", ".join(arguments)
    if len(f"    RuleCode({joined}),") <= limit:
        return f"    RuleCode({joined}),\n"
    if len(f"        {joined}") <= limit:
        return f"    RuleCode(\n        {joined}\n    ),\n"
    return "    RuleCode(\n" + "".join(f"        {argument},\n" for argument in arguments) + "    ),\n"


def register(init_text: str, row: str) -> str:
    """``rules/__init__.py`` with ``row`` in the table, in code order."""
    table = _TABLE.search(init_text)
    if table is None:
        raise SystemExit("rules/__init__.py has no `RULES = _table(` block to extend")
    rows = [*_ROW.findall(table.group("rows")), row]
    rows.sort(key=lambda text: _CODE.search(text).group())
    return init_text[: table.start("rows")] + "".join(rows) + init_text[table.end("rows") :]


def with_category(base_text: str, name: str, description: str) -> str:
    """``rules/base.py`` with ``name`` added to ``CATEGORIES``."""
    categories = _CATEGORIES.search(base_text)
    if categories is None:
        raise SystemExit("rules/base.py has no `CATEGORIES = {` block to extend")
    entry = f"    {name!r}: {description!r},\n".replace("'", '"')
    end = categories.end("entries")
    return base_text[:end] + entry + base_text[end:]


def with_hundred(contributing: str, hundred: str, category: str, description: str) -> str:
    """CONTRIBUTING.md with a row for ``hundred`` in its table of hundreds."""
    rows = list(_HUNDREDS.finditer(contributing))
    if not rows:
        raise SystemExit("CONTRIBUTING.md has no table of hundreds (`| CL1xx | ... |` rows) to extend")
    last = rows[-1]
    row = f"{last.group('indent')}| {hundred}xx | `{category}`: {description} |\n"
    return contributing[: last.end()] + row + contributing[last.end() :]


def with_rule_kernel(messages_text: str, code: str, kernel: str) -> str:
    """tests/test_messages.py with ``kernel`` as ``code``'s entry in ``RULE_KERNELS``, in code order."""
    table = _RULE_KERNELS.search(messages_text)
    if table is None:
        raise SystemExit("tests/test_messages.py has no `RULE_KERNELS: dict[str, str] = {` to extend")
    entries = _RULE_KERNEL.findall(table.group("body"))
    bodies = [m.group(0) for m in _RULE_KERNEL.finditer(table.group("body"))]
    bodies.append(f'    "{code}": """\n{kernel}""",\n')
    entries.append(code)
    ordered = [body for _, body in sorted(zip(entries, bodies, strict=True))]
    return messages_text[: table.start("body")] + "\n" + "".join(ordered) + messages_text[table.end("body") :]


def with_changelog_entry(changelog: str, entry: str) -> str:
    """CHANGELOG.md with ``entry`` last under "Unreleased", "New" (the section made above
    the newest release, and "New" as its first heading, where they are missing)."""
    entry = textwrap.fill(entry, width=90, subsequent_indent="  ", break_on_hyphens=False) + "\n"
    start = changelog.find(_UNRELEASED + "\n")
    if start < 0:
        newest = _RELEASE.search(changelog)
        if newest is None:
            raise SystemExit("CHANGELOG.md has no release section (`## 0.4.0`) to put Unreleased above")
        return changelog[: newest.start()] + f"{_UNRELEASED}\n\n{_NEW}\n{entry}\n" + changelog[newest.start() :]
    following = _RELEASE.search(changelog, start + len(_UNRELEASED))
    end = following.start() if following else len(changelog)
    section = changelog[start:end].rstrip("\n") + "\n"
    new = section.find(_NEW + "\n")
    if new < 0:
        others = section[len(_UNRELEASED) + 1 :].strip("\n")
        section = f"{_UNRELEASED}\n\n{_NEW}\n{entry}" + (f"\n{others}\n" if others else "")
    else:
        after = _SUBSECTION.search(section, new + len(_NEW))
        cut = after.start() if after else len(section)
        section = section[:cut].rstrip("\n") + "\n" + entry + ("\n" + section[cut:] if after else "")
    return changelog[:start] + section + "\n" + changelog[end:]


def _check_new(root: Path, options: argparse.Namespace, code: str) -> None:
    sys.path.insert(0, str(root / "src"))
    from cudalint.rules import RULES
    from cudalint.rules.base import CATEGORIES

    if not _CODE.fullmatch(code):
        raise SystemExit(f"--code {code!r} is not of the form CL123")
    if not _NAME.fullmatch(options.name):
        raise SystemExit(f"--name {options.name!r} is not kebab-case")
    taken = [row.code for row in RULES.values() if code == row.code or options.name == row.name]
    if taken:
        raise SystemExit(f"{taken[0]} already has that code or name; codes are never reused")
    if options.new_category is None and options.category not in CATEGORIES:
        raise SystemExit(f"--category must be one of {', '.join(CATEGORIES)} (or start one with --new-category)")
    if options.new_category is not None:
        _check_new_category(options, code, RULES, CATEGORIES)
    rules = root / "src" / "cudalint" / "rules"
    unfinished = [
        row.code
        for row in RULES.values()
        if row.location is not None
        and PLACEHOLDER in (rules / f"{row.location.split(':')[0]}.py").read_text(encoding="utf-8")
    ]
    if unfinished:
        raise SystemExit(
            f"{unfinished[0]}'s check is still the placeholder add_rule.py wrote, which would find the new rule's "
            "hazard too: replace it first"
        )


def _check_new_category(options: argparse.Namespace, code: str, rules, categories) -> None:
    hundred = options.range.upper()
    if not _NAME.fullmatch(options.new_category) or options.new_category in categories:
        raise SystemExit(f"--new-category {options.new_category!r} must be a kebab-case name not in CATEGORIES")
    if not _RANGE.fullmatch(hundred) or not code.startswith(hundred):
        raise SystemExit(f"--range {options.range!r} must be the hundred of --code {code} (CL followed by one digit)")
    used = sorted(row.code for row in rules.values() if row.code.startswith(hundred))
    if used:
        raise SystemExit(f"{hundred}xx already holds {', '.join(used)}: a new category starts a hundred of its own")


def _write(path: Path, text: str, written: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written.append(path)


def _edit(path: Path, edit, written: list[Path]) -> None:
    _write(path, edit(path.read_text(encoding="utf-8")), written)


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    root = options.root.resolve()
    code, name = options.code.upper(), options.name
    _check_new(root, options, code)
    category = options.new_category or options.category
    snake = name.replace("-", "_")
    module = f"{code.lower()}_{snake}"
    cls = class_name(name)
    summary = options.summary.strip().rstrip(".") + "."
    tags = tuple(tag.strip() for tag in options.tags.split(",") if tag.strip())
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    written: list[Path] = []

    if options.new_category is not None:
        _edit(
            root / "src" / "cudalint" / "rules" / "base.py",
            lambda text: with_category(text, category, options.describe),
            written,
        )
        _edit(
            root / "CONTRIBUTING.md",
            lambda text: with_hundred(text, options.range.upper(), category, options.describe),
            written,
        )
    _write(
        root / "src" / "cudalint" / "rules" / f"{module}.py",
        RULE_MODULE.format(
            class_name=cls,
            summary=summary,
            summary_lower=summary[0].lower() + summary[1:],
            snake=snake,
            code=code,
            name=name,
            category=category,
            level=options.level.upper(),
            precision=options.precision,
            tags=repr(tags).replace("'", '"'),
            hazard_statement=HAZARD_STATEMENT,
            clean_statement=CLEAN_STATEMENT,
            placeholder=PLACEHOLDER,
        ),
        written,
    )
    arguments = [f'"{code}"', f'"{name}"', "Status.PREVIEW", f'"{current_version(root)}"', f'"{module}:{cls}"']
    row = table_row(arguments, line_length(root))
    _edit(root / "src" / "cudalint" / "rules" / "__init__.py", lambda text: register(text, row), written)

    marker = f"  // expect: {code} {options.level}"
    hazard = HAZARD_KERNEL.format(snake=snake, hazard_statement=HAZARD_STATEMENT, marker=marker)
    corpus_path = root / "tests" / "corpus" / options.area / f"{module}.cu"
    _write(
        corpus_path,
        CORPUS_FILE.format(code=code, name=name, snake=snake, hazard_kernel=hazard, clean_statement=CLEAN_STATEMENT),
        written,
    )
    messages_kernel = HAZARD_KERNEL.format(snake=snake, hazard_statement=HAZARD_STATEMENT, marker="")
    _edit(root / "tests" / "test_messages.py", lambda text: with_rule_kernel(text, code, messages_kernel), written)
    entry = f"- {code} `{name}` (preview): {summary[0].lower() + summary[1:]}"
    _edit(root / "CHANGELOG.md", lambda text: with_changelog_entry(text, entry), written)

    # Fresh interpreters: this one imported the table as it was.
    subprocess.run([sys.executable, str(root / "scripts" / "generate_rule_docs.py")], check=True, env=env)
    written += [root / "docs" / "rules" / f"{code}.md", root / "README.md"]
    snapshots = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_corpus.py", "-k", module],
        cwd=root,
        env={**env, "CUDALINT_UPDATE_SNAPSHOTS": "1"},
        capture_output=True,
        text=True,
    )
    if snapshots.returncode != 0:
        sys.stderr.write(snapshots.stdout + snapshots.stderr)
        raise SystemExit(f"writing the snapshot of {corpus_path.relative_to(root)} failed (above)")
    written += sorted((root / "tests" / "snapshots" / "findings" / options.area).glob(f"{module}.cu*.txt"))
    for path in written:
        print(f"wrote {path.relative_to(root)}")
    print("next: CONTRIBUTING.md, 'Adding a rule'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
