"""Rule behaviour beyond the corpus: levels, messages, fixes and quiet cases."""

from __future__ import annotations

import pytest

from conftest import CORPUS

BARRIERS = """
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    __global__ void k(float* a) {
        int lane = threadIdx.x & 31;
        if (lane < 16) { a[lane] = 1; __syncwarp(); }
        if (lane < 16) { __syncwarp(0x0000ffff); }
        cg::thread_block block = cg::this_thread_block();
        if (threadIdx.x < 64) block.sync();
        if (threadIdx.x < 64) asm volatile("bar.sync 0;");
        if (threadIdx.x % 2) return;
        __syncthreads();
    }
"""


def test_barrier_levels_and_forms(snippets):
    got = {(f.span.line, f.level.value, f.message.split("`")[1]) for f in snippets.findings(BARRIERS, ["CL302"])}
    assert got == {
        (5, "error", "__syncwarp()"),  # full mask, lanes split
        (8, "warning", "block.sync()"),  # whole warps skip it
        (9, "warning", 'asm volatile("bar.sync 0;")'),
    }  # a partial-mask __syncwarp and a barrier after an early return are fine


def test_padding_fix_for_a_conflicting_tile(snippets):
    source = """
        __global__ void t(const float* in, float* out) {
            __shared__ float tile[32][32];
            tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
            __syncthreads();
            out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
        }
        void go(const float* in, float* out) { t<<<1, dim3(32, 32)>>>(in, out); }
    """
    (finding,) = snippets.findings(source, ["CL201"])
    assert finding.message.startswith("32-way bank conflict") and finding.span.line == 5
    (edit,) = finding.fix.edits
    assert (edit.span.line, edit.span.column, edit.replacement) == (2, 30, "[33]")


@pytest.mark.parametrize(
    "body, expected",
    [
        ("out[i] = a[i * stride];", ("note", "coalesced only when stride == 1")),
        ("for (int j = 0; j < n; ++j) out[i] += a[i * n + j];", ("warning", "for any realistic n")),
        ("out[i] = a[idx[i]];", ("note", "depends on data loaded at run time")),
        ("if (threadIdx.x % 2) out[i] = a[i];", None),  # idle lanes are CL301's business
        ("out[i] = a[i + 1];", None),  # misaligned but contiguous: 5 sectors, not 8
    ],
)
def test_global_access_levels(snippets, body, expected):
    source = f"""
        __global__ void k(const float* a, float* out, const int* idx, int n, int stride) {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            {body}
        }}
    """
    got = [(f.level.value, f.message) for f in snippets.findings(source, ["CL101"]) if f.span.line == 3]
    if expected is None:
        assert got == []
    else:
        ((level, message),) = got
        assert level == expected[0] and expected[1] in message


@pytest.mark.parametrize(
    "condition, body, expected",
    [
        ("threadIdx.x % 2", "out[i] = 1.0f; out[i + 1] = 2.0f;", "warning"),
        ("threadIdx.x == 0", "out[i] = 1.0f; out[i + 1] = 2.0f;", None),  # a single lane's short store: cheap
        ("threadIdx.x == 0", "for (int j = 0; j < n; ++j) out[j] += out[j + 1];", "warning"),
        ("threadIdx.x % 2", "m = out[i];", "warning"),  # a load cannot become a select
        ("threadIdx.x % 2", "m = m * 2.0f + 1.0f;", None),  # register-only: compiled to a select
        ("threadIdx.x / 32 == 1", "out[i] = 1.0f; out[i + 1] = 2.0f;", None),
        ("i < n", "out[i] = 1.0f; out[i + 1] = 2.0f;", None),  # one warp of the grid holds n
        # A block-local index against a run-time limit: a warp of every block holds it.
        ("threadIdx.x < n", "out[i] = sqrtf(out[i]) * 2.0f; out[i + 1] = 2.0f;", "note"),
        ("blockIdx.x == 0", "out[i] = 1.0f; out[i + 1] = 2.0f;", None),
        ("out[i] > 0.5f", "out[i] = sqrtf(out[i]) * 2.0f; out[i + 1] = 2.0f;", "note"),
    ],
)
def test_divergence_levels(snippets, condition, body, expected):
    source = f"""
        __global__ void k(float* out, int n) {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float m = 1.0f;
            if ({condition}) {{ {body} }}
            out[i + 2] = m;
        }}
    """
    got = [f.level.value for f in snippets.findings(source, ["CL301"])]
    assert got == ([expected] if expected else [])


