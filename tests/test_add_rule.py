"""scripts/add_rule.py, run on a copy of the repository: everything a rule needs is written,
formatted as ruff leaves it, and the tests a new rule touches pass there unchanged."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from cudalint import __version__
from cudalint.rules import RULES

# The probe rules take codes and a hundred no rule of the repository holds, so that this
# test keeps passing once a contributor's own rule takes CL599 or a category CL6xx.
PROBE, PROBE_OTHER = [code for code in (f"CL5{n:02d}" for n in range(99, 0, -1)) if code not in RULES][:2]
HUNDRED = next(h for h in range(6, 10) if not any(code.startswith(f"CL{h}") for code in RULES))
CATEGORY_PROBE = f"CL{HUNDRED}01"
ELSEWHERE = f"CL{HUNDRED + 1 if HUNDRED < 9 else HUNDRED - 1}01"

NEW_RULE = [
    "--code",
    PROBE,
    "--name",
    "probe-hazard",
    "--category",
    "registers",
    "--summary",
    "A probe hazard that no kernel has",
    "--tags",
    "performance,registers",
]
# A rule of a category and hundred of its own.
NEW_CATEGORY_RULE = [
    "--code",
    CATEGORY_PROBE,
    "--name",
    "probe-category-hazard",
    "--new-category",
    "probe-category",
    "--range",
    f"CL{HUNDRED}",
    "--describe",
    "hazards of a probe category",
    "--summary",
    "A hazard of the probe category",
    "--level",
    "note",
]

# The tests a new rule can break, run in the copy: its corpus file and snapshot (and that
# every snapshot has its file), the message edge cases (every rule must speak in them), the
# selection of rules by configuration (a preview rule outside the default), the rule table
# and the rules' imports, the documentation's examples and `cudalint rule`, the generated
# docs and README table, and SARIF's rule descriptors. The rest of the corpus is left out
# for time: the placeholder's finding elsewhere would be a store writing back what it just
# loaded, which the corpus has none of (a finding in another file needs a marker there).
SUITE = [
    "-k",
    f"not test_corpus or {PROBE.lower()} or every_snapshot_belongs",
    "tests/test_corpus.py",
    "tests/test_messages.py",
    "tests/test_config.py",
    "tests/test_rule_framework.py",
    "tests/test_rule_docs.py",
    "tests/test_docs_sync.py",
    "tests/test_sarif.py",
]
# What a new category changes beyond a new rule: the category (rules/base.py, read when a
# rule class is defined) and the pages that name it.
CATEGORY_SUITE = [
    "-k",
    f"not test_corpus or {CATEGORY_PROBE.lower()} or every_snapshot_belongs",
    "tests/test_corpus.py",
    "tests/test_rule_framework.py",
    "tests/test_docs_sync.py",
]
COPIED = ("src", "scripts", "docs", "tests", "README.md", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml")


def _copy_with(tmp_path_factory, arguments: list[str]) -> Path:
    """The repository's code, scripts, docs and tests, with a rule added by the script."""
    root = tmp_path_factory.mktemp("repository")
    for name in COPIED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        else:
            shutil.copy(ROOT / name, root / name)
    _python(root, str(root / "scripts" / "add_rule.py"), *arguments, "--root", str(root))
    return root


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return _copy_with(tmp_path_factory, NEW_RULE)


@pytest.fixture(scope="module")
def category_copy(tmp_path_factory) -> Path:
    return _copy_with(tmp_path_factory, NEW_CATEGORY_RULE)


def _python(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    )
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_the_new_rule_imports_and_is_in_the_table_as_preview(copy):
    probe = (
        "from cudalint.config import enabled_rules\n"
        "from cudalint.rules import RULES, RuleKind, Status\n"
        f"row = RULES[{PROBE!r}]\n"
        "assert (row.name, row.status, row.kind) == ('probe-hazard', Status.PREVIEW, RuleKind.FACTS), row\n"
        f"assert row.since == {__version__!r}, row.since\n"
        "rule = row.rule\n"
        "assert rule.__name__ == 'ProbeHazard' and rule.category == 'registers'\n"
        "assert (rule.precision, rule.tags) == ('medium', ('performance', 'registers'))\n"
        "assert list(RULES) == sorted(RULES)\n"
        f"assert {PROBE!r} not in enabled_rules(None, [], []) and {PROBE!r} in enabled_rules([{PROBE!r}], [], [])\n"
    )
    _python(copy, "-c", probe)
    module = (copy / "src" / "cudalint" / "rules" / f"{PROBE.lower()}_probe_hazard.py").read_text()
    assert module.startswith(f'"""{PROBE} probe-hazard: a probe hazard that no kernel has.\n')


