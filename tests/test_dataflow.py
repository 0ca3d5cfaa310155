"""Per-thread address functions, warp costs and uniformity, construct by construct."""

from __future__ import annotations

import pytest

from cudalint.dataflow import Confidence, DataPattern, Facts, MemorySpace
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.symbolic import Variance
from cudalint.dataflow.threads import BlockShape, LaneEvaluator


def kernel(facts: Facts, name: str):
    return next(k for k in facts.kernels if k.function.name == name or k.function.display_name == name)


def accesses_on(kernel_facts, line: int, space: MemorySpace | None = None, kind: str | None = None):
    return [
        (a, p)
        for a, p in kernel_facts.accesses
        if a.span.line == line and (space is None or a.space is space) and (kind is None or a.kind.value == kind)
    ]


def only(kernel_facts, line: int, kind: str = "load", space: MemorySpace = MemorySpace.GLOBAL):
    found = accesses_on(kernel_facts, line, space, kind)
    assert len(found) == 1, [(a.span, a.kind, a.space) for a, _ in kernel_facts.accesses]
    return found[0]


# ---------------------------------------------------------------------- symbolic domain


def test_polynomial_arithmetic_normalizes():
    tid = sym.builtin("threadIdx", "x")
    n = sym.parameter("n")
    value = (tid + 1) * n - n
    assert value == tid * n
    assert value.coefficient_of(sym.Atom(sym.AtomKind.THREAD_INDEX, "x")) == n
    assert (tid * 4 + 8).offset == 8
    assert not (tid * n).is_affine and (tid * 4 + n).is_affine


def test_operations_fold_and_follow_c_semantics():
    assert sym.operation("/", sym.Sym.const(-7), sym.Sym.const(2)).constant == -3
    assert sym.operation("%", sym.Sym.const(-7), sym.Sym.const(2)).constant == -1
    assert sym.operation("<<", sym.builtin("threadIdx", "x"), sym.Sym.const(2)) == sym.builtin("threadIdx", "x") * 4
    warp = sym.builtin("threadIdx", "y") * 32
    assert sym.operation("/", warp, sym.Sym.const(32)) == sym.builtin("threadIdx", "y")
    lane = sym.operation("&", sym.builtin("threadIdx", "x"), sym.Sym.const(31))
    assert [v for v in LaneEvaluator(BlockShape(64)).lanes(lane, warp=1)] == list(range(32))


def test_toggles_fold():
    """``x ^ 0`` is ``x``; ``(x ^ a) ^ b`` is ``x ^ (a ^ b)``: a buffer index toggled twice is
    itself again, whatever it held."""
    index = sym.unknown("st", Variance.UNIFORM)
    one = sym.Sym.const(1)
    toggled = sym.operation("^", index, one)
    assert toggled != index and sym.xor_operands(toggled) == (index, 1)
    assert sym.operation("^", toggled, one) == index
    assert sym.operation("^", one, toggled) == index
    assert sym.operation("^", index, sym.Sym.const(0)) == index
    assert sym.xor_operands(sym.operation("^", toggled, sym.Sym.const(2))) == (index, 3)


def test_a_known_side_decides_a_logical_operation():
    """``sizeof(i) == 4 || n <= 32`` is true whatever ``n`` is; ``1 && x`` is the truth of ``x``;
    the 64-bit bit functions act on all 64 bits."""
    n = sym.parameter("n")
    small = sym.operation("<=", n, sym.Sym.const(32))
    one, zero = sym.Sym.const(1), sym.Sym.const(0)
    assert sym.operation("||", one, small) == one and sym.operation("||", small, sym.Sym.const(4)) == one
    assert sym.operation("&&", zero, small) == zero
    assert sym.operation("&&", one, small) == small and sym.operation("||", small, zero) == small
    assert sym.operation("&&", n, one) == sym.operation("!=", n, zero)
    chosen = sym.operation("select", sym.operation("||", one, small), sym.Sym.const(7), n)
    assert chosen.constant == 7
    assert sym.operation("brev64", one).constant == 1 << 63
    assert sym.operation("clz64", one).constant == 63
    assert sym.operation("ffs64", sym.Sym.const(1 << 40)).constant == 41
    assert sym.operation("brev", one).constant == 1 << 31


def test_variance_from_atoms():
    assert sym.parameter("n").variance is Variance.UNIFORM
    assert sym.builtin("threadIdx", "x").variance is Variance.THREAD
    assert sym.unknown("ballot", Variance.WARP_UNIFORM).variance is Variance.WARP_UNIFORM
    assert (sym.builtin("threadIdx", "x") + sym.unknown("load", Variance.DATA)).variance is Variance.DATA


# ---------------------------------------------------------------------- global accesses

