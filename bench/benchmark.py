"""Speed and memory of whole runs, against libclang's bare parse of the same files.

Builds a tree of realistic kernels (the test corpus, each file copied under several
names, plus files that include cub and cooperative_groups when a toolkit is present),
then measures in one go:

  (a) libclang parsing every file, single process, with cudalint's arguments
  (b) cudalint, cold (empty cache), --jobs 1
  (c) cudalint, cold, all cores
  (d) cudalint, warm re-run of (c)
  (e) peak resident memory of any one process during (b)-(d)

    python bench/benchmark.py [--files 150] [--headers toolkit|embedded|auto] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clang import cindex

from cudalint import frontend

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
HEAVY_INCLUDES = {
    "cub_block_reduce.cu": (
        "#include <cub/cub.cuh>\n"
        "__global__ void block_sum(const float* in, float* out) {\n"
        "    using Reduce = cub::BlockReduce<float, 128>;\n"
        "    __shared__ typename Reduce::TempStorage storage;\n"
        "    float v = in[blockIdx.x * 128 + threadIdx.x];\n"
        "    float total = Reduce(storage).Sum(v);\n"
        "    if (threadIdx.x == 0) out[blockIdx.x] = total * 0.5;\n"
        "}\n"
    ),
    "cooperative_tiles.cu": (
        "#include <cooperative_groups.h>\n"
        "namespace cg = cooperative_groups;\n"
        "__global__ void tile_sum(const float* in, float* out) {\n"
        "    cg::thread_block block = cg::this_thread_block();\n"
        "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
        "    float v = in[block.thread_rank() * 2];\n"
        "    for (int o = 16; o > 0; o /= 2) v += tile.shfl_down(v, o);\n"
        "    if (tile.thread_rank() == 0) out[blockIdx.x] = v;\n"
        "}\n"
    ),
}


def build_tree(target: Path, count: int, heavy: bool) -> list[Path]:
    sources = sorted(CORPUS.rglob("*.cu"))
    files: list[Path] = []
    target.mkdir(parents=True, exist_ok=True)
    if heavy:
        for index in range(max(2, count // 15)):
            for name, text in HEAVY_INCLUDES.items():
                path = target / f"h{index}_{name}"
                path.write_text(text, encoding="utf-8")
                files.append(path)
    index = 0
    while len(files) < count:
        source = sources[index % len(sources)]
        path = target / f"c{index}_{source.name}"
        shutil.copyfile(source, path)
        files.append(path)
        index += 1
    return files


def bare_parse(files: list[Path], headers: str) -> float:
    environment = frontend.build_environment(frontend.FrontendOptions(header_mode=headers))
    index = cindex.Index.create()
    started = time.perf_counter()
    for path in files:
        index.parse(str(path), args=list(environment.args_for(str(path))), options=frontend.PARSE_OPTIONS)
    return time.perf_counter() - started


def cudalint(tree: Path, headers: str, jobs: int | None, cache: Path) -> float:
    command = [sys.executable, "-m", "cudalint", str(tree), "--format", "concise", "--headers", headers,
               "--cache-dir", str(cache), "--exit-zero"]
    if jobs:
        command += ["--jobs", str(jobs)]
    started = time.perf_counter()
    completed = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "CI": "1"})
    elapsed = time.perf_counter() - started
    if completed.returncode != 0:
        raise SystemExit(f"cudalint failed: {completed.stderr.strip()}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=150)
    parser.add_argument("--headers", choices=("toolkit", "embedded", "auto"), default="auto")
    parser.add_argument("--keep", type=Path, help="build the tree here and keep it")
    options = parser.parse_args(argv)
    mode = frontend.build_environment(frontend.FrontendOptions(header_mode=options.headers)).header_mode.value
    workdir = Path(tempfile.mkdtemp(prefix="cudalint-bench-"))
    tree = options.keep or workdir / "tree"
    try:
        files = build_tree(tree, options.files, heavy=mode == "toolkit")
        bare = bare_parse(files, mode)
        cold_one = cudalint(tree, mode, 1, workdir / "cache-one")
        cold_all = cudalint(tree, mode, None, workdir / "cache-all")
        warm = cudalint(tree, mode, None, workdir / "cache-all")
        peak_mib = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                       resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    cores = os.cpu_count() or 1
    print(f"{len(files)} files, {mode} headers, {cores} cores")
    print(f"(a) bare libclang parse, 1 process   {bare:8.2f} s")
    print(f"(b) cudalint cold, --jobs 1          {cold_one:8.2f} s   {cold_one / bare:5.2f} x bare   (target <= 1.3)")
    print(f"(c) cudalint cold, all cores         {cold_all:8.2f} s   {cold_all / bare:5.2f} x bare   (target <= 0.6)")
    print(f"(d) cudalint warm re-run             {warm:8.2f} s               (target <= 2 s)")
    print(f"(e) peak memory of one process       {peak_mib:8.0f} MiB            (target <= 1536 MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
