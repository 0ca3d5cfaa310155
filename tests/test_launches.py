"""The launch index: launches evaluated in their host code, and kernels judged with them
wherever the launch is written."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from cudalint import engine
from cudalint.config import Config
from cudalint.dataflow.launches import launch_records
from cudalint.dataflow.shapes import configurations
from cudalint.ir import FunctionKind
from cudalint.launches import LaunchIndex, LaunchRecord, digest
from cudalint.rules import implemented

CORPUS = Path(__file__).parent / "corpus" / "launches"

KERNEL = """\
__global__ void k(float* out, const float* in, int stride, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * stride];
}
"""


def _records(snippets, host: str) -> list[tuple]:
    tu = snippets.unit(KERNEL + host)
    return [(r.kernel_name, r.grid, r.block, r.shared_bytes, r.arguments) for r in launch_records(tu)]


def test_constants_macros_enumerators_sizeof_and_arithmetic(snippets):
    found = _records(
        snippets,
        """
        #define N 4096
        constexpr int C = 768, NH = 12;
        enum { kThreads = 128 };
        void run(float* out, const float* in) {
            k<<<N / kThreads, kThreads, 4 * sizeof(float)>>>(out, in, C / NH, N);
        }
        """,
    )
    assert found == [("k", (32, 1, 1), (128, 1, 1), 16, (None, None, 64, 4096))]


def test_a_grid_rounded_up_from_a_floating_point_quotient(snippets):
    found = _records(
        snippets,
        """
        #include <math.h>
        #define M 500
        #define X 256
        void run(float* out, const float* in) {
            dim3 grid((size_t)(ceil(((float)M) / ((float)X))), (size_t)floor(M / 256.0));
            k<<<grid, X>>>(out, in, 1, (int)ceilf(M / 3.0f));
        }
        """,
    )
    # 500 / 256 rounds up to 2 (not the 1 of an integer division) and down to 1.
    assert found == [("k", (2, 1, 1), (256, 1, 1), 0, (None, None, 1, 167))]


def test_dim3_variables_with_members_assigned(snippets):
    found = _records(
        snippets,
        """
        void run(float* out, const float* in) {
            dim3 block;
            block.x = 16;
            block.y = 8;
            const int tiles = 64;
            dim3 grid(tiles, tiles / 2);
            k<<<grid, block>>>(out, in, 1, tiles);
        }
        """,
    )
    assert found == [("k", (64, 32, 1), (16, 8, 1), 0, (None, None, 1, 64))]


def test_a_block_axis_read_at_run_time_leaves_the_others_known(snippets):
    found = _records(
        snippets,
        """
        #include <cstdlib>
        int main(int argc, char** argv) {
            float *out, *in;
            int rows = atoi(argv[1]);
            dim3 column;
            column.x = 1;
            column.y = rows;
            k<<<64, column>>>(out, in, 1, 64);
            k<<<64, dim3(32, rows)>>>(out, in, 1, 64);
            k<<<64, rows>>>(out, in, 1, 64);
            return 0;
        }
        """,
    )
    assert [f[2] for f in found] == [(1, None, 1), (32, None, 1), (None, 1, 1)]


def test_a_block_one_thread_wide_makes_warps_walk_rows_whatever_its_height(snippets):
    """blockDim.x = 1 with blockDim.y from the command line: a warp's 32 lanes are 32 rows
    (the open axis is taken so that the block keeps the assumed 128 threads), and a width
    left open leaves the whole shape assumed."""
    source = """
        #include <cstdlib>
        __global__ void column(unsigned char* out, const unsigned char* in, int width) {
            int x = blockIdx.x * blockDim.x + threadIdx.x;
            int y = blockIdx.y * blockDim.y + threadIdx.y;
            out[y * width + x] = in[y * width + x];
        }
        int main(int argc, char** argv) {
            unsigned char *out, *in;
            int rows = atoi(argv[1]);
            column<<<dim3(1024, 1024 / rows), dim3(1, rows)>>>(out, in, 1024);
            column<<<64, dim3(atoi(argv[2]), 4)>>>(out, in, 1024);
            return 0;
        }
    """
    tu = snippets.unit(source)
    kernel = next(f for f in tu.functions if f.name == "column" and f.kind is FunctionKind.KERNEL)
    shapes = [
        (c.shape.x, c.shape.y, c.shape.z, c.shape.taken, c.shape.assumed)
        for c in configurations(kernel, launch_records(tu))
    ]
    assert shapes == [(1, 128, 1, "blockDim.y = 128", False), (128, 1, 1, "", True)]
    messages = [f.message for f in snippets.findings(source, select=["CL101"]) if f.level.value == "warning"]
    assert len(messages) == 2, messages
    for message in messages:
        assert "a warp spans 32 rows of 1 thread" in message
        assert "blockDim.y, open at the launch, taken as 128" in message


def test_a_loop_over_constant_values_gives_one_launch_each(snippets):
    found = _records(
        snippets,
        """
        void run(float* out, const float* in) {
            int stride = 1;
            k<<<1, 32>>>(out, in, stride, 32);
            stride = 512;
            for (int s = 2; s <= 32; s *= 4) k<<<1, 32>>>(out, in, s, 32);
        }
        """,
    )
    assert [f[4][2] for f in found] == [1, 512, 2, 8, 32]


def test_values_read_at_run_time_stay_unknown(snippets):
    found = _records(
        snippets,
        """
        #include <cstdio>
        #include <cstdlib>
        int main(int argc, char** argv) {
            float *out, *in;
            int n;
            scanf("%d", &n);
            int stride = atoi(argv[1]);
            int counted = 1;
            counted++;
            k<<<1, 32>>>(out, in, stride, n);
            k<<<1, 32>>>(out, in, counted, argc);
            return 0;
        }
        """,
    )
    assert [f[4][2:] for f in found] == [(None, None), (None, None)]


def test_each_call_of_a_wrapper_is_its_own_launch(snippets):
    found = _records(
        snippets,
        """
        __global__ void other(float* out, const float* in, int stride, int n) { out[0] = in[stride * n]; }
        template <typename... Args>
        void launch(void (*kernel)(Args...), dim3 grid, dim3 block, Args... args) {
            kernel<<<grid, block>>>(args...);
        }
        static void run_k(float* out, const float* in, int threads, int stride) {
            launch(k, dim3(64), dim3(threads), out, in, stride, 4096);
        }
        int main() {
            float* out;
            const float* in;
            run_k(out, in, 256, 8);
            launch(other, dim3(1), dim3(32, 4), out, in, 2, 16);
            return 0;
        }
        """,
    )
    assert sorted(found) == [
        ("k", (64, 1, 1), (256, 1, 1), 0, (None, None, 8, 4096)),
        ("other", (1, 1, 1), (32, 4, 1), 0, (None, None, 2, 16)),
    ]


def test_runtime_launch_calls(snippets):
    found = _records(
        snippets,
        """
        void run(float* out, const float* in) {
            int stride = 4, n = 1024;
            void* args[] = {&out, &in, &stride, &n};
            cudaLaunchKernel((void*)k, dim3(8), dim3(128), args, 0, 0);
            cudaLaunchConfig_t config = {};
            config.gridDim = dim3(4);
            config.blockDim = dim3(32, 2);
            config.dynamicSmemBytes = 256;
            cudaLaunchKernelEx(&config, k, out, in, 2, 64);
        }
        """,
    )
    assert found == [
        ("k", (8, 1, 1), (128, 1, 1), 0, (None, None, 4, 1024)),
        ("k", (4, 1, 1), (32, 2, 1), 256, (None, None, 2, 64)),
    ]


def test_a_kernel_is_judged_once_per_configuration_naming_the_launch(snippets):
    facts = snippets.facts(
        KERNEL
        + """
        void run(float* out, const float* in) {
            for (int s = 1; s <= 4; s *= 2) k<<<32, 128>>>(out, in, s, 4096);
        }
        """
    )
    kernels = facts.kernels
    assert [dict(kernel.bindings) for kernel in kernels] == [
        {"stride": 1, "n": 4096},
        {"stride": 2, "n": 4096},
        {"stride": 4, "n": 4096},
    ]
    load = next(a for a, _ in kernels[2].accesses if a.kind.value == "load")
    assert kernels[2].pattern_with(load, {}).sectors == 16
    assert kernels[2].launch_note(load.location.offset).endswith("with stride = 4")


def _tree(tmp_path: Path) -> Path:
    """The corpus's host_kernels files: kernels, their header and their launcher."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    for path in CORPUS.iterdir():
        if path.name.startswith("host_") and not path.name.endswith(".json"):
            (tmp_path / path.name).write_bytes(path.read_bytes())
    return tmp_path


