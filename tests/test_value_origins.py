"""Values that reach an index or a condition through memory, helpers, intrinsics,
cooperative groups and loops: how they vary between threads, and why."""

from __future__ import annotations

import pytest

from conftest import analyze
from cudalint.dataflow import BarrierScope, Confidence, DataPattern, MemorySpace
from cudalint.dataflow.symbolic import Variance
from cudalint.dataflow.threads import LaneEvaluator
from test_dataflow import accesses_on, kernel, only


def branch_on(kernel_facts, line: int):
    (found,) = [(b, p) for b, p in kernel_facts.branches if b.stmt.span.line == line]
    return found


def lanes(kernel_facts, access) -> list[int | None]:
    return LaneEvaluator(kernel_facts.shape).lanes(access.location.offset)


# ---------------------------------------------------------------------- memory

MEMORY = """
    struct Args { const float* in; float* out; int n; };
    __device__ int d_flag;
    __global__ void param_struct(Args args) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < args.n) args.out[i] = args.in[2 * i];
    }
    __global__ void per_thread_array(float* out) {
        float v[4];
        for (int k = 0; k < 4; ++k) v[k] = out[k * 128 + threadIdx.x];
        if (v[0] > 0.0f) out[threadIdx.x] = 1.0f;
    }
    __global__ void own_store(float* out) {
        __shared__ int s;
        s = threadIdx.x;
        out[s] = 1.0f;
    }
    __global__ void device_flag(float* out) {
        if (threadIdx.x == 0) d_flag = 1;
        __syncthreads();
        if (d_flag) out[threadIdx.x] = 0.0f;
    }
    __global__ void pointer_table(float* data, int n) {
        __shared__ float* rows[4];
        if (threadIdx.x < 4) rows[threadIdx.x] = data + threadIdx.x * n;
        __syncthreads();
        float* mine = rows[threadIdx.x % 4];
        float* block_row = rows[blockIdx.x % 4];
        block_row[threadIdx.x] = mine[0];
    }
    __global__ void flag_before_barrier(float* out, const int* work) {
        __shared__ int s_flag;
        if (threadIdx.x == 0) s_flag = work[blockIdx.x];
        if (s_flag) out[threadIdx.x] = 1.0f;
        __syncthreads();
        if (s_flag) out[threadIdx.x] = 2.0f;
    }
    __device__ void copy_strided(Args a, int i) { a.out[i] = a.in[2 * i]; }
    __global__ void param_struct_to_helper(Args args) { copy_strided(args, blockIdx.x * blockDim.x + threadIdx.x); }
"""


@pytest.fixture(scope="module")
def memory_facts(snippets):
    return snippets.facts(MEMORY)


def test_kernel_struct_parameter_fields_are_uniform_and_its_pointers_global(memory_facts):
    facts = kernel(memory_facts, "param_struct")
    access, pattern = only(facts, 5)
    assert access.location.base == "args.in" and pattern.confidence is Confidence.EXACT
    assert pattern.sectors == 8 and pattern.lane_stride.constant == 8
    _, bound = branch_on(facts, 5)
    assert bound.bounds_guard
    assert not [a for a, _ in facts.accesses if a.space is MemorySpace.PARAMETER]


def test_a_parameter_struct_passed_to_a_helper_keeps_its_pointers(memory_facts):
    facts = kernel(memory_facts, "param_struct_to_helper")
    ((load, pattern),) = [(a, p) for a, p in facts.accesses if a.kind.value == "load"]
    assert load.space is MemorySpace.GLOBAL and load.inlined_from == ("copy_strided",)
    assert pattern.confidence is Confidence.EXACT and pattern.sectors == 8


def test_per_thread_arrays_hold_per_thread_values(memory_facts):
    _, pattern = branch_on(kernel(memory_facts, "per_thread_array"), 10)
    assert pattern.variance is Variance.DATA


def test_a_thread_reads_back_what_it_stored(memory_facts):
    facts = kernel(memory_facts, "own_store")
    access, pattern = only(facts, 15, kind="store")
    assert pattern.confidence is Confidence.EXACT and pattern.sectors == 4


