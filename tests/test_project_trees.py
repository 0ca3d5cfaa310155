"""Real trees with no configuration: device code in headers, kernels launched from the file
that includes them, headers the include path misses, and source bytes that are not UTF-8."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

from conftest import expectations
from cudalint import engine, frontend
from cudalint import units as planning
from cudalint.config import Config
from cudalint.diagnostics import NoticeKind
from cudalint.rules import implemented


def _write(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
    return root


def _run(paths, config: Config | None = None, jobs: int = 2, **overrides):
    settings = engine.default_settings(config or Config(), list(implemented()), header_mode="embedded")
    settings.jobs = jobs
    for name, value in overrides.items():
        setattr(settings, name, value)
    return engine.run([str(p) for p in paths], settings, [])


def _found(result, root: Path) -> Counter[tuple[str, int, str, str]]:
    return Counter((os.path.relpath(f.path, root), f.span.line, f.code, f.level.value) for f in result.findings)


def _expected(root: Path, *names: str) -> Counter[tuple[str, int, str, str]]:
    return Counter(
        {(name, e.line, e.code, e.level): count for name in names for e, count in expectations(root / name).items()}
    )


# ---------------------------------------------------------------------------- headers


HELPER_TREE = {
    "include/scale.cuh": (
        "__device__ void scale(float* a, int i) {\n"
        "    a[i * 2] = a[i * 2] * 0.5f;  // expect: CL101 warning, CL101 warning\n"
        "    // cudalint: ignore-next-line[CL101]\n"
        "    a[i * 4] = 0.0f;\n"
        "}\n"
    ),
    "include/host_only.h": "inline int twice(int x) { return 2 * x; }\n",
    "src/one.cu": (
        '#include "../include/scale.cuh"\n'
        '#include "../include/host_only.h"\n'
        "__global__ void one(float* a) { scale(a, blockIdx.x * blockDim.x + threadIdx.x); }\n"
    ),
    "src/two.cu": '#include "../include/scale.cuh"\n__global__ void two(float* a) { scale(a, threadIdx.x); }\n',
}


def test_a_header_finding_is_reported_once_from_two_includers(tmp_path):
    root = _write(tmp_path, HELPER_TREE)
    result = _run([root])
    # Both includers analyze the helper; its finding is reported once, at the header's
    # own line, and the header's own suppression comment applies.
    assert _found(result, root) == _expected(root, "include/scale.cuh")
    assert len(result.findings) == 2  # the load and the store of line 2, once each
    assert result.notices == []
    reported = {os.path.relpath(f.path, root) for f in result.files}
    assert reported == {"include/scale.cuh", "include/host_only.h", "src/one.cu", "src/two.cu"}
    assert all(f.analyzed for f in result.files)


def test_a_header_is_parsed_only_through_its_includers(tmp_path):
    root = _write(tmp_path, HELPER_TREE)
    files, _ = engine.discover([str(root)], Config(), [])
    environment = frontend.build_environment(frontend.FrontendOptions(header_mode="embedded"))
    graph = frontend.IncludeGraph.around(files, environment)
    units = planning.plan(files, set(), graph)
    assert [os.path.relpath(unit.main, root) for unit in units] == ["src/one.cu", "src/two.cu"]


def test_naming_only_the_header_analyzes_it_through_an_includer(tmp_path):
    root = _write(tmp_path, {**HELPER_TREE, "include/one.cu": HELPER_TREE["src/one.cu"].replace("../include/", "")})
    result = _run([root / "include" / "scale.cuh"])
    assert _found(result, root) == _expected(root, "include/scale.cuh")
    assert [os.path.relpath(f.path, root) for f in result.files] == ["include/scale.cuh"]


def test_naming_the_header_finds_its_includer_in_the_compile_database(tmp_path):
    root = _write(tmp_path, HELPER_TREE)
    (root / "compile_commands.json").write_text(
        json.dumps([{"directory": str(root), "file": "src/one.cu", "arguments": ["nvcc", "-c", "src/one.cu"]}])
    )
    result = _run([root / "include" / "scale.cuh"])
    assert _found(result, root) == _expected(root, "include/scale.cuh")


def test_toolkit_like_headers_outside_the_run_are_never_reported(tmp_path):
    root = _write(
        tmp_path,
        {
            "vendor/lib.cuh": "__device__ void touch(float* a) { a[threadIdx.x * 8] = 0; }\n",
            "src/k.cu": '#include "lib.cuh"\n__global__ void k(float* a) { touch(a); }\n',
        },
    )
    result = _run([root / "src"], Config(include=[str(root / "vendor")]))
    assert result.findings == [] and [os.path.relpath(f.path, root) for f in result.files] == ["src/k.cu"]


# ---------------------------------------------------------------------------- block shape from the includer


SHAPE_TREE = {
    "kernels/pairs.cu": (
        "__global__ void pairs(float* data) {\n"
        "    __shared__ float tile[16][16];\n"
        "    int tx = threadIdx.x, ty = threadIdx.y;\n"
        "    tile[ty][tx] = data[ty * 16 + tx];\n"
        "    __syncthreads();\n"
        "    if (ty % 2 == 0) tile[ty][tx] += tile[ty + 1][tx];  // expect: CL301 warning\n"
        "    data[ty * 16 + tx] = tile[ty][tx];\n"
        "}\n"
    ),
    "kernels/main.cu": (
        '#include "pairs.cu"\nvoid run(float* d) {\n    dim3 block(16, 16);\n    pairs<<<1, block>>>(d);\n}\n'
    ),
}


def test_the_block_shape_comes_from_the_launch_in_the_includer(tmp_path):
    root = _write(tmp_path, SHAPE_TREE)
    # Alone, the kernel would be judged with an assumed shape where each warp has one `ty`:
    # the branch is uniform there, so the finding proves the includer's 16x16 launch was used.
    alone = frontend.parse_unit(
        str(root / "kernels" / "pairs.cu"), frontend.build_environment(frontend.FrontendOptions(header_mode="embedded"))
    ).lower()
    assert engine.check(alone, engine.default_settings(Config(), list(implemented()), header_mode="embedded")) == []
    for paths in ([root], [root / "kernels" / "pairs.cu"]):
        result = _run(paths)
        assert _found(result, root) == _expected(root, "kernels/pairs.cu"), paths
        (finding,) = result.findings
        assert "16x16" in finding.message and "assuming" not in finding.message
    tu = frontend.parse_file(
        str(root / "kernels" / "pairs.cu"), frontend.build_environment(frontend.FrontendOptions(header_mode="embedded"))
    )
    from cudalint.dataflow import Facts

    (kernel,) = Facts(tu).kernels
    assert (kernel.shape.x, kernel.shape.y, kernel.shape.source) == (16, 16, "launch at main.cu:4")


def test_the_most_informed_analysis_wins_and_nothing_is_reported_twice(tmp_path):
    root = _write(
        tmp_path,
        {
            **SHAPE_TREE,
            # A second includer that does not launch the kernel: its analysis assumes a shape.
            "kernels/other.cu": '#include "pairs.cu"\nint main() { return 0; }\n',
        },
    )
    result = _run([root])
    assert _found(result, root) == _expected(root, "kernels/pairs.cu")


# ---------------------------------------------------------------------------- headers found in the project


FOUND_TREE = {
    "cudalint.toml": "",
    "common/inc/tiles.h": "#define TILE 16\n",
    "build/tiles.h": "#define TILE 1\n",
    "app/main.cu": (
        '#include "tiles.h"\n'
        "__global__ void strided(float* a) { a[threadIdx.x * TILE] = 0.0f; }  // expect: CL101 warning\n"
    ),
    "app/more.cu": "#include <tiles.h>\n__global__ void more(float* a) { a[threadIdx.x] = TILE; }\n",
}


def test_a_missing_header_is_found_in_the_project(tmp_path):
    from cudalint.config import load_config

    root = _write(tmp_path, FOUND_TREE)
    result = _run([root / "app"], load_config(root / "cudalint.toml"))
    assert _found(result, root) == _expected(root, "app/main.cu")
    # Found in the source tree, not in the build directory; said once for the run.
    (note,) = result.notices
    assert note.kind is NoticeKind.NOTE and note.path == str(root / "app" / "main.cu")
    assert note.message.startswith(
        f"'tiles.h' found in common{os.sep}inc{os.sep}: directory added to the include path, as do 1 other file"
    )
    finding = result.findings[0]
    assert "64 bytes apart" in finding.message and "recovered" not in finding.message


def test_the_nearest_copy_wins(tmp_path):
    root = _write(
        tmp_path,
        {
            ".git/HEAD": "",
            "a/inc/config.h": "#define STRIDE 2\n",
            "a/src/k.cu": '#include "config.h"\n__global__ void k(float* x) { x[threadIdx.x * STRIDE] = 0; }\n',
            "b/inc/config.h": "#define STRIDE 8\n",
        },
    )
    result = _run([root / "a" / "src" / "k.cu"])
    (finding,) = result.findings
    assert "8 bytes apart" in finding.message


def test_among_equally_near_copies_the_most_alike_path_wins(tmp_path):
    root = _write(
        tmp_path,
        {
            "cudalint.toml": "",
            "p4/reference.h": "#define STRIDE 8\n",
            "blas-gemm/reference.h": "#define STRIDE 2\n",
            "blas-gemm-batched/main.cu": (
                '#include "reference.h"\n__global__ void k(float* x) { x[threadIdx.x * STRIDE] = 0; }\n'
            ),
        },
    )
    from cudalint.config import load_config

    result = _run([root / "blas-gemm-batched"], load_config(root / "cudalint.toml"))
    (finding,) = result.findings
    assert "8 bytes apart" in finding.message


def test_the_search_can_be_turned_off(tmp_path):
    root = _write(tmp_path, FOUND_TREE)
    result = _run([root / "app" / "main.cu"], project_includes=False)
    (notice,) = result.notices
    assert notice.kind is NoticeKind.INCOMPLETE and "'tiles.h' file not found" in notice.message


# ---------------------------------------------------------------------------- bytes as nvcc reads them


def test_bytes_that_are_not_utf8_are_read_as_the_compiler_reads_them(tmp_path):
    # A Windows-1252 apostrophe (0x92) and e-acute (0xe9) in comments and a string.
    source = (
        b"// the kernel\x92s comment, caf\xe9\n"
        b'__global__ void k(float* a) { const char* s = "\x92"; /* \xe9 */ a[threadIdx.x * 2] = 0; }\n'
        b"__global__ void q(float* a) {\n"
        b"    a[threadIdx.x * 4] = 1;  // cudalint: ignore[CL101] it\x92s known\n"
        b"}\n"
    )
    path = tmp_path / "cp1252.cu"
    path.write_bytes(source)
    result = _run([path])
    assert result.notices == [] and result.files[0].analyzed
    (finding,) = result.findings
    line = source.splitlines()[1].decode("utf-8", errors="replace")
    # Columns count characters: each byte that is not UTF-8 is one.
    assert finding.span.line == 2 and finding.span.column == line.index("a[threadIdx.x * 2]") + 1
    assert finding.span.end_column == finding.span.column + len("a[threadIdx.x * 2]")
    assert "`a[threadIdx.x * 2]`" in finding.message


# ---------------------------------------------------------------------------- where the project is


KERNELS_TREE = {
    "include/kernels.cuh": (
        "__global__ void strided(float* a) {\n    a[threadIdx.x * 2] = 0.0f;  // expect: CL101 warning\n}\n"
    ),
    "src/main.cu": ('#include "kernels.cuh"\nint main() { strided<<<1, 256>>>(nullptr); }\n'),
}


def test_a_header_found_by_the_project_search_is_analyzed_as_project_code(tmp_path):
    root = _write(tmp_path, {".git/HEAD": "", **KERNELS_TREE})
    searched = _run([root])
    named = _run([root], Config(include=[str(root / "include")]))
    assert _found(searched, root) == _found(named, root) == _expected(root, "include/kernels.cuh")


ARCHIVE_TREE = {
    "CMakeLists.txt": "add_subdirectory(src)\n",
    "include/lib.h": "#define STRIDE 2\n",
    "src/CMakeLists.txt": "add_subdirectory(cuda)\n",
    "src/cuda/CMakeLists.txt": "add_library(k k.cu)\n",
    "src/cuda/k.cu": (
        '#include "lib.h"\n'
        "__global__ void k(float* x) {\n"
        "    x[threadIdx.x * STRIDE] = 0;  // expect: CL101 warning\n"
        "}\n"
    ),
}


def test_without_a_repository_the_outermost_build_file_marks_the_project(tmp_path):
    root = _write(tmp_path / "unpacked", ARCHIVE_TREE)
    result = _run([root / "src" / "cuda"])
    assert _found(result, root) == _expected(root, "src/cuda/k.cu")
    (note,) = result.notices
    assert note.message.startswith(f"'lib.h' found in include{os.sep}: ")


def test_the_project_root(tmp_path):
    tree = _write(tmp_path / "tree", {"a/b/CMakeLists.txt": "", "a/b/c/d/k.cu": "", "a/Makefile": "", "x/y/k.cu": ""})
    assert frontend.project_root(str(tree / "a" / "b" / "c" / "d" / "k.cu")) == str(tree / "a")
    # Nothing marks a project: the directory itself.
    assert frontend.project_root(str(tree / "x" / "y")) == str(tree / "x" / "y")
    # A repository is the project, whatever build files lie above it.
    _write(tree, {"a/b/.git/HEAD": ""})
    assert frontend.project_root(str(tree / "a" / "b" / "c" / "d")) == str(tree / "a" / "b")


def test_a_header_in_another_vendors_branch_is_not_announced(tmp_path):
    root = _write(
        tmp_path,
        {
            ".git/HEAD": "",
            "vendors/hip/hip_compat.h": "#error not this build\n",
            "vendors/cuda/cuda_compat.h": "#define STRIDE 2\n",
            "src/k.cu": (
                "#if defined(USE_HIP)\n"
                '#include "hip_compat.h"\n'
                "#else\n"
                '#include "cuda_compat.h"\n'
                "#endif\n"
                "__global__ void k(float* x) {\n"
                "    x[threadIdx.x * STRIDE] = 0;  // expect: CL101 warning\n"
                "}\n"
            ),
        },
    )
    result = _run([root / "src"])
    assert _found(result, root) == _expected(root, "src/k.cu")
    (note,) = result.notices
    assert note.message.startswith(f"'cuda_compat.h' found in vendors{os.sep}cuda{os.sep}: ")


def test_the_project_root_stays_below_the_home_directory(tmp_path, monkeypatch):
    tree = _write(tmp_path / "home", {"Makefile": "", "work/k.cu": ""})
    monkeypatch.setenv("HOME", str(tree))
    # A build file in the home directory says nothing about a project.
    assert frontend.project_root(str(tree / "work")) == str(tree / "work")
