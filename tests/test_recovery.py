"""Code that does not parse cleanly: files written to be included, the texture-reference API
CUDA 12 removed, names from missing headers or macros, headers that are not installed."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

from conftest import analyze, as_expectations, expectations
from cudalint import engine, frontend, ir
from cudalint.config import Config
from cudalint.dataflow import Facts, MemorySpace, Variance
from cudalint.frontend import recovery
from cudalint.rules import implemented

RECOVERED = engine.RECOVERED_CODE


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _run(paths, header_mode="embedded", config: Config | None = None):
    settings = engine.default_settings(config or Config(), list(implemented()), header_mode=header_mode)
    settings.jobs = 2
    return engine.run([str(p) for p in paths], settings, [])


def _found(result) -> Counter[tuple[str, int, str, str]]:
    return Counter((os.path.basename(f.path), f.span.line, f.code, f.level.value) for f in result.findings)


def _expected(root: Path) -> Counter[tuple[str, int, str, str]]:
    return Counter(
        {
            (path.name, e.line, e.code, e.level): count
            for path in root.rglob("*.cu*")
            for e, count in expectations(path).items()
        }
    )


def _parse(path: Path, header_mode: str = "embedded") -> ir.TranslationUnit:
    environment = frontend.build_environment(frontend.FrontendOptions(header_mode=header_mode))
    return frontend.parse_file(str(path), environment)


def _kernel(tu: ir.TranslationUnit, name: str):
    return next(k for k in Facts(tu).kernels if k.function.name == name)


# ---------------------------------------------------------------------------- files written to be included

FRAGMENT_TREE = {
    "main.cu": (
        "#define THREADS 256\n"
        "struct Node { int start; int count; };\n"
        '#include "kernel.cu"\n'
        "int main() {\n"
        "    Node* nodes = 0; int* cost = 0;\n"
        "    expand<<<64, THREADS>>>(nodes, cost, 1000);\n"
        "    return 0;\n"
        "}\n"
    ),
    "kernel.cu": (
        "// Written to be included after the types and macros it uses.\n"
        "__global__ void expand(Node* nodes, int* cost, int n) {\n"
        "    int tid = blockIdx.x * THREADS + threadIdx.x;\n"
        "    if (tid < n) {\n"
        "        int first = nodes[tid].start;  // expect: CL102 warning\n"
        "        cost[tid * 2] = first;  // expect: CL101 warning\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_file_that_only_compiles_inside_its_includer_is_analyzed_there(tmp_path, header_mode):
    root = _write(tmp_path, FRAGMENT_TREE)
    result = _run([root], header_mode)
    assert _found(result) == _expected(root)
    assert result.notices == []
    # The block shape comes from the includer's launch.
    tu = _parse(root / "kernel.cu", header_mode)
    assert not tu.errors and _kernel(tu, "expand").shape.x == 256


def test_the_includer_is_the_context_even_when_only_the_compile_database_lists_it(tmp_path):
    root = _write(
        tmp_path,
        {
            "src/main.cu": '#include "kernels/step.cuh"\n',
            "src/kernels/step.cuh": (
                "__global__ void step(float* a) {\n    a[threadIdx.x * STRIDE] = 0;  // expect: CL101 warning\n}\n"
            ),
        },
    )
    (root / "build").mkdir()
    (root / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(root / "build"),
                    "file": "../src/main.cu",
                    "arguments": ["nvcc", "-DSTRIDE=4", "-c", "../src/main.cu"],
                },
            ]
        )
    )
    result = _run([root / "src" / "kernels" / "step.cuh"])
    assert _found(result) == _expected(root / "src" / "kernels") and result.notices == []


def test_a_header_that_parses_alone_is_analyzed_alone_and_reported_once(tmp_path):
    root = _write(
        tmp_path,
        {
            "scale.cuh": "__global__ void scale(float* a) { a[threadIdx.x] *= 0.5; }  // expect: CL401 note\n",
            "one.cu": '#include "scale.cuh"\n',
            "two.cu": '#include "scale.cuh"\n',
        },
    )
    result = _run([root])
    assert _found(result) == _expected(root)


def test_include_graph_resolves_like_the_compiler(tmp_path):
    root = _write(
        tmp_path,
        {
            "app/main.cu": '#include "../kernels/a.cu"\n#include <b.cuh>\n// #include "c.cu" is only a comment\n',
            "app/c.cu": "",
            "kernels/a.cu": '#include "b.cuh"\n',
            "kernels/b.cuh": "",
            "kernels/angle.cu": "#include <a.cu>\n",
        },
    )
    files = [str(p) for p in root.rglob("*.cu*")]
    graph = frontend.IncludeGraph.scan(files, lambda path: (f"-I{root / 'kernels'}",))
    main, a, b = str(root / "app/main.cu"), str(root / "kernels/a.cu"), str(root / "kernels/b.cuh")
    angle = str(root / "kernels/angle.cu")
    # Files nothing includes come first (translation units of their own), nearer before farther.
    assert graph.includers_of(b) == (main, angle, a)
    assert graph.includers_of(a) == (main, angle)
    assert graph.includers_of(str(root / "app/c.cu")) == ()


def test_an_includer_that_does_not_really_include_the_file_is_passed_over(tmp_path):
    root = _write(
        tmp_path,
        {
            "main.cu": '#if 0\n#include "kernel.cu"\n#endif\n',
            "kernel.cu": "__global__ void k(float* a) { a[threadIdx.x] = MISSING; }\n",
        },
    )
    tu = _parse(root / "kernel.cu")
    assert [e.message for e in tu.errors] == ["use of undeclared identifier 'MISSING'"]


# ---------------------------------------------------------------------------- texture references

LEGACY = """\
texture<float, 1, cudaReadModeElementType> weights;
texture<float4, cudaTextureType2D> image;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> mask;
surface<void, 2> canvas;

