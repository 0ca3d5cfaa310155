"""A header's templates and inline device functions are lowered only when lowered code
reaches them (``Lowering._definition``): each test here fails if the lowering
dropped something a kernel needs, or kept what nvcc compiles no code for."""

from __future__ import annotations

import os
import textwrap

import pytest

from cudalint import engine, frontend, ir
from cudalint import units as planning
from cudalint.config import Config
from cudalint.dataflow import Facts

HEADER = """
#pragma once
template <int N> __device__ inline float scaled(const float* p, int i) { return p[i * N]; }
__device__ inline float twice(float x) { return 2.0f * x; }
__device__ inline float unused_inline(const float* p) { return p[threadIdx.x * 32]; }
template <typename T> __device__ T unused_template(const T* p) { return p[threadIdx.x * 32]; }
__device__ inline float late(const float* p, int i);
__device__ float exported(const float* p) { return late(p, threadIdx.x); }
__device__ inline float late(const float* p, int i) { return p[i * 2]; }
struct Loader {
    __device__ float load(const float* p, int i) const { return p[i]; }
    __device__ float unused_member(const float* p) const { return p[threadIdx.x * 32]; }
};
struct Row {
    const float* p;
    __device__ const float* data() const { return p; }
};
struct Rows {
    Row row;
    __device__ const Row& first() const { return row; }
};
__device__ inline float level5(const float* p) { return p[threadIdx.x * 5]; }
__device__ inline float level4(const float* p) { return level5(p); }
__device__ inline float level3(const float* p) { return level4(p); }
__device__ inline float level2(const float* p) { return level3(p); }
__device__ inline float level1(const float* p) { return level2(p); }
template <typename T> struct Box {
    __device__ T get(const T* p, int i) const { return p[i * 4]; }
    __device__ T unused_get(const T* p) const { return p[threadIdx.x * 32]; }
};
__host__ __device__ inline int blocks_for(int n) { return (n + 255) / 256; }
template <typename F> __device__ inline float apply(F f, int i) { return f(i); }
template <int N> __global__ void header_kernel(const float* in, float* out) {
    out[threadIdx.x] = scaled<N>(in, threadIdx.x);
}
template <int N> void launch_header_kernel(const float* in, float* out) { header_kernel<N><<<1, 32>>>(in, out); }
"""

MAIN = """
#include "tiles.cuh"
template <int N> __global__ void strided(const float* in, float* out) {
    Loader loader;
    Box<float> box;
    out[threadIdx.x] = apply([&](int i) { return loader.load(in, i); }, threadIdx.x) + scaled<N>(in, threadIdx.x)
        + box.get(in, threadIdx.x);
    out[threadIdx.x + 32] = twice(in[threadIdx.x]);
    Rows rows{{in}};
    out[threadIdx.x + 64] = rows.first().data()[threadIdx.x];
    out[threadIdx.x + 96] = level1(in);
}
__device__ inline float own_helper(const float* p) { return p[threadIdx.x * 8]; }
void run(const float* in, float* out, int n) {
    strided<32><<<blocks_for(n), 32>>>(in, out);
    launch_header_kernel<8>(in, out);
}
"""


@pytest.fixture(scope="module")
def unit(tmp_path_factory, snippets) -> ir.TranslationUnit:
    folder = tmp_path_factory.mktemp("lazy")
    (folder / "tiles.cuh").write_text(textwrap.dedent(HEADER).lstrip("\n"), encoding="utf-8")
    main = folder / "case.cu"
    main.write_text(textwrap.dedent(MAIN).lstrip("\n"), encoding="utf-8")
    tu = frontend.parse_file(str(main), snippets.environment())
    assert not tu.errors, [e.message for e in tu.errors]
    return tu


def _named(tu: ir.TranslationUnit, name: str) -> list[ir.Function]:
    return [f for f in tu.functions if f.name == name]


def _with_args(tu: ir.TranslationUnit, name: str, *args) -> ir.Function:
    found = [f for f in _named(tu, name) if tuple(a.value for a in f.template_args) == args]
    assert len(found) == 1, [(f.name, f.template_args) for f in _named(tu, name)]
    return found[0]


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("strided", (32,)),  # a kernel template launched from host code
        ("scaled", (32,)),  # a header function template a kernel calls
        ("scaled", (8,)),  # ... called from a header kernel that a launch wrapper instantiates
        ("header_kernel", (8,)),
        ("launch_header_kernel", (8,)),  # the wrapper: the launch index reads it
    ],
)
def test_what_kernels_reach_is_lowered(unit, name, args):
    assert _with_args(unit, name, *args).body is not None


@pytest.mark.parametrize(
    "name",
    [
        "twice",  # a header's inline function a kernel calls, defined before the kernel
        "load",  # a member of a header class, called from a lambda in a kernel
        "get",  # a member of a class template specialization
        "first",  # a member called for the object of another call (`rows.first().data()`)
        "exported",  # a header's non-inline device function: emitted in every unit
        "late",  # an inline function it calls, declared before it and defined after
        "own_helper",  # the file's own inline function, called by nothing
        "run",  # host code that launches
    ],
)
def test_needed_functions_are_lowered(unit, name):
    assert [f for f in _named(unit, name) if f.body is not None], name