GLOBAL = """
    #define IDX(r, c, n) ((r) * (n) + (c))
    struct Particle { float x, y, z; };
    __device__ int twice(int t) { return 2 * t; }
    template <int S> __global__ void strided_t(const float* a, float* b) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        b[i] = a[S * i];
    }
    __global__ void shapes(const float* a, float* b, const float4* v, const Particle* p, const int* idx,
                           int n, int stride, int k) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        b[i] = a[i];
        b[i] = a[2 * i];
        b[i] = a[32 * i];
        b[i] = a[i * stride];
        b[i] = a[blockIdx.x];
        b[i] = a[i / 2];
        b[i] = a[i + 1];
        b[i] = v[i].x;
        b[i] = p[i].y;
        b[i] = a[twice(i)];
        b[i] = a[IDX(blockIdx.y, i, n)];
        b[i] = a[idx[i]];
        for (int j = 0; j < 8; ++j) b[i] += a[i * 8 + j];
        int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        b[i] = a[lane * 32 + warp];
        int r = i; r = r * 4; b[i] = a[r];
        const float* q = a + 64; b[i] = q[i];
        float4 whole = v[i]; b[i] = whole.x;
        if (lane == 0) b[warp] = 1.0f;
    }
    __global__ void grid_stride(const float* a, float* b, int n) {
        for (int g = blockIdx.x * blockDim.x + threadIdx.x; g < n; g += blockDim.x * gridDim.x) b[g] = a[g];
    }
    __global__ void matrix(const float* m, float* out, int n) {
        int col = blockIdx.x * blockDim.x + threadIdx.x;
        int row = blockIdx.y * blockDim.y + threadIdx.y;
        out[row * n + col] = m[col * n + row];
        int z = threadIdx.z + blockIdx.z * blockDim.z;
        out[row * n + col] = m[(z * n + row) * n + col];
    }
    void launch(float* a, float* b) {
        strided_t<1><<<64, 256>>>(a, b);
        strided_t<8><<<64, 256>>>(a, b);
        matrix<<<dim3(8, 8), dim3(32, 8)>>>(a, b, 256);
    }
"""

# (line of the load, lane stride in bytes, sectors per request, ideal sectors, confidence)
GLOBAL_LOADS = [
    (11, "4", 4, 4, Confidence.EXACT),  # a[i]
    (12, "8", 8, 4, Confidence.EXACT),  # a[2*i]: half of each sector is wasted
    (13, "128", 32, 4, Confidence.EXACT),  # a[32*i]: one sector per lane
    (15, "0", 1, 4, Confidence.EXACT),  # a[blockIdx.x]: broadcast, cheaper than the lanes' 128 bytes
    (16, None, 2, 4, Confidence.EXACT),  # a[i/2]: pairs of lanes share a word
    (17, "4", 5, 4, Confidence.EXACT),  # a[i+1]: misaligned, one extra sector
    (18, "16", 16, 4, Confidence.EXACT),  # float4 .x: array of structs
    (19, "12", 12, 4, Confidence.EXACT),  # struct of 3 floats, one field
    (20, "8", 8, 4, Confidence.EXACT),  # index from a __device__ helper
    (21, "4", 4, 4, Confidence.EXACT),  # index built by a macro; blockIdx.y * n only moves the request
    (25, "128", 32, 4, Confidence.EXACT),  # transposed lane/warp decomposition
    (26, "16", 16, 4, Confidence.EXACT),  # reassigned index r = r * 4
    (27, "4", 4, 4, Confidence.EXACT),  # pointer offset by 64 elements (256 bytes: aligned)
    (28, "16", 16, 16, Confidence.EXACT),  # whole float4: 16 contiguous bytes per lane
]


@pytest.fixture(scope="module")
def global_facts(snippets):
    return snippets.facts(GLOBAL)


@pytest.mark.parametrize("line, stride, sectors, ideal, confidence", GLOBAL_LOADS)
def test_global_load_cost(global_facts, line, stride, sectors, ideal, confidence):
    access, pattern = only(kernel(global_facts, "shapes"), line)
    assert (str(pattern.lane_stride) if pattern.lane_stride is not None else None) == stride
    assert (pattern.sectors, pattern.ideal_sectors, pattern.confidence) == (sectors, ideal, confidence)
    assert access.size == 4 or line == 28


def test_per_thread_chunk_in_a_loop(global_facts):
    ((_, pattern),) = [
        (a, p) for a, p in accesses_on(kernel(global_facts, "shapes"), 23, kind="load") if a.location.base == "a"
    ]
    assert (pattern.sectors, pattern.ideal_sectors, str(pattern.lane_stride)) == (32, 4, "32")


def test_runtime_stride_is_symbolic_and_coalesced_only_for_one(global_facts):
    _, pattern = only(kernel(global_facts, "shapes"), 14)
    assert pattern.confidence is Confidence.SYMBOLIC
    assert str(pattern.lane_stride) == "4*stride" and pattern.depends_on == ("stride",)
    assert (pattern.sectors, pattern.best_sectors) == (32, 4)


def test_data_dependent_gather_is_unknown(global_facts):
    index_load, gather = (p for a, p in accesses_on(kernel(global_facts, "shapes"), 22, kind="load"))
    assert index_load.sectors == 4
    assert gather.confidence is Confidence.UNKNOWN and gather.sectors is None and gather.lane_stride is None


