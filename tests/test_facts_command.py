"""`cudalint facts`: the command, and snapshots of its JSON on the access corpus.

Regenerate the snapshots after an intended change with
``CUDALINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_facts_command.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import run_cli
from cudalint.dataflow import Facts, Variance
from cudalint.report.facts import render_facts_json

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).parent / "snapshots" / "facts"
CORPUS = sorted((ROOT / "tests" / "corpus" / "access").glob("*.cu"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_snapshot(path, corpus_results):
    facts = Facts(corpus_results.unit(path))
    rendered = render_facts_json(facts, list(facts.kernels), str(ROOT))
    snapshot = SNAPSHOTS / (path.stem + ".json")
    if os.environ.get("CUDALINT_UPDATE_SNAPSHOTS"):
        snapshot.write_text(rendered)
    assert snapshot.is_file(), f"no snapshot {snapshot}; set CUDALINT_UPDATE_SNAPSHOTS=1"
    assert json.loads(rendered) == json.loads(snapshot.read_text())


def test_every_snapshot_belongs_to_a_corpus_file():
    assert {p.stem for p in SNAPSHOTS.glob("*.json")} == {p.stem for p in CORPUS}


BARRIERS = """\
__global__ void k(float* a) {
    int t = threadIdx.x;
    __syncthreads();
    if (t < 16) { __syncthreads(); }
    for (int j = 0; j < t; ++j) { __syncthreads(); }
    if (blockIdx.x == 0) __syncthreads();
    if (t % 2) return;
    __syncthreads();
}
"""


def test_control_variance_of_barriers(snippets):
    (kernel,) = snippets.facts(BARRIERS).kernels
    verdicts = {b.expr.span.line: kernel.control_variance(b.stmt) for b in kernel.barriers}
    assert verdicts[3][0] is Variance.UNIFORM
    assert verdicts[4][0] is Variance.THREAD and verdicts[4][1].span.line == 4
    assert verdicts[5][0] is Variance.THREAD and verdicts[5][1].span.line == 5
    assert verdicts[6][0] is Variance.UNIFORM
    assert verdicts[8][0] is Variance.THREAD and verdicts[8][1].span.line == 7


def test_facts_command_text_and_json(tmp_path):
    path = tmp_path / "barriers.cu"
    path.write_text(BARRIERS + "__device__ float helper(const float* p) { return p[threadIdx.x * 2]; }\n")
    text = run_cli("facts", str(path), "--headers", "embedded")
    assert text.exit_code == 0, text.output
    assert "kernel k" in text.output and "under thread control" in text.output
    assert "device helper" in text.output and "8 sectors/request (ideal 4)" in text.output
    only = run_cli("facts", str(path), "--kernel", "helper", "--format", "json", "--headers", "embedded")
    document = json.loads(only.output)
    assert [k["function"] for k in document["kernels"]] == ["helper"]
    (access,) = document["kernels"][0]["accesses"]
    assert access["sectors_per_request"] == 8 and access["lane_stride_bytes"] == "8"
    assert document["kernels"][0]["block"]["source"] == "assumed"


def test_facts_command_errors(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text(BARRIERS)
    missing = run_cli("facts", str(path), "--kernel", "nope", "--headers", "embedded")
    assert missing.exit_code == 2 and "no kernel or device function named 'nope'" in missing.output
    absent = run_cli("facts", str(tmp_path / "absent.cu"))
    assert absent.exit_code == 2 and "no such file" in absent.output


def test_included_kernels_are_listed_only_when_asked(tmp_path, monkeypatch):
    (tmp_path / "kernels.cuh").write_text(
        "__global__ void in_header(float* a) {\n    if (threadIdx.x % 2) a[threadIdx.x] = sqrtf(a[threadIdx.x]);\n}\n"
    )
    (tmp_path / "main.cu").write_text(
        '#include "kernels.cuh"\n'
        "__global__ void in_main(float* a) { a[threadIdx.x] = 1.0f; }\n"
        "int main() { in_header<<<1, 64>>>(nullptr); in_main<<<1, 64>>>(nullptr); }\n"
    )
    monkeypatch.chdir(tmp_path)
    names = {}
    for extra in ((), ("--included",)):
        result = run_cli("facts", "main.cu", "--format", "json", *extra)
        names[extra] = sorted(k["function"] for k in json.loads(result.stdout)["kernels"])
    assert names[()] == ["in_main"]
    assert names[("--included",)] == ["in_header", "in_main"]