@pytest.mark.parametrize(
    "which, written",
    [
        (
            "copy",
            [
                "src/cudalint/rules/__init__.py",
                f"src/cudalint/rules/{PROBE.lower()}_probe_hazard.py",
                "tests/test_messages.py",
            ],
        ),
        (
            "category_copy",
            ["src/cudalint/rules/base.py", f"src/cudalint/rules/{CATEGORY_PROBE.lower()}_probe_category_hazard.py"],
        ),
    ],
)
def test_what_it_writes_is_as_ruff_leaves_it(request, which, written):
    root = request.getfixturevalue(which)
    for command in (["format", "--check", "--diff"], ["check"]):
        result = _python(root, "-m", "ruff", *command, *written, check=False)
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("which, suite, at_least", [("copy", SUITE, 150), ("category_copy", CATEGORY_SUITE, 30)])
def test_the_tests_a_new_rule_touches_pass(request, which, suite, at_least):
    root = request.getfixturevalue(which)
    result = _python(root, "-m", "pytest", "-p", "no:cacheprovider", *suite, check=False)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    passed = re.search(r"(\d+) passed", result.stdout)
    assert passed and int(passed.group(1)) >= at_least, result.stdout[-500:]  # the selection ran what it names


def test_its_documentation_and_changelog_entry(copy):
    readme = (copy / "README.md").read_text()
    assert f"| [{PROBE}](docs/rules/{PROBE}.md) | probe-hazard | preview | {__version__} | warning |" in readme
    page = (copy / "docs" / "rules" / f"{PROBE}.md").read_text()
    header = f"Category: registers · Default level: warning · Status: preview · Since: {__version__}"
    assert page.startswith(f"# {PROBE} probe-hazard\n\n{header}\n")
    changelog = (copy / "CHANGELOG.md").read_text()
    start = changelog.index("## Unreleased\n\n### New\n")
    assert f"- {PROBE} `probe-hazard` (preview): a probe hazard that no kernel has.\n" in changelog[start:]
    assert changelog.index(f"- {PROBE}") < changelog.index("\n## ", start)


def test_its_corpus_file_expects_a_finding_and_its_absence(copy, category_copy):
    corpus = (copy / "tests" / "corpus" / "rules" / f"{PROBE.lower()}_probe_hazard.cu").read_text()
    assert corpus.count(f"// expect: {PROBE} warning") == 1 and corpus.count("// launch: ") == 2
    assert (copy / "tests" / "snapshots" / "findings" / "rules" / f"{PROBE.lower()}_probe_hazard.cu.txt").is_file()
    other = (
        category_copy / "tests" / "corpus" / "rules" / f"{CATEGORY_PROBE.lower()}_probe_category_hazard.cu"
    ).read_text()
    assert f"// expect: {CATEGORY_PROBE} note" in other


def test_a_new_category_is_documented_where_categories_are(category_copy):
    base = (category_copy / "src" / "cudalint" / "rules" / "base.py").read_text()
    assert '    "probe-category": "hazards of a probe category",\n}' in base
    contributing = (category_copy / "CONTRIBUTING.md").read_text()
    assert f"| CL{HUNDRED}xx | `probe-category`: hazards of a probe category |" in contributing
    _python(
        category_copy,
        "-c",
        f"from cudalint.rules import RULES\nassert RULES[{CATEGORY_PROBE!r}].rule.category == 'probe-category'",
    )


@pytest.mark.parametrize(
    "arguments, complaint",
    [
        (
            ["--code", CATEGORY_PROBE, "--name", "other-name", "--category", "registers"],
            "already has that code or name",
        ),
        (
            ["--code", PROBE_OTHER, "--name", "probe-category-hazard", "--category", "registers"],
            "already has that code",
        ),
        (["--code", PROBE_OTHER, "--name", "x", "--category", "tensor"], "--category must be one of"),
        (
            [
                "--code",
                f"CL{HUNDRED}02",
                "--name",
                "x",
                "--new-category",
                "y",
                "--range",
                f"CL{HUNDRED}",
                "--describe",
                "z",
            ],
            f"CL{HUNDRED}xx already holds {CATEGORY_PROBE}",
        ),
        (
            ["--code", ELSEWHERE, "--name", "x", "--new-category", "y", "--range", f"CL{HUNDRED}", "--describe", "z"],
            f"must be the hundred of --code {ELSEWHERE}",
        ),
        (["--code", ELSEWHERE, "--name", "x", "--new-category", "y"], "--new-category needs --range"),
        (
            ["--code", PROBE_OTHER, "--name", "x", "--category", "registers"],
            f"{CATEGORY_PROBE}'s check is still the placeholder",
        ),
    ],
)
def test_a_taken_code_a_wrong_category_or_an_unfinished_rule_is_refused(category_copy, arguments, complaint):
    add_rule = str(category_copy / "scripts" / "add_rule.py")
    result = _python(category_copy, add_rule, *arguments, "--summary", "x", "--root", str(category_copy), check=False)
    assert result.returncode != 0 and complaint in result.stderr, result.stderr