def _settings(**overrides):
    settings = engine.default_settings(Config(), list(implemented()), header_mode="embedded")
    for name, value in overrides.items():
        setattr(settings, name, value)
    return settings


def _summary(result) -> list[tuple]:
    return sorted((Path(f.path).name, f.span.line, f.code, f.level.value, f.message) for f in result.findings)


def test_a_kernel_defined_in_one_file_takes_the_launches_of_another(tmp_path):
    root = _tree(tmp_path)
    whole = engine.run([str(root)], _settings(jobs=2), [])
    alone = engine.run([str(root / "host_kernels.cu")], _settings(), [])
    assert _summary(whole) == _summary(alone)
    messages = [f.message for f in whole.findings if f.code == "CL201"]
    assert messages and all("at the launch in host_launch.cu:29 with d = 64" in m for m in messages)
    stride = next(f for f in whole.findings if "`in[i * hs]`" in f.message)
    assert stride.properties["launch"] == "host_launch.cu:25"
    assert stride.properties["launchValues"] == {"hs": 64}


def test_a_warm_run_equals_a_cold_one(tmp_path):
    root = _tree(tmp_path / "tree")
    cache = tmp_path / "cache"
    cold = engine.run([str(root)], _settings(cache_dir=str(cache)), [])
    warm = engine.run([str(root)], _settings(cache_dir=str(cache)), [])
    assert cold.unit_seconds and not warm.unit_seconds  # Every unit, launches and second analyses, cached.
    assert _summary(warm) == _summary(cold)
    (root / "host_launch.cu").write_text((root / "host_launch.cu").read_text().replace("#define D 64", "#define D 65"))
    changed = engine.run([str(root)], _settings(cache_dir=str(cache)), [])
    # The kernels' file is unchanged; the launches it is judged with are not.
    assert [(f.function, f.properties["launchValues"]) for f in changed.findings if f.code == "CL201"] == [
        ("lk_shared_rows_odd", {"d": 66})
    ]


