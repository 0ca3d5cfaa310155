"""bench/incomplete.py: why files end `analysis incomplete`, over a tree."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "incomplete.py"


@pytest.fixture(scope="module")
def incomplete():
    spec = importlib.util.spec_from_file_location("bench_incomplete", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_causes_and_the_files_they_reach(incomplete, tmp_path, capsys):
    root = _write(
        tmp_path / "tree",
        {
            ".git/HEAD": "",
            "lib/mpi_wrap.h": "#include <mpi.h>\n",
            "a/uses_library.cu": '#include "../lib/mpi_wrap.h"\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n',
            "b/broken.cuh": "__device__ void f() { this is not code; }\n",
            "b/broken.cu": '#include "broken.cuh"\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n',
            "c/fine.cu": "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n",
        },
    )
    assert incomplete.cause("'mpi.h' file not found", set()) == "missing header"
    assert incomplete.cause("'lib/mpi_wrap.h' file not found", {"lib/mpi_wrap.h"}) == "header in tree"
    assert incomplete.cause("'thrust/sort.h' file not found", set(), {"thrust/sort.h"}) == "toolkit header"
    assert incomplete.cause("time limit of 10 s reached after 10.1 s", set()) == "time limit"
    reached = incomplete.headers_reached([str(root / "a" / "uses_library.cu")], root)
    assert reached[str(root / "a" / "uses_library.cu")] == {str(root / "lib" / "mpi_wrap.h")}
    incomplete.main([str(root), "--headers", "embedded", "--jobs", "1", "--list"])
    output = capsys.readouterr().out
    # broken.cu is incomplete through its header, uses_library.cu for a library nobody has.
    assert "3 .cu files, 2 end analysis incomplete" in output
    assert "for the front end's own reasons: 1 (33.3%)" in output
    assert ".cu files with a 'missing header' notice: 1" in output
