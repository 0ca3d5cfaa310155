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

NEW_RULE = [
    "--code",
    "CL599",
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
    "CL601",
    "--name",
    "probe-category-hazard",
    "--new-category",
    "probe-category",
    "--range",
    "CL6",
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
    "not test_corpus or cl599 or every_snapshot_belongs",
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
    "not test_corpus or cl601 or every_snapshot_belongs",
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
        "row = RULES['CL599']\n"
        "assert (row.name, row.status, row.kind) == ('probe-hazard', Status.PREVIEW, RuleKind.FACTS), row\n"
        f"assert row.since == {__version__!r}, row.since\n"
        "rule = row.rule\n"
        "assert rule.__name__ == 'ProbeHazard' and rule.category == 'registers'\n"
        "assert (rule.precision, rule.tags) == ('medium', ('performance', 'registers'))\n"
        "assert list(RULES) == sorted(RULES)\n"
        "assert 'CL599' not in enabled_rules(None, [], []) and 'CL599' in enabled_rules(['CL599'], [], [])\n"
    )
    _python(copy, "-c", probe)
    module = (copy / "src" / "cudalint" / "rules" / "cl599_probe_hazard.py").read_text()
    assert module.startswith('"""CL599 probe-hazard: a probe hazard that no kernel has.\n')


@pytest.mark.parametrize(
    "which, written",
    [
        (
            "copy",
            ["src/cudalint/rules/__init__.py", "src/cudalint/rules/cl599_probe_hazard.py", "tests/test_messages.py"],
        ),
        ("category_copy", ["src/cudalint/rules/base.py", "src/cudalint/rules/cl601_probe_category_hazard.py"]),
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
    assert f"| [CL599](docs/rules/CL599.md) | probe-hazard | preview | {__version__} | warning |" in readme
    page = (copy / "docs" / "rules" / "CL599.md").read_text()
    header = f"Category: registers · Default level: warning · Status: preview · Since: {__version__}"
    assert page.startswith(f"# CL599 probe-hazard\n\n{header}\n")
    changelog = (copy / "CHANGELOG.md").read_text()
    start = changelog.index("## Unreleased\n\n### New\n")
    assert "- CL599 `probe-hazard` (preview): a probe hazard that no kernel has.\n" in changelog[start:]
    assert changelog.index("- CL599") < changelog.index("\n## ", start)


def test_its_corpus_file_expects_a_finding_and_its_absence(copy, category_copy):
    corpus = (copy / "tests" / "corpus" / "rules" / "cl599_probe_hazard.cu").read_text()
    assert corpus.count("// expect: CL599 warning") == 1 and corpus.count("// launch: ") == 2
    assert (copy / "tests" / "snapshots" / "findings" / "rules" / "cl599_probe_hazard.cu.txt").is_file()
    other = (category_copy / "tests" / "corpus" / "rules" / "cl601_probe_category_hazard.cu").read_text()
    assert "// expect: CL601 note" in other


def test_a_new_category_is_documented_where_categories_are(category_copy):
    base = (category_copy / "src" / "cudalint" / "rules" / "base.py").read_text()
    assert '    "probe-category": "hazards of a probe category",\n}' in base
    contributing = (category_copy / "CONTRIBUTING.md").read_text()
    assert "| CL6xx | `probe-category`: hazards of a probe category |" in contributing
    _python(
        category_copy, "-c", "from cudalint.rules import RULES\nassert RULES['CL601'].rule.category == 'probe-category'"
    )


@pytest.mark.parametrize(
    "arguments, complaint",
    [
        (["--code", "CL601", "--name", "other-name", "--category", "registers"], "already has that code or name"),
        (["--code", "CL598", "--name", "probe-category-hazard", "--category", "registers"], "already has that code"),
        (["--code", "CL598", "--name", "x", "--category", "tensor"], "--category must be one of"),
        (
            ["--code", "CL602", "--name", "x", "--new-category", "y", "--range", "CL6", "--describe", "z"],
            "CL6xx already holds CL601",
        ),
        (
            ["--code", "CL701", "--name", "x", "--new-category", "y", "--range", "CL6", "--describe", "z"],
            "must be the hundred of --code CL701",
        ),
        (["--code", "CL701", "--name", "x", "--new-category", "y"], "--new-category needs --range"),
        (["--code", "CL598", "--name", "x", "--category", "registers"], "CL601's check is still the placeholder"),
    ],
)
def test_a_taken_code_a_wrong_category_or_an_unfinished_rule_is_refused(category_copy, arguments, complaint):
    add_rule = str(category_copy / "scripts" / "add_rule.py")
    result = _python(category_copy, add_rule, *arguments, "--summary", "x", "--root", str(category_copy), check=False)
    assert result.returncode != 0 and complaint in result.stderr, result.stderr
