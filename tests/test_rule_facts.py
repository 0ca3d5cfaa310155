"""Decisions the rules read from the facts rather than make themselves: which decisions a
barrier waits on, whether its skippers exit, whether a branch's lanes leave, which padding
frees a shared tile of conflicts, and what makes an fp64 region double."""

from __future__ import annotations

import pytest

from cudalint.dataflow import Facts, KernelFacts


def kernel(facts: Facts, name: str) -> KernelFacts:
    return next(k for k in facts.kernels if k.function.name == name)


def barrier_on(kernel_facts: KernelFacts, line: int):
    (barrier,) = [b for b in kernel_facts.barriers if b.expr.span.line == line]
    return barrier


BARRIERS = """
__device__ void stage(float* s, int t) {
    if (t < 16) {
        __syncthreads();
    }
}
__global__ void barriers(float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t >= n) return;
    __syncthreads();
    if (t < 32) {
        s[t] = a[t];
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i) {
        if (t == i) continue;
        __syncthreads();
    }
    stage(s, t);
}
__global__ void once(float* a) {
    __shared__ float s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
    }
}
__global__ void twice(float* a) {
    __shared__ float s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
    }
    __syncthreads();
}
__global__ void looped(float* a, int n) {
    __shared__ float s[64];
    for (int i = 0; i < n; ++i) {
        if (threadIdx.x < 64) {
            s[threadIdx.x] = a[threadIdx.x];
            __syncthreads();
        }
    }
}
"""


@pytest.fixture(scope="module")
def barrier_facts(snippets):
    return snippets.facts(BARRIERS)


def decision_lines(kernel_facts: KernelFacts, line: int) -> list[int]:
    return [d.span.line for d in kernel_facts.barrier_decisions(barrier_on(kernel_facts, line))]


def test_an_early_return_before_a_barrier_is_not_a_decision_it_waits_on(barrier_facts):
    facts = kernel(barrier_facts, "barriers")
    assert facts.control_flow.controlling(barrier_on(facts, 10).stmt)  # The return's `if` controls it...
    assert decision_lines(facts, 10) == []  # ...but threads that returned wait nowhere.
    assert decision_lines(facts, 13) == [11]


def test_a_continue_before_a_barrier_is_a_decision_it_waits_on(barrier_facts):
    facts = kernel(barrier_facts, "barriers")
    assert decision_lines(facts, 17) == [15, 16]


def test_an_inlined_barrier_waits_on_the_conditions_at_the_call(barrier_facts):
    facts = kernel(barrier_facts, "barriers")
    (inlined,) = [b for b in facts.barriers if b.inlined_from]
    assert [d.span.line for d in facts.barrier_decisions(inlined)] == [2]


@pytest.mark.parametrize(
    ("name", "line", "exits"),
    [
        ("once", 25, True),  # Nothing after: threads over 64 simply exit.
        ("twice", 32, False),  # They meet the second barrier instead.
        ("looped", 41, False),  # They meet it again on the next trip.
    ],
)
def test_threads_that_skip_a_barrier_exit_only_when_no_barrier_comes_after(barrier_facts, name, line, exits):
    facts = kernel(barrier_facts, name)
    assert facts.skippers_exit(barrier_on(facts, line)) is exits


BRANCHES = """
__global__ void leaving(float* a, int n) {
    int t = threadIdx.x;
    if (t % 2) return;
    for (int i = 0; i < n; ++i) {
        if (t % 4 == i) continue;
        if (t % 8 == i) { a[i] = 0.0f; break; }
        if (t % 3 == i) a[i] += 1.0f;
        if (t % 5 == i) { return; } else { a[i] = 2.0f; }
    }
}
"""


def test_a_branch_whose_lanes_leave_is_known_as_such(snippets):
    facts = kernel(snippets.facts(BRANCHES), "leaving")
    leaves = {b.stmt.span.line: p.leaves for b, p in facts.branches if b.stmt.kind.value == "if"}
    assert leaves == {3: True, 5: True, 6: True, 7: False, 8: False}


TILES = """
__global__ void transpose(const float* in, float* out) {
    __shared__ float tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];
    __syncthreads();
    out[y * 32 + x] = tile[x][y];
}
__global__ void square(const float* in, float* out) {
    __shared__ float tile[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 16 + x];
    __syncthreads();
    out[y * 16 + x] = tile[x][y];
}
__global__ void rows(const float* in, float* out) {
    __shared__ float tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];
    __syncthreads();
    out[y * 32 + x] = tile[y][31 - x];
}
void launch(const float* in, float* out) {
    transpose<<<1, dim3(32, 32)>>>(in, out);
    square<<<1, dim3(16, 16)>>>(in, out);
    rows<<<1, dim3(32, 32)>>>(in, out);
}
"""


@pytest.mark.parametrize(
    ("name", "line", "row_bytes", "padding"),
    [
        ("transpose", 6, 32 * 4, 1),  # [32][33]: a column of 32 rows over 32 banks.
        ("transpose", 4, 32 * 4, 1),  # Conflict-free already, but its tile's column read is not.
        ("rows", 20, 32 * 4, None),  # The whole tile is walked by rows: nothing to gain.
        ("square", 13, 16 * 4, 2),  # Two columns of 16 rows per warp: [16][17] still conflicts.
    ],
)
def test_the_padding_that_frees_a_tile_of_conflicts(snippets, name, line, row_bytes, padding):
    facts = kernel(snippets.facts(TILES), name)
    (access,) = [a for a, _ in facts.accesses if a.space.value == "shared" and a.span.line == line]
    assert facts.conflict_free_padding(access, row_bytes, 4) == padding


PRECISION = """
__global__ void doubles(const float* in, float* out, int n) {
    int i = threadIdx.x;
    out[0] = in[i] * 0.5 + 0.1;
    out[1] = in[i] * 0.5;
    out[2] = pow(in[i], 2);
    out[3] = pow(in[i], 2.0);
    out[4] = max(in[i] * 1.5, 2.0);
}
"""


@pytest.fixture(scope="module")
def regions(snippets):
    return {region.root.span.line: region for region in snippets.facts(PRECISION).fp64_regions}


def test_the_literal_that_makes_a_region_double_is_the_inexact_one_first(regions):
    assert (regions[3].double_literal.text, regions[3].double_literal_is_exact) == ("0.1", False)
    assert (regions[4].double_literal.text, regions[4].double_literal_is_exact) == ("0.5", True)
    assert regions[5].double_literal is None and not regions[5].double_literal_is_exact


def test_pow_of_an_int_exponent_is_made_double_by_the_headers(regions):
    assert regions[5].headers_pick_double
    assert not regions[6].headers_pick_double


def test_min_and_max_have_no_float_variant_to_rename_to(regions):
    assert [call.name for call in regions[6].calls_with_float_variant] == ["pow"]
    assert regions[7].math_calls or regions[7].operations
    assert regions[7].calls_with_float_variant == []
