"""Every rule's messages, rendered with the edge cases real code produces: no Python
``None``, no internal name of the dataflow, no empty quotes, no impossible count.

The facts of one kernel that gives every rule something to say (and of the kernels in
``RULE_KERNELS``, one per rule whose hazard that kernel does not show) are bent into the shapes
real code reaches: source text that is not in the file (macros, headers), no lane
stride, strides and dependencies made of values the dataflow had to invent names for
(a load, a value carried around a loop, a loop's trip counter), unknown sizes, single
lanes and partial warps. Internal names are invented here, so a leak is caught whatever
the dataflow calls its unknowns.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from conftest import run_cli
from cudalint.dataflow import BuildContext, Confidence, Facts, KernelResources, Variance
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import Pointer
from cudalint.ir import Span
from cudalint.rules import implemented, rule_name
from cudalint.rules.base import RuleKind
from cudalint.suppressions import UnusedSuppression as UnusedEntry

KERNEL = """
__global__ void __launch_bounds__(1024, 1) messages(const float* a, float* out, const int* idx, int n, int stride,
                                                    const float4* v) {
    __shared__ float tile[32][32];
    int t = threadIdx.x;
    int row = blockIdx.x * blockDim.x + t;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += a[row * n + k];
    acc += a[t * stride] + a[idx[t]] + v[row].x;
    tile[t][0] = acc;
    if (t % 2) { acc += 1.0f; acc *= 2.0f; }
    for (int i = 0; i < t; ++i) {}
    if (a[t] > 0.0f) {}
    if (t == 0) { for (int j = 0; j < 4096; ++j) acc += a[j]; }
    if (t < 16) { __syncthreads(); }
    float history[16];
    for (int i = 0; i < n; ++i) history[i % 16] = a[i];
    float tiles[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) tiles[i] = a[i * 1024 + t];
#pragma unroll
    for (int i = 0; i < 96; ++i) acc += tiles[i] * tiles[95 - i];
    acc += cosf(a[row]) + sinf(acc);
    out[row] = acc * 0.1 + history[idx[t] & 15];
}
"""

# A kernel per rule whose hazard KERNEL does not show, keyed by the rule's code; its own
# name, so that KERNEL stays the first kernel (the one the resources below describe).
# scripts/add_rule.py writes a new rule's entry from its corpus case's hazard.
RULE_KERNELS: dict[str, str] = {}

SOURCE = KERNEL + "".join(RULE_KERNELS.values())

# Names the dataflow might give values it cannot compute; none may reach a user.
INTERNAL = ("carried3", "after-loop", "x[]", "zq_internal")
_LEAKS = re.compile(r"None|``|\?\w|\biter\(|\bL\d+\b|" + "|".join(re.escape(n) for n in INTERNAL))


def _internal_value() -> sym.Sym:
    carried = sym.unknown("carried3", Variance.UNIFORM)
    loaded = sym.unknown("x[]", Variance.DATA)
    return carried * 4 + sym.iteration("L7", 99) * 128 + loaded


@pytest.fixture(scope="module")
def facts(snippets):
    return snippets.unit(SOURCE, "messages.cu")


def _fresh(tu, build: BuildContext | None = None, blank_source: bool = False) -> Facts:
    facts = Facts(tu, build=build)
    if blank_source:
        facts.source_text = lambda span, limit=60: ""
    return facts


def _pattern_variants(pattern):
    internal = _internal_value()
    names = ("carried3", "the loop at line 7", "after-loop", "zq_internal")
    symbolic = dict(confidence=Confidence.SYMBOLIC, depends_on=names)
    return [
        dataclasses.replace(pattern, lane_stride=None),
        dataclasses.replace(pattern, lane_stride=None, sectors=32, ideal_sectors=4, best_sectors=32, **symbolic),
        dataclasses.replace(pattern, lane_stride=internal, sectors=32, ideal_sectors=4, best_sectors=4, **symbolic),
        dataclasses.replace(
            pattern,
            lane_stride=internal,
            sectors=16,
            ideal_sectors=4,
            best_sectors=16,
            wavefronts=8,
            ideal_wavefronts=1,
            **symbolic,
        ),
        dataclasses.replace(pattern, sectors=32, ideal_sectors=4, wavefronts=4, ideal_wavefronts=1, active_lanes=16),
        dataclasses.replace(
            pattern,
            sectors=None,
            ideal_sectors=None,
            best_sectors=None,
            lane_stride=None,
            confidence=Confidence.UNKNOWN,
        ),
    ]


def _bend_accesses(kernel, variant: int) -> None:
    bent = []
    for access, pattern in kernel.accesses:
        location = Pointer(access.location.space, "zq_internal", access.location.offset, access.location.pointee)
        bent.append((dataclasses.replace(access, location=location), _pattern_variants(pattern)[variant]))
    kernel.__dict__["accesses"] = bent
    by_access = {id(a.expr): p for a, p in bent}
    kernel.pattern_with = lambda access, bindings: (
        by_access.get(id(access.expr))
        or _pattern_variants(kernel.__class__.pattern_with(kernel, access, bindings))[variant]
    )


def _bend_branches(kernel, taken: int | None, active: int) -> None:
    kernel.__dict__["branches"] = [
        (branch, dataclasses.replace(pattern, taken_lanes=taken, active_lanes=active))
        for branch, pattern in kernel.branches
    ]


def _messages(facts: Facts) -> dict[str, list[str]]:
    return {
        code: [f.message for f in rule().check(facts)]
        for code, rule in implemented().items()
        if rule.kind is RuleKind.FACTS
    }


def _all_messages(tu) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {code: [] for code, rule in implemented().items() if rule.kind is RuleKind.FACTS}

    def collect(facts: Facts) -> None:
        for code, messages in _messages(facts).items():
            found[code] += messages

    for blank in (False, True):
        collect(_fresh(tu, blank_source=blank))
        for variant in range(len(_pattern_variants(_any_pattern(tu)))):
            facts = _fresh(tu, blank_source=blank)
            for kernel in facts.kernels:
                _bend_accesses(kernel, variant)
            collect(facts)
        for taken, active in ((None, 32), (1, 16), (1, 1), (5, 16), (0, 32)):
            facts = _fresh(tu, blank_source=blank)
            for kernel in facts.kernels:
                _bend_branches(kernel, taken, active)
            collect(facts)
    for spills in (0, 96):
        resources = {
            "messages": KernelResources("messages", "messages", "messages", "sm_90", 64, spills + 64, spills, spills)
        }
        collect(_fresh(tu, BuildContext(90, None, resources)))
        collect(_fresh(tu, BuildContext(90, None, resources), blank_source=True))
    return found


def _any_pattern(tu):
    return _fresh(tu).kernels[0].accesses[0][1]


def test_every_rule_speaks_plainly_in_every_edge_case(facts):
    found = _all_messages(facts)
    silent = [code for code, messages in found.items() if not messages]
    assert not silent, f"rules the edge cases never exercised: {silent}"
    leaks = sorted({m for messages in found.values() for m in messages if _LEAKS.search(m)})
    assert not leaks, "\n".join(leaks)


def test_counts_agree_with_their_nouns(facts):
    for messages in _all_messages(facts).values():
        for message in messages:
            assert not re.search(r"\b0 (?:guarded )?statements?\b", message), message
            assert not re.search(r"\b1 (?:guarded )?statements\b", message), message
            assert not re.search(r"\bthe other 0\b", message), message


def test_a_single_lane_in_a_partial_warp(facts):
    facts_ = _fresh(facts)
    for kernel in facts_.kernels:
        _bend_branches(kernel, 1, 16)
    messages = [m for m in _messages(facts_)["CL301"] if "only one lane" in m]
    assert messages and all("the other 15 idle" in m for m in messages)


def test_unused_suppression_messages():
    entries = [
        UnusedEntry(3, 5, text, "cudalint", scope, unknown, rule_name(text or ""))
        for scope, text, unknown in (
            ("line", None, False),
            ("next-line", None, False),
            ("file", None, False),
            ("line", "CL999", True),
            ("line", "CL101", False),
            ("line", "X1", False),
        )
    ]
    messages = [f.message for f in implemented()["CL001"]().report("k.cu", entries)]
    assert len(messages) == len(entries)
    assert not [m for m in messages if _LEAKS.search(m)]


def test_wording_spells_only_source_values():
    from cudalint.rules import wording

    names = frozenset({"stride", "n"})
    assert wording.spelled_value(sym.parameter("stride") * 4, names) == "4*stride"
    assert wording.spelled_value(sym.builtin("threadIdx", "x") * 8 + 4, names) == "4 + 8*threadIdx.x"
    assert wording.spelled_value(_internal_value(), names) is None
    assert wording.spelled_value(sym.parameter("carried3"), names) is None
    assert wording.spelled_value(None, names) is None
    assert wording.spelled_names(["n", "carried3", "the loop at line 4", "x[]"], names) == ["n", "the loop at line 4"]
    assert wording.code("  a[i]\n + 1 ", "here") == "`a[i] + 1`" and wording.code("", "here") == "here"
    assert (wording.count(1, "statement"), wording.count(2, "statement")) == ("1 statement", "2 statements")


def test_span_of_the_kernel_is_in_the_file(facts):
    # The edge cases above start from real findings: make sure the file still yields them.
    assert {code for code, messages in _messages(_fresh(facts)).items() if messages} >= {
        "CL101",
        "CL201",
        "CL301",
        "CL302",
        "CL401",
        "CL501",
        "CL502",
    }
    assert isinstance(facts.functions[0].span, Span)


# ---------------------------------------------------------------------------- values as written


def _said(tmp_path, command: str, source: str, *where: str) -> str:
    """What ``cudalint COMMAND`` says of ``source``, its lines joined (explain wraps them)."""
    path = tmp_path / "kernel.cu"
    path.write_text(source, encoding="utf-8")
    target = f"{path}:{where[0]}" if where else str(path)
    cache = ("--no-cache", "--min-level", "note") if command == "check" else ()
    return " ".join(run_cli(command, "--headers", "embedded", *cache, target).stdout.split())


def test_an_operand_keeps_the_parentheses_its_operator_needs(tmp_path):
    x = sym.Sym.atom(sym.Atom(sym.AtomKind.THREAD_INDEX, "x"))
    s = sym.Sym.atom(sym.Atom(sym.AtomKind.PARAMETER, "s"))
    assert str(sym.operation("%", x, 2 * s)) == "(threadIdx.x % (2*s))"
    assert str(sym.operation(">>", x + s, sym.Sym.const(5) + s)) == "((s + threadIdx.x) >> (5 + s))"
    reduction = """