def test_single_lane_code_is_recognized(global_facts):
    _, pattern = only(kernel(global_facts, "shapes"), 29, kind="store")
    assert pattern.single_lane


def test_grid_stride_loop_stays_coalesced(global_facts):
    facts = kernel(global_facts, "grid_stride")
    ((_, load),) = accesses_on(facts, 32, kind="load")
    assert (load.sectors, load.ideal_sectors, load.confidence) == (4, 4, Confidence.EXACT)


def test_template_constant_strides_per_instantiation(global_facts):
    unit, eight = (p for a, p in (only(kernel(global_facts, f"strided_t<{s}>"), 6) for s in (1, 8)))
    assert (unit.sectors, eight.sectors) == (4, 32)


def test_two_dimensional_indexing_with_launch_shape(global_facts):
    facts = kernel(global_facts, "matrix")
    assert (facts.shape.x, facts.shape.y, facts.shape.source) == (32, 8, "launch at line 44")
    _, transposed = only(facts, 37)
    _, three_d = only(facts, 39)
    assert transposed.sectors == 32 and str(transposed.lane_stride) == "4*n"
    assert (three_d.best_sectors, three_d.ideal_sectors, three_d.lane_stride.constant) == (4, 4, 4)


# ---------------------------------------------------------------------- shared memory

SHARED = """
    struct Pair { float a, b; };
    __global__ void banks(float* out, int n) {
        __shared__ float s[2048];
        __shared__ float tile[32][32];
        __shared__ float padded[32][33];
        __shared__ double d[256];
        __shared__ char c[256];
        __shared__ Pair pairs[64];
        extern __shared__ float dynamic[];
        int t = threadIdx.x;
        out[t] = s[t];
        out[t] = s[2 * t];
        out[t] = s[32 * t];
        out[t] = s[33 * t];
        out[t] = tile[threadIdx.x][threadIdx.y];
        out[t] = padded[threadIdx.x][threadIdx.y];
        out[t] = d[t];
        out[t] = c[t];
        out[t] = pairs[t].a;
        out[t] = dynamic[4 * t];
        out[t] = s[0];
        for (int stride = 1; stride < 32; stride *= 2) {
            if (t % (2 * stride) == 0) s[2 * stride * t] += s[2 * stride * t + stride];
            __syncthreads();
        }
    }
    void launch(float* out) { banks<<<1, dim3(32, 8)>>>(out, 1); }
"""

# (line, wavefronts per request, conflict degree)
SHARED_LOADS = [
    (11, 1, 1),  # s[t]
    (12, 2, 2),  # s[2t]: 2-way
    (13, 32, 32),  # s[32t]: every lane in bank 0
    (14, 1, 1),  # s[33t]: odd stride, conflict-free
    (15, 32, 32),  # column of a [32][32] tile
    (16, 1, 1),  # column of a padded [32][33] tile
    (17, 2, 1),  # 8-byte contiguous: two half-warp phases, no conflict
    (18, 1, 1),  # 1-byte contiguous
    (19, 2, 2),  # array of 8-byte structs, one field
    (20, 4, 4),  # extern __shared__ with stride 4
    (21, 1, 1),  # broadcast
]


@pytest.fixture(scope="module")
def shared_facts(snippets):
    return kernel(snippets.facts(SHARED), "banks")


@pytest.mark.parametrize("line, wavefronts, degree", SHARED_LOADS)
def test_shared_bank_conflicts(shared_facts, line, wavefronts, degree):
    _, pattern = only(shared_facts, line, space=MemorySpace.SHARED)
    assert (pattern.wavefronts, pattern.conflict_degree) == (wavefronts, degree)


def test_reduction_with_doubling_stride_reports_the_worst_iteration(shared_facts):
    loads = accesses_on(shared_facts, 23, MemorySpace.SHARED, "load")
    assert loads and all(p.confidence is Confidence.SYMBOLIC for _, p in loads)
    # stride 16: lanes 0 and 32k... only lane 0 is active; stride 1: lanes 0,2,4.. hit banks 0,4,8.. (2 words each)
    assert max(p.conflict_degree for _, p in loads) >= 2
    assert all(p.depends_on == ("the loop at line 22",) for _, p in loads)


# ---------------------------------------------------------------------- uniformity

BRANCHES = """
    __global__ void branches(const float* a, float* b, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (threadIdx.x % 2) b[i] = 1;
        if (threadIdx.x < 16) b[i] = 2;
        if (threadIdx.x / 32 == 1) b[i] = 3;
        if ((threadIdx.x >> 5) & 1) b[i] = 4;
        if (blockIdx.x == 0) b[i] = 5;
        if (n > 4) b[i] = 6;
        if (a[i] > 0.0f) b[i] = 7;
        if (__ballot_sync(0xffffffff, a[i] > 0.0f)) b[i] = 8;
        if (__shfl_sync(0xffffffff, i, 0) > 3) b[i] = 9;
        if (i < n) b[i] = 10;
        int j = threadIdx.x % 2 ? 1 : 0;
        if (j) b[i] = 11;
        if (threadIdx.y % 2) b[i] = 12;
    }
    __global__ void __launch_bounds__(256) wide(float* b) {
        if (threadIdx.x < 128) b[threadIdx.x] = 1;
    }
"""