def test_a_device_scalar_read_after_a_barrier_is_uniform(memory_facts):
    facts = kernel(memory_facts, "device_flag")
    branch, pattern = branch_on(facts, 20)
    assert pattern.variance is Variance.UNIFORM
    assert facts.why(branch.condition) == [
        "d_flag: read from `d_flag` at an address that is the same in every thread of the block"
    ]


def test_pointers_read_from_memory_keep_their_allocation(memory_facts):
    facts = kernel(memory_facts, "pointer_table")
    store, store_pattern = only(facts, 28, kind="store")
    load, load_pattern = only(facts, 28, kind="load")
    assert (store.location.base, load.location.base) == ("data", "data")
    assert store_pattern.confidence is Confidence.EXACT and store_pattern.sectors == 4
    assert load_pattern.confidence is Confidence.UNKNOWN and load_pattern.data_pattern is DataPattern.GATHER


def test_a_flag_read_before_the_barrier_differs_and_after_it_is_uniform(memory_facts):
    facts = kernel(memory_facts, "flag_before_barrier")
    assert branch_on(facts, 33)[1].variance is Variance.THREAD  # Only thread 0 has stored it yet.
    branch, after = branch_on(facts, 35)
    assert after.variance is Variance.UNIFORM
    assert facts.why(branch.condition, Variance.UNIFORM) == [
        "s_flag: read from shared `s_flag` after the barrier at line 34: the same in every thread of the block"
    ]


# ---------------------------------------------------------------------- helpers

HELPERS = """
    __device__ void split(int v, int& hi, int& lo) { hi = v / 32; lo = v % 32; }
    __device__ void bump(int* p) { *p += threadIdx.x; }
    __device__ int pick(int t) { if (t % 2) return 2 * t; return t; }
    __device__ void put(float* s, int i, float v) { s[i] = v; }
    __global__ void helpers(float* out) {
        __shared__ float tile[256];
        int hi = 0, lo = 0;
        split(threadIdx.x, hi, lo);
        int acc = 0;
        bump(&acc);
        out[hi * 32 + lo] = 1.0f;
        out[acc] = 2.0f;
        out[pick(threadIdx.x)] = 3.0f;
        put(tile, threadIdx.x * 2, 1.0f);
    }
"""


@pytest.fixture(scope="module")
def helper_facts(snippets):
    return kernel(snippets.facts(HELPERS), "helpers")


def test_reference_out_parameters_carry_the_thread_index(helper_facts):
    access, pattern = only(helper_facts, 11, kind="store")
    assert lanes(helper_facts, access) == [4 * t for t in range(32)]


def test_pointer_out_parameters_carry_the_thread_index(helper_facts):
    access, _ = only(helper_facts, 12, kind="store")
    assert lanes(helper_facts, access) == [4 * t for t in range(32)]


def test_a_helper_with_two_returns_gives_an_exact_value(helper_facts):
    access, pattern = only(helper_facts, 13, kind="store")
    assert lanes(helper_facts, access) == [4 * (2 * t if t % 2 else t) for t in range(32)]


def test_a_shared_pointer_passed_to_a_helper_stays_shared(helper_facts):
    ((access, pattern),) = [(a, p) for a, p in helper_facts.accesses if a.inlined_from == ("put",)]
    assert access.space is MemorySpace.SHARED and access.stmt.span.line == 14 and pattern.conflict_degree == 2


# ---------------------------------------------------------------------- intrinsics

INTRINSICS = """
    __global__ void intrinsics(unsigned* out, const unsigned* in) {
        unsigned t = threadIdx.x;
        out[__umul24(blockIdx.x, blockDim.x) + t] = 0;
        out[__umulhi(t, 1u << 30)] = 1;
        unsigned b = __ballot_sync(0xffffffffu, in[t] > 0);
        int count = __syncthreads_count(in[t] > 0);
        unsigned rank = __popc(b & ((1u << (t % 32)) - 1u));
        unsigned across = __shfl_xor_sync(0xffffffffu, t, 1);
        unsigned broadcast = __shfl_sync(0xffffffffu, in[t], 3);
        unsigned same = __shfl_sync(0xffffffffu, 5u, t);
        int slot = atomicAdd(out, 1);
        if (b) out[1] = 0;
        if (count > 2) out[2] = 0;
        if (rank) out[3] = 0;
        if (across) out[4] = 0;
        if (broadcast) out[5] = 0;
        if (same == 5) out[6] = 0;
        if (slot > 3) out[7] = 0;
        if (__ffs(t) == 3) out[8] = 0;
    }
"""