def test_the_index_gives_a_unit_only_the_launches_it_did_not_see():
    own = LaunchRecord("k", "k", "a.cu", 3, (1, 1, 1), (32, 1, 1), 0, (4,))
    other = LaunchRecord("k", "k", "b.cu", 9, (1, 1, 1), (64, 1, 1), 0, (8,))
    unrelated = LaunchRecord("j", "j", "b.cu", 10, None, None, None, ())
    index = LaunchIndex([own, other, unrelated, other])
    assert index.external_for(["k"], [own]) == (other,)
    assert index.external_for(["k"], [own, other]) == ()
    assert digest([own, other]) == digest([other, own]) != digest([own])


def test_facts_shows_the_launches_and_the_values_each_access_used(tmp_path):
    root = _tree(tmp_path)
    result = run_cli("facts", root / "host_kernels.cu", "--kernel", "lk_scaled", "--format", "json")
    assert result.exit_code == 0, result.stderr
    kernels = json.loads(result.stdout)["kernels"]
    assert [k["analyzed_for"]["arguments"] for k in kernels] == [{"scale": 1}, {"scale": 4}, {"scale": 16}]
    (launch, *_) = kernels[0]["launches"]
    assert launch["location"].endswith("host_launch.cu:32")
    assert (launch["grid"], launch["block"]) == ([32, 1, 1], [128, 1, 1])
    load = next(a for a in kernels[1]["accesses"] if a["kind"] == "load")
    assert load["launch_values"] == {"scale": 4}


def test_a_header_kernel_is_analyzed_again_once_and_only_when_no_unit_saw_all_its_launches(tmp_path, monkeypatch):
    (tmp_path / "kernels.cuh").write_text(
        "#pragma once\n"
        "__global__ void k(float* out, const float* in, int stride) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] = in[i * stride];\n"
        "}\n"
    )
    for name in ("a.cu", "b.cu", "c.cu"):
        (tmp_path / name).write_text('#include "kernels.cuh"\nvoid unused_' + name[0] + "() {}\n")
    launcher = '#include "kernels.cuh"\nvoid run(float* o, const float* i) { k<<<8, 128>>>(o, i, 8); }\n'
    (tmp_path / "launch.cu").write_text(launcher)
    again = []
    original = engine._analyze_all

    def recording(units, context, external=None, launches_only=False):
        if external:
            again.append(sorted(Path(unit.main).name for unit in external))
        return original(units, context, external, launches_only)

    monkeypatch.setattr(engine, "_analyze_all", recording)
    result = engine.run([str(tmp_path)], _settings(), [])
    assert again == []  # launch.cu saw the only launch: its analysis is the best-informed.
    (finding,) = result.findings
    assert finding.properties["launchValues"] == {"stride": 8}
    (tmp_path / "second.cu").write_text(launcher.replace("run(", "run_twice(").replace(", 8)", ", 2)"))
    engine.run([str(tmp_path)], _settings(), [])
    assert again == [["launch.cu"]]  # One unit completes the kernel with the other file's launch.


GRID_KERNEL = """\
__global__ void columns(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[threadIdx.x * gridDim.x + blockIdx.x] = in[i];
}
"""