EXPECTED_VARIANCE = [
    (3, Variance.THREAD),
    (4, Variance.THREAD),
    (5, Variance.WARP_UNIFORM),
    (6, Variance.WARP_UNIFORM),
    (7, Variance.UNIFORM),
    (8, Variance.UNIFORM),
    (9, Variance.DATA),
    (10, Variance.WARP_UNIFORM),
    (11, Variance.WARP_UNIFORM),
    (12, Variance.THREAD),
    (14, Variance.THREAD),
    (15, Variance.WARP_UNIFORM),
]


@pytest.fixture(scope="module")
def branch_facts(snippets):
    return snippets.facts(BRANCHES)


@pytest.mark.parametrize("line, variance", EXPECTED_VARIANCE)
def test_branch_variance(branch_facts, line, variance):
    facts = kernel(branch_facts, "branches")
    (pattern,) = [p for b, p in facts.branches if b.stmt.span.line == line]
    assert pattern.variance is variance


def test_bounds_guard_is_recognized(branch_facts):
    facts = kernel(branch_facts, "branches")
    guards = {b.stmt.span.line: p.bounds_guard for b, p in facts.branches}
    assert guards[12] and not guards[4]


def test_block_shape_decides_threadidx_y(snippets):
    source = BRANCHES + "void go(const float* a, float* b) { branches<<<1, dim3(16, 16)>>>(a, b, 1); }\n"
    facts = kernel(snippets.facts(source), "branches")
    (pattern,) = [p for b, p in facts.branches if b.stmt.span.line == 15]
    assert pattern.variance is Variance.THREAD


def test_launch_bounds_give_a_one_dimensional_shape(branch_facts):
    facts = kernel(branch_facts, "wide")
    assert (facts.shape.x, facts.shape.source) == (256, "__launch_bounds__(256)")
    (pattern,) = [p for _, p in facts.branches]
    assert pattern.variance is Variance.WARP_UNIFORM  # threadIdx.x < 128 splits no warp of 32


# ---------------------------------------------------------------------- pointers and references

POINTERS = """
    __global__ void pointers(float* out, const float* in, float (*rows)[64], int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        const float& ref = in[2 * i];
        out[i] = ref;
        const float* p = in + i;
        p++;
        out[i] = *p;
        out[i] = rows[threadIdx.x][blockIdx.x];
        out[i] = rows[blockIdx.x][threadIdx.x];
        int j = threadIdx.x % 2 ? i : 32 * i;
        out[i] = in[j];
        int k = 0;
        if (threadIdx.x < 8) k = i; else k = 2 * i;
        out[i] = in[k];
    }
"""


@pytest.fixture(scope="module")
def pointer_facts(snippets):
    return kernel(snippets.facts(POINTERS), "pointers")


def test_reference_bound_to_memory_is_a_load(pointer_facts):
    _, pattern = only(pointer_facts, 4)
    assert (pattern.sectors, str(pattern.lane_stride)) == (8, "8")


def test_pointer_increment_and_dereference(pointer_facts):
    access, pattern = only(pointer_facts, 7)
    assert access.location.base == "in" and access.location.offset.offset == 4
    assert (pattern.sectors, pattern.ideal_sectors) == (5, 4)


def test_pointer_to_array_parameter_rows(pointer_facts):
    (_, column), (_, row) = only(pointer_facts, 8), only(pointer_facts, 9)
    assert str(column.lane_stride) == "256" and column.sectors == 32
    assert str(row.lane_stride) == "4" and row.sectors == 4


def test_values_chosen_by_thread_varying_conditions_stay_exact(pointer_facts):
    _, ternary = only(pointer_facts, 11)
    _, branches = only(pointer_facts, 14)
    assert ternary.confidence is Confidence.EXACT and ternary.sectors == 20
    assert branches.confidence is Confidence.EXACT and branches.sectors == 7  # 1 sector + 6 for lanes 8..31


def test_guards_mixing_a_lane_test_and_a_parameter_narrow_the_lanes(snippets):
    source = """
        __global__ void halo(float* t, int n) {
            int x = blockIdx.x * blockDim.x + threadIdx.x;
            if (threadIdx.x == 31 && x < n - 1) t[x * 32] = 1;
        }
    """
    ((access, pattern),) = kernel(snippets.facts(source), "halo").accesses
    assert pattern.single_lane and pattern.sectors == 1


# ---------------------------------------------------------------------- compile-time values

