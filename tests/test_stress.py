"""The command line over a tree with everything real CUDA trees hold (scripts/stress_tree.py):
no traceback, every file analyzed or explained in one line, exit code as documented, and
the kernels of files that need recovery all analyzed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import load_script

stress_tree = load_script("stress_tree")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("stress")
    return root, stress_tree.build(root)


def _cudalint(*args: str, cwd) -> subprocess.CompletedProcess:
    environment = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "cudalint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        check=False,
        timeout=600,
    )


def test_every_file_is_analyzed_or_explained(tree):
    root, categories = tree
    run = _cudalint(str(root), str(root / "bad" / "x.cu"), "--format", "json", "--no-cache", cwd=root)
    assert "Traceback" not in run.stdout + run.stderr and run.stderr == ""
    assert run.returncode == 1  # findings, and files that could be analyzed
    report = json.loads(run.stdout)
    errors = {}
    for notice in report["notices"]:
        if notice["kind"] == "error":
            assert notice["file"] not in errors, "one line per file"
            errors[notice["file"]] = notice["message"]
    unreadable_by_us = os.geteuid() != 0  # root reads a file whatever its mode
    expected = {os.path.relpath(p, root) for p in categories["bad input"]}
    if not unreadable_by_us:
        expected.discard("bad/unreadable.cu")
    assert set(errors) == expected, errors
    assert not any("internal error" in message for message in errors.values())
    # The recovered files are analyzed: no error for them, and their findings are reported.
    recovered = {os.path.relpath(p, root) for c in stress_tree.RECOVERY_CATEGORIES for p in categories[c]}
    assert {f["file"] for f in report["findings"]} & recovered
    # A header missing from several files is named once.
    missing = [n["message"].split("'")[1] for n in report["notices"] if "file not found" in n["message"]]
    assert len(missing) == len(set(missing))


def test_kernels_of_files_that_need_recovery_all_have_facts(tree):
    _, categories = tree
    counts = stress_tree.count(categories)
    for category, (files, written, analyzed, _) in counts.items():
        assert files and written and analyzed == written, (category, counts)