__global__ void reduce(float* data) {
    __shared__ float partial[256];
    unsigned int t = threadIdx.x;
    partial[t] = data[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (t % (2 * s) == 0) partial[t] += partial[t + s];
        __syncthreads();
    }
}
void go(float* d) { reduce<<<64, 256>>>(d); }
"""
    said = _said(tmp_path, "facts", reduction)
    assert "if (threadIdx.x % (2*(1 << iter(L7))) == 0)" not in said, "the comparison keeps its own parentheses"
    assert "if ((threadIdx.x % (2*(1 << iter(L7)))) == 0)" in said


def test_a_condition_known_when_compiled_picks_its_operand(tmp_path):
    source = """
#define USE_STRIDE 1
__global__ void pick(float* a, int k_arg) {
    int s = USE_STRIDE ? k_arg : 0;
    a[threadIdx.x * s] = 0.0f;
}
void go(float* a, int k) { pick<<<1, 256>>>(a, k); }
"""
    said = _said(tmp_path, "check", source)
    assert "lanes are 4*k_arg bytes apart" in said and "?" not in said
    assert "coalesced only when k_arg == 1" in said


def test_the_spread_of_a_warp_over_rows_is_said_as_such(tmp_path):
    source = """
__global__ void deep(float* a) { a[threadIdx.x + threadIdx.z * 4096] = 0.0f; }
__global__ void strided_rows(float* a) { a[threadIdx.x * 2 + threadIdx.y * 4096] = 0.0f; }
void go(float* a) { deep<<<1, dim3(4, 1, 64)>>>(a); strided_rows<<<1, dim3(4, 64)>>>(a); }
"""
    said = _said(tmp_path, "check", source)
    assert "lanes are 4 bytes apart" not in said, "contiguous lanes are not what spreads the request"
    assert "(50% efficiency; a warp spans 8 rows of 4 threads, each row its own addresses)" in said
    assert "a warp spans 8 rows of 4 threads, each row its own addresses; within a row, lanes are 8 bytes apart" in said


def test_lanes_decided_by_the_block_index_are_those_of_the_block_evaluated(tmp_path):
    source = """