COMPILE_TIME = """
#include <type_traits>
template <bool wide>
__global__ void flagged(float* out) {
    if constexpr (wide) out[threadIdx.x] = 1.0f;
}
__global__ void lambda_calls(const float* x, float* out) {
    float v[8];
    for (int i = 0; i < 8; ++i) v[i] = x[i * 32 + threadIdx.x];
    auto store = [&](auto column) {
        constexpr int j = decltype(column)::value;
        out[j * 32 + threadIdx.x] = v[(j + 1) % 8];
    };
    store(std::integral_constant<int, 3>{});
    store(std::integral_constant<int, 7>{});
    auto load = [&](const float* p, int k) { return p[k * 32 + threadIdx.x]; };
    out[threadIdx.x] += load(x, 5);
}
template <int cols>
__global__ void by_pointer(const float* x, float* out) { out[threadIdx.x] = x[cols * 32 + threadIdx.x]; }
typedef void (*kernel_t)(const float*, float*);
static void launch(kernel_t k) { k<<<1, 32>>>(nullptr, nullptr); }
int main() {
    flagged<true><<<1, 32>>>(nullptr);
    flagged<false><<<1, 32>>>(nullptr);
    lambda_calls<<<1, 32>>>(nullptr, nullptr);
    launch(by_pointer<4>);
}
"""


@pytest.fixture(scope="module")
def compile_time_facts(snippets):
    return snippets.facts(COMPILE_TIME)


def test_bool_template_arguments_and_if_constexpr(compile_time_facts):
    labels = {k.label for k in compile_time_facts.kernels}
    assert {"flagged<1>", "flagged<0>"} <= labels
    # `true` is 1 (libclang reads a bool argument sign-extended, as -1), and `if constexpr (wide)`
    # reads the substituted argument's value.
    assert [p.taken_lanes for _, p in kernel(compile_time_facts, "flagged<1>").branches] == [32]
    assert [p.taken_lanes for _, p in kernel(compile_time_facts, "flagged<0>").branches] == [0]


def test_lambda_calls_are_inlined_with_their_constant_arguments(compile_time_facts):
    facts = kernel(compile_time_facts, "lambda_calls")
    stores = sorted(str(a.location.offset) for a, _ in accesses_on(facts, 11, MemorySpace.GLOBAL, "store"))
    assert stores == ["384 + 4*threadIdx.x", "896 + 4*threadIdx.x"]
    reads = sorted(a.location.offset.constant for a, _ in accesses_on(facts, 11, MemorySpace.LOCAL, "load"))
    assert reads == [0, 16]  # v[(3 + 1) % 8] and v[(7 + 1) % 8]
    # A lambda's arguments are its own, not the closure object: p is x.
    (access, _) = only(facts, 15)
    assert access.location.base == "x" and str(access.location.offset) == "640 + 4*threadIdx.x"
    # The lambdas run inside the kernel, not as entry points of their own.
    assert not [k for k in compile_time_facts.kernels if k.function.name.startswith("lambda@")]


def test_kernel_template_named_without_a_call_is_instantiated(compile_time_facts):
    facts = kernel(compile_time_facts, "by_pointer<4>")
    (access, _) = only(facts, 19)
    assert str(access.location.offset) == "512 + 4*threadIdx.x"
    assert not [k for k in compile_time_facts.kernels if k.function.is_template_pattern]


TEMPLATE_PATTERN = """
template <int n>
struct tile { static constexpr int ne = n * 2; };
template <int cols, typename T>
__global__ void pattern(const float* x, float* out) {
    float pair[2];
    float sums[4];
#pragma unroll
    for (int l = 0; l < tile<cols>::ne; ++l) {
        pair[l % 2] = x[l * 32 + threadIdx.x];
        out[l * 32 + threadIdx.x] = pair[(l + 1) % 2];
    }
    for (int l = 0; l < cols; ++l) sums[l % 4] = x[l * 32 + threadIdx.x];
    for (int l = 0; l < 4; ++l) out[l] = sums[3 - l];
}
"""


def test_template_constant_trip_counts(snippets):
    """A pattern no instantiation here reaches: its loops' trip counts are constants of each
    instantiation. `#pragma unroll` unrolls them fully; unasked, each instantiation decides."""
    from cudalint.dataflow.local_arrays import Placement
    from cudalint.dataflow.unrolling import UnrollReason

    facts = kernel(snippets.facts(TEMPLATE_PATTERN), "pattern")
    model = facts.unroll_model
    verdicts = {run.stmt.span.line: model.verdict(run) for run in model.loops.values()}
    assert verdicts[8] is UnrollReason.UNROLLED and verdicts[12] is UnrollReason.TEMPLATE_TRIPS
    arrays = {a.var.name: a for a in facts.local_arrays}
    assert not arrays["pair"].dynamic
    assert arrays["sums"].placement is Placement.UNDECIDED and not arrays["sums"].in_local_memory


ASSERTIONS = """
#include <cassert>
[[noreturn]] __device__ void fail(const char* what);
#define CHECK(x) if (!(x)) fail(#x)
__global__ void asserted(const float* in, float* out, int stride, int n) {
    assert(stride == 1);
    out[threadIdx.x] = in[threadIdx.x * stride];
}
__global__ void checked(const float* in, float* out, int stride, int n) {
    CHECK(n > 0 && 1 == stride);
    out[threadIdx.x] = in[threadIdx.x * stride];
}
__global__ void only_guarded(const float* in, float* out, int stride, int n) {
    if (stride == 1) out[threadIdx.x] = 0.0f;
    out[threadIdx.x] = in[threadIdx.x * stride];
}
"""