__global__ void gather(float* out, const int* index, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch(weights, index[i]) * 0.5;  // expect: CL401 note
}

__global__ void blur(float4* out, int width) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    float4 texel = tex2D(image, x + 0.5f, y + 0.5f);
    float weight = tex2D(mask, x, y);
    out[y * width + x] = make_float4(texel.x * weight, texel.y, texel.z, texel.w);
    surf2Dwrite(weight, canvas, x * 4, y);
}

void bind(float* device, float4* pixels, size_t n, cudaArray* array) {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
    weights.filterMode = cudaFilterModePoint;
    cudaBindTexture(0, weights, device, n * sizeof(float));
    cudaBindTexture2D(0, image, pixels, desc, 64, 64, 64 * sizeof(float4));
    cudaBindTextureToArray(mask, array);
    cudaBindSurfaceToArray(canvas, array);
    cudaUnbindTexture(weights);
}
"""


def test_texture_references_parse_and_their_kernels_have_facts(tmp_path, header_mode):
    path = tmp_path / "legacy.cu"
    path.write_text(LEGACY)
    tu = _parse(path, header_mode)
    assert tu.errors == ()
    gather = _kernel(tu, "gather")
    # The fetch is a read through the texture cache, not a global access to judge: only
    # the index load and the store are recorded; the fetched value varies like its index.
    assert [(a.space, a.kind.value, a.location.base) for a, _ in gather.accesses] == [
        (MemorySpace.GLOBAL, "load", "index"),
        (MemorySpace.GLOBAL, "store", "out"),
    ]
    blur = _kernel(tu, "blur")
    assert [(a.kind.value, a.location.base) for a, _ in blur.accesses] == [("store", "out")]
    result = analyze(path, header_mode)
    assert as_expectations(result.findings) == expectations(path)
    assert result.notices == []


def test_a_fetched_value_is_as_uniform_as_its_coordinates(tmp_path):
    path = tmp_path / "branch.cu"
    path.write_text(
        "texture<int, 1> flags;\n"
        "__global__ void k(float* a, int row) {\n"
        "    if (tex1Dfetch(flags, row)) a[threadIdx.x] = 0;\n"
        "    if (tex1Dfetch(flags, threadIdx.x)) a[threadIdx.x] = 1;\n"
        "}\n"
    )
    variances = [pattern.variance for _, pattern in _kernel(_parse(path), "k").branches]
    assert variances == [Variance.UNIFORM, Variance.DATA]


def test_removed_thread_calls_parse_with_compatibility_declarations(tmp_path, header_mode):
    path = tmp_path / "old_host.cu"
    path.write_text(
        "__global__ void k(float* a) { a[threadIdx.x * 2] = 0; }  // expect: CL101 warning\n"
        "void run(float* a) {\n"
        "    cudaThreadSetLimit(cudaLimitStackSize, 4096);\n"
        "    k<<<1, 128>>>(a);\n"
        "    cudaThreadSynchronize();\n"
        "    cudaThreadExit();\n"
        "}\n"
    )
    tu = _parse(path, header_mode)
    assert tu.errors == ()
    result = analyze(path, header_mode)
    assert as_expectations(result.findings) == expectations(path)
    assert result.notices == []


def test_own_texture_type_is_left_alone(tmp_path):
    path = tmp_path / "own.cu"
    path.write_text("struct texture { float* data; };\n__global__ void k(texture t) { t.data[threadIdx.x] = 0; }\n")
    tu = _parse(path)
    assert tu.errors == () and recovery.LEGACY_HEADER not in tu.includes


def test_every_legacy_trigger_is_found_by_the_scan_before_parsing():
    from cudalint.frontend import includes

    assert all(any(word in name.encode() for word in includes._LEGACY_WORDS) for name in recovery.LEGACY_NAMES)


def test_every_legacy_trigger_is_declared_by_the_compatibility_header():
    declared = Path(recovery.LEGACY_HEADER).read_text()
    assert all(re.search(rf"\b{name}\b", declared) for name in recovery.LEGACY_NAMES)


# ---------------------------------------------------------------------------- unknown names

UNKNOWN = """\
__global__ void scaled(float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = SCALE * a[i];
    b[i * STRIDE] = s;  // expect: CL101 note
    if (ENABLED) b[i] = s;
    if (is_active(i)) a[i] = clamp_to(b[i], LIMIT);  // expect: CL301 note
}

