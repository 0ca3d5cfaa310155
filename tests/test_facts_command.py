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


CONTEXT = """\
__global__ void k(float* out, const float* in, int n, int stride, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = 0.0f;
    for (int k = 0; k < 4; ++k) v += in[i * stride + k];
    for (int j = threadIdx.x % 8; j < 16; ++j) v += in[j];
    for (int r = 0; r < reps; ++r) v *= 0.5f;
    if (threadIdx.y == 0) out[blockIdx.x * 4 + threadIdx.y] = v;
}

__global__ void unlaunched(float* a, int m) {
    for (int r = 0; r < m; ++r) a[threadIdx.x] += 1.0f;
}

int main() {
    k<<<64, dim3(32, 4)>>>(nullptr, nullptr, 4096, 2, 3);
    return 0;
}
"""


def _by_line(records: list[dict]) -> dict[int, dict]:
    return {int(record["location"].rsplit(":", 2)[1]): record for record in records}


def test_facts_show_what_the_rules_read_of_loops_guards_and_launch(tmp_path):
    """Each access and branch with its loops (trips from the source, the launch, or lane by
    lane), the conditions it runs under, its lane-checked variance, the launch values its
    verdict used, and for a branch what the cost model decided."""
    path = tmp_path / "case.cu"
    path.write_text(CONTEXT)
    shown = run_cli("facts", str(path), "--kernel", "k", "--format", "json", "--headers", "embedded")
    document = json.loads(shown.output)
    (kernel,) = document["kernels"]
    accesses, branches = _by_line(kernel["accesses"]), _by_line(kernel["branches"])

    strided = accesses[5]
    (loop,) = strided["loops"]
    assert {key: loop[key] for key in ("kind", "counter", "trips", "trips_from", "unrolled")} == {
        "kind": "for",
        "counter": "iter(L5)",
        "trips": 4,
        "trips_from": "source",
        "unrolled": "unrolled",
    }
    exit_guard = strided["guards"][0]
    assert exit_guard["condition"] == "(blockDim.x*blockIdx.x + threadIdx.x) >= n"
    assert (exit_guard["holds"], exit_guard["after_exit"], exit_guard["variance"]) == (False, True, "thread")
    assert exit_guard["decision"].endswith("case.cu:3:5")
    assert strided["address_variance"] == "thread"
    assert strided["launch_values"] == {"stride": 2} and strided["launch"] == "case.cu:16"

    (lanes,) = accesses[6]["loops"]
    assert lanes["lane_trips"] == {"fewest": 9, "most": 16} and lanes["trips"] is None
    assert lanes["issued_per_warp"] == 16 and "launch_values" not in accesses[6]

    store = accesses[8]
    assert store["address_variance"] == "warp-uniform"
    assert [g["variance"] for g in store["guards"]] == ["thread", "warp-uniform"]

    (launched,) = branches[7]["loops"]
    assert (launched["trips"], launched["trips_from"]) == (3, "launch")
    assert branches[7]["launch_values"] == {"reps": 3}

    walk = branches[6]["cost"]
    assert (walk["verdict"], walk["splits"], walk["idiom"]) == ("costly", True, None)
    assert walk["trips"]["fewest"] == 9 and walk["trips"]["most"] == 16 and walk["trips"]["divergent_share"] > 0
    guard = branches[3]["cost"]
    assert (guard["idiom"], guard["leaves"], guard["size_dependent"]) == ("bounds guard", True, True)


def test_facts_text_shows_the_same(tmp_path):
    path = tmp_path / "case.cu"
    path.write_text(CONTEXT)
    text = run_cli("facts", str(path), "--headers", "embedded").output
    for expected in (
        "address: thread, checked lane by lane",
        "address: warp-uniform, checked lane by lane",
        "in for at line 5 (iter(L5)): 4 trips, unrolled",
        "in for at line 6 (iter(L6)): lanes run 9 to 16 trips, warps 16, kept rolled",
        "in for at line 7 (iter(L7)): 3 trips (the launch's)",
        "under !((blockDim.x*blockIdx.x + threadIdx.x) >= n) (thread, line 3, the threads that took it exited)",
        "threadIdx.y == 0 (warp-uniform, line 8)",
        "launch values of the launch at case.cu:16: stride = 2",
        "model: every thread of the block decides alike at the values sampled; warps issue 16 trips",
        # A bound no launch gives: the cost model's assumption is shown as such.
        "in for at line 12 (iter(L12)): trips known at run time only (the cost model assumes 8)",
    ):
        assert expected in text, expected


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