INTRINSIC_VARIANCE = [
    (12, Variance.WARP_UNIFORM),
    (13, Variance.UNIFORM),
    (14, Variance.THREAD),
    (15, Variance.DATA),
    (16, Variance.WARP_UNIFORM),
    (17, Variance.UNIFORM),
    (18, Variance.DATA),
    (19, Variance.THREAD),
]


@pytest.fixture(scope="module")
def intrinsic_facts(snippets):
    return kernel(snippets.facts(INTRINSICS), "intrinsics")


@pytest.mark.parametrize("line, variance", INTRINSIC_VARIANCE)
def test_intrinsic_results_vary_as_the_hardware_makes_them(intrinsic_facts, line, variance):
    assert branch_on(intrinsic_facts, line)[1].variance is variance


def test_integer_intrinsics_are_exact_per_lane(intrinsic_facts):
    first, pattern = only(intrinsic_facts, 3, kind="store")
    assert pattern.confidence is Confidence.EXACT and pattern.sectors == 4
    second, _ = only(intrinsic_facts, 4, kind="store")
    assert lanes(intrinsic_facts, second) == [4 * (t >> 2) for t in range(32)]
    _, ffs = branch_on(intrinsic_facts, 19)
    assert ffs.taken_lanes == 4  # Lanes 4, 12, 20, 28: lowest set bit is bit 2.


# ---------------------------------------------------------------------- cooperative groups

BARRIER_FORMS = """
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    __global__ void forms(float* a) {
        cg::thread_block block = cg::this_thread_block();
        cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
        cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(block);
        cg::thread_group dynamic = cg::tiled_partition(block, 32);
        cg::grid_group grid = cg::this_grid();
        if (threadIdx.x % 2) {
            cg::sync(block);
            block.sync();
            cg::this_thread_block().sync();
            block.barrier_wait(block.barrier_arrive());
            grid.sync();
            cg::sync(grid);
            warp.sync();
            cg::sync(warp);
            dynamic.sync();
            __syncthreads();
            __syncwarp();
            asm volatile("bar.sync 0;");
            eighth.sync();
            __syncwarp(0x55555555u);
            cg::coalesced_threads().sync();
        }
        a[threadIdx.x] = 0.0f;
    }
"""
BLOCK_FORMS = {10, 11, 12, 13, 19, 21}
GRID_FORMS = {14, 15}
WARP_FORMS = {16, 17, 18, 20}
PARTIAL_FORMS = {22, 23, 24}


def test_every_barrier_form_is_seen_with_its_scope(snippets):
    # The toolkit's cooperative_groups.h: tests/corpus/dataflow/cooperative_groups.cu.
    result = analyze(snippets.write(BARRIER_FORMS), "embedded", select=["CL302"])
    assert not result.notices, [n.one_line() for n in result.notices]
    assert {f.span.line for f in result.findings} == BLOCK_FORMS | GRID_FORMS | WARP_FORMS
    assert all(f.level.value == "error" for f in result.findings)
    facts = kernel(snippets.facts(BARRIER_FORMS), "forms")
    scopes = {b.expr.span.line: b.scope for b in facts.barriers}
    assert scopes == {
        **{line: BarrierScope.BLOCK for line in BLOCK_FORMS},
        **{line: BarrierScope.GRID for line in GRID_FORMS},
        **{line: BarrierScope.WARP for line in WARP_FORMS},
        **{line: BarrierScope.PARTIAL for line in PARTIAL_FORMS},
    }


RANKS = """
    #include <cooperative_groups.h>
    #include <cooperative_groups/reduce.h>
    namespace cg = cooperative_groups;
    __global__ void ranks(float* a, const float* b) {
        cg::thread_block block = cg::this_thread_block();
        cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
        cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(block);
        cg::thread_group sixteenth = cg::tiled_partition(block, 16);
        float v = b[block.thread_rank()];
        float warp_sum = cg::reduce(warp, v, cg::plus<float>());
        float eighth_sum = cg::reduce(eighth, v, cg::plus<float>());
        if (warp.meta_group_rank() == 1) a[0] = 1.0f;
        if (eighth.meta_group_rank() == 1) a[1] = 1.0f;
        if (warp_sum > 0.0f) a[2] = 1.0f;
        if (eighth_sum > 0.0f) a[3] = 1.0f;
        a[block.group_index().x * block.size() + sixteenth.thread_rank() * 16 + eighth.thread_rank()] = v;
        if (cg::coalesced_threads().thread_rank() == 0) a[4] = 1.0f;
    }
"""


