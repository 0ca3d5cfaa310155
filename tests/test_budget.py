"""The interpreter's cost on generated worst cases (scripts/pathological_kernels.py): every
case within its budget, cost growing polynomially with nesting and length, and a function
that outruns its budget cut where it stopped, with a notice, while the run goes on.
Timings are in bench/pathological.py; these tests count steps."""

from __future__ import annotations

from conftest import analyze, load_script
from cudalint.dataflow import interpret
from cudalint.dataflow import symbolic as sym

pathological = load_script("pathological_kernels")


def _steps(snippets, source: str) -> int:
    (kernel,) = snippets.facts(source).kernels
    assert kernel.cut is None, kernel.cut
    assert kernel.trace.steps <= kernel.trace.budget
    return kernel.trace.steps


def test_loop_nests_cost_polynomially_in_depth(snippets):
    shallow = snippets.facts(pathological.loop_nest(6)).kernels[0]
    deep = snippets.facts(pathological.loop_nest(18)).kernels[0]
    assert shallow.cut is None and deep.cut is None
    # Each statement runs once per enclosing loop plus once: cubic at most, never 2^depth.
    assert deep.trace.steps <= shallow.trace.steps * (18 / 6) ** 3 and deep.trace.steps < 2**18
    # The budget grows with the code too, within its floor and ceiling.
    assert interpret.MIN_BUDGET <= shallow.trace.budget <= deep.trace.budget <= interpret.MAX_BUDGET


def test_hash_rounds_cost_linearly_in_rounds(snippets):
    quarter = _steps(snippets, pathological.hash_rounds("md5", 16))
    half = _steps(snippets, pathological.hash_rounds("md5", 32, blocks=True))
    assert half <= 2.5 * quarter
    # sha1's rounds also update the message schedule: a bounded number of steps each.
    assert _steps(snippets, pathological.hash_rounds("sha1", 24, blocks=True)) <= 250 * 24


def test_mixing_rounds_keep_values_small():
    state = [sym.unknown(name, sym.Variance.DATA) for name in "abcd"]
    sizes = []
    for _ in range(256):
        a, b, c, d = state
        mixed = sym.operation("|", sym.operation("&", b, c), sym.operation("&", sym.operation("~", b), d))
        rotated = sym.operation(
            "|", sym.operation("<<", a + mixed, sym.Sym.const(7)), sym.operation(">>", a + mixed, sym.Sym.const(25))
        )
        state = [d, b + rotated, b, c]
        sizes.append(max(value.size for value in state))
    # Bounded, however many rounds: each round's operands are capped, not the whole history.
    assert max(sizes) <= 4 * sym.MAX_SIZE and max(sizes[128:]) <= max(sizes[:128])


def test_huge_switch_and_macro_expansions_stay_within_budget(snippets):
    switch = _steps(snippets, pathological.huge_switch(40))
    macro = _steps(snippets, pathological.macro_expanded(20))
    assert switch < 40 * 60 and macro < 20 * 60  # A bounded number of steps per case and expansion.


TWO_KERNELS = """\
__global__ void heavy(float* a, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            s += a[i * n + j];
        }
    }
    a[threadIdx.x * 2] = s;
}
__global__ void light(float* a) {
    a[threadIdx.x * 2] = 1.0f;
}
"""


def test_a_function_past_its_budget_is_cut_and_reported(snippets, monkeypatch):
    monkeypatch.setattr(interpret, "STEPS_PER_NODE", 1)
    monkeypatch.setattr(interpret, "MIN_BUDGET", 10)
    facts = snippets.facts(TWO_KERNELS)
    heavy = next(k for k in facts.kernels if k.function.name == "heavy")
    assert heavy.cut is not None and 3 <= heavy.cut.line <= 8
    assert heavy.trace.steps == heavy.trace.budget + 1
    result = analyze(snippets.write(TWO_KERNELS))
    (notice,) = result.notices
    assert "`heavy`" in notice.message and f"line {heavy.cut.line}" in notice.message
    assert notice.line == heavy.cut.line
    # The run goes on: the other kernel is analyzed and reported.
    assert any(f.code == "CL101" and f.span.line == 11 for f in result.findings)