def test_library_code_deeper_than_the_analysis_inlines_is_not_lowered(unit):
    """The interpreter inlines helpers ``ir.INLINE_DEPTH`` calls deep below an entry point;
    a header's inline code deeper than that is never read, so it is not lowered: the call
    stays, a value computed from its arguments."""
    assert ir.INLINE_DEPTH == 4
    for name in ("level1", "level2", "level3", "level4"):
        assert [f for f in _named(unit, name) if f.body is not None], name
    assert not _named(unit, "level5")
    (level4,) = _named(unit, "level4")
    calls = [e for s in level4.body.walk() for x in s.expressions() for e in x.walk() if e.kind is ir.ExprKind.CALL]
    assert [call.name for call in calls] == ["level5"] and calls[0].decl


def test_the_lambda_and_the_template_it_is_handed_to_are_lowered(unit):
    assert any(f.name.startswith("lambda@") for f in unit.functions)
    assert any(f.name == "apply" and f.template_args for f in unit.functions)


@pytest.mark.parametrize(
    "name",
    [
        "unused_inline",  # a header's inline device function nothing calls
        "unused_template",  # a header's function template nothing instantiates
        "unused_member",  # an in-class member nothing calls
        "unused_get",  # a member of a class template nothing calls
        "blocks_for",  # header device code that only host code calls
    ],
)
def test_header_code_no_kernel_reaches_is_not_lowered(unit, name):
    assert not _named(unit, name)


def test_entry_points_are_the_kernels_and_what_other_units_could_call(unit):
    """A function called for the object of a member call (``rows.first()``) is called:
    no entry point."""
    entries = {kernel.function.display_name for kernel in Facts(unit).kernels}
    assert entries == {"strided<32>", "header_kernel<8>", "exported", "own_helper"}


def test_the_header_kernel_is_launched_through_the_wrapper(unit):
    assert {launch.kernel_name for launch in unit.launches} >= {"strided", "header_kernel"}


STANDALONE = "#pragma once\n__device__ inline float gather(const float* p) { return p[threadIdx.x * 32]; }\n"
KERNEL = '#include "lib.cuh"\n__global__ void k{n}(float* p) {{ p[threadIdx.x] = 1.0f; }}\n'


@pytest.fixture()
def library_tree(tmp_path):
    (tmp_path / "lib.cuh").write_text(STANDALONE, encoding="utf-8")
    for n in range(2):
        (tmp_path / f"k{n}.cu").write_text(KERNEL.format(n=n), encoding="utf-8")
    return tmp_path


def _gather_findings(paths) -> list:
    settings = engine.default_settings(Config(), ["CL101"], header_mode="embedded")
    run = engine.run([str(p) for p in paths], settings, [])
    return [(os.path.basename(f.span.file), f.span.line) for f in run.findings]


def test_a_header_of_the_run_keeps_its_standalone_device_functions(library_tree):
    """A user who checks a header, or the folder that holds it, asks about all its code:
    its inline device functions are analyzed though no kernel calls them, in one unit."""
    assert _gather_findings([library_tree / "lib.cuh"]) == [("lib.cuh", 2)]
    assert _gather_findings([library_tree]) == [("lib.cuh", 2)]


def test_a_header_outside_the_run_is_read_only_where_kernels_reach_it(library_tree):
    assert _gather_findings([library_tree / "k0.cu"]) == []


def test_each_header_of_the_run_is_owned_by_the_first_unit_that_covers_it(library_tree):
    settings = engine.default_settings(Config(), header_mode="embedded")
    files = sorted(str(p) for p in library_tree.iterdir())
    environment = frontend.build_environment(settings.frontend, search_from=str(library_tree))
    project = frontend.ProjectFiles(str(library_tree))
    graph = frontend.IncludeGraph.around(files, environment, project, frontend.flags.system_include_dirs(environment))
    units = planning.plan(files, set(), graph)
    assert [(os.path.basename(u.main), [os.path.basename(o) for o in u.own]) for u in units] == [
        ("k0.cu", ["lib.cuh"]),
        ("k1.cu", []),
    ]


def test_a_walk_reaches_the_call_a_member_call_is_made_on(unit):
    """``rows.first().data()``: the call of ``first`` is the receiver of the call of
    ``data``, not one of its arguments; every pass that walks expressions for calls (call
    graphs, budgets, the math library's paths) sees it."""
    kernel = _with_args(unit, "strided", 32)
    calls = [e for s in kernel.body.walk() for x in s.expressions() for e in x.walk() if e.kind is ir.ExprKind.CALL]
    named = [call.name for call in calls]
    assert "first" in named and named.index("first") > named.index("data")