@pytest.fixture(scope="module")
def rank_facts(snippets):
    return kernel(snippets.facts(RANKS), "ranks")


@pytest.mark.parametrize(
    "line, variance",
    [
        (12, Variance.WARP_UNIFORM),
        (13, Variance.THREAD),
        (14, Variance.WARP_UNIFORM),
        (15, Variance.DATA),
        (17, Variance.DATA),
    ],
)
def test_group_ranks_and_reductions(rank_facts, line, variance):
    assert branch_on(rank_facts, line)[1].variance is variance


def test_tile_ranks_are_the_thread_index_modulo_the_tile(rank_facts):
    access, _ = only(rank_facts, 16, kind="store")
    assert lanes(rank_facts, access) == [4 * (3 * 128 + (t % 16) * 16 + t % 8) for t in range(32)]


# ---------------------------------------------------------------------- loops and addresses

LOOPS = """
    struct Box { int offset; int count; };
    __global__ void loops(float* out, const float* x, const Box* boxes, const int* start) {
        int s = 1;
        for (int k = 0; k < 5; ++k) s *= 2;
        out[s * threadIdx.x] = 0.0f;
        int base = boxes[blockIdx.x].offset;
        out[base + threadIdx.x] = x[base + 2 * threadIdx.x];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float sum = 0.0f;
        for (int j = start[i]; j < start[i + 1]; j++) sum += x[j];
        out[i] = sum;
    }
"""


@pytest.fixture(scope="module")
def loop_facts(snippets):
    return kernel(snippets.facts(LOOPS), "loops")


def test_a_counter_after_a_loop_with_a_constant_trip_count_is_exact(loop_facts):
    access, pattern = only(loop_facts, 5, kind="store")
    assert pattern.confidence is Confidence.EXACT and pattern.lane_stride.constant == 128


def test_a_uniform_base_loaded_at_run_time_keeps_the_lane_stride(loop_facts):
    store, stored = only(loop_facts, 7, kind="store")
    load, loaded = only(loop_facts, 7, kind="load")
    assert stored.confidence is Confidence.EXACT and stored.sectors == 4
    assert loaded.confidence is Confidence.EXACT and loaded.sectors == 8
    assert loop_facts.why(load.location.offset) == [
        "boxes[...].offset: read from `boxes` at an address that is the same in every thread of the block"
    ]


def test_ranges_walked_from_a_per_lane_start_are_recognized(loop_facts):
    ((walk, pattern),) = [(a, p) for a, p in accesses_on(loop_facts, 10) if a.location.base == "x"]
    assert pattern.data_pattern is DataPattern.LANE_RANGES
    assert pattern.data_loop.stmt.span.line == 10


# ---------------------------------------------------------------------- element types and provenance

PROVENANCE = """
    #include <cuda_bf16.h>
    __global__ void narrow(const __nv_bfloat16* x, float* y) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        y[i] = (float)x[4 * i + 1];
    }
    __global__ void stepped(const float* src, float* out, const int* rows, int n, int K) {
        int j = blockIdx.x * blockDim.x + threadIdx.x;
        const float* p = src + threadIdx.x;
        for (int k = 0; k < K; k++) {
            out[j] = *p;
            if (k & 1) j += n;
            p += rows[k];
        }
        out[j] = *p;
    }
    template <typename T>
    __device__ void halve(T* s, int t) {
        s[t] += s[t + 16];
    }
    template <typename T>
    __global__ void staged(const T* x, T* y) {
        __shared__ T tile[64];
        tile[threadIdx.x] = x[threadIdx.x];
        halve(tile, threadIdx.x);
        y[threadIdx.x] = tile[threadIdx.x];
    }
    template <typename T>
    __device__ T first(const T* s, int lane) {
        return s[lane];
    }
    template <typename T>
    __device__ T second(const T* s, int lane) {
        return s[lane];
    }
    template <typename T>
    __global__ void rows(const T* x, T* y) {
        __shared__ T tile[256];
        T* row = tile + 64 * (threadIdx.x / 32);
        T* moving = tile;
        moving += 64;
        y[threadIdx.x] = first(row, threadIdx.x % 32) + second(moving, threadIdx.x % 32) + second(x, 0);
    }
"""