@pytest.mark.parametrize("name, line", [("asserted", 6), ("checked", 10)])
def test_assertions_fix_the_values_after_them(snippets, name, line):
    """`assert(stride == 1)`, and a project macro that calls a `[[noreturn]]` function when
    its check fails: on the paths after them, stride is 1."""
    access, pattern = only(kernel(snippets.facts(ASSERTIONS), name), line)
    assert str(access.location.offset) == "4*threadIdx.x" and pattern.sectors == 4


def test_a_branch_on_a_value_is_no_assertion(snippets):
    access, _ = only(kernel(snippets.facts(ASSERTIONS), "only_guarded"), 14)
    assert "stride" in str(access.location.offset)


UNIFORM_THROUGH_SHARED = """
__global__ void flags(const float* x, float* out) {
    __shared__ int partial[32];
    const int lane = threadIdx.x % 32;
    int flag = x[threadIdx.x] > 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) flag |= __shfl_xor_sync(0xffffffff, flag, offset);
    if (flag) out[threadIdx.x] = 1.0f;
    if (lane == 0) partial[threadIdx.x / 32] = flag;
    __syncthreads();
    flag = lane < blockDim.x / 32 ? partial[lane] : 0;
    for (int offset = 1; offset < 32; offset *= 2) flag = max(flag, __shfl_xor_sync(0xffffffff, flag, offset));
    if (flag) out[threadIdx.x] = 2.0f;
    int mine = partial[threadIdx.x / 32];
    if (__reduce_or_sync(0xffffffff, mine)) out[threadIdx.x] = 3.0f;
    if (__reduce_or_sync(0xffffffff, partial[lane])) out[threadIdx.x] = 4.0f;
}
int main() { flags<<<1, 256>>>(nullptr, nullptr); }
"""


def test_full_warp_reductions_are_warp_uniform_and_block_uniform_when_every_warp_reduces_alike(snippets):
    facts = kernel(snippets.facts(UNIFORM_THROUGH_SHARED), "flags")
    by_line = {branch.stmt.span.line: pattern for branch, pattern in facts.branches}
    # A butterfly over a thread's own data: the same across each warp, not across the block.
    assert by_line[6].variance is Variance.WARP_UNIFORM and not by_line[6].block_uniform
    # Per-warp results read back lane by lane after the barrier, then reduced again: the block's.
    assert by_line[11].variance is Variance.UNIFORM and by_line[11].block_uniform
    # Each warp reduces its own warp's entry: warp-uniform only.
    assert by_line[13].variance is Variance.WARP_UNIFORM
    assert by_line[14].variance is Variance.UNIFORM


BOTH_ARMS = """
__global__ void arms(float* out) {
    __shared__ float s[256];
    if ((threadIdx.x / 32) % 2 == 0) {
        s[threadIdx.x] = 1.0f;
        __syncthreads();
        out[threadIdx.x] = s[threadIdx.x ^ 32];
    } else {
        __syncthreads();
        out[threadIdx.x] = s[threadIdx.x ^ 32];
    }
    if ((threadIdx.x / 32) % 2 == 0) {
        __syncthreads();
    } else {
        for (int k = 0; k < 2; ++k) __syncthreads();
    }
}
int main() { arms<<<1, 256>>>(nullptr); }
"""


def test_a_barrier_on_each_arm(snippets):
    facts = kernel(snippets.facts(BOTH_ARMS), "arms")
    barriers = {b.expr.span.line: b for b in facts.barriers}
    first, second = (facts.barrier_decisions(barriers[line])[-1] for line in (5, 12))
    assert facts.other_arm_barrier(barriers[5], first) is barriers[8]
    assert facts.other_arm_barrier(barriers[8], first) is barriers[5]
    # The else arm reaches its barrier in a loop, twice: no match.
    assert facts.other_arm_barrier(barriers[12], second) is None


def test_parameter_fields_read_through_a_helper_are_one_value(snippets):
    source = """
    struct divisor { unsigned mul; unsigned shift; unsigned d; };
    __device__ unsigned quotient(unsigned n, const divisor v) { return (__umulhi(n, v.mul) + n) >> v.shift; }
    __global__ void rows(const float* in, float* out, const divisor w) {
        const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        const unsigned y = quotient(i, w);
        out[y * w.d + (i - y * w.d)] = in[i];
    }
    """
    access, pattern = only(kernel(snippets.facts(source), "rows"), 6, "store")
    assert str(access.location.offset) == "4*blockDim.x*blockIdx.x + 4*threadIdx.x" and pattern.sectors == 4


def test_runtime_divisors_of_a_flat_index_are_row_lengths(snippets):
    source = """
    __global__ void pitched(const float* in, float* out, int W, int ld, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[(i / W) * ld + i % W] = in[i];
    }
    """
    facts = kernel(snippets.facts(source), "pitched")
    access, _ = only(facts, 3, "store")
    assert "W" in facts.size_parameters_of(access)