def test_a_doubling_loop_is_judged_over_the_trips_it_runs(corpus_results):
    # `stride < n` runs about log2(n) trips: the split is not averaged over the 32 trips
    # a doubling 32-bit counter allows, most of which never run.
    findings = corpus_results(CORPUS / "divergence" / "size_dependent_splits.cu").findings
    got = [
        (f.level.value, f.message.split(" diverges")[0])
        for f in findings
        if f.code == "CL301" and f.function == "dv_doubling_scan"
    ]
    assert got == [("warning", "if condition `t >= stride`")]


def test_later_warps_are_examined(snippets):
    source = """
        __global__ void k(float* a, const float* b) {
            __shared__ float s[4096];
            if (threadIdx.x >= 32) { a[threadIdx.x * 2] = b[threadIdx.x * 32]; s[threadIdx.x * 32] = 1; }
        }
        void go(float* a, const float* b) { k<<<1, 128>>>(a, b); }
    """
    got = sorted((f.code, f.level.value) for f in snippets.findings(source, ["CL101", "CL201"]))
    assert got == [("CL101", "warning"), ("CL101", "warning"), ("CL201", "warning")]


def test_barriers_after_continue_and_cooperative_groups(snippets):
    source = """
        #include <cooperative_groups.h>
        namespace cg = cooperative_groups;
        __global__ void k(float* a) {
            for (int j = 0; j < 4; ++j) { if (threadIdx.x % 2) continue; __syncthreads(); a[j] = 1; }
            cg::thread_block block = cg::this_thread_block();
            if (block.thread_rank() < 16) block.sync();
            cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
            tile.sync();
        }
    """
    got = sorted((f.span.line, f.level.value) for f in snippets.findings(source, ["CL302"]))
    assert got == [(4, "error"), (6, "error")]


def test_a_dim3_assigned_after_its_declaration_is_not_trusted(snippets):
    source = """
        __global__ void k(float* a) { a[threadIdx.x * 2] = 0; }
        void go(float* a) { dim3 block; block.x = 256; k<<<1, block>>>(a); }
    """
    (finding,) = snippets.findings(source, ["CL101"])
    assert "8 sectors per request" in finding.message


def test_padding_fix_edits_the_right_declaration(snippets):
    source = """
        __global__ void first(float* out) {
            __shared__ float tile[32][32], other[32][32];
            tile[threadIdx.y][threadIdx.x] = 1; other[threadIdx.y][threadIdx.x] = 2;
            __syncthreads();
            out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + other[threadIdx.y][threadIdx.x];
        }
        __global__ void second(float* out) {
            __shared__ float tile[32][64];
            out[threadIdx.x] = tile[threadIdx.x][0];
        }
        void go(float* out) { first<<<1, dim3(32, 32)>>>(out); second<<<1, 32>>>(out); }
    """
    fixes = {f.function: f.fix.edits[0] for f in snippets.findings(source, ["CL201"]) if f.fix}
    assert (fixes["first"].span.line, fixes["first"].span.column, fixes["first"].replacement) == (2, 30, "[33]")
    assert (fixes["second"].span.line, fixes["second"].span.column, fixes["second"].replacement) == (8, 30, "[65]")


def test_bitfields_and_template_members_do_not_break_analysis(snippets):
    source = """
        struct Flags { unsigned a : 3; unsigned b : 5; };
        template <typename T> struct Box { T value; };
        __global__ void k(const Flags* f, float* out) { out[threadIdx.x] = f[threadIdx.x].b; }
        template <typename T> __global__ void t(const Box<T>* in, T* out) { out[threadIdx.x] = in[threadIdx.x].value; }
        template __global__ void t<float>(const Box<float>*, float*);
    """
    assert snippets.findings(source, ["CL101", "CL102"]) == []