def test_the_launch_grid_binds_grid_dim(snippets):
    facts = snippets.facts(
        GRID_KERNEL
        + """
        void run(float* out, const float* in) {
            columns<<<1, 128>>>(out, in);
            columns<<<64, 128>>>(out, in);
        }
        """
    )
    single, many = facts.kernels
    assert (single.shape.grid, many.shape.grid) == ((1, 1, 1), (64, 1, 1))
    sectors = []
    for kernel in (single, many):
        store = next(a for a, _ in kernel.accesses if a.kind.value == "store")
        sectors.append(kernel.pattern_with(store, {}).sectors)
    # One block: lanes write consecutive words. 64 blocks: each lane its own sector.
    assert sectors == [4, 32]
    store = next(a for a, _ in single.accesses if a.kind.value == "store")
    assert single.launch_note(store.location.offset).endswith("with gridDim.x = 1")


def test_an_unknown_grid_stays_sampled(snippets):
    host = "void run(float* out, const float* in, int g) { columns<<<g, 128>>>(out, in); }"
    facts = snippets.facts(GRID_KERNEL + host)
    (kernel,) = facts.kernels
    store = next(a for a, _ in kernel.accesses if a.kind.value == "store")
    assert kernel.shape.grid is None
    assert kernel.pattern_with(store, {}).sectors == 32
    assert kernel.launch_note(store.location.offset) == ""


TRIP_KERNEL = """\
__global__ void tiles(float* out, int K) {
    __shared__ float s[4096];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += s[threadIdx.x * (k + 1)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
"""


def test_a_loop_bound_the_launch_gives_sets_the_trip_count(snippets):
    facts = snippets.facts(TRIP_KERNEL + "void run(float* out) { tiles<<<8, 32>>>(out, 1); tiles<<<8, 32>>>(out, 4); }")
    one, four = facts.kernels
    for kernel, trips in ((one, 1), (four, 4)):
        (run,) = kernel.loops.values()
        assert run.trips == trips
        assert kernel.trace.loops[run.iteration].trips is None  # The trace itself does not know K.
    loads = []
    for kernel in (one, four):
        load = next(a for a, _ in kernel.accesses if a.kind.value == "load" and a.loops)
        loads.append((kernel.pattern_with(load, {}).conflict_degree, kernel.launch_note(load.location.offset)))
    # Only the trips that run are summed: one trip reads with stride 1 (no conflict); four
    # trips read with strides 1, 2, 3 and 4.
    assert loads[0] == (1.0, f"at the launch in {one.launch.where} with K = 1")
    assert loads[1][0] > 1.0 and loads[1][1].endswith("with K = 4")


def test_local_memory_is_judged_without_launch_values(snippets):
    """nvcc compiles the kernel before any launch: a loop bound only the launch gives is
    unknown to it, so the array it indexes stays in local memory whatever the launch says."""
    source = """\
__global__ void window(float* out, const float* in, int K) {
    float taps[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < K; ++k) taps[k] = in[i + k];
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += taps[k] * taps[K - 1 - k];
    out[i] = acc;
}
"""
    alone = snippets.findings(source, select=["CL502"])
    launched = snippets.findings(
        source + "void run(float* out, const float* in) { window<<<8, 128>>>(out, in, 8); }", select=["CL502"]
    )
    constant = snippets.findings(source.replace("int K)", "int)").replace("K", "8"), select=["CL502"])
    assert constant == []  # The same loops with the bound written in: unrolled, in registers.
    assert alone and {f.code for f in alone} == {"CL502"}
    assert [(f.code, f.span.line, f.message) for f in launched] == [(f.code, f.span.line, f.message) for f in alone]


def test_divergence_is_weighted_by_the_trips_the_launch_gives(snippets):
    source = """\
__global__ void smooth(float* out, const float* in, int K) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x % 2) {
        for (int j = 0; j < 16; ++j) v = sqrtf(v * v + 1.0f) * 0.5f;
    }
    for (int k = 0; k < K; ++k) v = v * 0.5f + in[i + k];
    out[i] = v;
}
void run(float* out, const float* in) { smooth<<<8, 128>>>(out, in, 1); smooth<<<8, 128>>>(out, in, 4); }
"""
    one, four = snippets.facts(source).kernels
    shares = [next(p.idle_share for b, p in kernel.branches if b.stmt.kind.value == "if") for kernel in (one, four)]
    # The odd lanes' work is a larger share of a kernel whose uniform loop runs once.
    assert shares[0] > shares[1] > 0
    (branch,) = [f for f in snippets.findings(source, select=["CL301"]) if "threadIdx.x % 2" in f.message]
    assert "with K = 1" in branch.message and branch.properties["launchValues"] == {"K": 1}