def test_a_select_on_a_constant_is_its_arm():
    k = sym.parameter("k_arg")
    assert sym.operation("select", sym.Sym.const(1), k, sym.ZERO) == k
    assert sym.operation("select", sym.ZERO, k, sym.Sym.const(3)) == sym.Sym.const(3)


def test_two_lambdas_of_a_template_instantiation_stay_apart(snippets):
    source = """
    template <int N>
    __global__ void two(const float* x, float* out) {
        auto first = [&](int k) { out[k * 32 + threadIdx.x] = x[threadIdx.x]; };
        auto second = [&](int k) { out[k * 64 + threadIdx.x] = x[threadIdx.x * N]; };
        first(1);
        second(1);
    }
    int main() { two<2><<<1, 32>>>(nullptr, nullptr); }
    """
    facts = kernel(snippets.facts(source), "two<2>")
    stores = sorted(str(a.location.offset) for a, _ in facts.accesses if a.kind.value == "store")
    assert stores == ["128 + 4*threadIdx.x", "256 + 4*threadIdx.x"]


def test_a_decrement_under_a_data_condition_is_a_select(snippets):
    source = """
    __device__ int bin_of(float v, int nbins) {
        int bin = (int)(v * nbins);
        if (bin == nbins) bin--;
        return bin;
    }
    __global__ void bins(const float* x, int* out, int nbins) {
        out[threadIdx.x] = bin_of(x[threadIdx.x], nbins);
    }
    """
    facts = kernel(snippets.facts(source), "bins")
    (pattern,) = [p for b, p in facts.branches if b.stmt.span.line == 3]
    assert pattern.idiom is not None and pattern.idiom.name == "SELECT"


# ---------------------------------------------------------------------- stores sunk out of a branch

SUNK = """
__global__ void ends(float* out, const float* in, int rows) {
    int at = threadIdx.y * 64 + threadIdx.x;
    if (threadIdx.y == 0) out[at] = in[at];
    else if (threadIdx.y == rows - 1) out[at] = 2.0f * in[at];
    else out[at] = 0.0f;
}
__global__ void one_arm(float* out, const float* in) {
    int at = threadIdx.y * 64 + threadIdx.x;
    if (threadIdx.y == 0) out[at] = in[at];
    else out[at + 1] = 0.0f;
}
void run(float* out, const float* in) {
    ends<<<1, dim3(2, 64)>>>(out, in, 64);
    one_arm<<<1, dim3(2, 64)>>>(out, in);
}
"""


@pytest.fixture(scope="module")
def sunk_facts(snippets):
    return snippets.facts(SUNK)


def test_stores_of_every_arm_to_one_address_are_costed_with_the_whole_branch(sunk_facts):
    ends = kernel(sunk_facts, "ends")
    stores = [(a, p) for a, p in ends.accesses if a.kind.value == "store"]
    assert len(stores) == 3
    for access, pattern in stores:
        # 16 rows of 2 threads: every lane of the warp runs the merged store.
        assert (pattern.active_lanes, pattern.sectors, pattern.ideal_sectors) == (32, 16, 4)
        assert set(pattern.sunk_with) == {a.span.line for a, _ in stores} - {access.span.line}


def test_a_store_without_a_partner_in_the_other_arm_keeps_its_lanes(sunk_facts):
    one_arm = kernel(sunk_facts, "one_arm")
    stores = [p for a, p in one_arm.accesses if a.kind.value == "store"]
    # Different addresses: each store stays under its arm (the first row's 2 lanes, the others' 30).
    assert sorted((p.active_lanes, p.sectors, p.sunk_with) for p in stores) == [(2, 1, ()), (30, 15, ())]


# ---------------------------------------------------------------------- outputs and pointers picked per block or lane

PICKED = """
__global__ void ping_pong(float* a, float* b, const int* flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* target = flags[blockIdx.x] ? a : b;
    target[2 * i] = 1.0f;
}
__global__ void per_lane_pick(float* a, float* b, const int* flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* target = flags[i] ? a : b;
    target[2 * i] = 1.0f;
}
__global__ void partition(const float* keys, const int* starts, float* out) {
    int from = starts[threadIdx.x];
    for (int i = threadIdx.x; i < 4096; i += 128) {
        float key = keys[i];
        if (key < 0.5f) out[from++] = key;
    }
}
"""


@pytest.fixture(scope="module")
def picked_facts(snippets):
    return snippets.facts(PICKED)


def test_a_pointer_picked_per_block_is_costed_in_either_allocation(picked_facts):
    (access, pattern), *_ = [(a, p) for a, p in kernel(picked_facts, "ping_pong").accesses if a.kind.value == "store"]
    assert access.location.base == "a|b"
    assert (pattern.confidence, pattern.sectors, pattern.ideal_sectors) == (Confidence.EXACT, 8, 4)


def test_a_pointer_picked_per_lane_is_not_one_allocation(picked_facts):
    stores = [a for a, _ in kernel(picked_facts, "per_lane_pick").accesses if a.kind.value == "store"]
    assert all("|" not in a.location.base for a in stores)