__global__ void clean(float* a) { a[threadIdx.x] = a[threadIdx.x] * 0.5; }  // expect: CL401 note
"""


def test_statements_using_unknown_names_are_kept(tmp_path, header_mode):
    path = tmp_path / "unknown.cu"
    path.write_text(UNKNOWN)
    tu = _parse(path, header_mode)
    # The errors are still reported: the file is incomplete.
    assert [e.message for e in tu.errors][:2] == [
        "use of undeclared identifier 'SCALE'",
        "use of undeclared identifier 'STRIDE'",
    ]
    kernel = _kernel(tu, "scaled")
    assert [(a.kind.value, a.location.base, a.span.line) for a, _ in kernel.accesses] == [
        ("load", "a", 3),
        ("store", "b", 4),
        ("store", "b", 5),
        ("load", "b", 6),
        ("store", "a", 6),
    ]
    stride = kernel.accesses[1][1]
    assert stride.depends_on == ("STRIDE",)
    # A name alone is the same in every thread; a call on a thread's index is not.
    assert [p.variance for _, p in kernel.branches] == [Variance.UNIFORM, Variance.DATA]


def test_findings_in_recovered_functions_say_so(tmp_path):
    path = tmp_path / "unknown.cu"
    path.write_text(UNKNOWN)
    result = analyze(path)
    assert as_expectations(result.findings) == expectations(path)
    recovered = {f.span.line: f.message.endswith(RECOVERED) for f in result.findings}
    assert recovered == {4: True, 6: True, 9: False}
    (notice,) = result.notices
    assert notice.message == "use of undeclared identifier 'SCALE'" and notice.line == 3


def test_a_name_declared_after_its_use_is_not_declared_again(tmp_path):
    path = tmp_path / "later.cu"
    path.write_text(
        "__device__ float twice(float x);\n"
        "__global__ void k(float* a) { a[threadIdx.x] = helper(a[threadIdx.x]); }\n"
        "__device__ float helper(float x) { return twice(x); }\n"
    )
    tu = _parse(path)
    assert [e.message for e in tu.errors] == ["use of undeclared identifier 'helper'"]
    assert recovery.UNKNOWNS_HEADER not in tu.includes


def test_recovery_declares_calls_as_functions_and_the_rest_as_values():
    source = b"x = f (1) + N;\n"
    uses = {"f": [ir.Span("a.cu", 1, 5, 1, 5)], "N": [ir.Span("a.cu", 1, 13, 1, 13)]}
    declarations = recovery.unknown_declarations(uses, {"a.cu": source})
    assert "int N;" in declarations and "int f(A &&...);" in declarations


# ---------------------------------------------------------------------------- headers that are not installed

MISSING = (
    '#include <cudalint_absent_mpi.h>\n#include "cudalint_absent_gl.h"\n'
    "__global__ void k{n}(float* a) {{ a[threadIdx.x] = 0; }}\n"
)


def test_a_missing_header_is_named_once_per_run(tmp_path):
    root = _write(tmp_path, {f"k{n}.cu": MISSING.format(n=n) for n in range(3)})
    result = _run([root])
    lines = [n.one_line() for n in result.notices]
    assert lines == [
        f"{root / 'k0.cu'}:1:10: analysis incomplete: 'cudalint_absent_mpi.h' file not found (2 more files include it);"
        " analyzed without it: add its directory to the `include` setting or -I",
        f"{root / 'k0.cu'}:2:10: analysis incomplete: 'cudalint_absent_gl.h' file not found (2 more files include it);"
        " analyzed without it: add its directory to the `include` setting or -I",
    ]
    assert all(r.analyzed for r in result.files)


def test_the_include_setting_finds_them(tmp_path):
    root = _write(
        tmp_path,
        {
            "cudalint.toml": 'include = ["third_party"]\n',
            "third_party/cudalint_absent_mpi.h": "#define RANKS 4\n",
            "third_party/cudalint_absent_gl.h": "",
            "k.cu": MISSING.format(n=0),
        },
    )
    from cudalint.config import load_config

    result = _run([root / "k.cu"], config=load_config(root / "cudalint.toml"))
    assert result.notices == [] and result.files[0].analyzed


# ---------------------------------------------------------------------------- parses per file


def _parses_per_unit(root: Path, monkeypatch, header_mode: str = "embedded") -> dict[str, int]:
    """How many times libclang parses each translation unit of a run over ``root``, the
    units planned and analyzed as a run's workers do."""
    from cudalint import units as planning

    counts: Counter[str] = Counter()
    parse = frontend._Parser.parse

    def counted(parser, *args, **kwargs):
        counts[os.path.basename(parser.main)] += 1
        return parse(parser, *args, **kwargs)

    monkeypatch.setattr(frontend._Parser, "parse", counted)
    settings = engine.default_settings(Config(), list(implemented()), header_mode=header_mode)
    files, _ = engine.discover([str(root)], settings.config, [])
    environment = frontend.build_environment(settings.frontend)
    project = frontend.ProjectFiles(str(root))
    graph = frontend.IncludeGraph.around(files, environment, project)
    for unit in planning.plan(files, set(), graph):
        result = engine.analyze_unit(unit, environment, settings, project)
        assert result.analyzed and not result.internal_error
    return dict(counts)


