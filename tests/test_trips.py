"""Loop trips counted lane by lane (dataflow/trips.py), what they do to CL301's cost
estimate, and CL302's reading of a barrier loop's early leavers."""

from __future__ import annotations

import pytest

from cudalint.dataflow import Access, Cost

LAUNCHED = """
__global__ void k(float* out, const float* a, int n) {{
    __shared__ float s[256];
    int t = threadIdx.x;
    int lane = t % 32, warp = t / 32;
    float acc = 0.0f;
{body}
    out[blockIdx.x * blockDim.x + t] = acc;
}}
int main() {{
    float *out, *a;
    k<<<64, 256>>>(out, a, {n});
    return 0;
}}
"""


def kernel_of(snippets, body: str, n: int = 1000):
    facts = snippets.facts(LAUNCHED.format(body=body, n=n))
    (kernel,) = [k for k in facts.kernels if k.function.name == "k"]
    return kernel


def loop_pattern(kernel, line: int):
    return next(p for b, p in kernel.branches if b.stmt.span.line == line)


def test_a_lane_varying_start_idles_the_lanes_that_finish_first(snippets):
    kernel = kernel_of(snippets, "    for (int j = lane; j < 64; j++) acc += a[t + (j - lane) * 256];")
    pattern = loop_pattern(kernel, 6)
    assert (pattern.trips.fewest, pattern.trips.most, pattern.trips.trips) == (33, 64, 64)
    assert pattern.trips.idle_lane_trips == sum(range(32))  # lane l runs l trips fewer
    assert pattern.cost is Cost.COSTLY


def test_warps_with_ragged_last_rounds(snippets):
    kernel = kernel_of(snippets, "    for (int j = lane; j < 40 + 13 * warp; j += 32) acc += a[warp * 256 + j];")
    profile = loop_pattern(kernel, 6).trips
    lengths = [40 + 13 * w for w in range(8)]
    rounds = [-(-length // 32) for length in lengths]
    assert profile.trips == sum(rounds) / 8
    assert profile.idle_lane_trips == sum(32 * r - length for r, length in zip(rounds, lengths, strict=True)) / 8
    assert profile.divergent_share == pytest.approx(8 / sum(r + 1 for r in rounds))


def test_a_long_stride_walk_splits_only_its_last_round(snippets):
    kernel = kernel_of(snippets, "    for (int i = t; i < n; i += blockDim.x) acc += a[i];", n=100000)
    pattern = loop_pattern(kernel, 6)
    assert pattern.trips.most == 391 and pattern.trips.fewest == 390
    assert pattern.trips.divergent_share < 0.05
    assert pattern.cost in (Cost.NONE, Cost.CHEAP)


def test_a_constant_loop_costs_its_trips(snippets):
    kernel = kernel_of(snippets, "    for (int k = 0; k < 256; ++k) acc += a[t + k * 256];")
    assert kernel.trip_profiles[id(loop_pattern_stmt(kernel, 6))].trips == 256
    assert kernel.workload.trips_of(loop_pattern_stmt(kernel, 6)) == 256


def loop_pattern_stmt(kernel, line: int):
    return next(b.stmt for b, _ in kernel.branches if b.stmt.span.line == line)


def test_a_loaded_bound_is_not_counted(snippets):
    kernel = kernel_of(snippets, "    for (int j = 0; j < (int)a[t]; ++j) acc += 1.0f;")
    assert loop_pattern(kernel, 6).trips is None


def test_a_one_lane_body_is_issued_by_one_warp(snippets):
    body = (
        "    for (int k = 0; k < 8; ++k) acc += a[t + k * 256];\n"
        "    if (t == 0) for (int k = 0; k < 512; ++k) acc += s[k % 256];"
    )
    kernel = kernel_of(snippets, body)
    pattern = loop_pattern(kernel, 7)
    # The serial loop is issued by warp 0 alone: most of what the block issues, 31 of its
    # 32 lanes idle.
    assert pattern.idle_share > 0.5
    assert pattern.cost is Cost.COSTLY


BARRIER_LOOP = """
    for (int i = t; i < n; i += blockDim.x) {{
        s[t] = a[blockIdx.x * n + i];
        __syncthreads();
        acc += s[(t + 1) % 256];
        __syncthreads();
    }}
{after}"""


def test_a_block_stride_loop_over_a_multiple_of_the_block_is_reached_equally(snippets):
    kernel = kernel_of(snippets, BARRIER_LOOP.format(after=""), n=1024)
    assert kernel.equal_trips(loop_pattern_stmt(kernel, 7)) is True
    assert not [b for b in kernel.barriers if kernel.skipped_then(b) is not None]


def test_early_leavers_that_read_shared_memory_race(snippets):
    kernel = kernel_of(snippets, BARRIER_LOOP.format(after="    acc += s[(t + 17) % 256];"), n=1000)
    assert kernel.equal_trips(loop_pattern_stmt(kernel, 7)) is False
    met = [kernel.skipped_then(b) for b in kernel.barriers]
    assert len(met) == 2 and met[0] is met[1]
    assert isinstance(met[0], Access) and met[0].span.line == 13


def test_early_leavers_that_read_only_their_own_element_do_not_race(snippets):
    kernel = kernel_of(snippets, BARRIER_LOOP.format(after="    acc += s[t];").replace("s[(t + 1) % 256]", "s[t]"))
    assert all(kernel.skipped_then(b) is None for b in kernel.barriers)
    assert all(kernel.skippers_exit(b) for b in kernel.barriers)


ONE_LANE_STORE = """
__global__ void k(float* out, const float* a) {{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = a[blockIdx.x * 256 + t];
    __syncthreads();
    if (t == 0) out[blockIdx.x] = s[0] + s[255];
{after}}}
int main() {{
    float *out, *a;
    k<<<64, 256>>>(out, a);
    return 0;
}}
"""


def test_lanes_that_skip_a_path_at_the_kernels_end_exit(snippets):
    """A short one-lane path that ends the kernel: nvcc ends the other lanes before it
    (``@!P EXIT``), so only the warp holding the lane issues it, as measured (its body's
    instructions run with one thread each); followed by more work, nvcc predicates it in
    every warp of the block."""
    shares = {}
    for name, after in (("end", ""), ("middle", "    __syncthreads();\n    out[blockIdx.x * 256 + t] = s[t];\n")):
        facts = snippets.facts(ONE_LANE_STORE.format(after=after))
        (kernel,) = [k for k in facts.kernels if k.function.name == "k"]
        (pattern,) = [p for b, p in kernel.branches if b.stmt.kind.value == "if"]
        shares[name] = pattern.idle_share
    assert 0 < shares["end"] < shares["middle"] / 4
