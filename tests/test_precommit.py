"""The pre-commit hook: a valid manifest, and concurrent runs on parts of the file list."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "lint"
# The embedded header set: fast, and needs no CUDA installation.
HEADERS = "embedded"

# pre-commit's manifest schema (pre_commit/clientlib.py, MANIFEST_HOOK_DICT): key -> type.
REQUIRED_KEYS = {"id": str, "name": str, "entry": str, "language": str}
OPTIONAL_KEYS = {
    "minimum_pre_commit_version": str,
    "alias": str,
    "files": str,
    "exclude": str,
    "types": list,
    "types_or": list,
    "exclude_types": list,
    "additional_dependencies": list,
    "args": list,
    "always_run": bool,
    "fail_fast": bool,
    "pass_filenames": bool,
    "description": str,
    "language_version": str,
    "log_file": str,
    "require_serial": bool,
    "stages": list,
    "verbose": bool,
}
LIST_OF_STRINGS = ("types", "types_or", "exclude_types", "additional_dependencies", "args", "stages")


@pytest.fixture(scope="module")
def hooks() -> list:
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_manifest_follows_pre_commits_schema(hooks):
    assert isinstance(hooks, list) and hooks
    for hook in hooks:
        assert isinstance(hook, dict)
        for key, kind in REQUIRED_KEYS.items():
            assert isinstance(hook.get(key), kind), key
        unknown = set(hook) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS)
        assert not unknown, f"pre-commit would warn about {unknown}"
        for key, value in hook.items():
            assert isinstance(value, {**REQUIRED_KEYS, **OPTIONAL_KEYS}[key]), key
            if key in LIST_OF_STRINGS:
                assert all(isinstance(item, str) for item in value), key


def test_the_cudalint_hook(hooks):
    (hook,) = [h for h in hooks if h["id"] == "cudalint"]
    assert hook["name"] == "cudalint" and hook["entry"] == "cudalint"
    assert hook["language"] == "python"
    assert hook["types_or"] == ["cuda", "header", "inl"]
    assert hook["require_serial"] is False
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts[hook["entry"]] == "cudalint.cli:main"


def test_the_cudalint_fix_hook(hooks, tmp_path):
    (hook,) = [h for h in hooks if h["id"] == "cudalint-fix"]
    (plain,) = [h for h in hooks if h["id"] == "cudalint"]
    assert hook["entry"] == "cudalint check --fix" and hook["args"] == ["--exit-non-zero-on-fix"]
    assert {k: v for k, v in hook.items() if k in ("language", "types_or", "require_serial")} == {
        k: plain[k] for k in ("language", "types_or", "require_serial")
    }
    # What pre-commit runs: entry, args, then the staged files. A safe fix applied fails the
    # hook even though no finding is left; the second run finds nothing to do.
    source = tmp_path / "halve.cu"
    source.write_text("__global__ void halve(float* v, int i) {\n    v[i] = v[i] * 0.5;\n}\n")
    program, *arguments = hook["entry"].split()
    command = [sys.executable, "-m", program, *arguments, *hook["args"], "--headers", HEADERS, source.name]
    first = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert first.returncode == 1 and "v[i] * 0.5f;" in source.read_text(), first.stderr
    second = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stdout


def test_identify_tags_cuda_sources_and_headers_as_the_hook_selects(hooks):
    identify = pytest.importorskip("identify.identify")
    for hook in hooks:
        for name in ("kernel.cu", "kernel.cuh", "helpers.h", "helpers.hpp", "helpers.hh", "helpers.hxx", "helpers.inl"):
            assert set(hook["types_or"]) & identify.tags_from_filename(name), name


def test_pre_commit_accepts_the_manifest():
    clientlib = pytest.importorskip("pre_commit.clientlib")
    clientlib.load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))


def test_parallel_runs_on_disjoint_file_lists(tmp_path):
    """What pre-commit does with require_serial: false: several processes at once."""
    for name in ("fp64.cu", "clean.cu", "suppressions.cu", "incomplete.cu"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    parts = [["fp64.cu", "clean.cu"], ["suppressions.cu", "incomplete.cu"]]
    command = [sys.executable, "-m", "cudalint", "--headers", HEADERS, "--min-level", "note", "--format", "json"]
    environment = {**os.environ, "NO_COLOR": "1"}
    processes = [
        subprocess.Popen(
            [*command, *part], cwd=tmp_path, env=environment, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for part in parts
    ]
    outputs = [process.communicate(timeout=120) for process in processes]
    documents = []
    for process, (stdout, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 1, stderr
        documents.append(json.loads(stdout))
    first, second = documents
    assert {(f["file"], f["line"]) for f in first["findings"]} == {("fp64.cu", 4), ("fp64.cu", 8)}
    assert {f["file"] for f in second["findings"]} == {"suppressions.cu", "incomplete.cu"}
    assert [n["file"] for n in second["notices"]] == ["incomplete.cu"] and first["notices"] == []