def test_divergence_and_barriers_inside_helpers(snippets):
    source = """
        __device__ void stage(float* s, const float* a) {
            if (threadIdx.x < 16) { s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); }
        }
        __device__ float block_sum(float* s, float v) {
            s[threadIdx.x] = v; __syncthreads();
            for (int o = blockDim.x / 2; o > 0; o /= 2) {
                if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
                __syncthreads();
            }
            return s[0];
        }
        __global__ void k(const float* a, float* out) {
            __shared__ float s[512];
            stage(s, a);
            out[blockIdx.x] = block_sum(s, a[threadIdx.x]);
        }
    """
    got = sorted((f.code, f.span.line, f.level.value) for f in snippets.findings(source, ["CL301", "CL302"]))
    assert got == [("CL301", 2, "warning"), ("CL301", 7, "warning"), ("CL302", 2, "error")]


def test_fp64_cause_quotes_the_double_literal(snippets):
    source = """
        __global__ void k(const float* a, float* out) {
            int i = threadIdx.x;
            out[i] = 1 + a[i] * 0.5;
        }
    """
    (finding,) = snippets.findings(source, ["CL401"])
    assert "unsuffixed literal `0.5` is a double" in finding.message and "`1`" not in finding.message


WARP_SHAPES = CORPUS / "access" / "warp_shapes.cu"


@pytest.mark.parametrize(
    "kernel, advice",
    [
        ("ws_rgba_channel_stores", "one `float4` per lane"),
        ("ws_rgb8_channel_loop", "pad each element to 4 channels and store one `uchar4` per lane"),
        ("ws_two_of_four_channels", "put threadIdx.x in the fastest-varying index"),
        ("ws_row_broadcast_4x64", "make blocks at least 32 threads wide"),
    ],
)
def test_uncoalesced_advice_fits_the_cause(kernel, advice, corpus_results):
    messages = [f.message for f in corpus_results(WARP_SHAPES).findings if f.code == "CL101" and f.function == kernel]
    assert messages and all(advice in m for m in messages), messages


def test_padding_is_searched_for_32_banks(corpus_results):
    found = {
        f.span.line: f
        for f in corpus_results(WARP_SHAPES).findings
        if f.code == "CL201" and f.function == "ws_tile16_padded_17"
    }
    store, load = (found[line] for line in sorted(found))
    assert "cannot remove it" in store.message and store.fix is None
    assert "pad the row for 32 banks ([18])" in load.message
    (edit,) = load.fix.edits
    assert edit.replacement == "[18]"


def test_cl101_figures_are_those_of_real_lanes(snippets):
    """Lanes that walk backwards are as far apart as forwards, and a condition on a template
    constant is folded before it reaches a message."""
    source = """
    __global__ void backwards(const float* in, float* out, int n) {
        const int t = blockIdx.x * blockDim.x + threadIdx.x;
        out[t] = in[(n - t) * 256];
    }
    template <bool use_k>
    __global__ void selected(const float* in, float* out, int k_arg) {
        const int t = blockIdx.x * blockDim.x + threadIdx.x;
        out[t] = in[t * (use_k ? k_arg : 0)];
    }
    int main() {
        backwards<<<64, 256>>>(nullptr, nullptr, 1 << 20);
        selected<true><<<64, 256>>>(nullptr, nullptr, 4);
    }
    """
    messages = {f.span.line: f.message for f in snippets.findings(source, ["CL101"])}
    assert "lanes are 1024 bytes apart, each below the one before" in messages[3]
    assert "-1024" not in messages[3]
    assert "lanes are 4*k_arg bytes apart; at the launch in case.cu:12 with k_arg = 4" in messages[8]
    assert "?" not in messages[8].split("`")[2]


def test_cl302_a_barrier_on_each_arm_of_a_warp_uniform_branch_is_a_note_with_its_reason(snippets):
    """Both calls are bar.sync 0 and every warp reaches one once: the kernel runs (measured
    on an H100, though synccheck reports the barriers passed together)."""
    source = """
    __global__ void arms(float* out, const float* a) {
        __shared__ float s[256];
        int t = threadIdx.x;
        if ((t / 32) % 2 == 0) {
            s[t] = a[t];
            __syncthreads();
            out[t] = s[t ^ 32];
        } else {
            s[t] = -a[t];
            __syncthreads();
            out[t] = s[t ^ 32];
        }
    }
    int main() { arms<<<64, 256>>>(nullptr, nullptr); }
    """
    found = snippets.findings(source, ["CL302"])
    assert [(f.span.line, f.level.value) for f in found] == [(6, "note"), (10, "note")]
    assert all("on the other arm" in f.message for f in found)