def test_an_output_filled_from_a_loaded_start_one_kept_element_per_trip_is_a_lane_range(picked_facts):
    (_, pattern), *_ = [(a, p) for a, p in kernel(picked_facts, "partition").accesses if a.kind.value == "store"]
    assert pattern.data_pattern is DataPattern.LANE_RANGES


# ---------------------------------------------------------------------- warps that take different paths

HALO = """
__global__ void halo(const float* in, float* out, int width, int height) {
    __shared__ float tile[10][34];
    int t = threadIdx.x + threadIdx.y * 32;
    int hx, hy;
    if (threadIdx.y < 2) {
        hx = threadIdx.x;
        hy = threadIdx.y * 9 - 1;
    } else {
        hx = (t % 2) * 33 - 1;
        hy = t / 2 - 33;
    }
    int x = blockIdx.x * 32 + hx;
    int y = blockIdx.y * 8 + hy;
    bool inside = t < 84 && x >= 0 && x < width && y >= 0 && y < height;
    if (inside) tile[hy + 1][hx + 1] = in[y * width + x];
    for (int k = 0; k < height; ++k) {
        if (inside) {
            y += 1;
            out[y * width + x] = tile[hy + 1][hx + 1];
        }
    }
}
void run(const float* in, float* out) { halo<<<dim3(16, 64), dim3(32, 8)>>>(in, out, 512, 512); }
"""


@pytest.fixture(scope="module")
def halo_facts(snippets):
    return kernel(snippets.facts(HALO), "halo")


def test_the_warps_of_a_block_are_summed_where_their_paths_differ(halo_facts):
    (_, pattern), *_ = [
        (a, p) for a, p in halo_facts.accesses if a.space is MemorySpace.GLOBAL and a.kind.value == "load"
    ]
    # Warp 0 alone: a halo row of 32 floats (4 sectors). Lanes 84 and up are out of the
    # select's `t < 84` side whatever width is, so three warps run it; the third holds the
    # halo columns, a sector per lane. The grid is known: the block's figures are the
    # average over the launch's edge and inner blocks (28 sectors in an inner block).
    assert (pattern.sectors, pattern.ideal_sectors) == (4, 4)
    assert pattern.block is not None
    assert (pattern.block.warps, pattern.block.worst_warp, pattern.block.worst_warp_ideal) == (3, 2, 3)
    assert (pattern.block.worst_warp_sectors, pattern.block.sectors, pattern.block.ideal_sectors) == (20, 27, 11)


def test_a_variable_stepped_under_a_condition_no_trip_changes_keeps_its_closed_form(halo_facts):
    (store, pattern), *_ = [
        (a, p) for a, p in halo_facts.accesses if a.kind.value == "store" and a.space is MemorySpace.GLOBAL
    ]
    # `y += 1` under `inside`, fixed before the loop: y0 + (inside ? 1 : 0) * k, not an unknown.
    assert store.location.offset.variance is not Variance.DATA
    assert pattern.block is not None and pattern.block.warps == 3


PAIRS = """
__global__ void pairs(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        out[2 * i] = 0.0f;
        out[2 * i + 1] = in[i];
    } else {
        out[2 * i] = in[i - 1];
        out[2 * i + 1] = in[i];
    }
}
void run(float* out, const float* in) { pairs<<<64, 128>>>(out, in); }
"""


def test_only_the_store_that_ends_each_arm_is_sunk(snippets):
    pairs = kernel(snippets.facts(PAIRS), "pairs")
    stores = sorted((a.span.line, p) for a, p in pairs.accesses if a.kind.value == "store")
    # out[2*i + 1] ends both arms: one store of every lane; out[2*i] stays in each arm.
    assert [(p.active_lanes, bool(p.sunk_with)) for _, p in stores] == [(1, False), (32, True), (31, False), (32, True)]


INSTRUCTION_LINES = """
struct S { float a, b; };
__global__ void lines(float4* C, S* D, float* E, const float* A, int N) {
    int t = threadIdx.x;
    float x = A[t
                * 2];
    float y = D[t]
        .b;
    *(E
      + t) = x + y;
    float4 v = make_float4(x, y, 0.0f, 1.0f);
    C[t + 64] =
        v;
    C[t + 128] =
        make_float4(x, y, 2.0f, 3.0f);
}
"""


def test_an_access_over_several_lines_is_counted_where_nvcc_counts_it(snippets):
    # The lines `nvdisasm -gi` gives each instruction of this kernel (nvcc -O3 -lineinfo):
    # a subscript's closing `]`, a `.field`'s element, the end of `*`'s operand; a vector
    # stored from a variable on the variable's line, one built by a call on its address's.
    accesses = kernel(snippets.facts(INSTRUCTION_LINES), "lines").accesses
    got = sorted(
        (access.span.line, access.kind.value, access.instruction_line)
        for access, _ in accesses
        if access.space is MemorySpace.GLOBAL
    )
    assert got == [(4, "load", 5), (6, "load", 6), (8, "store", 9), (11, "store", 12), (13, "store", 13)]