@pytest.fixture(scope="module")
def provenance_facts(snippets):
    return snippets.facts(PROVENANCE)


def test_a_narrow_element_converted_to_float_is_a_load_of_the_element(provenance_facts):
    load, pattern = only(kernel(provenance_facts, "narrow"), 4)
    assert load.size == 2 and pattern.lane_stride.constant == 8
    assert (pattern.sectors, pattern.ideal_sectors) == (8, 2)


def test_locals_and_pointers_stepped_by_uniform_amounts_keep_their_lanes(provenance_facts):
    stepped = kernel(provenance_facts, "stepped")
    for line in (10, 14):
        for kind in ("load", "store"):
            _, pattern = only(stepped, line, kind=kind)
            assert pattern.confidence is Confidence.EXACT and pattern.lane_stride.constant == 4, (line, kind)


def test_a_pointer_parameter_bound_to_shared_arrays_at_every_call_is_shared(provenance_facts):
    helper = kernel(provenance_facts, "halve")
    assert {access.space for access, _ in helper.accesses} == {MemorySpace.SHARED}


def test_a_local_pointer_initialized_into_a_shared_array_is_followed_to_it(provenance_facts):
    assert {access.space for access, _ in kernel(provenance_facts, "first").accesses} == {MemorySpace.SHARED}
    # One call passes a global pointer: the parameter is not known to be shared.
    assert {access.space for access, _ in kernel(provenance_facts, "second").accesses} == {MemorySpace.GLOBAL}


FEEDS = """
    __global__ void feeds(const float* a, const int* idx, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        int root = (int)sqrtf((float)i);
        out[i] = a[root];
        out[i] += a[idx[i]];
        int j = i;
        for (int k = 0; k < n; k++) j += idx[j];
        out[i] += a[j];
    }
"""


def test_only_addresses_loaded_data_flows_into_depend_on_loaded_data(snippets):
    facts = kernel(snippets.facts(FEEDS), "feeds")
    computed, gathered, walked = (
        [a for a, _ in accesses_on(facts, line) if a.location.base == "a"][0] for line in (4, 5, 8)
    )
    assert computed.location.offset.variance is Variance.DATA
    assert not facts.fed_by_loads(computed.location.offset)
    assert facts.fed_by_loads(gathered.location.offset)
    assert facts.fed_by_loads(walked.location.offset)
    findings = snippets.findings(FEEDS, ["CL101"])
    assert [f.span.line for f in findings if "data loaded at run time" in f.message] == [5, 7, 8]


RESTORED = """
    __global__ void restored(volatile float4* p, const int* bottom, int n) {
        int k = *bottom + blockIdx.x * blockDim.x + threadIdx.x;
        int restart = k;
        for (int pass = 0; pass < 3; pass++) {
            while (k <= n) {
                if (p[k].w < 0.0f) p[k].w = 1.0f;
                k += blockDim.x * gridDim.x;
            }
            k = restart;
        }
    }
"""


def test_a_variable_every_trip_restores_keeps_its_value_in_the_loop(snippets):
    facts = kernel(snippets.facts(RESTORED), "restored")
    load, pattern = only(facts, 6)
    assert pattern.confidence is Confidence.EXACT and pattern.lane_stride.constant == 16
    findings = snippets.findings(RESTORED, ["CL102"])
    assert [(f.span.line, f.level.value) for f in findings] == [(6, "warning"), (6, "warning")]


def test_fields_of_a_volatile_struct_are_never_merged(snippets):
    source = """
        __global__ void fields(float4* plain, volatile float4* shared_out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            plain[i].x = 1.0f; plain[i].y = 2.0f; plain[i].z = 3.0f; plain[i].w = 4.0f;
            shared_out[i].x = 1.0f; shared_out[i].y = 2.0f; shared_out[i].z = 3.0f; shared_out[i].w = 4.0f;
        }
    """
    findings = snippets.findings(source, ["CL102"])
    assert {f.span.line for f in findings} == {4} and len(findings) == 4
