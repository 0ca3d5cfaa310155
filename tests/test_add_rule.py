"""scripts/add_rule.py, run on a copy of the repository: the new rule imports, is in the
rule table as a preview rule, and its documentation is generated and in sync."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

NEW_RULE = [
    "--code",
    "CL599",
    "--name",
    "probe-hazard",
    "--category",
    "registers",
    "--summary",
    "A probe hazard that no kernel has",
]


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """The repository's code, scripts, docs and docs tests, with a rule added by the script."""
    root = tmp_path_factory.mktemp("repository")
    for folder in ("src", "scripts", "docs"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "tests").mkdir()
    for name in ("README.md", "pyproject.toml", "tests/conftest.py", "tests/test_docs_sync.py"):
        shutil.copy(ROOT / name, root / name)
    _python(root, str(root / "scripts" / "add_rule.py"), *NEW_RULE, "--root", str(root))
    return root


def _python(root: Path, *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_the_new_rule_imports_and_is_in_the_table_as_preview(copy):
    probe = (
        "from cudalint.config import enabled_rules\n"
        "from cudalint.rules import RULES, RuleKind, Status\n"
        "row = RULES['CL599']\n"
        "assert (row.name, row.status, row.kind) == ('probe-hazard', Status.PREVIEW, RuleKind.FACTS), row\n"
        "assert row.rule.__name__ == 'ProbeHazard' and row.rule.category == 'registers'\n"
        "assert list(RULES) == sorted(RULES)\n"
        "assert 'CL599' not in enabled_rules(None, [], []) and 'CL599' in enabled_rules(['CL599'], [], [])\n"
    )
    _python(copy, "-c", probe)
    assert (copy / "src" / "cudalint" / "rules" / "cl599_probe_hazard.py").is_file()


def test_its_documentation_is_generated_and_in_sync(copy):
    assert "| [CL599](docs/rules/CL599.md) | probe-hazard | preview |" in (copy / "README.md").read_text()
    assert (copy / "docs" / "rules" / "CL599.md").read_text().startswith("# CL599 probe-hazard\n")
    _python(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_docs_sync.py")


def test_its_corpus_file_expects_a_finding(copy):
    corpus = (copy / "tests" / "corpus" / "rules" / "cl599_probe_hazard.cu").read_text()
    assert "// expect: CL599 warning" in corpus and "int main()" in corpus


def test_a_taken_code_or_name_is_refused(copy):
    for taken in (["--code", "CL599", "--name", "other-name"], ["--code", "CL598", "--name", "probe-hazard"]):
        result = subprocess.run(
            [
                sys.executable,
                str(copy / "scripts" / "add_rule.py"),
                *taken,
                "--category",
                "registers",
                "--summary",
                "x",
                "--root",
                str(copy),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(copy / "src")},
        )
        assert result.returncode != 0 and "already has that code or name" in result.stderr