def test_recovery_that_the_scan_foresees_costs_no_second_parse(tmp_path, monkeypatch):
    root = _write(
        tmp_path,
        {
            "legacy.cu": LEGACY,
            "old_host.cu": "void run() { cudaThreadSynchronize(); }\n",
            "app/uses_tiles.cu": '#include "tiles.h"\n__global__ void k(float* a) { a[threadIdx.x * TILE] = 0; }\n',
            "common/inc/tiles.h": "#define TILE 2\n",
        },
    )
    assert _parses_per_unit(root, monkeypatch) == {"legacy.cu": 1, "old_host.cu": 1, "uses_tiles.cu": 1}


def test_names_declared_nowhere_are_the_one_reason_to_parse_again(tmp_path, monkeypatch):
    # Which names a missing header or macro would have declared shows only in the parse.
    root = _write(tmp_path, {"unknown.cu": UNKNOWN, "missing.cu": MISSING.format(n=0), "legacy.cu": LEGACY})
    assert _parses_per_unit(root, monkeypatch) == {"unknown.cu": 2, "missing.cu": 1, "legacy.cu": 1}


def test_rejected_assembly_escapes_are_kept_in_place():
    source = (
        b'asm("mov.u32 %0, %laneid; %% %%smid %l0 %{ \\" %p" : "=r"(x)); int y = 1;\n'
        b'  "setp.ne.u32 %p, %1, 0;"\n'
        b"int z = 100 % 7;\n"
    )
    kept = recovery.asm_escapes_kept(source, [1])
    assert len(kept) == len(source)
    lines = kept.split(b"\n")
    # Only the unknown escapes change, in the reported line and the string continuing it.
    assert lines[0] == b'asm("mov.u32 %0, $laneid; %% %%smid %l0 %{ \\" $p" : "=r"(x)); int y = 1;'
    assert lines[1] == b'  "setp.ne.u32 $p, %1, 0;"'
    assert lines[2] == b"int z = 100 % 7;"


def test_errors_nvcc_does_not_make_are_not_errors():
    accepted = [
        "reference to __global__ function 'child' in __global__ function",
        "reference to __global__ function 'child' in __device__ function",
        "initialization is not supported for __shared__ variables.",
    ]
    assert all(recovery.accepted_by_nvcc(ir.ParseError(m, None)) for m in accepted)
    assert not recovery.accepted_by_nvcc(ir.ParseError("use of undeclared identifier 'child'", None))


def test_alignas_after_a_gnu_attribute_moves_to_the_front_of_its_declaration():
    source = (
        b"    __shared__ alignas(16) float tile[256]; __shared__ __align__(8) static alignas(alignof(double)) int x;\n"
    )
    moved = recovery.alignas_moved(source, [(1, 16), (1, 76)])
    assert len(moved) == len(source)
    assert moved == (
        b"    alignas(16) __shared__ float tile[256]; alignas(alignof(double)) __shared__ __align__(8) static int x;\n"
    )
    # A name keeps its offset; a spot that is not an alignas is left alone.
    assert moved.index(b"tile") == source.index(b"tile")
    assert recovery.alignas_moved(source, [(1, 5)]) == source