__global__ void tiny(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
void go(float* a, int blocks) { tiny<<<blocks, 256>>>(a, 2); }
"""
    assert "0/32 lanes taken in block (3, 2, 1)" in _said(tmp_path, "facts", source)
    assert "no warp of block (3, 2, 1) looked at splits" in _said(tmp_path, "explain", source, "4")


def test_a_one_block_launch_is_judged_in_block_0(tmp_path):
    """The lanes 0 and 1 of block 0's first warp are inside the guard for n = 2."""
    source = """
__global__ void tiny(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
void go(float* a) { tiny<<<1, 256>>>(a, 2); }
"""
    said = _said(tmp_path, "facts", source)
    assert "2/32 lanes taken in block (0, 0, 0)" in said
    assert "(3, 2, 1)" not in said


def test_a_condition_names_loaded_data_only_where_a_load_feeds_it(tmp_path):
    """A condition on a float function of the thread index is unknown, not loaded data; one on
    a value read from memory is data the thread loaded."""
    source = """
__global__ void split(float* a, const float* x) {
    int t = threadIdx.x;
    float acc = a[t];
    if (sinf(t * 0.1f) > 0.5f) { acc = acc * 3.0f + 1.0f; acc = acc * acc; acc = sqrtf(acc); a[t + 64] = acc; }
    if (x[t] > 0.5f) { acc = acc * 3.0f + 1.0f; acc = acc * acc; acc = sqrtf(acc); a[t + 128] = acc; }
    a[t] = acc;
}
void go(float* a, const float* x) { split<<<1, 256>>>(a, x); }
"""
    said = _said(tmp_path, "check", source)
    assert "`sinf(t * 0.1f) > 0.5f` depends on values computed in ways cudalint does not follow" in said
    assert "`x[t] > 0.5f` depends on data each thread loaded" in said


def test_a_barrier_met_again_on_the_next_trip_is_said_as_such(tmp_path):
    """Lanes that leave the inner loop early are back at its barrier on the next trip of the
    loop around it; the message names that, not a barrier at the loop's line."""
    source = """
__global__ void rounds(float* out, const int* counts, int passes) {
    float acc = 0.0f;
    for (int r = 0; r < passes; ++r) {
        int n = counts[r * blockDim.x + threadIdx.x];
        for (int j = 0; j < n; ++j) {
            acc += out[j * blockDim.x + threadIdx.x];
            __syncwarp();
        }
    }
    out[threadIdx.x] = acc;
}
void go(float* out, const int* counts) { rounds<<<1, 256>>>(out, counts, 4); }
"""
    said = _said(tmp_path, "check", source)
    assert "come back to it on the next trip of the loop around it" in said
    assert "reach the barrier at line 6" not in said
